#!/usr/bin/env bash
# The TypeScript types of the built package (pkg/index.d.ts): every provider's config type-checks, and
# configs that are wrong (missing callback, model or dimensions; an embedder-less provider as embedder) do not.
set -uo pipefail
(cd tests/types && npm install --no-audit --no-fund --loglevel=error) || { echo "0 passed, 1 failed"; exit 0; }
if tests/types/node_modules/.bin/tsc -p tests/types; then
  echo "tests/types/{providers,recall,options}.ts: types check"
  echo "1 passed, 0 failed"
else
  echo "0 passed, 1 failed"
fi
