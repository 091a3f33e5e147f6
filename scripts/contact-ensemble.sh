#!/usr/bin/env bash
# The drape on Debian's test meshes at the scene's friction and three near it: contacts are chaotic
# (a change anywhere moves where the cloth lands), so one run per mesh says little about how often a
# mesh comes through the cloth. Prints, per run, the worst step's collider penetrations and
# self-intersections, the peak structural strain and the cost per step, then each column's worst.
#
#   scripts/contact-ensemble.sh [BUILD_DIR]     (default build/release; needs assimp-testmodels)
set -euo pipefail

build=${1:-build/release}
sim="$build/src/cli/clothsim"
models=/usr/share/assimp/models
[[ -x $sim ]] || { echo "contact-ensemble: $sim not built" >&2; exit 2; }
[[ -d $models ]] || { echo "contact-ensemble: $models missing (apt install assimp-testmodels)" >&2; exit 2; }

field() { grep -o "\"$1\": [0-9.eE+-]*" | head -1 | awk '{print $2}'; }

printf '%-26s %-9s %12s %12s %8s %8s\n' mesh friction penetrations intersections strain ms/step
worst_pen=0 worst_self=0 worst_strain=0
for mesh in STL/Spider_binary.stl OBJ/WusonOBJ.obj STL/sphereWithHole.stl; do
  for friction in scene 0.28 0.32 0.35; do
    args=(--scene drape --collider-mesh "$models/$mesh" --seconds 6 --stats -)
    [[ $friction == scene ]] || args+=(--set "friction=$friction")
    stats=$("$sim" "${args[@]}")
    pen=$(field max_collider_penetrations <<<"$stats")
    self=$(field max_self_intersections <<<"$stats")
    strain=$(field max_strain <<<"$stats")
    ms=$(field ms_per_step <<<"$stats")
    printf '%-26s %-9s %12d %12d %8.3f %8.2f\n' "$mesh" "$friction" "$pen" "$self" "$strain" "$ms"
    ((pen > worst_pen)) && worst_pen=$pen
    ((self > worst_self)) && worst_self=$self
    worst_strain=$(awk -v a="$worst_strain" -v b="$strain" 'BEGIN { print (b > a) ? b : a }')
  done
done
printf 'worst: %d penetrations, %d self-intersections, peak strain %.3f\n' "$worst_pen" "$worst_self" \
  "$worst_strain"
