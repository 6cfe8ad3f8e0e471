#!/usr/bin/env python3
"""A scripted mock LLM for driving real MCP hosts (Claude Code, Codex CLI, Gemini CLI).

One process serves one host run, speaking one of three APIs on 127.0.0.1:

  anthropic  Anthropic Messages API        POST /v1/messages (SSE or JSON), /v1/messages/count_tokens
  responses  OpenAI Responses API          POST /v1/responses (SSE)
  gemini     Gemini generateContent API    POST /v1beta/models/M:streamGenerateContent?alt=sse,
                                           :generateContent, :countTokens

The script is a JSON list of tool calls, one per model turn:
    [{"tool": "add", "arguments": {"a": 2, "b": 3}}, {"tool": "big_table", "arguments": {...}, "optional": true}]
`tool` is the gallery's name; the host's name for it (`mcp__gallery__add`, ...) is found in the
tools list of the first request that offers it, matching by suffix. An optional call whose tool is
not offered is skipped; a required one is skipped too but listed under "missing".

A "main" request is one whose tools list offers the scripted tools. For it the mock counts the
tool results already in the conversation: with n results it records result n (exactly as the host
put it in the request: the raw tool_result / function_call_output / functionResponse part, plus
the other parts of the same message), then makes call n+1, or, after the last call, answers with a
final text. Any other request (title generation, quota probes, routing classifiers, ...) gets a
short text answer, or a JSON object for requests that ask for one.

Everything is written to the JSON log after each request:
    {"api", "tools": [raw tools list of the first main request], "plan": [...], "missing": [...],
     "calls": [{"tool", "name", "arguments", "result", "siblings"}], "requests": [...], "done"}

Usage: mock_model.py --api API --script FILE --log FILE [--port N]
Prints "PORT <n>" on stdout once it listens. Python 3 standard library only.
"""

import argparse
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse

FINAL_TEXT = "All scripted tool calls are done."
AUX_TEXT = "OK"


# ---------------------------------------------------------------------------------------------
# State shared by the three APIs: the script, the resolved plan and the log.


class Session:
    def __init__(self, api, script, log_path):
        self.api = api
        self.script = script
        self.log_path = log_path
        self.lock = threading.Lock()
        self.plan = None  # the script entries the host offers, with their host names
        self.log = {"api": api, "tools": None, "plan": None, "missing": [], "calls": [], "requests": [], "done": False}
        self.save()

    def save(self):
        tmp = self.log_path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.log, f, indent=1)
        os.replace(tmp, self.log_path)

    def resolve(self, tools, names):
        """Fix the plan from the first main request's tools list."""
        self.log["tools"] = tools
        self.log["tool_names"] = names
        self.plan = []
        for entry in self.script:
            name = match_tool(entry["tool"], names)
            if name is None:
                if not entry.get("optional"):
                    self.log["missing"].append(entry["tool"])
                continue
            self.plan.append(dict(entry, name=name))
        self.log["plan"] = [{"tool": e["tool"], "name": e["name"], "arguments": e.get("arguments", {})} for e in self.plan]

    def is_main(self, names):
        wanted = [e["tool"] for e in self.script if not e.get("optional")] or [e["tool"] for e in self.script]
        return any(match_tool(t, names) for t in wanted)

    def turn(self, tools, names, results):
        """The next action for a main request carrying `results` (a list of (part, siblings)).

        Returns ("call", index, entry) or ("final",)."""
        if self.plan is None:
            self.resolve(tools, names)
        for i, (part, siblings) in enumerate(results[: len(self.plan)]):
            if i >= len(self.log["calls"]):
                break
            if self.log["calls"][i].get("result") is None:
                self.log["calls"][i]["result"] = part
                self.log["calls"][i]["siblings"] = siblings
        n = len(results)
        if n < len(self.plan):
            entry = self.plan[n]
            if n >= len(self.log["calls"]):
                self.log["calls"].append(
                    {"tool": entry["tool"], "name": entry["name"], "arguments": entry.get("arguments", {}), "result": None}
                )
            return ("call", n, entry)
        self.log["done"] = True
        return ("final",)


def match_tool(tool, names):
    """The host's name for gallery tool `tool`: exact, else a name ending in a separator + tool.

    Prefers names that mention the server ("gallery"), then the shortest."""
    found = [n for n in names if n == tool or (n.endswith(tool) and not n[-len(tool) - 1].isalnum())]
    found.sort(key=lambda n: ("gallery" not in n, len(n)))
    return found[0] if found else None


def tool_names(tools):
    """Every "name" in a tools list, however the API nests them."""
    names = []

    def walk(x):
        if isinstance(x, dict):
            if isinstance(x.get("name"), str):
                names.append(x["name"])
            for v in x.values():
                if isinstance(v, (dict, list)):
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(tools or [])
    return names


def fill_schema(schema):
    """A small value that fits a JSON schema (for aux requests that ask for JSON output)."""
    if not isinstance(schema, dict):
        return "x"
    if "enum" in schema:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        if schema.get(key):
            return fill_schema(schema[key][0])
    t = schema.get("type")
    if isinstance(t, list):
        t = t[0]
    t = (t or "object").lower()
    if t == "object":
        props = schema.get("properties", {})
        return {k: fill_schema(v) for k, v in props.items()}
    if t == "array":
        return []
    if t in ("integer", "number"):
        return 0
    if t == "boolean":
        return False
    return "x"


def sse(events):
    """An SSE body: events are (name or None, data dict)."""
    out = []
    for name, data in events:
        if name:
            out.append(f"event: {name}\n")
        out.append(f"data: {json.dumps(data)}\n\n")
    return "".join(out).encode()


# ---------------------------------------------------------------------------------------------
# Anthropic Messages API (Claude Code).


def anthropic(session, path, body):
    if path.endswith("/count_tokens"):
        return "json", {"input_tokens": 1000}, "count_tokens"
    if not path.endswith("/v1/messages"):
        return None
    tools = body.get("tools") or []
    names = tool_names(tools)
    model = body.get("model", "claude")
    if session.is_main(names):
        results = []
        for message in body.get("messages", []):
            content = message.get("content")
            if message.get("role") != "user" or not isinstance(content, list):
                continue
            parts = [p for p in content if p.get("type") == "tool_result"]
            others = [p for p in content if p.get("type") != "tool_result"]
            results += [(p, others) for p in parts]
        action = session.turn(tools, names, results)
        kind = "main"
    else:
        action, kind = ("text", AUX_TEXT), "aux"
    if action[0] == "call":
        n, entry = action[1], action[2]
        block = {"type": "tool_use", "id": f"toolu_mock_{n}", "name": entry["name"], "input": entry.get("arguments", {})}
        stop = "tool_use"
    else:
        block = {"type": "text", "text": FINAL_TEXT if action[0] == "final" else action[1]}
        stop = "end_turn"
    message = {
        "id": f"msg_mock_{len(session.log['requests'])}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [block],
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 100, "output_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
    }
    if not body.get("stream"):
        return "json", message, kind
    start = dict(message, content=[], stop_reason=None, usage=dict(message["usage"], output_tokens=1))
    if block["type"] == "tool_use":
        opening = dict(block, input={})
        delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
    else:
        opening = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": block["text"]}
    events = [
        ("message_start", {"type": "message_start", "message": start}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": opening}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 10}}),
        ("message_stop", {"type": "message_stop"}),
    ]
    return "sse", sse(events), kind


# ---------------------------------------------------------------------------------------------
# OpenAI Responses API (Codex CLI).


def responses(session, path, body):
    if not path.endswith("/responses"):
        return None
    tools = body.get("tools") or []
    # Codex nests each MCP server's tools in a {"type": "namespace", "name": "mcp__gallery",
    # "tools": [...]} entry; its call names the tool and the namespace. "ns.tool" here.
    spaces = {}
    for t in tools:
        if t.get("type") == "namespace":
            for inner in t.get("tools") or []:
                spaces[f"{t['name']}.{inner.get('name')}"] = (t["name"], inner.get("name"))
    names = [n for n in tool_names(tools) if n not in {ns for ns, _ in spaces.values()}]
    names = list(spaces) + [n for n in names if not any(n == tool for _, tool in spaces.values())]
    n_req = len(session.log["requests"])
    if session.is_main(names):
        items = body.get("input") or []
        results = [(it, []) for it in items if isinstance(it, dict) and str(it.get("type", "")).endswith("_output")]
        action = session.turn(tools, names, results)
        kind = "main"
    else:
        action, kind = ("text", AUX_TEXT), "aux"
    if action[0] == "call":
        n, entry = action[1], action[2]
        namespace, name = spaces.get(entry["name"], (None, entry["name"]))
        item = {
            "type": "function_call",
            "id": f"fc_mock_{n}",
            "call_id": f"call_mock_{n}",
            "name": name,
            "arguments": json.dumps(entry.get("arguments", {})),
            "status": "completed",
        }
        if namespace:
            item["namespace"] = namespace
    else:
        text = FINAL_TEXT if action[0] == "final" else action[1]
        item = {
            "type": "message",
            "id": f"msg_mock_{n_req}",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }
    rid = f"resp_mock_{n_req}"
    usage = {"input_tokens": 100, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 10,
             "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 110}
    base = {"id": rid, "object": "response", "model": body.get("model", "mock"), "status": "in_progress", "output": []}
    events = [
        ("response.created", {"type": "response.created", "sequence_number": 0, "response": base}),
        ("response.output_item.added", {"type": "response.output_item.added", "sequence_number": 1, "output_index": 0,
                                        "item": dict(item, status="in_progress")}),
    ]
    if item["type"] == "message":
        events.append(("response.output_text.delta", {"type": "response.output_text.delta", "sequence_number": 2,
                                                      "item_id": item["id"], "output_index": 0, "content_index": 0,
                                                      "delta": item["content"][0]["text"]}))
    events += [
        ("response.output_item.done", {"type": "response.output_item.done", "sequence_number": 3, "output_index": 0, "item": item}),
        ("response.completed", {"type": "response.completed", "sequence_number": 4,
                                "response": dict(base, status="completed", output=[item], usage=usage)}),
    ]
    return "sse", sse(events), kind


# ---------------------------------------------------------------------------------------------
# Gemini API (Gemini CLI).


def gemini(session, path, body):
    if path.endswith(":countTokens"):
        return "json", {"totalTokens": 1000}, "count_tokens"
    if not (path.endswith(":streamGenerateContent") or path.endswith(":generateContent")):
        return None
    tools = body.get("tools") or []
    names = tool_names(tools)
    config = body.get("generationConfig") or {}
    if session.is_main(names):
        results = []
        for content in body.get("contents", []):
            parts = content.get("parts") or []
            calls = [p for p in parts if "functionResponse" in p]
            others = [p for p in parts if "functionResponse" not in p]
            results += [(p, others) for p in calls]
        action = session.turn(tools, names, results)
        kind = "main"
    else:
        schema = config.get("responseJsonSchema") or config.get("responseSchema")
        if schema or config.get("responseMimeType") == "application/json":
            action = ("text", json.dumps(fill_schema(schema or {})))
        else:
            action = ("text", AUX_TEXT)
        kind = "aux"
    if action[0] == "call":
        n, entry = action[1], action[2]
        part = {"functionCall": {"id": f"call_mock_{n}", "name": entry["name"], "args": entry.get("arguments", {})}}
    else:
        part = {"text": FINAL_TEXT if action[0] == "final" else action[1]}
    reply = {
        "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110},
        "modelVersion": path.split("/models/")[-1].split(":")[0],
    }
    if path.endswith(":generateContent"):
        return "json", reply, kind
    return "sse", sse([(None, reply)]), kind


APIS = {"anthropic": anthropic, "responses": responses, "gemini": gemini}


# ---------------------------------------------------------------------------------------------
# HTTP plumbing.


def make_handler(session):
    api = APIS[session.api]

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):  # keep the host's stderr clean; the log file has it all
            pass

        def reply(self, status, ctype, payload):
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(payload)))
            if ctype == "text/event-stream":
                self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            self.wfile.write(payload)

        def note(self, kind, body=None):
            entry = {"method": self.command, "path": self.path, "kind": kind}
            if isinstance(body, dict):
                entry["model"] = body.get("model")
                entry["stream"] = body.get("stream")
                entry["n_tools"] = len(tool_names(body.get("tools")))
            session.log["requests"].append(entry)
            dump = os.environ.get("MOCK_DUMP_DIR")  # every request body, for finding things out
            if dump:
                os.makedirs(dump, exist_ok=True)
                with open(os.path.join(dump, f"{len(session.log['requests']):03d}-{kind}.json"), "w") as f:
                    json.dump({"path": self.path, "headers": dict(self.headers), "body": body}, f, indent=1)
            session.save()

        def do_GET(self):
            path = urlparse(self.path).path
            with session.lock:
                self.note("get")
            if path.endswith("/models"):  # model listings: an empty one
                return self.reply(200, "application/json", b'{"object": "list", "data": [], "models": []}')
            self.reply(404, "application/json", b'{"error": {"message": "not served by the mock"}}')

        def do_POST(self):
            path = urlparse(self.path).path
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {"_unparsed": raw[:200].decode("latin-1")}
            with session.lock:
                try:
                    out = api(session, path, body)
                except Exception as e:  # answer, and keep the error in the log
                    session.log.setdefault("errors", []).append(f"{path}: {type(e).__name__}: {e}")
                    out = None
                if out is None:
                    self.note("unknown", body)
                    return self.reply(404, "application/json", b'{"error": {"message": "not served by the mock"}}')
                fmt, payload, kind = out
                self.note(kind, body)
            if fmt == "json":
                self.reply(200, "application/json", json.dumps(payload).encode())
            else:
                self.reply(200, "text/event-stream", payload)

    return Handler


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--api", choices=sorted(APIS), required=True)
    p.add_argument("--script", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--port", type=int, default=0)
    args = p.parse_args()
    with open(args.script) as f:
        script = json.load(f)
    session = Session(args.api, script, args.log)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(session))
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
