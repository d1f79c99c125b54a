#!/usr/bin/env bash
# IndexedDB storage in real headless Chromium: tests/browser_*.rs, built for wasm32 and run by
# wasm-bindgen-test-runner (the cargo runner in .cargo/config.toml) through Debian's chromedriver. Their
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

log=$(mktemp)
MEMWASM_SCRIPTED_URL=$url cargo test --color never --target wasm32-unknown-unknown --no-fail-fast --test 'browser_*' 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
counts=$(cargo_counts "$log")
if [ "$status" -ne 0 ] && [ "${counts#*, }" = "0 failed" ]; then counts="${counts%%,*}, 1 failed"; fi
echo "$counts"
