#!/usr/bin/env bash
# The core, natively: cargo test. Then one check that the bench build (feature `bench`, the hidden
# __BenchIndex export bench/ drives) still compiles for wasm32, counted as one test, and one that the engine
# compiles and its tests pass without the core's features (`core-features` off: the engine names none of them).
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
if cargo test --quiet --color never --lib --no-default-features core::engine; then
  passed=$((passed + 1))
else
  echo "the engine without the core's features (--no-default-features) fails: cargo test --lib --no-default-features core::engine"
  failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
