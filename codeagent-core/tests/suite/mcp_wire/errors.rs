//! Errors that name the field.

use super::*;

// ---------------------------------------------------------------------------
// 6. Errors that name the field
// ---------------------------------------------------------------------------

#[test]
pub(crate) fn empty_explicit_content_is_refused() {
    let error = CallToolResult::from_content(Vec::<ContentBlock>::new()).unwrap_err();
    assert_eq!(error.field(), "content");
    assert!(error.to_string().starts_with("invalid `content`: "), "{error}");
    let error = CallToolResult::from_content([] as [ContentBlock; 0]).unwrap_err();
    assert_eq!(error.field(), "content");
}

#[test]
pub(crate) fn priority_outside_zero_to_one_is_refused() {
    for priority in [1.5, -0.1, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let error = Annotations::new().with_priority(priority).unwrap_err();
        assert_eq!(error.field(), "annotations.priority", "{priority}");
        assert!(error.problem().contains("between 0 and 1"), "{priority}: {error}");
    }
    for priority in [0.0, 1.0, 0.5] {
        assert_eq!(Annotations::new().with_priority(priority).unwrap().priority_value(), Some(priority));
    }
}

#[test]
pub(crate) fn last_modified_must_be_rfc3339() {
    for bad in ["yesterday", "2025-01-12", "2025-01-12T15:00:58", ""] {
        let error = Annotations::new().with_last_modified(bad).unwrap_err();
        assert_eq!(error.field(), "annotations.lastModified", "{bad}");
        assert!(error.problem().contains(bad), "{error}");
    }
}

#[test]
pub(crate) fn bad_base64_and_mime_types_are_refused() {
    let error = ContentBlock::image("%%%", "image/png").unwrap_err();
    assert_eq!(error.field(), "data");
    assert!(error.problem().contains("base64"), "{error}");
    assert_eq!(ContentBlock::audio("%%%", "audio/wav").unwrap_err().field(), "data");
    assert_eq!(ContentBlock::image(PNG_B64, "text/plain").unwrap_err().field(), "mimeType");
    assert_eq!(ContentBlock::image(PNG_B64, "image/").unwrap_err().field(), "mimeType");
    assert_eq!(ContentBlock::audio(WAV_B64, "image/png").unwrap_err().field(), "mimeType");
    let error = ContentBlock::embedded_blob("file:///a.bin", "not base64!", None).unwrap_err();
    assert_eq!(error.field(), "resource.blob");
}

#[test]
pub(crate) fn uris_without_a_scheme_are_refused() {
    assert_eq!(ContentBlock::resource_link("notes.txt", "notes").unwrap_err().field(), "uri");
    assert_eq!(ContentBlock::resource_link("", "empty").unwrap_err().field(), "uri");
    assert_eq!(ContentBlock::resource_link("://x", "x").unwrap_err().field(), "uri");
    assert_eq!(ContentBlock::embedded_text("/etc/hosts", "x", None).unwrap_err().field(), "resource.uri");
    assert_eq!(ContentBlock::embedded_blob("1abc:x", "AA==", None).unwrap_err().field(), "resource.uri");
    let error = ContentBlock::resource_link("not a uri", "x").unwrap_err();
    assert!(error.to_string().contains("not a uri"), "{error}");
}

#[test]
pub(crate) fn uris_the_schema_rejects_are_refused_by_the_constructors() {
    // The schemas declare `format: uri` (RFC 3986) for resource URIs; whatever
    // the constructors accept must pass it, or be refused naming the field.
    let mut accepted_but_invalid = Vec::new();
    for uri in ["file:///my notes.txt", "https://example.com/a b", "C:\\Users\\me\\notes.txt", "file:///100%"] {
        let blocks = [
            ContentBlock::resource_link(uri, "x").map(ContentBlock::from),
            ContentBlock::embedded_text(uri, "x", None),
            ContentBlock::embedded_blob(uri, "AA==", None),
        ];
        for (constructor, block) in ["resource_link", "embedded_text", "embedded_blob"].into_iter().zip(blocks) {
            match block {
                Err(error) => assert!(error.field().ends_with("uri"), "{error}"),
                Ok(block) => {
                    if let Err(errors) = schema(V2026.as_str()).validate("CallToolResult", &wire_of(block, V2026)) {
                        accepted_but_invalid
                            .push(format!("ContentBlock::{constructor}({uri:?}): {}", errors.join("; ")));
                    }
                }
            }
        }
    }
    assert!(
        accepted_but_invalid.is_empty(),
        "constructors accept URIs the schema rejects (format: uri):\n{}",
        accepted_but_invalid.join("\n")
    );
}

#[test]
pub(crate) fn structured_content_is_protocol_valid_whatever_the_declared_schema() {
    // A result whose structured content is not an object, for a tool that
    // declares an object schema (a mismatch the author owns), must still be a
    // valid CallToolResult for 2025-06-18 and 2025-11-25, which require an object.
    let declared = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    let result = CallToolResult::from_structured(&json!([1, 2])).unwrap();
    let mut failures = Vec::new();
    for &version in ProtocolVersion::ALL {
        if let Err(report) =
            support::check(version.as_str(), "CallToolResult", &result.to_wire(version, Some(&declared)))
        {
            failures.push(report);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[derive(Serialize, JsonSchema)]
pub(crate) struct Report {
    pub(crate) title: &'static str,
    pub(crate) rows: Vec<Scored>,
}

#[test]
pub(crate) fn non_finite_structured_content_names_its_path() {
    let report =
        Report { title: "scores", rows: vec![Scored { name: "a", score: 1.0 }, Scored { name: "b", score: f64::NAN }] };
    let error = CallToolResult::from_structured(&report).unwrap_err();
    assert_eq!(error.field(), "structuredContent.rows[1].score");
    assert!(error.problem().contains("NaN"), "{error}");

    let with = CallToolResult::from_content(ContentBlock::text("x")).unwrap().with_structured(&report).unwrap_err();
    assert_eq!(with.field(), "structuredContent.rows[1].score");

    #[derive(Serialize)]
    struct Reading {
        value: f32,
    }
    let error = CallToolResult::from_structured(&Reading { value: f32::INFINITY }).unwrap_err();
    assert_eq!(error.field(), "structuredContent.value");
    assert!(error.problem().contains("inf"), "{error}");
    assert_eq!(CallToolResult::from_structured(&f32::NEG_INFINITY).unwrap_err().field(), "structuredContent");
    assert_eq!(CallToolResult::from_structured(&[1.0, f64::NAN]).unwrap_err().field(), "structuredContent[1]");
    let map = BTreeMap::from([("ok", 1.0), ("bad", f64::INFINITY)]);
    assert_eq!(CallToolResult::from_structured(&map).unwrap_err().field(), "structuredContent.bad");
    // Options are the way to say "missing".
    assert!(CallToolResult::from_structured(&[Some(1.0), None]).is_ok());

    // Typed outputs turn the same problem into an error result naming the path.
    let result = Json(report).into_tool_result();
    assert!(result.is_error());
    assert!(result.value().contains("rows[1].score"), "{}", result.value());
    let table = Table::from_rows(&[Scored { name: "a", score: f64::NEG_INFINITY }]).unwrap_err();
    assert!(table.message().contains("table row 0"), "{}", table.message());
}
