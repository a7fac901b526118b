#!/usr/bin/env bash
# The quick edit-loop check, cargo only (no browser, no MPI, no Trunk):
# fmt, clippy on both targets with -D warnings, and the native tests of the
# app's package. `bash scripts/test.sh` runs everything, as CI does.
#
#   bash scripts/check.sh [test filter]
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n=== %s\n' "$*"; }
step "cargo fmt --check"
cargo fmt --all -- --check
step "cargo clippy (native, all targets)"
cargo clippy --all-targets -- -D warnings
step "cargo clippy (wasm32: app and browser tests)"
cargo clippy --target wasm32-unknown-unknown --lib --bins --tests -- -D warnings
# modules/ (on-demand modules of a view) are workspace members: the lines
# above cover only the root package.
step "cargo clippy (the modules of modules/, wasm32 and native)"
for m in ringclock quality; do
  cargo clippy -p "collective-lab-$m" --target wasm32-unknown-unknown -- -D warnings
  cargo clippy -p "collective-lab-$m" --all-targets -- -D warnings
done
step "native tests"
cargo test "$@"
