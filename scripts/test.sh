#!/usr/bin/env bash
# Sets up, builds, and runs every test: native `cargo test` of the core, then the Node tests of the
# built package against the scripted server. Ends with one line: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d)
passed=0
failed=0

count_cargo() {  # sums "test result: ... N passed; M failed" lines
  local p f
  p=$(grep -o '[0-9]\+ passed' "$1" | awk '{s+=$1} END {print s+0}')
  f=$(grep -o '[0-9]\+ failed' "$1" | awk '{s+=$1} END {print s+0}')
  passed=$((passed + p)); failed=$((failed + f))
}

count_node() {  # reads "# pass N" / "# fail N" of the TAP report
  local p f
  p=$(sed -n 's/^# pass \([0-9]*\)/\1/p' "$1" | tail -1)
  f=$(sed -n 's/^# fail \([0-9]*\)/\1/p' "$1" | tail -1)
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
}

step() {  # runs a step; a step that fails without counted failures still fails the run
  local name=$1; shift
  echo "=== $name"
  if ! "$@"; then
    echo "!!! $name failed"
    step_failed=1
  fi
}

step_failed=0
step "setup" bash scripts/setup.sh || exit 1
[ $step_failed -eq 0 ] || { echo "0 passed, 1 failed"; exit 1; }
step "build pkg" bash scripts/build-pkg.sh
[ $step_failed -eq 0 ] || { echo "0 passed, 1 failed"; exit 1; }

echo "=== cargo test (native core)"
cargo test --color never 2>&1 | tee "$logs/cargo.log"
cargo_status=${PIPESTATUS[0]}
count_cargo "$logs/cargo.log"

echo "=== node tests (built package)"
(cd tests && npm install --no-audit --no-fund --loglevel=error) || step_failed=1
(cd tests && node --test --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination="$logs/node.tap" node/*.test.mjs)
node_status=$?
count_node "$logs/node.tap"

if [ "$cargo_status" -ne 0 ] || [ "$node_status" -ne 0 ] || [ "$step_failed" -ne 0 ]; then
  [ "$failed" -gt 0 ] || failed=1
fi
echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
