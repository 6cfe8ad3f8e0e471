//! Resources and prompts with the macros: a small notebook whose index is a
//! resource with a fixed URI, whose notes are a URI template (`{name}` is the
//! function's parameter), and whose prompt embeds a note, with the note names
//! completed as the user types.
//!
//! ```sh
//! cargo run --example resources_prompts              # serve MCP on stdio
//! cargo run --example resources_prompts -- --http 127.0.0.1:8080
//! ```
//!
//! A client then reads `notes://index` and `notes://notes/groceries`, and gets
//! the prompt `review_note` with `{"name": "groceries"}`.

use std::collections::BTreeMap;

use codeagent::Server;
use codeagent::prelude::*;
use codeagent::prompts::PromptMessage;

/// The notebook: (name, text).
const NOTES: [(&str, &str); 3] = [
    ("groceries", "eggs, flour, two lemons"),
    ("garden", "water the tomatoes on Friday"),
    ("release", "tag v0.2 after the changelog is reviewed"),
];

/// The text of the note called `name`.
fn find(name: &str) -> Result<&'static str, String> {
    let found = NOTES.iter().find(|(known, _)| *known == name);
    found.map(|(_, text)| *text).ok_or_else(|| format!("there is no note called `{name}`"))
}

/// Every note's name and URI, as a Markdown list.
#[resource(uri = "notes://index", title = "The notebook", mime_type = "text/markdown")]
fn index() -> String {
    let lines: Vec<String> = NOTES.iter().map(|(name, _)| format!("- [{name}](notes://notes/{name})")).collect();
    format!("# Notes\n\n{}\n", lines.join("\n"))
}

/// One note, as plain text.
#[resource(uri = "notes://notes/{name}", mime_type = "text/plain")]
fn note(name: String) -> Result<String, String> {
    find(&name).map(str::to_owned)
}

/// The names of the notes starting with what the user typed.
fn note_names(typed: &str, _given: &BTreeMap<String, String>) -> Vec<String> {
    NOTES.iter().map(|(name, _)| *name).filter(|name| name.starts_with(typed)).map(str::to_owned).collect()
}

/// Ask the model to review a note.
#[prompt(title = "Review a note")]
fn review_note(
    /// The note to review.
    #[complete(note_names)]
    name: String,
    /// What to look for (default: anything missing).
    focus: Option<String>,
) -> Result<Vec<PromptMessage>, String> {
    let text = find(&name)?;
    let focus = focus.unwrap_or_else(|| "anything missing".to_owned());
    Ok(vec![
        PromptMessage::user(format!("Here is my note `{name}`: {text}")),
        PromptMessage::user(format!("Review it and point out {focus}.")),
    ])
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let toolbox = Toolbox::new().resource(index).resource(note).prompt(review_note);
    Server::new(toolbox).with_name("codeagent-notes").run().await
}
