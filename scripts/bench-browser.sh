#!/usr/bin/env bash
# In-browser measurements, outside the product: runs tests/bench_browser.rs
# (wasm-bindgen-test, headless Chromium through chromedriver) with the release
# profile (the shipped opt-level "z") and prints the median of each case. Not
# a test: it asserts nothing about speed, and CI's `--test 'browser*'` does not
# match it. Extra arguments go to the test runner (e.g. a case name: `gossip`).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
CHROMEDRIVER="$CHROMEDRIVER" WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-600}" \
  cargo test --release --target wasm32-unknown-unknown --test bench_browser -- --nocapture "$@"
