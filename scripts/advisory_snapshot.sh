#!/usr/bin/env bash
# Refreshes third_party/advisory-db/: the RustSec advisories (CC0-1.0) of
# every crate named in Cargo.lock, copied from a git clone of
# https://github.com/rustsec/advisory-db. scripts/advisories.sh checks
# against this snapshot when github.com cannot be reached (as on the CI
# machines, whose network reaches only the package registries).
#
#   bash scripts/advisory_snapshot.sh /path/to/advisory-db
#
# Run it after changing dependencies, and whenever github.com is reachable.
set -euo pipefail
cd "$(dirname "$0")/.."
SRC="${1:?usage: advisory_snapshot.sh /path/to/a/clone/of/advisory-db}"
[ -d "$SRC/crates" ] || { echo "$SRC has no crates/ folder: not the advisory database" >&2; exit 1; }
OUT=third_party/advisory-db
rm -rf "$OUT"
mkdir -p "$OUT/crates"
cp "$SRC/LICENSE.txt" "$OUT/"
n=0
for name in $(sed -n 's/^name = "\(.*\)"$/\1/p' Cargo.lock | sort -u); do
  if [ -d "$SRC/crates/$name" ]; then
    cp -r "$SRC/crates/$name" "$OUT/crates/"
    n=$((n + 1))
  fi
done
{
  echo "RustSec advisory database (https://github.com/rustsec/advisory-db, CC0-1.0),"
  echo "the advisories of the $n crates of Cargo.lock that have any."
  echo "upstream commit: $(git -C "$SRC" log -1 --format='%H' 2>/dev/null || echo unknown)"
  echo "upstream date:   $(git -C "$SRC" log -1 --format='%cI' 2>/dev/null || echo unknown)"
  echo "copied:          $(date -u +%Y-%m-%d) by scripts/advisory_snapshot.sh"
} >"$OUT/SNAPSHOT"
cat "$OUT/SNAPSHOT"
