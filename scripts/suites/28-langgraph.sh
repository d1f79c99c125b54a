#!/usr/bin/env bash
# memwasm/langgraph against the real LangGraph packages (tests/langgraph/package.json pins them): the store's
# BaseStore behaviour, a StateGraph using it across two runs over SQLite, docs/langgraph.md as written, and
# pkg/langgraph.d.ts type-checked as an app uses it. memwasm is installed as a copy of pkg/ (install-links in
# tests/langgraph/.npmrc), as an app gets it, so its peer dependency resolves from the app's node_modules.
set -uo pipefail
source scripts/lib.sh
rm -rf tests/langgraph/node_modules/memwasm
(cd tests/langgraph && npm install --no-audit --no-fund --loglevel=error) || { echo "0 passed, 1 failed"; exit 0; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
node_suite tests/langgraph/*.test.mjs >"$log"
cat "$log"
counts=$(tail -1 "$log")
passed=${counts%% passed*}; failed=${counts#*, }; failed=${failed%% failed*}
if tests/langgraph/node_modules/.bin/tsc -p tests/langgraph; then
  echo "tests/langgraph/types.ts: types check"
  passed=$((passed + 1))
else
  failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
