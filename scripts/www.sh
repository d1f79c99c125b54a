#!/usr/bin/env bash
# Builds the package (with the on-device embedder), fetches all-MiniLM-L6-v2's weights once (the offline
# provider's search by meaning) and serves the www/ playground on http://127.0.0.1:${PORT:-8080}/www/
# (Ctrl-C stops it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh rust minilm-weights
bash scripts/build-pkg.sh
exec node www/serve.mjs --port "${PORT:-8080}"
