#!/usr/bin/env python3
"""Writes the seed inputs of every fuzz target into fuzz/corpus/<target>/
(files named seed-*): MCP messages from the vendored official examples
(test-support/mcp/examples) and conversations with the fuzzing toolbox
(fuzz/src/tools.rs), artifacts and results from the golden files
(codeagent-core/tests/golden), Markdown, URI templates, and requestState
retries. Run it from anywhere; `cargo fuzz cmin` then keeps what adds coverage.
"""

import base64
import glob
import json
import os

FUZZ = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(FUZZ)
CORPUS = os.path.join(FUZZ, "corpus")

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}, "sampling": {}, "roots": {"listChanged": True}},
    "io.modelcontextprotocol/clientInfo": {"name": "codeagent-fuzz", "version": "0.0.0"},
}
CAPABILITIES = {"elicitation": {}, "sampling": {}, "roots": {"listChanged": True}}


def write(target, name, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(folder, "seed-" + name), "wb") as out:
        out.write(data)


def line(message):
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n"


def req(id_, method, params=None):
    message = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        message["params"] = params
    return message


def modern(params):
    return dict(params, _meta=dict(params.get("_meta", {}), **META))


def initialize(version):
    return line(req(0, "initialize", {"protocolVersion": version, "capabilities": CAPABILITIES,
                                       "clientInfo": {"name": "seed", "version": "1"}})) + \
        line({"jsonrpc": "2.0", "method": "notifications/initialized"})


def examples():
    for path in sorted(glob.glob(os.path.join(ROOT, "test-support/mcp/examples/*/*/*.json"))):
        with open(path, encoding="utf-8") as source:
            yield os.path.basename(os.path.dirname(path)), os.path.basename(path)[:-5], json.load(source)


def goldens():
    for path in sorted(glob.glob(os.path.join(ROOT, "codeagent-core/tests/golden/*.json"))):
        with open(path, encoding="utf-8") as source:
            yield os.path.basename(path)[:-5], json.load(source)


VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]

CALLS = [
    ("add", {"a": 2, "b": 3}),
    ("greet", {"name": "Ada"}),
    ("narrow", {"code": "0042", "byte": 255, "ratio": 0.5}),
    ("sets", {"numbers": [1, 2], "words": ["a", "b"]}),
    ("meet", {"at": "2024-01-01T10:00:00Z", "daily": "23:59:59-05:30", "day": "2024-02-29",
              "local": "2024-01-01T10:00:00.5", "id": "67e55044-10b1-426f-9247-bb680e5fe0c8", "host": "::1",
              "who": "^a+$"}),
    ("draw", {"shape": {"kind": "circle", "radius": 1.5}, "limit": {"count": 3}}),
    ("draw", {"shape": {"kind": "square", "side": 2}, "limit": {"name": "ab"}}),
    ("order", {"order": {"region": "north", "lines": [{"product": "kettle", "units": 2, "attributes": {"w": 3}}],
                         "note": "soon", "express": True}, "tags": ["x", None]}),
    ("stats", {"region": "south"}),
    ("show", {"kind": "code", "text": "fn main() {}"}),
    ("show", {"kind": "diff", "text": "b\n"}),
    ("show", {"kind": "error", "text": "it broke"}),
    ("link", {"region": "north"}),
    ("confirm", {"what": "the deletion"}),
    ("model_and_roots", {}),
    ("sampler", {}),
]
BAD_CALLS = [
    ("add", {"a": "2"}),
    ("greet", {"name": ""}),
    ("narrow", {"code": "abc", "byte": 300, "ratio": 1e300}),
    ("sets", {"numbers": [1, 1], "words": ["a"] * 9}),
    ("draw", {"shape": {"kind": "triangle"}}),
    ("meet", {"at": "2024-01-01 10:00:00Z", "daily": "8:30", "id": "x", "host": "localhost", "who": "("}),
    # The offset that was sliced inside its character (tests/library/constraints.rs).
    ("meet", {"at": "2024-01-01T10:00:00+0\u00e900", "daily": "10:00:00+02\u00e90"}),
    ("order", {"order": {"region": "west", "lines": []}}),
    ("add", [1, 2]),
    ("add", None),
]


def jsonrpc_stdio():
    for kind, name, message in examples():
        if isinstance(message, dict) and "method" in message:
            write("jsonrpc_stdio", f"example-{kind}-{name}", line(message))
    for version in VERSIONS:
        session = initialize(version)
        session += line(req(1, "tools/list", {}))
        for index, (tool, arguments) in enumerate(CALLS):
            session += line(req(10 + index, "tools/call", {"name": tool, "arguments": arguments}))
        session += line(req(2, "resources/list"))
        session += line(req(3, "resources/templates/list", {}))
        session += line(req(4, "resources/read", {"uri": "fuzz://regions/north?units=3"}))
        session += line(req(5, "resources/read", {"uri": "file:///src/lib.rs"}))
        session += line(req(6, "prompts/list"))
        session += line(req(7, "prompts/get", {"name": "explain", "arguments": {"region": "south"}}))
        session += line(req(8, "completion/complete", {"ref": {"type": "ref/prompt", "name": "explain"},
                                                       "argument": {"name": "region", "value": "n"}}))
        session += line(req(9, "logging/setLevel", {"level": "debug"}))
        session += line(req("p", "ping"))
        write("jsonrpc_stdio", f"session-{version}", session)
    # A legacy question answered by the client, then a cancelled one.
    asked = initialize("2025-11-25") + line(req(1, "tools/call", {"name": "confirm", "arguments": {}}))
    asked += line({"jsonrpc": "2.0", "id": "codeagent-1", "result": {"action": "accept", "content": {"ok": True}}})
    asked += line(req(2, "tools/call", {"name": "model_and_roots", "arguments": {}}))
    asked += line({"jsonrpc": "2.0", "id": "codeagent-2", "error": {"code": -32600, "message": "no"}})
    asked += line({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}})
    write("jsonrpc_stdio", "legacy-asking", asked)
    # Batches (2025-03-26) and framing oddities.
    batch = initialize("2025-03-26") + json.dumps([req(1, "ping"), req(2, "tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}}),
                                                  {"jsonrpc": "2.0", "method": "notifications/initialized"}]) + "\n"
    write("jsonrpc_stdio", "batch", batch)
    write("jsonrpc_stdio", "framing", "\r\n\n  \n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n[]\n{}\nnull\n[1]\n{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":7}\n{\"jsonrpc\":\"2.0\",\"id\":[],\"method\":\"ping\"}\n\xff\xfe\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}")
    write("jsonrpc_stdio", "too-long", line(req(1, "tools/call", {"name": "greet", "arguments": {"name": "x" * 5000}})) + line(req(2, "ping")))
    modern_session = ""
    for index, (tool, arguments) in enumerate(CALLS + BAD_CALLS):
        modern_session += line(req(index, "tools/call", modern({"name": tool, "arguments": arguments})))
    modern_session += line(req("d", "server/discover", modern({})))
    modern_session += line(req("l", "tools/list", modern({})))
    modern_session += line(req("r", "resources/read", modern({"uri": "fuzz://regions/south"})))
    modern_session += line(req("s", "subscriptions/listen", modern({})))
    write("jsonrpc_stdio", "modern-session", modern_session)


def arguments():
    names = ["add", "greet", "narrow", "sets", "meet", "draw", "order", "stats", "show", "link", "confirm", "model_and_roots", "sampler"]
    for index, (tool, args) in enumerate(CALLS + BAD_CALLS):
        write("arguments", f"{index}-{tool}", bytes([names.index(tool)]) + json.dumps(args).encode())


def artifact():
    kinds = []
    for name, golden in goldens():
        found = golden.get("artifact") or golden.get("extra", {}).get("codeagent", {}).get("artifact")
        if found:
            kinds.append((name, found))
    kinds += [
        ("text", {"schema": "codeagent.tool-artifact", "version": 1, "kind": "text", "status": "success", "icon": None,
                  "title": "T", "payload": {"text": "hello"}}),
        ("error", {"schema": "codeagent.tool-artifact", "version": 1, "kind": "error", "status": "success",
                   "icon": "x", "title": None, "payload": {"message": "m", "detail": "d"}}),
        ("future", {"schema": "codeagent.tool-artifact", "version": 2, "kind": "chart", "status": "success",
                    "icon": None, "title": None, "payload": {}, "extra": 1}),
        ("float-version", {"schema": "codeagent.tool-artifact", "version": 1.0, "kind": "code", "status": "error",
                           "payload": {"text": "x", "lang": "rust"}}),
        ("legacy", {"kind": "table", "payload": {"df": {"columns": [], "rows": []}}}),
        ("diff", {"schema": "codeagent.tool-artifact", "version": 1, "kind": "diff", "status": "success",
                  "icon": None, "title": None, "payload": {"old": "a\n", "new": "b\n", "path": "p"}}),
    ]
    for index, (name, found) in enumerate(kinds):
        for pick in range(4):
            write("artifact", f"{name}-{pick}", bytes([pick + 16 * (index % 2)]) + json.dumps(found).encode())


def from_mcp():
    for kind, name, message in examples():
        if kind in ("CallToolResult", "CallToolResultResponse", "InputRequiredResult"):
            write("from_mcp", f"example-{kind}-{name}", json.dumps(message.get("result", message)))
    png = base64.b64encode(bytes.fromhex("89504e470d0a1a0a")).decode()
    write("from_mcp", "image", json.dumps({"content": [{"type": "image", "data": png, "mimeType": "image/png"},
                                                       {"type": "text", "text": "a chart"}]}))
    write("from_mcp", "blocks", json.dumps({"content": [
        {"type": "resource_link", "uri": "file:///a", "name": "a"},
        {"type": "resource", "resource": {"uri": "file:///b", "text": "b", "mimeType": "text/plain"}},
        {"type": "resource", "resource": {"uri": "file:///c", "blob": "AA=="}},
        {"type": "audio", "data": "AA==", "mimeType": "audio/wav"}], "isError": True}))
    for name, golden in goldens():
        if name.endswith(".result"):
            write("from_mcp", f"golden-{name}", json.dumps(golden))
    artifact = {"schema": "codeagent.tool-artifact", "version": 1, "kind": "table", "status": "success", "icon": None,
                "title": None, "payload": {"df": {"columns": [{"name": "a", "type": "integer"}], "rows": [[1]]}}}
    write("from_mcp", "meta-artifact", json.dumps({"content": [{"type": "text", "text": "| a |"}],
                                                   "structuredContent": {"a": 1},
                                                   "_meta": {"dev.codeagent/artifact": artifact}}))


def display():
    for name, golden in goldens():
        write("display", f"golden-{name}", b"\0" + json.dumps(golden).encode())
    write("display", "options", b"\0" + json.dumps({"html": "<b>x</b><script>alert(1)</script>", "markdown": "# t",
                                                    "title": "T", "icon": "table", "open": True}).encode())
    write("display", "legacy-card", b"\0" + json.dumps({"value": "v", "extra": {"display": {"toolcard": {"html": "<i>x</i>"},
                                                        "right_output": "r"}}}).encode())
    markdown = [
        "# Title\n\nSome *emphasis* and **strong** and `code`.\n\n- a\n- b\n\n1. one\n\n> quote\n",
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n~~gone~~ - [ ] task\n",
        "[x](javascript:alert(1)) ![i](data:image/svg+xml;base64,PHN2Zz4=) <script>alert(1)</script>",
        "```rust\nfn main() {}\n```\n\n<div onclick=x>raw</div>\n\n[r]: http://a.b/ \"t\"\n[link][r] <http://x.y> <mailto:a@b>",
        "&#60;script&#62; &lt;b&gt; \u00e9\U0001f389 <!-- c --> ***\n---\n",
    ]
    for index, text in enumerate(markdown):
        write("display", f"markdown-{index}", b"\x01" + text.encode())


def uri_template():
    cases = [
        ("file:///{+path}{?rev}", ["file:///src/lib%20x.rs?rev=42", "file:///a"]),
        ("users://{id}/profile", ["users://a/profile", "users://a/b/profile"]),
        ("fuzz://regions/{region}{?units}", ["fuzz://regions/north?units=3"]),
        ("{name}.{ext}", ["a.b.c"]),
        ("api{/var}", ["api/x", "api/", "api"]),
        ("search://x{?a,b}", ["search://x?b=1&a=2", "search://x"]),
        ("map{;x,y}", ["map;x=1;y=2", "map;x"]),
        ("http://e.com{/path*}{#frag}{.ext}{&q}", ["http://e.com/a/b"]),
        ("{var:3}{x,y}{+r}{#f}", ["abc"]),
        ("res://%E2%82%AC/{v}", ["res://\u20ac/x"]),
        ("res://{x}/{y}{?z}{&w}", ["res://1/2?z=3&w=4"]),
        ("literal://only", ["literal://only"]),
        ("bad{", []), ("bad}", []), ("bad{%}", []), ("x{a}{a}", []),
    ]
    for index, (template, uris) in enumerate(cases):
        write("uri_template", f"match-{index}", b"\0" + "\0".join([template] + uris).encode())
        write("uri_template", f"expand-{index}", b"\x01" + "\0".join([template, "a b", "c/d", "%41", "\u00e9"]).encode())
    write("uri_template", "round-trip", b"\x02" + "\0".join(["x y", "a/b", "", "q&r=s"]).encode())


def request_state():
    write("request_state", "raw", b"\0" + b"abcd1234.eyJ2IjoxfQ.AAAA")
    write("request_state", "raw-empty", b"\x10")
    payload = {"v": 1, "exp": 99999999999, "bind": "x", "answers": {}, "kept": {}}
    write("request_state", "sealed", b"\x01" + json.dumps(payload).encode())
    answers = {"elicitation-1": {"action": "accept", "content": {"ok": True, "reason": "r"}},
               "sampling-1": {"role": "assistant", "content": {"type": "text", "text": "Hi"}, "model": "m"},
               "roots-2": {"roots": [{"uri": "file:///a"}]}}
    state = {"answers": answers, "kept": {"first": 41}}
    write("request_state", "valid-confirm", b"\x02" + json.dumps(state).encode() + b"\0" + json.dumps(
        {"elicitation-1": {"action": "decline"}}).encode())
    write("request_state", "valid-sample", b"\x12" + json.dumps(state).encode() + b"\0{}")
    write("request_state", "wrong-shapes", b"\x02" + json.dumps({"answers": {"elicitation-1": 1}, "kept": {"first": "x"}}).encode() + b"\0[]")


if __name__ == "__main__":
    jsonrpc_stdio()
    arguments()
    artifact()
    from_mcp()
    display()
    uri_template()
    request_state()
    for target in sorted(os.listdir(CORPUS)):
        print(target, len(os.listdir(os.path.join(CORPUS, target))))
