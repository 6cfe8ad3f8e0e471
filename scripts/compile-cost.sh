#!/usr/bin/env bash
# Compile cost of #[tool], measured.
#
# Generates a throwaway crate under target/compile-cost/ with 100 #[tool]
# functions of varied signatures (depending on codeagent by path), and the same
# 100 functions without the attribute as a baseline, then prints seconds for:
#
#   cold, including dependencies   `cargo build` in a fresh target directory
#   cold, the crate only           dependencies built, after `cargo clean -p`
#   after touching one tool        one tool's body edited, then `cargo build`
#   (and the crate-only cold build of the plain-function baseline)
#
# Usage: scripts/compile-cost.sh [--skip-deps]
#   --skip-deps  skip the fresh-target-directory build (the slow one)
# Run it on an otherwise idle machine: the figures are wall-clock seconds.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/target/compile-cost"
skip_deps=false
[[ "${1:-}" == "--skip-deps" ]] && skip_deps=true

# generate NAME WITH_MACRO: writes $out/NAME with 100 functions.
generate() {
    local name="$1" with_macro="$2" dir="$out/$1"
    rm -rf "$dir"
    mkdir -p "$dir/src"
    cat > "$dir/Cargo.toml" <<TOML
[package]
name = "$name"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
codeagent = { path = "$root" }
serde = { version = "1", features = ["derive"] }
schemars = "1"

[workspace]
TOML
    cp "$root/Cargo.lock" "$dir/Cargo.lock"
    local attr="" default="" range="" lib="$dir/src/lib.rs"
    if [[ "$with_macro" == true ]]; then
        attr="#[tool]"
        default="#[serde(default)] "
        range="#[schemars(range(min = 1, max = 100))] "
    fi
    cat > "$lib" <<'RUST'
//! 100 tools of varied signatures, to measure what #[tool] costs to compile.
#![allow(dead_code, clippy::all)]

use codeagent::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A point.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct Point {
    /// Horizontal.
    pub x: f64,
    /// Vertical.
    pub y: f64,
}

/// A mode.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Fast.
    Fast,
    /// Careful.
    Careful,
}

/// Shared state.
pub struct Config {
    /// A prefix.
    pub prefix: String,
}
RUST
    local i
    for i in $(seq 0 99); do
        case $((i % 8)) in
        0) cat <<RUST ;;

/// Adds two numbers ($i).
$attr
pub fn tool_$i(a: i64, b: i64) -> i64 {
    a + b + $i
}
RUST
        1) cat <<RUST ;;

/// Greets someone ($i).
$attr
pub async fn tool_$i(name: String, ctx: &Context) -> String {
    ctx.info("greeting");
    format!("{name} $i")
}
RUST
        2) cat <<RUST ;;

/// Filters items ($i).
$attr
pub fn tool_$i(
    /// The items.
    items: Vec<String>,
    /// At most this many.
    limit: Option<u32>,
) -> Json<Vec<String>> {
    Json(items.into_iter().take(limit.unwrap_or($i) as usize).collect())
}
RUST
        3) cat <<RUST ;;

/// Measures a point ($i).
$attr
pub fn tool_$i(point: Point) -> Result<f64, ToolError> {
    if point.x.is_nan() {
        return Err(ToolError::new("not a number"));
    }
    Ok(point.x.hypot(point.y) * $i.0)
}
RUST
        4) cat <<RUST ;;

/// Pages ($i).
$attr
pub fn tool_$i(${default}page: u32, ${range}size: u32) -> String {
    format!("{page} {size} $i")
}
RUST
        5) cat <<RUST ;;

/// Runs in a mode ($i).
$attr
pub async fn tool_$i(mode: Mode, config: State<Config>) -> Result<Text, ToolError> {
    let mode = match mode {
        Mode::Fast => "fast",
        Mode::Careful => "careful",
    };
    Ok(Text::new(format!("{}{mode} $i", config.prefix)))
}
RUST
        6) cat <<RUST ;;

/// A table ($i).
$attr
pub fn tool_$i() -> Result<Table, ToolError> {
    Table::from_rows(&[Point { x: $i.0, y: 0.0 }])
}
RUST
        7) cat <<RUST ;;

/// Logs ($i).
$attr
pub fn tool_$i(message: String, tags: Vec<String>, ctx: Context) {
    ctx.info(format!("{message} {} $i", tags.len()));
}
RUST
        esac
    done >> "$lib"
    if [[ "$with_macro" == false ]]; then
        # Doc comments on parameters are only allowed under #[tool].
        sed -i '/^    \/\/\/ /d' "$lib"
    else
        {
            echo
            echo "/// Every tool."
            echo "pub fn toolbox() -> Toolbox {"
            echo "    Toolbox::new()"
            for i in $(seq 0 99); do echo "        .tool(tool_$i)"; done
            echo "        .with_state(Config { prefix: String::new() })"
            echo "}"
        } >> "$lib"
    fi
}

# seconds COMMAND...: runs it quietly, prints the wall-clock seconds it took.
seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" > "$out/last.log" 2>&1 || { cat "$out/last.log" >&2; return 1; }
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }'
}

mkdir -p "$out"
generate tools100 true
generate plain100 false

cd "$out/tools100"
if [[ "$skip_deps" == false ]]; then
    rm -rf "$out/target-fresh"
    cold_all=$(CARGO_TARGET_DIR="$out/target-fresh" seconds cargo build)
    rm -rf "$out/target-fresh"
fi
export CARGO_TARGET_DIR="$out/target"
cargo build --quiet 2> /dev/null || cargo build
cargo clean --quiet -p tools100
cold_crate=$(seconds cargo build)
touch src/lib.rs
touched=$(seconds cargo build)
sed -i 's/    a + b + 8$/    a + b + 8 + 1/' src/lib.rs
edited=$(seconds cargo build)

cd "$out/plain100"
cargo build --quiet 2> /dev/null || cargo build
cargo clean --quiet -p plain100
plain_crate=$(seconds cargo build)

echo "compile cost of 100 #[tool] functions (dev profile, $(nproc) cores, $(rustc --version))"
[[ "$skip_deps" == false ]] && echo "  cold, including dependencies:        ${cold_all}s"
echo "  cold, the crate only:                ${cold_crate}s"
echo "  after touching lib.rs (mtime only):  ${touched}s"
echo "  after editing one tool's body:       ${edited}s"
echo "  baseline: the same 100 functions without #[tool], crate only: ${plain_crate}s"
