#!/usr/bin/env bash
# all-MiniLM-L6-v2 for the on-device embedder's tests: the weights (64-minilm-weights.sh, run here too, so
# `setup.sh minilm` alone is enough), plus the reference venv (PyPI tokenizers, numpy, safetensors) that
# tests/local-embedder/reference.py runs in, and an f16 copy of the weights. Skips whatever is already there.
set -euo pipefail
source "$(dirname "$0")/../pypi-venv.sh"
dir="${MINILM_DIR:-$HOME/.cache/memwasm/minilm}"
bash "$(dirname "$0")/64-minilm-weights.sh"

venv="${MINILM_REF_VENV:-$HOME/.cache/memwasm/minilm-ref-py}"
pypi_venv minilm-ref tokenizers 0.23.3 "$venv"
for pin in numpy==2.4.6 safetensors==0.8.0; do
  "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('${pin%%==*}') != '${pin#*==}')" 2>/dev/null \
    || "$venv/bin/pip" install --quiet --disable-pip-version-check "$pin"
done
printf '[setup minilm] ready: reference venv %s\n' "$venv"

# An f16 copy of the weights (half the download), for the test that f16 storage keeps cosine >= 0.99.
if [ ! -f "$dir/model.f16.safetensors" ]; then
  "$venv/bin/python" - "$dir" <<'PY'
import sys
import numpy as np
from safetensors.numpy import load_file, save_file
d = sys.argv[1]
save_file({k: v.astype(np.float16) for k, v in load_file(f"{d}/model.safetensors").items()}, f"{d}/model.f16.safetensors.part")
PY
  mv "$dir/model.f16.safetensors.part" "$dir/model.f16.safetensors"
fi
printf '[setup minilm] ready: f16 weights (%s bytes)\n' "$(stat -c %s "$dir/model.f16.safetensors")"
