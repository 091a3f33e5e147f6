#!/usr/bin/env bash
# Compare mode: the same scene twice, side by side. A differing parameter gives two halves that
# differ, an equal one two that match; both runs keep the same time; a drag on one view holds the same
# node in both; a bad override is refused like --set.
clothview="$1"
source "$(dirname "$0")/e2e_lib.sh"

# halves FILE: pixels that differ between the left and the right half of a 1280 x 720 screenshot.
halves() {
  convert "$1" -crop 640x720+0+0 +repage "$work/left.png"
  convert "$1" -crop 640x720+640+0 +repage "$work/right.png"
  pixels_differing "$work/left.png" "$work/right.png"
}

for k in 50 400; do  # 400 N/m is the flag's own k
  env -u DISPLAY "$clothview" --headless --scene flag --seconds 2 --compare k=$k --screenshot "$work/k$k.png" \
    --dump-state "$work/k$k.json" >"$work/k$k.log" 2>&1 || fail "compare k=$k failed: $(tail -2 "$work/k$k.log")"
done
differ=$(halves "$work/k50.png")
same=$(halves "$work/k400.png")
echo "halves differing: k=50 against 400: $differ pixels; k=400 against 400: $same pixels"
[ "${differ%.*}" -gt 20000 ] || fail "a softer cloth on the right looks the same ($differ pixels differ)"
# Equal runs draw equal halves but for a few edge pixels of the round pin markers (point sprites rasterise
# a little differently 640 px apart): under 0.1 % of a half.
[ "${same%.*}" -lt 460 ] || fail "the same parameters on both sides give different halves ($same pixels)"
python3 - "$work/k50.json" <<'PY' || fail "the two runs are not in lockstep"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["compare"]["overrides"] == ["k=50"], d["compare"]["overrides"]
assert abs(d["compare"]["time"] - d["time"]) < 1e-9, (d["compare"]["time"], d["time"])
PY

# A bad override: exit 2 before anything opens, naming the parameter.
env -u DISPLAY "$clothview" --headless --compare k=abc >/dev/null 2>"$work/bad.log" && fail "--compare k=abc was accepted"
grep -q "compare: parameter 'k' expects a number" "$work/bad.log" || fail "no message for a bad --compare: $(cat "$work/bad.log")"

# Windowed: grab the middle of the hanging curtain in the left view and lift it (pulled down it cannot
# go: the cloth already hangs taut from its pins); the same node of the right run (stiffer springs) is
# held too and comes up with it.
in_xvfb "'$clothview' --scene hang-vertical --compare k=2000 --exit-after 2.5 --dump-state '$work/layout.json'" \
  >/dev/null 2>&1 || fail "the compare layout run failed"
read -r node x y < <(json "$work/layout.json" \
  "'%d %d %d' % ((d['nv'] // 2) * d['nu'] + d['nu'] // 2, d['screen'][(d['nv'] // 2) * d['nu'] + d['nu'] // 2][0], d['screen'][(d['nv'] // 2) * d['nu'] + d['nu'] // 2][1])")
echo "middle node $node at ($x, $y) in the left view"
in_xvfb "
  '$clothview' --scene hang-vertical --compare k=2000 --exit-after 6 --dump-state '$work/drag.json' &
  pid=\$!; $wait_window; sleep 1.5
  xdotool mousemove $x $y mousedown 1; sleep 0.3
  for i in 1 2 3 4 5 6; do xdotool mousemove $x \$(($y - 20 * i)); sleep 0.15; done
  wait \$pid" >/dev/null 2>&1 || fail "the compare drag run failed"
python3 - "$work/layout.json" "$work/drag.json" "$node" <<'PY' || fail "the drag did not hold the same node in both runs"
import json, sys
before, after, node = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
ours = after["key_nodes"][node][1] - before["key_nodes"][node][1]
theirs = after["compare"]["key_nodes"][node][1] - before["compare"]["key_nodes"][node][1]
print("lifted: %.3f m in the first run, %.3f m in the second; handles %d" % (ours, theirs, after["compare"]["handles"]))
assert after["compare"]["handles"] == 1
assert ours > 0.05 and theirs > 0.05, (ours, theirs)
PY

# Compare mode with another step, in a window: the Stats numbers add up. Each run's steps a frame
# (1/60 s in 5 ms steps: 3.3 on the right for each on the left) times its ms a step make the frame's
# step part. Before, a frame in which the left run took no step restarted
# the right one from nothing (a thousand steps in one frame, every few frames), and the panel gave the
# left run's last frame only ("0 steps a frame").
in_xvfb "'$clothview' --compare h=0.005 --exit-after 6 --dump-state '$work/h.json'" >/dev/null 2>&1 \
  || fail "the compare h=0.005 run failed"
python3 - "$work/h.json" <<'PY' || fail "compare mode's Stats numbers do not add up"
import json, sys
d = json.load(open(sys.argv[1]))
s, c = d["stats"], d["compare"]
parts = s["parts_ms"]
steps = s["steps_per_frame"] * s["ms_per_step"] + c["steps_per_frame"] * c["ms_per_step"]
print("frame %.2f ms = parts %.2f ms; step part %.2f ms, each run's steps x ms: %.2f x %.3f + %.2f x %.3f = %.2f ms"
      % (s["frame_ms"], sum(parts.values()), parts["step"], s["steps_per_frame"], s["ms_per_step"],
         c["steps_per_frame"], c["ms_per_step"], steps))
# Per frame, the right run takes 1/60 s / 5 ms = 3.3 steps for each of the left's (whatever the frame
# rate: a slow build takes more steps a frame in both).
assert s["steps_per_frame"] > 0.3 and 2.5 <= c["steps_per_frame"] / s["steps_per_frame"] <= 4.5, (s, c["steps_per_frame"])
assert parts["step"] <= 2 * steps + 0.3, (parts["step"], steps)
PY
finish
