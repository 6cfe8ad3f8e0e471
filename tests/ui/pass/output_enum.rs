//! `Output`: one of the rich kinds, chosen at run time.
use codeagent::prelude::*;
use serde_json::json;

/// Show something.
#[tool]
fn show(
    /// Show code rather than plain text.
    code: bool,
) -> Output {
    if code { Output::Code(Code::new("fn main() {}")) } else { Output::Text(Text::new("plain")) }
}

#[tokio::main]
async fn main() {
    let toolbox = Toolbox::new().tool(show);
    let text = toolbox.tools().call("show", json!({"code": false})).await.unwrap();
    assert_eq!(text.artifact().unwrap().kind_name(), "text");
    let code = toolbox.tools().call("show", json!({"code": true})).await.unwrap();
    assert_eq!(code.artifact().unwrap().kind_name(), "code");
    assert!(matches!(show(true), Output::Code(_)));
}
