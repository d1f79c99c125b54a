#!/usr/bin/env bash
# memwasm/langgraph against the real LangGraph packages (tests/langgraph/package.json pins them): the store's
# BaseStore behaviour, a StateGraph using it across two runs over SQLite, and docs/langgraph.md as written.
# memwasm is installed as a copy of pkg/ (install-links), as an app gets it, so its peer dependency resolves.
set -uo pipefail
source scripts/lib.sh
rm -rf tests/langgraph/node_modules/memwasm
(cd tests/langgraph && npm install --no-audit --no-fund --loglevel=error) || { echo "0 passed, 1 failed"; exit 0; }
node_suite tests/langgraph/*.test.mjs
