#!/usr/bin/env bash
# better-sqlite3 has no prebuilt binary here (its prebuilds are on GitHub; only the npm registry is reachable), so
# each `npm install` of it compiles SQLite for a minute or two. This builds the version the tests pin once per
# machine and Node ABI, in a scratch project, and keeps it as a local prebuild: scripts/lib.sh points
# npm_config_better_sqlite3_local_prebuilds at it, and every later install of that version (tests/, tests/mcp, the
# installed projects, a docs install line) unpacks it instead of compiling again. Not fatal: without it, installs
# compile as before.
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
version=$(node -p 'require("./tests/package.json").dependencies["better-sqlite3"]')
abi=$(node -p process.versions.modules)
name="better-sqlite3-v$version-node-v$abi-$(node -p process.platform)-$(node -p process.arch).tar.gz"
dir="$npm_config_better_sqlite3_local_prebuilds"
[ -s "$dir/$name" ] && exit 0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
if (cd "$scratch" && echo '{"private":true}' >package.json \
    && npm install --no-audit --no-fund --loglevel=error "better-sqlite3@$version") \
  && node -e 'new (require(process.argv[1]))(":memory:")' "$scratch/node_modules/better-sqlite3"; then
  mkdir -p "$dir"
  tar -C "$scratch/node_modules/better-sqlite3" -czf "$dir/$name.tmp" build/Release/better_sqlite3.node && mv "$dir/$name.tmp" "$dir/$name"
  echo "better-sqlite3 $version: built once, kept as $dir/$name"
else
  echo "better-sqlite3 $version could not be built once here: each install compiles it" >&2
fi
exit 0
