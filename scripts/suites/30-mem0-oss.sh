#!/usr/bin/env bash
# mem0's own OSS TypeScript tests and examples (mem0ai/mem0 mem0-ts/src/oss: the v3 API at mem0's HEAD and the v2
# API of mem0ai 2.4.6), ported with only the import and the model endpoints changed, run with vitest against the
# built package, plus one tsc check of the ported files against pkg/index.d.ts. Tests that differ on purpose are
# listed in tests/mem0-oss/known-differences.json. See tests/mem0-oss/README.md.
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
(cd tests/mem0-oss && npm install --no-audit --no-fund --loglevel=error) || { echo "0 passed, 1 failed"; exit 0; }
node tests/mem0-oss/run.mjs
