#!/usr/bin/env bash
# Recording writes N non-black frames into a new numbered folder, from the command line and from C.
clothview="$1"
source "$(dirname "$0")/e2e_lib.sh"

check_frames() {  # check_frames DIR COUNT
  local n
  n=$(ls "$1"/frame_*.png 2>/dev/null | wc -l)
  [ "$n" = "$2" ] || fail "$1 has $n frames, expected $2"
  for f in "$1"/frame_*.png; do
    b=$(brightness "$f")
    python3 -c "import sys; sys.exit(0 if $b > 0.1 else 1)" || fail "$f is black (mean $b)"
  done
}

in_xvfb "'$clothview' --scene ball --record '$work/rec' --record-frames 12 --exit-after-frames 40" >/dev/null 2>&1 \
  || fail "recording run failed"
check_frames "$work/rec/recording_0001" 12
first=$work/rec/recording_0001/frame_000000.png last=$work/rec/recording_0001/frame_000011.png
[ "$(pixels_differing "$first" "$last" | cut -d. -f1)" -gt 100 ] || fail "recorded frames do not change"

# A second recording never touches the first: it goes into recording_0002.
before=$(md5sum "$first")
in_xvfb "'$clothview' --scene ball --record '$work/rec' --record-frames 5 --exit-after-frames 20" >/dev/null 2>&1
check_frames "$work/rec/recording_0002" 5
[ "$(md5sum "$first")" = "$before" ] || fail "the first recording changed"

# C starts and stops a recording into the capture folder.
in_xvfb "
  '$clothview' --scene flag --capture-dir '$work/keys' --exit-after 5 &
  pid=\$!; $wait_window; sleep 1.5
  xdotool mousemove 1000 650; xdotool key c; sleep 1.5; xdotool key c
  wait \$pid" >/dev/null 2>&1 || fail "C run failed"
n=$(ls "$work/keys/recording_0001"/frame_*.png 2>/dev/null | wc -l)
[ "$n" -ge 3 ] || fail "C recorded $n frames"
finish
