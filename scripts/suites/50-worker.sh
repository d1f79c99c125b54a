#!/usr/bin/env bash
# Cloudflare Workers: builds worker/ with worker-build, then runs it in workerd (Miniflare and `wrangler dev`)
# with workerd's own local KV: the REST API, tenants, errors, persistence, load, and the npm package in a JS
# Worker. Test files run one at a time (`wrangler dev` rebuilds worker/build while it starts).
set -uo pipefail
source scripts/lib.sh
export PATH="$HOME/.cargo/bin:$PATH"
# No telemetry and no interactive prompts from wrangler, whatever a test forgets to pass.
export WRANGLER_SEND_METRICS=false CI=true
(cd worker && npm install --no-audit --no-fund --loglevel=error) || { echo "0 passed, 1 failed"; exit 0; }
sh worker/build.sh || { echo "worker build failed"; echo "0 passed, 1 failed"; exit 0; }
node_suite --test-concurrency=1 worker/tests/*.test.mjs
