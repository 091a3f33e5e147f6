#!/usr/bin/env bash
# Headless rendering works with no display at all, and broken shaders are reported with their log.
clothview="$1"
source "$(dirname "$0")/e2e_lib.sh"
unset DISPLAY WAYLAND_DISPLAY

"$clothview" --headless --scene ball --seconds 0.5 --fps 20 --record "$work/out" --screenshot "$work/final.png" \
  >"$work/log" 2>&1 || fail "headless run failed: $(cat "$work/log")"
n=$(ls "$work/out/recording_0001"/frame_*.png 2>/dev/null | wc -l)
[ "$n" = 11 ] || fail "expected 11 frames (0.5 s at 20 fps plus the first), found $n"
b=$(brightness "$work/out/recording_0001/frame_000005.png")
python3 -c "import sys; sys.exit(0 if $b > 0.1 else 1)" || fail "headless frame is black"
[ -f "$work/final.png" ] || fail "no final screenshot"
! grep -q "frame 10/10" "$work/log" || fail "a progress bar in a log file"
if script -qec true /dev/null >/dev/null 2>&1; then
  script -qec "'$clothview' --headless --scene ball --seconds 0.5 --fps 20" /dev/null >"$work/tty" 2>&1
  grep -q "frame 10/10" "$work/tty" || fail "no progress bar on a terminal: $(tail -c 300 "$work/tty")"
else
  echo "note: no pseudo-terminal here, the progress bar on a terminal is not checked"
fi

# PC2 recording: the render surface's vertices, one sample a frame, beside the first frame's OBJ.
"$clothview" --headless --scene drape --seconds 0.5 --fps 20 --record "$work/pc2" --format pc2 >"$work/log4" 2>&1 \
  || fail "PC2 recording failed: $(cat "$work/log4")"
python3 - "$work/pc2/recording_0001" <<'PY' || fail "the PC2 recording is not 11 samples of the OBJ's vertices"
import struct, sys
data = open(sys.argv[1] + "/recording.pc2", "rb").read()
sig, version, points, start, rate, samples = struct.unpack("<12siiffi", data[:32])
vertices = [l for l in open(sys.argv[1] + "/recording.obj") if l.startswith("v ")]
print("PC2 recording: %d samples of %d points" % (samples, points))
assert sig == b"POINTCACHE2\0" and samples == 11 and points == len(vertices) and len(data) == 32 + samples * points * 12
PY

# --drag pulls key node (15,15) of the drape 0.5 m down into the table for 2 s, as the mouse would: it
# stops on the table top (0.79 m: the fitted table stands 1 cm into the floor) instead of going through it.
"$clothview" --headless --scene drape --seconds 3 --drag 15,15,0,0.3,0,1,3 --dump-state "$work/drag.json" \
  >"$work/logdrag" 2>&1 || fail "headless --drag run failed: $(cat "$work/logdrag")"
dragged=$(json "$work/drag.json" "d['key_nodes'][15 * d['nu'] + 15][1]")
python3 -c "import sys; sys.exit(0 if float('$dragged') > 0.79 else 1)" ||
  fail "the node dragged into the table ended at y = $dragged m, under its top (0.79 m)"
# --start-at opens the scene that far in, a drag applied on the way: the ball's cloth with a corner
# pulled from 0.2 to 0.8 s, 0.5 s skipped and 0.5 s rendered, ends where 1 s rendered does.
for run in "--seconds 1" "--start-at 0.5 --seconds 0.5"; do
  # shellcheck disable=SC2086
  "$clothview" --headless --scene ball $run --drag 0,0,0.5,1,0.5,0.2,0.8 --fps 20 \
    --dump-state "$work/ball ${run// /}.json" >"$work/logball" 2>&1 || fail "headless $run failed"
done
python3 - "$work/ball --seconds1.json" "$work/ball --start-at0.5--seconds0.5.json" <<'PY' ||
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
gap = max(abs(p - q) for u, v in zip(a["key_nodes"], b["key_nodes"]) for p, q in zip(u, v))
print("start-at: time %.4f against %.4f, nodes %.2g m apart" % (b["time"], a["time"], gap))
assert abs(a["time"] - b["time"]) < 1e-9 and gap < 1e-9 and a["time"] > 0.99
PY
  fail "--start-at 0.5 --seconds 0.5 did not end as --seconds 1"
"$clothview" --headless --scene drape --drag 40,0,0,0,0,0,1 >"$work/logdrag2" 2>&1
[ $? = 2 ] || fail "--drag off the grid did not exit 2"
grep -q "outside the key grid" "$work/logdrag2" || fail "no message for --drag off the grid"

# Self-collision switched on over the flag with K_D = 0, which then thrashes round its pole: its contacts
# run in every small step (once a frame it stretched to 1.79 and left nodes in the pole), and the viewer
# ends with the cloth clear of itself and of the pole, with no warning.
"$clothview" --headless --scene flag --set self_collision=1 --set K_D=0 --seconds 2 \
  --dump-state "$work/flagself.json" >"$work/logflag" 2>&1 || fail "the flag with self-collision failed: $(cat "$work/logflag")"
python3 - "$work/flagself.json" <<'PY' || fail "the flag with self-collision passed through itself or its pole"
import json, sys
d = json.load(open(sys.argv[1]))
print("flag with self-collision at 2 s: %s, warnings %s" % (d["contacts"], d["warnings"]))
assert d["contacts"] == {"collider_penetrations": 0, "self_intersections": 0} and not d["warnings"], d
assert d["simulated_seconds"] > 1.99 and d["params"]["contacts_every_small_step"], d["params"]
PY

# An existing screenshot is kept unless --force: refused before the run (exit 2), not after it.
before=$(md5sum "$work/final.png")
"$clothview" --headless --scene ball --seconds 0.1 --screenshot "$work/final.png" >"$work/log2" 2>&1
[ $? = 2 ] || fail "replacing a screenshot without --force was not refused up front"
grep -q "exists" "$work/log2" || fail "no message about the existing screenshot"
[ "$(md5sum "$work/final.png")" = "$before" ] || fail "existing screenshot was modified"

# A shader that does not compile stops the viewer with the compiler's log.
mkdir "$work/shaders"
cp "$(dirname "$clothview")"/shaders/* "$work/shaders/"
echo "this is not GLSL" >>"$work/shaders/cloth.frag"
CLOTHVIEW_SHADER_DIR="$work/shaders" "$clothview" --headless --seconds 0.1 >"$work/log3" 2>&1
[ $? = 1 ] || fail "broken shader did not exit 1"
grep -q "cloth.frag' does not compile" "$work/log3" || fail "no compile message: $(cat "$work/log3")"
grep -qi "error" "$work/log3" || fail "no compiler log"

# The node-kinds view (Kang Fig. 2) stays readable at any refinement: the internal nodes (blue dots)
# are thinned so they stand apart, so a finer surface does not turn the cloth into a carpet of dots.
# Every internal node drawn at r = 5 covered 4x the pixels of r = 3 (16 against 4 a cell). The flag in
# one implicit step a frame, spread in its wind at 2 s (with its default small steps it is folded
# towards the camera there, and the nodes hide each other differently at each r).
internal_pixels() {  # the pixels of the internal nodes' colour
  convert "$1" -fill black +opaque 'rgb(51,89,242)' -fill white -opaque 'rgb(51,89,242)' -format '%[fx:round(mean*w*h)]' info:
}
for r in 3 5 8; do
  env -u DISPLAY "$clothview" --headless --scene flag --set integrator=implicit-cg --set theta=1 \
    --set refine=$r --show nodes --seconds 2 \
    --screenshot "$work/nodes$r.png" >/dev/null 2>&1 || fail "node-kinds run at r = $r failed"
done
read -r n3 n5 n8 < <(echo "$(internal_pixels "$work/nodes3.png") $(internal_pixels "$work/nodes5.png") $(internal_pixels "$work/nodes8.png")")
echo "internal-node pixels: r = 3: $n3, r = 5: $n5, r = 8: $n8"
[ "$n3" -gt 1000 ] || fail "no internal nodes drawn at r = 3 ($n3 pixels)"
[ $((2 * n5)) -le $((3 * n3)) ] && [ $((2 * n8)) -le $((3 * n3)) ] ||
  fail "the internal nodes are not thinned: $n3, $n5, $n8 pixels at r = 3, 5, 8"
finish
