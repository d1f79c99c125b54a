#!/usr/bin/env bash
# Fuzzes every target of fuzz/ (or the TARGETs named) with cargo fuzz (libFuzzer, nightly) for SECONDS each
# (default 600): `fuzz.sh [SECONDS] [TARGET...]`. Then prints
# each target's executions and crashes. The seeds are fuzz/corpus/<target>/; new interesting inputs go to
# fuzz/found/<target>/ (ignored by git: copy the useful ones into the corpus, which tests/fuzz_replay.rs
# replays in CI); a crash's input lands in fuzz/artifacts/<target>/ —
# fix it, and copy the input to fuzz/regressions/<target>/ so the replay keeps it fixed.
# Needs: rustup toolchain nightly, cargo install cargo-fuzz.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
seconds=${1:-600}
shift $(($# > 0 ? 1 : 0))
targets=${*:-$(cd fuzz/fuzz_targets && ls *.rs | sed 's/\.rs$//')}
printf '%-12s %14s %8s\n' target execs crashes
for target in $targets; do
  log=$(mktemp)
  mkdir -p "fuzz/found/$target"
  (cd fuzz && cargo +nightly fuzz run "$target" "found/$target" "corpus/$target" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10) >"$log" 2>&1
  execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
  [ -n "$execs" ] || execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
  crashes=$(ls "fuzz/artifacts/$target" 2>/dev/null | grep -c '^crash-\|^timeout-\|^oom-' || true)
  printf '%-12s %14s %8s\n' "$target" "${execs:-0}" "$crashes"
  rm -f "$log"
done
