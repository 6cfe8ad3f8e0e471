//! The MCP Apps extension (`io.modelcontextprotocol/ui`, SEP-1865), offered
//! only to a client that declares it with the `text/html;profile=mcp-app` MIME
//! type: then the server advertises the extension (and resources), every tool
//! with a view carries `_meta.ui.resourceUri`, and the built-in view is listed
//! among the resources. A client that does not declare it sees exactly what it
//! saw before the extension existed. The built-in view is readable by anyone:
//! it is a static document.

use serde_json::{Map, Value, json};

use crate::mcp::meta::{UI_META_KEY, UI_RESOURCE_URI_KEY};
use crate::mcp::{InvalidContent, ProtocolVersion, ResourceContents};
use crate::toolbox::Toolbox;
use crate::ui::{APP_MIME_TYPE, APP_URI, APPS_EXTENSION, app_document};

/// Whether client `capabilities` declare MCP Apps views in HTML.
pub(crate) fn declared(capabilities: Option<&Value>) -> bool {
    capabilities
        .and_then(|capabilities| capabilities.get("extensions"))
        .and_then(|extensions| extensions.get(APPS_EXTENSION))
        .and_then(|apps| apps.get("mimeTypes"))
        .and_then(Value::as_array)
        .is_some_and(|types| types.iter().any(|mime| mime.as_str() == Some(APP_MIME_TYPE)))
}

/// Adds the extension to the server's `capabilities`, with the resources a
/// host reads the views from.
pub(crate) fn advertise(capabilities: &mut Map<String, Value>) {
    capabilities.entry("resources").or_insert_with(|| json!({}));
    let extensions = capabilities.entry("extensions").or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(extensions) = extensions {
        extensions.insert(APPS_EXTENSION.into(), json!({ "mimeTypes": [APP_MIME_TYPE] }));
    }
}

/// Adds `_meta.ui.resourceUri` to each tool of a `tools/list` result whose
/// tool has a view.
pub(crate) fn point_tools_at_views(result: &mut Value, toolbox: &Toolbox) {
    let Some(Value::Array(tools)) = result.get_mut("tools") else { return };
    for tool in tools {
        let Some(name) = tool.get("name").and_then(Value::as_str) else { continue };
        let Some(uri) = toolbox.tools().find(name).and_then(|found| found.spec().ui().map(str::to_owned)) else {
            continue;
        };
        let Value::Object(tool) = tool else { continue };
        let meta = tool.entry("_meta").or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(meta) = meta {
            meta.insert(UI_META_KEY.into(), json!({ UI_RESOURCE_URI_KEY: uri }));
        }
    }
}

/// Whether the built-in view is served as itself: no resource of the
/// toolbox's own has its URI.
pub(crate) fn serves_builtin_view(toolbox: &Toolbox) -> bool {
    !toolbox.resources().specs().iter().any(|spec| spec.uri() == Some(APP_URI))
}

/// Whether some tool of the toolbox shows its results in the built-in view.
fn builtin_view_in_use(toolbox: &Toolbox) -> bool {
    toolbox
        .tools()
        .names()
        .iter()
        .any(|name| toolbox.tools().find(name).is_some_and(|tool| tool.spec().ui() == Some(APP_URI)))
}

/// Adds the built-in view to the last page of a `resources/list` result,
/// when a tool uses it.
pub(crate) fn list_builtin_view(result: &mut Value, toolbox: &Toolbox) {
    if result.get("nextCursor").is_some() || !serves_builtin_view(toolbox) || !builtin_view_in_use(toolbox) {
        return;
    }
    if let Some(Value::Array(resources)) = result.get_mut("resources") {
        resources.push(json!({
            "uri": APP_URI,
            "name": "codeagent-artifact",
            "title": "Tool result",
            "description": "Shows a codeagent tool result: tables, images, code, diffs, errors and text.",
            "mimeType": APP_MIME_TYPE,
        }));
    }
}

/// The contents of the built-in view, as `resources/read` gives them.
pub(crate) fn builtin_view(version: ProtocolVersion) -> Result<Value, InvalidContent> {
    let contents = ResourceContents::text(APP_URI, app_document())?.with_mime_type(APP_MIME_TYPE.to_owned());
    Ok(contents.into_wire(version))
}
