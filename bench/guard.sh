#!/usr/bin/env bash
# The regression guard: builds codeagent's gallery and the bench binaries in
# release, then runs the comparisons the goals are stated against, side by
# side in one run each, and prints every ratio next to its goal:
#
#   1. large results through the whole server (large_result_bench): a
#      100,000 x 5 table (2026-07-28 and legacy versions, stdio and HTTP) and
#      the same rows as `Json` (per byte written), against `serde_json::to_vec`
#      of the rows, and the server's peak memory over the response's size;
#   2. stdio, `tools/call` at 64 in flight, against the hand-written baseline
#      (stdio_bench), with the server's CPU per call;
#   3. Streamable HTTP at 64 clients, against rmcp as it ships and with
#      TCP_NODELAY, in all four modes (http_bench);
#   4. the MCP client's CPU per call over stdio, against rmcp's client
#      (client_bench);
#   5. build weight (bench/build-weight.sh): a one-tool server's clean release
#      build, and the rebuild after editing one tool's body in crates of 100
#      tools written four ways, against the same crates on rmcp.
#
#   bench/guard.sh             # 5 repetitions of each, 3 builds of each kind
#   bench/guard.sh --quick     # 3 repetitions, shorter HTTP runs, 1 build of each kind
#   bench/guard.sh --no-build  # without part 5 (the longest: about 15 minutes on 2 cores)
#
# Timing is never asserted (CI only compiles this): read the ratios, which
# are measured alternately in one run, so they hold on a shared machine.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
bin="$CARGO_TARGET_DIR/release"

reps=5
duration=2
rounds=3
build=1
for argument in "$@"; do
    case "$argument" in
        --quick) reps=3; duration=1; rounds=1 ;;
        --no-build) build=0 ;;
        *) echo "usage: bench/guard.sh [--quick] [--no-build]" >&2; exit 2 ;;
    esac
done

(cd "$root" && cargo build --release --example gallery)
(cd "$root/bench" && cargo build --release --bins)

if pgrep -x rustc >/dev/null 2>&1; then
    echo "guard.sh: warning: rustc is running; the numbers will be noisy" >&2
fi
echo "load: $(uptime)"

echo
echo "== 1. Large results through the server (goals: table >= 0.70x serde_json, legacy too; Json >= 0.70x per byte; peak <= 3x)"
"$bin/large_result_bench" --reps "$reps"

echo
echo "== 2. stdio, tools/call at 64 in flight, against the hand-written baseline (goal: >= 0.80x)"
stdio="$("$bin/stdio_bench" --requests 20000 --warmup 2000 --inflight 64 --reps "$reps" --no-pipes)"
echo "$stdio"
echo "$stdio" | awk -F'|' '
    $2 ~ /^ codeagent $/ && $3 ~ / 64 / { ours = $4 + 0 }
    $2 ~ /^ baseline $/ && $3 ~ / 64 / { base = $4 + 0 }
    END {
        if (ours > 0 && base > 0) {
            ratio = ours / base
            printf "\nstdio, 64 in flight: codeagent / baseline = %.2fx (goal >= 0.80x: %s)\n", ratio, (ratio >= 0.80 ? "met" : "NOT MET")
        }
    }'
# The server's CPU per call beside the baseline's (the steadier figure on a loaded machine).
echo "$stdio" | grep '^in-flight 64: codeagent / baseline' || true

echo
echo "== 3. Streamable HTTP, 64 clients (goals: SSE >= 5x rmcp as it ships; ahead of rmcp with TCP_NODELAY and of its JSON modes in every mode)"
"$bin/http_bench" --duration "$duration" --warmup 0.5 --clients 64 --reps "$reps" --no-memory

echo
echo "== 4. The MCP client's CPU per call over stdio, against rmcp's client (goal: <= 0.35x)"
client="$("$bin/client_bench" --transports stdio --calls 5000 --warmup 500 --inflight 1,16 --reps "$reps")"
echo "$client"
echo "$client" | sed -n 's/^stdio *\([^ ]*\) in-flight \([0-9]*\):.*client CPU .*, ratio \([0-9.]*\)$/\1 \2 \3/p' |
    while read -r version inflight ratio; do
        awk -v v="$version" -v k="$inflight" -v r="$ratio" 'BEGIN {
            printf "client CPU per call, stdio %s, %s in flight: codeagent / rmcp = %.2fx (goal <= 0.35x: %s)\n", v, k, r, (r <= 0.35 ? "met" : "NOT MET")
        }'
    done

echo
echo "== 5. Build weight: a one-tool server's clean release build; the rebuild after editing one tool's body (goals: <= 0.5x rmcp)"
if [ "$build" = 1 ]; then
    bash "$root/bench/build-weight.sh" --rounds "$rounds"
else
    echo "(skipped: --no-build)"
fi
