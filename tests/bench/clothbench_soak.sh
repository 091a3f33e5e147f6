#!/usr/bin/env bash
# The soak as a test: CLOTH_SOAK_STEPS random steps (default 20000; the sanitizer run in .ci/run takes
# fewer, as it takes fewer guard stress cases), nothing non-finite may escape.
set -u
exec "$1" --soak "${CLOTH_SOAK_STEPS:-20000}"
