"""Real MCP hosts against the gallery: what each host hands its model as the tool result.

One test per host x transport. Each runs drive.DEFAULT_SCRIPT (every gallery tool, one call per
model turn) through the host with the scripted mock model, saves the mock's log as
$HOSTS_OUT/<host>-<transport>.json (default: a fresh temporary folder, printed) and prints a short
summary of each recorded tool result. The gallery's own results go to $HOSTS_OUT/gallery.json.

Each test asserts that the host ran to the end (bounded in time, nothing left behind), that the
model was offered the gallery's tools, and what reached the model for each call: the portable value
(a bounded Markdown table with "Showing 20 of 5000 rows.", never the table's JSON; `5` for `add`),
the image where the host passes images, the error flag where the host keeps it, and schemas with
JSON Schema's own formats only. Gemini's model sets `wait_for_previous`, the argument Gemini CLI adds
to every tool, on every call, as its system prompt asks: the calls must still succeed.

    bash tests/hosts/install.sh && cargo build --example gallery
    .venv/bin/python -m pytest tests/hosts -s          # HOSTS_OUT=dir to keep the logs there
"""

import json
import os
import re
import shutil
import tempfile

import pytest

import drive
import mock_model

HOSTS = ["claude", "codex", "gemini"]
TRANSPORTS = ["stdio", "http"]
TIMEOUT = float(os.environ.get("HOSTS_TIMEOUT", "240"))

pytestmark = [
    pytest.mark.skipif(not os.path.isdir(drive.BIN), reason="hosts not installed: run bash tests/hosts/install.sh"),
    pytest.mark.skipif(not os.path.exists(drive.GALLERY), reason="gallery not built: run cargo build --example gallery"),
]


@pytest.fixture(scope="session")
def out_dir():
    path = os.environ.get("HOSTS_OUT") or tempfile.mkdtemp(prefix="hosts-out-")
    os.makedirs(path, exist_ok=True)
    print(f"\nhost logs in {path}")
    try:
        with open(os.path.join(path, "gallery.json"), "w") as f:
            json.dump(drive.gallery_results(), f, indent=1)
    except Exception as e:  # informational only
        print(f"could not record the gallery's own results: {e}")
    return path


def summary(log):
    lines = [f"{log['host']['host']} over {log['host']['transport']}: exit {log['host']['exit_code']}, "
             f"{log['host']['seconds']} s, {len(log['requests'])} model requests"]
    for call in log["calls"]:
        raw = json.dumps(call["result"])
        lines.append(f"  {call['name']}: {len(raw)} bytes: {raw[:160]}{' ...' if len(raw) > 160 else ''}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# What the model got for one call, whatever the host's API: its text, its images, the error flag.


def seen(host, call):
    """(text, images, error) of the tool result the host handed its model for `call`.

    `error` is True or False where the host tells its model (Claude Code's `is_error`, Gemini
    CLI's `response.error`) and None where it does not (Codex drops the flag)."""
    part, siblings = call["result"], call.get("siblings") or []
    texts, images = [], []
    if host == "claude":
        content = part.get("content")
        for block in [{"type": "text", "text": content}] if isinstance(content, str) else content or []:
            if block.get("type") == "text":
                texts.append(block["text"])
            elif block.get("type") == "image":
                images.append(block["source"]["media_type"])
        error = bool(part.get("is_error"))
    elif host == "codex":
        output = part.get("output")
        for item in [{"type": "input_text", "text": output}] if isinstance(output, str) else output or []:
            if item.get("type") == "input_text":
                texts.append(item["text"])
            elif item.get("type") == "input_image":
                images.append(item["image_url"].split(";", 1)[0].removeprefix("data:"))
        error = None
    else:
        response = part["functionResponse"]["response"]
        texts.append(response.get("output") or response.get("error") or "")
        images = [sibling["inlineData"]["mimeType"] for sibling in siblings if "inlineData" in sibling]
        error = "error" in response
    return unframed("\n".join(texts)), images, error


def unframed(text):
    """`text` without what the hosts wrap around a result: Claude Code's reminders after it,
    Codex's "Wall time: ... Output:" before it, Gemini CLI's <untrusted_context> around it."""
    text = text.split("<system-reminder>")[0]
    text = re.sub(r"^Wall time: [0-9.]+ seconds\nOutput:\n?", "", text)
    text = re.sub(r"</?untrusted_context>", "", text)
    return text.strip()


def call_of(log, tool):
    found = [call for call in log["calls"] if call["tool"] == tool]
    assert found, f"no call of {tool}: {[call['tool'] for call in log['calls']]}"
    return found[0]


def formats(schema):
    """Every `format` keyword's value in a schema."""
    if isinstance(schema, dict):
        own = [schema["format"]] if isinstance(schema.get("format"), str) else []
        return own + [f for key, value in schema.items() if key not in ("enum", "const", "default") for f in formats(value)]
    if isinstance(schema, list):
        return [f for value in schema for f in formats(value)]
    return []


STANDARD_FORMATS = {"date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
                    "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template",
                    "json-pointer", "relative-json-pointer", "regex"}


def assert_model_saw_the_values(host, log):
    """What the model got is the value written for it, in every host."""
    text, _, error = seen(host, call_of(log, "add"))
    # Codex hands its model the structured content ({"result": 5}); the others the text.
    assert text in ("5", '{"result":5}') and error in (False, None), f"add: {text!r}"
    assert "Hello, Ada!" in seen(host, call_of(log, "greet"))[0]

    for tool, rows in [("sales_table", "6 rows."), ("sales_history", "Showing 20 of 5000 rows.")]:
        text, _, _ = seen(host, call_of(log, tool))
        assert "| region |" in text and rows in text, f"{tool}: the Markdown value, saying what it leaves out: {text[:300]!r}"
        assert '"rows"' not in text and '"columns"' not in text, f"{tool}: the table's JSON reached the model: {text[:300]!r}"
        assert len(text.encode()) < 4096, f"{tool}: {len(text.encode())} bytes reached the model"

    text, images, _ = seen(host, call_of(log, "revenue_chart"))
    assert images == ["image/png"], f"revenue_chart: the model got the PNG: {images}"
    assert "Revenue per region" in text, f"revenue_chart: and its text: {text!r}"

    text, _, error = seen(host, call_of(log, "divide"))
    assert "cannot divide by zero" in text, f"divide: {text!r}"
    assert error is not False, f"divide: {host} keeps the error flag, which must be set"

    text, _, _ = seen(host, call_of(log, "region_stats"))
    assert '"units":200' in text.replace(" ", ""), f"region_stats (Json<T>): its value: {text!r}"
    for tool, expected in [("show_code", "fn add"), ("show_diff", "+fn add"), ("count_with_progress", "Counted to 3."),
                           ("slow", "Waited 0.2 seconds."), ("region_report", "gallery://regions/south")]:
        text, _, _ = seen(host, call_of(log, tool))
        assert expected in text, f"{tool}: {text[:300]!r}"

    offered = json.dumps(log["tools"])
    assert "wait_for_previous" not in offered or host == "gemini", "only Gemini CLI adds wait_for_previous"
    odd = set(formats(log["tools"])) - STANDARD_FORMATS
    assert not odd, f"formats that are not JSON Schema's reached {host}: {odd}"


def script_for(host):
    """The scripted calls; Gemini's model sets `wait_for_previous` on each, as Gemini CLI asks it to."""
    if host != "gemini":
        return drive.DEFAULT_SCRIPT
    return [dict(entry, arguments=dict(entry.get("arguments", {}), wait_for_previous=True)) for entry in drive.DEFAULT_SCRIPT]


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("host", HOSTS)
def test_host(host, transport, out_dir):
    log = drive.run(host, transport, script=script_for(host), timeout=TIMEOUT)
    with open(os.path.join(out_dir, f"{host}-{transport}.json"), "w") as f:
        json.dump(log, f, indent=1)
    print("\n" + summary(log))
    run = log["host"]
    context = f"\nstderr:\n{run['stderr'][-3000:]}\nstdout:\n{run['stdout'][-2000:]}"

    assert not run["timed_out"], f"{host} timed out after {TIMEOUT} s{context}"
    assert run["left_after_cleanup"] == [], f"processes left behind: {run['left_after_cleanup']}"
    assert log.get("tools") is not None, f"{host} never offered the gallery tools to the model{context}"
    assert mock_model.match_tool("sales_table", log["tool_names"]), f"sales_table not among {log['tool_names']}"
    assert log["missing"] == [], f"gallery tools the model was not offered: {log['missing']}"
    planned = [entry["tool"] for entry in drive.DEFAULT_SCRIPT if not entry.get("optional")]
    made = [call["tool"] for call in log["calls"]]
    assert all(tool in made for tool in planned), f"calls made: {made}{context}"
    for call in log["calls"]:
        assert call["result"] is not None, f"no tool result reached the model for {call['name']}{context}"
    assert log["done"], f"the host did not come back after the last tool result{context}"
    assert run["exit_code"] == 0, f"{host} exited with {run['exit_code']}{context}"
    assert_model_saw_the_values(host, log)


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-s"]))
