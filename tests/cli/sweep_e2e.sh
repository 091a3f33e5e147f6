#!/usr/bin/env bash
# Sweeps on this machine, end to end: scripts/sweep.sh runs a sweep with GNU parallel; killed halfway
# and run again, it runs only the missing rows and gathers the same table; a bad row fails alone; bad
# sweep files exit 2 with one line.
#   sweep_e2e.sh CLOTHSIM [CLOTHVIEW]
set -u
export CLOTHSIM=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source "$(dirname "$0")/sweep_lib.sh"

# --- bad sweep files: exit 2, one line naming the problem ---
expect_bad() {  # expect_bad TEXT-IN-MESSAGE FILE
  local err rc
  err=$("$CLOTHSIM" --sweep "$2" --list 2>&1 >/dev/null)
  rc=$?
  [ "$rc" = 2 ] || fail "--sweep $2 --list exited $rc, expected 2 ($err)"
  [ "$(grep -c . <<<"$err")" = 1 ] || fail "--sweep $2: expected one line, got: $err"
  grep -qF -- "$1" <<<"$err" || fail "--sweep $2 said '$err', expected '$1'"
  err=$("$root/scripts/sweep.sh" "$2" "$work/never" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" = 2 ] || fail "sweep.sh $2 exited $rc, expected 2"
  grep -qF -- "$1" <<<"$err" || fail "sweep.sh $2 said '$err', expected '$1'"
}
printf 'scene = "flag"\n[axes]\nstiffness = [1, 2]\n' >"$work/unknown.toml"
expect_bad "unknown parameter 'stiffness'" "$work/unknown.toml"
printf 'scene = "flag"\n[axes]\nk = []\n' >"$work/empty.toml"
expect_bad "has no values" "$work/empty.toml"
printf 'scene = "flag"\n[axes]\nh = { from = 0.001, to = 0.01, step = -0.001 }\n' >"$work/endless.toml"
expect_bad "never reaches" "$work/endless.toml"
head -c 300 "$CLOTHSIM" >"$work/binary.toml"
expect_bad "not a TOML file" "$work/binary.toml"
expect_bad "is a directory" "$work"
expect_bad "cannot read" "$work/none.toml"
[ ! -e "$work/never" ] || fail "a refused sweep created its output folder"
expect_flags() {  # expect_flags TEXT ARGS...: exit 2 with TEXT
  local text=$1 err rc
  shift
  err=$("$CLOTHSIM" "$@" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" = 2 ] && grep -qF -- "$text" <<<"$err" || fail "clothsim $*: exit $rc, '$err' (expected 2, '$text')"
}
expect_flags "go with --sweep FILE" --list
expect_flags "needs --list, or --index I and --out DIR" --sweep "$work/empty.toml"
expect_flags "either --list or --index" --sweep "$work/empty.toml" --list --index 0
expect_flags "takes no other sweep flag" --gather "$work" --index 2
expect_flags "holds no sweep" --gather "$work"
expect_flags "--index must be 0 or more" --sweep "$work/empty.toml" --index -1 --out "$work/x"

# --- a sweep of 12 rows, one of them bad (h above its range) ---
cat >"$work/sweep.toml" <<'EOF'
scene = "flag"
steps = 250
record = ["stats", "series"]
[set]
grid = "30x30"
[axes]
integrator = ["approx-implicit", "implicit-cg"]
h = [0.002, 0.003, 0.004, 0.005, 0.5, 0.006]
EOF
"$root/scripts/sweep.sh" "$work/sweep.toml" "$work/a" -j 2 >"$work/a.out" 2>"$work/a.err"
rc=$?
[ "$rc" = 1 ] || fail "a sweep with a bad row exited $rc, expected 1"
grep -q "12 runs, 2 failed, 10 ok" "$work/a.out" || fail "gather said: $(cat "$work/a.out")"
grep -q "sweep row 4 (integrator=approx-implicit h=0.5)" "$work/a.err" || fail "the bad row is not named: $(cat "$work/a.err")"
[ "$(ls -d "$work"/a/[0-9]* | grep -vc failed)" = 10 ] || fail "expected 10 result folders"
grep -q '^3,ok,approx-implicit,0.005,' "$work/a/results.csv" || fail "row 3 not in the table"

# --- killed halfway, then resumed: only the missing rows run, and the table is the same ---
setsid "$root/scripts/sweep.sh" "$work/sweep.toml" "$work/b" -j 2 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 300); do
  [ "$(ls -d "$work"/b/[0-9] "$work"/b/[0-9][0-9] 2>/dev/null | wc -l)" -ge 4 ] && break
  sleep 0.05
done
# The script, parallel and the rows running (parallel starts each in a process group of its own).
kill -KILL -- -"$pid" 2>/dev/null
pkill -KILL -f -- "--out $work/b" 2>/dev/null
wait "$pid" 2>/dev/null
sleep 0.2
ls -a "$work/b" | grep -q '\.tmp-' && echo "killed rows left their temporary folders, as they should"
done_before=$(ls -d "$work"/b/[0-9] "$work"/b/[0-9][0-9] 2>/dev/null | wc -l)
echo "killed with $done_before of 10 results written"
[ "$done_before" -ge 4 ] && [ "$done_before" -lt 10 ] || fail "the kill came at $done_before of 10 results"
for d in "$work"/b/[0-9] "$work"/b/[0-9][0-9]; do
  [ -d "$d" ] || continue
  [ -f "$d/run.json" ] && [ -f "$d/stats.json" ] || fail "$d is a result folder without its files"
done
stamps_before=$(stat -c '%n %Y.%y' "$work"/b/*/run.json 2>/dev/null | sort)
"$root/scripts/sweep.sh" "$work/sweep.toml" "$work/b" -j 2 >"$work/b.out" 2>"$work/b.err"
grep -q "12 runs, 2 failed, 10 ok" "$work/b.out" || fail "resumed gather said: $(cat "$work/b.out")"
stamps_after=$(stat -c '%n %Y.%y' "$work"/b/*/run.json | sort)
[ "$(comm -23 <(echo "$stamps_before") <(echo "$stamps_after"))" = "" ] || fail "the resume ran finished rows again"
ls -a "$work/b" | grep -q '\.tmp-' && fail "the resume left the killed rows' temporary folders: $(ls -a "$work/b")"
stable "$work/a/results.csv" >"$work/a.csv"
stable "$work/b/results.csv" >"$work/b.csv"
cmp -s "$work/a.csv" "$work/b.csv" || fail "interrupted and whole sweeps differ: $(diff "$work/a.csv" "$work/b.csv" | head -5)"

# --- -j 1 gives the same table (each run then has both cores' threads) ---
"$root/scripts/sweep.sh" "$work/sweep.toml" "$work/c" -j 1 >/dev/null 2>&1
stable "$work/c/results.csv" >"$work/c.csv"
cmp -s "$work/a.csv" "$work/c.csv" || fail "-j 1 and -j 2 differ: $(diff "$work/a.csv" "$work/c.csv" | head -5)"

# --- screenshots by the headless viewer (when it is built: CLOTHVIEW, the second argument) ---
if [ -n "${2:-}" ]; then
  printf 'scene = "ball"\nseconds = 1\nrecord = ["screenshot", "pc2"]\n[axes]\nfriction = [0.2, 0.8]\n' >"$work/shots.toml"
  # Under the sanitizers: Mesa's software driver leaks a few bytes in the viewer (see tests/app).
  ASAN_OPTIONS=detect_leaks=0 "$CLOTHSIM" --sweep "$work/shots.toml" --index 1 --out "$work/shots" --viewer "$2" 2>/dev/null \
    || fail "the screenshot row failed: $(cat "$work"/shots/*.failed)"
  size=$(identify -format '%wx%h' "$work/shots/1/screenshot.png" 2>&1)
  [ "$size" = 640x400 ] || fail "screenshot is $size, expected 640x400"
  colours=$(convert "$work/shots/1/screenshot.png" -format %k info:)
  [ "$colours" -gt 200 ] || fail "the screenshot has $colours colours: no cloth drawn?"
  [ -f "$work/shots/1/cache.pc2" ] || fail "no point cache beside the screenshot"
  "$CLOTHSIM" --sweep "$work/shots.toml" --index 0 --out "$work/shots" --viewer /nonexistent/clothview 2>"$work/shot.err"
  rc=$?
  [ "$rc" = 1 ] || fail "a missing viewer exited $rc, expected 1"
  grep -q "cannot run '/nonexistent/clothview'" "$work/shot.err" || fail "missing viewer: $(cat "$work/shot.err")"
  [ -f "$work/shots/0.failed" ] && [ ! -e "$work/shots/0" ] || fail "a failed screenshot left a result"
fi

[ "$failures" = 0 ] && echo "all sweep end-to-end checks passed"
exit "$failures"
