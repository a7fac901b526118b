#!/usr/bin/env bash
# Installs what a fresh machine lacks for building and testing Collective Lab.
# Idempotent and quick when everything is present. Source it (`. scripts/setup.sh`)
# so that PATH picks up the tools folder.
#
#   - the wasm32-unknown-unknown target
#   - Trunk 0.21.14
#   - wasm-bindgen-cli matching the wasm-bindgen version in Cargo.lock
#     (also gives wasm-bindgen-test-runner)
#   - wasm-opt from the npm package binaryen@132 (Debian's binaryen 108 is too old)
#   - Debian's chromium and chromium-driver (browser tests, screenshots)
#   - playwright-core and axe-core from npm into scripts/browser/ (benchmark,
#     URL sweep, accessibility and layout audit; they drive /usr/bin/chromium)
#   - Debian's openmpi-bin, libopenmpi-dev and libclang-dev (the MPI runner,
#     runner/: rsmpi's bindings are generated with libclang)
set -euo pipefail

LAB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${COLLECTIVE_LAB_TOOLS:-$HOME/.collective-lab-tools}"
export PATH="$TOOLS/node_modules/.bin:$HOME/.cargo/bin:$PATH"
say() { printf '[setup] %s\n' "$*" >&2; }
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

WB_VERSION="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' "$LAB_ROOT/Cargo.lock")"
if ! wasm-bindgen --version 2>/dev/null | grep -q " ${WB_VERSION}\$"; then
  say "installing wasm-bindgen-cli ${WB_VERSION} (matches Cargo.lock)"
  # Not --locked: one of its locked dependencies is not served here.
  cargo install wasm-bindgen-cli --version "${WB_VERSION}"
fi

if ! "$TOOLS/node_modules/.bin/wasm-opt" --version >/dev/null 2>&1; then
  say "installing wasm-opt (npm binaryen@132) into $TOOLS"
  mkdir -p "$TOOLS"
  (cd "$TOOLS" && npm install --no-audit --no-fund --silent binaryen@132)
fi

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  say "installing chromium and chromium-driver"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi

if [ ! -d "$LAB_ROOT/scripts/browser/node_modules/playwright-core" ] || [ ! -d "$LAB_ROOT/scripts/browser/node_modules/axe-core" ]; then
  say "installing playwright-core and axe-core (npm, for scripts/browser/)"
  # Not needed by scripts/test.sh, so a failure here only disables those scripts.
  (cd "$LAB_ROOT/scripts/browser" && npm ci --no-audit --no-fund --silent) \
    || say "npm ci failed: scripts/browser/*.mjs will not run until it succeeds"
fi

if ! command -v mpirun >/dev/null 2>&1 || ! dpkg -s libopenmpi-dev >/dev/null 2>&1 \
  || ! dpkg -s libclang-dev >/dev/null 2>&1; then
  say "installing openmpi-bin, libopenmpi-dev and libclang-dev (the MPI runner)"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openmpi-bin libopenmpi-dev libclang-dev >/dev/null
fi

export CHROMEDRIVER="${CHROMEDRIVER:-$(command -v chromedriver)}"
