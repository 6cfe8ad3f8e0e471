#!/usr/bin/env bash
# First runs each target once on the inputs of the bugs it found before
# (fuzz/regressions/<target>/, one file per bug, named after it): putting a
# bug back fails this step, whatever the corpus holds. Then runs every fuzz
# target briefly (FUZZ_SECONDS each, 20 unless set) on its committed corpus,
# one process at a time, and fails on any finding (a panic, a hang past 10 s,
# an out-of-memory, a leak). New inputs go to a scratch folder, so the
# committed corpus is never changed; a finding is saved under
# fuzz/artifacts/<target>/ (reproduce it with `cargo +nightly-2026-05-20 fuzz run <target> <file>`;
# once fixed, add it to fuzz/regressions/<target>/). The corpora are minimised
# to the edges they cover (`cargo fuzz cmin <target> -- -use_counters=0`):
# libFuzzer runs every input of a corpus before it mutates any, so a corpus
# that takes longer than FUZZ_SECONDS to replay leaves no time to fuzz.
#
# Runs on one named nightly, not whatever `nightly` is today: the toolchain
# `nightly-2026-05-20` (rustc 1.97.0-nightly e50aa6fba 2026-05-19) when rustup
# has it by that name, else the toolchain `nightly` when it is that very build
# (as on the CI machines, which cannot download another); any other nightly is
# refused, naming the one to install. Installs cargo-fuzz when it is missing.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${FUZZ_SECONDS:-20}"
pinned=nightly-2026-05-20
pinned_commit=e50aa6fba

if rustc "+$pinned" -V >/dev/null 2>&1; then
    toolchain="$pinned"
elif rustc +nightly -V 2>/dev/null | grep -q "($pinned_commit "; then
    toolchain=nightly
else
    echo "fuzz/run.sh: fuzzing is pinned to $pinned (rustc $pinned_commit); found: $(rustc +nightly -V 2>&1 | head -1)" >&2
    echo "fuzz/run.sh: install it with \`rustup toolchain install $pinned\`, or move the pin in fuzz/run.sh" >&2
    exit 1
fi
echo "== fuzzing on $(rustc "+$toolchain" -V)"

if ! cargo "+$toolchain" fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi

cargo "+$toolchain" fuzz build
targets="$(cargo "+$toolchain" fuzz list)"
for target in $targets; do
    [ -d "regressions/$target" ] || continue
    echo "== $target: the inputs of earlier findings (fuzz/regressions/$target)"
    cargo "+$toolchain" fuzz run "$target" "regressions/$target"/* -- -timeout=10 -rss_limit_mb=2048
done
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for target in $targets; do
    echo "== fuzz $target (${seconds}s)"
    mkdir -p "$scratch/$target"
    cargo "+$toolchain" fuzz run "$target" "$scratch/$target" "corpus/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -dict=dict/json.dict -print_final_stats=1
done
