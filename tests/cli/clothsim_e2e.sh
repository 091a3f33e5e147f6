#!/usr/bin/env bash
# End-to-end checks of the real clothsim binary: exit codes, messages and the files it writes.
set -u
clothsim="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

expect_exit() {  # expect_exit CODE MESSAGE-SUBSTRING ARGS...
  local want="$1" text="$2"
  shift 2
  local err rc
  err=$("$clothsim" "$@" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" = "$want" ] || fail "clothsim $* exited $rc, expected $want ($err)"
  [ -z "$text" ] || grep -qF -- "$text" <<<"$err" || fail "clothsim $* said '$err', expected '$text'"
}

expect_exit 2 "--nope" --nope
expect_exit 2 "unknown scene 'moon'" --scene moon
expect_exit 2 "parameter 'K_D'" --set K_D=lots
expect_exit 2 "outside" --set tau=5
expect_exit 2 "cannot create directory" --export-obj /proc/clothsim/frames

# A run writes stats and frames; the stats say the flag stayed finite and within Provot's bound.
"$clothsim" --scene flag --seconds 1 --export-obj "$work/frames" --every 100 --stats "$work/stats.json" \
  || fail "flag run failed"
[ -f "$work/stats.json" ] || fail "no stats file"
grep -q '"finite": true' "$work/stats.json" || fail "stats not finite: $(cat "$work/stats.json")"
frames=$(ls "$work/frames" | wc -l)
[ "$frames" = 11 ] || fail "expected 11 frames, found $frames"
grep -q '^f ' "$work/frames/frame_000010.obj" || fail "frame has no faces"

# Existing outputs are kept unless --force.
before=$(md5sum "$work/stats.json")
expect_exit 2 "exists" --scene flag --steps 5 --stats "$work/stats.json"
[ "$(md5sum "$work/stats.json")" = "$before" ] || fail "stats file was modified"
"$clothsim" --scene flag --steps 5 --stats "$work/stats.json" --force || fail "--force run failed"

[ "$failures" = 0 ] && echo "all clothsim end-to-end checks passed"
exit "$failures"
