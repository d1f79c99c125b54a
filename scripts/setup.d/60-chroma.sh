#!/usr/bin/env bash
# The Chroma server (PyPI chromadb, pinned) in its own venv, for the remote vector store tests
# (tests/node/chroma-*.test.mjs start `chroma run` on 127.0.0.1 through tests/support/chroma-server.mjs,
# which finds the binary at $CHROMA_BIN, else $CHROMA_VENV/bin/chroma, else this venv). Skips when the
# pinned version is already there.
set -euo pipefail
say() { printf '[setup chroma] %s\n' "$*"; }
version=1.5.9
venv="${CHROMA_VENV:-$HOME/.cache/memwasm/chroma-py}"

if [ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("chromadb"))' 2>/dev/null)" = "$version" ] \
  && [ -x "$venv/bin/chroma" ]; then
  say "ready: PyPI chromadb $version in $venv"
  exit 0
fi
say "installing PyPI chromadb $version into $venv"
mkdir -p "$(dirname "$venv")"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "chromadb==$version"
say "ready: PyPI chromadb $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("chromadb"))')"
