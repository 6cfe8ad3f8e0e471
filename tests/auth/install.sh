#!/usr/bin/env bash
# Installs what the authorization tests drive:
#   - the real OAuth 2.1 / OIDC issuer (oauth2-mock-server, pinned in tests/auth/package.json +
#     package-lock.json) into tests/auth/node_modules;
#   - the independent JOSE library that makes their DPoP proofs (Python joserfc, pinned in
#     tests/auth/requirements.txt) into ./.venv (made here when missing; tests/interop/install.sh
#     adds the Python MCP client to the same one).
# Needs node >= 20.19 with npm and python3 (>= 3.10, with the venv module); reaches only the npm
# registry and PyPI. Caches stay inside the clone, under .ci/cache (gitignored).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
npm ci --prefix "$here" --cache "$root/.ci/cache/npm" --no-audit --no-fund --loglevel=error
node -p '"issuer: oauth2-mock-server " + require("'"$here"'/node_modules/oauth2-mock-server/package.json").version + " on node " + process.version'

python="${PYTHON:-python3}"
mkdir -p "$root/.ci/cache/pip"
if [ ! -x "$root/.venv/bin/python" ]; then
    "$python" -m venv "$root/.venv"
fi
PIP_CACHE_DIR="$root/.ci/cache/pip" "$root/.venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    -r "$here/requirements.txt"
"$root/.venv/bin/python" -c 'import importlib.metadata as m; print("dpop proofs: joserfc", m.version("joserfc"))'
