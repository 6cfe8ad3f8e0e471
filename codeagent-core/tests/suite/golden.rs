//! Golden wire output of every typed output lowered with `IntoToolResult`.
//!
//! Each case asserts the exact bytes (and so the key order) of the serialised
//! `ToolResult` and of its `ToolResultEvent`. Short expectations are inline;
//! long ones live in `tests/golden/<case>.result.json` and
//! `tests/golden/<case>.event.json` (the exact serialisation followed by one
//! newline). Regenerate them with
//!
//! ```text
//! UPDATE_GOLDEN=1 cargo test -p codeagent-core --test suite golden::
//! ```
//!
//! and read the diff before committing: a fixture is a claim about the wire.

use std::fmt;
use std::path::PathBuf;

use codeagent_core::artifact::{Artifact, Kind, Status, Versions};
use codeagent_core::{
    Code, Diff, Image, IntoToolResult, Json, Output, Table, Text, ToolError, ToolResult, ToolResultEvent,
};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::{PNG_1X1, PNG_1X1_B64};

// ---------------------------------------------------------------------------
// fixtures: a real 1x1 PNG and a real 1x1 GIF
// ---------------------------------------------------------------------------

/// The classic 43-byte transparent 1x1 GIF89a.
const GIF_1X1: &[u8] = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\
\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;";

const GIF_1X1_B64: &str = "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==";

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

#[test]
fn png_is_well_formed() {
    assert_eq!(PNG_1X1.len(), 70);
    assert!(PNG_1X1.starts_with(b"\x89PNG\r\n\x1a\n"));
    let mut at = 8;
    let mut chunks = Vec::new();
    while at < PNG_1X1.len() {
        let len = u32::from_be_bytes(PNG_1X1[at..at + 4].try_into().unwrap()) as usize;
        let kind = &PNG_1X1[at + 4..at + 8];
        let data = &PNG_1X1[at + 8..at + 8 + len];
        let crc = u32::from_be_bytes(PNG_1X1[at + 8 + len..at + 12 + len].try_into().unwrap());
        assert_eq!(crc, crc32(&PNG_1X1[at + 4..at + 8 + len]), "CRC of {}", String::from_utf8_lossy(kind));
        chunks.push(String::from_utf8_lossy(kind).into_owned());
        if kind == b"IHDR" {
            assert_eq!(&data[..8], &[0, 0, 0, 1, 0, 0, 0, 1], "1x1");
        }
        at += 12 + len;
    }
    assert_eq!(chunks, ["IHDR", "IDAT", "IEND"]);
    assert_eq!(GIF_1X1.len(), 43);
    assert!(GIF_1X1.starts_with(b"GIF89a\x01\x00\x01\x00"));
    assert!(GIF_1X1.ends_with(b";"));
}

// ---------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------

const EVENT_KEYS: [&str; 6] = ["id", "name", "display", "value", "is_error", "artifact"];
const ARTIFACT_KEYS: [&str; 7] = ["schema", "version", "kind", "status", "icon", "title", "payload"];

/// The two serialisations of a lowered result: the result, and its event as
/// call `call-1` of `tool`.
fn wire(result: &ToolResult, tool: &str) -> (String, String) {
    let result_json = serde_json::to_string(result).unwrap();
    let event_json = serde_json::to_string(&result.clone().into_event("call-1", tool)).unwrap();
    structural_checks(&result_json, &event_json);
    (result_json, event_json)
}

/// Checks that hold for every golden: the event's keys are exactly the six, in
/// order; any artifact has the seven keys first, in order; and both strings
/// survive a serde round trip byte for byte.
fn structural_checks(result_json: &str, event_json: &str) {
    let event: Map<String, Value> = serde_json::from_str(event_json).unwrap();
    assert_eq!(event.keys().map(String::as_str).collect::<Vec<_>>(), EVENT_KEYS, "event key order in {event_json}");
    if let Some(Value::Object(artifact)) = event.get("artifact") {
        assert_eq!(
            artifact.keys().take(7).map(String::as_str).collect::<Vec<_>>(),
            ARTIFACT_KEYS,
            "artifact key order in {event_json}"
        );
    }
    let result: ToolResult = serde_json::from_str(result_json).unwrap();
    assert_eq!(serde_json::to_string(&result).unwrap(), result_json, "ToolResult serde round trip");
    let event: ToolResultEvent = serde_json::from_str(event_json).unwrap();
    assert_eq!(serde_json::to_string(&event).unwrap(), event_json, "ToolResultEvent serde round trip");
}

fn assert_golden(result: impl IntoToolResult, tool: &str, expected_result: &str, expected_event: &str) {
    let (result_json, event_json) = wire(&result.into_tool_result(), tool);
    assert_eq!(result_json, expected_result, "serialised ToolResult");
    assert_eq!(event_json, expected_event, "serialised ToolResultEvent");
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join("golden")
}

/// Compares against `tests/golden/<case>.{result,event}.json`, or rewrites
/// them when `UPDATE_GOLDEN=1`.
fn assert_golden_file(result: impl IntoToolResult, tool: &str, case: &str) {
    let (result_json, event_json) = wire(&result.into_tool_result(), tool);
    let update = std::env::var("UPDATE_GOLDEN").is_ok_and(|flag| flag == "1");
    for (suffix, actual) in [("result", result_json), ("event", event_json)] {
        let path = golden_dir().join(format!("{case}.{suffix}.json"));
        let actual = format!("{actual}\n");
        if update {
            std::fs::create_dir_all(golden_dir()).unwrap();
            std::fs::write(&path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path)
            .unwrap_or_else(|error| panic!("{}: {error} (run with UPDATE_GOLDEN=1 to create it)", path.display()));
        assert_eq!(actual, expected, "{} differs byte for byte", path.display());
    }
}

/// Builds the canonical artifact JSON text by hand, so that inline goldens
/// stay readable while remaining exact.
fn art(kind: &str, status: &str, icon: &str, title: &str, payload: &str) -> String {
    format!(
        r#"{{"schema":"codeagent.tool-artifact","version":1,"kind":"{kind}","status":"{status}","icon":{icon},"title":{title},"payload":{payload}}}"#
    )
}

fn res(value: &str, is_error: bool, artifact: &str) -> String {
    format!(r#"{{"value":{value},"is_error":{is_error},"extra":{{"codeagent":{{"artifact":{artifact}}}}}}}"#)
}

fn evt(tool: &str, value: &str, is_error: bool, artifact: &str) -> String {
    format!(
        r#"{{"id":"call-1","name":"{tool}","display":null,"value":{value},"is_error":{is_error},"artifact":{artifact}}}"#
    )
}

/// Asserts a lowered result whose `extra` holds only the artifact.
fn assert_simple(result: impl IntoToolResult, tool: &str, value: &str, is_error: bool, artifact: &str) {
    assert_golden(result, tool, &res(value, is_error, artifact), &evt(tool, value, is_error, artifact));
}

// ---------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------

#[test]
fn text_with_title_and_icon() {
    assert_golden(
        Text::new("All good.").with_title("Status").with_icon("check"),
        "status",
        r#"{"value":"All good.","is_error":false,"extra":{"codeagent":{"artifact":{"schema":"codeagent.tool-artifact","version":1,"kind":"text","status":"success","icon":"check","title":"Status","payload":{"text":"All good."}}}}}"#,
        r#"{"id":"call-1","name":"status","display":null,"value":"All good.","is_error":false,"artifact":{"schema":"codeagent.tool-artifact","version":1,"kind":"text","status":"success","icon":"check","title":"Status","payload":{"text":"All good."}}}"#,
    );
}

#[test]
fn text_without_title_has_null_icon_and_title() {
    let artifact = art("text", "success", "null", "null", r#"{"text":"line 1\nline \"2\" <b>é</b>"}"#);
    assert_simple(Text::new("line 1\nline \"2\" <b>é</b>"), "t", r#""line 1\nline \"2\" <b>é</b>""#, false, &artifact);
}

// ---------------------------------------------------------------------------
// Table
// ---------------------------------------------------------------------------

#[derive(Serialize)]
struct Sale {
    region: &'static str,
    total: u32,
    share: f64,
    note: Option<&'static str>,
}

#[test]
fn table_from_rows_of_a_struct() {
    let rows = [
        Sale { region: "north", total: 10, share: 0.5, note: Some("best|ever") },
        Sale { region: "south", total: 7, share: 0.25, note: None },
    ];
    let table = Table::from_rows(&rows).unwrap().with_title("Sales");
    let value = r#""| region | total | share | note |\n| --- | --- | --- | --- |\n| north | 10 | 0.5 | best\\|ever |\n| south | 7 | 0.25 |  |\n\n2 rows.""#;
    let artifact = art(
        "table",
        "success",
        "null",
        r#""Sales""#,
        r#"{"df":{"columns":[{"name":"region","type":"string"},{"name":"total","type":"integer"},{"name":"share","type":"number"},{"name":"note","type":"string"}],"rows":[["north",10,0.5,"best|ever"],["south",7,0.25,null]]}}"#,
    );
    assert_simple(table, "summarise", value, false, &artifact);
}

#[test]
fn table_column_wise() {
    let table = Table::new()
        .with_column("region", ["north", "south"])
        .unwrap()
        .with_column("total", [10, 7])
        .unwrap()
        .with_icon("table");
    let value = r#""| region | total |\n| --- | --- |\n| north | 10 |\n| south | 7 |\n\n2 rows.""#;
    let artifact = art(
        "table",
        "success",
        r#""table""#,
        "null",
        r#"{"df":{"columns":[{"name":"region","type":"string"},{"name":"total","type":"integer"}],"rows":[["north",10],["south",7]]}}"#,
    );
    assert_simple(table, "summarise", value, false, &artifact);
}

#[test]
fn table_truncated_by_preview_rows_keeps_every_row_in_the_artifact() {
    let table = Table::new()
        .with_column("n", 1..=5)
        .unwrap()
        .with_column("sq", [1, 4, 9, 16, 25])
        .unwrap()
        .with_preview_rows(2);
    let value = r#""| n | sq |\n| --- | --- |\n| 1 | 1 |\n| 2 | 4 |\n\nShowing 2 of 5 rows.""#;
    let artifact = art(
        "table",
        "success",
        "null",
        "null",
        r#"{"df":{"columns":[{"name":"n","type":"integer"},{"name":"sq","type":"integer"}],"rows":[[1,1],[2,4],[3,9],[4,16],[5,25]]}}"#,
    );
    assert_simple(table, "squares", value, false, &artifact);
}

#[test]
fn table_single_row_and_mixed_types() {
    let table = Table::new()
        .with_column("mixed", [json!(1), json!("a")])
        .unwrap()
        .with_column("num", [json!(1), json!(2.5)])
        .unwrap()
        .with_column("none", [Value::Null, Value::Null])
        .unwrap()
        .with_column("flag", [true, false])
        .unwrap()
        .with_column("obj", [json!({"k": [1]}), Value::Null])
        .unwrap();
    let value = r#""| mixed | num | none | flag | obj |\n| --- | --- | --- | --- | --- |\n| 1 | 1 |  | true | {\"k\":[1]} |\n| a | 2.5 |  | false |  |\n\n2 rows.""#;
    let artifact = art(
        "table",
        "success",
        "null",
        "null",
        r#"{"df":{"columns":[{"name":"mixed","type":"json"},{"name":"num","type":"number"},{"name":"none","type":"null"},{"name":"flag","type":"boolean"},{"name":"obj","type":"json"}],"rows":[[1,1,null,true,{"k":[1]}],["a",2.5,null,false,null]]}}"#,
    );
    assert_simple(table, "t", value, false, &artifact);

    let one = Table::new().with_column("x", ["only"]).unwrap();
    assert_eq!(one.into_tool_result().value(), "| x |\n| --- |\n| only |\n\n1 row.");
}

#[test]
fn table_with_default_preview_of_twenty_rows() {
    #[derive(Serialize)]
    struct Row {
        id: usize,
        label: String,
    }
    let rows: Vec<Row> = (1..=25).map(|id| Row { id, label: format!("item {id}") }).collect();
    let result = Table::from_rows(&rows).unwrap().with_title("Items").into_tool_result();
    assert!(result.value().ends_with("\n\nShowing 20 of 25 rows."), "{}", result.value());
    assert_eq!(result.value().lines().count(), 2 + 20 + 2);
    assert_eq!(result.artifact().unwrap().payload()["df"]["rows"].as_array().unwrap().len(), 25);
    assert_golden_file(result, "items", "table_default_preview");
}

// ---------------------------------------------------------------------------
// Image
// ---------------------------------------------------------------------------

#[test]
fn image_png_matches_its_independent_base64() {
    let result = Image::from_bytes(PNG_1X1, "image/png").unwrap().into_tool_result();
    assert_eq!(result.value(), "1 image: image/png, 1×1 px, 70 bytes");
    assert_eq!(result.artifact().unwrap().payload()["images"][0]["b64"], PNG_1X1_B64);
    let gif = Image::from_bytes(GIF_1X1, "image/gif").unwrap().into_tool_result();
    assert_eq!(gif.artifact().unwrap().payload()["images"][0]["b64"], GIF_1X1_B64);
}

#[test]
fn image_png_with_title() {
    let image = Image::from_bytes(PNG_1X1, "image/png").unwrap().with_title("Pixel");
    let artifact = art(
        "image",
        "success",
        "null",
        r#""Pixel""#,
        &format!(r#"{{"images":[{{"mime":"image/png","b64":"{PNG_1X1_B64}"}}],"output":null}}"#),
    );
    assert_simple(image, "plot", r#""1 image: image/png, 1×1 px, 70 bytes""#, false, &artifact);
    assert_golden_file(Image::from_bytes(PNG_1X1, "image/png").unwrap().with_title("Pixel"), "plot", "image_png");
}

#[test]
fn image_gif_with_output() {
    let image = Image::from_bytes(GIF_1X1, "image/gif").unwrap().with_output("one pixel");
    let artifact = art(
        "image",
        "success",
        "null",
        "null",
        &format!(r#"{{"images":[{{"mime":"image/gif","b64":"{GIF_1X1_B64}"}}],"output":"one pixel"}}"#),
    );
    assert_simple(image, "plot", r#""1 image: image/gif, 1×1 px, 43 bytes\n\none pixel""#, false, &artifact);
    assert_golden_file(Image::from_bytes(GIF_1X1, "image/gif").unwrap().with_output("one pixel"), "plot", "image_gif");
}

#[test]
fn two_images_joined_with_and() {
    let make = || {
        Image::from_bytes(PNG_1X1, "image/png")
            .unwrap()
            .and(Image::from_base64(GIF_1X1_B64, "image/gif; charset=binary").unwrap().with_output("dropped"))
            .with_output("two pixels")
            .with_title("Pixels")
    };
    assert_eq!(make().len(), 2);
    let artifact = art(
        "image",
        "success",
        "null",
        r#""Pixels""#,
        &format!(
            r#"{{"images":[{{"mime":"image/png","b64":"{PNG_1X1_B64}"}},{{"mime":"image/gif","b64":"{GIF_1X1_B64}"}}],"output":"two pixels"}}"#
        ),
    );
    assert_simple(
        make(),
        "plot",
        r#""2 images: image/png, 1×1 px, 70 bytes; image/gif, 1×1 px, 43 bytes\n\ntwo pixels""#,
        false,
        &artifact,
    );
    assert_golden_file(make(), "plot", "image_two");
}

#[test]
fn image_mime_mismatch_and_non_image_are_refused() {
    assert!(Image::from_bytes(PNG_1X1, "image/gif").is_err());
    assert!(Image::from_bytes(GIF_1X1, "image/png").is_err());
    assert!(Image::from_bytes(PNG_1X1, "text/plain").is_err());
    assert!(Image::from_bytes(b"", "image/png").is_err());
    assert!(Image::from_base64("not base64!!", "image/png").is_err());
}

// ---------------------------------------------------------------------------
// Code
// ---------------------------------------------------------------------------

#[test]
fn code_with_lang_filename_and_output() {
    let code = Code::new("fn main() {}").with_lang("rust").with_filename("main.rs").with_output("ok");
    let artifact = art(
        "code",
        "success",
        "null",
        "null",
        r#"{"text":"fn main() {}","lang":"rust","filename":"main.rs","output":"ok"}"#,
    );
    assert_simple(
        code,
        "run",
        r#""File: main.rs\n```rust\nfn main() {}\n```\n\nOutput:\n```\nok\n```""#,
        false,
        &artifact,
    );
}

/// The portable value is Markdown: whatever the language or file name, the
/// code must stay inside one fenced block. A backtick in the info string makes
/// a backtick fence invalid (CommonMark 4.5), and a newline in the file name
/// ends the `File:` line early and can open a fence of its own.
#[test]
fn code_fence_survives_any_lang_or_filename() {
    use codeagent_core::display::markdown_to_html;
    let mut broken = Vec::new();
    for code in [
        Code::new("x = 1").with_lang("r`x"),
        Code::new("x = 1").with_filename("a\n```"),
        Code::new("x = 1").with_lang("~~~"),
        Code::new("x = 1").with_lang("python").with_filename("dir/file name.py"),
    ] {
        let value = code.clone().into_tool_result().value().to_owned();
        let html = markdown_to_html(&value).into_string();
        let blocks = html.matches("<pre><code").count();
        let content_ok = html
            .find("<pre><code")
            .and_then(|start| Some(&html[start..start + html[start..].find("</code></pre>")?]))
            .is_some_and(|block| block.ends_with(">x = 1\n"));
        if blocks != 1 || !content_ok {
            broken.push(format!("{value:?} renders as {html:?}"));
        }
    }
    assert!(broken.is_empty(), "code escaped its fence:\n{}", broken.join("\n"));
}

#[test]
fn code_without_options() {
    let artifact =
        art("code", "success", "null", "null", r#"{"text":"x = 1","lang":null,"filename":null,"output":null}"#);
    assert_simple(Code::new("x = 1"), "run", r#""```\nx = 1\n```""#, false, &artifact);
}

#[test]
fn code_containing_a_backtick_fence_gets_a_longer_fence() {
    let code = Code::new("let fence = \"```\";\n").with_lang("rust").with_output("````\n");
    let artifact = art(
        "code",
        "success",
        "null",
        "null",
        r#"{"text":"let fence = \"```\";\n","lang":"rust","filename":null,"output":"````\n"}"#,
    );
    assert_simple(
        code,
        "run",
        r#""````rust\nlet fence = \"```\";\n````\n\nOutput:\n`````\n````\n`````""#,
        false,
        &artifact,
    );
}

// ---------------------------------------------------------------------------
// Diff
// ---------------------------------------------------------------------------

#[test]
fn diff_with_path() {
    let artifact = art("diff", "success", "null", "null", r#"{"old":"a\nb\n","new":"a\nc\n","path":"notes.txt"}"#);
    assert_simple(
        Diff::new("a\nb\n", "a\nc\n").with_path("notes.txt"),
        "edit",
        r#""--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n""#,
        false,
        &artifact,
    );
}

#[test]
fn diff_without_path() {
    let artifact = art("diff", "success", "null", "null", r#"{"old":"a\nb\n","new":"a\nc\n","path":null}"#);
    assert_simple(
        Diff::new("a\nb\n", "a\nc\n"),
        "edit",
        r#""--- old\n+++ new\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n""#,
        false,
        &artifact,
    );
}

#[test]
fn diff_without_trailing_newline_and_from_empty() {
    assert_eq!(
        Diff::new("a\nb", "a\nc").into_tool_result().value(),
        "--- old\n+++ new\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"
    );
    assert_eq!(Diff::new("", "x\n").into_tool_result().value(), "--- old\n+++ new\n@@ -0,0 +1 @@\n+x\n");
}

#[test]
fn diff_without_changes() {
    let artifact = art("diff", "success", "null", "null", r#"{"old":"same\n","new":"same\n","path":null}"#);
    assert_simple(Diff::new("same\n", "same\n"), "edit", r#""No changes.""#, false, &artifact);
    let artifact = art("diff", "success", "null", "null", r#"{"old":"same\n","new":"same\n","path":"x.txt"}"#);
    assert_simple(
        Diff::new("same\n", "same\n").with_path("x.txt"),
        "edit",
        r#""No changes to x.txt.""#,
        false,
        &artifact,
    );
}

// ---------------------------------------------------------------------------
// ToolError
// ---------------------------------------------------------------------------

#[test]
fn tool_error_with_detail() {
    let artifact =
        art("error", "error", "null", "null", r#"{"message":"region not found","detail":"known: north, south"}"#);
    assert_simple(
        ToolError::new("region not found").with_detail("known: north, south"),
        "summarise",
        r#""region not found\n\nknown: north, south""#,
        true,
        &artifact,
    );
}

#[test]
fn tool_error_without_detail() {
    let artifact = art("error", "error", r#""alert""#, r#""Failed""#, r#"{"message":"nope","detail":null}"#);
    assert_simple(
        ToolError::new("nope").with_title("Failed").with_icon("alert"),
        "summarise",
        r#""nope""#,
        true,
        &artifact,
    );
}

#[derive(Debug)]
struct LoadConfig(ReadSettings);

impl fmt::Display for LoadConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("could not load config")
    }
}

impl std::error::Error for LoadConfig {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

#[derive(Debug)]
struct ReadSettings(std::io::Error);

impl fmt::Display for ReadSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("could not read settings.toml")
    }
}

impl std::error::Error for ReadSettings {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

fn io_error_with_chain() -> std::io::Error {
    std::io::Error::other(LoadConfig(ReadSettings(std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"))))
}

#[test]
fn tool_error_from_io_error_with_a_source_chain() {
    let error = ToolError::from(io_error_with_chain());
    assert_eq!(error.message(), "could not load config");
    assert_eq!(error.detail_text(), Some("caused by: could not read settings.toml\ncaused by: no such file"));
    let artifact = art(
        "error",
        "error",
        "null",
        "null",
        r#"{"message":"could not load config","detail":"caused by: could not read settings.toml\ncaused by: no such file"}"#,
    );
    let value = r#""could not load config\n\ncaused by: could not read settings.toml\ncaused by: no such file""#;
    assert_simple(error, "load", value, true, &artifact);
    // The same through `?`-style lowering of a Result.
    let result: Result<Text, std::io::Error> = Err(io_error_with_chain());
    assert_simple(result, "load", value, true, &artifact);
}

#[test]
fn tool_error_from_io_error_without_source() {
    let error = ToolError::from(std::io::Error::new(std::io::ErrorKind::NotFound, "missing.csv"));
    let artifact = art("error", "error", "null", "null", r#"{"message":"missing.csv","detail":null}"#);
    assert_simple(error, "load", r#""missing.csv""#, true, &artifact);
}

// ---------------------------------------------------------------------------
// Json<T>
// ---------------------------------------------------------------------------

#[derive(Serialize, schemars::JsonSchema)]
struct Summary {
    region: &'static str,
    total: u32,
    shares: Vec<f64>,
}

#[test]
fn json_of_a_struct() {
    let summary = || Json(Summary { region: "north", total: 10, shares: vec![0.5, 1.0] });
    let artifact = art(
        "code",
        "success",
        "null",
        "null",
        r#"{"text":"{\n  \"region\": \"north\",\n  \"total\": 10,\n  \"shares\": [\n    0.5,\n    1.0\n  ]\n}","lang":"json","filename":null,"output":null}"#,
    );
    let value = r#""{\"region\":\"north\",\"total\":10,\"shares\":[0.5,1.0]}""#;
    let expected_result = format!(
        r#"{{"value":{value},"is_error":false,"extra":{{"codeagent":{{"artifact":{artifact}}},"mcp":{{"structuredContent":{{"region":"north","total":10,"shares":[0.5,1.0]}}}}}}}}"#
    );
    assert_golden(summary(), "summary", &expected_result, &evt("summary", value, false, &artifact));
    assert_golden_file(summary(), "summary", "json_struct");
}

#[test]
fn json_with_a_non_finite_number_is_an_error_result() {
    let result = Json(Summary { region: "x", total: 1, shares: vec![f64::NAN] }).into_tool_result();
    assert!(result.is_error());
    assert!(
        result.value().starts_with("the tool's structured output is not valid JSON at `shares"),
        "{}",
        result.value()
    );
    assert_eq!(result.artifact().unwrap().kind_name(), "error");
}

// ---------------------------------------------------------------------------
// plain values
// ---------------------------------------------------------------------------

fn text_artifact(json_text: &str) -> String {
    art("text", "success", "null", "null", &format!(r#"{{"text":{json_text}}}"#))
}

#[test]
fn plain_string_and_str() {
    assert_simple(String::from("hi"), "p", r#""hi""#, false, &text_artifact(r#""hi""#));
    assert_simple("hi", "p", r#""hi""#, false, &text_artifact(r#""hi""#));
}

#[test]
fn plain_numbers_and_bool() {
    assert_simple(-42i64, "p", r#""-42""#, false, &text_artifact(r#""-42""#));
    assert_simple(2.5f64, "p", r#""2.5""#, false, &text_artifact(r#""2.5""#));
    assert_simple(true, "p", r#""true""#, false, &text_artifact(r#""true""#));
}

#[test]
fn plain_unit() {
    assert_simple((), "p", r#""""#, false, &text_artifact(r#""""#));
}

#[test]
fn plain_serde_json_values() {
    assert_simple(Value::from("x"), "p", r#""x""#, false, &text_artifact(r#""x""#));
    let object = r#""{\"a\":1,\"b\":[true,null]}""#;
    assert_simple(json!({"a": 1, "b": [true, null]}), "p", object, false, &text_artifact(object));
}

// ---------------------------------------------------------------------------
// Result and Output
// ---------------------------------------------------------------------------

#[test]
fn result_ok_and_err() {
    let ok: Result<Text, ToolError> = Ok(Text::new("fine"));
    assert_simple(ok, "r", r#""fine""#, false, &text_artifact(r#""fine""#));
    let err: Result<Text, ToolError> = Err(ToolError::new("nope").with_detail("why"));
    let artifact = art("error", "error", "null", "null", r#"{"message":"nope","detail":"why"}"#);
    assert_simple(err, "r", r#""nope\n\nwhy""#, true, &artifact);
}

#[test]
fn output_enum_lowers_like_its_variant() {
    let cases: Vec<(Output, ToolResult)> = vec![
        (Text::new("t").into(), Text::new("t").into_tool_result()),
        (
            Table::new().with_column("a", [1]).unwrap().into(),
            Table::new().with_column("a", [1]).unwrap().into_tool_result(),
        ),
        (
            Image::from_bytes(PNG_1X1, "image/png").unwrap().into(),
            Image::from_bytes(PNG_1X1, "image/png").unwrap().into_tool_result(),
        ),
        (Code::new("x").into(), Code::new("x").into_tool_result()),
        (Diff::new("a", "b").into(), Diff::new("a", "b").into_tool_result()),
        (ToolError::new("e").into(), ToolError::new("e").into_tool_result()),
    ];
    for (output, expected) in cases {
        assert_eq!(
            serde_json::to_string(&output.into_tool_result()).unwrap(),
            serde_json::to_string(&expected).unwrap()
        );
    }
    let artifact =
        art("code", "success", "null", "null", r#"{"text":"x = 1","lang":"python","filename":null,"output":null}"#);
    assert_simple(
        Output::from(Code::new("x = 1").with_lang("python")),
        "o",
        r#""```python\nx = 1\n```""#,
        false,
        &artifact,
    );
    let artifact = art("error", "error", "null", "null", r#"{"message":"bad","detail":null}"#);
    assert_simple(Output::from(ToolError::new("bad")), "o", r#""bad""#, true, &artifact);
}

// ---------------------------------------------------------------------------
// Artifact
// ---------------------------------------------------------------------------

fn object(value: Value) -> Map<String, Value> {
    value.as_object().unwrap().clone()
}

#[test]
fn artifact_key_order_with_null_icon_and_title() {
    let artifact = Artifact::new(Kind::Table, object(json!({"df": {"columns": [], "rows": []}})));
    let expected = r#"{"schema":"codeagent.tool-artifact","version":1,"kind":"table","status":"success","icon":null,"title":null,"payload":{"df":{"columns":[],"rows":[]}}}"#;
    assert_eq!(serde_json::to_string(&artifact).unwrap(), expected);
    assert_eq!(serde_json::to_string(&artifact.clone().into_value()).unwrap(), expected);

    let titled = artifact.with_title("Grouped summary").with_icon("table");
    assert_eq!(
        serde_json::to_string(&titled).unwrap(),
        r#"{"schema":"codeagent.tool-artifact","version":1,"kind":"table","status":"success","icon":"table","title":"Grouped summary","payload":{"df":{"columns":[],"rows":[]}}}"#
    );
}

#[test]
fn artifact_error_kind_forces_error_status() {
    let artifact =
        Artifact::new(Kind::Error, object(json!({"message": "m", "detail": null}))).with_status(Status::Success);
    assert_eq!(artifact.status(), &Status::Error);
    let result = ToolResult::new("m").with_artifact(artifact);
    assert!(result.is_error(), "an error artifact marks the result as an error");
    let image = Artifact::new(Kind::Image, Map::new()).with_status(Status::Error);
    assert_eq!(image.kind(), &Kind::Image);
    assert!(ToolResult::new("x").with_artifact(image).is_error());
}

#[test]
fn artifact_unknown_kind_and_extra_fields_survive_a_round_trip() {
    for text in [
        r#"{"schema":"codeagent.tool-artifact","version":1,"kind":"chart","status":"partial","icon":"bar","title":"T","payload":{"series":[1,2.5,"x"],"nested":{"deep":[null,{"k":true}]}}}"#,
        r#"{"schema":"codeagent.tool-artifact","version":1,"kind":"table","status":"success","icon":null,"title":null,"payload":{"df":{"columns":[],"rows":[]},"caption":"extra payload field","page":{"n":2}}}"#,
        r#"{"schema":"codeagent.tool-artifact","version":3,"kind":"hologram","status":"pending","icon":null,"title":"future","payload":{},"frames":[1,2],"signature":{"alg":"none"}}"#,
    ] {
        let artifact: Artifact = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&artifact).unwrap(), text);
        assert_eq!(serde_json::to_string(&artifact.into_value()).unwrap(), text);
        // And as a raw Value through a result and an event.
        let raw: Value = serde_json::from_str(text).unwrap();
        let any = Artifact::from_value(&raw, &Versions::Any).unwrap();
        assert_eq!(serde_json::to_string(&any).unwrap(), text);
    }
}

#[test]
fn artifact_deserialisation_refuses_malformed_shapes() {
    for text in [
        r#"{"version":1,"kind":"text","status":"success","icon":null,"title":null,"payload":{}}"#,
        r#"{"schema":"other","version":1,"kind":"text","status":"success","icon":null,"title":null,"payload":{}}"#,
        r#"{"schema":"codeagent.tool-artifact","version":0,"kind":"text","status":"success","icon":null,"title":null,"payload":{}}"#,
        r#"{"schema":"codeagent.tool-artifact","version":"1","kind":"text","status":"success","icon":null,"title":null,"payload":{}}"#,
        r#"{"schema":"codeagent.tool-artifact","version":1.5,"kind":"text","status":"success","icon":null,"title":null,"payload":{}}"#,
        r#"{"schema":"codeagent.tool-artifact","version":1,"kind":"","status":"success","icon":null,"title":null,"payload":{}}"#,
        r#"{"schema":"codeagent.tool-artifact","version":1,"kind":"text","status":"success","icon":3,"title":null,"payload":{}}"#,
        r#"{"schema":"codeagent.tool-artifact","version":1,"kind":"text","status":"success","icon":null,"title":null,"payload":[]}"#,
        r#""just a string""#,
    ] {
        assert!(serde_json::from_str::<Artifact>(text).is_err(), "{text}");
    }
}

// ---------------------------------------------------------------------------
// ToolResult and ToolResultEvent round trips
// ---------------------------------------------------------------------------

#[test]
fn tool_result_round_trips_with_unknown_keys() {
    for text in [
        r#"{"value":"3 rows","is_error":false,"extra":{"codeagent":{"artifact":{"schema":"codeagent.tool-artifact","version":1,"kind":"table","status":"success","icon":null,"title":null,"payload":{"df":{"columns":[],"rows":[]}}},"trace":"abc"},"display":{"title":"T","custom":[1]},"provider":{"name":"acme","usage":{"tokens":12}}},"request":{"id":"req-1","name":"summarise","arguments":{"group":"region"}},"provenance":{"source":"cache"}}"#,
        r#"{"value":"","is_error":true,"extra":{},"error":{"code":500,"message":"boom"}}"#,
        r#"{"value":"future","is_error":false,"extra":{"codeagent":{"artifact":{"schema":"codeagent.tool-artifact","version":2,"kind":"chart","status":"success","icon":null,"title":null,"payload":{}}}}}"#,
    ] {
        let result: ToolResult = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&result).unwrap(), text);
        let value: Value = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_value(&result).unwrap(), value);
    }
    let result: ToolResult =
        serde_json::from_str(r#"{"value":"x","extra":{"codeagent":{"artifact":null}},"request":{"id":"r"}}"#).unwrap();
    assert_eq!(result.metadata()["request"]["id"], "r");
    assert!(!result.is_error());
    assert!(result.artifact().is_none());
}

#[test]
fn tool_result_event_round_trips() {
    let text = r#"{"id":"call-9","name":"plot","display":{"title":"T"},"value":"v","is_error":false,"artifact":{"schema":"codeagent.tool-artifact","version":2,"kind":"chart","status":"success","icon":null,"title":null,"payload":{"x":1}}}"#;
    let event: ToolResultEvent = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&event).unwrap(), text);
    assert!(event.artifact().is_none());
    assert_eq!(event.artifact_in(&Versions::Any).unwrap().version(), 2);
}

#[test]
fn event_of_a_result_with_display_keeps_it_in_third_position() {
    let result = Text::new("hi")
        .into_tool_result()
        .with_display(codeagent_core::display::Display::new().with_title("Hello").with_open(true));
    let (result_json, event_json) = wire(&result, "greet");
    let artifact = text_artifact(r#""hi""#);
    assert_eq!(
        result_json,
        format!(
            r#"{{"value":"hi","is_error":false,"extra":{{"codeagent":{{"artifact":{artifact}}},"display":{{"title":"Hello","open":true}}}}}}"#
        )
    );
    assert_eq!(
        event_json,
        format!(
            r#"{{"id":"call-1","name":"greet","display":{{"title":"Hello","open":true}},"value":"hi","is_error":false,"artifact":{artifact}}}"#
        )
    );
}

#[test]
fn event_of_a_result_without_artifact_has_null_artifact() {
    let (result_json, event_json) = wire(&ToolResult::new("bare"), "b");
    assert_eq!(result_json, r#"{"value":"bare","is_error":false,"extra":{}}"#);
    assert_eq!(
        event_json,
        r#"{"id":"call-1","name":"b","display":null,"value":"bare","is_error":false,"artifact":null}"#
    );
}
