#!/usr/bin/env bash
# RustSec advisories for every crate in Cargo.lock: `cargo deny check
# advisories` with deny.toml (which explains each ignore). A step of
# scripts/test.sh; scripts/setup.sh installs cargo-deny.
#
#   bash scripts/advisories.sh
#       With github.com reachable, cargo-deny fetches the current database
#       from https://github.com/rustsec/advisory-db. Without (the CI
#       machines reach only the package registries), it checks against the
#       snapshot in third_party/advisory-db/ (the advisories of the crates in
#       Cargo.lock; its SNAPSHOT file says from when) and says so.
#   ADVISORY_DB=/path/to/advisory-db bash scripts/advisories.sh
#       checks against that git clone of the database, without any fetch.
#
# Exits non-zero when an advisory applies, or when no database can be read:
# the check never passes without having run. Refresh the snapshot with
# scripts/advisory_snapshot.sh after changing dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${ADVISORY_DB:-}" ] && timeout 20 git ls-remote --exit-code \
  https://github.com/rustsec/advisory-db HEAD >/dev/null 2>&1; then
  echo "advisory database: fetched from github.com"
  cargo deny check advisories || { echo "advisories: FAILED (see above)" >&2; exit 1; }
  exit 0
fi
# cargo-deny reads a database from <db-path>/advisory-db-<hash of its URL>;
# this is the folder it uses for https://github.com/RustSec/advisory-db, and
# it must be a git repository.
DBS="$(mktemp -d)"
trap 'rm -rf "$DBS"' EXIT
DB="$DBS/advisory-db-3157b0e258782691"
if [ -n "${ADVISORY_DB:-}" ]; then
  git clone --quiet --depth 1 "file://$(realpath "$ADVISORY_DB")" "$DB" \
    || { echo "advisories: FAILED: ADVISORY_DB=$ADVISORY_DB is not a git clone of the advisory database" >&2; exit 1; }
  echo "advisory database: $ADVISORY_DB at $(git -C "$DB" log -1 --format='%h, %cI')"
else
  SNAP=third_party/advisory-db
  [ -d "$SNAP/crates" ] || { echo "advisories: FAILED: github.com unreachable and no $SNAP/" >&2; exit 1; }
  echo "advisory database: github.com is not reachable from here; checking against the snapshot in $SNAP:"
  sed 's/^/  /' "$SNAP/SNAPSHOT"
  mkdir -p "$DB"
  cp -r "$SNAP/." "$DB/"
  git -C "$DB" init --quiet
  git -C "$DB" add -A
  git -C "$DB" -c user.name=snapshot -c user.email=snapshot@localhost commit --quiet -m "snapshot"
fi
# cargo-deny reads `cargo metadata` offline, which needs the source of every
# crate in Cargo.lock, for every target (a fresh machine has only those it
# built): fetch them first from the package registry, which CI reaches.
cargo fetch --locked --quiet
awk -v dbs="$DBS" '{ print } /^\[advisories\]$/ { print "db-path = \"" dbs "\"" }' deny.toml >"$DBS/deny.toml"
cargo deny --offline --config "$DBS/deny.toml" check advisories
