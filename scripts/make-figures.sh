#!/usr/bin/env bash
# Renders the README's figures with the real viewer: the paper figures this project reproduces into
# assets/figures/, the viewer itself into assets/screenshots/, and prints the measurements their
# captions quote. Needs a build (scripts/run.sh or scripts/test.sh) and the test packages (xvfb,
# xdotool, imagemagick, python3).
set -euo pipefail
cd "$(dirname "$0")/.."
clothview=build/release/src/app/clothview
clothsim=build/release/src/cli/clothsim
figures=assets/figures
screens=assets/screenshots
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$figures" "$screens"

shot() {  # shot NAME ARGS...: the last frame of a headless 640x400 run
  local name=$1
  shift
  env -u DISPLAY "$clothview" --headless --width 640 --height 400 --force --screenshot "$tmp/$name.png" "$@" \
    >/dev/null 2>&1
}

sequence() {  # sequence NAME FPS FIRST COUNT ARGS...: COUNT frames from frame FIRST of a 640x400 recording
  local name=$1 fps=$2 first=$3 count=$4
  shift 4
  local seconds
  seconds=$(python3 -c "print(($first + $count) / $fps)")
  env -u DISPLAY "$clothview" --headless --width 640 --height 400 --fps "$fps" --seconds "$seconds" \
    --record "$tmp/$name" "$@" >/dev/null 2>&1
  for ((k = 0; k < count; ++k)); do
    cp "$(printf '%s/%s/recording_0001/frame_%06d.png' "$tmp" "$name" $((first + k)))" "$tmp/$name-$k.png"
  done
}

tile() {  # tile OUTPUT COLUMNS IMAGES...: labelled (a), (b), ... like the papers' figures
  local out=$1 columns=$2
  shift 2
  local labelled=() k=0
  for image in "$@"; do
    local letter
    letter=$(printf "\\x$(printf %x $((97 + k)))")
    convert "$image" -gravity SouthWest -font DejaVu-Sans -pointsize 22 -fill black -annotate +10+8 "($letter)" "$tmp/label-$k.png"
    labelled+=("$tmp/label-$k.png")
    k=$((k + 1))
  done
  montage "${labelled[@]}" -tile "${columns}x" -geometry 480x300+3+3 "$out"
}

# Kang Fig. 2: key (red), frame (green) and internal (blue) nodes over the key wireframe.
# The flag in one implicit step a frame: spread in its wind at 2 s (its default small steps fold it there).
shot fig2 --scene flag --seconds 2 --camera 25,10,1.0 --show wireframe,nodes,no-wind --set detail=spline \
  --set refine=4 --set integrator=implicit-cg --set theta=1
cp "$tmp/fig2.png" "$figures/kang-fig2-node-kinds.png"

# Kang Fig. 7: the flag in a 40 m/s wind, five frames 1/30 s apart after 2 s.
sequence fig7 30 60 5 --scene flag
tile "$figures/kang-fig7-flag.png" 5 "$tmp"/fig7-{0..4}.png

# Kang Fig. 9: the same moment as a smooth and as a wrinkled spline surface.
for detail in spline wrinkled; do
  shot "fig9-$detail" --scene hang-vertical --seconds 3 --camera 20,5,1.2 --set detail=$detail --show no-pins
done
tile "$figures/kang-fig9-spline-wrinkled.png" 2 "$tmp"/fig9-spline.png "$tmp"/fig9-wrinkled.png

# Kang Fig. 10: the flag waved in still air, over one stroke of the hand.
sequence fig10 8 16 5 --scene waving-flag
tile "$figures/kang-fig10-waving-flag.png" 5 "$tmp"/fig10-{0..4}.png

# Hadap Fig. 13: the strain view (blue compressed, red stretched); and Hadap's modulated wrinkles.
shot strain --scene ball --seconds 3 --camera 35,35,1.6 --show strain,no-ground
shot hadap --scene ball --seconds 3 --camera 35,35,1.6 --set detail=hadap --show no-ground
tile "$figures/hadap-fig13-strain-and-wrinkles.png" 2 "$tmp"/strain.png "$tmp"/hadap.png

# Huang Figs. 3-6: each scene at its start and later, as the paper shows them.
shot fig3a --scene hang-horizontal --seconds 0
shot fig3b --scene hang-horizontal --seconds 0.5
shot fig4a --scene hang-vertical --seconds 0
shot fig4b --scene hang-vertical --seconds 3
shot fig5a --scene free-fall --seconds 0.2
shot fig5b --scene free-fall --seconds 3
shot fig6a --scene ball --seconds 0.3
shot fig6b --scene ball --seconds 3
tile "$figures/huang-fig3-6.png" 4 "$tmp"/fig3a.png "$tmp"/fig3b.png "$tmp"/fig4a.png "$tmp"/fig4b.png \
  "$tmp"/fig5a.png "$tmp"/fig5b.png "$tmp"/fig6a.png "$tmp"/fig6b.png

# Mesh colliders (not in the papers): the drape scene on its generated table and on a packaged mesh (Debian's
# assimp-testmodels), the cloth simulated at 30x30 key nodes and rendered as the wrinkled spline.
shot drape-table --scene drape --seconds 3 --camera 35,30,1.6
shot drape-wuson --scene drape --seconds 3 --camera 35,30,1.6 --collider-mesh /usr/share/assimp/models/OBJ/WusonOBJ.obj
tile "$figures/drape-table-and-mesh.png" 2 "$tmp"/drape-table.png "$tmp"/drape-wuson.png

# Contacts, as a user tries them (self-collision on, the scenes' default): (a) the ball scene at 10 s;
# (b) the drape on Debian's Spider at 6 s; (c) a cloth crumpled onto the floor by a corner dragged
# across it, at 4 s. The counts under "measurements" are clothsim's over every step of the same runs.
spider=/usr/share/assimp/models/STL/Spider_binary.stl
crumple=(--scene free-fall --seconds 4 --drag 0,0,0.4,0.05,0.4,1,2)
shot contact-ball --scene ball --seconds 10 --camera 35,25,1.5
shot contact-spider --scene drape --seconds 6 --camera 35,30,1.6 --collider-mesh "$spider"
shot contact-crumple "${crumple[@]}" --camera 210,50,1.4
tile "$figures/contacts.png" 3 "$tmp"/contact-ball.png "$tmp"/contact-spider.png "$tmp"/contact-crumple.png

# A sheet over Debian's standing human (Collada/human.zae fitted to 0.8 m): (a) the drape scene's soft
# cloth at 6 s, (b) the character scene's sheet at 6 s from the front, (c) the same from the side.
human=/usr/share/assimp/models/Collada/human.zae
shot person-drape --scene drape --seconds 6 --camera 30,15,1.4 --collider-mesh "$human"
shot person-6 --scene character --seconds 6 --camera 30,15,1.4
shot person-6-side --scene character --seconds 6 --camera 100,15,1.4
tile "$figures/person.png" 3 "$tmp"/person-drape.png "$tmp"/person-6.png "$tmp"/person-6-side.png

# The struck curtain (ball-hit): (a) at 1.07 s, the ball 0.3 m past the curtain's plane at 10 m/s;
# (b) at 2 s, the curtain swung back over the held ball; (c) at 3 s, the ball withdrawn.
for t in 1.07 2 3; do shot "ball-hit-$t" --scene ball-hit --seconds "$t" --camera 60,10,2.6; done
tile "$figures/ball-hit.png" 3 "$tmp"/ball-hit-1.07.png "$tmp"/ball-hit-2.png "$tmp"/ball-hit-3.png

# Several cloths (layers): four cloths 5 cm apart, each its own colour at the hem, (a) landing on the
# ball at 0.4 s, (b) at 1.5 s, (c) at 6 s. The funnel: (a) the cloth lying in it at 1 s, (b) its middle
# pulled into the throat at 2.5 s, (c) out below it at 4 s.
for t in 0.4 1.5 6; do shot "layers-$t" --scene layers --seconds "$t" --camera 20,20,2.0; done
tile "$figures/layers.png" 3 "$tmp"/layers-0.4.png "$tmp"/layers-1.5.png "$tmp"/layers-6.png
for t in 1 2.5 4; do shot "funnel-$t" --scene funnel --seconds "$t" --camera 30,20,2.4; done
tile "$figures/funnel.png" 3 "$tmp"/funnel-1.png "$tmp"/funnel-2.5.png "$tmp"/funnel-4.png

# The twist: (a) at 1 s, the held edges a quarter turn apart and drawing in; (b) at 2 s, half a turn
# apart, 0.2 m apart, coiling (held: 0 intersections); (c) at 3 s, past where it first fails (2.4 s).
for t in 1 2 3; do shot "twist-$t" --scene twist --seconds "$t" --camera 35,25,1.6; done
tile "$figures/twist.png" 3 "$tmp"/twist-1.png "$tmp"/twist-2.png "$tmp"/twist-3.png

# Compare mode (clothview --compare): (a) the hanging curtain at 2 s, Kang's system solved to 1 % by
# multigrid (left) against Kang eq. 10's single Jacobi iteration (right); (b) the flag at 2 s, its
# default (40 small steps a 60 Hz step, left) against one backward-Euler step a frame (implicit-cg with
# the exact Jacobian at 1/60 s, the default before issue #38, right).
env -u DISPLAY "$clothview" --headless --width 1280 --height 400 --force --scene hang-vertical --seconds 2 \
  --set integrator=approx-implicit --set theta=1 --compare solver=jacobi --camera 20,5,2.4 --show no-pins \
  --screenshot "$tmp/compare-kang.png" >/dev/null 2>&1
env -u DISPLAY "$clothview" --headless --width 1280 --height 400 --force --scene flag --seconds 2 \
  --compare integrator=implicit-cg --compare theta=1 --camera 25,10,1.6 --screenshot "$tmp/compare-flag.png" >/dev/null 2>&1
for f in kang flag; do
  convert "$tmp/compare-$f.png" -gravity South -stroke white -strokewidth 3 -draw "line 640,0 640,400" \
    "$tmp/compare-$f.png"
done
# Each with its plot from clothsim --series of the same two runs.
"$clothsim" --scene hang-vertical --set integrator=approx-implicit --set theta=1 --seconds 2 --series "$tmp/kang-a.csv" >/dev/null
"$clothsim" --scene hang-vertical --set integrator=approx-implicit --set theta=1 --set solver=jacobi --seconds 2 \
  --series "$tmp/kang-b.csv" >/dev/null
"$clothsim" --scene flag --seconds 2 --series "$tmp/flag-a.csv" >/dev/null
"$clothsim" --scene flag --set integrator=implicit-cg --set theta=1 --seconds 2 --series "$tmp/flag-b.csv" >/dev/null
scripts/plot-series.py "$tmp/plot-kang.png" kinetic_energy_J "kinetic energy (J)" "converged (left)" \
  "$tmp/kang-a.csv" "Kang eq. 10 (right)" "$tmp/kang-b.csv"
scripts/plot-series.py "$tmp/plot-flag.png" kinetic_energy_J "kinetic energy (J)" "small steps (left)" \
  "$tmp/flag-a.csv" "one implicit step (right)" "$tmp/flag-b.csv"
convert \( "$tmp/compare-kang.png" -resize 960x300 \) "$tmp/plot-kang.png" \( "$tmp/compare-flag.png" -resize 960x300 \) \
  "$tmp/plot-flag.png" -append "$figures/compare-mode.png"

# The viewer itself, a corner of the curtain being dragged with the mouse (its screen position comes from
# a state dump of the curtain 2.5 s in, paused: it still sways there, so both runs open it so).
xvfb-run -a -s '-screen 0 1280x720x24' "$clothview" --scene hang-vertical --start-at 2.5 --paused --exit-after 2 \
  --dump-state "$tmp/rest.json" >/dev/null 2>&1
read -r cx cy < <(python3 -c "import json; d = json.load(open('$tmp/rest.json')); \
print('%d %d' % tuple(d['screen'][d['nu'] * d['nv'] - 1]))")
xvfb-run -a -s '-screen 0 1280x720x24' bash -c "
  '$clothview' --scene hang-vertical --start-at 2.5 --paused --exit-after 6 &
  pid=\$!; xdotool search --sync --name clothview >/dev/null; sleep 1
  xdotool mousemove $cx $cy; sleep 0.2; xdotool mousedown 1; sleep 0.2; xdotool key space; sleep 0.3
  for i in 1 2 3 4 5 6 7 8 9 10; do xdotool mousemove \$(($cx + 12 * i)) \$(($cy - 12 * i)); sleep 0.05; done
  sleep 1.2; import -window root '$tmp/drag.png'; wait \$pid; xdotool mouseup 1" >/dev/null 2>&1
convert "$tmp/drag.png" -resize 960x540 "$screens/drag.png"
for f in "$figures"/*.png "$screens"/*.png; do convert "$f" +dither -colors 256 "PNG8:$f"; done  # small files

# What the captions quote.
echo "measurements:"
"$clothsim" --scene flag --seconds 4 --stats - | python3 -c "import json, sys; f = json.load(sys.stdin)['flutter']; \
print('  flag: flutter %.2f Hz, %.1f %% of the power below 20 Hz, %.2f m peak to peak' % \
(f['dominant_hz'], 100 * f['power_below_20hz'], f['peak_to_peak_m']))"
for run in "hang-vertical --set integrator=approx-implicit --set theta=1" "hang-vertical --set integrator=approx-implicit --set theta=1 --set solver=jacobi"; do
  # shellcheck disable=SC2086
  "$clothsim" --scene $run --seconds 2 --stats - | python3 -c "import json, sys; d = json.load(sys.stdin); \
print('  %s: lowest point %.3f m at 2 s, kinetic energy %.4f J' % (sys.argv[1], d['bbox_min'][1], d['kinetic_energy']))" "$run"
done
for run in "flag" "flag --set integrator=implicit-cg --set theta=1"; do
  # shellcheck disable=SC2086
  "$clothsim" --scene $run --seconds 4 --stats - | python3 -c "import json, sys; f = json.load(sys.stdin)['flutter']; \
print('  %s: %.2f Hz, %.3f m peak to peak' % (sys.argv[1], f['dominant_hz'], f['peak_to_peak_m']))" "$run"
done
contacts() {  # contacts LABEL ARGS...: clothsim's contact counts over every step, and the lowest point
  local label=$1
  shift
  "$clothsim" "$@" --stats - | python3 -c "import json, sys; d = json.load(sys.stdin); \
print('  %s: %d self-intersections, %d penetrations at worst, peak strain %.3f, lowest point %.3f m' % \
(sys.argv[1], d['max_self_intersections'], d['max_collider_penetrations'], d['max_strain'], d['bbox_min'][1]))" "$label"
}
contacts "ball at 10 s" --scene ball --seconds 10
contacts "Spider drape at 6 s" --scene drape --seconds 6 --collider-mesh "$spider"
contacts "crumpled cloth at 4 s" "${crumple[@]}"
for scene in flag waving-flag hang-horizontal hang-vertical ball; do
  for detail in spline wrinkled; do
    "$clothsim" --scene $scene --detail $detail --refine 5 --seconds 3 --export-obj "$tmp/w-$scene-$detail" >/dev/null
  done
  echo "  $scene: $(scripts/analyze-frames.py wrinkles "$tmp/w-$scene-spline" "$tmp/w-$scene-wrinkled")"
done
ls -la "$figures" "$screens"
