//! The `#[tool]` attribute macro of codeagent.
