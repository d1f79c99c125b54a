#!/usr/bin/env bash
# Builds the package and serves the www/ playground on http://127.0.0.1:${PORT:-8080}/www/ (Ctrl-C stops it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh rust
bash scripts/build-pkg.sh
exec node www/serve.mjs --port "${PORT:-8080}"
