#!/usr/bin/env bash
# The built npm package in Node, against the scripted OpenAI-compatible server.
set -uo pipefail
source scripts/lib.sh
(cd tests && npm install --no-audit --no-fund --loglevel=error) || { echo "0 passed, 1 failed"; exit 0; }
node_suite tests/node/*.test.mjs
