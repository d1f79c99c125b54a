# Shared helpers for test suites (source it). A suite prints whatever it likes and, last, one line
# "N passed, M failed" that scripts/test.sh adds up.

# better-sqlite3 built once (scripts/setup.d/26-better-sqlite3.sh): its installs unpack it instead of compiling.
export npm_config_better_sqlite3_local_prebuilds="${npm_config_better_sqlite3_local_prebuilds:-$HOME/.cache/memwasm/prebuilds}"

# tap_counts FILE: "N passed, M failed" from a node --test TAP report.
tap_counts() {
  local p f
  p=$(sed -n 's/^# pass \([0-9]*\)/\1/p' "$1" | tail -1)
  f=$(sed -n 's/^# fail \([0-9]*\)/\1/p' "$1" | tail -1)
  echo "${p:-0} passed, ${f:-0} failed"
}

# cargo_counts FILE: sums cargo's "test result: ... N passed; M failed" lines.
cargo_counts() {
  local p f
  p=$(grep -o '[0-9]\+ passed' "$1" | awk '{s+=$1} END {print s+0}')
  f=$(grep -o '[0-9]\+ failed' "$1" | awk '{s+=$1} END {print s+0}')
  echo "$p passed, $f failed"
}

# node_suite FILES...: runs node:test files (paths from the repo root) with a spec report on stdout, then
# the counts. Test files import "memwasm", resolved through tests/node_modules (see tests/package.json).
# A test still running after TEST_TIMEOUT_MS (10 minutes; the longest takes under a minute) fails by name
# instead of holding up the run.
node_suite() {
  local tap; tap=$(mktemp)
  node --test --test-timeout="${TEST_TIMEOUT_MS:-600000}" --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$tap" "$@"
  local status=$?
  local counts; counts=$(tap_counts "$tap")
  if [ $status -ne 0 ] && [ "${counts#*, }" = "0 failed" ]; then counts="${counts%%,*}, 1 failed"; fi
  echo "$counts"
}
