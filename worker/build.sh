#!/bin/sh
# Builds build/index.js + build/index_bg.wasm with worker-build (`cargo install worker-build --version 0.8.7`).
# worker-build downloads wasm-bindgen and esbuild unless told where they are: use the wasm-bindgen CLI on PATH
# when it matches the pinned library, and the esbuild of node_modules when present.
set -e
cd "$(dirname "$0")"
pin=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)"/\1/p' Cargo.toml)
if [ -z "${WASM_BINDGEN_BIN:-}" ] && [ "$(wasm-bindgen --version 2>/dev/null)" = "wasm-bindgen $pin" ]; then
  export WASM_BINDGEN_BIN="$(command -v wasm-bindgen)"
fi
if [ -z "${ESBUILD_BIN:-}" ] && [ -x node_modules/.bin/esbuild ]; then
  export ESBUILD_BIN="$PWD/node_modules/.bin/esbuild"
fi
exec worker-build --release
