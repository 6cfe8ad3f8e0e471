"""The MCP Apps view inside the official AppBridge: a sandboxed iframe
(allow-scripts only) on its own origin, under the spec's default CSP, fed the
real CallToolResults of the gallery's tools, then fallbacks, paging, the XSS
corpus and the protocol's other messages."""

import copy
import re

import pytest

from corpus import CLEAN_DOM, CORPUS, IMAGE_TYPES, MARKDOWN, PAYLOADS, SVG_WITH_SCRIPT

META_KEY = "dev.codeagent/artifact"
PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4z8DwHwAFAAH/VscvDQAAAABJRU5ErkJggg=="
LIGHT = {"theme": "light", "displayMode": "inline", "containerDimensions": {"width": 720, "maxHeight": 6000}}


class View:
    """The test host page with the view loaded and initialized."""

    def __init__(self, page, origins, context=None):
        self.page = page
        page.goto(origins["host"] + "/index.html")
        page.evaluate("([url, context]) => testHost.open(url, context)", [origins["view"] + "/view.html", context or LIGHT])
        self.frame = page.frame_locator("#view")
        self.result = self.frame.locator("[data-result]")

    def show(self, result):
        self.page.evaluate("result => testHost.sendResult(result)", result)
        self.frame.locator("[data-result][data-status]").wait_for()
        return self

    def kind(self):
        return self.result.get_attribute("data-kind"), self.result.get_attribute("data-status")

    def texts(self, selector):
        return self.result.locator(selector).all_text_contents()

    def record(self):
        return self.page.evaluate("() => window.hostRecord")

    def clean(self):
        frame = next(frame for frame in self.page.frames if frame.url.endswith("/view.html"))
        return frame.evaluate(CLEAN_DOM, "[data-result]")

    def shoot(self, folder, name):
        self.page.wait_for_function("() => hostRecord.sizes.length > 0")
        self.page.wait_for_timeout(100)
        self.page.locator("#view").screenshot(path=str(folder / name))


@pytest.fixture
def view(guarded, origins):
    def make(context=None):
        page, guard = guarded([origins["host"], origins["view"]])
        return View(page, origins, context)

    return make


def artifact(kind, payload, title=None, icon=None, status="success"):
    return {"schema": "codeagent.tool-artifact", "version": 1, "kind": kind, "status": status, "icon": icon, "title": title, "payload": payload}


def result_with(art, text="the portable value", **extra):
    return {"content": [{"type": "text", "text": text}], "_meta": {META_KEY: art}, **extra}


# ---- the handshake and the gallery's tools ----------------------------------------


def test_tools_with_a_rich_return_point_at_the_view(gallery):
    tools = gallery.tools()
    for name in ["sales_table", "sales_history", "revenue_chart", "show_code", "show_diff", "region_stats"]:
        assert tools[name]["_meta"]["ui"]["resourceUri"] == "ui://codeagent/artifact", name
    for name in ["add", "greet", "divide"]:
        assert "ui" not in (tools[name].get("_meta") or {}), name


def test_handshake_through_the_official_bridge(view):
    v = view()
    record = v.record()
    assert record["initialized"] is True
    assert record["appInfo"]["name"] == "codeagent" and re.fullmatch(r"\d+\.\d+\.\d+.*", record["appInfo"]["version"])
    assert record["appCapabilities"] == {"availableDisplayModes": ["inline"]}
    assert v.frame.locator("html").get_attribute("data-theme") == "light"
    assert "Waiting for the result" in v.result.inner_text()


def test_text(view, gallery, screenshots):
    v = view().show(gallery.call("greet", {"name": "Ada <b>Lovelace</b>"}))
    assert v.kind() == ("text", "success")
    assert v.texts(".codeagent-title") == ["Greeting"]
    assert v.result.locator(".codeagent-markdown").inner_text() == "Hello, Ada <b>Lovelace</b>!"
    v.shoot(screenshots, "view-text.png")


def test_table(view, gallery, screenshots):
    result = gallery.call("sales_table")
    assert "structuredContent" not in result, "a table's rows travel only in the artifact"
    assert len(result["_meta"][META_KEY]["payload"]["df"]["rows"]) == 6
    v = view().show(result)
    assert v.kind() == ("table", "success")
    assert v.texts(".codeagent-title") == ["Sales"]
    assert v.result.locator(".codeagent-icon").get_attribute("data-icon") == "table"
    assert v.texts("th") == ["region", "product", "units", "revenue"]
    assert v.result.locator("tbody tr").count() == 6
    assert v.texts("tbody tr:first-child td") == ["north", "kettle", "120", "3600.0"]
    assert v.result.locator(".codeagent-pager").count() == 0
    record = v.record()
    assert record["sizes"][-1]["height"] > 200
    v.page.wait_for_function("() => document.querySelector('#view').style.height === hostRecord.sizes.at(-1).height + 'px'")
    v.shoot(screenshots, "view-table.png")


def test_table_for_one_region(view, gallery):
    v = view().show(gallery.call("sales_table", {"region": "west"}))
    assert [row.split("\t")[0] for row in v.result.locator("tbody tr").all_inner_texts()] == ["west", "west"]


def test_large_gallery_table_is_paged(view, gallery):
    result = gallery.call("sales_history", {"rows": 230})
    assert "structuredContent" not in result
    assert result["content"][0]["text"].endswith("Showing 20 of 230 rows.")
    assert len(result["_meta"][META_KEY]["payload"]["df"]["rows"]) == 230
    v = view().show(result)
    assert v.kind() == ("table", "success")
    assert v.texts(".codeagent-title") == ["Sales history"]
    assert v.texts("th") == ["day", "region", "units", "revenue"]
    assert v.result.locator(".codeagent-pager-status").inner_text() == "Rows 1–50 of 230 (page 1 of 5)"
    assert v.result.locator("tbody tr").count() == 50
    assert v.texts("tbody tr:first-child td") == ["1", "north", "40", "1020.0"]
    for _ in range(4):
        v.result.locator("[data-page=next]").click()
    assert v.result.locator(".codeagent-pager-status").inner_text() == "Rows 201–230 of 230 (page 5 of 5)"
    assert v.texts("tbody tr:last-child td") == ["58", "south", "113", "2881.5"]


def test_table_with_its_rows_in_structured_content(view, gallery):
    """`Table::with_structured_content`: the rows in structuredContent, the artifact naming them."""
    v = view().show(referring(sales(gallery)))
    assert v.kind() == ("table", "success")
    assert v.result.locator("tbody tr").count() == 6
    assert v.texts("tbody tr:first-child td") == ["north", "kettle", "120", "3600.0"]


def test_image_from_its_content_block(view, gallery, screenshots):
    result = gallery.call("revenue_chart")
    assert result["_meta"][META_KEY]["payload"]["images"] == [{"mime": "image/png", "content": 0}]
    v = view().show(result)
    assert v.kind() == ("image", "success")
    image = v.result.locator("img")
    assert image.get_attribute("src") == "data:image/png;base64," + result["content"][0]["data"]
    size = image.evaluate("img => [img.naturalWidth, img.naturalHeight, img.width, img.height, img.complete]")
    assert size == [160, 100, 160, 100, True], "the chart is shown at its own size"
    assert v.texts(".codeagent-output") == ["Revenue per region: north, south, east, west (left to right)."]
    assert v.texts(".codeagent-title") == ["Revenue by region"]
    v.shoot(screenshots, "view-image.png")


def test_code(view, gallery, screenshots):
    v = view().show(gallery.call("show_code"))
    assert v.kind() == ("code", "success")
    assert v.texts(".codeagent-filename") == ["src/add.rs"]
    assert v.texts(".codeagent-lang") == ["rust"]
    assert v.texts("pre code") == ["fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n"]
    assert v.texts(".codeagent-output") == ["add(2, 3) == 5"]
    v.shoot(screenshots, "view-code.png")


def test_json_as_code(view, gallery):
    v = view().show(gallery.call("region_stats", {"region": "north"}))
    assert v.kind() == ("code", "success")
    assert v.texts(".codeagent-lang") == ["json"]
    assert '"units": 200' in v.texts("pre code")[0]


def test_diff(view, gallery, screenshots):
    v = view().show(gallery.call("show_diff"))
    assert v.kind() == ("diff", "success")
    assert v.texts(".codeagent-filename") == ["src/add.rs"]
    assert v.texts(".codeagent-diff .del") == ["-fn sum(a: i64, b: i64) -> i64 {\n"]
    assert v.texts(".codeagent-diff .ins") == ["+fn add(a: i64, b: i64) -> i64 {\n"]
    assert v.texts(".codeagent-diff .eq") == ["     a + b\n", " }\n"]
    v.shoot(screenshots, "view-diff.png")


def test_error(view, gallery, screenshots):
    v = view().show(gallery.call("divide", {"numerator": 1, "denominator": 0}))
    assert v.kind() == ("error", "error")
    assert v.texts(".codeagent-error") == ["cannot divide by zero"]
    assert v.texts("pre") == ["pass a non-zero `denominator`"]
    v.shoot(screenshots, "view-error.png")


def test_plain_value_without_artifact(view, gallery):
    result = gallery.call("add", {"a": 2, "b": 3})
    assert "_meta" not in result
    # 2025-11-25: the JSON text "5" also comes as structuredContent {"result": 5}, which is no artifact.
    assert result["structuredContent"] == {"result": 5}
    v = view().show(result)
    assert v.kind() == ("text", "success")
    assert v.texts("pre") == ["5"]


def test_dark_theme_and_host_variables(view, gallery, screenshots):
    context = dict(LIGHT, theme="dark", styles={"variables": {"--color-text-danger": "rgb(250, 100, 0)", "--font-sans": "url(https://evil.example/f)"}})
    v = view(context).show(gallery.call("divide", {"numerator": 1, "denominator": 0}))
    assert v.frame.locator("html").get_attribute("data-theme") == "dark"
    background = v.result.locator(".codeagent-card").evaluate("el => getComputedStyle(el).backgroundColor")
    assert sum(map(int, re.findall(r"\d+", background)[:3])) < 150, background
    assert v.result.locator(".codeagent-error").evaluate("el => getComputedStyle(el).color") == "rgb(250, 100, 0)"
    assert "url" not in v.frame.locator("html").evaluate("el => el.getAttribute('style') || ''")
    v.show(gallery.call("sales_table"))
    v.shoot(screenshots, "view-table-dark.png")
    v.page.evaluate("() => testHost.setContext({theme: 'light'})")
    v.page.wait_for_function("() => document.querySelector('#view') !== null")
    v.frame.locator("html[data-theme=light]").wait_for()


# ---- fallbacks -----------------------------------------------------------------


def sales(gallery):
    return gallery.call("sales_table")


def referring(result):
    """`result` as `Table::with_structured_content` sends it: the rows as structuredContent, the artifact naming them."""
    result = copy.deepcopy(result)
    payload = result["_meta"][META_KEY]["payload"]
    result["structuredContent"] = payload.pop("df")
    payload["structuredContent"] = "df"
    return result


def set_path(value, path, new):
    target = value
    for key in path[:-1]:
        target = target[key]
    if new is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = new


ART = ["_meta", META_KEY]
FALLBACKS = {
    "absent": (["_meta"], KeyError),
    "future version": (ART + ["version"], 2),
    "version as a string": (ART + ["version"], "1"),
    "other schema": (ART + ["schema"], "someone.else"),
    "unknown kind": (ART + ["kind"], "chart"),
    "artifact is a string": (ART, "{\"schema\":\"codeagent.tool-artifact\"}"),
    "artifact is null": (ART, None),
    "payload is a list": (ART + ["payload"], []),
    # The table's data is the artifact's df, its only copy (no structuredContent).
    "rows are not a list": (ART + ["payload", "df", "rows"], "north,kettle"),
    "a row is not a list": (ART + ["payload", "df", "rows", 0], {"region": "north"}),
    "columns missing": (ART + ["payload", "df", "columns"], KeyError),
    "df missing": (ART + ["payload", "df"], KeyError),
    "the artifact names structured content the result lacks": (ART + ["payload"], {"structuredContent": "df"}),
    "title is a number": (ART + ["title"], 7),
    "status missing": (ART + ["status"], KeyError),
}
# With `Table::with_structured_content` the table's data is the result's structuredContent, which the artifact names.
REFERRING_FALLBACKS = {
    "structured rows are not a list": (["structuredContent", "rows"], "north,kettle"),
    "a structured row is not a list": (["structuredContent", "rows", 0], {"region": "north"}),
    "structured columns missing": (["structuredContent", "columns"], KeyError),
    "structured content missing": (["structuredContent"], KeyError),
    "the artifact names another field": (ART + ["payload", "structuredContent"], "rows"),
}


@pytest.mark.parametrize("case", list(FALLBACKS) + list(REFERRING_FALLBACKS))
def test_untrusted_artifact_shows_the_text(view, gallery, case):
    result = copy.deepcopy(sales(gallery)) if case in FALLBACKS else referring(sales(gallery))
    text = result["content"][0]["text"]
    path, new = FALLBACKS.get(case) or REFERRING_FALLBACKS[case]
    set_path(result, path, new)
    v = view().show(result)
    assert v.kind() == ("text", "success")
    assert v.texts("pre") == [text]


MALFORMED_PAYLOADS = {
    "text": {"text": ["not", "a", "string"]},
    "image": {"images": {"mime": "image/png"}},
    "code": {"text": 42, "lang": "rust"},
    "diff": {"old": "a\n", "path": "x"},
    "error": {"message": None, "detail": "d"},
}


@pytest.mark.parametrize("kind", list(MALFORMED_PAYLOADS))
def test_malformed_payload_of_each_kind(view, kind):
    v = view().show(result_with(artifact(kind, MALFORMED_PAYLOADS[kind]), text="fallback text", isError=kind == "error"))
    assert v.kind() == ("text", "error" if kind == "error" else "success")
    assert v.texts("pre") == ["fallback text"]


def test_artifact_in_structured_content(view):
    art = artifact("code", {"text": "print(1)", "lang": "python", "filename": None, "output": None})
    v = view().show({"content": [{"type": "text", "text": "print(1)"}], "structuredContent": art})
    assert v.kind() == ("code", "success")
    assert v.texts("pre code") == ["print(1)"]


def test_no_text_at_all(view):
    v = view().show({"content": [{"type": "image", "data": PIXEL, "mimeType": "image/png"}]})
    assert v.kind() == ("text", "success")
    assert v.texts(".codeagent-note") == ["(no text content)"]


def test_image_reference_out_of_range_is_named(view):
    art = artifact("image", {"images": [{"mime": "image/png", "content": 5}], "output": None})
    v = view().show(result_with(art))
    assert v.kind() == ("image", "success")
    assert v.result.locator("img").count() == 0
    assert v.texts(".codeagent-note") == ["[image of type image/png not shown]"]


def test_malformed_and_foreign_messages_are_ignored(view):
    v = view()
    good = result_with(artifact("text", {"text": "first"}))
    v.show(good)
    for message in [
        "a string",
        {"jsonrpc": "1.0", "method": "ui/notifications/tool-result", "params": result_with(artifact("text", {"text": "v1"}))},
        {"jsonrpc": "2.0", "method": 5},
        {"jsonrpc": "2.0", "method": "ui/notifications/tool-result", "params": "not an object"},
        {"jsonrpc": "2.0", "method": "ui/notifications/tool-result", "params": [1, 2]},
        {"jsonrpc": "2.0", "id": {"nested": 1}, "method": "ping"},
        {"jsonrpc": "2.0", "id": 999, "result": {}},
    ]:
        v.page.evaluate("message => testHost.post(message)", message)
    frame = next(frame for frame in v.page.frames if frame.url.endswith("/view.html"))
    forged = {"jsonrpc": "2.0", "method": "ui/notifications/tool-result", "params": result_with(artifact("text", {"text": "forged"}))}
    frame.evaluate("message => window.postMessage(message, '*')", forged)
    v.page.evaluate("message => testHost.post(message)", {"jsonrpc": "2.0", "method": "ui/notifications/tool-result", "params": {"content": "x"}})
    v.frame.locator(".codeagent-note").wait_for()
    assert v.texts(".codeagent-note") == ["(no text content)"]
    v.page.evaluate("r => testHost.post({jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: r})", result_with(artifact("text", {"text": "last"})))
    v.frame.get_by_text("last").wait_for()
    assert "forged" not in v.result.inner_text()


# ---- paging ----------------------------------------------------------------------


def test_large_table_is_paged(view, screenshots):
    rows = [[i, f"item {i}", i * 0.5] for i in range(1, 231)]
    df = {"columns": [{"name": "id", "type": "integer"}, {"name": "label", "type": "string"}, {"name": "half", "type": "number"}], "rows": rows}
    v = view().show(result_with(artifact("table", {"df": df}, title="230 rows")))
    status = v.result.locator(".codeagent-pager-status")
    assert status.inner_text() == "Rows 1–50 of 230 (page 1 of 5)"
    assert v.result.locator("tbody tr").count() == 50
    assert v.result.locator("[data-page=prev]").is_disabled()
    v.result.locator("[data-page=next]").click()
    assert status.inner_text() == "Rows 51–100 of 230 (page 2 of 5)"
    assert v.texts("tbody tr:first-child td") == ["51", "item 51", "25.5"]
    for _ in range(3):
        v.result.locator("[data-page=next]").click()
    assert status.inner_text() == "Rows 201–230 of 230 (page 5 of 5)"
    assert v.result.locator("tbody tr").count() == 30
    assert v.result.locator("[data-page=next]").is_disabled()
    v.result.locator("[data-page=prev]").click()
    assert status.inner_text() == "Rows 151–200 of 230 (page 4 of 5)"
    assert v.texts("tbody tr:first-child td")[2] == "75.5"


# ---- the XSS corpus through every field of every kind --------------------------------


def assert_safe(v):
    assert v.clean() == [], "the rendered result holds active content"
    assert v.page.evaluate("() => hostRecord.links") == []


def test_trap_works(view):
    """A positive control: markup inserted as HTML would trip the trap."""
    v = view()
    frame = next(frame for frame in v.page.frames if frame.url.endswith("/view.html"))
    frame.evaluate("() => document.body.insertAdjacentHTML('beforeend', '<img src=x onerror=__xss(\"control\")>')")
    v.page.wait_for_function("() => true")
    frame.wait_for_function("() => window.__xssCalls.length > 0")
    assert frame.evaluate("() => window.__xssCalls") == [["__xss", "control"]]
    frame.evaluate("() => window.__xssCalls.length = 0")


def test_xss_title_and_icon(view):
    v = view().show(result_with(artifact("text", {"text": "body"}, title=CORPUS, icon=CORPUS)))
    assert v.texts(".codeagent-title") == [CORPUS]
    icon = v.result.locator(".codeagent-icon")
    assert icon.get_attribute("data-icon") == CORPUS and icon.get_attribute("title") == CORPUS
    assert_safe(v)


def test_xss_markdown(view):
    v = view().show(result_with(artifact("text", {"text": MARKDOWN}, title="md")))
    text = v.result.locator(".codeagent-markdown").inner_text()
    for fragment in ["<script>", "onerror=", "<svg", "<iframe", "javascript:", "data:text/html", "<style>", "<object", "<base", "<meta"]:
        assert fragment in text, fragment
    assert v.result.locator("a").count() == 0, "no dangerous link became a link"
    assert "[image: remote pixel]" in text and "[image: inline svg]" in text
    assert_safe(v)


def test_xss_table_cells_and_column_names(view):
    columns = [{"name": payload, "type": "string"} for payload in PAYLOADS[:6]]
    rows = [PAYLOADS[i : i + 6] for i in range(0, len(PAYLOADS) - 5, 3)]
    rows.append([{"html": PAYLOADS[0]}, [PAYLOADS[1]], None, True, 1.5, PAYLOADS[2]])
    v = view().show(result_with(artifact("table", {"df": {"columns": columns, "rows": rows}}, title=CORPUS)))
    assert v.kind() == ("table", "success")
    assert v.texts("th") == PAYLOADS[:6]
    cells = v.texts("tbody td")
    expected = [cell for row in rows[:-1] for cell in row]
    assert cells[: len(expected)] == expected
    assert cells[len(expected) :] == ['{"html":"<script>__xss(\\"script\\")</script>"}', '["<img src=x onerror=__xss(\\"img\\")>"]', "", "true", "1.5", PAYLOADS[2]]
    assert_safe(v)


def test_xss_code_fields(view):
    payload = {"text": CORPUS, "lang": CORPUS, "filename": CORPUS, "output": CORPUS}
    v = view().show(result_with(artifact("code", payload, title=CORPUS)))
    assert v.texts("pre code") == [CORPUS]
    assert v.texts(".codeagent-lang") == [CORPUS]
    assert v.texts(".codeagent-filename") == [CORPUS]
    assert v.texts(".codeagent-output") == [CORPUS]
    assert v.result.locator("pre code").get_attribute("data-lang") == CORPUS
    assert_safe(v)


def test_xss_diff_fields(view):
    old = CORPUS + "\n"
    new = "\n".join(reversed(PAYLOADS)) + "\n"
    v = view().show(result_with(artifact("diff", {"old": old, "new": new, "path": CORPUS})))
    assert v.texts(".codeagent-filename") == [CORPUS]
    lines = v.texts(".codeagent-diff span")
    assert sorted(line[1:] for line in lines if line[0] in "- ") == sorted(line + "\n" for line in PAYLOADS)
    assert sorted(line[1:] for line in lines if line[0] in "+ ") == sorted(line + "\n" for line in PAYLOADS)
    assert_safe(v)


def test_xss_error_fields(view):
    v = view().show(result_with(artifact("error", {"message": CORPUS, "detail": CORPUS}, status="error"), isError=True))
    assert v.kind() == ("error", "error")
    assert v.texts(".codeagent-error") == [CORPUS]
    assert v.texts("pre") == [CORPUS]
    v2 = view().show(result_with(artifact("error", {"message": "m", "detail": {"html": PAYLOADS[1]}}, status="error")))
    assert v2.texts("pre") == ['{"html":"<img src=x onerror=__xss(\\"img\\")>"}']
    assert_safe(v)
    assert_safe(v2)


def test_xss_image_types_and_data(view):
    images = [{"mime": mime, "b64": SVG_WITH_SCRIPT} for mime in IMAGE_TYPES]
    images.append({"mime": "image/png", "b64": 'AAAA" onerror="__xss(\'b64\')'})
    images.append({"mime": "image/png", "b64": PIXEL + "#"})
    images.append({"mime": "image/png", "b64": PIXEL})
    v = view().show(result_with(artifact("image", {"images": images, "output": CORPUS}, title=CORPUS)))
    assert v.kind() == ("image", "success")
    notes = v.texts(".codeagent-note")
    assert notes == [f"[image of type {mime} not shown]" for mime in IMAGE_TYPES] + ["[image of type image/png not shown]"] * 2
    assert v.result.locator("img").count() == 1
    assert v.result.locator("img").get_attribute("src") == "data:image/png;base64," + PIXEL
    assert v.texts(".codeagent-output") == [CORPUS]
    assert_safe(v)


def test_xss_image_block_types(view):
    """Image entries that refer to an MCP image block take its type, checked the same way."""
    content = [{"type": "image", "data": SVG_WITH_SCRIPT, "mimeType": "image/svg+xml"}, {"type": "text", "text": "t"}]
    art = artifact("image", {"images": [{"mime": "image/svg+xml", "content": 0}, {"mime": "image/png", "content": 0}], "output": None})
    v = view().show({"content": content, "_meta": {META_KEY: art}})
    assert v.texts(".codeagent-note") == ["[image of type image/svg+xml not shown]", "[image of type image/png not shown]"]
    assert_safe(v)


# ---- the rest of the protocol ------------------------------------------------------


def test_ping_and_unknown_requests(view):
    v = view()
    v.page.evaluate("() => testHost.post({jsonrpc: '2.0', id: 'probe-ping', method: 'ping'})")
    v.page.evaluate("() => testHost.post({jsonrpc: '2.0', id: 'probe-call', method: 'tools/call', params: {name: 'x'}})")
    v.page.wait_for_function("() => hostRecord.probes['probe-ping'] && hostRecord.probes['probe-call']")
    probes = v.record()["probes"]
    assert probes["probe-ping"] == {"jsonrpc": "2.0", "id": "probe-ping", "result": {}}
    assert probes["probe-call"]["error"]["code"] == -32601


def test_teardown(view):
    v = view().show(result_with(artifact("text", {"text": "before"})))
    assert v.page.evaluate("() => testHost.teardown()") == {}
    v.page.evaluate("r => testHost.post({jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: r})", result_with(artifact("text", {"text": "after"})))
    v.page.wait_for_timeout(200)
    assert "before" in v.result.inner_text() and "after" not in v.result.inner_text()


def test_cancelled(view):
    v = view()
    v.page.evaluate("() => testHost.sendInput({})")
    v.frame.get_by_text("Running the tool").wait_for()
    v.page.evaluate("() => testHost.sendCancelled('user action')")
    v.frame.locator("[data-result][data-status]").wait_for()
    assert v.kind() == ("text", "error")
    assert v.texts("pre") == ["The tool call was cancelled: user action."]


def test_links_open_through_the_host(view):
    v = view().show(result_with(artifact("text", {"text": "See [the docs](https://example.com/docs) or [mail](mailto:a@example.com)."})))
    v.result.get_by_text("the docs").click()
    v.page.wait_for_function("() => hostRecord.links.length === 1")
    assert v.record()["links"] == ["https://example.com/docs"]
    assert v.result.locator("a").evaluate_all("links => links.map(a => a.getAttribute('href'))") == ["https://example.com/docs", "mailto:a@example.com"]
