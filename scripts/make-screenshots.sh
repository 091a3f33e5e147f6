#!/usr/bin/env bash
# Renders the README's screenshots with the real viewer into assets/screenshots/.
# Needs a build (scripts/run.sh or scripts/test.sh) and the test packages (xvfb, xdotool, imagemagick).
set -euo pipefail
cd "$(dirname "$0")/.."
clothview=build/release/src/app/clothview
out=assets/screenshots
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

shot() {  # shot NAME ARGS...: a headless 640x400 frame
  local name=$1
  shift
  env -u DISPLAY "$clothview" --headless --width 640 --height 400 --force --screenshot "$tmp/$name.png" "$@" 2>/dev/null
}

# Kang Fig. 9: the same draped cloth as key mesh, cubic spline, wrinkled spline; and Hadap's wrinkles.
for mode in key spline wrinkled hadap; do
  shot "$mode" --scene ball --seconds 2 --set detail=$mode --camera 35,35,1.5 --show no-ground
done
montage -label '%t' "$tmp"/key.png "$tmp"/spline.png "$tmp"/wrinkled.png "$tmp"/hadap.png \
  -tile 2x2 -geometry 480x300+4+4 -pointsize 18 "$out/modes.png"

# Kang Fig. 2: key (red), frame (green) and internal (blue) nodes over the key wireframe.
shot nodes --scene flag --seconds 2 --camera 20,10,1.1 --show wireframe,nodes --set detail=spline --set refine=4
# Hadap Fig. 13: the strain view (blue compressed, red stretched) of a cloth hanging from two corners.
shot strain --scene hang-horizontal --seconds 3 --camera 30,20,1.8 --show strain
montage "$tmp"/nodes.png "$tmp"/strain.png -tile 2x1 -geometry 480x300+4+4 "$out/overlays.png"

# The viewer itself, a corner being dragged with the mouse.
xvfb-run -a -s '-screen 0 1280x720x24' bash -c "
  '$clothview' --scene hang-vertical --exit-after 6 &
  pid=\$!; xdotool search --sync --name clothview >/dev/null; sleep 2.5
  xdotool mousemove 824 596; sleep 0.2; xdotool mousedown 1; sleep 0.2
  for i in 1 2 3 4 5 6 7 8 9 10; do xdotool mousemove \$((824 + 10 * i)) \$((596 - 15 * i)); sleep 0.05; done
  sleep 1.2; import -window root '$tmp/drag.png'; wait \$pid; xdotool mouseup 1"
convert "$tmp/drag.png" -resize 960x540 "$out/drag.png"
for f in "$out"/*.png; do convert "$f" +dither -colors 256 "PNG8:$f"; done  # small files
ls -la "$out"
