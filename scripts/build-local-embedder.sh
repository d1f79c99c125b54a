#!/usr/bin/env bash
# Builds pkg/local-embedder/dist/ (the on-device embedder's own .wasm and its JS glue) from local-embedder/,
# a standalone crate with its own target dir. SIMD128 is on for this module only. The new dist/ replaces
# the old one in one rename. Needs the wasm32 target and the pinned wasm-bindgen CLI (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TARGET_DIR="$PWD/local-embedder/target"
RUSTFLAGS='-C target-feature=+simd128 --cfg getrandom_backend="wasm_js"' \
  cargo build --quiet --manifest-path local-embedder/Cargo.toml --lib --target wasm32-unknown-unknown --release
staging=$(mktemp -d pkg/local-embedder/.dist-XXXXXX)
trap 'rm -rf "$staging"' EXIT
wasm-bindgen --target web --remove-name-section --out-dir "$staging" --out-name local_embedder \
  "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/memwasm_local_embedder.wasm"
chmod -R a+rX "$staging"
old=$(mktemp -d pkg/local-embedder/.old-XXXXXX)
[ -d pkg/local-embedder/dist ] && mv pkg/local-embedder/dist "$old/dist"
mv "$staging" pkg/local-embedder/dist
rm -rf "$old"
raw=$(stat -c %s pkg/local-embedder/dist/local_embedder_bg.wasm)
gz=$(gzip -9 -c pkg/local-embedder/dist/local_embedder_bg.wasm | wc -c)
echo "built pkg/local-embedder/dist: local_embedder_bg.wasm ${raw} bytes (${gz} gzipped)"
