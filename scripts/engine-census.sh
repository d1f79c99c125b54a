#!/usr/bin/env bash
# How tied the engine is to its features: (a) the fields of `MemoryEngine`, (b) every line of the engine
# (src/core/engine/, tests left out) that names a feature: its module path, its handle, or its state field.
# Printed apart, (c) the lines that use the engine's own storage handles for vectors kept elsewhere or later:
# the remote index (`engine/remote_index/`, vectors in a provider such as Chroma) and deferred vectors (kept
# while the embedder is down). They are the engine's, like the in-RAM index, so (b) does not count them.
# Run from the repository root: bash scripts/engine-census.sh
set -euo pipefail
engine=src/core/engine
# The feature modules of src/core/ (folders and files whose code only some memories use).
modules='conversations|tiers|documents|memory_lifecycle|graph|graph_memory|fast_add|additive'
# The engine's methods that return a feature's handle (`engine.lifecycle()` is memory_lifecycle's).
methods='conversations|tiers|documents|lifecycle|graph|fast_add|additive'
# How the engine reaches them: the handle calls and types, and the engine fields that hold their state.
handles='Conversations|Tiers|Documents|MemoryLifecycle|GraphMemory|FastAdd|Additive'
fields='graph|conversations|additive|accessed'
# Not counted: core::lifecycle and the engine's `lifecycle` settings field. They are the rules every write and
# read applies (importance, TTL, limits, decay's plan), engine-wide like the clock; the lifecycle feature's
# operations (pin, decay, keys, share, stats) are memory_lifecycle, reached with `self.lifecycle()`.

fields_of_engine=$(awk '/^pub struct MemoryEngine/{inside=1; next} inside && /^}/{exit} inside && /^ *pub\(crate\) [a-z_]+:/{n++} END{print n+0}' "$engine/memory.rs")
echo "MemoryEngine fields: $fields_of_engine"

# The lines of the engine (tests and the remote index's own folder left out) that match $1.
lines_matching() {
  find "$engine" -name '*.rs' ! -name '*_tests.rs' ! -path "$engine/remote_index/*" | sort | xargs grep -nE "$1" \
    | grep -vE '^[^:]+:[0-9]+: *//' || true
}
# Prints "$1: N" and the lines.
report() {
  local count
  count=$(printf '%s' "$2" | grep -c . || true)
  echo "$1: $count"
  printf '%s\n' "$2" | sed -E 's/^([^:]+:[0-9]+):[[:space:]]*/  \1  /' | grep -v '^$' || true
}
report "places in the engine that name a feature" \
  "$(lines_matching "core::($modules)\b|\b(self|engine)\.($methods)\(\)|\b($handles)\b|self\.($fields)\b")"
report "places that use the storage handles for vectors kept elsewhere or later (remote index, deferred)" \
  "$(lines_matching "\b(self|engine)\.remote_vectors\(\)|\bRemoteIndex\b|self\.(remote|deferred)\b")"
