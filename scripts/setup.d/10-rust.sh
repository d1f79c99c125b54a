#!/usr/bin/env bash
# The wasm32 Rust target and the wasm-bindgen CLI matching Cargo.toml's exact pin; Node >= 20.
set -euo pipefail
say() { printf '[setup rust] %s\n' "$*"; }
wasm_bindgen_version=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)"/\1/p' Cargo.toml)

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown || { sleep 10; rustup target add wasm32-unknown-unknown; }
fi
# wasm-bindgen-test-runner (the browser tests' runner, also what wasm-pack test uses) comes in the same crate.
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $wasm_bindgen_version" ] \
  || [ "$(wasm-bindgen-test-runner --version 2>/dev/null)" != "wasm-bindgen-test-runner $wasm_bindgen_version" ]; then
  say "installing wasm-bindgen-cli $wasm_bindgen_version (a few minutes, once)"
  cargo install wasm-bindgen-cli --version "$wasm_bindgen_version" --locked \
    || cargo install wasm-bindgen-cli --version "$wasm_bindgen_version"
fi
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ]; then
  echo "Node.js >= 20 is required (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi
say "ready: $(rustc --version), $(wasm-bindgen --version), node $(node --version)"
