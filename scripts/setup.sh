#!/usr/bin/env bash
# Installs what a fresh machine lacks for building and testing Collective Lab.
# Idempotent and quick when everything is present. Source it (`. scripts/setup.sh`)
# so that PATH picks up the tools folder.
#
#   - the wasm32-unknown-unknown target
#   - Trunk 0.21.14
#   - wasm-bindgen-cli at the version Trunk.toml pins ([tools] wasm_bindgen,
#     the wasm-bindgen of Cargo.lock; also gives wasm-bindgen-test-runner)
#   - wasm-opt from the npm package binaryen@N, N from Trunk.toml's
#     wasm_opt = "version_N" (Debian's binaryen 108 is too old)
#   - Debian's chromium and chromium-driver (browser tests, screenshots)
#   - playwright-core and axe-core from npm into scripts/browser/ (embed check,
#     URL sweep and accessibility audit of scripts/test.sh, and the benchmark;
#     they drive /usr/bin/chromium), and terser, which minifies the JS glue
#     in the release build (scripts/hash-views.sh). They need Node 20 or later.
#   - python3 (scripts/smoke.sh serves dist/ with its http.server)
#   - Debian's openmpi-bin, libopenmpi-dev and libclang-dev (the MPI runner,
#     runner/: rsmpi's bindings are generated with libclang)
#   - cargo-deny (the advisory check of scripts/test.sh)
# What cannot be installed stops the script with a line saying what is
# missing: scripts/test.sh never skips a check for want of a tool.
set -euo pipefail

LAB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${COLLECTIVE_LAB_TOOLS:-$HOME/.collective-lab-tools}"
export PATH="$TOOLS/node_modules/.bin:$HOME/.cargo/bin:$PATH"
say() { printf '[setup] %s\n' "$*" >&2; }
# Stops here (and, under `set -e`, the script or shell that sourced this).
die() { say "MISSING: $*"; return 1; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# rust-toolchain.toml pins the toolchain, and rustup does not install a pinned
# toolchain by itself. When the machine's stable toolchain is that version,
# link it under the pinned name (rustup's `toolchain link` refuses names that
# look like releases, so the link is made by hand); otherwise install it.
# Everything here runs outside the repository, where the pin does not apply.
PINNED="$(sed -n 's/^channel = "\(.*\)"$/\1/p' "$LAB_ROOT/rust-toolchain.toml")"
if [ -n "$PINNED" ] && ! (cd / && rustup toolchain list) | grep -q "^$PINNED-"; then
  stable_root="$(cd / && rustup run stable rustc --print sysroot 2>/dev/null || true)"
  host="$(cd / && rustup run stable rustc -vV 2>/dev/null | sed -n 's/^host: //p' || true)"
  if [ -n "$stable_root" ] && [ -n "$host" ] \
    && (cd / && rustup run stable rustc --version) | grep -q "^rustc $PINNED "; then
    say "linking the stable toolchain ($PINNED) under the pinned name"
    ln -s "$stable_root" "$(dirname "$stable_root")/$PINNED-$host"
  else
    say "installing the pinned toolchain $PINNED"
    (cd / && rustup toolchain install "$PINNED" --profile minimal -c clippy,rustfmt -t wasm32-unknown-unknown)
  fi
fi

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if ! trunk --version 2>/dev/null | grep -q '0\.21\.14'; then
  say "installing trunk 0.21.14 (about 12 minutes on 2 cores)"
  cargo install --locked trunk@0.21.14
fi

# Trunk.toml pins the tools ([tools]); Trunk runs offline and refuses others.
pin() { sed -n "s/^$1 = \"\(.*\)\"$/\1/p" "$LAB_ROOT/Trunk.toml"; }
WB_VERSION="$(pin wasm_bindgen)"
BINARYEN="$(pin wasm_opt | sed 's/^version_//')"
[ -n "$WB_VERSION" ] && [ -n "$BINARYEN" ] || die "Trunk.toml has no [tools] wasm_bindgen and wasm_opt pins"
if ! wasm-bindgen --version 2>/dev/null | grep -q " ${WB_VERSION}\$"; then
  say "installing wasm-bindgen-cli ${WB_VERSION} (matches Cargo.lock)"
  # Not --locked: one of its locked dependencies is not served here.
  cargo install wasm-bindgen-cli --version "${WB_VERSION}"
fi

# Node 20 or later: playwright-core (scripts/browser/) requires it, and npm
# installs wasm-opt. Debian 12's nodejs is 18, so it is not installed here.
node_major="$(node --version 2>/dev/null | sed -n 's/^v\([0-9]*\)\..*/\1/p')"
if [ -z "$node_major" ] || [ "$node_major" -lt 20 ] || ! command -v npm >/dev/null 2>&1; then
  die "Node.js 20 or later with npm (found: $(node --version 2>/dev/null || echo none)); install it (nodejs.org, or NodeSource's Debian packages) and run this again"
fi

if ! "$TOOLS/node_modules/.bin/wasm-opt" --version 2>/dev/null | grep -q "^wasm-opt version $BINARYEN "; then
  say "installing wasm-opt (npm binaryen@$BINARYEN) into $TOOLS"
  mkdir -p "$TOOLS"
  (cd "$TOOLS" && npm install --no-audit --no-fund --silent "binaryen@$BINARYEN") \
    || die "wasm-opt: npm install binaryen@$BINARYEN failed"
fi

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  say "installing chromium and chromium-driver"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi

if [ ! -d "$LAB_ROOT/scripts/browser/node_modules/playwright-core" ] || [ ! -d "$LAB_ROOT/scripts/browser/node_modules/axe-core" ] \
  || [ ! -d "$LAB_ROOT/scripts/browser/node_modules/terser" ]; then
  say "installing playwright-core, axe-core and terser (npm ci in scripts/browser/)"
  (cd "$LAB_ROOT/scripts/browser" && npm ci --no-audit --no-fund --silent) \
    || die "playwright-core, axe-core and terser: npm ci in scripts/browser/ failed (scripts/test.sh and the release build need them)"
fi

if ! command -v python3 >/dev/null 2>&1; then
  say "installing python3 (scripts/smoke.sh serves dist/ with it)"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 >/dev/null \
    || die "python3: apt-get install python3 failed"
fi

if ! command -v mpirun >/dev/null 2>&1 || ! dpkg -s libopenmpi-dev >/dev/null 2>&1 \
  || ! dpkg -s libclang-dev >/dev/null 2>&1; then
  say "installing openmpi-bin, libopenmpi-dev and libclang-dev (the MPI runner)"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openmpi-bin libopenmpi-dev libclang-dev >/dev/null
fi

if ! cargo deny --version >/dev/null 2>&1; then
  say "installing cargo-deny (the advisory check; a few minutes on 2 cores)"
  cargo install --locked cargo-deny || die "cargo-deny: cargo install --locked cargo-deny failed"
fi

export CHROMEDRIVER="${CHROMEDRIVER:-$(command -v chromedriver)}"
