#!/usr/bin/env python3
"""Interop test: drives the codeagent gallery MCP server (examples/gallery.rs) over stdio with the
real Python MCP client SDK (the `mcp` package pinned in requirements.txt), in both protocol eras:

* ``legacy``      the initialize handshake (the SDK offers 2025-11-25)
* ``2026-07-28``  the modern era, pinned (no server/discover; every request carries the _meta envelope)
* ``auto``        the SDK's default: probes server/discover, must settle on 2026-07-28

Each era runs the whole check list: the listing, every tool's content / structuredContent / isError
(a table's rows in the artifact in ``_meta``, never as structuredContent; a JSON-looking scalar text as
``{"result": ...}`` structuredContent in 2025-11-25 only), output-schema validation by the SDK, progress, logging, cancellation, a read timeout, invalid
arguments and an unknown tool. A tap between the SDK and the stdio transport records every JSON-RPC
message, so ordering and "no response for a cancelled request" are checked on the wire too.

Then each era answers the tools that ask (delete_region, summarize_sales) with the SDK's own
``elicitation_callback`` and ``sampling_callback`` (legacy: server-to-client requests; 2026-07-28: the
SDK fulfils ``input_required`` and retries), over stdio and over HTTP (one ``gallery --http
127.0.0.1:PORT`` shared by every era, so each era deletes a region of its own), and checks a client
that declares neither capability.

Usage: python test_gallery.py PATH/TO/gallery [ERA ...]     (default: all three eras)
Prints one line per check and, last, ``N passed, M failed``; exits 1 if any check failed.
Needs only the `mcp` package (and its dependencies).
"""

from __future__ import annotations

import base64
import importlib.metadata
import json
import os
import socket
import struct
import subprocess
import sys
import time
import traceback
import warnings
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, MCPError, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp.shared.message import SessionMessage
from mcp_types import Implementation, LoggingMessageNotificationParams, PromptReference, ResourceTemplateReference
from mcp_types.jsonrpc import jsonrpc_message_adapter

# logging/setLevel is deprecated for 2026 and warns even on a legacy connection, where it is the only way.
warnings.filterwarnings("ignore", category=MCPDeprecationWarning)

MODERN = "2026-07-28"
LEGACY_VERSION = "2025-11-25"  # the only handshake version this SDK offers
LOG_LEVEL_META_KEY = "io.modelcontextprotocol/logLevel"
REQUEST_TIMEOUT = 20.0  # seconds, for every request: the SDK's default is no timeout at all
ERA_TIMEOUT = 120.0  # seconds, for a whole era's check list

TOOL_NAMES = [
    "add",
    "greet",
    "sales_table",
    "sales_history",
    "revenue_chart",
    "show_code",
    "show_diff",
    "divide",
    "region_stats",
    "count_with_progress",
    "slow",
    "region_report",
    "delete_region",
    "summarize_sales",
    "sales_report",
]
REGIONS = ["north", "south", "east", "west"]
# name -> (title, description prefix, required, {property: JSON type}); a None type means "an enum of REGIONS"
LISTING: dict[str, tuple[str | None, str, list[str], dict[str, str | None]]] = {
    "add": (None, "Add two integers.", ["a", "b"], {"a": "integer", "b": "integer"}),
    "greet": ("Greeting", "Greet someone by name, as plain text.", ["name"], {"name": "string"}),
    "sales_table": ("Sales table", "List sales records as a table, optionally for one region.", [], {"region": None}),
    "sales_history": (
        "Sales history",
        "List the daily sales history as a large table (`rows` rows, made up).",
        ["rows"],
        {"rows": "integer"},
    ),
    "revenue_chart": ("Revenue chart", "Draw a bar chart of revenue per region as a PNG image.", [], {}),
    "show_code": (None, "Show a Rust function that adds two numbers.", [], {}),
    "show_diff": (None, "Show the change that renames a function.", [], {}),
    "divide": (
        None,
        "Divide two numbers; dividing by zero is a tool error the model can read.",
        ["numerator", "denominator"],
        {"numerator": "number", "denominator": "number"},
    ),
    "region_stats": ("Region statistics", "Structured statistics for one region.", ["region"], {"region": None}),
    "count_with_progress": (None, "Count to `steps`, reporting progress after each step.", ["steps"], {"steps": "integer"}),
    "slow": (None, "Wait for `seconds`, or until the client cancels.", ["seconds"], {"seconds": "number"}),
    "region_report": ("Region report", "A link to the resource holding one region's statistics", ["region"], {"region": None}),
    "delete_region": (
        "Delete a region's records",
        "Delete one region's sales records, after asking you to confirm.",
        ["region"],
        {"region": None},
    ),
    "summarize_sales": (
        "Summarise sales",
        "Summarise the sales table in one sentence, written by the client's model.",
        [],
        {"region": None},
    ),
    "sales_report": (
        "Sales report",
        "Build the sales report, region by region, over `seconds` seconds.",
        ["seconds"],
        {"seconds": "integer"},
    ),
}
ANNOTATIONS = {
    "add": {"readOnlyHint": True, "idempotentHint": True, "openWorldHint": False},
    "delete_region": {"destructiveHint": True, "idempotentHint": True, "openWorldHint": False},
    "summarize_sales": {"readOnlyHint": True},
    "sales_report": {"readOnlyHint": True},
}
# Tables list no outputSchema: their rows travel in the artifact in _meta, not as structuredContent.
WITH_OUTPUT_SCHEMA = {"region_stats"}
ARTIFACT_KEY = "dev.codeagent/artifact"
INSTRUCTIONS = "Example tools, one per kind of output: text, table, image, code, diff, error, JSON."
TABLE_HEADER = "| region | product | units | revenue |\n| --- | --- | --- | --- |\n"
TABLE_COLUMNS = [
    {"name": "region", "type": "string"},
    {"name": "product", "type": "string"},
    {"name": "units", "type": "integer"},
    {"name": "revenue", "type": "number"},
]
NORTH_ROWS = [["north", "kettle", 120, 3600.0], ["north", "toaster", 80, 2000.0]]
HISTORY_HEADER = "| day | region | units | revenue |\n| --- | --- | --- | --- |\n"
HISTORY_COLUMNS = [
    {"name": "day", "type": "integer"},
    {"name": "region", "type": "string"},
    {"name": "units", "type": "integer"},
    {"name": "revenue", "type": "number"},
]
# Keywords whose values are data, not schemas: a `format` inside them is no schema's format.
SCHEMA_DATA_KEYWORDS = {"enum", "const", "default", "examples"}
CODE_FENCE = "```rust\nfn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n```"


# --------------------------------------------------------------------------------------------------
# Results


class Results:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0
        self.failures: list[str] = []
        self.prefix = ""

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        label = f"{self.prefix}{name}"
        if ok:
            self.passed += 1
            print(f"ok   {label}", flush=True)
        else:
            self.failed += 1
            self.failures.append(label)
            print(f"FAIL {label}{': ' + detail if detail else ''}", flush=True)
        return ok

    def eq(self, name: str, actual: Any, expected: Any) -> bool:
        return self.check(name, actual == expected, f"expected {expected!r}, got {actual!r}")

    def contains(self, name: str, text: Any, needle: str) -> bool:
        return self.check(name, isinstance(text, str) and needle in text, f"{needle!r} not in {text!r}")

    async def group(self, name: str, body: Callable[[], Awaitable[None]]) -> None:
        """Runs a group of checks; an exception in it is one failed check, and the next group still runs."""
        try:
            await body()
        except Exception as error:  # noqa: BLE001 - any escape is a failure to report
            self.check(f"{name}: completes without raising", False, f"{type(error).__name__}: {error}")
            traceback.print_exc()


R = Results()


# --------------------------------------------------------------------------------------------------
# The wire tap: a transport that wraps stdio_client and records every message in both directions


class Wire:
    def __init__(self) -> None:
        self.log: list[tuple[str, dict[str, Any]]] = []  # ("out" | "in", message as JSON)

    def record(self, direction: str, message: Any) -> None:
        as_json = jsonrpc_message_adapter.dump_python(message, mode="json", by_alias=True, exclude_none=True)
        self.log.append((direction, as_json))

    def mark(self) -> int:
        return len(self.log)

    def sent(self, since: int = 0) -> list[dict[str, Any]]:
        return [m for d, m in self.log[since:] if d == "out"]

    def received(self, since: int = 0) -> list[dict[str, Any]]:
        return [m for d, m in self.log[since:] if d == "in"]

    def request_id(self, method: str, since: int = 0, name: str | None = None) -> Any:
        """The id of the last request `method` (for tools/call: of tool `name`) sent since `since`."""
        for message in reversed(self.sent(since)):
            if message.get("method") == method and "id" in message:
                if name is None or (message.get("params") or {}).get("name") == name:
                    return message["id"]
        return None

    def response_position(self, request_id: Any) -> int | None:
        """Where in the log the response (result or error) to `request_id` is, if it came."""
        for position, (direction, message) in enumerate(self.log):
            if direction == "in" and "method" not in message and message.get("id") == request_id:
                return position
        return None

    def response(self, request_id: Any) -> dict[str, Any] | None:
        position = self.response_position(request_id)
        return None if position is None else self.log[position][1]


class TappedRead:
    """The SDK's read stream, recording each message as the SDK takes it (so the log is in dispatch order)."""

    def __init__(self, inner: Any, wire: Wire) -> None:
        self.inner, self.wire = inner, wire

    async def receive(self) -> Any:
        item = await self.inner.receive()
        if isinstance(item, SessionMessage):
            self.wire.record("in", item.message)
        return item

    def __aiter__(self) -> TappedRead:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self.inner.aclose()

    async def __aenter__(self) -> TappedRead:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class TappedWrite:
    """The SDK's write stream, recording each message before it is written."""

    def __init__(self, inner: Any, wire: Wire) -> None:
        self.inner, self.wire = inner, wire

    async def send(self, item: SessionMessage) -> None:
        self.wire.record("out", item.message)
        await self.inner.send(item)

    async def aclose(self) -> None:
        await self.inner.aclose()

    async def __aenter__(self) -> TappedWrite:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


@asynccontextmanager
async def tapped_stdio(params: StdioServerParameters, wire: Wire) -> AsyncIterator[Any]:
    """stdio_client, with both of its streams tapped."""
    async with stdio_client(params) as (read, write):
        yield TappedRead(read, wire), TappedWrite(write, wire)


# --------------------------------------------------------------------------------------------------
# Helpers


def text_blocks(result: Any) -> list[str]:
    return [block.text for block in result.content if block.type == "text"]


def only_text(result: Any) -> str | None:
    texts = text_blocks(result)
    return texts[0] if len(result.content) == 1 and len(texts) == 1 else None


def artifact_of(result: Any) -> dict[str, Any]:
    """The codeagent artifact the result carries in `_meta`."""
    found = (result.meta or {}).get(ARTIFACT_KEY)
    return found if isinstance(found, dict) else {}


def table_df(result: Any) -> dict[str, Any] | None:
    """A table result's data, `{"columns": [...], "rows": [...]}`: in the artifact's payload, its only copy."""
    return (artifact_of(result).get("payload") or {}).get("df")


def table_rows(result: Any) -> list[Any]:
    return (table_df(result) or {}).get("rows", [])


def json_text_structured(value: Any, modern: bool) -> tuple[str, Any]:
    """What a tool without an outputSchema whose text is JSON other than an object (`5`, `0.25`) brings as
    structuredContent: `{"result": value}` in 2025-11-25 (its structuredContent is an object), nothing in 2026-07-28."""
    if modern:
        return "no structuredContent (2026-07-28)", None
    return f"structuredContent {{'result': {value!r}}} (2025-11-25)", {"result": value}


def formats_in(node: Any) -> list[str]:
    """Every `format` a schema (and the schemas inside it) names."""
    found: list[str] = []
    if isinstance(node, dict):
        if isinstance(node.get("format"), str):
            found.append(node["format"])
        for key, value in node.items():
            if key not in SCHEMA_DATA_KEYWORDS:
                found += formats_in(value)
    elif isinstance(node, list):
        for value in node:
            found += formats_in(value)
    return found


def resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """Follows a local `$ref` (`#/$defs/...`) inside `schema`."""
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = schema
        for part in ref[2:].split("/"):
            target = target[part]
        return {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def enum_of(schema: dict[str, Any], node: dict[str, Any]) -> list[Any] | None:
    """The enum a property accepts, looking through `$ref` and the branches of `anyOf`/`oneOf`."""
    node = resolve(schema, node)
    if "enum" in node:
        return node["enum"]
    for key in ("anyOf", "oneOf"):
        for branch in node.get(key, []):
            found = enum_of(schema, branch)
            if found is not None:
                return found
    return None


def check_png(data: bytes) -> tuple[bool, str]:
    """A structurally valid 160x100 PNG: signature, IHDR first, every CRC, IDAT inflating to the right size, IEND last."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return False, f"bad signature {data[:8]!r}"
    position, chunks, idat = 8, [], b""
    ihdr: tuple[int, ...] = ()
    while position + 12 <= len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        (crc,) = struct.unpack(">I", data[position + 8 + length : position + 12 + length])
        if zlib.crc32(kind + body) != crc:
            return False, f"bad CRC in chunk {kind!r}"
        chunks.append(kind)
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    if not chunks or chunks[0] != b"IHDR" or chunks[-1] != b"IEND" or position != len(data):
        return False, f"bad chunk layout {chunks}"
    width, height, depth, color, _, _, interlace = ihdr
    if (width, height) != (160, 100):
        return False, f"IHDR says {width}x{height}, expected 160x100"
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(color)
    if channels is None or depth != 8 or interlace != 0:
        return False, f"unexpected IHDR depth={depth} color={color} interlace={interlace}"
    try:
        pixels = zlib.decompress(idat)
    except zlib.error as error:
        return False, f"IDAT does not inflate: {error}"
    expected = height * (1 + width * channels)
    if len(pixels) != expected:
        return False, f"IDAT inflates to {len(pixels)} bytes, expected {expected}"
    return True, ""


# --------------------------------------------------------------------------------------------------
# The check list, run once per era


async def run_era(binary: str, mode: str) -> None:
    modern = mode != "legacy"
    R.prefix = f"[{mode}] "
    wire = Wire()
    logs: list[LoggingMessageNotificationParams] = []

    async def on_log(params: LoggingMessageNotificationParams) -> None:
        logs.append(params)

    params = StdioServerParameters(command=binary, args=[], env=dict(os.environ))  # keep RUST_LOG, coverage vars, ...
    client = Client(
        tapped_stdio(params, wire),
        mode=mode,
        read_timeout_seconds=REQUEST_TIMEOUT,
        logging_callback=on_log,
        log_level="debug" if modern else None,  # the modern era's per-request log opt-in
        cache=None,  # never serve tools/list from the ttlMs cache: every list goes to the server
        client_info=Implementation(name="codeagent-interop-python", version="1.0.0"),
    )
    async with client as c:
        await R.group("connect", lambda: connect_checks(c, mode, wire))
        await R.group("listing", lambda: listing_checks(c, modern, wire))
        await R.group("tools", lambda: tool_checks(c, modern))
        await R.group("output schema", lambda: output_schema_checks(c))
        await R.group("progress and logging", lambda: progress_checks(c, modern, wire, logs))
        await R.group("cancellation", lambda: cancellation_checks(c, wire))
        await R.group("timeout", lambda: timeout_checks(c, wire))
        await R.group("invalid arguments", lambda: invalid_argument_checks(c))
        await R.group("unknown tool", lambda: unknown_tool_checks(c))
        await R.group("wire", lambda: wire_checks(modern, wire))
        await R.group("resources and prompts", lambda: resource_and_prompt_checks(c, mode))


async def connect_checks(c: Client, mode: str, wire: Wire) -> None:
    modern = mode != "legacy"
    R.eq("negotiated protocol version", c.protocol_version, MODERN if modern else LEGACY_VERSION)
    methods = [m.get("method") for m in wire.sent() if "method" in m]
    if mode == "legacy":
        R.eq("handshake: initialize, then notifications/initialized", methods[:2], ["initialize", "notifications/initialized"])
        R.check("no server/discover in the legacy era", "server/discover" not in methods, str(methods))
    elif mode == "auto":
        R.eq("auto mode probes server/discover first", methods[:1], ["server/discover"])
        R.check("auto mode settles without initialize", "initialize" not in methods, str(methods))
        discover_id = wire.request_id("server/discover")
        answer = (wire.response(discover_id) or {}).get("result", {})
        R.check(
            "server/discover offers 2026-07-28 and the handshake versions",
            MODERN in answer.get("supportedVersions", []) and LEGACY_VERSION in answer.get("supportedVersions", []),
            json.dumps(answer),
        )
        R.check(
            "server/discover result is cacheable (resultType, ttlMs, cacheScope)",
            answer.get("resultType") == "complete"
            and isinstance(answer.get("ttlMs"), int)
            and answer.get("cacheScope") in ("public", "private"),
            json.dumps(answer),
        )
    else:
        R.check("pinned mode sends neither initialize nor server/discover", not {"initialize", "server/discover"} & set(methods), str(methods))
    if mode != MODERN:  # a pinned client never hears from the server before its first call
        info = c.server_info
        R.check(
            "server info: name codeagent-gallery, title 'codeagent gallery', a version",
            info is not None and info.name == "codeagent-gallery" and info.title == "codeagent gallery" and bool(info.version),
            repr(info),
        )
        caps = c.server_capabilities
        R.check("capabilities: tools and logging", caps.tools is not None and caps.logging is not None, repr(caps))
        R.eq("instructions", c.instructions, INSTRUCTIONS)


async def listing_checks(c: Client, modern: bool, wire: Wire) -> None:
    tools, cursor, pages = [], None, 0
    while True:
        page = await c.list_tools(cursor=cursor)
        tools += page.tools
        pages += 1
        cursor = page.next_cursor
        if not cursor or pages > 20:
            break
    listing = {t.name: t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools}
    R.eq("tools/list names, in order", [t.name for t in tools], TOOL_NAMES)
    for name, (title, description, required, properties) in LISTING.items():
        tool = listing.get(name)
        if not R.check(f"{name}: listed", tool is not None):
            continue
        R.eq(f"{name}: title", tool.get("title"), title)
        R.check(f"{name}: description", str(tool.get("description", "")).startswith(description), repr(tool.get("description")))
        schema = tool.get("inputSchema", {})
        R.eq(f"{name}: inputSchema type", schema.get("type"), "object")
        R.eq(f"{name}: inputSchema required", sorted(schema.get("required", [])), sorted(required))
        R.eq(f"{name}: inputSchema properties", sorted(schema.get("properties", {})), sorted(properties))
        for prop, kind in properties.items():
            node = schema.get("properties", {}).get(prop, {})
            if kind is None:
                R.eq(f"{name}: `{prop}` is an enum of the regions", enum_of(schema, node), REGIONS)
            else:
                R.eq(f"{name}: `{prop}` type", resolve(schema, node).get("type"), kind)
            R.check(f"{name}: `{prop}` has a description", bool(node.get("description")), json.dumps(node))
        wanted = name in WITH_OUTPUT_SCHEMA
        R.eq(f"{name}: outputSchema {'present' if wanted else 'absent'}", "outputSchema" in tool, wanted)
    for name, annotations in ANNOTATIONS.items():
        R.eq(f"{name}: annotations", listing.get(name, {}).get("annotations"), annotations)
    steps = listing.get("count_with_progress", {}).get("inputSchema", {}).get("properties", {}).get("steps", {})
    R.eq("count_with_progress: steps range 1..100", (steps.get("minimum"), steps.get("maximum")), (1, 100))
    stats = listing.get("region_stats", {}).get("outputSchema", {})
    R.eq("region_stats: outputSchema required", sorted(stats.get("required", [])), ["region", "revenue", "units"])
    R.eq("region_stats: outputSchema region enum", enum_of(stats, stats.get("properties", {}).get("region", {})), REGIONS)
    rows = listing.get("sales_history", {}).get("inputSchema", {}).get("properties", {}).get("rows", {})
    R.eq("sales_history: rows range 1..100000", (rows.get("minimum"), rows.get("maximum")), (1, 100000))
    # Only JSON Schema's own formats are listed, and the gallery uses none: schemars' int64, uint32, double, ... are
    # gone, a narrow integer's format became bounds.
    R.eq(
        "no listed schema names a format (schemars' int64, uint32, double, ... are gone)",
        {name: formats_in(tool) for name, tool in listing.items() if formats_in(tool)},
        {},
    )
    units = stats.get("properties", {}).get("units", {})
    R.eq(
        "region_stats: outputSchema units (u32) is bounded 0..4294967295 instead of format uint32",
        (units.get("type"), units.get("minimum"), units.get("maximum"), "format" in units),
        ("integer", 0, 4294967295, False),
    )
    addends = listing.get("add", {}).get("inputSchema", {}).get("properties", {})
    R.eq(
        "add: a and b (i64) are plain integers: no format int64, no bounds",
        {prop: sorted(node) for prop, node in addends.items()},
        {"a": ["description", "type"], "b": ["description", "type"]},
    )

    list_id = wire.request_id("tools/list")
    answer = (wire.response(list_id) or {}).get("result", {})
    era_fields = {key: answer.get(key) for key in ("resultType", "ttlMs", "cacheScope") if key in answer}
    if modern:
        R.check(
            "tools/list carries resultType, ttlMs and cacheScope (2026-07-28)",
            era_fields.get("resultType") == "complete"
            and isinstance(era_fields.get("ttlMs"), int)
            and era_fields.get("cacheScope") in ("public", "private"),
            repr(era_fields),
        )
    else:
        R.eq("tools/list carries no 2026-only fields in the legacy era", era_fields, {})


async def tool_checks(c: Client, modern: bool) -> None:
    r = await c.call_tool("add", {"a": 2, "b": 3})
    R.eq("add(2, 3): text", only_text(r), "5")
    what, structured = json_text_structured(5, modern)
    R.eq(f"add(2, 3): isError false, {what}", (r.is_error, r.structured_content), (False, structured))

    r = await c.call_tool("greet", {"name": "Ada"})
    R.eq("greet: text", only_text(r), "Hello, Ada!")
    R.eq("greet: isError false, no structuredContent", (r.is_error, r.structured_content), (False, None))
    R.check("greet: the codeagent artifact rides in _meta", "dev.codeagent/artifact" in (r.meta or {}), repr(r.meta))

    r = await c.call_tool("sales_table", {"region": "north"})
    text = only_text(r)
    R.check(
        "sales_table(north): a Markdown table",
        isinstance(text, str)
        and text.startswith(TABLE_HEADER + "| north | kettle | 120 | 3600.0 |\n| north | toaster | 80 | 2000.0 |\n"),
        repr(text),
    )
    R.contains("sales_table(north): row count", text, "2 rows")
    R.eq("sales_table(north): no structuredContent (the rows travel in the artifact)", r.structured_content, None)
    R.eq("sales_table(north): the artifact in _meta is a table", artifact_of(r).get("kind"), "table")
    R.eq("sales_table(north): the artifact's df", table_df(r), {"columns": TABLE_COLUMNS, "rows": NORTH_ROWS})
    R.eq("sales_table(north): isError false", r.is_error, False)
    r = await c.call_tool("sales_table", {})
    rows = table_rows(r)
    R.eq("sales_table(): all six rows in the artifact", [row[0] for row in rows], ["north", "north", "south", "east", "west", "west"])
    R.eq("sales_table(): the artifact's columns", (table_df(r) or {}).get("columns"), TABLE_COLUMNS)
    R.eq("sales_table(): no structuredContent", r.structured_content, None)
    R.check("sales_table(): Markdown table of six rows", str(only_text(r)).startswith(TABLE_HEADER) and "6 rows" in str(only_text(r)), repr(only_text(r)))

    r = await c.call_tool("sales_history", {"rows": 1000})
    text = only_text(r)
    R.check(
        "sales_history(1000): a Markdown table of the first 20 rows",
        isinstance(text, str)
        and text.startswith(HISTORY_HEADER + "| 1 | north | 40 | 1020.0 |\n")
        and len([line for line in text.splitlines() if line.startswith("| ")]) == 2 + 20,
        repr(text),
    )
    R.check("sales_history(1000): says how many rows there are", str(text).endswith("Showing 20 of 1000 rows."), repr(text))
    R.eq("sales_history(1000): no structuredContent", r.structured_content, None)
    R.eq("sales_history(1000): the artifact's columns", (table_df(r) or {}).get("columns"), HISTORY_COLUMNS)
    rows = table_rows(r)
    R.eq(
        "sales_history(1000): every row in the artifact, first and last",
        (len(rows), rows[:1], rows[-1:]),
        (1000, [[1, "north", 40, 1020.0]], [[250, "west", 43, 1096.5]]),
    )
    R.eq("sales_history(1000): isError false", r.is_error, False)

    r = await c.call_tool("revenue_chart", {})
    kinds = [block.type for block in r.content]
    R.eq("revenue_chart: an image block then a text block", kinds, ["image", "text"])
    if kinds == ["image", "text"]:
        image, caption = r.content
        R.eq("revenue_chart: mimeType", image.mime_type, "image/png")
        try:
            png = base64.b64decode(image.data, validate=True)
            ok, why = check_png(png)
        except ValueError as error:
            ok, why = False, f"not base64: {error}"
        R.check("revenue_chart: a valid 160x100 PNG", ok, why)
        R.contains("revenue_chart: caption", caption.text, "Revenue per region: north, south, east, west (left to right).")
        R.contains("revenue_chart: text describes the image", caption.text, "160×100")
    R.eq("revenue_chart: isError false, no structuredContent", (r.is_error, r.structured_content), (False, None))

    r = await c.call_tool("show_code", {})
    text = only_text(r)
    R.contains("show_code: names the file", text, "src/add.rs")
    R.contains("show_code: fenced Rust code", text, CODE_FENCE)
    R.contains("show_code: output", text, "add(2, 3) == 5")
    R.eq("show_code: isError false", r.is_error, False)

    r = await c.call_tool("show_diff", {})
    text = only_text(r)
    R.check("show_diff: unified diff header", str(text).startswith("--- a/src/add.rs\n+++ b/src/add.rs\n"), repr(text))
    R.contains("show_diff: hunk", text, "@@ -1,3 +1,3 @@")
    R.contains("show_diff: removed line", text, "\n-fn sum(a: i64, b: i64) -> i64 {\n")
    R.contains("show_diff: added line", text, "\n+fn add(a: i64, b: i64) -> i64 {\n")
    R.eq("show_diff: isError false", r.is_error, False)

    r = await c.call_tool("divide", {"numerator": 1, "denominator": 4})
    R.eq("divide(1, 4): text", only_text(r), "0.25")
    R.eq("divide(1, 4): isError false", r.is_error, False)
    what, structured = json_text_structured(0.25, modern)
    R.eq(f"divide(1, 4): {what}", r.structured_content, structured)
    r = await c.call_tool("divide", {"numerator": 1, "denominator": 0})
    R.eq("divide(1, 0): isError true", r.is_error, True)
    R.contains("divide(1, 0): message", only_text(r), "cannot divide by zero")
    R.contains("divide(1, 0): detail", only_text(r), "pass a non-zero `denominator`")
    R.eq("divide(1, 0): no structuredContent", r.structured_content, None)

    r = await c.call_tool("region_stats", {"region": "west"})
    expected = {"region": "west", "units": 210, "revenue": 5550.0}
    R.eq("region_stats(west): structuredContent", r.structured_content, expected)
    try:
        as_json = json.loads(only_text(r) or "")
    except ValueError:
        as_json = None
    R.eq("region_stats(west): text is the same JSON", as_json, expected)
    R.eq("region_stats(west): isError false", r.is_error, False)

    r = await c.call_tool("slow", {"seconds": 0.05})
    R.eq("slow(0.05): text", only_text(r), "Waited 0.05 seconds.")


async def output_schema_checks(c: Client) -> None:
    # Client.call_tool already validated these (RuntimeError otherwise); make that visible and prove it is live.
    r = await c.call_tool("region_stats", {"region": "north"})
    R.eq("region_stats(north): structuredContent", r.structured_content, {"region": "north", "units": 200, "revenue": 5600.0})
    try:
        await c.session.validate_tool_result("region_stats", r)
        R.check("region_stats: the SDK's outputSchema validation passes", True)
    except RuntimeError as error:
        R.check("region_stats: the SDK's outputSchema validation passes", False, str(error))
    for name, broken in [
        ("a missing field", {"region": "north", "units": 200}),
        ("a region outside the enum", {"region": "middle", "units": 200, "revenue": 5600.0}),
    ]:
        tampered = r.model_copy(update={"structured_content": broken})
        try:
            await c.session.validate_tool_result("region_stats", tampered)
            R.check(f"region_stats: the SDK rejects {name} (validation is live)", False, "no error")
        except RuntimeError as error:
            R.contains(f"region_stats: the SDK rejects {name} (validation is live)", str(error), "Invalid structured content")
    # A table lists no outputSchema, so the SDK wants no structuredContent (it refuses a result without one otherwise).
    r = await c.call_tool("sales_table", {"region": "west"})
    R.eq("sales_table(west): no structuredContent, two rows in the artifact", (r.structured_content, len(table_rows(r))), (None, 2))
    try:
        await c.session.validate_tool_result("sales_table", r)
        R.check("sales_table: the SDK's validation passes without structuredContent (no outputSchema)", True)
    except RuntimeError as error:
        R.check("sales_table: the SDK's validation passes without structuredContent (no outputSchema)", False, str(error))


async def progress_checks(c: Client, modern: bool, wire: Wire, logs: list[LoggingMessageNotificationParams]) -> None:
    if not modern:
        await c.set_logging_level("debug")  # logging/setLevel: the legacy opt-in
    calls: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        calls.append((progress, total, message))

    mark, logged = wire.mark(), len(logs)
    r = await c.call_tool("count_with_progress", {"steps": 5}, progress_callback=on_progress)
    seen_at_result = list(calls)
    R.eq("count_with_progress(5): text", only_text(r), "Counted to 5.")
    R.eq("count_with_progress(5): 5 progress callbacks before the result", len(seen_at_result), 5)
    progress = [p for p, _, _ in seen_at_result]
    R.check(
        "count_with_progress(5): progress strictly increasing 1..5",
        progress == [1.0, 2.0, 3.0, 4.0, 5.0] and all(a < b for a, b in zip(progress, progress[1:])),
        repr(progress),
    )
    R.eq("count_with_progress(5): total 5 on every callback", [t for _, t, _ in seen_at_result], [5.0] * 5)
    R.eq("count_with_progress(5): messages", [m for _, _, m in seen_at_result], [f"step {i} of 5" for i in range(1, 6)])

    call_id = wire.request_id("tools/call", mark, "count_with_progress")
    sent = next((m for m in wire.sent(mark) if m.get("id") == call_id), {})
    token = ((sent.get("params") or {}).get("_meta") or {}).get("progressToken")
    R.check("the request carried a progressToken", token is not None, json.dumps(sent))
    answered = wire.response_position(call_id)
    notes = [
        (position, m)
        for position, (d, m) in enumerate(wire.log)
        if position >= mark and d == "in" and m.get("method") == "notifications/progress"
    ]
    R.check(
        "wire: 5 progress notifications with the request's token, all before the response",
        answered is not None
        and len(notes) == 5
        and all(m["params"].get("progressToken") == token and position < answered for position, m in notes),
        json.dumps([m for _, m in notes]),
    )
    log_notes = [
        (position, m)
        for position, (d, m) in enumerate(wire.log)
        if position >= mark and d == "in" and m.get("method") == "notifications/message"
    ]
    R.check(
        "wire: the log message arrives before the response",
        answered is not None and len(log_notes) == 1 and log_notes[0][0] < answered,
        json.dumps([m for _, m in log_notes]),
    )
    with anyio.move_on_after(2):
        while not any(p.data == "counted to 5" for p in logs[logged:]):
            await anyio.sleep(0.01)
    got = [p for p in logs[logged:] if p.data == "counted to 5"]
    R.check(
        f"logging callback receives 'counted to 5' ({'_meta logLevel' if modern else 'logging/setLevel debug'})",
        len(got) == 1 and got[0].level == "info",
        repr(logs[logged:]),
    )

    # Above the message's level nothing is sent: legacy raises the session level, modern the request's.
    mark, logged = wire.mark(), len(logs)
    if modern:
        r = await c.call_tool("count_with_progress", {"steps": 1}, meta={LOG_LEVEL_META_KEY: "warning"})
    else:
        await c.set_logging_level("warning")
        r = await c.call_tool("count_with_progress", {"steps": 1})
    await anyio.sleep(0.1)
    R.eq("count_with_progress(1): text", only_text(r), "Counted to 1.")
    R.check(
        "no info log at level warning",
        not [m for m in wire.received(mark) if m.get("method") == "notifications/message"] and len(logs) == logged,
        repr(logs[logged:]),
    )
    R.check(
        "no progress notifications without a progressToken",
        not [m for m in wire.received(mark) if m.get("method") == "notifications/progress"],
        json.dumps(wire.received(mark)),
    )
    if not modern:
        await c.set_logging_level("debug")


async def cancellation_checks(c: Client, wire: Wire) -> None:
    mark = wire.mark()
    started = time.monotonic()
    with anyio.move_on_after(0.3) as scope:
        await c.call_tool("slow", {"seconds": 30})
    elapsed = time.monotonic() - started
    R.check("slow(30) cancelled after 0.3 s", scope.cancelled_caught, "the call finished")
    R.check("the cancelled call returns promptly", elapsed < 3.0, f"{elapsed:.2f} s")
    slow_id = wire.request_id("tools/call", mark, "slow")
    cancels = [m for m in wire.sent(mark) if m.get("method") == "notifications/cancelled"]
    R.check(
        "notifications/cancelled names the request",
        slow_id is not None and [m["params"].get("requestId") for m in cancels] == [slow_id],
        json.dumps(cancels),
    )
    r = await c.call_tool("add", {"a": 40, "b": 2})
    R.eq("a follow-up call succeeds", only_text(r), "42")
    await anyio.sleep(0.3)
    R.eq("the server sent no response for the cancelled request", wire.response(slow_id), None)
    # A cancelled call the server would have finished soon: its answer must never come.
    mark = wire.mark()
    with anyio.move_on_after(0.2):
        await c.call_tool("slow", {"seconds": 1.5})
    short_id = wire.request_id("tools/call", mark, "slow")
    await anyio.sleep(2.0)
    R.check(
        "slow(1.5) cancelled after 0.2 s: no response even after it would have finished",
        short_id is not None and wire.response(short_id) is None,
        json.dumps(wire.response(short_id)),
    )
    # Two cancelled in a row, then one that completes: the connection keeps serving.
    for seconds in (20, 25):
        with anyio.move_on_after(0.1):
            await c.call_tool("slow", {"seconds": seconds})
    r = await c.call_tool("slow", {"seconds": 0.01})
    R.eq("after more cancellations, slow(0.01) completes", only_text(r), "Waited 0.01 seconds.")


async def timeout_checks(c: Client, wire: Wire) -> None:
    mark = wire.mark()
    started = time.monotonic()
    try:
        await c.call_tool("slow", {"seconds": 30}, read_timeout_seconds=0.3)
        R.check("slow(30) with a 0.3 s read timeout raises", False, "it returned")
    except MCPError as error:
        R.eq("slow(30) with a 0.3 s read timeout: MCPError -32001", error.code, -32001)
    R.check("the timed-out call returns promptly", time.monotonic() - started < 3.0)
    slow_id = wire.request_id("tools/call", mark, "slow")
    cancels = [m for m in wire.sent(mark) if m.get("method") == "notifications/cancelled"]
    R.check(
        "the SDK cancelled the timed-out request",
        [m["params"].get("requestId") for m in cancels] == [slow_id],
        json.dumps(cancels),
    )
    r = await c.call_tool("greet", {"name": "again"})
    R.eq("a call after the timeout succeeds", only_text(r), "Hello, again!")
    await anyio.sleep(0.2)
    R.eq("the server sent no response for the timed-out request", wire.response(slow_id), None)


async def invalid_argument_checks(c: Client) -> None:
    cases = [
        ("add with b = \"x\"", "add", {"a": 1, "b": "x"}, ["`b`", "invalid type"]),
        ("add without b", "add", {"a": 1}, ["missing field `b`"]),
        ("sales_table with an unknown region", "sales_table", {"region": "middle"}, ["`region`", "middle"]),
        ("count_with_progress below the minimum", "count_with_progress", {"steps": 0}, ["`steps`", "minimum"]),
        ("sales_history above the maximum", "sales_history", {"rows": 100001}, ["`rows`", "maximum"]),
    ]
    for label, name, arguments, needles in cases:
        r = await c.call_tool(name, arguments)
        R.eq(f"{label}: isError true", r.is_error, True)
        text = only_text(r)
        for needle in needles:
            R.contains(f"{label}: message names {needle}", text, needle)
        R.contains(f"{label}: message names the tool", text, f"tool {name}")
    # Undeclared arguments (a misspelt one, or one a host adds, as Gemini CLI's wait_for_previous) are dropped, not refused.
    r = await c.call_tool("add", {"a": 1, "b": 2, "c": 3, "wait_for_previous": True})
    R.eq("add with undeclared arguments (c, wait_for_previous): dropped, the call succeeds", (r.is_error, only_text(r)), (False, "3"))
    r = await c.call_tool("add", {"a": 2, "b": 2})
    R.eq("after invalid arguments, add(2, 2) works", only_text(r), "4")


async def unknown_tool_checks(c: Client) -> None:
    try:
        r = await c.call_tool("nope", {})
        R.check("unknown tool raises MCPError", False, f"got a result: {r!r}")
    except MCPError as error:
        R.eq("unknown tool: MCPError code -32602", error.code, -32602)
        R.eq("unknown tool: message", error.message, "Unknown tool: nope")
    r = await c.call_tool("add", {"a": 1, "b": 1})
    R.eq("after an unknown tool, add(1, 1) works", only_text(r), "2")


async def resource_and_prompt_checks(c: Client, mode: str) -> None:
    caps = c.server_capabilities
    if mode != MODERN:  # pinned 2026-07-28 has neither initialize nor server/discover to learn them from
        R.check("capabilities: resources, prompts, completions", bool(caps and caps.resources and caps.prompts and caps.completions), str(caps))
    listed = await c.list_resources()
    R.eq("resources/list uris", [r.uri for r in listed.resources], ["gallery://readme", "gallery://charts/revenue.png"])
    templates = await c.list_resource_templates()
    R.eq("resources/templates/list", [t.uri_template for t in templates.resource_templates], ["gallery://regions/{region}"])

    # The tool links to a resource this server serves; the link resolves.
    r = await c.call_tool("region_report", {"region": "west"})
    links = [block for block in r.content if getattr(block, "type", None) == "resource_link"]
    R.eq("region_report(west): one resource_link", [str(link.uri) for link in links], ["gallery://regions/west"])
    if links:
        read = await c.read_resource(str(links[0].uri))
        contents = read.contents[0] if read.contents else None
        R.eq("the linked resource: its uri", str(getattr(contents, "uri", "")), "gallery://regions/west")
        R.eq("the linked resource: mimeType", getattr(contents, "mime_type", None), "application/json")
        try:
            stats = json.loads(getattr(contents, "text", "") or "")
        except ValueError:
            stats = None
        R.eq("the linked resource: the region's statistics", stats, {"region": "west", "units": 210, "revenue": 5550.0})

    read = await c.read_resource("gallery://charts/revenue.png")
    blob = getattr(read.contents[0], "blob", None) if read.contents else None
    ok, why = check_png(base64.b64decode(blob or ""))
    R.check("the chart resource is a PNG", ok, why)
    read = await c.read_resource("gallery://readme")
    R.contains("the readme resource", getattr(read.contents[0], "text", ""), "# codeagent gallery")
    try:
        await c.read_resource("gallery://nowhere")
        R.check("an unknown resource is an error", False, "no error")
    except MCPError as error:
        R.contains("an unknown resource is an error naming it", str(error), "gallery://nowhere")

    prompts = await c.list_prompts()
    R.eq("prompts/list", [p.name for p in prompts.prompts], ["explain_region"])
    got = await c.get_prompt("explain_region", {"region": "north"})
    texts = [getattr(m.content, "text", "") for m in got.messages]
    R.eq("explain_region(north): two user messages", [m.role for m in got.messages], ["user", "user"])
    R.contains("explain_region(north): the statistics", texts[0] if texts else "", '"units":200')
    try:
        await c.get_prompt("explain_region", {})
        R.check("a missing prompt argument is an error", False, "no error")
    except MCPError as error:
        R.contains("a missing prompt argument is an error naming it", str(error), "`region`")
    done = await c.complete(PromptReference(type="ref/prompt", name="explain_region"), {"name": "region", "value": "no"})
    R.eq("completion of the prompt's region", done.completion.values, ["north"])
    done = await c.complete(
        ResourceTemplateReference(type="ref/resource", uri="gallery://regions/{region}"), {"name": "region", "value": "s"}
    )
    R.eq("completion of the template's region", done.completion.values, ["south"])


async def wire_checks(modern: bool, wire: Wire) -> None:
    responses = [m for m in wire.received() if "method" not in m]
    errors = [m for m in responses if "error" in m]
    R.eq("every error response is the unknown tool's", [e["error"].get("message") for e in errors], ["Unknown tool: nope"])
    ids = [m.get("id") for m in responses]
    R.check("no request id was answered twice", len(ids) == len(set(map(json.dumps, ids))), repr(ids))
    results = [m["result"] for m in responses if "result" in m]
    tables = [r for r in results if ((r.get("_meta") or {}).get(ARTIFACT_KEY) or {}).get("kind") == "table"]
    R.check(
        "every table result carries its rows in the artifact's df, none a structuredContent",
        len(tables) >= 3
        and all("structuredContent" not in r and isinstance(r["_meta"][ARTIFACT_KEY]["payload"]["df"]["rows"], list) for r in tables),
        json.dumps([r for r in tables if "structuredContent" in r])[:500],
    )
    if modern:
        R.check(
            "every result carries resultType complete (2026-07-28)",
            all(result.get("resultType") == "complete" for result in results),
            json.dumps([r for r in results if r.get("resultType") != "complete"])[:500],
        )
        stamped = [m for m in wire.sent() if "id" in m]
        R.check(
            "every request carried the 2026-07-28 _meta envelope",
            all(((m.get("params") or {}).get("_meta") or {}).get("io.modelcontextprotocol/protocolVersion") == MODERN for m in stamped),
            json.dumps(stamped[:1]),
        )
    else:
        R.check(
            "no result carries resultType in the legacy era",
            all("resultType" not in result for result in results),
            json.dumps([r for r in results if "resultType" in r])[:500],
        )
    stray = [
        m
        for m in wire.received()
        if m.get("method") not in (None, "notifications/progress", "notifications/message")
    ]
    R.eq("no unexpected notifications or requests from the server", stray, [])


# --------------------------------------------------------------------------------------------------
# The tools that ask: the SDK's own elicitation and sampling callbacks answer delete_region and
# summarize_sales, over stdio and over HTTP. Legacy: real server-to-client requests, answered by the
# client's JSON-RPC response. 2026-07-28: an input_required result, which the SDK fulfils itself and
# retries with inputResponses and the echoed requestState.

# The region each era's asking checks delete: over HTTP every era shares one gallery process, so each
# deletes its own; the client without capabilities runs first, while the region still has records.
ASKING_REGIONS = {"legacy": "north", MODERN: "south", "auto": "east"}
RECORDS = {"north": 2, "south": 1, "east": 1, "west": 2}


def records_text(region):
    """How the gallery counts a region's records: "1 sales record", "2 sales records"."""
    count = RECORDS[region]
    return "1 sales record" if count == 1 else f"{count} sales records"

SAMPLING_MODEL = "interop-python-model"
SAMPLING_TEXT = "Sales are steady; the region's best seller leads on revenue."
SYSTEM_PROMPT = "You summarise sales tables in one plain sentence, with the numbers that matter."
CONFIRM_SCHEMA = {
    "type": "object",
    "properties": {"confirm": {"type": "boolean", "description": "Delete the records?"}},
    "required": ["confirm"],
}
NO_ELICITATION = "the client cannot be asked `elicitation/create`: it did not declare the `elicitation` capability"
CANNOT_SAMPLE = "This client cannot sample, so here is the table:\n\n"


def elicitation_params(region: str) -> dict[str, Any]:
    """What delete_region's question must be, as the callback receives it."""
    message = f"Delete {records_text(region)} of {region}? This cannot be undone."
    return {"mode": "form", "message": message, "requestedSchema": CONFIRM_SCHEMA}


def sampling_params(table: str) -> dict[str, Any]:
    """What summarize_sales asks the client's model, as the callback receives it."""
    return {
        "messages": [{"role": "user", "content": {"type": "text", "text": f"Summarise this table:\n\n{table}"}}],
        "systemPrompt": SYSTEM_PROMPT,
        "modelPreferences": {"costPriority": 0.6, "speedPriority": 0.8},
        "maxTokens": 120,
    }


@asynccontextmanager
async def tapped_http(url: str, wire: Wire) -> AsyncIterator[Any]:
    """streamable_http_client, with both of its streams tapped."""
    async with streamable_http_client(url) as (read, write):
        yield TappedRead(read, wire), TappedWrite(write, wire)


def serve_http(command: list[str], extra: Callable[[str], list[str]] = lambda url: []) -> tuple[subprocess.Popen[bytes], str]:
    """Starts ``command --http 127.0.0.1:PORT`` on a free port, followed by ``extra(url)``; the process and
    its endpoint URL, once it listens."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/mcp"
    process = subprocess.Popen([*command, "--http", f"127.0.0.1:{port}", *extra(url)], stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, url
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{command[0]} did not listen on 127.0.0.1:{port} (exit status {process.poll()})")


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stops a server started by serve_http, killing it if it does not end within 5 s."""
    process.terminate()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class HttpGallery:
    """The gallery serving `--http 127.0.0.1:PORT`, shared by every era's HTTP connections."""

    def __init__(self, binary: str) -> None:
        self.process, self.url = serve_http([binary])
        self.deleted: set[str] = set()  # the regions deleted so far in this process

    def stop(self) -> None:
        stop(self.process)


def asking_client(transport: Any, mode: str, **callbacks: Any) -> Client:
    return Client(
        transport,
        mode=mode,
        read_timeout_seconds=REQUEST_TIMEOUT,
        cache=None,
        client_info=Implementation(name="codeagent-interop-python", version="1.0.0"),
        **callbacks,
    )


async def run_asking(binary: str, mode: str, where: str, http: HttpGallery | None) -> None:
    """The asking checks of one era over one transport: a client without the capabilities, then one with them."""
    R.prefix = f"[{mode} {where}] "
    region = ASKING_REGIONS[mode]

    def transport(wire: Wire) -> Any:
        if http is None:
            return tapped_stdio(StdioServerParameters(command=binary, args=[], env=dict(os.environ)), wire)
        return tapped_http(http.url, wire)

    wire = Wire()
    async with asking_client(transport(wire), mode) as c:
        await R.group("asking without capabilities", lambda: incapable_checks(c, mode, region, wire))
    wire = Wire()
    asked: list[tuple[str, dict[str, Any]]] = []
    answers: list[types.ElicitResult] = []

    async def on_elicit(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(("elicitation/create", params.model_dump(mode="json", by_alias=True, exclude_none=True)))
        return answers.pop(0) if answers else types.ElicitResult(action="cancel")

    async def on_sample(context: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        asked.append(("sampling/createMessage", params.model_dump(mode="json", by_alias=True, exclude_none=True)))
        return types.CreateMessageResult(
            role="assistant", content=types.TextContent(type="text", text=SAMPLING_TEXT), model=SAMPLING_MODEL
        )

    async with asking_client(transport(wire), mode, elicitation_callback=on_elicit, sampling_callback=on_sample) as c:
        deleted = http.deleted if http is not None else set()
        await R.group("asking", lambda: capable_checks(c, mode, region, wire, asked, answers, deleted))


def server_requests(wire: Wire, since: int = 0) -> list[dict[str, Any]]:
    return [m for m in wire.received(since) if "method" in m and "id" in m]


def input_required(wire: Wire, since: int = 0) -> list[dict[str, Any]]:
    return [
        m["result"]
        for m in wire.received(since)
        if "method" not in m and (m.get("result") or {}).get("resultType") == "input_required"
    ]


async def incapable_checks(c: Client, mode: str, region: str, wire: Wire) -> None:
    r = await c.call_tool("sales_table", {"region": region})
    table = only_text(r) or ""
    R.eq("no capabilities: the client declares neither elicitation nor sampling", declared(wire, mode), {})
    R.eq(f"no capabilities: sales_table({region}) has its {RECORDS[region]} records", len(table_rows(r)), RECORDS[region])
    mark = wire.mark()
    r = await c.call_tool("delete_region", {"region": region})
    R.eq(f"no capabilities: delete_region({region}) is an error result", r.is_error, True)
    R.eq(f"no capabilities: delete_region({region}) names the capability", only_text(r), NO_ELICITATION)
    r = await c.call_tool("summarize_sales", {"region": region})
    R.eq(f"no capabilities: summarize_sales({region}) is no error", r.is_error, False)
    R.eq(f"no capabilities: summarize_sales({region}) falls back to the table", only_text(r), CANNOT_SAMPLE + table)
    R.eq("no capabilities: the server asked nothing (no request to the client)", server_requests(wire, mark), [])
    R.eq("no capabilities: no input_required result", input_required(wire, mark), [])
    r = await c.call_tool("sales_table", {"region": region})
    R.eq(f"no capabilities: sales_table({region}) still has its records", only_text(r), table)


def declared(wire: Wire, mode: str) -> dict[str, Any]:
    """The elicitation and sampling capabilities the client declared: at initialize (legacy) or per request."""
    if mode == "legacy":
        sent = next((m for m in wire.sent() if m.get("method") == "initialize"), {})
        capabilities = (sent.get("params") or {}).get("capabilities") or {}
    else:
        sent = next((m for m in wire.sent() if m.get("method") == "tools/call"), None)
        if sent is None:
            return {"no tools/call yet": True}
        capabilities = ((sent.get("params") or {}).get("_meta") or {}).get("io.modelcontextprotocol/clientCapabilities") or {}
    return {k: v for k, v in capabilities.items() if k in ("elicitation", "sampling")}


async def capable_checks(
    c: Client,
    mode: str,
    region: str,
    wire: Wire,
    asked: list[tuple[str, dict[str, Any]]],
    answers: list[types.ElicitResult],
    deleted: set[str],
) -> None:
    modern = mode != "legacy"
    question = elicitation_params(region)
    r = await c.call_tool("sales_table", {"region": region})
    table = only_text(r) or ""
    R.eq(f"sales_table({region}) has its {RECORDS[region]} records", len(table_rows(r)), RECORDS[region])
    R.eq("the client declares elicitation and sampling", sorted(declared(wire, mode)), ["elicitation", "sampling"])

    outcomes = [
        ("decline", types.ElicitResult(action="decline"), "Nothing was deleted: you said no."),
        ("cancel", types.ElicitResult(action="cancel"), "Nothing was deleted: the question was dismissed."),
        ("accept confirm=false", types.ElicitResult(action="accept", content={"confirm": False}), "Nothing was deleted: you said no."),
    ]
    for label, answer, expected in outcomes:
        mark, before = wire.mark(), len(asked)
        answers[:] = [answer]
        r = await c.call_tool("delete_region", {"region": region})
        R.eq(f"delete_region({region}), {label}: text", only_text(r), expected)
        R.eq(f"delete_region({region}), {label}: isError false", r.is_error, False)
        R.eq(f"delete_region({region}), {label}: the callback got the form", asked[before:], [("elicitation/create", question)])
        elicitation_wire_checks(f"delete_region({region}), {label}", wire, mark, modern, question, answer)
        r = await c.call_tool("sales_table", {"region": region})
        R.eq(f"after {label}: sales_table({region}) still has its records", only_text(r), table)

    mark, before = wire.mark(), len(asked)
    r = await c.call_tool("summarize_sales", {"region": region})
    R.eq(f"summarize_sales({region}): the model's text and name", only_text(r), f"{SAMPLING_TEXT}\n\n(summary by {SAMPLING_MODEL})")
    R.contains(f"summarize_sales({region}): names the callback's model", only_text(r), SAMPLING_MODEL)
    R.eq(f"summarize_sales({region}): isError false", r.is_error, False)
    R.eq(
        f"summarize_sales({region}): the callback got the messages, maxTokens, systemPrompt, modelPreferences",
        asked[before:],
        [("sampling/createMessage", sampling_params(table))],
    )
    sampling_wire_checks(f"summarize_sales({region})", wire, mark, modern, sampling_params(table))

    # Accept last: the records are gone for the rest of the process.
    mark, before = wire.mark(), len(asked)
    answer = types.ElicitResult(action="accept", content={"confirm": True})
    answers[:] = [answer]
    r = await c.call_tool("delete_region", {"region": region})
    R.eq(f"delete_region({region}), accept confirm=true: text", only_text(r), f"Deleted {records_text(region)} of {region}.")
    R.eq(f"delete_region({region}), accept confirm=true: isError false", r.is_error, False)
    R.eq(f"delete_region({region}), accept confirm=true: the callback got the form", asked[before:], [("elicitation/create", question)])
    elicitation_wire_checks(f"delete_region({region}), accept confirm=true", wire, mark, modern, question, answer)
    r = await c.call_tool("sales_table", {})
    deleted.add(region)
    left = [name for name in ["north", "north", "south", "east", "west", "west"] if name not in deleted]
    before_this = f" (nor those deleted before in this process: {', '.join(sorted(deleted - {region}))})" if len(deleted) > 1 else ""
    R.eq(f"after the delete: sales_table() lists no {region} record{before_this}", [row[0] for row in table_rows(r)], left)
    r = await c.call_tool("sales_table", {"region": region})
    R.eq(f"after the delete: sales_table({region}) has no rows", ((table_df(r) or {}).get("rows"), r.structured_content), ([], None))
    r = await c.call_tool("region_stats", {"region": region})
    R.eq(f"after the delete: region_stats({region}) counts nothing", r.structured_content, {"region": region, "units": 0, "revenue": 0.0})
    before = len(asked)
    r = await c.call_tool("delete_region", {"region": region})
    R.eq(f"delete_region({region}) again: nothing to delete", only_text(r), f"{region} has no records to delete.")
    R.eq(f"delete_region({region}) again: nobody is asked", asked[before:], [])
    if modern:
        R.eq("2026-07-28: the server sent no request to the client", server_requests(wire), [])


def elicitation_wire_checks(
    label: str, wire: Wire, mark: int, modern: bool, question: dict[str, Any], answer: types.ElicitResult
) -> None:
    answered = answer.model_dump(mode="json", by_alias=True, exclude_none=True)
    exchange_checks(label, wire, mark, modern, "elicitation/create", "elicitation-1", question, answered)


def sampling_wire_checks(label: str, wire: Wire, mark: int, modern: bool, params: dict[str, Any]) -> None:
    answered = {"role": "assistant", "content": {"type": "text", "text": SAMPLING_TEXT}, "model": SAMPLING_MODEL}
    exchange_checks(label, wire, mark, modern, "sampling/createMessage", "sampling-1", params, answered)


def exchange_checks(
    label: str, wire: Wire, mark: int, modern: bool, method: str, key: str, params: dict[str, Any], answered: dict[str, Any]
) -> None:
    """One question on the wire. Legacy: the server's request inside the call, the client's response to its id.
    2026-07-28: the call answers input_required; the retry carries inputResponses and the same requestState."""
    calls = [m for m in wire.sent(mark) if m.get("method") == "tools/call"]
    if not modern:
        requests = server_requests(wire, mark)
        R.eq(f"{label}: wire: one {method} request from the server", [(m["method"], m.get("params")) for m in requests], [(method, params)])
        if not requests or not calls:
            return
        ask_id = requests[0]["id"]
        replies = [m for m in wire.sent(mark) if "method" not in m and m.get("id") == ask_id]
        R.eq(f"{label}: wire: the client's response to its id", [m.get("result") for m in replies], [answered])
        call_id = calls[0]["id"]
        asked_at = next(p for p, (d, m) in enumerate(wire.log) if p >= mark and d == "in" and m.get("id") == ask_id)
        answered_at = wire.response_position(call_id)
        R.check(f"{label}: wire: asked while the call runs, then the call's result", len(calls) == 1 and answered_at is not None and asked_at < answered_at, json.dumps(calls))
        return
    R.eq(f"{label}: wire: no request from the server", server_requests(wire, mark), [])
    R.eq(f"{label}: wire: the call, then its retry", len(calls), 2)
    if len(calls) != 2:
        return
    first = wire.response(calls[0]["id"]) or {}
    result = first.get("result") or {}
    R.eq(f"{label}: wire: the first answer is input_required", result.get("resultType"), "input_required")
    R.eq(f"{label}: wire: inputRequests keyed {key}", result.get("inputRequests"), {key: {"method": method, "params": params}})
    state = result.get("requestState")
    R.check(f"{label}: wire: a requestState", isinstance(state, str) and len(state) > 20, repr(state))
    retry = calls[1].get("params") or {}
    R.eq(f"{label}: wire: the retry carries inputResponses", retry.get("inputResponses"), {key: answered})
    R.eq(f"{label}: wire: the retry echoes the requestState", retry.get("requestState"), state)
    R.eq(f"{label}: wire: the retry names the same tool and arguments", (retry.get("name"), retry.get("arguments")), (calls[0]["params"].get("name"), calls[0]["params"].get("arguments")))
    second = (wire.response(calls[1]["id"]) or {}).get("result") or {}
    R.eq(f"{label}: wire: the retry's answer is complete", second.get("resultType"), "complete")


async def main(binary: str, modes: list[str]) -> int:
    print(f"python client: mcp {importlib.metadata.version('mcp')} (mcp-types {importlib.metadata.version('mcp-types')})")
    print(f"server: {binary}", flush=True)
    http = HttpGallery(binary)
    print(f"server over HTTP: {http.url}", flush=True)
    try:
        for mode in modes:
            started = time.monotonic()
            runs: list[tuple[str, Callable[[], Awaitable[None]]]] = [
                ("", lambda: run_era(binary, mode)),
                (" stdio", lambda: run_asking(binary, mode, "stdio", None)),
                (" http", lambda: run_asking(binary, mode, "http", http)),
            ]
            for where, run in runs:
                try:
                    with anyio.fail_after(ERA_TIMEOUT):
                        await run()
                except BaseException as error:  # noqa: BLE001 - connection failures arrive as ExceptionGroups
                    if isinstance(error, KeyboardInterrupt):
                        raise
                    R.prefix = f"[{mode}{where}] "
                    R.check("the era's session runs to the end", False, f"{type(error).__name__}: {error}")
                    traceback.print_exception(error)
            print(f"[{mode}] done in {time.monotonic() - started:.1f} s", flush=True)
    finally:
        http.stop()
    R.prefix = ""
    if R.failures:
        print("\nfailed checks:\n  " + "\n  ".join(R.failures))
    print(f"{R.passed} passed, {R.failed} failed", flush=True)
    return 1 if R.failed or not R.passed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(f"usage: {sys.argv[0]} PATH/TO/gallery [legacy|{MODERN}|auto ...]")
    eras = sys.argv[2:] or ["legacy", MODERN, "auto"]
    sys.exit(anyio.run(main, sys.argv[1], eras))
