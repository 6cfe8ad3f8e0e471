#!/usr/bin/env bash
# Build weight of a one-tool stdio server: clean release build time and package count.
#
# Generates a throwaway crate under target/one-tool/ that serves one #[tool] over
# stdio with `codeagent = { path = ..., default-features = false }`, once against
# this checkout and once against another checkout given as the first argument (for
# example a `git worktree` of an older commit), then builds each in a fresh target
# directory, alternating, ROUNDS times (default 2). Prints the packages each
# resolves to and the median wall-clock seconds of each.
#
# Usage: scripts/one-tool-build.sh OTHER_CHECKOUT [ROUNDS]
# Run it on an otherwise idle machine: the figures are wall-clock seconds.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
other="$(cd "${1:?usage: scripts/one-tool-build.sh OTHER_CHECKOUT [ROUNDS]}" && pwd)"
rounds="${2:-2}"
out="$root/target/one-tool"

# generate NAME CHECKOUT: the crate, depending on CHECKOUT.
generate() {
    local dir="$out/$1"
    rm -rf "$dir"
    mkdir -p "$dir/src"
    cat > "$dir/Cargo.toml" <<TOML
[package]
name = "one-tool-$1"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
codeagent = { path = "$2", default-features = false }
tokio = { version = "1", features = ["rt-multi-thread", "macros"] }

[workspace]
TOML
    cat > "$dir/src/main.rs" <<'RUST'
use codeagent::prelude::*;

/// Add two integers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    Toolbox::new().tool(add).serve_stdio().await
}
RUST
    (cd "$dir" && cargo generate-lockfile --quiet)
}

generate this "$root"
generate other "$other"
for name in this other; do
    count=$(cd "$out/$name" && cargo tree -e normal --prefix none | sort -u | wc -l)
    echo "$name: $count packages (cargo tree -e normal, the crate itself included)"
done

declare -A times
for round in $(seq 1 "$rounds"); do
    for name in this other; do
        rm -rf "$out/$name/target"
        start=$(date +%s.%N)
        (cd "$out/$name" && cargo build --release --quiet)
        seconds=$(echo "$(date +%s.%N) - $start" | bc)
        times[$name]="${times[$name]:-} $seconds"
        echo "round $round $name: ${seconds}s"
    done
done
for name in this other; do
    median=$(echo "${times[$name]}" | tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')
    echo "$name: median ${median}s over $rounds clean release builds"
done
