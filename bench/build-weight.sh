#!/usr/bin/env bash
# Build weight of codeagent against rmcp 3.11, measured in one run.
#
#   one tool   a one-tool stdio server (`add(a, b)`), codeagent with
#              `default-features = false` against bench/src/bin/rmcp_add_server.rs
#              (rmcp: `server`, `macros`, `transport-io`): clean release builds in
#              fresh target directories, alternating, ROUNDS times each. Prints
#              the packages each resolves to, binary sizes, median wall-clock and
#              CPU seconds, and the ratios; `--timings` reports of the last round
#              are left in each crate's target/cargo-timings/.
#   100 tools  a stdio server of 100 tools of 8 varied signatures, codeagent
#              (`#[tool]` functions) against rmcp (`#[tool_router]` with 100
#              `#[tool]` methods taking `Parameters<Args>`), dev profile,
#              alternating, ROUNDS times each:
#                cold, including dependencies   fresh target directory
#                cold, the crate only           dependencies built, after `cargo clean -p`
#                after editing one tool's body  `a + b + 8` gets a longer constant
#                                               each round, incremental
#
#   fixtures   three more crates of 100 tools written other ways (two-argument
#              functions in one file, `#[toolbox]` methods, functions in 10
#              modules), each against its rmcp counterpart: the rebuild after
#              editing one tool's body, dev profile, alternating, ROUNDS edits
#              each (see "fixtures" below)
#
# Each ratio is printed with its goal (issue #25): at most 0.5x rmcp's time
# for the one-tool release build (wall and CPU), the 100-tool crate's cold
# build and its rebuild after the edit; at most 50 packages.
#
# Usage: bench/build-weight.sh [--rounds N] [--only one|hundred|fixtures|check] [--wait SECONDS] [--before DIR]
#   --rounds N      builds of each kind and SDK (default 3)
#   --before DIR    also build the same crates on the codeagent checked out in
#                   DIR (e.g. a `git worktree` of an earlier commit), as a third
#                   SDK, `before`, taking turns with the other two: before and
#                   after a change, measured in one run
#   --only PART     run one part only; `check` only generates the crates and
#                   `cargo check`s them
#   --wait SECONDS  before each build, wait up to this long for other compilers
#                   to finish (default 60); the count of other rustc processes
#                   at the start of each build is printed either way
#
# The generated crates and their target directories are under
# target/build-weight/. Both SDKs resolve the same versions of the crates they
# share: the codeagent crates start from the repository's Cargo.lock, the rmcp
# crates from bench/Cargo.lock. Run it on an otherwise idle machine: the
# figures are wall-clock seconds, and the machine's cores are shared with
# anything else that runs.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/target/build-weight"
rounds=3
only=""
wait_max=60
before=""
while [[ $# -gt 0 ]]; do
    case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --wait) wait_max="$2"; shift 2 ;;
    --before) before="$(cd "$2" && pwd)"; shift 2 ;;
    *) echo "usage: bench/build-weight.sh [--rounds N] [--only one|hundred|fixtures|check] [--wait SECONDS] [--before DIR]" >&2; exit 2 ;;
    esac
done
unset CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR
mkdir -p "$out"

# ---------------------------------------------------------------- helpers

# wait_quiet: waits (up to --wait seconds) until no rustc runs; prints how many still do.
wait_quiet() {
    local waited=0
    while pgrep -x rustc > /dev/null 2>&1 && ((waited < wait_max)); do
        sleep 2
        waited=$((waited + 2))
    done
    pgrep -c -x rustc 2> /dev/null || true
}

# timed DIR TARGET_DIR CARGO_ARGS...: builds quietly; prints "WALL CPU" seconds
# (CPU: user + system of cargo and every compiler it ran). A failed build
# fails it; its callers assign its output (`built=$(timed ...)`), so that
# `set -e` stops the script there.
timed() {
    local dir="$1" target="$2" times
    shift 2
    times=$({
        TIMEFORMAT='%R %U %S'
        time (cd "$dir" && CARGO_TARGET_DIR="$target" cargo build "$@" > "$out/last.log" 2>&1)
    } 2>&1) || {
        cat "$out/last.log" >&2
        exit 1
    }
    awk '{ printf "%.1f %.1f", $1, $2 + $3 }' <<< "$times"
}

# goal RATIO LIMIT: the verdict on an "at most LIMIT" goal.
goal() {
    awk -v r="$1" -v g="$2" 'BEGIN { printf "at most %s: %s", g, (r + 0 <= g + 0 ? "met" : "not met") }'
}

# median NUMBERS...
median() {
    printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'
}

# ratio A B: A / B, two decimals.
ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
}

# packages DIR: the packages the crate builds (`cargo tree -e normal,build`,
# each name and version once, the crate itself included).
packages() {
    (cd "$1" && cargo tree -e normal,build --prefix none) | sed 's/ (\*)$//; s/ (proc-macro)//' | sort -u | wc -l
}

# manifest DIR NAME DEPENDENCIES: a crate of its own (its own [workspace]).
manifest() {
    mkdir -p "$1/src"
    cat > "$1/Cargo.toml" <<TOML
[package]
name = "$2"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
$3

[workspace]
TOML
}

# codeagent_deps ROOT: the dependencies of a codeagent crate on the checkout ROOT.
codeagent_deps() {
    printf 'codeagent = { path = "%s", default-features = false }\ntokio = { version = "1", features = ["rt-multi-thread", "macros"] }' "$1"
}

# The SDKs measured: codeagent, `before` (with --before), rmcp.
sdks="codeagent${before:+ before} rmcp"

# checkout NAME: the codeagent checkout of SDK NAME.
checkout() {
    [[ $1 == before ]] && echo "$before" || echo "$root"
}

# in_turn ROUND: the SDKs in the order of round ROUND (the first one moves to
# the back each round).
in_turn() {
    local -a list
    read -r -a list <<< "$sdks"
    local shift=$((($1 - 1) % ${#list[@]}))
    echo "${list[@]:shift} ${list[@]:0:shift}"
}
rmcp_deps="rmcp = { version = \"=3.11.0\", default-features = false, features = [\"server\", \"macros\", \"transport-io\"] }
tokio = { version = \"1\", features = [\"rt-multi-thread\", \"macros\", \"io-std\"] }
serde = { version = \"1\", features = [\"derive\"] }
serde_json = \"1\"
schemars = \"1\""

# settle DIR LOCKFILE: starts from LOCKFILE, so both SDKs share versions.
settle() {
    cp "$2" "$1/Cargo.lock"
    (cd "$1" && cargo tree --quiet > /dev/null)
}

echo "build weight: $(nproc) cores, $(rustc --version), $(date -u +%Y-%m-%dT%H:%MZ)"
echo "codeagent at $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet || echo ' (with uncommitted changes)')"
[[ -n $before ]] && echo "before: codeagent at $(git -C "$before" rev-parse --short HEAD) ($before)"

# ---------------------------------------------------------------- one tool

generate_one() {
    local rm="$out/one-rmcp" name
    rm -rf "$out"/one-*
    for name in $sdks; do
        [[ $name == rmcp ]] || one_codeagent "$out/one-$name" "one-tool-$name" "$(checkout "$name")"
    done
    manifest "$rm" one-tool-rmcp "$rmcp_deps"
    # The server of the stdio benchmark, with its `Adder` (a module of the
    # bench package's library there) as a module of its own.
    cp "$root/bench/src/rmcp_adder.rs" "$rm/src/rmcp_adder.rs"
    sed 's/^use codeagent_bench::rmcp_adder::Adder;$/mod rmcp_adder;\n\nuse rmcp_adder::Adder;/' \
        "$root/bench/src/bin/rmcp_add_server.rs" > "$rm/src/main.rs"
    settle "$rm" "$root/bench/Cargo.lock"
}

# one_codeagent DIR PACKAGE ROOT: the one-tool server on the checkout ROOT.
one_codeagent() {
    local ca="$1"
    manifest "$ca" "$2" "$(codeagent_deps "$3")"
    cat > "$ca/src/main.rs" <<'RUST'
use codeagent::prelude::*;

/// Add two integers.
#[tool]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    Toolbox::new().tool(add).serve_stdio().await
}
RUST
    settle "$ca" "$3/Cargo.lock"
}

one_tool() {
    generate_one
    local -A walls=() cpus=()
    local round name dir others wall cpu built
    echo
    echo "== one-tool stdio server: clean release builds, fresh target directories"
    for round in $(seq 1 "$rounds"); do
        for name in $(in_turn "$round"); do
            dir="$out/one-$name"
            rm -rf "$dir/target"
            others=$(wait_quiet)
            built=$(timed "$dir" "$dir/target" --release --timings)
            read -r wall cpu <<< "$built"
            echo "round $round $name: ${wall}s wall, ${cpu}s CPU (other rustc at start: $others)"
            walls[$name]+=" $wall" cpus[$name]+=" $cpu"
        done
    done
    local -A w=() c=()
    echo
    printf '| %s | %s | %s | %s | %s |\n' "one-tool server (release)" "packages" "binary" "median wall" "median CPU"
    printf '| %s | %s | %s | %s | %s |\n' --- ---: ---: ---: ---:
    for name in $sdks; do
        dir="$out/one-$name"
        # shellcheck disable=SC2086
        w[$name]=$(median ${walls[$name]}) c[$name]=$(median ${cpus[$name]})
        printf '| %s | %s | %s KiB | %ss | %ss |\n' "$name" "$(packages "$dir")" \
            "$(($(stat -c %s "$dir/target/release/one-tool-$name") / 1024))" "${w[$name]}" "${c[$name]}"
    done
    local r_w r_c count
    for name in $sdks; do
        [[ $name == rmcp ]] && continue
        r_w=$(ratio "${w[$name]}" "${w[rmcp]}") r_c=$(ratio "${c[$name]}" "${c[rmcp]}") count=$(packages "$out/one-$name")
        echo "$name / rmcp: ${r_w}x wall (goal $(goal "$r_w" 0.5x)), ${r_c}x CPU (goal $(goal "$r_c" 0.5x)); $count packages (goal $(goal "$count" 50)); $rounds builds each"
    done
    echo "cargo --timings reports of the last round: $out/one-*/target/cargo-timings/"
}

# ---------------------------------------------------------------- 100 tools

# hundred_codeagent DIR PACKAGE ROOT: 100 #[tool] functions of 8 signatures,
# served on stdio, on the codeagent checkout ROOT. `undocumented`: most of
# their arguments have no doc comment (as rmcp's fields here have none).
hundred_codeagent() {
    local dir="$1" i
    manifest "$dir" "$2" "$(codeagent_deps "$3")
serde = { version = \"1\", features = [\"derive\"] }
schemars = \"1\""
    {
        cat <<'RUST'
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
        for i in $(seq 0 99); do
            case $((i % 8)) in
            0) cat <<RUST ;;

/// Adds two numbers ($i).
#[tool(undocumented)]
pub fn tool_$i(a: i64, b: i64) -> i64 {
    a + b + $i
}
RUST
            1) cat <<RUST ;;

/// Greets someone ($i).
#[tool(undocumented)]
pub async fn tool_$i(name: String, ctx: &Context) -> String {
    ctx.info("greeting");
    format!("{name} $i")
}
RUST
            2) cat <<RUST ;;

/// Filters items ($i).
#[tool(undocumented)]
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
#[tool(undocumented)]
pub fn tool_$i(point: Point) -> Result<f64, ToolError> {
    if point.x.is_nan() {
        return Err(ToolError::new("not a number"));
    }
    Ok(point.x.hypot(point.y) * $i.0)
}
RUST
            4) cat <<RUST ;;

/// Pages ($i).
#[tool(undocumented)]
pub fn tool_$i(#[serde(default)] page: u32, #[schemars(range(min = 1, max = 100))] size: u32) -> String {
    format!("{page} {size} $i")
}
RUST
            5) cat <<RUST ;;

/// Runs in a mode ($i).
#[tool(undocumented)]
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
#[tool(undocumented)]
pub fn tool_$i() -> Result<Table, ToolError> {
    Table::from_rows(&[Point { x: $i.0, y: 0.0 }])
}
RUST
            7) cat <<RUST ;;

/// Logs ($i).
#[tool(undocumented)]
pub fn tool_$i(message: String, tags: Vec<String>, ctx: Context) {
    ctx.info(format!("{message} {} $i", tags.len()));
}
RUST
            esac
        done
        echo
        echo "#[tokio::main]"
        echo "async fn main() -> std::io::Result<()> {"
        echo "    Toolbox::new()"
        for i in $(seq 0 99); do echo "        .tool(tool_$i)"; done
        echo "        .with_state(Config { prefix: String::new() })"
        echo "        .serve_stdio()"
        echo "        .await"
        echo "}"
    } > "$dir/src/main.rs"
}

# hundred_rmcp DIR: the same 100 tools the way rmcp's documentation writes them.
hundred_rmcp() {
    local dir="$1" i
    manifest "$dir" tools100-rmcp "$rmcp_deps"
    {
        cat <<'RUST'
//! 100 tools of varied signatures, to measure what rmcp's #[tool] costs to compile.
#![allow(dead_code, deprecated, clippy::all)]

use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{Implementation, LoggingLevel, LoggingMessageNotificationParam, ServerCapabilities, ServerConfig};
use rmcp::{Peer, RoleServer, ServerHandler, ServiceExt, schemars, tool, tool_handler, tool_router};
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

async fn log(peer: &Peer<RoleServer>, message: String) {
    let _ = peer.notify_logging_message(LoggingMessageNotificationParam::new(LoggingLevel::Info, message.into())).await;
}
RUST
        for i in $(seq 0 99); do
            case $((i % 8)) in
            0) cat <<RUST ;;

#[derive(Deserialize, JsonSchema)]
pub struct Args$i {
    pub a: i64,
    pub b: i64,
}
RUST
            1) cat <<RUST ;;

#[derive(Deserialize, JsonSchema)]
pub struct Args$i {
    pub name: String,
}
RUST
            2) cat <<RUST ;;

#[derive(Deserialize, JsonSchema)]
pub struct Args$i {
    /// The items.
    pub items: Vec<String>,
    /// At most this many.
    pub limit: Option<u32>,
}
RUST
            3) cat <<RUST ;;

#[derive(Deserialize, JsonSchema)]
pub struct Args$i {
    pub point: Point,
}
RUST
            4) cat <<RUST ;;

#[derive(Deserialize, JsonSchema)]
pub struct Args$i {
    #[serde(default)]
    pub page: u32,
    #[schemars(range(min = 1, max = 100))]
    pub size: u32,
}
RUST
            5) cat <<RUST ;;

#[derive(Deserialize, JsonSchema)]
pub struct Args$i {
    pub mode: Mode,
}
RUST
            6) ;;
            7) cat <<RUST ;;

#[derive(Deserialize, JsonSchema)]
pub struct Args$i {
    pub message: String,
    pub tags: Vec<String>,
}
RUST
            esac
        done
        cat <<'RUST'

#[derive(Clone)]
pub struct Tools {
    config: Arc<Config>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Tools {
    fn new() -> Self {
        Tools { config: Arc::new(Config { prefix: String::new() }), tool_router: Self::tool_router() }
    }
RUST
        for i in $(seq 0 99); do
            case $((i % 8)) in
            0) cat <<RUST ;;

    /// Adds two numbers ($i).
    #[tool]
    fn tool_$i(&self, Parameters(Args$i { a, b }): Parameters<Args$i>) -> String {
        (a + b + $i).to_string()
    }
RUST
            1) cat <<RUST ;;

    /// Greets someone ($i).
    #[tool]
    async fn tool_$i(&self, Parameters(Args$i { name }): Parameters<Args$i>, peer: Peer<RoleServer>) -> String {
        log(&peer, "greeting".into()).await;
        format!("{name} $i")
    }
RUST
            2) cat <<RUST ;;

    /// Filters items ($i).
    #[tool]
    fn tool_$i(&self, Parameters(Args$i { items, limit }): Parameters<Args$i>) -> Json<Vec<String>> {
        Json(items.into_iter().take(limit.unwrap_or($i) as usize).collect())
    }
RUST
            3) cat <<RUST ;;

    /// Measures a point ($i).
    #[tool]
    fn tool_$i(&self, Parameters(Args$i { point }): Parameters<Args$i>) -> Result<String, String> {
        if point.x.is_nan() {
            return Err("not a number".into());
        }
        Ok((point.x.hypot(point.y) * $i.0).to_string())
    }
RUST
            4) cat <<RUST ;;

    /// Pages ($i).
    #[tool]
    fn tool_$i(&self, Parameters(Args$i { page, size }): Parameters<Args$i>) -> String {
        format!("{page} {size} $i")
    }
RUST
            5) cat <<RUST ;;

    /// Runs in a mode ($i).
    #[tool]
    async fn tool_$i(&self, Parameters(Args$i { mode }): Parameters<Args$i>) -> Result<String, String> {
        let mode = match mode {
            Mode::Fast => "fast",
            Mode::Careful => "careful",
        };
        Ok(format!("{}{mode} $i", self.config.prefix))
    }
RUST
            6) cat <<RUST ;;

    /// A table ($i).
    #[tool]
    fn tool_$i(&self) -> Json<Vec<Point>> {
        Json(vec![Point { x: $i.0, y: 0.0 }])
    }
RUST
            7) cat <<RUST ;;

    /// Logs ($i).
    #[tool]
    async fn tool_$i(&self, Parameters(Args$i { message, tags }): Parameters<Args$i>, peer: Peer<RoleServer>) {
        log(&peer, format!("{message} {} $i", tags.len())).await;
    }
RUST
            esac
        done
        cat <<'RUST'
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Tools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("tools100", env!("CARGO_PKG_VERSION")))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    Tools::new().serve(rmcp::transport::stdio()).await?.waiting().await?;
    Ok(())
}
RUST
    } > "$dir/src/main.rs"
}

generate_hundred() {
    local name
    rm -rf "$out"/tools100-*
    for name in $sdks; do
        if [[ $name == rmcp ]]; then
            hundred_rmcp "$out/tools100-rmcp"
            settle "$out/tools100-rmcp" "$root/bench/Cargo.lock"
        else
            hundred_codeagent "$out/tools100-$name" "tools100-$name" "$(checkout "$name")"
            settle "$out/tools100-$name" "$(checkout "$name")/Cargo.lock"
        fi
    done
}

hundred() {
    generate_hundred

    local -A cold=() crate=() edit=() cold_cpu=() crate_cpu=() edit_cpu=()
    local round name dir others wall cpu built
    echo
    echo "== 100 tools: dev profile (cargo build)"
    for round in $(seq 1 "$rounds"); do
        for name in $(in_turn "$round"); do
            dir="$out/tools100-$name"
            rm -rf "$dir/target"
            others=$(wait_quiet)
            built=$(timed "$dir" "$dir/target")
            read -r wall cpu <<< "$built"
            cold[$name]+=" $wall" cold_cpu[$name]+=" $cpu"
            echo "round $round $name: cold, including dependencies: ${wall}s wall, ${cpu}s CPU (other rustc at start: $others)"
            (cd "$dir" && CARGO_TARGET_DIR="$dir/target" cargo clean --quiet -p "tools100-$name")
            others=$(wait_quiet)
            built=$(timed "$dir" "$dir/target")
            read -r wall cpu <<< "$built"
            crate[$name]+=" $wall" crate_cpu[$name]+=" $cpu"
            echo "round $round $name: cold, the crate only: ${wall}s wall, ${cpu}s CPU (other rustc at start: $others)"
            # One tool's body (tool_8, an `add`) changes: a new constant each
            # round, one digit longer each time, so the code after it moves
            # (as any real edit does; an edit keeping the line's length is
            # cheaper for both SDKs).
            sed -i -E "s/a \+ b \+ 8( \+ [0-9]+)?/a + b + 8 + $(printf '%*s' "$round" '' | tr ' ' 1)/" "$dir/src/main.rs"
            others=$(wait_quiet)
            built=$(timed "$dir" "$dir/target")
            read -r wall cpu <<< "$built"
            edit[$name]+=" $wall" edit_cpu[$name]+=" $cpu"
            echo "round $round $name: after editing one tool's body: ${wall}s wall, ${cpu}s CPU (other rustc at start: $others)"
        done
    done
    # Medians: wall-clock seconds, and CPU seconds beside them (the goals are
    # on wall-clock time, what a developer waits for).
    local -A c=() k=() e=() cc=() kc=() ec=()
    local header="| 100 tools (dev), median seconds, wall (CPU) |" rule="|---|" row_c row_k row_e
    for name in $sdks; do
        # shellcheck disable=SC2086
        {
            c[$name]=$(median ${cold[$name]}) k[$name]=$(median ${crate[$name]}) e[$name]=$(median ${edit[$name]})
            cc[$name]=$(median ${cold_cpu[$name]}) kc[$name]=$(median ${crate_cpu[$name]}) ec[$name]=$(median ${edit_cpu[$name]})
        }
        header+=" $name |" rule+="---:|"
    done
    row_c="| cold, including dependencies |" row_k="| cold, the crate only |" row_e="| after editing one tool's body |"
    for name in $sdks; do
        row_c+=" ${c[$name]} (${cc[$name]}) |" row_k+=" ${k[$name]} (${kc[$name]}) |" row_e+=" ${e[$name]} (${ec[$name]}) |"
    done
    for name in $sdks; do
        [[ $name == rmcp ]] && continue
        header+=" $name / rmcp, wall (CPU) | goal |" rule+="---:|---|"
        local r_c r_k r_e
        r_c=$(ratio "${c[$name]}" "${c[rmcp]}") r_k=$(ratio "${k[$name]}" "${k[rmcp]}") r_e=$(ratio "${e[$name]}" "${e[rmcp]}")
        row_c+=" ${r_c}x ($(ratio "${cc[$name]}" "${cc[rmcp]}")x) | $(goal "$r_c" 0.5x) |"
        row_k+=" ${r_k}x ($(ratio "${kc[$name]}" "${kc[rmcp]}")x) | $(goal "$r_k" 0.5x) |"
        row_e+=" ${r_e}x ($(ratio "${ec[$name]}" "${ec[rmcp]}")x) | $(goal "$r_e" 0.5x) |"
    done
    echo
    printf '%s\n' "$header" "$rule" "$row_c" "$row_k" "$row_e"
    local packages_line="packages:"
    for name in $sdks; do packages_line+=" $name $(packages "$out/tools100-$name")"; done
    echo "$packages_line ($rounds builds each)"
}

# ---------------------------------------------------------------- fixtures

# Three more crates of 100 tools, each written another way than the 100-tool
# crate above, each with its rmcp counterpart, to measure the rebuild after
# editing one tool's body (the edit: `+ 50` in tool_50 gets `+ 1`, `+ 11`, ...,
# one digit longer each round, so that the code after it moves):
#
#   free     100 two-argument `#[tool]` functions in one file
#            (`fn tool_N(a: i64, b: i64) -> i64 { a * b + N }`)
#   toolbox  100 `#[tool]` methods of one `#[toolbox] impl` reading the
#            struct's state (`&self, text: String, count: u32`)
#   modules  100 `#[tool]` functions in 10 modules (files) of 10
#            (`name: String, n: u32`), the edit in the sixth module
#
# rmcp's: one `#[tool_router] impl` of 100 methods taking `Parameters<ArgsN>`
# (for `modules`, one `#[tool_router(router = router_K)] impl` per module,
# the routers added up).
fixture_names="free toolbox modules"

# fixture_rmcp_head: the rmcp crate's imports.
fixture_rmcp_head() {
    cat <<'RUST'
#![allow(dead_code, clippy::all)]

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, ServiceExt, schemars, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
RUST
}

# fixture_rmcp_tail ROUTER: the rmcp crate's server and `main`; ROUTER builds the router.
fixture_rmcp_tail() {
    cat <<RUST

#[derive(Clone)]
pub struct Tools {
    base: u32,
    tool_router: ToolRouter<Self>,
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Tools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("fixture", env!("CARGO_PKG_VERSION")))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tools = Tools { base: 0, tool_router: $1 };
    tools.serve(rmcp::transport::stdio()).await?.waiting().await?;
    Ok(())
}
RUST
}

# fixture_codeagent FIXTURE DIR PACKAGE ROOT: FIXTURE's codeagent crate on the checkout ROOT.
fixture_codeagent() {
    local fixture="$1" dir="$2" i k
    manifest "$dir" "$3" "$(codeagent_deps "$4")"
    case $fixture in
    free) {
        printf '#![allow(dead_code, clippy::all)]\n\nuse codeagent::prelude::*;\n'
        for i in $(seq 0 99); do
            printf '\n/// Tool %s.\n#[tool]\nfn tool_%s(\n    /// The first factor.\n    a: i64,\n    /// The second factor.\n    b: i64,\n) -> i64 {\n    a * b + %s\n}\n' "$i" "$i" "$i"
        done
        printf '\n#[tokio::main]\nasync fn main() -> std::io::Result<()> {\n    Toolbox::new()\n'
        for i in $(seq 0 99); do printf '        .tool(tool_%s)\n' "$i"; done
        printf '        .serve_stdio()\n        .await\n}\n'
    } > "$dir/src/main.rs" ;;
    toolbox) {
        printf '#![allow(dead_code, clippy::all)]\n\nuse codeagent::prelude::*;\n\n/// The state.\npub struct Tools {\n    base: u32,\n}\n\n#[toolbox]\nimpl Tools {'
        for i in $(seq 0 99); do
            printf '\n    /// Tool %s.\n    #[tool]\n    fn tool_%s(\n        &self,\n        /// The text.\n        text: String,\n        /// A count.\n        count: u32,\n    ) -> String {\n        format!("{text} {}", self.base + count + %s)\n    }\n' "$i" "$i" "$i"
        done
        printf '}\n\n#[tokio::main]\nasync fn main() -> std::io::Result<()> {\n    Toolbox::new().tool_set(Tools { base: 0 }).serve_stdio().await\n}\n'
    } > "$dir/src/main.rs" ;;
    modules)
        for k in $(seq 0 9); do
            {
                printf '//! Tools %s0 to %s9.\n\nuse codeagent::prelude::*;\n' "$k" "$k"
                for i in $(seq $((k * 10)) $((k * 10 + 9))); do
                    printf '\n/// Tool %s.\n#[tool]\npub fn tool_%s(\n    /// A name.\n    name: String,\n    /// A number.\n    n: u32,\n) -> String {\n    format!("{name} {}", n + %s)\n}\n' "$i" "$i" "$i"
                done
            } > "$dir/src/tools_$k.rs"
        done
        {
            printf '#![allow(dead_code, clippy::all)]\n\nuse codeagent::prelude::*;\n\n'
            for k in $(seq 0 9); do printf 'mod tools_%s;\n' "$k"; done
            printf '\n#[tokio::main]\nasync fn main() -> std::io::Result<()> {\n    Toolbox::new()\n'
            for i in $(seq 0 99); do printf '        .tool(tools_%s::tool_%s)\n' "$((i / 10))" "$i"; done
            printf '        .serve_stdio()\n        .await\n}\n'
        } > "$dir/src/main.rs" ;;
    esac
}

# fixture_rmcp FIXTURE DIR PACKAGE: FIXTURE's rmcp crate.
fixture_rmcp() {
    local fixture="$1" dir="$2" i k routers=""
    manifest "$dir" "$3" "$rmcp_deps"
    case $fixture in
    free | toolbox) {
        fixture_rmcp_head
        for i in $(seq 0 99); do
            if [[ $fixture == free ]]; then
                printf '\n#[derive(Deserialize, JsonSchema)]\npub struct Args%s {\n    /// The first factor.\n    pub a: i64,\n    /// The second factor.\n    pub b: i64,\n}\n' "$i"
            else
                printf '\n#[derive(Deserialize, JsonSchema)]\npub struct Args%s {\n    /// The text.\n    pub text: String,\n    /// A count.\n    pub count: u32,\n}\n' "$i"
            fi
        done
        printf '\n#[tool_router]\nimpl Tools {'
        for i in $(seq 0 99); do
            if [[ $fixture == free ]]; then
                printf '\n    /// Tool %s.\n    #[tool]\n    fn tool_%s(&self, Parameters(Args%s { a, b }): Parameters<Args%s>) -> String {\n        (a * b + %s).to_string()\n    }\n' "$i" "$i" "$i" "$i" "$i"
            else
                printf '\n    /// Tool %s.\n    #[tool]\n    fn tool_%s(&self, Parameters(Args%s { text, count }): Parameters<Args%s>) -> String {\n        format!("{text} {}", self.base + count + %s)\n    }\n' "$i" "$i" "$i" "$i" "$i"
            fi
        done
        printf '}\n'
        fixture_rmcp_tail "Tools::tool_router()"
    } > "$dir/src/main.rs" ;;
    modules)
        for k in $(seq 0 9); do
            {
                printf '//! Tools %s0 to %s9.\n\nuse rmcp::handler::server::wrapper::Parameters;\nuse rmcp::{schemars, tool, tool_router};\nuse schemars::JsonSchema;\nuse serde::Deserialize;\n\nuse crate::Tools;\n' "$k" "$k"
                for i in $(seq $((k * 10)) $((k * 10 + 9))); do
                    printf '\n#[derive(Deserialize, JsonSchema)]\npub struct Args%s {\n    /// A name.\n    pub name: String,\n    /// A number.\n    pub n: u32,\n}\n' "$i"
                done
                printf '\n#[tool_router(router = router_%s, vis = "pub(crate)")]\nimpl Tools {' "$k"
                for i in $(seq $((k * 10)) $((k * 10 + 9))); do
                    printf '\n    /// Tool %s.\n    #[tool]\n    fn tool_%s(&self, Parameters(Args%s { name, n }): Parameters<Args%s>) -> String {\n        format!("{name} {}", n + %s)\n    }\n' "$i" "$i" "$i" "$i" "$i"
                done
                printf '}\n'
            } > "$dir/src/tools_$k.rs"
            routers+="${routers:+ + }Tools::router_$k()"
        done
        {
            fixture_rmcp_head
            echo
            for k in $(seq 0 9); do printf 'mod tools_%s;\n' "$k"; done
            fixture_rmcp_tail "$routers"
        } > "$dir/src/main.rs" ;;
    esac
}

# fixture_edited FIXTURE DIR: the file holding tool_50 in FIXTURE's crate DIR.
fixture_edited() {
    [[ $1 == modules ]] && echo "$2/src/tools_5.rs" || echo "$2/src/main.rs"
}

generate_fixtures() {
    local fixture name
    rm -rf "$out"/fx-*
    for fixture in $fixture_names; do
        for name in $sdks; do
            if [[ $name == rmcp ]]; then
                fixture_rmcp "$fixture" "$out/fx-$fixture-rmcp" "fx-$fixture-rmcp"
                settle "$out/fx-$fixture-rmcp" "$root/bench/Cargo.lock"
            else
                fixture_codeagent "$fixture" "$out/fx-$fixture-$name" "fx-$fixture-$name" "$(checkout "$name")"
                settle "$out/fx-$fixture-$name" "$(checkout "$name")/Cargo.lock"
            fi
        done
    done
}

fixtures() {
    generate_fixtures
    local fixture round name dir target others wall cpu built ones
    local -A edit=() edit_cpu=()
    echo
    echo "== fixtures: dev profile, rebuild after editing one tool's body"
    for fixture in $fixture_names; do
        # A first build of each (untimed; the dependencies of one fixture are
        # the next one's, in one target directory per SDK).
        for name in $sdks; do
            dir="$out/fx-$fixture-$name"
            built=$(timed "$dir" "$out/fixtures-target-$name")
        done
        for round in $(seq 1 "$rounds"); do
            ones=$(printf '%*s' "$round" '' | tr ' ' 1)
            for name in $(in_turn "$round"); do
                dir="$out/fx-$fixture-$name"
                sed -i -E "s/\+ 50( \+ 1+)?\b/+ 50 + $ones/" "$(fixture_edited "$fixture" "$dir")"
                others=$(wait_quiet)
                built=$(timed "$dir" "$out/fixtures-target-$name")
                read -r wall cpu <<< "$built"
                edit[$fixture.$name]+=" $wall" edit_cpu[$fixture.$name]+=" $cpu"
                echo "$fixture round $round $name: after editing one tool's body: ${wall}s wall, ${cpu}s CPU (other rustc at start: $others)"
            done
        done
    done
    local header="| after editing one tool's body (dev), median seconds, wall (CPU) |" rule="|---|" row r_w r_c
    local -A e=() ec=()
    for name in $sdks; do header+=" $name |" rule+="---:|"; done
    for name in $sdks; do
        [[ $name == rmcp ]] && continue
        header+=" $name / rmcp, wall (CPU) | goal |" rule+="---:|---|"
    done
    echo
    printf '%s\n' "$header" "$rule"
    for fixture in $fixture_names; do
        row="| $fixture |"
        for name in $sdks; do
            # shellcheck disable=SC2086
            e[$name]=$(median ${edit[$fixture.$name]}) ec[$name]=$(median ${edit_cpu[$fixture.$name]})
            row+=" ${e[$name]} (${ec[$name]}) |"
        done
        for name in $sdks; do
            [[ $name == rmcp ]] && continue
            r_w=$(ratio "${e[$name]}" "${e[rmcp]}") r_c=$(ratio "${ec[$name]}" "${ec[rmcp]}")
            row+=" ${r_w}x (${r_c}x) | $(goal "$r_w" 0.5x) |"
        done
        echo "$row"
    done
    echo "($rounds edits each, alternated)"
}

if [[ "$only" == check ]]; then
    # The crates compile (one shared target directory; nothing is timed).
    generate_one
    generate_hundred
    generate_fixtures
    for dir in "$out"/one-* "$out"/tools100-* "$out"/fx-*; do
        dir=$(basename "$dir")
        echo "cargo check: $dir"
        (cd "$out/$dir" && CARGO_TARGET_DIR="$out/target-check" cargo check --quiet)
    done
    exit 0
fi
[[ -z "$only" || "$only" == one ]] && one_tool
[[ -z "$only" || "$only" == hundred ]] && hundred
[[ -z "$only" || "$only" == fixtures ]] && fixtures
exit 0
