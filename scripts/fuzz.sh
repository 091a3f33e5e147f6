#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for SECONDS (default 60) from the corpus
# in tests/fuzz/corpus. New interesting inputs go to a scratch folder, not into the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
scripts/install-deps.sh
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target fuzz_preset fuzz_assignment fuzz_sweep fuzz_path
for target in preset assignment sweep path; do
  scratch=$(mktemp -d)
  echo "fuzz_$target: ${seconds} s"
  build/fuzz/tests/fuzz/fuzz_$target -max_total_time="$seconds" -print_final_stats=1 "$scratch" \
    "tests/fuzz/corpus/$target" 2>&1 | grep -E "stat::number_of_executed_units|ERROR|Done" || true
  status=${PIPESTATUS[0]}
  rm -rf "$scratch"
  [ "$status" = 0 ] || { echo "fuzz_$target failed"; exit 1; }
done
