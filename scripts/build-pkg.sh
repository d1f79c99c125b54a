#!/usr/bin/env bash
# Builds pkg/dist/ (the .wasm, its JS glue and .d.ts) from the crate. Needs the wasm32 target and a
# wasm-bindgen CLI matching Cargo.toml's pin (scripts/setup.sh installs both). The function-name section is
# dropped (about a quarter of the gzipped size; it only names frames in stack traces). The new dist/ replaces
# the old one in one rename, so tests running meanwhile never see a half-written package.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --lib --target wasm32-unknown-unknown --release
staging=$(mktemp -d pkg/.dist-XXXXXX)
trap 'rm -rf "$staging"' EXIT
wasm-bindgen --target web --remove-name-section --out-dir "$staging" --out-name memwasm target/wasm32-unknown-unknown/release/memwasm.wasm
chmod 755 "$staging"
old=$(mktemp -d pkg/.old-XXXXXX)
[ -d pkg/dist ] && mv pkg/dist "$old/dist"
mv "$staging" pkg/dist
rm -rf "$old"
raw=$(stat -c %s pkg/dist/memwasm_bg.wasm)
gz=$(gzip -9 -c pkg/dist/memwasm_bg.wasm | wc -c)
echo "built pkg/dist: memwasm_bg.wasm ${raw} bytes (${gz} gzipped)"
