#!/usr/bin/env bash
# `npx memwasm mcp` (pkg/bin, pkg/mcp): the package installed into tests/mcp as a copy (install-links, as npm
# installs a published package, so the bin finds @modelcontextprotocol/sdk and better-sqlite3 beside it) and
# driven over stdio by the official MCP SDK client, against the scripted OpenAI-compatible server.
set -uo pipefail
source scripts/lib.sh
# A copy is not refreshed when pkg/ changes under the same version: drop it so that npm copies it again.
rm -rf tests/mcp/node_modules/memwasm
(cd tests/mcp && npm install --no-audit --no-fund --prefer-offline --loglevel=error) || { echo "0 passed, 1 failed"; exit 0; }
node_suite tests/mcp/*.test.mjs
