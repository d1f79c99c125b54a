#!/usr/bin/env bash
# Installs what building and testing need on a fresh machine, skipping whatever is already in place.
# `setup.sh` runs every step in scripts/setup.d/ (in name order); `setup.sh rust` runs only the named ones
# (a step's name is its file name without the number and extension, e.g. 10-rust.sh -> rust).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

for step in scripts/setup.d/*.sh; do
  name=$(basename "$step" .sh); name=${name#*-}
  if [ $# -eq 0 ] || printf '%s\n' "$@" | grep -qx "$name"; then
    bash "$step"
  fi
done
