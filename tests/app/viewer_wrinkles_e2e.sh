#!/usr/bin/env bash
# Kang's wrinkles are visible in the viewer: at the default camera, the same frame drawn as a smooth
# spline (key 2) and as a wrinkled spline (key 3) differs in at least 5 % of the cloth's pixels by more
# than 8/255, in every paper scene. Rendered headless so both frames show the same simulated state.
clothview="$1"
source "$(dirname "$0")/e2e_lib.sh"
pixels="$(dirname "$0")/pixels.py"
background="158,173,191"  # the clear colour (0.62, 0.68, 0.75): no ground, no markers
for scene in flag waving-flag hang-horizontal hang-vertical ball; do
  for detail in spline wrinkled; do
    "$clothview" --headless --scene "$scene" --seconds 3 --set detail=$detail --show no-ground,no-wind,no-pins \
      --screenshot "$work/$scene-$detail.png" >/dev/null 2>&1 || fail "$scene $detail render failed"
  done
  out=$("$pixels" changed "$work/$scene-spline.png" "$work/$scene-wrinkled.png" "$background" 8)
  echo "$scene: $out"
  percent=$(cut -d' ' -f6 <<<"$out")
  python3 -c "import sys; sys.exit(0 if $percent >= 5 else 1)" || fail "$scene: only $percent % of cloth pixels change"
done
finish
