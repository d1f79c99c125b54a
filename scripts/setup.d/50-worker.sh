#!/usr/bin/env bash
# The Cloudflare Worker's tools: worker-build (builds worker/), and worker/'s npm packages (wrangler with its
# workerd, Miniflare for the tests, esbuild for worker-build). Nothing downloads at build or run time after this.
set -euo pipefail
say() { printf '[setup worker] %s\n' "$*"; }
worker_build_version=0.8.7
export WRANGLER_SEND_METRICS=false

if [ "$(worker-build --version 2>/dev/null)" != "$worker_build_version" ]; then
  # Measured: 9 min 11 s wall (5 min 0 s CPU) on 2 cores shared with other builds (load 5-6.5).
  say "installing worker-build $worker_build_version (about 9 minutes, once)"
  # --locked builds with the crate's own Cargo.lock; if a crate in it was since yanked, resolve afresh.
  cargo install worker-build --version "$worker_build_version" --locked \
    || cargo install worker-build --version "$worker_build_version"
fi
say "installing worker/ npm packages (wrangler, miniflare, esbuild)"
# npm already retries single fetches; one more whole run covers a registry hiccup (it resumes from cache).
npm_install() { (cd worker && npm install --no-audit --no-fund --loglevel=error); }
npm_install || { say "npm install failed; retrying once in 10 s"; sleep 10; npm_install; }
say "ready: worker-build $(worker-build --version), wrangler $(cd worker && node_modules/.bin/wrangler --version 2>/dev/null | tail -1)"
