//! Decoding a call's arguments into a tool's argument struct.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{ToolCall, ToolSpec};
use crate::output::ToolError;

/// Decodes the call's arguments as `A`, then checks every constraint of the
/// tool's input schema that serde does not (ranges, lengths, `pattern`,
/// `format`, `uniqueItems`, `const`, `enum`, `anyOf`/`oneOf`, ...). An
/// invalid argument gives the tool error to return (as an error result,
/// `is_error: true`), naming the field path, so the model can correct itself;
/// serde's own message wins when serde refuses the arguments too.
pub fn decode_arguments<A: DeserializeOwned>(spec: &ToolSpec, call: &mut ToolCall) -> Result<A, ToolError> {
    let checker = match spec.checker() {
        Ok(checker) => checker,
        Err(refusal) => {
            return Err(ToolError::new(format!(
                "Invalid arguments for tool {}: its input schema cannot be enforced: {refusal}",
                spec.name()
            )));
        }
    };
    let arguments = Value::Object(call.take_arguments());
    let violation = checker.and_then(|checker| checker.first_violation(&spec.definition().input_schema, &arguments));
    let decoded = serde_path_to_error::deserialize::<_, A>(arguments);
    let problem = match (decoded, violation) {
        (Ok(arguments), None) => return Ok(arguments),
        (Ok(_), Some((path, message))) => located(&path, &message),
        (Err(error), _) => located(&error.path().to_string(), &error.inner().to_string()),
    };
    Err(ToolError::new(format!("Invalid arguments for tool {}: {problem}", spec.name())))
}

fn located(path: &str, message: &str) -> String {
    match path {
        "" | "." => message.to_owned(),
        path => format!("`{path}`: {message}"),
    }
}
