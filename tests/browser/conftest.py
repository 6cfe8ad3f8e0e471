"""Shared fixtures of the browser tests.

`cargo test --test programs browser -- --include-ignored` (tests/programs/browser.rs) starts the
servers and runs these tests with:

- CODEAGENT_GALLERY_URL: the gallery example serving `--http ADDR --ui`;
- CODEAGENT_FIXTURES_URL: the fixture server (tests/browser/fixtures.rs) with the host page;
- CODEAGENT_CARDS: the renderer-versus-card cases (JSON);
- CODEAGENT_SCREENSHOTS: where the screenshots go;
- CODEAGENT_CHROMIUM: the browser (Debian's /usr/bin/chromium).

Every page is guarded: a console error, an uncaught exception, a dialog, a
call of the `__xss` trap (or of alert/confirm/prompt) in any frame, or a
request to anything but the test's own origins fails the test.
"""

import http.server
import json
import os
import pathlib
import threading
import urllib.request

import pytest
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
HOST_DIR = ROOT / "tests" / "browser" / "host"
BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# The MCP Apps default policy (apps.mdx, "Restrictive Default"), and what
# its sandbox proxy adds.
VIEW_CSP = (
    "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; "
    "base-uri 'self'; object-src 'none'"
)
UI_EXTENSION = "io.modelcontextprotocol/ui"
APP_URI = "ui://codeagent/artifact"
APP_MIME = "text/html;profile=mcp-app"

TRAP = """
(() => {
  const calls = [];
  Object.defineProperty(window, "__xssCalls", { value: calls });
  window.__xss = (...args) => { calls.push(["__xss", ...args.map(String)]); };
  for (const name of ["alert", "confirm", "prompt", "print"]) {
    window[name] = (...args) => { calls.push([name, ...args.map(String)]); };
  }
})();
"""


def setting(name):
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: run these tests with `cargo test --test programs browser -- --include-ignored`")
    return value


# ---- an MCP client over Streamable HTTP -------------------------------------


class Mcp:
    """A small MCP client (protocol 2025-11-25) that declares MCP Apps support."""

    def __init__(self, base, apps=True):
        self.url = base.rstrip("/") + "/mcp"
        self.session = None
        self.next_id = 1
        capabilities = {"extensions": {UI_EXTENSION: {"mimeTypes": [APP_MIME]}}} if apps else {}
        params = {"protocolVersion": "2025-11-25", "capabilities": capabilities, "clientInfo": {"name": "browser-tests", "version": "1"}}
        self.info = self.request("initialize", params)
        self.notify("notifications/initialized")

    def _post(self, message):
        headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
        if self.session:
            headers["mcp-session-id"] = self.session
            headers["mcp-protocol-version"] = "2025-11-25"
        request = urllib.request.Request(self.url, data=json.dumps(message).encode(), headers=headers, method="POST")
        with urllib.request.urlopen(request, timeout=30) as response:
            self.session = self.session or response.headers.get("mcp-session-id")
            body = response.read().decode()
            kind = response.headers.get("content-type", "")
        if "id" not in message:
            return None
        if kind.startswith("text/event-stream"):
            for event in body.replace("\r\n", "\n").split("\n\n"):
                data = "\n".join(line[5:].lstrip() for line in event.split("\n") if line.startswith("data:"))
                if data.strip():
                    parsed = json.loads(data)
                    if parsed.get("id") == message["id"]:
                        return parsed
            raise AssertionError(f"no response to {message['method']} in the stream: {body[:500]}")
        return json.loads(body)

    def request(self, method, params=None):
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params or {}}
        self.next_id += 1
        response = self._post(message)
        assert "result" in response, f"{method} failed: {response}"
        return response["result"]

    def notify(self, method, params=None):
        self._post({"jsonrpc": "2.0", "method": method, **({"params": params} if params else {})})

    def call(self, name, arguments=None):
        return self.request("tools/call", {"name": name, "arguments": arguments or {}})

    def tools(self):
        return {tool["name"]: tool for tool in self.request("tools/list")["tools"]}


# ---- static servers for the test host and the view ---------------------------


class Files(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, routes):
        self.routes = routes
        super().__init__(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server_address[1]}"
        threading.Thread(target=self.serve_forever, daemon=True).start()


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (the standard library's name)
        route = self.server.routes.get(self.path.split("?")[0])
        if route is None:
            self.send_error(404)
            return
        content_type, body, extra = route
        self.send_response(200)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(body)))
        self.send_header("cache-control", "no-store")
        for name, value in extra.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


# ---- session fixtures ------------------------------------------------------------


@pytest.fixture(scope="session")
def gallery_url():
    return setting("CODEAGENT_GALLERY_URL")


@pytest.fixture(scope="session")
def fixtures_url():
    return setting("CODEAGENT_FIXTURES_URL")


@pytest.fixture(scope="session")
def gallery(gallery_url):
    return Mcp(gallery_url)


@pytest.fixture(scope="session")
def app_document(gallery):
    """The view, as an MCP Apps host gets it: resources/read of the tools' ui:// URI."""
    contents = gallery.request("resources/read", {"uri": APP_URI})["contents"]
    assert len(contents) == 1 and contents[0]["uri"] == APP_URI and contents[0]["mimeType"] == APP_MIME, contents
    assert contents[0]["text"].startswith("<!DOCTYPE html>")
    return contents[0]["text"]


@pytest.fixture(scope="session")
def origins(app_document):
    """The test host (one origin) and the view (another, served under the default CSP)."""
    bridge = HOST_DIR / "dist" / "bridge.js"
    host = Files({
        "/index.html": ("text/html; charset=utf-8", (HOST_DIR / "index.html").read_bytes(), {}),
        "/test-host.js": ("text/javascript", (HOST_DIR / "test-host.js").read_bytes(), {}),
        "/bridge.js": ("text/javascript", bridge.read_bytes(), {}),
    })
    view = Files({"/view.html": ("text/html; charset=utf-8", app_document.encode(), {"content-security-policy": VIEW_CSP})})
    yield {"host": host.origin, "view": view.origin}
    host.shutdown()
    view.shutdown()


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        executable = os.environ.get("CODEAGENT_CHROMIUM", "/usr/bin/chromium")
        browser = playwright.chromium.launch(executable_path=executable, args=BROWSER_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def screenshots():
    folder = pathlib.Path(setting("CODEAGENT_SCREENSHOTS"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def cards():
    return json.loads(pathlib.Path(setting("CODEAGENT_CARDS")).read_text())


# ---- the guarded page ----------------------------------------------------------


class Guard:
    """What a page did that it must not: errors, dialogs, trap calls, requests elsewhere."""

    def __init__(self, page, allowed_origins):
        self.page = page
        self.allowed = tuple(allowed_origins)
        self.errors = []
        self.dialogs = []
        self.requests = []
        self.refused = []
        page.on("console", lambda message: message.type == "error" and self.errors.append(f"console: {message.text}"))
        page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        page.on("dialog", self._dialog)
        page.on("request", lambda request: self.requests.append(request.url))
        page.route("**/*", self._route)

    def _dialog(self, dialog):
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def _route(self, route):
        url = route.request.url
        if url.startswith("data:") or any(url == origin or url.startswith(origin + "/") for origin in self.allowed):
            route.continue_()
        else:
            self.refused.append(url)
            route.abort()

    def trap_calls(self):
        calls = []
        for frame in self.page.frames:
            try:
                calls.extend(frame.evaluate("() => window.__xssCalls ? Array.from(window.__xssCalls) : []"))
            except Exception:  # noqa: BLE001 (a frame gone is not a call)
                pass
        return calls

    def check(self):
        assert not self.errors, f"errors in the page: {self.errors}"
        assert not self.dialogs, f"dialogs opened: {self.dialogs}"
        assert not self.refused, f"requests to other origins: {self.refused}"
        stray = [url for url in self.requests if not (url.startswith("data:") or url.startswith(self.allowed))]
        assert not stray, f"requests to other origins: {stray}"
        calls = self.trap_calls()
        assert not calls, f"injected script ran: {calls}"


@pytest.fixture
def guarded(browser, request):
    """A fresh page factory: guarded(allowed_origins, **context options) -> (page, guard)."""
    made = []

    def make(allowed_origins, **options):
        context = browser.new_context(viewport={"width": 1100, "height": 800}, **options)
        context.add_init_script(TRAP)
        page = context.new_page()
        guard = Guard(page, allowed_origins)
        made.append((context, guard))
        return page, guard

    yield make
    failed = getattr(request.node, "failed", False)
    for context, guard in made:
        try:
            if not failed:
                guard.check()
        finally:
            context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call" and report.failed:
        item.failed = True
    return report
