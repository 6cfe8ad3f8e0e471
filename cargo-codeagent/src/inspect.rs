//! `cargo codeagent inspect SERVER`: list, call, read and get against any MCP
//! server through codeagent's own client, results printed as their three
//! channels (value, artifact, display).

use std::process::ExitCode;
use std::time::Duration;

use codeagent::client::{Client, Protocol};
use codeagent::mcp::{ResourceContents, Role};
use codeagent::result::ToolResultEvent;
use serde_json::{Map, Value};

use crate::Failure;

/// `inspect`'s arguments.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    cargo codeagent inspect 'target/debug/my-server' list\n  \
    cargo codeagent inspect 'cargo run -q --example gallery' call add '{\"a\": 2, \"b\": 3}'\n  \
    cargo codeagent inspect http://127.0.0.1:8080/mcp read notes://index\n  \
    cargo codeagent inspect 'npx -y @modelcontextprotocol/server-everything' get simple-prompt '{}'")]
pub(crate) struct InspectArgs {
    /// The server: an `http://` or `https://` URL of its MCP endpoint, or the
    /// command line that starts it on stdio (quote it; words split on spaces).
    #[arg(value_name = "SERVER")]
    server: String,
    /// Print the raw JSON the server answered instead of the readable form.
    #[arg(long, global = true)]
    json: bool,
    /// Speak this protocol version only (default: 2026-07-28 when the server
    /// speaks it, else the newest one it answers `initialize` with).
    #[arg(long, global = true, value_name = "VERSION")]
    protocol: Option<String>,
    /// A header to send to an HTTP server (`Name: value`); repeatable.
    #[arg(long = "header", short = 'H', global = true, value_name = "NAME: VALUE")]
    headers: Vec<String>,
    /// A variable of this environment the stdio server gets (`KEY`), or one
    /// set for it (`KEY=VALUE`); repeatable.
    #[arg(long = "env", short = 'e', global = true, value_name = "KEY[=VALUE]")]
    env: Vec<String>,
    /// Seconds to wait for each answer.
    #[arg(long, global = true, default_value_t = 60, value_name = "SECS")]
    timeout: u64,
    #[command(subcommand)]
    action: Option<Action>,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// List the server's tools, resources, resource templates and prompts (the default).
    List,
    /// Call tool NAME with ARGS (a JSON object, default `{}`) and print its
    /// result's three channels; exits with 1 when the tool failed.
    Call {
        /// The tool's name.
        name: String,
        /// The arguments, a JSON object.
        #[arg(default_value = "{}")]
        args: String,
    },
    /// Read the resource at URI and print its contents.
    Read {
        /// The resource's URI.
        uri: String,
    },
    /// Get prompt NAME with ARGS (a JSON object of strings, default `{}`) and
    /// print its messages.
    Get {
        /// The prompt's name.
        name: String,
        /// The arguments, a JSON object of strings.
        #[arg(default_value = "{}")]
        args: String,
    },
}

/// Runs `inspect`.
pub(crate) async fn run(args: InspectArgs) -> Result<ExitCode, Failure> {
    let action = args.action.unwrap_or(Action::List);
    // Arguments are checked before a server is started for nothing.
    let parsed = match &action {
        Action::Call { args: text, .. } | Action::Get { args: text, .. } => Some(object(text)?),
        _ => None,
    };
    let client = connect(&args.server, args.protocol.as_deref(), &args.headers, &args.env, args.timeout).await?;
    let mut out = String::new();
    let outcome = match action {
        Action::List => list(&mut out, &client, args.json).await.map(|()| ExitCode::SUCCESS),
        Action::Call { name, .. } => call(&mut out, &client, &name, parsed.unwrap_or_default(), args.json).await,
        Action::Read { uri } => read(&mut out, &client, &uri, args.json).await.map(|()| ExitCode::SUCCESS),
        Action::Get { name, .. } => {
            get(&mut out, &client, &name, parsed.unwrap_or_default(), args.json).await.map(|()| ExitCode::SUCCESS)
        }
    };
    client.close();
    crate::print_out(&out);
    outcome
}

/// `writeln!` into the output being built (a `String`, which cannot fail).
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($out, $($arg)*);
    }};
}

/// A JSON object from the command line.
fn object(text: &str) -> Result<Map<String, Value>, Failure> {
    match serde_json::from_str(text) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(other) => Err(format!("the arguments must be a JSON object like '{{\"a\": 1}}', not {other}")),
        Err(error) => Err(format!("the arguments are not valid JSON ({error}): {text}")),
    }
}

async fn connect(
    server: &str,
    protocol: Option<&str>,
    headers: &[String],
    env: &[String],
    timeout: u64,
) -> Result<Client, Failure> {
    let mut builder = Client::builder()
        .client_info("cargo-codeagent", env!("CARGO_PKG_VERSION"))
        .timeout(Duration::from_secs(timeout));
    if let Some(version) = protocol {
        let version = version.parse().map_err(|_| {
            let known: Vec<String> = codeagent::ProtocolVersion::ALL.iter().map(ToString::to_string).collect();
            format!("unknown protocol version `{version}` (known: {})", known.join(", "))
        })?;
        builder = builder.protocol(Protocol::Only(version));
    }
    for header in headers {
        let (name, value) =
            header.split_once(':').ok_or_else(|| format!("--header `{header}` is not `Name: value`"))?;
        builder = builder.header(name.trim(), value.trim());
    }
    for variable in env {
        builder = match variable.split_once('=') {
            Some((key, value)) => builder.env(key, value),
            None => builder.inherit_env(variable.as_str()),
        };
    }
    builder.connect(server).await.map_err(|error| format!("{error}"))
}

async fn list(out: &mut String, client: &Client, json: bool) -> Result<(), Failure> {
    fn problem(what: &'static str) -> impl Fn(codeagent::client::ClientError) -> Failure {
        move |error| format!("{what} failed: {error}")
    }
    let capabilities = client.server_capabilities().clone();
    let tools = if capabilities.tools.is_some() {
        client.list_tools().await.map_err(problem("tools/list"))?
    } else {
        Vec::new()
    };
    let (resources, templates) = if capabilities.resources.is_some() {
        let resources = client.list_resources().await.map_err(problem("resources/list"))?;
        let templates = client.list_resource_templates().await.map_err(problem("resources/templates/list"))?;
        (resources, templates)
    } else {
        (Vec::new(), Vec::new())
    };
    let prompts = if capabilities.prompts.is_some() {
        client.list_prompts().await.map_err(problem("prompts/list"))?
    } else {
        Vec::new()
    };
    if json {
        let tools: Vec<Value> = tools.iter().filter_map(|tool| serde_json::to_value(tool).ok()).collect();
        let all = serde_json::json!({
            "server": client.server_info(),
            "protocolVersion": client.protocol_version().to_string(),
            "tools": tools,
            "resources": resources,
            "resourceTemplates": templates,
            "prompts": prompts,
        });
        say!(out, "{}", pretty(&all));
        return Ok(());
    }
    let (name, version) = client.server_info().map_or(("?", ""), |info| (info.name.as_str(), info.version.as_str()));
    say!(out, "{name} {version} (protocol {})", client.protocol_version());
    if let Some(instructions) = client.instructions() {
        say!(out, "\n{}", indent(instructions.trim(), "  "));
    }
    say!(out, "\ntools ({}):", tools.len());
    for tool in &tools {
        let arguments = arguments_of(&tool.input_schema);
        say!(out, "  {}({})", tool.name, arguments.join(", "));
        if let Some(description) = tool.description.as_deref().filter(|text| !text.trim().is_empty()) {
            say!(out, "{}", indent(first_paragraph(description), "      "));
        }
    }
    say!(out, "\nresources ({}):", resources.len());
    for resource in &resources {
        let label = resource.title.as_deref().unwrap_or(&resource.name);
        say!(out, "  {}{}", resource.uri, suffix(label, resource.mime_type.as_deref()));
    }
    say!(out, "\nresource templates ({}):", templates.len());
    for template in &templates {
        let label = template.title.as_deref().unwrap_or(&template.name);
        say!(out, "  {}{}", template.uri_template, suffix(label, template.mime_type.as_deref()));
    }
    say!(out, "\nprompts ({}):", prompts.len());
    for prompt in &prompts {
        let arguments: Vec<String> = prompt
            .arguments
            .iter()
            .map(|argument| {
                let name = argument.name.as_str();
                if argument.required == Some(true) { name.to_owned() } else { format!("{name}?") }
            })
            .collect();
        say!(out, "  {}({})", prompt.name, arguments.join(", "));
        if let Some(description) = prompt.description.as_deref() {
            say!(out, "{}", indent(first_paragraph(description), "      "));
        }
    }
    Ok(())
}

async fn call(
    out: &mut String,
    client: &Client,
    name: &str,
    arguments: Map<String, Value>,
    json: bool,
) -> Result<ExitCode, Failure> {
    let output = client
        .call(name, Value::Object(arguments))
        .await
        .map_err(|error| format!("calling `{name}` failed: {error}"))?;
    let failed = output.is_error();
    if json {
        say!(out, "{}", pretty(output.raw()));
    } else {
        out.push_str(&channels(&output.result().into_event("inspect", name)));
    }
    Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

/// A result's three channels, as the person at the terminal reads them.
fn channels(event: &ToolResultEvent) -> String {
    let mut out = String::new();
    let heading = if event.is_error { "value (the tool failed)" } else { "value" };
    out.push_str(&format!("── {heading} ──\n{}\n", event.value));
    match &event.artifact {
        Some(artifact) => {
            let kind = artifact["kind"].as_str().unwrap_or("?");
            out.push_str(&format!("── artifact ({kind}) ──\n{}\n", pretty(artifact)));
        }
        None => out.push_str("── artifact ──\n(none)\n"),
    }
    match &event.display {
        Some(display) => out.push_str(&format!("── display ──\n{}\n", pretty(display))),
        None => out.push_str("── display ──\n(none)\n"),
    }
    out
}

async fn read(out: &mut String, client: &Client, uri: &str, json: bool) -> Result<(), Failure> {
    let result = client.read_resource(uri).await.map_err(|error| format!("reading {uri} failed: {error}"))?;
    if json {
        say!(out, "{}", pretty(&serde_json::to_value(&result).map_err(|error| error.to_string())?));
        return Ok(());
    }
    for content in &result.contents {
        match content {
            ResourceContents::Text { uri, mime_type, text, .. } => {
                say!(out, "── {uri} ({}) ──\n{text}", mime_type.as_deref().unwrap_or("no MIME type"));
            }
            ResourceContents::Blob { uri, mime_type, blob, .. } => {
                let mime = mime_type.as_deref().unwrap_or("no MIME type");
                say!(out, "── {uri} ({mime}) ──\n(binary, {} bytes in base64)", blob.len());
            }
            _ => say!(out, "── {} ──\n(contents of a kind this version does not know)", content.uri()),
        }
    }
    Ok(())
}

async fn get(
    out: &mut String,
    client: &Client,
    name: &str,
    arguments: Map<String, Value>,
    json: bool,
) -> Result<(), Failure> {
    let result =
        client.get_prompt(name, arguments).await.map_err(|error| format!("getting prompt `{name}` failed: {error}"))?;
    if json {
        say!(out, "{}", pretty(&serde_json::to_value(&result).map_err(|error| error.to_string())?));
        return Ok(());
    }
    if let Some(description) = &result.description {
        say!(out, "{description}\n");
    }
    for message in &result.messages {
        let content = &serde_json::to_value(message.content()).map_err(|error| error.to_string())?;
        let body = match content["type"].as_str() {
            Some("text") => text(content, "text").to_owned(),
            Some("resource") => match content["resource"]["text"].as_str() {
                Some(body) => format!("[resource {}]\n{body}", text(&content["resource"], "uri")),
                None => format!("[resource {}]", text(&content["resource"], "uri")),
            },
            Some(kind) => format!("[{kind} {}]", text(content, "mimeType")),
            None => pretty(content),
        };
        let role = match message.role() {
            Role::User => "user",
            Role::Assistant => "assistant",
            _ => "?",
        };
        say!(out, "── {role} ──\n{body}");
    }
    Ok(())
}

/// The arguments of an input schema: `name: type`, a `?` on the optional ones.
fn arguments_of(schema: &Value) -> Vec<String> {
    let required: Vec<&str> = schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    let properties = schema["properties"].as_object().into_iter().flatten();
    properties
        .map(|(name, property)| {
            let kind = kind_of(property);
            let optional = if required.contains(&name.as_str()) { "" } else { "?" };
            format!("{name}{optional}: {kind}")
        })
        .collect()
}

/// A property's type, in a word or a few.
fn kind_of(property: &Value) -> String {
    match &property["type"] {
        Value::String(kind) => return kind.clone(),
        Value::Array(kinds) => return kinds.iter().filter_map(Value::as_str).collect::<Vec<_>>().join("|"),
        _ => {}
    }
    if let Some(values) = property["enum"].as_array() {
        return values.iter().map(|value| value.to_string()).collect::<Vec<_>>().join("|");
    }
    if let Some(reference) = property["$ref"].as_str() {
        return reference.rsplit('/').next().unwrap_or(reference).to_owned();
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(options) = property[key].as_array() {
            return options.iter().map(kind_of).collect::<Vec<_>>().join("|");
        }
    }
    "any".to_owned()
}

/// A listed resource's title (or name) and MIME type, in brackets.
fn suffix(label: &str, mime_type: Option<&str>) -> String {
    match mime_type {
        Some(mime) => format!("  ({label}, {mime})"),
        None => format!("  ({label})"),
    }
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value[key].as_str().unwrap_or("?")
}

fn first_paragraph(text: &str) -> &str {
    text.trim().split("\n\n").next().unwrap_or_default()
}

fn indent(text: &str, by: &str) -> String {
    text.lines().map(|line| format!("{by}{line}")).collect::<Vec<_>>().join("\n")
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn arguments_read_as_a_signature() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": ["string", "null"]},
            "c": {"enum": ["x"]}}, "required": ["a"]});
        assert_eq!(arguments_of(&schema), ["a: integer", "b?: string|null", r#"c?: "x""#]);
        let referenced = json!({"properties": {"r": {"anyOf": [{"$ref": "#/$defs/Region"}, {"type": "null"}]}}});
        assert_eq!(arguments_of(&referenced), ["r?: Region|null"]);
    }

    #[test]
    fn refuses_arguments_that_are_not_an_object() {
        assert!(object("[1]").unwrap_err().contains("must be a JSON object"));
        assert!(object("{").unwrap_err().contains("not valid JSON"));
        assert_eq!(object(r#"{"a": 1}"#).unwrap()["a"], 1);
    }

    #[test]
    fn prints_the_three_channels() {
        let event = ToolResultEvent {
            id: "1".into(),
            name: "t".into(),
            display: None,
            value: "5".into(),
            is_error: false,
            artifact: Some(json!({"kind": "text", "version": 1})),
        };
        let printed = channels(&event);
        assert!(printed.starts_with("── value ──\n5\n── artifact (text) ──\n"), "{printed}");
        assert!(printed.ends_with("── display ──\n(none)\n"), "{printed}");
    }
}
