#!/usr/bin/env bash
# The package as users get it: `npm pack` of pkg/ (built by scripts/build-pkg.sh, the on-device embedder
# included), then tests/installed/: the tarball's file list against package.json `files`, and the tarball
# installed (never linked) into four fresh projects in a temp dir: a Vite + TypeScript app (tsc, vite build,
# headless Chromium on IndexedDB), a Worker under `wrangler dev` (KV), a Node ESM script (MiniLM on the
# device) and a Node script that keeps memories in SQLite across two processes (with better-sqlite3). npm installs share the npm cache; direct dependencies are pinned in each fixture's package.json.
set -uo pipefail
source scripts/lib.sh
export PATH="$HOME/.cargo/bin:$PATH"
fail() { echo "installed: $1"; echo "0 passed, 1 failed"; exit 0; }
export MINILM_DIR="${MINILM_DIR:-$HOME/.cache/memwasm/minilm}"
seconds() { echo "$(( ($(date +%s%N) - $1) / 1000000 ))" | sed 's/...$/.&/;s/^\./0./'; }

bash scripts/setup.d/65-minilm.sh >/dev/null || fail "setup of the MiniLM weights failed"
# scripts/test.sh builds the package first; run alone, build what is missing (build-pkg.sh does both).
if [ ! -f pkg/dist/memwasm_bg.wasm ] || [ ! -f pkg/local-embedder/dist/local_embedder_bg.wasm ]; then
  bash scripts/build-pkg.sh || fail "build failed"
fi
(cd tests/installed && npm install --no-audit --no-fund --prefer-offline --loglevel=error) || fail "npm install failed"

packed=$(mktemp -d)
trap 'rm -rf "$packed"' EXIT
start=$(date +%s%N)
name=$(cd pkg && npm pack --ignore-scripts --silent --pack-destination "$packed") || fail "npm pack failed"
export MEMWASM_TARBALL="$packed/$name"
echo "npm pack: $name, $(stat -c %s "$MEMWASM_TARBALL") bytes, $(tar -tzf "$MEMWASM_TARBALL" | wc -l) files, $(seconds "$start") s"

start=$(date +%s%N)
log=$(mktemp)
node_suite tests/installed/*.test.mjs | tee "$log"
echo "tests/installed: $(seconds "$start") s" >&2
tail -n 1 "$log"
