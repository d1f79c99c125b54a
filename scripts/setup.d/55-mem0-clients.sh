#!/usr/bin/env bash
# mem0's official Python client (PyPI mem0ai, pinned) in its own venv, for the worker's mem0 platform API
# tests (worker/tests/mem0-*.test.mjs run it through worker/tests/mem0_client.py). The npm client is a
# devDependency of worker/package.json. Skips when the pinned version is already there.
set -euo pipefail
source "$(dirname "$0")/../pypi-venv.sh"
pypi_venv mem0-clients mem0ai 2.2.1 "${MEM0_VENV:-$HOME/.cache/memwasm/mem0-py}"
