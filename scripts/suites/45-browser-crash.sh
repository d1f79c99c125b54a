#!/usr/bin/env bash
# Crash safety of IndexedDB storage in Debian's headless Chromium, driven by playwright-core (never a
# downloaded browser): the renderer or the whole browser is killed mid-way through 50 adds and a fresh
# page scans what is left; the browser is killed before, during or after the open image's write and reopens
# to what the records say; two real tabs add 100 each at once; and the package's full module is fetched
# only on first use, the memory moving into it with everything it holds; memwasm/otel's spans in a page; and
# the raw store reader the tests check against settles whatever the browser holds. See tests/browser-crash/.
set -uo pipefail
source scripts/lib.sh
(cd tests/browser-crash && npm install --no-audit --no-fund --loglevel=error) || { echo "0 passed, 1 failed"; exit 0; }
node_suite tests/browser-crash/*.test.mjs
