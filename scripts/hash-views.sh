#!/usr/bin/env bash
# Trunk post_build hook (Trunk.toml): gives each per-view binary that Trunk
# built as a "worker" app (unhashed `<view>.js` and `<view>_bg.wasm`) a
# content hash in its name, as Trunk does for the main app, and writes the
# new names into the loader's table in index.html. A redeployed dist/ then
# never mixes a cached old binary with new glue.
set -euo pipefail
dir="${TRUNK_STAGING_DIR:?run by trunk as a post_build hook}"
for js in "$dir"/*.js; do
  view="$(basename "$js" .js)"
  wasm="$dir/${view}_bg.wasm"
  [ -f "$wasm" ] || continue
  case "$view" in *-*) continue ;; esac # Trunk's main app is hashed already
  hash="$(cat "$js" "$wasm" | sha256sum | cut -c1-16)"
  mv "$js" "$dir/$view-$hash.js"
  mv "$wasm" "$dir/$view-${hash}_bg.wasm"
  grep -q "\"$view\": \"$view\"" "$dir/index.html" || { echo "hash-views: the loader has no entry for $view" >&2; exit 1; }
  sed -i "s|\"$view\": \"$view\"|\"$view\": \"$view-$hash\"|" "$dir/index.html"
done
