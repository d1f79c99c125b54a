#!/usr/bin/env bash
# Sets up, builds the package, then runs every suite in scripts/suites/ (native core, Node package, …).
# Ends with one line: "N passed, N failed". Pass suite names (e.g. `test.sh native`) to run only those.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
# Disk: a fresh clone's builds took 8.3 GB, of which 2.5 GB were incremental caches and most of the rest
# debug info in test binaries (100 MB per browser test .wasm); a CI machine ran out of space. Neither helps
# a one-shot run. Set either variable to keep them.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
export CARGO_PROFILE_DEV_DEBUG="${CARGO_PROFILE_DEV_DEBUG:-0}"
echo "=== disk free at start: $(df -h . | awk 'NR==2 {print $4}')"

started=$SECONDS
bash scripts/setup.sh || { echo "setup failed"; echo "0 passed, 1 failed"; exit 1; }
echo "=== set-up took $((SECONDS - started)) s"
started=$SECONDS
bash scripts/build-pkg.sh || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
echo "=== package build took $((SECONDS - started)) s"

passed=0
failed=0
summary=""
for suite in scripts/suites/*.sh; do
  name=$(basename "$suite" .sh); name=${name#*-}
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  echo "=== suite: $name"
  out=$(mktemp)
  started=$SECONDS
  # A suite that hangs fails on its own after SUITE_TIMEOUT seconds (the whole suite's processes are signalled)
  # and the others still run; node:test files also fail a single test after 10 minutes (scripts/lib.sh).
  timeout -k 30 "${SUITE_TIMEOUT:-1800}" bash "$suite" 2>&1 | tee "$out"
  [ "${PIPESTATUS[0]}" -ne 124 ] || echo "=== suite $name did not finish within ${SUITE_TIMEOUT:-1800} s" | tee -a "$out"
  echo "=== suite $name took $((SECONDS - started)) s"
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -1)
  [ -n "$line" ] || line="0 passed, 1 failed"
  p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
  passed=$((passed + p)); failed=$((failed + f))
  summary+=$(printf '  %-10s %s pass, %s fail' "$name" "$p" "$f")$'\n'
done

echo
echo "=== disk: build outputs $(du -sh target local-embedder/target worker/target 2>/dev/null | awk '{print $1}' | paste -sd+ -), free $(df -h . | awk 'NR==2 {print $4}')"
echo "=== summary"
printf '%s' "$summary"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
