#!/usr/bin/env bash
# Setup for bench/onnx.mjs, idempotent: the pinned PyPI `onnx` into the reference venv of
# scripts/setup.d/65-minilm.sh, .model/model.onnx built from the local embedder's weights (again when
# build-model.py or the weights are newer), .model/model.int8.onnx quantised from it with the pinned PyPI
# `onnxruntime` (quantize-model.py), and the pinned onnxruntime-web from npm.
# Env: MINILM_DIR (default ~/.cache/memwasm/minilm), MINILM_PY (default the venv's python).
set -euo pipefail
cd "$(dirname "$0")"
ONNX_VERSION=1.23.2
ORT_PY_VERSION=1.31.1
MODEL_DIR=${MINILM_DIR:-$HOME/.cache/memwasm/minilm}
PY=${MINILM_PY:-$HOME/.cache/memwasm/minilm-ref-py/bin/python}
MODEL=.model/model.onnx

[ -x "$PY" ] || { echo "setup.sh: no python at $PY (run scripts/setup.d/65-minilm.sh)" >&2; exit 1; }
[ -f "$MODEL_DIR/model.safetensors" ] || { echo "setup.sh: no weights in $MODEL_DIR (run scripts/setup.d/65-minilm.sh)" >&2; exit 1; }

# 1. onnx (only its helpers are used; it brings protobuf and ml_dtypes).
if ! "$PY" -c "import onnx, sys; sys.exit(onnx.__version__ != '$ONNX_VERSION')" 2>/dev/null; then
  echo "setup.sh: pip install onnx==$ONNX_VERSION"
  "$PY" -m pip install --quiet --disable-pip-version-check "onnx==$ONNX_VERSION"
fi

# 2. The model, written to a temporary file first so an interrupted build leaves no half model.
if [ ! -f "$MODEL" ] || [ build-model.py -nt "$MODEL" ] || [ "$MODEL_DIR/model.safetensors" -nt "$MODEL" ]; then
  mkdir -p .model
  "$PY" build-model.py "$MODEL_DIR" "$MODEL.tmp"
  mv "$MODEL.tmp" "$MODEL"
fi

# 3. The int8 graph, as transformers.js's model_quantized.onnx is made (dynamic quantisation).
if [ ! -f .model/model.int8.onnx ] || [ quantize-model.py -nt .model/model.int8.onnx ] || [ "$MODEL" -nt .model/model.int8.onnx ]; then
  if ! "$PY" -c "import onnxruntime, sys; sys.exit(onnxruntime.__version__ != '$ORT_PY_VERSION')" 2>/dev/null; then
    echo "setup.sh: pip install onnxruntime==$ORT_PY_VERSION"
    "$PY" -m pip install --quiet --disable-pip-version-check "onnxruntime==$ORT_PY_VERSION"
  fi
  "$PY" quantize-model.py "$MODEL" .model/model.int8.onnx.tmp
  mv .model/model.int8.onnx.tmp .model/model.int8.onnx
fi

# 4. onnxruntime-web, at the exact version of package.json.
want=$(node -p 'require("./package.json").dependencies["onnxruntime-web"]')
have=$(node -p 'try { require("./node_modules/onnxruntime-web/package.json").version } catch { "" }')
if [ "$want" != "$have" ]; then
  echo "setup.sh: npm install onnxruntime-web@$want"
  npm install --no-audit --no-fund --loglevel=error
fi
