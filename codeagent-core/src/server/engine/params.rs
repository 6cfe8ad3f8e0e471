//! What every request's params must be before any handler reads them, and
//! params decoded into types: a malformed field is `-32602` naming the field
//! (serde's path), never a default.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::mcp::json_type;
use crate::mcp::meta::PROGRESS_TOKEN_KEY;
use crate::server::jsonrpc::{INVALID_PARAMS, RpcError};

/// The `-32602` error for `field` (a dotted path into the params), with the
/// field in `data.field`.
pub(super) fn invalid_field(field: &str, problem: &str) -> RpcError {
    RpcError::new(INVALID_PARAMS, format!("Invalid params: `{field}` {problem}"))
        .with_data(json!({ "field": field, "reason": problem }))
}

/// Refuses params whose `_meta` is not an object (absent and `null` are no
/// `_meta`), or whose `_meta.progressToken` is neither a string nor an
/// integer (MCP's `ProgressToken`, in every version).
pub(super) fn check_meta(params: &Map<String, Value>) -> Result<(), RpcError> {
    let meta = match params.get("_meta") {
        None | Some(Value::Null) => return Ok(()),
        Some(Value::Object(meta)) => meta,
        Some(other) => return Err(invalid_field("_meta", &format!("must be an object, not {}", json_type(other)))),
    };
    match meta.get(PROGRESS_TOKEN_KEY) {
        None | Some(Value::String(_)) => Ok(()),
        Some(Value::Number(number)) if number.is_i64() || number.is_u64() => Ok(()),
        Some(other) => Err(invalid_field(
            &format!("_meta.{PROGRESS_TOKEN_KEY}"),
            &format!("must be a string or an integer, not {}", json_type(other)),
        )),
    }
}

/// `value`, the params' `field`, decoded as `T`; a field of it that does not
/// fit is `-32602` naming `field.path.to.it`.
pub(super) fn decode<T: DeserializeOwned>(field: &str, value: &Value) -> Result<T, RpcError> {
    serde_path_to_error::deserialize(value).map_err(|error| {
        let path = error.path().to_string();
        let at = if path == "." { field.to_owned() } else { format!("{field}.{path}") };
        invalid_field(&at, &format!("is malformed: {}", error.inner()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn meta_must_be_an_object_and_a_progress_token_a_string_or_an_integer() {
        assert!(check_meta(&params(json!({}))).is_ok());
        assert!(check_meta(&params(json!({"_meta": null}))).is_ok());
        assert!(check_meta(&params(json!({"_meta": {"progressToken": "a"}}))).is_ok());
        assert!(check_meta(&params(json!({"_meta": {"progressToken": 7}}))).is_ok());
        let error = check_meta(&params(json!({"_meta": 5}))).unwrap_err();
        assert_eq!(error.code, INVALID_PARAMS);
        assert_eq!(error.message, "Invalid params: `_meta` must be an object, not a number");
        let error = check_meta(&params(json!({"_meta": {"progressToken": {"a": 1}}}))).unwrap_err();
        assert_eq!(
            error.message,
            "Invalid params: `_meta.progressToken` must be a string or an integer, not an object"
        );
        assert_eq!(error.data.unwrap()["field"], "_meta.progressToken");
        let error = check_meta(&params(json!({"_meta": {"progressToken": 1.5}}))).unwrap_err();
        assert!(error.message.contains("not a number"), "{}", error.message);
    }

    #[test]
    fn a_decoded_field_names_where_it_went_wrong() {
        #[derive(Debug, serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        #[allow(dead_code)]
        struct Filter {
            #[serde(default)]
            tools_list_changed: bool,
            #[serde(default)]
            task_ids: Vec<String>,
        }
        let error = decode::<Filter>("notifications", &json!({"toolsListChanged": "yes"})).unwrap_err();
        assert_eq!(error.data.as_ref().unwrap()["field"], "notifications.toolsListChanged");
        assert!(
            error.message.starts_with("Invalid params: `notifications.toolsListChanged` is malformed: invalid type")
        );
        let error = decode::<Filter>("notifications", &json!({"taskIds": [1]})).unwrap_err();
        assert_eq!(error.data.as_ref().unwrap()["field"], "notifications.taskIds[0]");
        let error = decode::<Filter>("notifications", &json!(3)).unwrap_err();
        assert_eq!(error.data.as_ref().unwrap()["field"], "notifications");
    }
}
