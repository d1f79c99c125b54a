#!/usr/bin/env bash
# Sets up, builds the npm package and runs examples/quickstart.mjs (no API key or network needed:
# the example starts the scripted OpenAI-compatible server from tests/support on 127.0.0.1).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh rust
bash scripts/build-pkg.sh
node examples/quickstart.mjs
