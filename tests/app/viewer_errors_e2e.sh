#!/usr/bin/env bash
# Wrong flags, bad values, unreadable or malformed presets and unwritable or full capture folders:
# clothview and clothsim exit or carry on exactly as the README says, with the message.
clothview="$1"
clothsim="$2"
source "$(dirname "$0")/e2e_lib.sh"

expect() {  # expect CODE MESSAGE COMMAND...: exit code and a message on stderr
  local want="$1" text="$2"
  shift 2
  local err rc
  err=$("$@" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" = "$want" ] || fail "$* exited $rc, expected $want ($err)"
  grep -qF -- "$text" <<<"$err" || fail "$* said '$err', expected '$text'"
}

# Bad input: exit 2 before anything opens.
echo '{"format": "clothview-preset", "version": 1, "params": {"k": ' >"$work/truncated.json"
echo '{"format": "clothview-preset", "version": 1, "params": {"k": "soft"}}' >"$work/wrongtype.json"
printf '\xff\xfe{' >"$work/binary.json"
expect 2 "--bogus" "$clothview" --bogus
expect 2 "unknown scene 'moon'" "$clothview" --scene moon
expect 2 "parameter 'k' expects a number" "$clothview" --set k=abc
expect 2 "must be a finite number" "$clothview" --set h=nan
expect 2 "--camera expects" "$clothview" --camera 1,2
expect 2 "--start-at" "$clothview" --start-at -1
expect 2 "cannot read preset" "$clothview" --preset "$work/missing.json"
expect 2 "not valid JSON" "$clothview" --preset "$work/truncated.json"
expect 2 "field 'k' expects a number" "$clothview" --preset "$work/wrongtype.json"
expect 2 "not valid JSON" "$clothview" --preset "$work/binary.json"
expect 2 "outside" "$clothsim" --set mass=0

# Every flag a message points at is one the program accepts: the listings are clothview's too,
# the same text as clothsim's.
for flags in "--list-scenes" "--list-params" "--list-params --scene ball"; do
  # shellcheck disable=SC2086
  diff <("$clothview" $flags) <("$clothsim" $flags) >/dev/null || fail "clothview $flags differs from clothsim's"
done
"$clothview" --list-scenes | grep -q '^drape ' || fail "clothview --list-scenes does not list the drape"
expect 2 "unknown scene 'moon' (see --list-scenes)" "$clothview" --list-params --scene moon
expect 2 "(see --list-params)" "$clothview" --set nonsense=1
expect 2 "(see --list-scenes)" "$clothview" --scene moon
"$clothview" --help | grep -q -- "--list-params" || fail "clothview --help does not offer --list-params"
"$clothview" --help | grep -q "clothsim --list" && fail "clothview --help points at clothsim's flags"

# Outputs that cannot be written are refused before the first step (exit 2, one line), nothing written
# elsewhere: a folder that cannot exist, a file in a missing folder, a directory where a file goes.
expect 2 "cannot record" env -u DISPLAY "$clothview" --headless --seconds 0.1 --record /proc/clothview/frames
expect 2 "cannot record" env -u DISPLAY "$clothview" --headless --seconds 0.1 --record /proc/nope
expect 2 "no such directory" env -u DISPLAY "$clothview" --headless --seconds 30 --screenshot /nonexistent/dir/x.png
expect 2 "is a directory" env -u DISPLAY "$clothview" --headless --seconds 30 --dump-state "$work" --force
expect 2 "is a directory" "$clothsim" --seconds 30 --stats "$work" --force
expect 2 "is a directory" "$clothsim" --seconds 30 --stats "$work"
expect 2 "is a directory" "$clothsim" --seconds 30 --series "$work"
mkdir -p "$work/cache"
expect 2 "is a directory" "$clothsim" --scene drape --seconds 30 --export-pc2 "$work/cache" --force
[ -e "$work/cache.obj" ] && fail "a refused --export-pc2 wrote $work/cache.obj"
expect 2 "no such directory" "$clothsim" --seconds 30 --stats /proc/nope/stats.json
expect 2 "cannot write" "$clothsim" --seconds 30 --stats /proc/stats.json --force
: >"$work/plainfile"
expect 2 "not a directory" "$clothsim" --seconds 30 --export-obj "$work/plainfile"
expect 2 "is a directory" "$clothsim" --seconds 30 --series "$work" --export-obj "$work/frames_refused"
[ -e "$work/frames_refused" ] && fail "a refused run created its export folder"

# A disk that fills up mid-recording: a 300 KB tmpfs (root), else a per-file size limit.
small="$work/small"
mkdir "$small"
if mount -t tmpfs -o size=300k tmpfs "$small" 2>/dev/null; then
  trap 'umount "$small" 2>/dev/null; rm -rf "$work"' EXIT
  full_disk() { "$@"; }
else
  echo "note: cannot mount a tmpfs here; limiting file size instead"
  full_disk() { (ulimit -f 40; "$@"); }
fi
check_kept() {  # every frame that exists is a whole PNG, and no temporary files are left
  for f in "$1"/frame_*; do [ -e "$f" ] || continue; identify "$f" >/dev/null 2>&1 || fail "$f is damaged"; done
  ! ls -a "$1" | grep -q '\.tmp' || fail "temporary files left in $1"
}

env -u DISPLAY bash -c "$(declare -f full_disk); full_disk '$clothview' --headless --seconds 2 --fps 30 \
  --width 240 --height 160 --record '$small/headless'" >"$work/headless.log" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "headless recording onto a full disk exited $rc, expected 1"
grep -q "recording stopped" "$work/headless.log" || fail "no message: $(tail -2 "$work/headless.log")"
written=$(ls "$small/headless/recording_0001" | grep -c frame_)
echo "headless recording stopped after $written frames"
check_kept "$small/headless/recording_0001"
rm -rf "$small/headless"

# The windowed viewer refuses an unwritable recording folder on its command line before the window
# opens (it printed "recording not started" and exited 0), and keeps running when the disk fills.
in_xvfb "'$clothview' --scene flag --record /proc/clothview/frames --exit-after 3" >"$work/win1.log" 2>&1
[ $? = 2 ] || fail "the viewer did not refuse an unwritable recording folder up front"
grep -q "cannot record" "$work/win1.log" || fail "no message about the folder: $(cat "$work/win1.log")"
grep -q " frames in .* fps" "$work/win1.log" && fail "the viewer opened its window anyway"
in_xvfb "$(declare -f full_disk); full_disk '$clothview' --scene flag --width 320 --height 200 --record '$small/window' --exit-after 5" \
  >"$work/win2.log" 2>&1
[ $? = 0 ] || fail "the viewer did not carry on after the disk filled"
grep -q "recording stopped" "$work/win2.log" || fail "no message about the full disk: $(cat "$work/win2.log")"
echo "windowed recording stopped after $(ls "$small/window/recording_0001" | grep -c frame_) frames"
check_kept "$small/window/recording_0001"
rm -rf "$small/window"

# clothsim: an export that runs out of space exits 1 and keeps the frames it wrote.
bash -c "$(declare -f full_disk); full_disk '$clothsim' --scene ball --seconds 1 --every 10 --detail hadap \
  --export-obj '$small/obj'" >"$work/sim.log" 2>&1
[ $? = 1 ] || fail "clothsim on a full disk did not exit 1"
grep -q "cannot write" "$work/sim.log" || fail "no message from clothsim: $(cat "$work/sim.log")"
! ls -a "$small/obj" | grep -q '\.tmp' || fail "clothsim left temporary files"
for f in "$small"/obj/frame_*.obj; do
  [ -e "$f" ] || continue
  tail -c 200 "$f" | grep -q "^f " || fail "$f is truncated"
done
# Saving a preset over a file from the panel: the message speaks the panel (the 'overwrite' box, not
# --force), the file is kept, and the message sits in the view beside the panel, not under it.
mkdir -p "$work/presets" && echo '{"kept": true}' >"$work/presets/clothview-preset.json"
(cd "$work/presets" && in_xvfb "'$clothview' --scene flag --exit-after 3 --dump-state layout.json") >/dev/null 2>&1 \
  || fail "preset layout run failed"
# Collapse Scene, Detail and Stats (open at start; every header is one row apart once closed), open Presets.
read -r px scene row < <(json "$work/presets/layout.json" \
  "'%d %d %d' % (d['widgets']['Scene'][0] + 60, d['widgets']['Scene'][1] + 9, d['widgets']['Presets'][1] - d['widgets']['Plots'][1])")
clicks="for y in $scene $((scene + 3 * row)) $((scene + 5 * row)) $((scene + 7 * row)); do
  xdotool mousemove $px \$y click 1; sleep 0.5; done"
(cd "$work/presets" && in_xvfb "
  '$clothview' --scene flag --exit-after 5 --dump-state open.json & pid=\$!; $wait_window; sleep 1
  $clicks; sleep 1; wait \$pid") >/dev/null 2>&1 || fail "opening Presets failed"
read -r sx sy < <(json "$work/presets/open.json" "'%d %d' % (d['widgets']['Save preset'][0] + 10, d['widgets']['Save preset'][1] + 8)")
(cd "$work/presets" && in_xvfb "
  '$clothview' --scene flag --exit-after 6 --dump-state saved.json & pid=\$!; $wait_window; sleep 1
  $clicks; xdotool mousemove $sx $sy click 1; sleep 1; wait \$pid") >"$work/preset.log" 2>&1 \
  || fail "saving the preset failed"
grep -q "preset not saved: 'clothview-preset.json' exists (tick 'overwrite' beside Save to replace it)" \
  "$work/preset.log" || fail "the preset message: $(grep -i preset "$work/preset.log")"
grep -q -- "--force" "$work/preset.log" && fail "a message in the window names --force"
grep -q '"kept": true' "$work/presets/clothview-preset.json" || fail "the existing preset was replaced"
json "$work/presets/saved.json" "d['widgets']['message'][0] >= d['widgets']['Presets'][0] + 380" | grep -q True \
  || fail "the message is under the panel: $(json "$work/presets/saved.json" "d['widgets']['message'], d['widgets']['Presets']")"

finish
