#!/usr/bin/env bash
# The render-mode keys change what is drawn: screenshots (S) of key, spline, wrinkled and Hadap differ.
clothview="$1"
source "$(dirname "$0")/e2e_lib.sh"

in_xvfb "
  '$clothview' --scene flag --capture-dir '$work' --exit-after 9 --dump-state '$work/state.json' &
  pid=\$!; $wait_window; sleep 2.5
  xdotool mousemove 1000 650; xdotool key space; sleep 0.3
  for mode in 1 2 3 4; do xdotool key \$mode; sleep 0.4; xdotool key s; sleep 0.6; done
  xdotool key h; sleep 0.3
  wait \$pid" >/dev/null 2>&1 || fail "viewer run failed"
for i in 1 2 3 4; do [ -f "$work/screenshot_000$i.png" ] || fail "screenshot $i missing"; done
[ "$(json "$work/state.json" "d['paused']")" = True ] || fail "Space did not pause"
[ "$(json "$work/state.json" "d['detail']")" = hadap ] || fail "key 4 did not select Hadap"
names=(key spline wrinkled hadap)
for i in 1 2 3; do
  n=$(pixels_differing "$work/screenshot_000$i.png" "$work/screenshot_000$((i + 1)).png")
  echo "${names[i-1]} vs ${names[i]}: $n pixels differ"
  [ "${n%.*}" -gt 500 ] || fail "${names[i-1]} and ${names[i]} screenshots barely differ ($n pixels)"
done
finish
