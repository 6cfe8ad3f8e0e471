#!/usr/bin/env python3
"""Two gallery instances sharing legacy sessions through a real Redis, behind a real nginx that
sends consecutive requests to alternate instances (round robin), as in docs/guide/http-and-deployment.md "Several instances".

Started here, in a temporary folder, on free loopback ports: `redis-server` (append-only file, so a
restart keeps its data), two `gallery --http 127.0.0.1:PORT --store redis://127.0.0.1:PORT` (without
CODEAGENT_STATE_KEY: the instances share the requestState key through Redis) and `nginx` with
tests/cluster/nginx.conf. The checks:

* raw wire through the proxy: consecutive requests of one session land on both instances and every
  one is served (handshake, tools/list, logging/setLevel, calls);
* a 2025-11-25 stream begun on one instance, cut, and resumed with Last-Event-ID on the other;
* elicitation: the question comes on one instance's stream, the answer is posted to the other;
  and the same with the Python `mcp` client through the proxy (its own elicitation callback);
* one instance killed (SIGKILL) and started again: the session goes on through the proxy, the
  restarted instance serves it from Redis and resumes a stream begun on the other, and a stream of
  the dead instance resumed elsewhere ends (its heartbeat stopped) instead of hanging;
* 2026-07-28: a requestState sealed by one instance is accepted by the other; a tampered one refused;
* tasks (the tasks extension): a sales_report task made on one instance is seen at once on the other
  and through the proxy, and cancelled through the other; the task of an instance killed with SIGKILL
  ends failed (naming why) within seconds, as the restarted instance also reads from Redis;
* Redis down: a clear 503 per legacy request naming the store, 2026-07-28 requests still served, no
  crash; Redis back: the same session is served again.

Usage: python test_cluster.py PATH/TO/gallery   (built with the `redis` feature)
Prints one line per check and, last, ``N passed, M failed``; exits 1 if any check failed.
Needs redis-server and nginx on PATH and the `mcp` package.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import Implementation

HERE = Path(__file__).resolve().parent
LEGACY = "2025-11-25"
MODERN = "2026-07-28"
PASSED: list[str] = []
FAILED: list[str] = []


def check(name: str, ok: bool, detail: Any = "") -> None:
    (PASSED if ok else FAILED).append(name)
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else f": {detail}"), flush=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with status {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on 127.0.0.1:{port}")


def stop(process: subprocess.Popen[bytes] | None, sig: int = signal.SIGTERM) -> None:
    if process is None or process.poll() is not None:
        return
    process.send_signal(sig)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class Cluster:
    """Redis, two instances and nginx, each restartable."""

    def __init__(self, gallery: str) -> None:
        self.gallery = gallery
        self.dir = Path(tempfile.mkdtemp(prefix="codeagent-cluster-"))
        self.redis_port, self.proxy_port = free_port(), free_port()
        self.ports = [free_port(), free_port()]
        self.redis: subprocess.Popen[bytes] | None = None
        self.instances: list[subprocess.Popen[bytes] | None] = [None, None]
        self.nginx: subprocess.Popen[bytes] | None = None
        self.env = {key: value for key, value in os.environ.items() if key != "CODEAGENT_STATE_KEY"}
        self.env.setdefault("RUST_LOG", "warn")

    def start_redis(self) -> None:
        command = [
            "redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "",
            "--appendonly", "yes", "--appendfsync", "always", "--dir", str(self.dir), "--daemonize", "no",
        ]
        log = open(self.dir / "redis.log", "ab")
        self.redis = subprocess.Popen(command, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        wait_for_port(self.redis_port, self.redis, "redis-server")

    def start_instance(self, index: int) -> None:
        port = self.ports[index]
        command = [self.gallery, "--http", f"127.0.0.1:{port}", "--store", f"redis://127.0.0.1:{self.redis_port}"]
        log = open(self.dir / f"instance-{index}.log", "ab")
        process = subprocess.Popen(command, env=self.env, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        self.instances[index] = process
        wait_for_port(port, process, f"instance {index}")

    def start_nginx(self) -> None:
        template = (HERE / "nginx.conf").read_text()
        config = (
            template.replace("@DIR@", str(self.dir))
            .replace("@PROXY_PORT@", str(self.proxy_port))
            .replace("@FIRST_PORT@", str(self.ports[0]))
            .replace("@SECOND_PORT@", str(self.ports[1]))
        )
        if os.getuid() == 0:
            # Workers of a root nginx would otherwise run as nobody, who cannot write the temp folder.
            config = "user root;\n" + config
        (self.dir / "nginx.conf").write_text(config)
        log = open(self.dir / "nginx.out", "ab")
        command = ["nginx", "-p", str(self.dir), "-c", str(self.dir / "nginx.conf"), "-g", "daemon off;"]
        self.nginx = subprocess.Popen(command, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        wait_for_port(self.proxy_port, self.nginx, "nginx")

    def start(self) -> None:
        self.start_redis()
        self.start_instance(0)
        self.start_instance(1)
        self.start_nginx()

    def stop(self) -> None:
        stop(self.nginx)
        for process in self.instances:
            stop(process)
        stop(self.redis)

    def alive(self) -> list[bool]:
        return [process is not None and process.poll() is None for process in self.instances]

    def logs(self) -> str:
        parts = []
        for name in ["instance-0.log", "instance-1.log", "error.log", "redis.log"]:
            path = self.dir / name
            if path.exists():
                parts.append(f"--- {name}\n" + path.read_text(errors="replace")[-4000:])
        return "\n".join(parts)


class Reply:
    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    def json(self) -> Any:
        text = self.body.decode()
        if self.headers.get("content-type", "").startswith("text/event-stream"):
            messages = [json.loads(line[5:]) for line in text.splitlines() if line.startswith("data:") and line[5:].strip()]
            return messages[-1] if messages else None
        return json.loads(text)


def post(port: int, message: Any, session: str | None = None, accept: str = "application/json, text/event-stream",
         headers: dict[str, str] | None = None) -> Reply:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    sent = {"content-type": "application/json", "accept": accept}
    if session:
        sent["mcp-session-id"] = session
        sent["mcp-protocol-version"] = LEGACY
    sent.update(headers or {})
    connection.request("POST", "/mcp", body=json.dumps(message), headers=sent)
    response = connection.getresponse()
    reply = Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
    connection.close()
    return reply


def rpc(id_: Any, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id_, "method": method, "params": params or {}}


def initialize(port: int, capabilities: dict[str, Any] | None = None) -> str:
    params = {"protocolVersion": LEGACY, "capabilities": capabilities or {}, "clientInfo": {"name": "cluster", "version": "1"}}
    reply = post(port, rpc(0, "initialize", params))
    assert reply.status == 200, (reply.status, reply.body)
    session = reply.headers["mcp-session-id"]
    done = post(port, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    assert done.status == 202, (done.status, done.body)
    return session


class Stream:
    """An SSE response read event by event."""

    def __init__(self, connection: http.client.HTTPConnection, response: http.client.HTTPResponse) -> None:
        self.connection, self.response = connection, response
        self.deadline = time.monotonic() + 60  # no stream here should last longer, keep-alives or not

    def next(self) -> dict[str, str] | None:
        event: dict[str, str] = {}
        while True:
            if time.monotonic() > self.deadline:
                raise TimeoutError("the stream went on for more than 60 s")
            line = self.response.readline()
            if not line:
                return event or None
            text = line.decode().rstrip("\r\n")
            if text == "":
                if event:
                    return event
                continue
            if text.startswith(":"):
                continue
            field, _, value = text.partition(":")
            event[field] = value[1:] if value.startswith(" ") else value

    def next_message(self) -> dict[str, Any] | None:
        while (event := self.next()) is not None:
            if event.get("data", "").strip():
                return json.loads(event["data"])
        return None

    def close(self) -> None:
        self.connection.close()


def open_stream(port: int, method: str, session: str, message: Any = None, headers: dict[str, str] | None = None) -> Stream:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    sent = {"accept": "application/json, text/event-stream", "mcp-session-id": session, "mcp-protocol-version": LEGACY}
    if message is not None:
        sent["content-type"] = "application/json"
    sent.update(headers or {})
    connection.request(method, "/mcp", body=None if message is None else json.dumps(message), headers=sent)
    response = connection.getresponse()
    assert response.status == 200, (response.status, response.read())
    return Stream(connection, response)


def text_of(message: dict[str, Any]) -> str:
    return message["result"]["content"][0]["text"]


# ---------------------------------------------------------------------------------------------------
# The checks
# ---------------------------------------------------------------------------------------------------


def round_robin_session(cluster: Cluster) -> None:
    proxy = cluster.proxy_port
    session = initialize(proxy)
    upstreams = set()
    results = []
    for i in range(1, 9):
        reply = post(proxy, rpc(i, "tools/call", {"name": "add", "arguments": {"a": i, "b": 100}}), session, accept="application/json")
        upstreams.add(reply.headers.get("x-upstream"))
        results.append((reply.status, reply.json()["result"]["content"][0]["text"] if reply.status == 200 else reply.body))
    check("raw wire: consecutive requests of one session reach both instances", len(upstreams) == 2, upstreams)
    check("raw wire: every call of the session is answered, in order", results == [(200, str(i + 100)) for i in range(1, 9)], results)
    level = post(proxy, rpc(20, "logging/setLevel", {"level": "error"}), session, accept="application/json")
    check("raw wire: logging/setLevel through the proxy", level.status == 200, level.body)
    # count_with_progress logs at info: filtered out on whichever instance serves the call.
    for i in range(2):
        reply = post(proxy, rpc(21 + i, "tools/call", {"name": "count_with_progress", "arguments": {"steps": 2}}), session)
        logs = [line for line in reply.body.decode().splitlines() if "notifications/message" in line]
        check(f"raw wire: the level set once holds on instance {reply.headers.get('x-upstream')}", reply.status == 200 and not logs, reply.body[:300])


def resumed_stream(cluster: Cluster, begin: int = 0, label: str = "resume") -> None:
    first, second = cluster.ports[begin], cluster.ports[1 - begin]
    session = initialize(first)
    call = rpc(5, "tools/call", {"name": "count_with_progress", "arguments": {"steps": 40}, "_meta": {"progressToken": "resume"}})
    stream = open_stream(first, "POST", session, call)
    priming = stream.next()
    progress = stream.next_message()
    seen_id = None
    # The id of the event just read: read again with ids kept.
    check(f"{label}: the first instance primes the stream and sends progress", priming is not None and "id" in priming and progress is not None,
          (priming, progress))
    event = stream.next()
    seen_id = event.get("id") if event else None
    seen_progress = json.loads(event["data"])["params"]["progress"] if event else None
    stream.close()
    resumed = open_stream(second, "GET", session, headers={"last-event-id": seen_id or ""})
    messages = []
    while (message := resumed.next_message()) is not None:
        messages.append(message)
    resumed.close()
    notes = [m["params"]["progress"] for m in messages if m.get("method") == "notifications/progress"]
    response = [m for m in messages if m.get("id") == 5]
    check(f"{label}: the other instance replays the rest after Last-Event-ID, nothing twice",
          bool(notes) and notes[0] == seen_progress + 1 and notes == sorted(set(notes)) and notes[-1] == 40, (seen_progress, notes))
    check(f"{label}: the response arrives once, on the other instance", len(response) == 1 and text_of(response[0]) == "Counted to 40.", response)


def elicitation_across_instances(cluster: Cluster) -> None:
    first, second = cluster.ports
    session = initialize(second, {"elicitation": {}})
    stream = open_stream(first, "POST", session, rpc(6, "tools/call", {"name": "delete_region", "arguments": {"region": "east"}}))
    asked = stream.next_message()
    check("elicitation: the question comes on the first instance's stream", bool(asked) and asked.get("method") == "elicitation/create", asked)
    answer = {"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "accept", "content": {"confirm": True}}}
    reply = post(second, answer, session)
    check("elicitation: the answer posted to the other instance is accepted", reply.status == 202, (reply.status, reply.body))
    response = stream.next_message()
    stream.close()
    check("elicitation: the tool on the first instance got the answer", bool(response) and text_of(response).startswith("Deleted "), response)


async def python_client(cluster: Cluster, label: str, region: str) -> None:
    url = f"http://127.0.0.1:{cluster.proxy_port}/mcp"
    asked: list[str] = []

    async def on_elicit(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"confirm": True})

    client = Client(
        streamable_http_client(url),
        mode="legacy",
        read_timeout_seconds=20.0,
        cache=None,
        client_info=Implementation(name="codeagent-cluster-python", version="1.0.0"),
        elicitation_callback=on_elicit,
    )
    mark = log_length(cluster)
    async with client as c:
        sums = []
        for i in range(6):
            r = await c.call_tool("add", {"a": i, "b": 1})
            sums.append(r.content[0].text)
        check(f"python mcp client {label}: six calls through the proxy", sums == [str(i + 1) for i in range(6)], sums)
        r = await c.call_tool("delete_region", {"region": region})
        text = r.content[0].text
        check(f"python mcp client {label}: elicitation round trip through the proxy",
              len(asked) == 1 and text.startswith("Deleted "), (asked, text))
        r = await c.call_tool("count_with_progress", {"steps": 5})
        check(f"python mcp client {label}: a streamed call", r.content[0].text == "Counted to 5.", r.content)
    await anyio.sleep(0.2)
    check(f"python mcp client {label}: its requests reached both instances", len(upstreams_in_log(cluster, mark)) == 2,
          upstreams_in_log(cluster, mark))


def upstreams_in_log(cluster: Cluster, since: int) -> set[str]:
    lines = (cluster.dir / "access.log").read_text().splitlines()[since:]
    return {line.split()[2] for line in lines if len(line.split()) > 2 and line.split()[0] == "POST"}


def log_length(cluster: Cluster) -> int:
    path = cluster.dir / "access.log"
    return len(path.read_text().splitlines()) if path.exists() else 0


def kill_and_restart(cluster: Cluster) -> None:
    proxy = cluster.proxy_port
    session = initialize(proxy, {"elicitation": {}})
    # A call running on the first instance when it dies: its stream, resumed on the
    # other, ends once the dead instance's heartbeat is stale (15 s), with no response.
    running = open_stream(cluster.ports[0], "POST", session, rpc(99, "tools/call", {"name": "slow", "arguments": {"seconds": 120}}))
    priming = running.next() or {}
    time.sleep(0.5)
    cluster.instances[0].send_signal(signal.SIGKILL)
    cluster.instances[0].wait()
    running.close()
    started = time.monotonic()
    orphan = open_stream(cluster.ports[1], "GET", session, headers={"last-event-id": priming.get("id", "")})
    leftovers = []
    while (message := orphan.next_message()) is not None:
        leftovers.append(message)
    orphan.close()
    waited = time.monotonic() - started
    check("kill: a stream of the dead instance resumed elsewhere ends, without a response, within 30 s",
          "id" in priming and not leftovers and waited < 30, (priming, leftovers, round(waited, 1)))
    answers = []
    for i in range(6):
        reply = post(proxy, rpc(i, "tools/call", {"name": "add", "arguments": {"a": i, "b": 2}}), session, accept="application/json")
        answers.append((reply.status, reply.json() if reply.status == 200 else reply.body))
    check("kill: with one instance killed the session goes on through the proxy",
          all(status == 200 for status, _ in answers) and [text_of(m) for _, m in answers] == [str(i + 2) for i in range(6)], answers)
    cluster.start_instance(0)
    # nginx leaves a failed server out for its fail_timeout (nginx.conf: 2 s).
    time.sleep(2.5)
    direct = post(cluster.ports[0], rpc(10, "tools/list"), session, accept="application/json")
    check("restart: the restarted instance serves the session from Redis", direct.status == 200 and "tools" in direct.json()["result"],
          (direct.status, direct.body[:300]))
    # nginx takes the restarted instance back once its fail_timeout has passed and a
    # probe succeeds: call until both instances have answered, every call served.
    mark = log_length(cluster)
    failures, calls, deadline = [], 0, time.monotonic() + 15
    while time.monotonic() < deadline:
        reply = post(proxy, rpc(20 + calls, "tools/call", {"name": "add", "arguments": {"a": calls, "b": 3}}), session, accept="application/json")
        if reply.status != 200 or text_of(reply.json()) != str(calls + 3):
            failures.append((reply.status, reply.body[:200]))
        calls += 1
        if calls >= 6 and len(upstreams_in_log(cluster, mark)) == 2:
            break
        time.sleep(0.1)
    check(f"restart: every one of {calls} calls through the proxy is served", not failures, failures)
    check("restart: the proxy sends to both instances again", len(upstreams_in_log(cluster, mark)) == 2, upstreams_in_log(cluster, mark))


def modern_request(id_: int, params: dict[str, Any]) -> dict[str, Any]:
    meta = {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "cluster", "version": "1"},
    }
    params = {**params, "_meta": meta}
    return rpc(id_, "tools/call", params)


def modern_post(port: int, message: dict[str, Any]) -> Reply:
    headers = {"mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": message["params"]["name"]}
    return post(port, message, headers=headers, accept="application/json")


def request_state(cluster: Cluster) -> None:
    first, second = cluster.ports
    asked = modern_post(first, modern_request(1, {"name": "delete_region", "arguments": {"region": "south"}}))
    result = asked.json().get("result", {})
    check("2026-07-28: the first instance asks with input_required", asked.status == 200 and result.get("resultType") == "input_required", asked.body[:400])
    state = result.get("requestState", "")
    key = next(iter(result.get("inputRequests", {})), "")
    responses = {key: {"action": "accept", "content": {"confirm": True}}}
    retry = modern_post(second, modern_request(2, {"name": "delete_region", "arguments": {"region": "south"},
                                                    "inputResponses": responses, "requestState": state}))
    done = retry.json().get("result", {})
    check("2026-07-28: the other instance accepts the requestState the first sealed",
          retry.status == 200 and done.get("resultType") == "complete" and text_of(retry.json()).startswith("Deleted "), retry.body[:400])
    tampered = modern_post(second, modern_request(3, {"name": "delete_region", "arguments": {"region": "south"},
                                                       "inputResponses": responses, "requestState": state[:-2] + "xx"}))
    error = tampered.json().get("error", {})
    check("2026-07-28: a tampered requestState is refused", "requestState" in error.get("message", ""), tampered.body[:300])


TASKS = "io.modelcontextprotocol/tasks"


def task_post(port: int, id_: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """A 2026-07-28 request of a client declaring the tasks extension; its result (or error)."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {"extensions": {TASKS: {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "cluster", "version": "1"},
    }
    name = params.get("name") if method == "tools/call" else params.get("taskId")
    headers = {"mcp-protocol-version": MODERN, "mcp-method": method, "mcp-name": name}
    reply = post(port, rpc(id_, method, {**params, "_meta": meta}), headers=headers, accept="application/json")
    assert reply.status == 200, (method, reply.status, reply.body[:300])
    return reply.json()


def task_until(port: int, task_id: str, done: Any, within: float) -> tuple[dict[str, Any], float]:
    started = time.monotonic()
    while True:
        task = task_post(port, 50, "tasks/get", {"taskId": task_id}).get("result", {})
        waited = time.monotonic() - started
        if done(task) or waited > within:
            return task, waited
        time.sleep(0.2)


def tasks_across_instances(cluster: Cluster) -> None:
    first, second = cluster.ports
    created = task_post(first, 1, "tools/call", {"name": "sales_report", "arguments": {"seconds": 120}}).get("result", {})
    task_id = created.get("taskId", "")
    check("tasks: the first instance answers sales_report with a task", created.get("resultType") == "task" and task_id, created)
    seen = [task_post(port, 2, "tasks/get", {"taskId": task_id}).get("result", {}).get("status") for port in (second, cluster.proxy_port)]
    check("tasks: the other instance and the proxy see it working at once", seen == ["working", "working"], seen)
    ack = task_post(second, 3, "tasks/cancel", {"taskId": task_id}).get("result", {})
    check("tasks: the other instance acknowledges tasks/cancel", ack.get("resultType") == "complete", ack)
    task, waited = task_until(second, task_id, lambda task: task.get("status") != "working", 10)
    check("tasks: cancelled through the other instance, the task ends cancelled", task.get("status") == "cancelled", (task, round(waited, 1)))
    doomed = task_post(first, 4, "tools/call", {"name": "sales_report", "arguments": {"seconds": 600}}).get("result", {})
    doomed_id = doomed.get("taskId", "")
    time.sleep(1.5)
    cluster.instances[0].send_signal(signal.SIGKILL)
    cluster.instances[0].wait()
    task, waited = task_until(second, doomed_id, lambda task: task.get("status") != "working", 20)
    message = task.get("error", {}).get("message", "")
    check("tasks: the task of a killed instance ends failed within 10 s, saying why",
          task.get("status") == "failed" and "stopped" in message and waited < 10, (task, round(waited, 1)))
    cluster.start_instance(0)
    time.sleep(2.5)
    again = task_post(first, 5, "tasks/get", {"taskId": doomed_id}).get("result", {})
    check("tasks: the restarted instance reads the failed task from Redis", again.get("status") == "failed", again)


def redis_down(cluster: Cluster) -> None:
    first, second = cluster.ports
    session = initialize(first)
    stop(cluster.redis, signal.SIGKILL)
    refused = [post(port, rpc(1, "tools/list"), session, accept="application/json") for port in (first, second)]
    messages = [reply.json().get("error", {}).get("message", "") if reply.status == 503 else "" for reply in refused]
    check("redis down: each legacy request gets 503 naming the session store",
          all(reply.status == 503 for reply in refused) and all("session store" in m for m in messages), [(r.status, r.body[:200]) for r in refused])
    fresh = post(second, rpc(0, "initialize", {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}))
    check("redis down: a new session is refused with 503, no session id", fresh.status == 503 and "mcp-session-id" not in fresh.headers, fresh.status)
    modern = modern_post(first, modern_request(2, {"name": "add", "arguments": {"a": 1, "b": 1}}))
    check("redis down: 2026-07-28 requests are still served", modern.status == 200 and text_of(modern.json()) == "2", modern.body[:300])
    check("redis down: both instances are still running", cluster.alive() == [True, True], cluster.alive())
    cluster.start_redis()
    deadline = time.monotonic() + 20
    while True:
        back = post(second, rpc(3, "tools/list"), session, accept="application/json")
        if back.status == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    check("redis back: the same session is served again", back.status == 200, (back.status, back.body[:300]))


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    for tool in ("redis-server", "nginx"):
        if shutil.which(tool) is None:
            print(f"test_cluster.py: {tool} is not on PATH (Debian: apt-get install redis-server nginx-light)", file=sys.stderr)
            return 1
    cluster = Cluster(os.path.abspath(sys.argv[1]))
    try:
        try:
            cluster.start()
        except Exception:  # noqa: BLE001 - said with the logs below
            check("the cluster starts", False, traceback.format_exc())
            return 1
        for name, step in [
            ("round robin", lambda: round_robin_session(cluster)),
            ("resumed stream", lambda: resumed_stream(cluster)),
            ("elicitation", lambda: elicitation_across_instances(cluster)),
            ("python client", lambda: anyio.run(python_client, cluster, "before the kill", "north")),
            ("kill and restart", lambda: kill_and_restart(cluster)),
            ("python client after restart", lambda: anyio.run(python_client, cluster, "after the restart", "west")),
            ("resumed on the restarted instance", lambda: resumed_stream(cluster, 1, "resume on the restarted instance")),
            ("requestState", lambda: request_state(cluster)),
            ("tasks across instances", lambda: tasks_across_instances(cluster)),
            ("redis down", lambda: redis_down(cluster)),
        ]:
            try:
                step()
            except Exception:  # noqa: BLE001 - one broken step must not hide the others
                check(f"{name}: ran without an exception", False, traceback.format_exc())
    finally:
        cluster.stop()
        if FAILED:
            print(cluster.logs())
        shutil.rmtree(cluster.dir, ignore_errors=True)
    print(f"{len(PASSED)} passed, {len(FAILED)} failed")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
