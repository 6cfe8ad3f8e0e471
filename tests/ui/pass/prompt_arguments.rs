//! A prompt with a required, an optional and a completed argument, and the context.
use std::collections::BTreeMap;

use codeagent::prelude::*;

fn files(typed: &str, _: &BTreeMap<String, String>) -> Vec<String> {
    vec![format!("{typed}.rs")]
}

/// Review a file.
#[prompt(title = "Review", icons = ["https://example.invalid/r.png"])]
async fn review(
    /// The file.
    #[complete(files)]
    path: String,
    /// What to look at.
    focus: Option<String>,
    ctx: &Context,
) -> Text {
    ctx.debug("review");
    Text::new(format!("Review {path} for {}.", focus.unwrap_or_default()))
}

#[tokio::main]
async fn main() {
    let toolbox = Toolbox::new().prompt(review);
    let spec = &toolbox.prompts().specs()[0];
    assert!(spec.arguments()[0].is_required() && !spec.arguments()[1].is_required());
    let messages = toolbox.prompts().get("review", [("path", "a.rs")]).await.unwrap();
    assert_eq!(messages[0].text(), Some("Review a.rs for ."));
    let completion = toolbox.prompts().complete("review", "path", "lib", &BTreeMap::new()).unwrap();
    assert_eq!(completion.values, ["lib.rs"]);
}
