#!/usr/bin/env bash
# Builds codeagent's gallery example and the bench binaries in release, then
# runs the Streamable HTTP benchmark with the standard settings. Extra
# arguments go to the harness (for example `--reps 3`, `--clients 1,64`,
# `--modes legacy-sse`, `--no-memory`, `--verbose`).
#
#   bench/http.sh
#
# Everything builds into the repository's one target directory.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"

(cd "$root" && cargo build --release --example gallery)
(cd "$root/bench" && cargo build --release --bins)

if pgrep -x rustc >/dev/null 2>&1; then
    echo "http.sh: warning: rustc is running; the numbers will be noisy" >&2
fi

exec "$CARGO_TARGET_DIR/release/http_bench" --duration 2 --warmup 0.5 --clients 1,16,64,256 --reps 5 \
    --sessions 10000 --session-connections 64 "$@"
