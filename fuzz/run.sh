#!/usr/bin/env bash
# Runs every fuzz target briefly (FUZZ_SECONDS each, 20 unless set) on its
# committed corpus, one process at a time, and fails on any finding (a panic,
# a hang past 10 s, an out-of-memory, a leak). New inputs go to a scratch
# folder, so the committed corpus is never changed; a finding is saved under
# fuzz/artifacts/<target>/ (reproduce it with `cargo +nightly fuzz run <target> <file>`).
#
# Needs the nightly toolchain; installs cargo-fuzz when it is missing.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${FUZZ_SECONDS:-20}"

if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi

cargo +nightly fuzz build
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for target in $(cargo +nightly fuzz list); do
    echo "== fuzz $target (${seconds}s)"
    mkdir -p "$scratch/$target"
    cargo +nightly fuzz run "$target" "$scratch/$target" "corpus/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -dict=dict/json.dict -print_final_stats=1
done
