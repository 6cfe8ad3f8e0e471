#!/usr/bin/env bash
# Installs what the browser tests (tests/programs/browser.rs, tests/browser/*.py) need:
#   - Debian's `chromium` package, when /usr/bin/chromium is missing (apt-get; needs root);
#   - Playwright for Python and pytest (pinned in tests/browser/requirements.txt) into ./.venv;
#     Playwright drives the Debian browser: no browser is downloaded;
#   - the test host's npm packages (the official MCP Apps AppBridge from
#     @modelcontextprotocol/ext-apps, and esbuild; pinned in tests/browser/host/package.json and
#     package-lock.json), and the bridge bundled for the browser into tests/browser/host/dist.
# Reaches only Debian's archive, PyPI and the npm registry. Caches stay inside the clone, under
# .ci/cache (gitignored). Re-running is cheap.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

cache="$root/.ci/cache"
mkdir -p "$cache/pip" "$cache/npm"

chromium="${CODEAGENT_CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get > /dev/null; then
        echo "install.sh: $chromium is missing; install Debian's chromium package (apt-get install chromium) as root" >&2
        exit 1
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium > /dev/null
fi
echo "browser: $("$chromium" --version 2>/dev/null | head -n 1)"

python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
PIP_CACHE_DIR="$cache/pip" .venv/bin/python -m pip install --quiet --disable-pip-version-check \
    -r tests/browser/requirements.txt
.venv/bin/python -c 'import importlib.metadata as m; print("python: playwright", m.version("playwright") + ", pytest", m.version("pytest"))'

node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 20 ]; then
    echo "install.sh: node $(node --version) is too old; @modelcontextprotocol/ext-apps needs Node >= 20" >&2
    exit 1
fi
npm ci --prefix tests/browser/host --cache "$cache/npm" --no-audit --no-fund --loglevel=error
npm run --prefix tests/browser/host --silent build
node -p '"test host: @modelcontextprotocol/ext-apps " + require("./tests/browser/host/node_modules/@modelcontextprotocol/ext-apps/package.json").version + ", bundled into tests/browser/host/dist/bridge.js"'
