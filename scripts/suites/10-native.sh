#!/usr/bin/env bash
# The core, natively: cargo test. Then one check that the bench build (feature `bench`, the hidden
# __BenchIndex export bench/ drives) still compiles for wasm32, counted as one test.
set -uo pipefail
source scripts/lib.sh
log=$(mktemp)
cargo test --color never 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
counts=$(cargo_counts "$log")
if [ "$status" -ne 0 ] && [ "${counts#*, }" = "0 failed" ]; then counts="${counts%%,*}, 1 failed"; fi
passed=${counts%% passed*}; failed=${counts#*, }; failed=${failed%% failed*}
if cargo check --quiet --color never --lib --target wasm32-unknown-unknown --features bench; then
  passed=$((passed + 1))
else
  echo "the bench build (--features bench) does not compile"; failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
