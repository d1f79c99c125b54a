#!/usr/bin/env bash
# IndexedDB storage in real headless Chromium: tests/browser_*.rs, run the way Rust/wasm developers run
# browser tests, `wasm-pack test --headless --chrome`, through Debian's chromedriver. wasm-pack builds the
# tests for wasm32 and hands them to the wasm-bindgen-test-runner on PATH (10-rust.sh installs the one
# matching Cargo.lock; --mode no-install makes wasm-pack fail rather than download one from GitHub); the
# runner reads ./webdriver.json and adds --headless and --no-sandbox (so root in a container works). Their
# embedder is the scripted OpenAI-compatible server in CLI mode (it sends CORS headers); its URL is baked
# into the test build through MEMWASM_SCRIPTED_URL.
set -uo pipefail
source scripts/lib.sh
export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-300}

server_log=$(mktemp)
node tests/support/scripted-server.mjs --port 0 >"$server_log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null' EXIT
url=""
for _ in $(seq 100); do
  url=$(sed -n 's/^listening \(http:[^ ]*\)$/\1/p' "$server_log")
  [ -n "$url" ] && break
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "the scripted server did not start:"; cat "$server_log"
  echo "0 passed, 1 failed"; exit 0
fi

# One wasm-pack run per test file: wasm-pack hands its trailing options to `cargo build` too, which has
# no --no-fail-fast, so a single `-- --test 'browser_*'` run would stop at the first failing file.
# (A developer runs them all at once: wasm-pack test --headless --chrome --chromedriver
# /usr/bin/chromedriver --mode no-install -- --test 'browser_*'.)
log=$(mktemp)
status=0
for file in tests/browser_*.rs; do
  MEMWASM_SCRIPTED_URL=$url wasm-pack test --headless --chrome --chromedriver "$CHROMEDRIVER" \
    --mode no-install -- --color never --test "$(basename "$file" .rs)" 2>&1 | tee -a "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
counts=$(cargo_counts "$log")
if [ "$status" -ne 0 ] && [ "${counts#*, }" = "0 failed" ]; then counts="${counts%%,*}, 1 failed"; fi
echo "$counts"
