#!/usr/bin/env bash
# Installs the real OAuth 2.1 / OIDC issuer of the authorization tests
# (oauth2-mock-server, pinned in tests/auth/package.json + package-lock.json) into
# tests/auth/node_modules. Needs node >= 20.19 with npm; reaches only the npm registry.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
npm ci --prefix "$here" --cache "$root/.ci/cache/npm" --no-audit --no-fund --loglevel=error
node -p '"issuer: oauth2-mock-server " + require("'"$here"'/node_modules/oauth2-mock-server/package.json").version + " on node " + process.version'
