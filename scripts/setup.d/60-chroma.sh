#!/usr/bin/env bash
# The Chroma server (PyPI chromadb, pinned) in its own venv, for the remote vector store tests
# (tests/node/chroma-*.test.mjs start `chroma run` on 127.0.0.1 through tests/support/chroma-server.mjs,
# which finds the binary at $CHROMA_BIN, else $CHROMA_VENV/bin/chroma, else this venv). Skips when the
# pinned version is already there.
set -euo pipefail
source "$(dirname "$0")/../pypi-venv.sh"
pypi_venv chroma chromadb 1.5.9 "${CHROMA_VENV:-$HOME/.cache/memwasm/chroma-py}" chroma
