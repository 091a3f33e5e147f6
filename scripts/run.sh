#!/usr/bin/env bash
# Quick start, command 1: set up everything and open the viewer on the flag scene (Kang Fig. 7).
# Extra arguments go to clothview (see clothview --help). Without a display it renders headless.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
# Only the viewer and what it links: the tests and tools build with scripts/test.sh.
cmake --build --preset release --target clothview
viewer=build/release/src/app/clothview
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "run.sh: no display; rendering 3 s of the flag headless into clothview-captures/ instead"
  exec "$viewer" --headless --scene flag --seconds 3 --record clothview-captures "$@"
fi
exec "$viewer" --scene flag "$@"
