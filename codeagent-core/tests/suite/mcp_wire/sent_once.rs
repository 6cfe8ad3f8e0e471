//! Large data travels once: a table's rows are in its artifact in `_meta`
//! (or, for a table sent as structured content too, `structuredContent`,
//! which the artifact names instead of repeating), a JSON result's content is
//! `structuredContent`; versions without `structuredContent` get the data in
//! the artifact.

use super::*;

fn table() -> ToolResult {
    Table::from_rows(&sales()).unwrap().with_structured_content().into_tool_result()
}

#[test]
pub(crate) fn a_table_is_sent_once_in_its_artifact_and_the_model_reads_its_value() {
    let original = Table::from_rows(&sales()).unwrap().into_tool_result();
    let df = original.artifact().unwrap().payload()["df"].clone();
    for &version in ProtocolVersion::ALL {
        let wire = original.clone().into_call_result().to_wire(version, None);
        assert!(wire.get("structuredContent").is_none(), "{version}: {wire}");
        assert_eq!(wire["content"], json!([{"type": "text", "text": original.value()}]), "{version}");
        assert_eq!(wire["_meta"][ARTIFACT_META_KEY]["payload"], json!({"df": df}), "{version}");
        assert_eq!(ToolResult::from_mcp(&wire).artifact(), original.artifact(), "{version}");
    }
}

#[test]
pub(crate) fn a_structured_table_is_sent_once_as_structured_content() {
    let original = table();
    let df = original.artifact().unwrap().payload()["df"].clone();
    for version in [V2025_06, V2025_11, V2026] {
        let wire = original.clone().into_call_result().to_wire(version, Table::output_schema().as_ref());
        assert_eq!(wire["structuredContent"], df, "{version}");
        let payload = &wire["_meta"][ARTIFACT_META_KEY]["payload"];
        assert_eq!(payload, &json!({"structuredContent": "df"}), "{version}");
        // A host rebuilding the three channels gets the whole artifact back.
        let back = ToolResult::from_mcp(&wire);
        assert_eq!(back.artifact().unwrap().payload()["df"], df, "{version}");
    }
}

#[test]
pub(crate) fn versions_without_structured_content_carry_the_table_in_the_artifact() {
    let original = table();
    let df = original.artifact().unwrap().payload()["df"].clone();
    for version in [V2024, V2025_03] {
        let wire = original.clone().into_call_result().to_wire(version, Table::output_schema().as_ref());
        assert!(wire.get("structuredContent").is_none(), "{version}");
        assert_eq!(wire["_meta"][ARTIFACT_META_KEY]["payload"], json!({"df": df}), "{version}");
    }
}

#[test]
pub(crate) fn a_json_result_is_not_repeated_pretty_printed() {
    let original = Json(json!({"city": "Oslo", "temperatures": [1.5, 2.0]})).into_tool_result();
    let text = original.artifact().unwrap().payload()["text"].clone();
    let wire = original.clone().into_call_result().to_wire(V2026, Some(&json!({"type": "object"})));
    let payload = &wire["_meta"][ARTIFACT_META_KEY]["payload"];
    assert_eq!(payload, &json!({"structuredContent": "text", "lang": "json", "filename": null, "output": null}));
    assert_eq!(ToolResult::from_mcp(&wire).artifact().unwrap().payload()["text"], text);
}

#[test]
pub(crate) fn a_wrapped_result_carries_its_text_in_the_artifact() {
    // 2025-06-18 wraps a non-object as {"result": ...}: the artifact is complete.
    let original = Json(vec![1, 2, 3]).into_tool_result();
    let schema = <Json<Vec<i32>> as IntoToolResult>::output_schema();
    let wire = original.clone().into_call_result().to_wire(V2025_06, schema.as_ref());
    assert_eq!(wire["structuredContent"], json!({"result": [1, 2, 3]}));
    assert_eq!(wire["_meta"][ARTIFACT_META_KEY]["payload"]["text"], "[\n  1,\n  2,\n  3\n]");
    assert_eq!(ToolResult::from_mcp(&wire).artifact(), original.artifact());
}

#[test]
pub(crate) fn an_artifact_that_differs_from_the_structured_content_is_sent_whole() {
    // A hand-made result whose table is not its structured content keeps both.
    let df = json!({"columns": [{"name": "a", "type": "integer"}], "rows": [[1]]});
    let artifact = codeagent_core::Artifact::new(
        codeagent_core::ArtifactKind::Table,
        json!({"df": df}).as_object().unwrap().clone(),
    );
    let result = ToolResult::new("1 row").with_artifact(artifact).with_extra(
        "mcp",
        json!({"content": [{"type": "text", "text": "1 row"}], "structuredContent": {"other": true}}),
    );
    let wire = result.into_call_result().to_wire(V2026, None);
    assert_eq!(wire["_meta"][ARTIFACT_META_KEY]["payload"]["df"], df);
    assert_eq!(wire["structuredContent"], json!({"other": true}));
}

#[derive(Serialize)]
struct Narrow {
    id: u32,
}

#[derive(Serialize)]
struct Wide {
    id: u32,
    extra: &'static str,
}

#[test]
pub(crate) fn rows_of_different_shapes_take_the_union_of_their_fields() {
    #[derive(Serialize)]
    #[serde(untagged)]
    enum Row {
        Narrow(Narrow),
        Wide(Wide),
    }
    let rows = [Row::Narrow(Narrow { id: 1 }), Row::Wide(Wide { id: 2, extra: "x" }), Row::Narrow(Narrow { id: 3 })];
    let table = Table::from_rows(&rows).unwrap();
    let names: Vec<&str> = table.columns().iter().map(|column| column.name.as_str()).collect();
    assert_eq!(names, ["id", "extra"]);
    assert_eq!(table.rows(), [vec![json!(1), json!(null)], vec![json!(2), json!("x")], vec![json!(3), json!(null)]]);
}

#[test]
pub(crate) fn map_rows_keep_their_keys_and_fill_missing_ones_with_null() {
    let rows = [BTreeMap::from([("b", json!(1)), ("a", json!([1, 2]))]), BTreeMap::from([("c", json!({"k": true}))])];
    let table = Table::from_rows(&rows).unwrap();
    let names: Vec<&str> = table.columns().iter().map(|column| column.name.as_str()).collect();
    assert_eq!(names, ["a", "b", "c"]);
    assert_eq!(table.rows()[1], [json!(null), json!(null), json!({"k": true})]);
    assert_eq!(table.columns()[0].ty, codeagent_core::ColumnType::Json);
}

#[test]
pub(crate) fn a_bad_row_is_named_with_its_field() {
    #[derive(Serialize)]
    struct Nested {
        name: &'static str,
        scores: Vec<f64>,
    }
    let error = Table::from_rows(&[
        Nested { name: "ok", scores: vec![1.0] },
        Nested { name: "bad", scores: vec![1.0, f64::NAN] },
    ])
    .unwrap_err();
    assert!(error.message().starts_with("table row 1 is not valid JSON at `scores[1]`"), "{}", error.message());
    let error = Table::from_rows(&[Narrow { id: 1 }]).map(|_| ()).and(Table::from_rows(&[1, 2]).map(|_| ()));
    assert!(error.unwrap_err().message().contains("table row 0 is not a record"));
}

#[test]
pub(crate) fn data_written_once_is_written_to_the_wire_as_its_tree_would_be() {
    let table = Table::from_rows(&sales()).unwrap();
    let results = [
        (table.clone().into_tool_result(), Table::output_schema()),
        (table.with_structured_content().into_tool_result(), Table::output_schema()),
        (Json(sales()).into_tool_result(), Json::<Vec<Sale>>::output_schema()),
        (Json(sales().remove(0)).into_tool_result(), Json::<Sale>::output_schema()),
    ];
    for (result, schema) in results {
        for &version in ProtocolVersion::ALL {
            let tree = result.clone().into_call_result().into_wire(version, schema.as_ref());
            let written = result.clone().into_wire_json(version, schema.as_ref());
            assert_eq!(written, serde_json::to_string(&tree).unwrap(), "{version}");
        }
    }
}
