#!/usr/bin/env bash
# Quick start, command 1: set up everything and run the main job on the flag scene.
# Extra arguments go to the program.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
exec build/release/src/cli/clothsim --scene flag --seconds 3 --stats - "$@"
