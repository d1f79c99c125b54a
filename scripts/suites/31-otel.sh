#!/usr/bin/env bash
# memwasm/otel with the real OpenTelemetry packages (pinned in tests/otel/package.json): one add() and one
# search() reach an InMemorySpanExporter with their GenAI attributes and their model calls as child spans, a
# failed search is an error span, nothing breaks without a registered SDK or without @opentelemetry/api, and
# docs/otel.md runs as written. pkg/ is installed as a copy (install-links, like a user's install).
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
rm -rf tests/otel/node_modules/memwasm # a fresh copy of pkg/ each run
(cd tests/otel && npm install --no-audit --no-fund --loglevel=error) || { echo "0 passed, 1 failed"; exit 0; }
node_suite tests/otel/*.test.mjs
