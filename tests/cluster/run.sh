#!/usr/bin/env bash
# The multi-instance test (tests/cluster/test_cluster.py): two gallery instances sharing legacy
# sessions through a real Redis, behind a real nginx (round robin). Installs Debian's redis-server
# and nginx-light with apt-get when missing (needs root), builds the gallery with the `redis`
# feature (or with CODEAGENT_FEATURES, a list that must include `redis`: .ci/run passes the one
# feature set its later stages share, so that they share one build), and runs the checks with the Python `mcp` client of tests/interop/install.sh (.venv).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

if ! command -v redis-server > /dev/null || ! command -v nginx > /dev/null; then
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get > /dev/null; then
        echo "run.sh: redis-server or nginx is missing; install Debian's redis-server and nginx-light as root" >&2
        exit 1
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server nginx-light > /dev/null
fi
# The packages start nothing here (no init system); the test starts its own on free ports.
if [ ! -x .venv/bin/python ]; then
    bash tests/interop/install.sh
fi

features="${CODEAGENT_FEATURES:-redis}"
if [[ ! ",$features," =~ ,redis, ]]; then
    echo "run.sh: CODEAGENT_FEATURES=$features does not include redis, which the cluster needs" >&2
    exit 2
fi
cargo build -p codeagent --features "$features" --example gallery
# Copied at once: a later cargo command may rebuild the example without the feature.
binary="$(mktemp -d)/gallery"
trap 'rm -rf "$(dirname "$binary")"' EXIT
cp "${CARGO_TARGET_DIR:-target}/debug/examples/gallery" "$binary"
.venv/bin/python tests/cluster/test_cluster.py "$binary"
