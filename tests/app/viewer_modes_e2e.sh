#!/usr/bin/env bash
# The render-mode keys change what is drawn: screenshots (S) of key, spline, wrinkled and Hadap differ.
# The flag opens paused 2.5 s in, one instant for all four: its wrinkles follow each frame's compression
# (Kang), and a frame pulled taut all over (about 1 in 20) has none, so an instant picked by the wall
# clock would sometimes show the spline twice. Space then resumes it.
clothview="$1"
source "$(dirname "$0")/e2e_lib.sh"

in_xvfb "
  '$clothview' --scene flag --start-at 2.5 --paused --capture-dir '$work' --exit-after 9 \
    --dump-state '$work/state.json' &
  pid=\$!; $wait_window; sleep 0.5
  xdotool mousemove 1000 650
  for mode in 1 2 3 4; do xdotool key \$mode; sleep 0.4; xdotool key s; sleep 0.6; done
  xdotool key space; sleep 0.3; xdotool key h; sleep 0.3
  wait \$pid" >/dev/null 2>&1 || fail "viewer run failed"
for i in 1 2 3 4; do [ -f "$work/screenshot_000$i.png" ] || fail "screenshot $i missing"; done
[ "$(json "$work/state.json" "d['paused']")" = False ] || fail "Space did not resume the paused flag"
[ "$(json "$work/state.json" "d['detail']")" = hadap ] || fail "key 4 did not select Hadap"
names=(key spline wrinkled hadap)
for i in 1 2 3; do
  n=$(pixels_differing "$work/screenshot_000$i.png" "$work/screenshot_000$((i + 1)).png")
  echo "${names[i-1]} vs ${names[i]}: $n pixels differ"
  [ "${n%.*}" -gt 500 ] || fail "${names[i-1]} and ${names[i]} screenshots barely differ ($n pixels)"
done

# The wind arrow is drawn at the cloth: what --show no-wind removes lies just upwind of the flag
# (left of its leftmost key node on screen) at the height of the cloth.
for show in no-ground no-ground,no-wind; do
  env -u DISPLAY "$clothview" --headless --scene flag --seconds 0.5 --show "$show" --camera 20,10,2.2 \
    --screenshot "$work/wind_$show.png" --dump-state "$work/wind_$show.json" >/dev/null 2>&1 \
    || fail "the --show $show run failed"
done
convert "$work/wind_no-ground.png" "$work/wind_no-ground,no-wind.png" -compose difference -composite -colorspace gray \
  -threshold 5% "$work/wind_diff.png"
python3 - "$work/wind_diff.png" "$work/wind_no-ground.json" <<'PY' || fail "the wind arrow is not at the cloth"
import json, subprocess, sys
geometry = subprocess.run(["convert", sys.argv[1], "-trim", "-format", "%w %h %X %Y", "info:"],
                          capture_output=True, text=True, check=True).stdout.split()
w, h, x0, y0 = int(geometry[0]), int(geometry[1]), int(geometry[2]), int(geometry[3])
screen = [p for p in json.load(open(sys.argv[2]))["screen"] if p]
left = min(p[0] for p in screen)
top, bottom = min(p[1] for p in screen), max(p[1] for p in screen)
print("arrow drawn over x %d-%d, y %d-%d; the cloth starts at x %.0f, spans y %.0f-%.0f" % (x0, x0 + w, y0, y0 + h, left, top, bottom))
assert w > 40, w                                  # an arrow, not a speck
assert x0 + w <= left + 15 and x0 + w >= left - 80, (x0 + w, left)  # it ends at the cloth's upwind side
assert top - 20 <= y0 + h / 2 <= bottom + 20, (y0 + h / 2, top, bottom)  # at the cloth's height
PY
finish
