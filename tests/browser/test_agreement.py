"""The display channel's card (`codeagent::display::render`, made in Rust by
tests/browser/fixtures.rs) and the browser renderer show the same things per
kind: both are rendered in one page from the same tool result, and their
kind, status, title, icon, visible text and per-part texts are compared.

Known, deliberate difference: the renderer pages tables past 50 rows where
the card cuts at 1000; no fixture here is that long. Both name the code's
language in a `.codeagent-lang` label, compared like every other part."""

import pytest

PARTS = [
    ".codeagent-title",
    ".codeagent-filename",
    ".codeagent-lang",
    ".codeagent-output",
    ".codeagent-error",
    ".codeagent-note",
    ".codeagent-diff .del",
    ".codeagent-diff .ins",
    ".codeagent-diff .eq",
    "th",
    "td",
    "h1, h2, h3, h4, h5, h6",
    "li",
    "blockquote",
    "strong",
    "em",
    "del",
    "pre",
]

COMPARE = """([card, result, parts]) => {
  const cardBox = document.createElement("div");
  cardBox.innerHTML = card;
  const domBox = document.createElement("div");
  document.body.append(cardBox, domBox);
  CodeagentRenderer.render(domBox, result);
  const dom = domBox.querySelector(".codeagent-card");
  const made = cardBox.querySelector(".codeagent-card");
  const clean = text => text.split("\\n").map(line => line.replace(/\\s+$/, "")).join("\\n").replace(/\\n{2,}/g, "\\n").trim();
  const describe = root => ({
    kind: root.getAttribute("data-kind"),
    status: root.getAttribute("data-status"),
    icon: root.querySelector(".codeagent-icon")?.getAttribute("data-icon") ?? null,
    text: clean(root.innerText),
    images: Array.from(root.querySelectorAll("img"), img => img.getAttribute("src")),
    links: Array.from(root.querySelectorAll("a[href^=http]"), a => [a.textContent, a.getAttribute("href")]),
    parts: Object.fromEntries(parts.map(sel => [sel, Array.from(root.querySelectorAll(sel), el => clean(el.textContent))])),
  });
  return { card: describe(made), dom: describe(dom) };
}"""


@pytest.fixture(scope="module")
def agreement_page(browser, app_document):
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_content(app_document)
    yield page, errors
    assert not errors, errors
    context.close()


def case_names():
    import json
    import os
    import pathlib

    path = os.environ.get("CODEAGENT_CARDS")
    return [case["name"] for case in json.loads(pathlib.Path(path).read_text())] if path else []


@pytest.mark.parametrize("name", case_names())
def test_card_and_renderer_agree(agreement_page, cards, name):
    page, _ = agreement_page
    case = next(case for case in cards if case["name"] == name)
    seen = page.evaluate(COMPARE, [case["card"], case["result"], PARTS])
    card, dom = seen["card"], seen["dom"]
    assert dom["kind"] == card["kind"] == ("text" if name == "fallback" else name)
    for key in ["status", "icon", "images", "links", "text"]:
        assert dom[key] == card[key], f"{name}: {key} differs"
    for part in PARTS:
        assert dom["parts"][part] == card["parts"][part], f"{name}: {part} differs"


def test_every_kind_is_compared(cards):
    assert sorted(case["name"] for case in cards) == sorted(["text", "table", "image", "code", "diff", "error", "fallback"])
