#!/usr/bin/env bash
# The layers of src/core/: fails when its top-level modules import each
# other in a cycle, and prints each cycle's edges with file:line.
# The check is the native test tests/core_layers.rs (test code and comments
# do not count); `bash scripts/cycles.sh [CORE_DIR]` runs it alone.
set -euo pipefail
cd "$(dirname "$0")/.."
CORE_DIR="$(realpath "${1:-src/core}")" cargo test --quiet --test core_layers
