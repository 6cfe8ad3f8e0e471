"""The built-in host page (`--http ADDR --ui`): the gallery's tools listed,
forms from their schemas, calls with progress and logs, results rendered, the
raw JSON; every input type and the XSS corpus through the fixture server's
forms. The page may reach nothing but its own origin."""

import json
import re
import urllib.request

import pytest

from corpus import CLEAN_DOM, CORPUS, IMAGE_TYPES, MARKDOWN, PAYLOADS, SVG_WITH_SCRIPT

GALLERY_TOOLS = [
    "add", "greet", "sales_table", "sales_history", "revenue_chart", "show_code", "show_diff",
    "divide", "region_stats", "count_with_progress", "slow", "region_report",
    "delete_region", "summarize_sales", "sales_report",
]


class HostPage:
    def __init__(self, page, url):
        self.page = page
        page.goto(url + "/")
        page.locator("[data-connection=ready]").wait_for(state="attached")
        self.result = page.locator("[data-result]")

    def form(self, tool):
        self.page.locator(f'[data-tool="{tool}"]').click()
        return self.page.locator(f'form[data-tool-form="{tool}"]')

    def call(self, tool, fields=None, wait=True):
        form = self.form(tool)
        for name, value in (fields or {}).items():
            field = form.locator(f'[name="{name}"]')
            tag = field.evaluate("el => el.tagName.toLowerCase() + ':' + (el.type || '')")
            if tag.startswith("select"):
                field.select_option(value)
            elif tag == "input:checkbox":
                field.set_checked(value)
            else:
                field.fill(value)
        form.locator("button[type=submit]").click()
        if wait:
            self.page.locator("[data-result][data-status]").wait_for()
        return self

    def kind(self):
        return self.result.get_attribute("data-kind"), self.result.get_attribute("data-status")

    def texts(self, selector):
        return self.result.locator(selector).all_text_contents()


@pytest.fixture
def gallery_page(guarded, gallery_url):
    page, _ = guarded([gallery_url])
    return HostPage(page, gallery_url)


@pytest.fixture
def fixtures_page(guarded, fixtures_url):
    page, _ = guarded([fixtures_url])
    return HostPage(page, fixtures_url)


def test_served_with_its_policy(gallery_url):
    with urllib.request.urlopen(gallery_url + "/", timeout=10) as response:
        assert response.headers["content-type"] == "text/html; charset=utf-8"
        policy = response.headers["content-security-policy"]
        body = response.read().decode()
    assert "connect-src 'self'" in policy and "default-src 'none'" in policy
    assert body.startswith("<!DOCTYPE html>")


def test_lists_the_tools(gallery_page):
    page = gallery_page.page
    assert page.locator("[data-tool]").evaluate_all("items => items.map(i => i.dataset.tool)") == GALLERY_TOOLS
    sales = page.locator('[data-tool="sales_table"]')
    assert "Sales table" in sales.inner_text()
    assert "List sales records as a table, optionally for one region." in sales.inner_text()
    assert sales.locator("[data-annotation]").all_text_contents() == ["read-only"]
    add = page.locator('[data-tool="add"] [data-annotation]').all_text_contents()
    assert add == ["read-only", "idempotent", "closed world"]
    delete = page.locator('[data-tool="delete_region"]')
    assert "Delete a region's records" in delete.inner_text()
    assert delete.locator("[data-annotation]").all_text_contents() == ["destructive", "idempotent", "closed world"]
    summarize = page.locator('[data-tool="summarize_sales"]')
    assert "Summarise sales" in summarize.inner_text()
    assert summarize.locator("[data-annotation]").all_text_contents() == ["read-only"]
    assert page.locator("h1").inner_text() == "codeagent gallery"


def test_forms_follow_the_schemas(gallery_page):
    region = gallery_page.form("sales_table").locator('select[name="region"]')
    assert region.locator("option").all_text_contents() == ["(not set)", "north", "south", "east", "west"]
    divide = gallery_page.form("divide")
    for name in ["numerator", "denominator"]:
        assert divide.locator(f'input[name="{name}"]').evaluate("i => [i.type, i.step]") == ["number", "any"]
    steps = gallery_page.form("count_with_progress").locator('input[name="steps"]')
    assert steps.evaluate("i => [i.type, i.step, i.min, i.max]") == ["number", "1", "1", "100"]
    rows = gallery_page.form("sales_history").locator('input[name="rows"]')
    assert rows.evaluate("i => [i.type, i.step, i.min, i.max]") == ["number", "1", "1", "100000"]
    assert "takes no arguments" in gallery_page.form("revenue_chart").inner_text()
    assert gallery_page.form("region_stats").locator('select[name="region"] option').count() == 4


CALLS = {
    "greet": ({"name": "Ada"}, ("text", "success"), "Hello, Ada!"),
    "sales_table": ({"region": "west"}, ("table", "success"), "toaster"),
    "sales_history": ({"rows": "120"}, ("table", "success"), "Rows 1–50 of 120 (page 1 of 3)"),
    "revenue_chart": ({}, ("image", "success"), "Revenue per region"),
    "show_code": ({}, ("code", "success"), "fn add(a: i64, b: i64)"),
    "show_diff": ({}, ("diff", "success"), "+fn add(a: i64, b: i64) -> i64 {"),
    "divide": ({"numerator": "1", "denominator": "0"}, ("error", "error"), "cannot divide by zero"),
    "region_stats": ({"region": "east"}, ("code", "success"), '"revenue": 2400.0'),
    "add": ({"a": "2", "b": "40"}, ("text", "success"), "42"),
    "region_report": ({"region": "north"}, ("text", "success"), "gallery://regions/north"),
}


@pytest.mark.parametrize("tool", list(CALLS))
def test_calls_render(gallery_page, tool, screenshots):
    fields, kind, text = CALLS[tool]
    gallery_page.call(tool, fields)
    assert gallery_page.kind() == kind
    assert text in gallery_page.result.inner_text()
    if tool == "sales_table":
        assert gallery_page.result.locator("tbody tr").count() == 2
        gallery_page.page.evaluate("() => window.scrollTo(0, 0)")
        gallery_page.page.screenshot(path=str(screenshots / "host-page.png"))
    if tool == "sales_history":
        assert gallery_page.result.locator("tbody tr").count() == 50
    if tool == "revenue_chart":
        assert gallery_page.result.locator("img").evaluate("img => img.naturalWidth") == 160


# The host page declares neither elicitation nor sampling: summarize_sales falls back to the table,
# delete_region is an error result (its message alone: no artifact on the wire, so a text card), and
# nothing is deleted.
ASKING = {
    "summarize_sales": (
        ("text", "success"),
        "This client cannot sample, so here is the table:\n\n| region | product | units | revenue |\n"
        "| --- | --- | --- | --- |\n| east | blender | 40 | 2400.0 |\n\n1 row.",
    ),
    "delete_region": (
        ("text", "error"),
        "the client cannot be asked `elicitation/create`: it did not declare the `elicitation` capability",
    ),
}


@pytest.mark.parametrize("tool", list(ASKING))
def test_tools_that_ask_without_the_capabilities(gallery_page, tool):
    kind, text = ASKING[tool]
    gallery_page.call(tool, {"region": "east"})
    assert gallery_page.kind() == kind
    assert gallery_page.result.get_attribute("data-status") == kind[1]
    assert gallery_page.result.inner_text().strip() == text


def test_divide_with_fractions(gallery_page):
    gallery_page.call("divide", {"numerator": "1.5", "denominator": "0.25"})
    assert gallery_page.result.inner_text().strip() == "6"


def test_progress_and_log_while_it_runs(gallery_page, screenshots):
    page = gallery_page.page
    gallery_page.call("count_with_progress", {"steps": "60"}, wait=False)
    progress = page.locator("[data-progress]")
    progress.wait_for(state="visible")
    assert gallery_page.result.get_attribute("data-status") is None, "progress shows before the result"
    assert re.fullmatch(r"step \d+ of 60 \(\d+ / 60\)", progress.inner_text().strip())
    page.locator("[data-result][data-status]").wait_for()
    assert progress.inner_text().strip() == "step 60 of 60 (60 / 60)"
    assert page.locator("[data-progress] progress").evaluate("p => [p.value, p.max]") == [60, 60]
    log = page.locator("[data-log] li")
    assert log.count() == 1 and log.get_attribute("data-level") == "info"
    assert "counted to 60" in log.inner_text()
    assert gallery_page.result.inner_text().strip() == "Counted to 60."
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshots / "host-page-progress.png"))


def test_raw_json_on_demand(gallery_page):
    gallery_page.call("show_code")
    raw = gallery_page.page.locator("[data-raw]")
    assert not raw.locator("pre").first.is_visible()
    raw.locator("summary").click()
    messages = raw.locator("pre").all_text_contents()
    request, response = json.loads(messages[0]), json.loads(messages[-1])
    assert request["method"] == "tools/call" and request["params"]["name"] == "show_code"
    assert isinstance(request["params"]["_meta"]["progressToken"], str)
    assert response["result"]["_meta"]["dev.codeagent/artifact"]["kind"] == "code"
    assert raw.locator("pre").first.is_visible()


def raw_response(host):
    """The last JSON-RPC message the raw view shows: the call's response."""
    raw = host.page.locator("[data-raw]")
    raw.locator("summary").click()
    return json.loads(raw.locator("pre").all_text_contents()[-1])


def test_table_rows_travel_in_the_artifact(gallery_page):
    gallery_page.call("sales_table", {"region": "west"})
    result = raw_response(gallery_page)["result"]
    assert "structuredContent" not in result
    assert [row[0] for row in result["_meta"]["dev.codeagent/artifact"]["payload"]["df"]["rows"]] == ["west", "west"]
    assert gallery_page.result.locator("tbody tr").count() == 2


def test_scalar_json_text_as_structured_content(gallery_page):
    """2025-11-25: add's text "42" also comes as {"result": 42}; the page still shows the text."""
    gallery_page.call("add", {"a": "2", "b": "40"})
    result = raw_response(gallery_page)["result"]
    assert result["structuredContent"] == {"result": 42}
    assert gallery_page.kind() == ("text", "success")
    assert gallery_page.result.inner_text().strip() == "42"


def test_cancel(gallery_page):
    page = gallery_page.page
    gallery_page.call("slow", {"seconds": "60"}, wait=False)
    cancel = page.locator('form[data-tool-form="slow"] .host-cancel')
    cancel.wait_for(state="visible")
    cancel.click()
    page.locator("[data-result][data-status]").wait_for(timeout=10000)
    assert gallery_page.kind() == ("text", "error")
    assert "cancelled" in gallery_page.result.inner_text()
    assert page.locator('form[data-tool-form="slow"] button[type=submit]').is_enabled()


def test_a_task_shows_its_status_then_its_result(gallery_page, screenshots):
    """sales_report runs as a task (the page declares the tasks extension): the page polls it."""
    page = gallery_page.page
    gallery_page.call("sales_report", {"seconds": "2"}, wait=False)
    task = page.locator("[data-task]")
    page.locator('[data-task][data-status="working"]').wait_for(timeout=10000)
    assert gallery_page.result.get_attribute("data-status") is None, "the status shows before the result"
    assert task.locator(".host-task-status").inner_text().strip().lower() == "task working"
    page.locator('[data-task] .host-task-message:text-matches("Adding up")').wait_for(timeout=10000)
    page.screenshot(path=str(screenshots / "host-page-task.png"))
    page.locator("[data-result][data-status]").wait_for(timeout=20000)
    assert task.get_attribute("data-status") == "completed"
    assert gallery_page.kind() == ("table", "success")
    assert gallery_page.texts("tbody tr td:first-child") == ["north", "south", "east", "west"]
    raw = page.locator("[data-raw]")
    raw.locator("summary").click()
    messages = [json.loads(text) for text in raw.locator("pre").all_text_contents()]
    created = messages[1]["result"]
    assert created["resultType"] == "task" and isinstance(created["taskId"], str), created


def test_a_cancelled_task_says_so(gallery_page):
    page = gallery_page.page
    gallery_page.call("sales_report", {"seconds": "120"}, wait=False)
    page.locator('[data-task][data-status="working"]').wait_for(timeout=10000)
    cancel = page.locator('form[data-tool-form="sales_report"] .host-cancel')
    cancel.click()
    page.locator("[data-result][data-status]").wait_for(timeout=15000)
    assert page.locator("[data-task]").get_attribute("data-status") == "cancelled"
    assert gallery_page.kind() == ("text", "error")
    assert gallery_page.result.inner_text().strip() == "The task was cancelled."
    assert page.locator('form[data-tool-form="sales_report"] button[type=submit]').is_enabled()


def test_bad_numbers_are_refused_before_the_call(gallery_page):
    form = gallery_page.form("count_with_progress")
    form.locator('[name="steps"]').fill("2.5")
    form.locator("button[type=submit]").click()
    assert form.locator(".host-field-error").inner_text() == "not a whole number"
    assert gallery_page.result.get_attribute("data-status") is None
    assert gallery_page.page.locator("[data-raw] pre").count() == 0


def test_dark_mode(guarded, gallery_url, screenshots):
    page, _ = guarded([gallery_url], color_scheme="dark")
    host = HostPage(page, gallery_url)
    host.call("show_diff")
    background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert sum(map(int, re.findall(r"\d+", background)[:3])) < 150, background
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshots / "host-page-dark.png"))


# ---- the fixture server: every input type, and the XSS corpus through the form ----


def test_every_input_type(fixtures_page):
    form = fixtures_page.form("form_types")
    types = form.locator("[name]").evaluate_all("els => els.map(e => [e.name, e.tagName.toLowerCase(), e.type, e.step || ''])")
    assert types == [
        ["text", "textarea", "textarea", ""],
        ["ratio", "input", "number", "any"],
        ["count", "input", "number", "1"],
        ["flag", "input", "checkbox", ""],
        ["choice", "select", "select-one", ""],
        ["maybe", "textarea", "textarea", ""],
        ["maybe_count", "input", "number", "1"],
        ["maybe_flag", "select", "select-one", ""],
        ["list", "textarea", "textarea", ""],
        ["nested", "textarea", "textarea", ""],
    ]
    assert form.locator('[name="count"]').evaluate("i => [i.min, i.max]") == ["-5", "1000"]
    assert form.locator('[data-field="maybe"] label').inner_text().endswith("optional")
    assert form.locator('[name="choice"] option').all_text_contents() == ["red", "green", "blue"]
    fixtures_page.call("form_types", {
        "text": "héllo <b>",
        "ratio": "0.25",
        "count": "-3",
        "flag": True,
        "choice": "green",
        "maybe_count": "7",
        "maybe_flag": "false",
        "list": "[1, 2, 3]",
        "nested": '{"label": "x", "weight": 1.5}',
    })
    assert fixtures_page.kind() == ("code", "success")
    echoed = json.loads(fixtures_page.texts("pre code")[0])
    assert echoed == {
        "text": "héllo <b>", "ratio": 0.25, "count": -3, "flag": True, "choice": "green", "maybe": None,
        "maybe_count": 7, "maybe_flag": False, "list": [1, 2, 3], "nested": {"label": "x", "weight": 1.5},
    }


def test_invalid_json_is_refused_before_the_call(fixtures_page):
    form = fixtures_page.form("form_types")
    form.locator('[name="list"]').fill("[1,")
    form.locator("button[type=submit]").click()
    assert form.locator('[data-field="list"] .host-field-error').inner_text().startswith("not valid JSON")
    assert fixtures_page.result.get_attribute("data-status") is None


def assert_clean(host):
    assert host.page.evaluate(CLEAN_DOM, "[data-result]") == []


def test_xss_text_form(fixtures_page):
    fixtures_page.call("echo_text", {"markdown": MARKDOWN, "title": CORPUS, "icon": CORPUS})
    assert fixtures_page.kind() == ("text", "success")
    assert fixtures_page.texts(".codeagent-title") == [CORPUS]
    assert fixtures_page.result.locator(".codeagent-icon").get_attribute("data-icon") == CORPUS
    assert "<script>" in fixtures_page.result.locator(".codeagent-markdown").inner_text()
    assert_clean(fixtures_page)


def test_xss_table_form(fixtures_page):
    fixtures_page.call("echo_table", {"column": CORPUS, "first": PAYLOADS[0], "second": CORPUS, "title": CORPUS})
    assert fixtures_page.kind() == ("table", "success")
    assert fixtures_page.texts("th") == [CORPUS]
    assert fixtures_page.texts("td") == [PAYLOADS[0], CORPUS]
    assert fixtures_page.texts(".codeagent-title") == [CORPUS]
    assert_clean(fixtures_page)


def test_xss_code_form(fixtures_page):
    fixtures_page.call("echo_code", {"code": CORPUS, "lang": CORPUS, "filename": CORPUS, "output": CORPUS})
    assert fixtures_page.texts("pre code") == [CORPUS]
    assert fixtures_page.texts(".codeagent-lang") == [CORPUS]
    assert fixtures_page.texts(".codeagent-filename") == [CORPUS]
    assert fixtures_page.texts(".codeagent-output") == [CORPUS]
    assert_clean(fixtures_page)


def test_xss_diff_form(fixtures_page):
    fixtures_page.call("echo_diff", {"old": CORPUS, "new": CORPUS.replace("script", "SCRIPT"), "path": CORPUS})
    assert fixtures_page.kind() == ("diff", "success")
    assert fixtures_page.texts(".codeagent-filename") == [CORPUS]
    removed = [line[1:].rstrip("\n") for line in fixtures_page.texts(".codeagent-diff .del")]
    assert removed == [line for line in PAYLOADS if "script" in line]
    assert_clean(fixtures_page)


def test_xss_error_form(fixtures_page):
    fixtures_page.call("echo_error", {"message": CORPUS, "detail": CORPUS})
    assert fixtures_page.kind() == ("error", "error")
    assert fixtures_page.texts(".codeagent-error") == [CORPUS]
    assert fixtures_page.texts("pre") == [CORPUS]
    assert_clean(fixtures_page)


@pytest.mark.parametrize("mime", IMAGE_TYPES)
def test_xss_image_type_form(fixtures_page, mime):
    fixtures_page.call("echo_image", {"mime": mime, "data": SVG_WITH_SCRIPT, "output": CORPUS})
    assert fixtures_page.kind() == ("image", "success")
    assert fixtures_page.texts(".codeagent-note") == [f"[image of type {mime} not shown]"]
    assert fixtures_page.result.locator("img").count() == 0
    assert fixtures_page.texts(".codeagent-output") == [CORPUS]
    assert_clean(fixtures_page)


def test_image_form_shows_a_raster_image(fixtures_page):
    fixtures_page.call("echo_image", {"mime": "image/png", "data": "", "output": "one pixel"})
    assert fixtures_page.result.locator("img").evaluate("img => [img.complete, img.naturalWidth]") == [True, 1]
