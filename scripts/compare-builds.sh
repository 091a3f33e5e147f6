#!/bin/sh
# Two clothsim builds side by side on the contact scenes users build: each scene's ms a step
# (clothsim --stats, `ms_per_step`) on one thread and on two, runs of the two builds interleaved so
# that the machine's drift falls on both: the median of N of each (default 3) and new / old, then the
# least of the N and its ratio (on a shared machine the least is the run other work disturbed least).
# Usage: scripts/compare-builds.sh OLD_CLOTHSIM NEW_CLOTHSIM [N]
#   e.g. git worktree add /tmp/old HEAD~3 && cmake -S /tmp/old -B /tmp/old/b -G Ninja \
#        -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF && cmake --build /tmp/old/b --target clothsim
#        scripts/compare-builds.sh /tmp/old/b/src/cli/clothsim build/release/src/cli/clothsim
set -eu
[ $# -ge 2 ] || { echo "usage: $0 OLD_CLOTHSIM NEW_CLOTHSIM [N]" >&2; exit 2; }
old=$1
new=$2
runs=${3:-3}
for b in "$old" "$new"; do [ -x "$b" ] || { echo "not an executable: $b" >&2; exit 2; }; done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
msPerStep() {  # the run's mean ms a step
  "$@" --stats - 2>/dev/null | awk -F: '/"ms_per_step"/ {gsub(/[ ,]/, "", $2); print $2}'
}
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
least() { sort -n | head -1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {print a / b}'; }
printf '%-44s %7s %9s %9s %7s %9s %9s %7s\n' "scene" "threads" "old ms" "new ms" "new/old" "old min" "new min" \
  "new/old"
for args in "--scene ball --set grid=64x64 --seconds 4" \
  "--scene ball --set grid=64x64 --set self_collision=0 --seconds 4" \
  "--scene ball --set grid=100x100 --seconds 2" \
  "--scene layers --seconds 2" \
  "--scene drape --drag 15,15,0,0.3,0,1.5,2.5 --seconds 3"; do
  for threads in 1 2; do
    : >"$scratch/old"
    : >"$scratch/new"
    for _ in $(seq "$runs"); do
      # shellcheck disable=SC2086 # the arguments are words
      msPerStep "$old" $args --set threads=$threads >>"$scratch/old"
      # shellcheck disable=SC2086
      msPerStep "$new" $args --set threads=$threads >>"$scratch/new"
    done
    o=$(median <"$scratch/old")
    n=$(median <"$scratch/new")
    lo=$(least <"$scratch/old")
    ln=$(least <"$scratch/new")
    printf '%-44s %7s %9.2f %9.2f %7.3f %9.2f %9.2f %7.3f\n' \
      "$(echo "$args" | sed 's/--scene //; s/--set //g; s/ --seconds [0-9.]*//')" "$threads" "$o" "$n" \
      "$(ratio "$n" "$o")" "$lo" "$ln" "$(ratio "$ln" "$lo")"
  done
done
