#!/usr/bin/env bash
# RustSec advisories for every crate in Cargo.lock: `cargo deny check
# advisories` with deny.toml (which explains each ignore). A step of
# scripts/test.sh; scripts/setup.sh installs cargo-deny.
#
#   bash scripts/advisories.sh
#       cargo-deny fetches the advisory database from
#       https://github.com/rustsec/advisory-db (into ~/.cargo/advisory-dbs).
#   ADVISORY_DB=/path/to/advisory-db bash scripts/advisories.sh
#       checks against that git clone of the database instead, without any
#       fetch (for machines that cannot reach github.com).
#
# Exits non-zero when an advisory applies, and also when the database cannot
# be fetched or read: the check never passes without having run.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${ADVISORY_DB:-}" ]; then
  if ! cargo deny check advisories; then
    echo "advisories: FAILED (an advisory above, or the database could not be fetched from github.com;" >&2
    echo "  without access to github.com, set ADVISORY_DB to a git clone of rustsec/advisory-db)" >&2
    exit 1
  fi
  exit 0
fi
# cargo-deny reads a database from <db-path>/advisory-db-<hash of its URL>;
# this is the folder it uses for https://github.com/RustSec/advisory-db.
DBS="$(mktemp -d)"
trap 'rm -rf "$DBS"' EXIT
DB="$DBS/advisory-db-3157b0e258782691"
git clone --quiet --depth 1 "file://$(realpath "$ADVISORY_DB")" "$DB" \
  || { echo "advisories: FAILED: ADVISORY_DB=$ADVISORY_DB is not a git clone of the advisory database" >&2; exit 1; }
echo "advisory database: $ADVISORY_DB at $(git -C "$DB" log -1 --format='%h, %cI')"
awk -v dbs="$DBS" '{ print } /^\[advisories\]$/ { print "db-path = \"" dbs "\"" }' deny.toml >"$DBS/deny.toml"
cargo deny --offline --config "$DBS/deny.toml" check advisories
