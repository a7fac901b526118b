#!/usr/bin/env bash
# The README's second command: install what is missing, then run every check:
# fmt, clippy (native and wasm32), rustdoc with -D warnings, the core's
# import-cycle check, the docs' links, native tests, the advisory check (cargo deny), the MPI
# runner (build, clippy, tests, an mpirun sweep), in-browser tests in headless
# Chromium, the release build, a smoke test of every view in dist/ served
# from a sub-folder, the course-page example's frame heights
# (scripts/browser/embed.mjs), the accessibility and layout audit
# (scripts/browser/audit.mjs) and a short URL sweep (scripts/browser/sweep.mjs).
# Every check runs or fails: scripts/setup.sh installs what they need or
# stops saying what is missing, and nothing here is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
# Chromium leaves a profile folder of about 90 MB in the temporary folder for
# every browser the checks start (55 in one run): give them a folder of
# their own and remove it at the end.
TMPDIR="$(mktemp -d)"
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT
. scripts/setup.sh

step() { printf '\n=== %s\n' "$*"; }

# fmt, clippy (native and wasm32) and the native tests: the edit loop's
# own script, so the two never drift apart.
bash scripts/check.sh

step "cargo doc --no-deps, -D warnings (native, and wasm32 for the app)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --lib
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --lib --target wasm32-unknown-unknown
for m in ringclock quality; do
  RUSTDOCFLAGS="-D warnings" cargo doc --no-deps -p "collective-lab-$m" --target wasm32-unknown-unknown
done

step "docs: every link of README.md and docs/ resolves (scripts/links.py)"
python3 scripts/links.py

step "layers: the layer order over src/, and no circle between files (scripts/cycles.sh)"
bash scripts/cycles.sh

# RustSec advisories for every crate in Cargo.lock; each ignore is explained
# in deny.toml. cargo-deny fetches the advisory database from GitHub; where
# GitHub is out of reach (CI), the snapshot in third_party/advisory-db/ is
# read, and the step says from when; ADVISORY_DB=<a clone of
# github.com/rustsec/advisory-db> checks against that copy without fetching.
step "RustSec advisories: cargo deny check advisories (deny.toml)"
bash scripts/advisories.sh

# The runner is a workspace member: the lines above cover only the root
# package, so it is built, linted and tested here (never for wasm32).
step "MPI runner: cargo build, clippy and test -p collective-lab-run"
cargo build -p collective-lab-run
cargo clippy -p collective-lab-run --all-targets -- -D warnings
cargo test -p collective-lab-run

step "MPI runner: mpirun -n 2..5, every registry algorithm, self-checked"
bash scripts/runner_check.sh

step "in-browser tests (wasm-bindgen-test, headless Chromium)"
CHROMEDRIVER="$CHROMEDRIVER" WASM_BINDGEN_TEST_TIMEOUT=180 \
  cargo test --target wasm32-unknown-unknown --test 'browser*'

step "trunk build --release"
trunk build --release

step "release sizes (gzipped; one page loads one view's binary)"
bash scripts/size.sh | sed -n '/^one page/,/^$/p'

step "smoke test: dist/ served from a sub-folder"
bash scripts/smoke.sh

step "release zip: scripts/package.sh, unzipped, served from a sub-folder"
bash scripts/package.sh
unzipped="$TMPDIR/release"
python3 -m zipfile -e collective-lab-*.zip "$unzipped"
[ -f "$unzipped"/collective-lab-*/HOSTING.md ] || { echo "the zip has no HOSTING.md" >&2; exit 1; }
bash scripts/smoke.sh "$unzipped"/collective-lab-*

step "embed example: frame heights at 1280 and 390 px, keys in a frame"
node scripts/browser/embed.mjs

step "accessibility and layout audit: axe-core and overflow at 375/768/1440 px, every view"
node scripts/browser/audit.mjs

step "URL sweep (short): every view's default, then random and adversarial URLs"
node scripts/browser/sweep.mjs --short
