//! The 2026-07-28 request headers that mirror the body: `MCP-Protocol-Version`,
//! `Mcp-Method`, `Mcp-Name` and the `Mcp-Param-*` of `x-mcp-header` arguments.

use axum::http::HeaderMap;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value};

use crate::mcp::Method;
use crate::schema::HeaderParam;
use crate::server::jsonrpc::{HEADER_MISMATCH, RpcError};

/// The value of header `name`: trimmed, with a `=?base64?...?=` value decoded.
/// `Ok(None)` when absent; an error when it has invalid characters or base64.
pub(crate) fn header_value(headers: &HeaderMap, name: &str) -> Result<Option<String>, RpcError> {
    let Some(raw) = headers.get(name) else { return Ok(None) };
    let text = raw
        .to_str()
        .map_err(|_| mismatch(format!("Header mismatch: the {name} header has characters that are not visible ASCII")))?
        .trim_matches([' ', '\t']);
    match text.strip_prefix("=?base64?").and_then(|rest| rest.strip_suffix("?=")) {
        Some(encoded) => {
            let bytes = STANDARD
                .decode(encoded)
                .map_err(|_| mismatch(format!("Header mismatch: the {name} header holds invalid base64")))?;
            String::from_utf8(bytes)
                .map(Some)
                .map_err(|_| mismatch(format!("Header mismatch: the {name} header's base64 is not UTF-8")))
        }
        None => Ok(Some(text.to_owned())),
    }
}

fn mismatch(message: String) -> RpcError {
    RpcError::new(HEADER_MISMATCH, message)
}

/// Requires header `name` to be present and equal to `expected`.
pub(crate) fn require(headers: &HeaderMap, name: &str, expected: &str) -> Result<(), RpcError> {
    match header_value(headers, name)? {
        None => Err(mismatch(format!("Header mismatch: the {name} header is required and must be '{expected}'"))),
        Some(value) if value == expected => Ok(()),
        Some(value) => Err(mismatch(format!(
            "Header mismatch: {name} header value '{value}' does not match body value '{expected}'"
        ))),
    }
}

/// Checks the headers of a modern request against its body: protocol version,
/// method, the name of a `tools/call`, `prompts/get` or `resources/read`, and
/// each argument a tool mirrors into a header.
pub(crate) fn check(
    headers: &HeaderMap,
    version: &str,
    method: &str,
    params: &Map<String, Value>,
    mirrored: &[HeaderParam],
) -> Result<(), RpcError> {
    require(headers, "mcp-protocol-version", version)?;
    require(headers, "mcp-method", method)?;
    let name_key = Method::from_name(method).and_then(Method::name_param);
    if let Some(name) = name_key.and_then(|key| params.get(key)).and_then(Value::as_str) {
        require(headers, "mcp-name", name)?;
    }
    let arguments = params.get("arguments").and_then(Value::as_object);
    for param in mirrored {
        let value = arguments.and_then(|arguments| {
            let (first, rest) = param.path.split_first()?;
            rest.iter().try_fold(arguments.get(first)?, |value, key| value.get(key))
        });
        let expected = match value {
            None | Some(Value::Null) => continue,
            Some(Value::String(text)) => text.clone(),
            Some(Value::Bool(flag)) => flag.to_string(),
            Some(Value::Number(number)) => number.to_string(),
            Some(_) => continue,
        };
        match header_value(headers, &param.header)? {
            None => {
                return Err(mismatch(format!(
                    "Header mismatch: the {} header is required because the argument `{}` is present",
                    param.header,
                    param.path.join(".")
                )));
            }
            Some(given) => {
                let numerically_equal =
                    matches!((given.parse::<i64>(), expected.parse::<i64>()), (Ok(a), Ok(b)) if a == b);
                if given != expected && !numerically_equal {
                    return Err(mismatch(format!(
                        "Header mismatch: {} header value '{given}' does not match body value '{expected}'",
                        param.header
                    )));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderMap;
    use serde_json::json;

    use super::{check, header_value};
    use crate::schema::HeaderParam;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        pairs.iter().map(|(name, value)| (name.parse().unwrap(), value.parse().unwrap())).collect()
    }

    #[test]
    fn decodes_base64_sentinels_and_trims() {
        let map = headers(&[("mcp-name", " =?base64?w6lsw6hu?= ")]);
        assert_eq!(header_value(&map, "mcp-name").unwrap().as_deref(), Some("élèn"));
        assert_eq!(header_value(&headers(&[("mcp-name", "=?base64?***?=")]), "mcp-name").unwrap_err().code, -32020);
        assert_eq!(
            header_value(&headers(&[("mcp-name", "=?BASE64?abc?=")]), "mcp-name").unwrap().as_deref(),
            Some("=?BASE64?abc?=")
        );
    }

    #[test]
    fn checks_every_mirrored_header() {
        let params = json!({"name": "weather", "arguments": {"region": "us-west1", "days": 3}});
        let params = params.as_object().unwrap();
        let mirrored = [
            HeaderParam { path: vec!["region".into()], header: "Mcp-Param-Region".into() },
            HeaderParam { path: vec!["days".into()], header: "Mcp-Param-Days".into() },
        ];
        let base = [("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/call"), ("mcp-name", "weather")];
        let mut ok = base.to_vec();
        ok.extend([("mcp-param-region", "us-west1"), ("mcp-param-days", "03")]);
        assert!(check(&headers(&ok), "2026-07-28", "tools/call", params, &mirrored).is_ok());
        let error = check(&headers(&base), "2026-07-28", "tools/call", params, &mirrored).unwrap_err();
        assert!(error.message.contains("Mcp-Param-Region"), "{error}");
        let mut wrong = base.to_vec();
        wrong[2] = ("mcp-name", "other");
        let error = check(&headers(&wrong), "2026-07-28", "tools/call", params, &[]).unwrap_err();
        assert_eq!(error.message, "Header mismatch: mcp-name header value 'other' does not match body value 'weather'");
    }
}
