#!/usr/bin/env bash
# The viewer tells the user what happened: a value typed past a slider's range is refused in the
# command line's words, a warning appears on screen, and the key wireframe stays visible over the
# refined surface.
clothview="$1"
source "$(dirname "$0")/e2e_lib.sh"
pixels="$(dirname "$0")/pixels.py"

# centre NAME FILE: the window point at the middle of a control's slider (its label is to the right).
centre() { json "$2" "'%d %d' % (d['widgets']['$1'][0] + 90, d['widgets']['$1'][1] + d['widgets']['$1'][3] / 2)"; }

# Ctrl+click on the k slider, type 1e9, Enter: refused with the range, k unchanged.
in_xvfb "'$clothview' --scene flag --exit-after 2 --dump-state '$work/layout.json'" >/dev/null 2>&1 \
  || fail "layout run failed"
read -r mx my < <(json "$work/layout.json" "'%d %d' % (d['widgets']['Material'][0] + 60, d['widgets']['Material'][1] + 9)")
in_xvfb "
  '$clothview' --scene flag --exit-after 4 --dump-state '$work/open.json' &
  pid=\$!; $wait_window; sleep 1.5; xdotool mousemove $mx $my click 1; wait \$pid" >/dev/null 2>&1 \
  || fail "opening the Material panel failed"
read -r kx ky < <(centre k "$work/open.json")
echo "Material header at ($mx, $my), k slider at ($kx, $ky)"
in_xvfb "
  '$clothview' --scene flag --exit-after 9 --dump-state '$work/typed.json' &
  pid=\$!; $wait_window; sleep 1.5; xdotool mousemove $mx $my click 1; sleep 0.8
  xdotool mousemove $kx $ky; sleep 0.3
  # Keys held across several frames: ImGui 1.86 reads Ctrl and Enter once a frame, so a press and
  # release between two frames would go unseen (typed characters are queued). Ctrl+click selects the
  # text it opens.
  xdotool keydown ctrl; sleep 0.6; xdotool click 1; sleep 0.8; xdotool keyup ctrl; sleep 0.5
  xdotool type --delay 150 1e9; sleep 0.5; xdotool keydown Return; sleep 0.4; xdotool keyup Return
  wait \$pid" >"$work/typed.log" 2>&1 \
  || fail "typing into the k slider failed"
grep "stays" "$work/typed.log"
grep -q "parameter 'k': value 1000000000 is outside \[0, 100000\]; k stays 400" "$work/typed.log" \
  || fail "no message for k = 1e9: $(grep clothview: "$work/typed.log" | head -3)"
[ "$(json "$work/typed.json" "d['params']['k']")" = 400.0 ] || fail "k changed: $(json "$work/typed.json" "d['params']['k']")"

# A warning on screen: the explicit integrator past its stable step.
in_xvfb "
  '$clothview' --scene flag --set integrator=explicit --set h=0.004 --exit-after 5 --dump-state '$work/warn.json' &
  pid=\$!; $wait_window; sleep 3; import -window root '$work/warn.png'; wait \$pid" >/dev/null 2>&1 \
  || fail "warning run failed"
json "$work/warn.json" "'\n'.join(w['where'] + ': ' + w['text'] for w in d['warnings'])"
[ "$(json "$work/warn.json" "any('stable step' in w['text'] for w in d['warnings'])")" = True ] \
  || fail "no warning about the explicit step"
shown=$(python3 "$pixels" count "$work/warn.png" 255,199,64 12 | cut -d' ' -f2)
echo "warning-coloured pixels on screen: $shown"
[ "$shown" -gt 300 ] || fail "the warning is not on screen ($shown pixels in its colour)"

# The key wireframe over the wrinkled surface shows as much wire as over the key mesh itself (drawn
# with the depth test, as it was, the wrinkled surface hid 70 % of it).
for mode in key wrinkled; do
  env -u DISPLAY "$clothview" --headless --scene waving-flag --seconds 1.5 --set detail=$mode --show wireframe \
    --show no-ground --screenshot "$work/wire_$mode.png" >/dev/null 2>&1 || fail "headless $mode run failed"
done
key=$(python3 "$pixels" count "$work/wire_key.png" 26,26,31 20 | cut -d' ' -f2)
wrinkled=$(python3 "$pixels" count "$work/wire_wrinkled.png" 26,26,31 20 | cut -d' ' -f2)
echo "wire pixels: $key over the key mesh, $wrinkled over the wrinkled surface"
python3 -c "import sys; sys.exit(0 if $key > 500 and $wrinkled >= 0.9 * $key else 1)" \
  || fail "the wireframe breaks up over the refined surface ($wrinkled of $key pixels)"
finish
