#!/usr/bin/env bash
# Trunk post_build hook (Trunk.toml): minifies each binary's JS glue, gives
# each per-view binary that Trunk built as a "worker" app (unhashed `<view>.js` and `<view>_bg.wasm`) a
# content hash in its name, as Trunk does for the main app (the ring view,
# `ring-<hash>.js`), and writes every binary's hashed name into the loader's
# table at the top of index.html. A redeployed dist/ then never mixes a
# cached old binary with new glue.
#
# First it gives the wasm's imports and exports short names: wasm-opt
# renames them (`__wbg_select_6daf0a771fc1452a` becomes `$`; each name's
# 16-digit hash is in both files and does not compress) and prints the old
# and new names, then one more -Oz; scripts/minify-wasm-names.mjs renames the
# glue to match and checks the pair against each other. About 3.5 KB gzipped
# off every page. wasm-opt needs the same features as Trunk's run, from the
# `--enable-*` flags of index.html.
#
# Then it minifies each binary's JS glue with terser (Trunk's minify does
# not reach wasm-bindgen's output): about 1.9 KB gzipped off every page.
# Names of properties are kept, so the wasm's imports still find their
# functions.
set -euo pipefail
dir="${TRUNK_STAGING_DIR:?run by trunk as a post_build hook}"
terser="scripts/browser/node_modules/.bin/terser"
[ -x "$terser" ] || { echo "hash-views: $terser missing: run '. scripts/setup.sh'" >&2; exit 1; }
command -v wasm-opt >/dev/null || { echo "hash-views: wasm-opt missing: run '. scripts/setup.sh'" >&2; exit 1; }
mapfile -t features < <(grep -o -- '--enable-[a-z-]*' index.html | sort -u)
[ "${#features[@]}" -gt 0 ] || { echo "hash-views: no --enable-* flags in index.html" >&2; exit 1; }
for js in "$dir"/*.js; do
  name="$(basename "$js" .js)"
  wasm="$dir/${name}_bg.wasm"
  [ -f "$wasm" ] || continue
  wasm-opt "${features[@]}" --strip-producers --strip-target-features \
    --minify-imports-and-exports-and-modules -Oz "$wasm" -o "$wasm.min" >"$wasm.names"
  node scripts/minify-wasm-names.mjs "$js" "$wasm.min" "$wasm.names"
  mv "$wasm.min" "$wasm"
  rm "$wasm.names"
  "$terser" "$js" --module --compress --mangle -o "$js.min"
  mv "$js.min" "$js"
  case "$name" in
    *-*) view="${name%%-*}" ;; # Trunk's main app, hashed already
    *)
      view="$name"
      hash="$(cat "$js" "$dir/${name}_bg.wasm" | sha256sum | cut -c1-16)"
      name="$view-$hash"
      mv "$js" "$dir/$name.js"
      mv "$dir/${view}_bg.wasm" "$dir/${name}_bg.wasm"
      ;;
  esac
  # The table may be minified (`"ring":"ring"` or `ring:"ring"`).
  entry="\"\\?$view\"\\?: *\"$view\""
  grep -q "$entry" "$dir/index.html" || { echo "hash-views: the loader has no entry for $view" >&2; exit 1; }
  sed -i "s|\\(\"\\?$view\"\\?: *\"\\)$view\"|\\1$name\"|" "$dir/index.html"
done
