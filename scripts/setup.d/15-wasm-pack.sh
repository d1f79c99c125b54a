#!/usr/bin/env bash
# wasm-pack, pinned, for `wasm-pack test --headless --chrome` (scripts/suites/40-browser.sh). It uses the
# wasm-bindgen CLI that 10-rust.sh put on PATH (same version as Cargo.lock's wasm-bindgen) and Debian's
# chromedriver, so it downloads nothing at test time (the suite passes --mode no-install to make sure).
set -euo pipefail
say() { printf '[setup wasm-pack] %s\n' "$*"; }
wasm_pack_version=0.15.1

if [ "$(wasm-pack --version 2>/dev/null)" != "wasm-pack $wasm_pack_version" ]; then
  # Measured: 4 min 40 s wall (2 min 29 s CPU) on 2 cores shared with other builds (load 5-7).
  say "installing wasm-pack $wasm_pack_version (about 5 minutes, once)"
  # --locked builds with the crate's own Cargo.lock; if a crate in it was since yanked, resolve afresh.
  cargo install wasm-pack --version "$wasm_pack_version" --locked \
    || cargo install wasm-pack --version "$wasm_pack_version"
fi
say "ready: $(wasm-pack --version)"
