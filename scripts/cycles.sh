#!/usr/bin/env bash
# The layer rules over all of src/ (tests/layers.rs): the order
# core < params < pages < {plot, export} < app < bin, pages apart, views
# apart, and no circle between any two files; then the older check of
# src/core's top-level modules (tests/core_layers.rs). Each break is printed
# with the file and line of the edge; test code and comments do not count.
#
#   bash scripts/cycles.sh [SRC_DIR]    (default: src)
set -euo pipefail
cd "$(dirname "$0")/.."
SRC="$(realpath "${1:-src}")"
SRC_DIR="$SRC" cargo test --quiet --test layers
CORE_DIR="$SRC/core" cargo test --quiet --test core_layers
