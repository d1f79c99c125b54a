#!/usr/bin/env bash
# mem0's official Python client (PyPI mem0ai, pinned) in its own venv, for the worker's mem0 platform API
# tests (worker/tests/mem0-*.test.mjs run it through worker/tests/mem0_client.py). The npm client is a
# devDependency of worker/package.json. Skips when the pinned version is already there.
set -euo pipefail
say() { printf '[setup mem0-clients] %s\n' "$*"; }
version=2.2.1
venv="${MEM0_VENV:-$HOME/.cache/memwasm/mem0-py}"

if [ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mem0ai"))' 2>/dev/null)" = "$version" ]; then
  say "ready: PyPI mem0ai $version in $venv"
  exit 0
fi
say "installing PyPI mem0ai $version into $venv"
mkdir -p "$(dirname "$venv")"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "mem0ai==$version"
say "ready: PyPI mem0ai $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mem0ai"))')"
