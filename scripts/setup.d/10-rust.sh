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
  # Measured: 5 min 53 s wall (3 min 22 s CPU) on 2 cores shared with other builds (load 3.5-6). --locked
  # fails at once for 0.2.130 (its lock names webpki-roots 1.0.11, no longer in the registry): the retry
  # without it is the install that runs.
  say "installing wasm-bindgen-cli $wasm_bindgen_version (about 6 minutes, once)"
  cargo install wasm-bindgen-cli --version "$wasm_bindgen_version" --locked \
    || cargo install wasm-bindgen-cli --version "$wasm_bindgen_version"
fi
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ]; then
  echo "Node.js >= 20 is required (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi
say "ready: $(rustc --version), $(wasm-bindgen --version), node $(node --version)"
