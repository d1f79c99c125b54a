#!/usr/bin/env bash
# Builds pkg/dist/ (the .wasm, its JS glue and .d.ts) from the crate. Needs the wasm32 target and a
# wasm-bindgen CLI matching Cargo.toml's pin (scripts/setup.sh installs both).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --lib --target wasm32-unknown-unknown --release
rm -rf pkg/dist
wasm-bindgen --target web --out-dir pkg/dist --out-name memwasm target/wasm32-unknown-unknown/release/memwasm.wasm
raw=$(stat -c %s pkg/dist/memwasm_bg.wasm)
gz=$(gzip -9 -c pkg/dist/memwasm_bg.wasm | wc -c)
echo "built pkg/dist: memwasm_bg.wasm ${raw} bytes (${gz} gzipped)"
