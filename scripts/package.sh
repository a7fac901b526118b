#!/usr/bin/env bash
# Packs the release build as collective-lab-<version>.zip for a teacher who
# hosts it without building: the release dist/ (every view's binary, the
# examples, the licences) in one folder `collective-lab-<version>/`, with
# docs/HOSTING.md beside index.html. The version is the crate's
# (Cargo.toml).
#
#   bash scripts/package.sh          # after `. scripts/setup.sh && trunk build --release`
#
# It packs the dist/ that is there and builds nothing (CI runs it right
# after its release build), so build with --release first; it stops, saying
# why, when dist/ is missing or lacks a view's binary. Prints the zip's
# path, size and file count.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f dist/index.html ] || { echo "package: no dist/index.html: run '. scripts/setup.sh && trunk build --release' first" >&2; exit 1; }
# Every view's binary (src/bin/<view>.rs), named with its content hash by
# the post-build hook: a dist/ that a build left half-written stops here.
for bin in src/bin/*.rs; do
  v="$(basename "$bin" .rs)"
  ls dist/"$v"-*_bg.wasm >/dev/null 2>&1 || { echo "package: dist/ has no binary for the $v view: run 'trunk build --release'" >&2; exit 1; }
done
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)"
[ -n "$version" ] || { echo "package: no version in Cargo.toml" >&2; exit 1; }
name="collective-lab-$version"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp -r dist "$stage/$name"
cp docs/HOSTING.md "$stage/$name/HOSTING.md"
rm -f "$name.zip"
# python3's zipfile (scripts/setup.sh has python3 for the smoke test): no
# zip tool to install.
(cd "$stage" && python3 -m zipfile -c "$OLDPWD/$name.zip" "$name")
files="$(python3 -c 'import sys, zipfile; print(sum(not n.endswith("/") for n in zipfile.ZipFile(sys.argv[1]).namelist()))' "$name.zip")"
echo "package: $name.zip ($(wc -c <"$name.zip") B, $files files)"
