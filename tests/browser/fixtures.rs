//! The fixture server of the browser tests (a module of `tests/programs/browser.rs`):
//! tools whose every string argument lands in a field of a rich artifact, so
//! the host page's forms can push an XSS corpus through every field of every
//! kind; a tool taking every kind of input schema; and the cases the
//! renderer-versus-card test compares.

use codeagent::artifact::{Artifact, Kind};
use codeagent::display::render;
use codeagent::mcp::ProtocolVersion;
use codeagent::prelude::*;
use codeagent::result::ToolResult;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// A 1×1 PNG.
const PIXEL_PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4z8DwHwAFAAH/VscvDQAAAABJRU5ErkJggg==";

/// Echo into a text artifact: Markdown, title and icon.
#[tool]
fn echo_text(
    /// Markdown text.
    markdown: String,
    /// The artifact's title.
    title: String,
    /// The artifact's icon name.
    icon: String,
) -> Text {
    Text::new(markdown).with_title(title).with_icon(icon)
}

/// Echo into a table artifact: a column name and two cells.
#[tool]
fn echo_table(
    /// The column's name.
    column: String,
    /// The first cell.
    first: String,
    /// The second cell.
    second: String,
    /// The table's title.
    title: String,
) -> Result<Table, ToolError> {
    Ok(Table::new().with_column(column, [first, second])?.with_title(title))
}

/// Echo into a code artifact.
#[tool]
fn echo_code(
    /// The code.
    code: String,
    /// Its language.
    lang: String,
    /// Its file name.
    filename: String,
    /// Its output.
    output: String,
) -> Code {
    Code::new(code).with_lang(lang).with_filename(filename).with_output(output)
}

/// Echo into a diff artifact.
#[tool]
fn echo_diff(
    /// The old text.
    old: String,
    /// The new text.
    new: String,
    /// The file's path.
    path: String,
) -> Diff {
    Diff::new(old, new).with_path(path)
}

/// Echo into an error artifact.
#[tool]
fn echo_error(
    /// The error message.
    message: String,
    /// Its detail.
    detail: String,
) -> Result<String, ToolError> {
    Err(ToolError::new(message).with_detail(detail))
}

/// Echo into an image artifact, any MIME type (built as raw JSON: `Image`
/// itself refuses types that do not match the bytes).
#[tool]
fn echo_image(
    /// The image's MIME type.
    mime: String,
    /// Base64 data; a 1×1 PNG when empty.
    data: String,
    /// The output text.
    output: String,
) -> ToolResult {
    let b64 = if data.is_empty() { PIXEL_PNG.to_owned() } else { data };
    let mut payload = Map::new();
    payload.insert("images".into(), json!([{ "mime": mime, "b64": b64 }]));
    payload.insert("output".into(), Value::from(output.clone()));
    ToolResult::new(format!("1 image: {mime}\n\n{output}")).with_artifact(Artifact::new(Kind::Image, payload))
}

/// A choice of three.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Choice {
    Red,
    Green,
    Blue,
}

/// A nested object.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
struct Nested {
    /// A label.
    label: String,
    /// A weight.
    weight: f64,
}

/// Every argument, echoed back as JSON.
#[derive(Serialize, JsonSchema)]
struct Echoed {
    text: String,
    ratio: f64,
    count: i64,
    flag: bool,
    choice: Choice,
    maybe: Option<String>,
    maybe_count: Option<u32>,
    maybe_flag: Option<bool>,
    list: Vec<i64>,
    nested: Nested,
}

/// Takes one argument of each kind of input schema and echoes them back.
#[tool(title = "Every input type", read_only)]
#[allow(clippy::too_many_arguments)]
fn form_types(
    /// A string.
    text: String,
    /// A number with a fraction.
    ratio: f64,
    /// A whole number.
    #[schemars(range(min = -5, max = 1000))]
    count: i64,
    /// A boolean.
    flag: bool,
    /// An enum.
    choice: Choice,
    /// An optional string.
    maybe: Option<String>,
    /// An optional whole number.
    maybe_count: Option<u32>,
    /// An optional boolean.
    maybe_flag: Option<bool>,
    /// An array of whole numbers.
    list: Vec<i64>,
    /// A nested object.
    nested: Nested,
) -> Json<Echoed> {
    Json(Echoed { text, ratio, count, flag, choice, maybe, maybe_count, maybe_flag, list, nested })
}

/// The fixture server's tools.
pub(crate) fn toolbox() -> Toolbox {
    Toolbox::new()
        .tool(echo_text)
        .tool(echo_table)
        .tool(echo_code)
        .tool(echo_diff)
        .tool(echo_error)
        .tool(echo_image)
        .tool(form_types)
}

/// One case of the renderer-versus-card comparison: the MCP result the
/// browser renderer gets, and the card `codeagent::display::render` makes of
/// the same tool result.
fn case(name: &str, result: ToolResult) -> Value {
    let card = render(&result).as_str().to_owned();
    let wire = result.into_call_result().into_wire(ProtocolVersion::V2025_11_25, None);
    json!({ "name": name, "result": wire, "card": card })
}

/// Every kind, with every optional field, and a result without an artifact.
pub(crate) fn card_cases() -> Value {
    let markdown = "# Report\n\nSome **bold**, *emphasis*, `code` and ~~struck~~ text, a [link](https://example.com/docs), \
                    a [bad link](javascript:void(0)) and <b>raw</b> HTML.\n\n- one\n- two\n\n1. first\n2. second\n\n\
                    > quoted\n\n```\nfenced <code>\n```\n\n---\n\nThe end.";
    let table = Table::new()
        .with_column("name", ["kettle", "toaster", "<b>blender</b>"])
        .and_then(|table| table.with_column("units", [120, 80, 40]))
        .and_then(|table| table.with_column("price", [30.0, 25.5, 60.0]))
        .and_then(|table| table.with_column("note", [Some("boils"), None, Some("loud")]))
        .and_then(|table| table.with_column("in_stock", [true, false, true]))
        .expect("a table");
    let image = Image::from_base64(PIXEL_PNG, "image/png").expect("a PNG").with_output("one pixel").with_title("Pixel");
    let code = Code::new("fn main() {\n    println!(\"<hi>\");\n}\n")
        .with_lang("rust")
        .with_filename("src/main.rs")
        .with_output("<hi>")
        .with_title("Hello");
    let diff = Diff::new("one\ntwo\nthree\nfour\nfive\n", "one\n2\nthree\nfive\nsix")
        .with_path("notes.txt")
        .with_title("Edit");
    let error = ToolError::new("cannot divide by zero").with_detail("pass a non-zero `denominator`");
    json!([
        case("text", Text::new(markdown).with_title("Markdown").into_tool_result()),
        case("table", table.with_title("Stock").with_icon("table").into_tool_result()),
        case("image", image.into_tool_result()),
        case("code", code.into_tool_result()),
        case("diff", diff.into_tool_result()),
        case("error", error.into_tool_result()),
        case("fallback", ToolResult::new("just a value, <i>no</i> artifact")),
    ])
}
