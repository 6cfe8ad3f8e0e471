#!/usr/bin/env python3
"""Interop test: the Python MCP client's own OAuth 2.1 (``mcp.client.auth.OAuthClientProvider``) against
the codeagent gallery serving as a resource server (``--http ADDR --auth-issuer ISSUER --auth-resource
URL --auth-scopes "sales:read sales:write"``, built with the ``auth`` feature) and a real issuer
(oauth2-mock-server, ``tests/auth/issuer.mjs``), in both protocol eras.

The client starts without a token: the gallery's 401 names its protected resource metadata, which names
the issuer; the client reads the issuer's metadata, runs the authorization code flow with PKCE (the
issuer approves at once: the redirect handler follows its redirect) for a token bound to the gallery
(``resource``), and sends its requests again with it. Then: the tools are listed (``delete_region``
too, since the challenge's scope granted ``sales:write``), ``add`` is called, a request without the
token is refused, and one with a forged token too.

Usage: python test_oauth.py PATH/TO/gallery ISSUER_URL
Prints one line per check and, last, ``N passed, M failed``; exits 1 if any check failed.
"""

from __future__ import annotations

import sys
import traceback
from urllib.parse import parse_qs, urlsplit

import anyio
import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken
from mcp_types import Implementation
from test_gallery import MODERN, REQUEST_TIMEOUT, Results, serve_http, stop, text_blocks

CALLBACK = "http://127.0.0.1:9/callback"
R = Results()


class Memory:
    """Token storage in memory, with the client registered at the issuer beforehand (it offers no
    dynamic registration)."""

    def __init__(self, issuer: str) -> None:
        self.tokens: OAuthToken | None = None
        self.client = OAuthClientInformationFull(
            client_id="codeagent-interop",
            redirect_uris=[CALLBACK],
            token_endpoint_auth_method="none",
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            issuer=issuer,
        )

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class Browser:
    """The person's browser: it opens the authorization URL, and the issuer redirects at once."""

    def __init__(self) -> None:
        self.landed: str | None = None
        self.opened: list[str] = []

    async def open(self, url: str) -> None:
        self.opened.append(url)
        async with httpx2.AsyncClient(follow_redirects=False) as http:
            response = await http.get(url)
        self.landed = response.headers.get("location")

    async def callback(self) -> AuthorizationCodeResult:
        query = parse_qs(urlsplit(self.landed or "").query)
        first = lambda name: query.get(name, [None])[0]  # noqa: E731
        return AuthorizationCodeResult(code=first("code") or "", state=first("state"), iss=first("iss"))


async def run(url: str, issuer: str, mode: str) -> None:
    storage, browser = Memory(issuer), Browser()
    provider = OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(redirect_uris=[CALLBACK], token_endpoint_auth_method="none"),
        storage=storage,
        redirect_handler=browser.open,
        callback_handler=browser.callback,
    )
    async with httpx2.AsyncClient(auth=provider, timeout=REQUEST_TIMEOUT) as http:
        client = Client(
            streamable_http_client(url, http_client=http),
            mode=mode,
            read_timeout_seconds=REQUEST_TIMEOUT,
            cache=None,
            client_info=Implementation(name="codeagent-interop-oauth", version="1.0.0"),
        )
        async with client as c:
            R.eq("negotiated protocol version", c.protocol_version, MODERN if mode != "legacy" else "2025-11-25")
            names = {tool.name for tool in (await c.list_tools()).tools}
            R.check("lists the reading tools", {"add", "sales_table"} <= names, f"{sorted(names)}")
            R.check("lists delete_region: the token has sales:write", "delete_region" in names, f"{sorted(names)}")
            result = await c.call_tool("add", {"a": 2, "b": 3})
            R.eq("add through the token", text_blocks(result), ["5"])
    R.eq("one authorization, in a browser", len(browser.opened), 1)
    asked = parse_qs(urlsplit(browser.opened[0] if browser.opened else "").query)
    R.eq("asked for the gallery as the resource", asked.get("resource"), [url])
    R.eq("asked for the challenge's scopes", asked.get("scope"), ["sales:read sales:write"])
    R.eq("with PKCE S256", asked.get("code_challenge_method"), ["S256"])
    R.check("a token was issued", storage.tokens is not None and bool(storage.tokens.access_token))

    # Without the token, or with a forged one, the gallery refuses.
    async with httpx2.AsyncClient() as http:
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
        headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
        response = await http.post(url, json=body, headers=headers)
        R.eq("no token: 401", response.status_code, 401)
        R.contains("no token: the challenge names the metadata", response.headers.get("www-authenticate"), "resource_metadata=")
        forged = {**headers, "authorization": "Bearer eyJhbGciOiJub25lIn0.e30."}
        response = await http.post(url, json=body, headers=forged)
        R.eq("a forged token: 401", response.status_code, 401)
        R.contains("a forged token: invalid_token", response.headers.get("www-authenticate"), 'error="invalid_token"')


async def main(gallery: str, issuer: str) -> int:
    scopes = ["--auth-scopes", "sales:read sales:write"]
    process, url = serve_http([gallery], lambda url: ["--auth-issuer", issuer, "--auth-resource", url, *scopes])
    try:
        for mode in ["legacy", MODERN]:
            R.prefix = f"[{mode}] "
            try:
                with anyio.fail_after(120):
                    await run(url, issuer, mode)
            except BaseException as error:  # noqa: BLE001 - connection failures arrive as ExceptionGroups
                if isinstance(error, KeyboardInterrupt):
                    raise
                R.check("the session runs to the end", False, f"{type(error).__name__}: {error}")
                traceback.print_exception(error)
    finally:
        stop(process)
    R.prefix = ""
    if R.failures:
        print("\nfailed checks:\n  " + "\n  ".join(R.failures))
    print(f"{R.passed} passed, {R.failed} failed", flush=True)
    return 1 if R.failed or not R.passed else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(f"usage: {sys.argv[0]} PATH/TO/gallery ISSUER_URL")
    sys.exit(anyio.run(main, sys.argv[1], sys.argv[2]))


