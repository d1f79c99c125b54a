#!/usr/bin/env bash
# The core, natively: cargo test.
set -uo pipefail
source scripts/lib.sh
log=$(mktemp)
cargo test --color never 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
counts=$(cargo_counts "$log")
if [ "$status" -ne 0 ] && [ "${counts#*, }" = "0 failed" ]; then counts="${counts%%,*}, 1 failed"; fi
echo "$counts"
