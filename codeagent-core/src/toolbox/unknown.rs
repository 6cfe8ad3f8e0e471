//! Call arguments a tool's input schema does not declare, and what a toolbox
//! does with them.

use serde_json::{Map, Value};

/// What a [`Toolbox`](super::Toolbox) does with a call's arguments that the
/// tool's input schema does not declare, for a tool whose schema refuses
/// them (`additionalProperties: false`, as `#[tool]` lists).
///
/// Hosts add arguments of their own: Gemini CLI puts a `wait_for_previous`
/// property into every tool's schema and forwards it in the calls its model
/// makes. Listings keep `additionalProperties: false` either way (LLM APIs
/// with strict schemas need it); this decides the call.
///
/// ```
/// use codeagent_core::tools::UnknownArguments;
/// assert_eq!(UnknownArguments::default(), UnknownArguments::Drop);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UnknownArguments {
    /// Leave them out before the tool sees the call, logging their names at
    /// debug level (target `codeagent::toolbox`). The default: real hosts work.
    #[default]
    Drop,
    /// Keep them, so the tool refuses the call with an error result naming
    /// the argument (`unknown field `colour`, expected `color``): a misspelt
    /// argument is caught, and hosts that add arguments of their own fail.
    Refuse,
}

/// Removes from `arguments` the top-level properties that `schema` does not
/// declare, when it refuses undeclared ones; returns their names.
pub(crate) fn drop_undeclared(arguments: &mut Map<String, Value>, schema: &Value) -> Vec<String> {
    if schema.get("additionalProperties") != Some(&Value::Bool(false)) {
        return Vec::new();
    }
    let declared = schema.get("properties").and_then(Value::as_object);
    let is_declared = |name: &str| declared.is_some_and(|properties| properties.contains_key(name));
    let undeclared: Vec<String> = arguments.keys().filter(|name| !is_declared(name)).cloned().collect();
    for name in &undeclared {
        arguments.remove(name);
    }
    undeclared
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn arguments(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn undeclared_arguments_go_when_the_schema_refuses_them() {
        let schema = json!({"type": "object", "properties": {"a": {}}, "additionalProperties": false});
        let mut args = arguments(json!({"a": 1, "wait_for_previous": true}));
        assert_eq!(drop_undeclared(&mut args, &schema), ["wait_for_previous"]);
        assert_eq!(Value::Object(args), json!({"a": 1}));
    }

    #[test]
    fn a_schema_that_admits_more_keeps_everything() {
        let schema = json!({"type": "object", "properties": {"a": {}}});
        let mut args = arguments(json!({"a": 1, "b": 2}));
        assert!(drop_undeclared(&mut args, &schema).is_empty());
        assert_eq!(args.len(), 2);
    }

    #[test]
    fn a_schema_without_properties_declares_none() {
        let schema = json!({"type": "object", "additionalProperties": false});
        let mut args = arguments(json!({"x": 1}));
        assert_eq!(drop_undeclared(&mut args, &schema), ["x"]);
        assert!(args.is_empty());
    }
}
