#!/usr/bin/env bash
# README command 1: install what is missing, then serve the app on
# http://127.0.0.1:8080/ (Ctrl-C to stop). Pass --release for an optimised build.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
exec trunk serve "$@"
