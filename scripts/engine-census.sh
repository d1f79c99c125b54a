#!/usr/bin/env bash
# How tied the engine is to its features: (a) the fields of `MemoryEngine`, (b) every line of the engine
# (src/core/engine/, tests left out) that names a feature: its module path, its handle, or its state field.
# Run from the repository root: bash scripts/engine-census.sh
set -euo pipefail
engine=src/core/engine
# The feature modules of src/core/ (folders and files whose code only some memories use).
modules='conversations|tiers|documents|memory_lifecycle|graph|graph_memory|remote_vectors|fast_add|additive'
# The engine's methods that return a feature's handle (`engine.lifecycle()` is memory_lifecycle's).
methods='conversations|tiers|documents|lifecycle|graph|remote_vectors|fast_add|additive'
# How the engine reaches them: the handle calls and types, and the engine fields that hold their state.
handles='Conversations|Tiers|Documents|MemoryLifecycle|GraphMemory|RemoteIndex|FastAdd|Additive'
fields='graph|conversations|remote|deferred|additive|accessed'
# Not counted: core::lifecycle and the engine's `lifecycle` settings field. They are the rules every write and
# read applies (importance, TTL, limits, decay's plan), engine-wide like the clock; the lifecycle feature's
# operations (pin, decay, keys, share, stats) are memory_lifecycle, reached with `self.lifecycle()`.

fields_of_engine=$(awk '/^pub struct MemoryEngine/{inside=1; next} inside && /^}/{exit} inside && /^ *pub\(crate\) [a-z_]+:/{n++} END{print n+0}' "$engine/memory.rs")
echo "MemoryEngine fields: $fields_of_engine"

pattern="core::($modules)\b|\b(self|engine)\.($methods)\(\)|\b($handles)\b|self\.($fields)\b"
places=$(find "$engine" -name '*.rs' ! -name '*_tests.rs' | sort | xargs grep -nE "$pattern" | grep -vE '^[^:]+:[0-9]+: *//' || true)
count=$(printf '%s' "$places" | grep -c . || true)
echo "places in the engine that name a feature: $count"
printf '%s\n' "$places" | sed -E 's/^([^:]+:[0-9]+):[[:space:]]*/  \1  /' | grep -v '^$' || true
