//! The MCP rule for tool names.

/// The longest tool name MCP clients accept.
const MAX_TOOL_NAME: usize = 64;

/// Why `name` is not a valid tool name, if it is not: 1 to 64 characters of
/// `A-Z a-z 0-9 _ . -`.
pub(crate) fn tool_name_problem(name: &str) -> Option<String> {
    let length = name.chars().count();
    if length == 0 {
        return Some("a tool name cannot be empty".to_owned());
    }
    if length > MAX_TOOL_NAME {
        return Some(format!("the tool name `{name}` has {length} characters; MCP allows at most {MAX_TOOL_NAME}"));
    }
    if let Some(bad) = name.chars().find(|ch| !(ch.is_ascii_alphanumeric() || matches!(ch, '_' | '.' | '-'))) {
        return Some(format!(
            "the tool name `{name}` contains `{bad}`; tool names may only use letters, digits, `_`, `.` and `-`"
        ));
    }
    None
}
