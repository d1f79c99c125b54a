#!/usr/bin/env bash
# memwasm/ai with the real Vercel AI SDK (`ai` 7, pinned in tests/ai-sdk/package.json): generateText and
# streamText driven by the SDK's own MockLanguageModelV4 call the memory tools and the memory changes, the
# recall middleware fills the system prompt, and docs/ai-sdk.md runs as written. pkg/ is installed as a copy
# (install-links, like a user's install), under Node 22 (scripts/setup.d/25-node-sqlite.sh), the Node ai 7 asks for.
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
rm -rf tests/ai-sdk/node_modules/memwasm # a fresh copy of pkg/ each run
(cd tests/ai-sdk && npm install --no-audit --no-fund --loglevel=error) || { echo "0 passed, 1 failed"; exit 0; }
node22="${MEMWASM_NODE22:-$PWD/.cache/node22}/bin/node"
if bash scripts/setup.d/25-node-sqlite.sh >/dev/null; then
  PATH="$(dirname "$node22"):$PATH" node_suite tests/ai-sdk/*.test.mjs
else
  echo "Node 22 could not be installed: the AI SDK tests run under $(node --version)"
  node_suite tests/ai-sdk/*.test.mjs
fi
