#!/usr/bin/env bash
# The on-device embedder and cross-encoder reranker (local-embedder/, memwasm/local-embedder): builds its own
# .wasm, fetches the weights (scripts/setup.d/65-minilm.sh and 66-cross-encoder.sh, cached outside the
# clone), writes the numpy/tokenizers references for tests/local-embedder/sentences.json and
# rerank-pairs.json when missing or stale, then runs the crate's native tests and the Node + headless
# Chromium tests and the type check in tests/local-embedder/.
set -uo pipefail
source scripts/lib.sh
export PATH="$HOME/.cargo/bin:$PATH"
fail() { echo "local-embedder: $1"; echo "0 passed, 1 failed"; exit 0; }
export MINILM_DIR="${MINILM_DIR:-$HOME/.cache/memwasm/minilm}"
venv="${MINILM_REF_VENV:-$HOME/.cache/memwasm/minilm-ref-py}"

export CROSS_ENCODER_DIR="${CROSS_ENCODER_DIR:-$HOME/.cache/memwasm/cross-encoder}"
bash scripts/setup.d/65-minilm.sh || fail "setup failed"
bash scripts/setup.d/66-cross-encoder.sh || fail "cross-encoder setup failed"
bash scripts/build-local-embedder.sh || fail "build failed"
want=$(sha256sum tests/local-embedder/sentences.json | cut -d' ' -f1)
have=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sentencesSha256"])' "$MINILM_DIR/reference.json" 2>/dev/null)
if [ "$want" != "$have" ]; then
  "$venv/bin/python" tests/local-embedder/reference.py "$MINILM_DIR" tests/local-embedder/sentences.json "$MINILM_DIR/reference.json" \
    || fail "reference failed"
fi
want=$(sha256sum tests/local-embedder/rerank-pairs.json | cut -d' ' -f1)
have=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pairsSha256"])' "$CROSS_ENCODER_DIR/cross-reference.json" 2>/dev/null)
if [ "$want" != "$have" ]; then
  "$venv/bin/python" tests/local-embedder/cross_reference.py "$CROSS_ENCODER_DIR" tests/local-embedder/rerank-pairs.json \
    "$CROSS_ENCODER_DIR/cross-reference.json" || fail "cross reference failed"
fi
(cd tests/local-embedder && npm install --no-audit --no-fund --loglevel=error) || fail "npm install failed"

log=$(mktemp)
CARGO_TARGET_DIR="$PWD/local-embedder/target" cargo test --profile ci --color never --manifest-path local-embedder/Cargo.toml 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
native=$(cargo_counts "$log")
if [ "$status" -ne 0 ] && [ "${native#*, }" = "0 failed" ]; then native="${native%%,*}, 1 failed"; fi
nodelog=$(mktemp)
node_suite tests/local-embedder/*.test.mjs | tee "$nodelog"
node=$(tail -n 1 "$nodelog")
if tests/local-embedder/node_modules/.bin/tsc -p tests/local-embedder; then
  echo "tests/local-embedder/types.ts: types check"; types="1 passed, 0 failed"
else
  types="0 passed, 1 failed"
fi
p=0; f=0
for c in "$native" "$node" "$types"; do p=$((p + ${c%% passed*})); c=${c#*, }; f=$((f + ${c%% failed*})); done
echo "$p passed, $f failed"
