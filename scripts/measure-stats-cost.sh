#!/bin/sh
# What --stats costs: clothsim's whole-process time with and without --stats (the intersection and
# penetration counts after every step), runs interleaved, the median of N of each (default 5), on the
# scenes issue #37 names. Usage: scripts/measure-stats-cost.sh [N]  (after the release build)
set -eu
cd "$(dirname "$0")/.."
clothsim=build/release/src/cli/clothsim
runs=${1:-5}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
wall() {  # seconds the command takes, its output discarded
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {print b - a}'
}
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
wuson=/usr/share/assimp/models/STL/Wuson.stl
for args in "--scene hang-vertical --set grid=100x100 --seconds 2" \
  "--scene hang-vertical --set grid=200x200 --seconds 2" \
  "--scene ball --set grid=64x64 --seconds 2" \
  "--scene drape --collider-mesh $wuson --set collider_up=y --seconds 2"; do
  : >"$scratch/without"
  : >"$scratch/with"
  for _ in $(seq "$runs"); do
    # shellcheck disable=SC2086 # the arguments are words
    wall $clothsim $args >>"$scratch/without"
    # shellcheck disable=SC2086
    wall $clothsim $args --stats "$scratch/stats.json" --force >>"$scratch/with"
  done
  without=$(median <"$scratch/without")
  with=$(median <"$scratch/with")
  printf '%s: %.2f s, with --stats %.2f s: %.3fx\n' "$args" "$without" "$with" "$(awk -v a="$with" -v b="$without" 'BEGIN {print a / b}')"
done
