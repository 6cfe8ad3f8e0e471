#!/usr/bin/env python3
"""`cargo codeagent dev` with the real Python MCP client (the `mcp` package) connected, and the host
page open in a real browser (Debian's chromium, driven by Playwright), across four edits of a crate
made by `cargo codeagent new`:

1. a tool's result changes: the client is sent `tools/list_changed` and the same connection gets the
   new result; a log at level `info` says the server was reloaded;
2. a tool is added: `tools/list_changed`, the tool listed and answering; the host page lists it
   without being reloaded;
3. the build fails: a log at level `error` with the compiler's errors reaches the client, the last
   good server keeps answering, and the host page shows the errors in its banner;
4. the build is mended: the banner goes, and the server answers again.

The client never reconnects: one `Client`, one stdio connection, from the first call to the last.

Usage: python dev_reload.py CARGO_CODEAGENT CRATE_DIR PORT
The crate must have been built once (so that `dev`'s first build is quick); the environment is
passed to `cargo codeagent dev` (CARGO_TARGET_DIR, ...). CODEAGENT_CHROMIUM names the browser
(/usr/bin/chromium by default). Prints one line per check and, last, ``N passed, M failed``; exits 1
if any check failed.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from pathlib import Path
from typing import Any, Callable

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp_types import Implementation
from playwright.async_api import async_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests/interop/python"))
from test_gallery import Results, only_text  # noqa: E402

BUILD_SECONDS = 240.0  # a rebuild of the crate, on a loaded 2-core machine
BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
R = Results()


class Seen:
    """What the server sent that belongs to no request: list changes and log messages."""

    def __init__(self) -> None:
        self.tools_changed = 0
        self.logs: list[types.LoggingMessageNotificationParams] = []

    async def on_message(self, message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            self.tools_changed += 1

    async def on_log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.logs.append(params)

    def logged(self, level: str, since: int) -> list[str]:
        return [str(log.data) for log in self.logs[since:] if log.level == level]


async def until(what: str, seconds: float, ready: Callable[[], Any]) -> Any:
    """Polls `ready` (a coroutine function) until it answers something true, within `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        found = await ready()
        if found:
            return found
        if time.monotonic() > deadline:
            raise TimeoutError(f"no {what} within {seconds:.0f} s")
        await anyio.sleep(0.25)


async def settled(value: Any) -> Any:
    """`value`, as what `until` awaits."""
    return value


async def greets(c: Client, expected: str, seconds: float) -> str:
    async def answer() -> str | None:
        text = only_text(await c.call_tool("greet", {"name": "Ada"}))
        return text if text == expected else None

    return await until(f"greet answering {expected!r}", seconds, answer)


async def tool_names(c: Client) -> list[str]:
    return sorted(tool.name for tool in (await c.list_tools()).tools)


async def run(codeagent: str, crate: Path, port: int) -> None:
    lib = crate / "src/lib.rs"
    original = lib.read_text()
    seen = Seen()
    params = StdioServerParameters(
        command=codeagent,
        args=["dev", "--http", f"127.0.0.1:{port}", "--ui"],
        cwd=str(crate),
        env=dict(os.environ),
    )
    client = Client(
        params,
        mode="legacy",  # the gateway's own logs (a failed build) go to clients of the legacy era
        read_timeout_seconds=BUILD_SECONDS,
        logging_callback=seen.on_log,
        message_handler=seen.on_message,
        cache=None,  # every tools/list goes to the server
        client_info=Implementation(name="codeagent-dev-test", version="1.0.0"),
    )
    async with client as c, async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=os.environ.get("CODEAGENT_CHROMIUM", "/usr/bin/chromium"), args=BROWSER_ARGS
        )
        page = await browser.new_page()
        try:
            R.eq("as created, greet answers", only_text(await c.call_tool("greet", {"name": "Ada"})), "Hello, Ada!")
            await page.goto(f"http://127.0.0.1:{port}/")
            await page.wait_for_selector('[data-connection="ready"]', state="attached")
            R.check("the host page lists greet", await page.locator('[data-tool="greet"]').count() == 1)

            # 1. A tool's result changes.
            changes, logs = seen.tools_changed, len(seen.logs)
            lib.write_text(original.replace('format!("Hello, {name}!")', 'format!("Howdy, {name}!")'))
            await until("tools/list_changed after the edit", BUILD_SECONDS, lambda: settled(seen.tools_changed > changes))
            R.eq("after an edit, the same connection gets the new result", await greets(c, "Howdy, Ada!", 60), "Howdy, Ada!")
            reloaded = await until("an info log of the reload", 10, lambda: settled(seen.logged("info", logs)))
            R.contains("an info log says the server was reloaded", reloaded[0], "rebuilt and reloaded")

            # 2. A tool is added.
            added = original.replace('format!("Hello, {name}!")', 'format!("Howdy, {name}!")').replace(
                "/// What this server offers",
                "/// Add two numbers.\n#[tool(read_only)]\npub fn add(\n    /// The first number.\n    a: i64,\n"
                "    /// The second number.\n    b: i64,\n) -> i64 {\n    a + b\n}\n\n/// What this server offers",
            ).replace(".tool(greet)", ".tool(greet).tool(add)")
            R.check("the edit adds a tool to the source", "tool(add)" in added, "the crate's src/lib.rs changed shape")
            lib.write_text(added)

            async def lists_add() -> list[str] | None:
                names = await tool_names(c)
                return names if "add" in names else None

            R.eq("after adding a tool, it is listed", await until("a listed `add`", BUILD_SECONDS, lists_add), ["add", "greet"])
            R.eq("the new tool answers", only_text(await c.call_tool("add", {"a": 2, "b": 3})), "5")
            await page.wait_for_selector('[data-tool="add"]', state="attached", timeout=30_000)
            R.check("the host page lists the new tool without a reload", await page.locator("[data-tool]").count() == 2)

            # 3. The build fails.
            logs = len(seen.logs)
            lib.write_text(added.replace("a + b", "a + b + undefined_name"))
            errors = await until("an error log after a failed build", BUILD_SECONDS, lambda: settled(seen.logged("error", logs)))
            R.contains("the error log has the compiler's error", errors[0], "E0425")
            R.contains("the error log names what is wrong", errors[0], "undefined_name")
            R.contains("the error log says the last good server serves", errors[0], "last good server keeps serving")
            R.eq("the last good server answers", only_text(await c.call_tool("add", {"a": 2, "b": 3})), "5")
            banner = page.locator("[data-banner]")
            await banner.wait_for(state="visible", timeout=30_000)
            R.eq("the host page's banner says it is an error", await banner.get_attribute("data-level"), "error")
            R.contains("the host page's banner shows the compiler's error", await banner.inner_text(), "undefined_name")

            # 4. The build is mended.
            changes = seen.tools_changed
            lib.write_text(added.replace("a + b", "a + b + 1"))
            await until("tools/list_changed after the mend", BUILD_SECONDS, lambda: settled(seen.tools_changed > changes))

            async def sums_to_six() -> bool:
                return only_text(await c.call_tool("add", {"a": 2, "b": 3})) == "6"

            R.check("the mended server answers", bool(await until("add answering 6", 60, sums_to_six)))
            await banner.wait_for(state="hidden", timeout=30_000)
            R.check("the banner is gone after a good build", not await banner.is_visible())
            R.eq("one connection throughout: greet still answers", only_text(await c.call_tool("greet", {"name": "Ada"})), "Howdy, Ada!")
        finally:
            await browser.close()
            lib.write_text(original)


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    codeagent, crate, port = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
    try:
        anyio.run(run, codeagent, crate, port)
    except BaseException as error:  # noqa: BLE001 - any escape is a failure to report
        R.check("the run completes without raising", False, f"{type(error).__name__}: {error}")
        traceback.print_exc()
    print(f"{R.passed} passed, {R.failed} failed", flush=True)
    return 1 if R.failed or not R.passed else 0


if __name__ == "__main__":
    sys.exit(main())
