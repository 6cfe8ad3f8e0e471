#!/usr/bin/env bash
# Builds codeagent's gallery example (the one server of both clients) and the
# client benchmark in release, then runs it with the standard settings: the
# codeagent client against rmcp 3.11's, over stdio and Streamable HTTP, in
# both protocol eras. Extra arguments go to the harness (for example
# `--reps 3`, `--inflight 1,64`, `--transports http`, `--eras legacy`,
# `--threads 2`, `--verbose`).
#
#   bench/client.sh
#
# Everything builds into the repository's one target directory.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"

(cd "$root" && cargo build --release --example gallery)
(cd "$root/bench" && cargo build --release --bin client_bench)

if pgrep -x rustc >/dev/null 2>&1; then
    echo "client.sh: warning: rustc is running; the numbers will be noisy" >&2
fi

exec "$CARGO_TARGET_DIR/release/client_bench" --calls 5000 --warmup 500 --inflight 1,16 --reps 5 "$@"
