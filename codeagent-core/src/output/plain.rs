//! Plain Rust values as tool results: each becomes one text value.

use std::borrow::Cow;

use serde_json::Value;

use super::{IntoToolResult, Text, ToolError};
use crate::result::ToolResult;

impl IntoToolResult for ToolResult {
    fn into_tool_result(self) -> ToolResult {
        self
    }
}

impl IntoToolResult for String {
    fn into_tool_result(self) -> ToolResult {
        Text::new(self).into_tool_result()
    }
}

impl IntoToolResult for &str {
    fn into_tool_result(self) -> ToolResult {
        Text::new(self).into_tool_result()
    }
}

impl IntoToolResult for Cow<'_, str> {
    fn into_tool_result(self) -> ToolResult {
        Text::new(self.into_owned()).into_tool_result()
    }
}

impl IntoToolResult for () {
    fn into_tool_result(self) -> ToolResult {
        Text::new("").into_tool_result()
    }
}

macro_rules! displayed {
    ($($ty:ty),* $(,)?) => {$(
        impl IntoToolResult for $ty {
            fn into_tool_result(self) -> ToolResult {
                Text::new(self.to_string()).into_tool_result()
            }
        }
    )*};
}

displayed!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64, bool, char);

/// A JSON value is ordinary output: one text value, a string as itself and
/// anything else as compact JSON. Use [`Json`](super::Json) for structured content.
impl IntoToolResult for Value {
    fn into_tool_result(self) -> ToolResult {
        match self {
            Value::String(text) => Text::new(text).into_tool_result(),
            other => Text::new(other.to_string()).into_tool_result(),
        }
    }
}

impl<T: IntoToolResult, E: Into<ToolError>> IntoToolResult for Result<T, E> {
    fn into_tool_result(self) -> ToolResult {
        match self {
            Ok(output) => output.into_tool_result(),
            Err(error) => error.into().into_tool_result(),
        }
    }

    fn output_schema() -> Option<Value> {
        T::output_schema()
    }

    fn is_rich() -> bool {
        T::is_rich()
    }
}
