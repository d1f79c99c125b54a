#!/usr/bin/env bash
# The Cloudflare Worker's tools: worker-build (builds worker/), and worker/'s npm packages (wrangler with its
# workerd, Miniflare for the tests, esbuild for worker-build). Nothing downloads at build or run time after this.
set -euo pipefail
say() { printf '[setup worker] %s\n' "$*"; }
worker_build_version=0.8.7
export WRANGLER_SEND_METRICS=false

if [ "$(worker-build --version 2>/dev/null)" != "$worker_build_version" ]; then
  say "installing worker-build $worker_build_version (about 6 minutes, once)"
  cargo install worker-build --version "$worker_build_version" --locked
fi
say "installing worker/ npm packages (wrangler, miniflare, esbuild)"
(cd worker && npm install --no-audit --no-fund --loglevel=error)
say "ready: worker-build $(worker-build --version), wrangler $(cd worker && node_modules/.bin/wrangler --version 2>/dev/null | tail -1)"
