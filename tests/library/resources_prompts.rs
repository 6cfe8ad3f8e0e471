//! `#[resource]` and `#[prompt]` through `Toolbox`, with no server: the
//! listing, reads of a fixed and a templated URI (a typed variable parsed, a
//! bad value refused naming it), prompts with their argument checks, and
//! completion.

use std::collections::BTreeMap;

use codeagent::mcp::ResourceContents;
use codeagent::prelude::*;
use codeagent::prompts::PromptError;
use codeagent::resources::ResourceError;

/// The notes.
#[resource(uri = "file:///notes.txt", mime_type = "text/plain", size = 5)]
fn notes() -> String {
    "hello".to_owned()
}

/// A user's profile.
#[resource(uri = "users://{id}/profile{?fields}", name = "profile", title = "Profile")]
fn user_profile(id: u32, fields: Option<String>, ctx: &Context) -> String {
    ctx.debug("profile");
    format!("user {id} ({})", fields.unwrap_or_else(|| "all".to_owned()))
}

/// A file, read asynchronously.
#[resource(uri = "file:///src/{+path}")]
async fn source(path: String) -> Result<String, std::io::Error> {
    if path.ends_with(".rs") {
        Ok(format!("// {path}"))
    } else {
        Err(std::io::Error::other(format!("{path} is not Rust")))
    }
}

fn languages(typed: &str, _: &BTreeMap<String, String>) -> Vec<String> {
    ["rust", "ruby", "python"].into_iter().filter(|name| name.starts_with(typed)).map(str::to_owned).collect()
}

/// Review a change.
#[prompt(title = "Review")]
fn review(
    /// The file to review.
    path: String,
    /// What to look at.
    #[complete(languages)]
    language: Option<String>,
    ctx: &Context,
) -> String {
    ctx.debug("review");
    format!("Please review {path} ({}).", language.as_deref().unwrap_or("any language"))
}

/// Summarize, asynchronously.
#[prompt(name = "summary")]
async fn r#summarize(r#type: String) -> Result<Vec<codeagent::prompts::PromptMessage>, String> {
    Ok(vec![codeagent::prompts::PromptMessage::user(format!("Summarize the {type}."))])
}

fn toolbox() -> Toolbox {
    Toolbox::new().resource(notes).resource(user_profile).resource(source).prompt(review).prompt(r#summarize)
}

fn text(contents: &[ResourceContents]) -> &str {
    match &contents[0] {
        ResourceContents::Text { text, .. } => text,
        other => panic!("not text: {other:?}"),
    }
}

#[test]
fn the_functions_stay_callable() {
    assert_eq!(notes(), "hello");
    assert_eq!(user_profile(7, None, &Context::detached()), "user 7 (all)");
}

#[test]
fn resources_and_prompts_are_listed_from_the_functions() {
    let toolbox = toolbox();
    let specs = toolbox.resources().specs();
    assert_eq!(specs.iter().map(ResourceSpec::name).collect::<Vec<_>>(), ["notes", "profile", "source"]);
    assert_eq!(specs[0].uri(), Some("file:///notes.txt"));
    assert_eq!(specs[0].mime_type(), Some("text/plain"));
    assert_eq!(specs[1].uri_template().map(|template| template.as_str()), Some("users://{id}/profile{?fields}"));
    let wire = specs[0].to_wire(ProtocolVersion::LATEST);
    assert_eq!(wire["description"], "The notes.");
    assert_eq!(wire["size"], 5);
    assert_eq!(specs[1].to_wire(ProtocolVersion::LATEST)["title"], "Profile");

    let prompts = toolbox.prompts().specs();
    assert_eq!(prompts.iter().map(|spec| spec.name()).collect::<Vec<_>>(), ["review", "summary"]);
    let spec = &prompts[0];
    assert_eq!(spec.description(), Some("Review a change."));
    let arguments: Vec<_> = spec.arguments().iter().map(|argument| (argument.name(), argument.is_required())).collect();
    assert_eq!(arguments, [("path", true), ("language", false)]);
    let wire = spec.to_wire(ProtocolVersion::LATEST);
    assert_eq!(wire["arguments"][0]["description"], "The file to review.");
    assert_eq!(prompts[1].arguments()[0].name(), "type");
}

#[tokio::test]
async fn a_fixed_uri_is_read() {
    let contents = toolbox().resources().read("file:///notes.txt").await.unwrap();
    assert_eq!(text(&contents), "hello");
    assert_eq!(contents[0].uri(), "file:///notes.txt");
}

#[tokio::test]
async fn template_variables_are_parsed_into_the_parameters() {
    let toolbox = toolbox();
    let contents = toolbox.resources().read("users://42/profile").await.unwrap();
    assert_eq!(text(&contents), "user 42 (all)");
    let contents = toolbox.resources().read("users://42/profile?fields=name").await.unwrap();
    assert_eq!(text(&contents), "user 42 (name)");
    let contents = toolbox.resources().read("file:///src/lib/main.rs").await.unwrap();
    assert_eq!(text(&contents), "// lib/main.rs");
}

#[tokio::test]
async fn a_value_that_does_not_parse_fails_the_read_naming_the_variable() {
    let error = toolbox().resources().read("users://abc/profile").await.unwrap_err();
    let ResourceError::Failed(message) = error else { panic!("{error:?}") };
    assert!(message.contains("`abc`") && message.contains("`id`"), "{message}");
}

#[tokio::test]
async fn an_error_returned_fails_the_read_with_its_message() {
    let error = toolbox().resources().read("file:///src/notes.md").await.unwrap_err();
    assert_eq!(error, ResourceError::failed("notes.md is not Rust"));
}

#[tokio::test]
async fn a_prompt_gets_its_arguments() {
    let toolbox = toolbox();
    let messages = toolbox.prompts().get("review", [("path", "src/lib.rs")]).await.unwrap();
    assert_eq!(messages[0].text(), Some("Please review src/lib.rs (any language)."));
    let messages = toolbox.prompts().get("review", [("path", "a.rb"), ("language", "ruby")]).await.unwrap();
    assert_eq!(messages[0].text(), Some("Please review a.rb (ruby)."));
    let messages = toolbox.prompts().get("summary", [("type", "diff")]).await.unwrap();
    assert_eq!(messages[0].text(), Some("Summarize the diff."));
}

#[tokio::test]
async fn a_missing_or_unknown_argument_is_refused_naming_it() {
    let toolbox = toolbox();
    let missing = toolbox.prompts().get("review", [("language", "rust")]).await.unwrap_err();
    assert!(matches!(&missing, PromptError::MissingArgument { argument, .. } if argument == "path"), "{missing:?}");
    assert!(missing.to_string().contains("`path`"));
    let unknown = toolbox.prompts().get("review", [("path", "a"), ("lang", "rust")]).await.unwrap_err();
    assert!(matches!(&unknown, PromptError::UnknownArgument { argument, .. } if argument == "lang"), "{unknown:?}");
    assert!(unknown.is_invalid_params());
}

#[test]
fn a_completed_argument_offers_values() {
    let toolbox = toolbox();
    let completion = toolbox.prompts().complete("review", "language", "r", &BTreeMap::new()).unwrap();
    assert_eq!(completion.values, ["rust", "ruby"]);
    let none = toolbox.prompts().complete("review", "path", "s", &BTreeMap::new()).unwrap();
    assert!(none.values.is_empty());
}
