#!/usr/bin/env bash
# The Plots panel: its numbers are clothsim's (the flag's flutter spectrum, kinetic energy), and a user
# who opens it sees the plots, the flutter spectrum included.
clothview="$1"
clothsim="$2"
source "$(dirname "$0")/e2e_lib.sh"

# Headless, 4 simulated seconds of the flag: the panel's flutter numbers against clothsim --stats of
# the same run, its last kinetic energy against the state's.
env -u DISPLAY "$clothview" --headless --scene flag --seconds 4 --dump-state "$work/flag.json" >/dev/null 2>&1 \
  || fail "the headless flag run failed"
"$clothsim" --scene flag --seconds 4 --stats "$work/stats.json" || fail "clothsim failed"
python3 - "$work/flag.json" "$work/stats.json" <<'PY' || fail "the Plots panel's numbers are not clothsim's"
import json, sys
viewer, stats = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
plots = viewer["plots"]
print("Plots: flutter %s; clothsim: %s" % (plots["flutter"], stats["flutter"]))
for key in ("dominant_hz", "power_below_20hz", "peak_to_peak_m", "seconds"):
    assert abs(plots["flutter"][key] - stats["flutter"][key]) <= 1e-9 * max(1, abs(stats["flutter"][key])), key
assert abs(plots["kinetic_energy"] - viewer["kinetic_energy"]) <= 1e-6 * viewer["kinetic_energy"], plots
assert abs(viewer["kinetic_energy"] - stats["kinetic_energy"]) <= 1e-9 * stats["kinetic_energy"], viewer["kinetic_energy"]
assert plots["frames_plotted"] == 121, plots  # frame 0 and 30 a second
PY

# Windowed: collapse Scene, Detail and Stats, open Plots (every header is one row apart once closed).
in_xvfb "'$clothview' --scene flag --exit-after 3 --dump-state '$work/layout.json'" >/dev/null 2>&1 \
  || fail "layout run failed"
read -r x scene row < <(json "$work/layout.json" \
  "'%d %d %d' % (d['widgets']['Scene'][0] + 60, d['widgets']['Scene'][1] + 9, d['widgets']['Presets'][1] - d['widgets']['Plots'][1])")
echo "headers: Scene at y = $scene, $row px apart when closed"
in_xvfb "
  '$clothview' --scene flag --exit-after 8 --dump-state '$work/plots.json' &
  pid=\$!; $wait_window; sleep 1
  for y in $scene $((scene + 3 * row)) $((scene + 5 * row)) $((scene + 6 * row)); do
    xdotool mousemove $x \$y click 1; sleep 0.5
  done
  sleep 3; import -window root '$work/plots.png'; wait \$pid" >/dev/null 2>&1 || fail "the Plots run failed"
json "$work/plots.json" "'flutter plot' in d['widgets']" | grep -q True \
  || fail "opening Plots did not draw the flutter spectrum: $(json "$work/plots.json" "sorted(d['widgets'])")"
# The converged flag's 16.1 Hz is marked on the 0-30 Hz spectrum: a line 16.1 / 30 of the way across.
python3 - "$work/plots.json" <<'PY' || fail "the converged flutter frequency is not marked where it belongs"
import json, sys
w = json.load(open(sys.argv[1]))["widgets"]
plot, mark = w["flutter plot"], w["converged flutter mark"]
across = (mark[0] - plot[0]) / mark[2]
print("converged mark %.3f of the way across the spectrum (16.1 / 30 = 0.537)" % across)
assert abs(across - 16.1 / 30) < 0.02 and abs(mark[1] - plot[1]) < 1, (plot, mark)
PY
# Every plot has its scale: 0 and the top value at its left, inside it; the spectrum 0-30 Hz under it,
# left to right; one line says what the horizontal axis of the histories is.
python3 - "$work/plots.json" <<'PY' || fail "the plots have no axes"
import json, sys
w = json.load(open(sys.argv[1]))["widgets"]
assert "plots x-axis" in w, sorted(w)
for label in ("kinetic (J)", "peak strain", "step (ms)", "refine (ms)", "draw (ms)"):
    top, zero = w[label + " y-axis"], w[label + " y-axis 0"]
    assert zero[1] > top[1] + 20, (label, top, zero)  # the 0 below the top value, a plot's height apart
ticks = [w["flutter x-axis %d" % hz] for hz in (0, 10, 20, 30)]
plot = w["flutter plot"]
assert all(a[0] < b[0] for a, b in zip(ticks, ticks[1:])), ticks
assert all(t[1] >= plot[1] + plot[3] - 1 for t in ticks), (ticks, plot)  # under the spectrum
print("axes: %d y-axes, flutter ticks at x = %s" % (sum(k.endswith("y-axis") for k in w), [int(t[0]) for t in ticks]))
PY
finish
