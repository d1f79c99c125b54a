#!/usr/bin/env bash
# The built npm package in Node, against the scripted OpenAI-compatible server; then the SQLite storage tests
# again under Node 22 (scripts/setup.d/25-node-sqlite.sh), where the storage uses the built-in node:sqlite.
set -uo pipefail
source scripts/lib.sh
(cd tests && npm install --no-audit --no-fund --loglevel=error) || { echo "0 passed, 1 failed"; exit 0; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
node_suite tests/node/*.test.mjs >"$log"
cat "$log"
first=$(tail -1 "$log")
node22="${MEMWASM_NODE22:-$PWD/.cache/node22}/bin/node"
echo "=== the SQLite storage tests under Node 22 (node:sqlite)"
if bash scripts/setup.d/25-node-sqlite.sh; then
  PATH="$(dirname "$node22"):$PATH" node_suite tests/node/sqlite-*.test.mjs >"$log"
  cat "$log"
  second=$(tail -1 "$log")
else
  echo "Node 22 could not be installed: its SQLite tests did not run"
  second="0 passed, 1 failed"
fi
count() { echo "$1" | sed -n "s/.*\b\([0-9][0-9]*\) $2.*/\1/p"; }
echo "$(( $(count "$first" passed) + $(count "$second" passed) )) passed, $(( $(count "$first" failed) + $(count "$second" failed) )) failed"
