#!/usr/bin/env bash
# The regression guard: builds codeagent's gallery and the bench binaries in
# release, then runs the comparisons the goals are stated against, side by
# side in one run each, and prints every ratio next to its goal:
#
#   1. large results through the whole server (large_result_bench): a
#      100,000 x 5 table (2026-07-28 and legacy versions, stdio and HTTP) and
#      the same rows as `Json`, against `serde_json::to_vec` of the rows, and
#      the server's peak memory over the response's size;
#   2. stdio, `tools/call` at 64 in flight, against the hand-written baseline
#      (stdio_bench);
#   3. Streamable HTTP at 64 clients, against rmcp as it ships and with
#      TCP_NODELAY, in all four modes (http_bench).
#
#   bench/guard.sh           # 5 repetitions of each
#   bench/guard.sh --quick   # 3 repetitions, shorter HTTP runs
#
# Timing is never asserted (CI only compiles this): read the ratios, which
# are measured alternately in one run, so they hold on a shared machine.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
bin="$CARGO_TARGET_DIR/release"

reps=5
duration=2
case "${1:-}" in
    --quick) reps=3; duration=1 ;;
    "") ;;
    *) echo "usage: bench/guard.sh [--quick]" >&2; exit 2 ;;
esac

(cd "$root" && cargo build --release --example gallery)
(cd "$root/bench" && cargo build --release --bins)

if pgrep -x rustc >/dev/null 2>&1; then
    echo "guard.sh: warning: rustc is running; the numbers will be noisy" >&2
fi
echo "load: $(uptime)"

echo
echo "== 1. Large results through the server (goals: table >= 0.70x serde_json, legacy too; Json >= 0.45x; peak <= 3x)"
"$bin/large_result_bench" --reps "$reps"

echo
echo "== 2. stdio, tools/call at 64 in flight, against the hand-written baseline (goal: >= 0.75x)"
stdio="$("$bin/stdio_bench" --requests 20000 --warmup 2000 --inflight 64 --reps "$reps" --no-pipes)"
echo "$stdio"
echo "$stdio" | awk -F'|' '
    $2 ~ /^ codeagent $/ && $3 ~ / 64 / { ours = $4 + 0 }
    $2 ~ /^ baseline $/ && $3 ~ / 64 / { base = $4 + 0 }
    END {
        if (ours > 0 && base > 0) {
            ratio = ours / base
            printf "\nstdio, 64 in flight: codeagent / baseline = %.2fx (goal >= 0.75x: %s)\n", ratio, (ratio >= 0.75 ? "met" : "NOT MET")
        }
    }'

echo
echo "== 3. Streamable HTTP, 64 clients (goals: SSE >= 5x rmcp as it ships; ahead of rmcp with TCP_NODELAY and of its JSON modes in every mode)"
"$bin/http_bench" --duration "$duration" --warmup 0.5 --clients 64 --reps "$reps" --no-memory
