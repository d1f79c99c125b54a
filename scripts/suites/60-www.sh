#!/usr/bin/env bash
# The www/ playground in Debian's headless Chromium, driven by playwright-core (never a downloaded
# browser), against the scripted LLM server. Leaves a screenshot in tests/artifacts/www-main.png.
set -uo pipefail
source scripts/lib.sh
(cd tests/www && npm install --no-audit --no-fund --loglevel=error) || { echo "0 passed, 1 failed"; exit 0; }
node_suite tests/www/*.test.mjs
