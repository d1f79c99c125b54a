#!/usr/bin/env bash
# memwasm/openai-agents with the real OpenAI Agents SDK (@openai/agents from npm, installed here into
# tests/openai-agents): run(agent, input, {session}) with a scripted model, the Session methods, the docs page, the types.
set -uo pipefail
source scripts/lib.sh
(cd tests/openai-agents && npm install --no-audit --no-fund --loglevel=error) || { echo "0 passed, 1 failed"; exit 0; }
node_suite tests/openai-agents/*.test.mjs
