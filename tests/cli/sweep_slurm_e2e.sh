#!/usr/bin/env bash
# Sweeps through Slurm, for real: a one-node cluster started on this machine from Debian's packages
# (scripts/slurm-local.sh), a sweep submitted as one job array (scripts/sweep-slurm.sh), and its table
# checked against the same sweep run by GNU parallel (scripts/sweep.sh). Cancelled halfway and
# submitted again, only the missing rows run and the table is the same. Exits 77 (skipped) without Slurm's programs or root.
#   sweep_slurm_e2e.sh CLOTHSIM
set -u
export CLOTHSIM=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
for tool in sbatch slurmctld slurmd munged; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (scripts/install-deps.sh)"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "SKIP: a local Slurm cluster needs root"; exit 77; }
work=$(mktemp -d /tmp/clothview-slurm.XXXXXX)
export SLURM_LOCAL_PORT=$((20000 + RANDOM % 20000))
cleanup() { "$root/scripts/slurm-local.sh" stop "$work/cluster" >/dev/null 2>&1; rm -rf "$work"; }
trap cleanup EXIT
source "$(dirname "$0")/sweep_lib.sh"

cat >"$work/sweep.toml" <<'TOML'
scene = "flag"
steps = 120
[set]
grid = "20x20"
[axes]
integrator = ["approx-implicit", "implicit-cg"]
k = [300, 600, 900]
TOML

setup=$("$root/scripts/slurm-local.sh" start "$work/cluster") || {
  echo "FAIL: the local Slurm cluster did not start"; tail -5 "$work"/cluster/log/*.log; exit 1; }
eval "$setup"

start=$SECONDS
"$root/scripts/sweep-slurm.sh" "$work/sweep.toml" "$work/slurm" --max-running 2 --wait >"$work/s.out" 2>"$work/s.err"
rc=$?
echo "Slurm sweep of 6 rows: $((SECONDS - start)) s"
[ "$rc" = 0 ] || fail "sweep-slurm.sh exited $rc: $(cat "$work/s.err" "$work/s.out")"
grep -q "job array .* runs rows 0-5" "$work/s.err" || fail "not one array of rows 0-5: $(cat "$work/s.err")"
grep -q "6 runs, 6 ok" "$work/s.out" || fail "gather said: $(cat "$work/s.out")"
[ "$(ls "$work"/slurm/slurm/[0-9].log | wc -l)" = 6 ] || fail "expected a Slurm log per task"

"$root/scripts/sweep.sh" "$work/sweep.toml" "$work/local" -j 2 >/dev/null 2>&1 || fail "sweep.sh failed"
stable "$work/slurm/results.csv" >"$work/slurm.csv"
stable "$work/local/results.csv" >"$work/local.csv"
cmp -s "$work/slurm.csv" "$work/local.csv" || fail "Slurm and parallel tables differ: $(diff "$work/slurm.csv" "$work/local.csv" | head -4)"
grep -q "$(hostname)" "$work/slurm/results.csv" || fail "no host column"

# Cancelled halfway (scancel kills the running tasks), then submitted again: only the rows with no
# result run, the killed rows' temporary folders go, and the table is the same.
cat >"$work/long.toml" <<'TOML'
scene = "flag"
steps = 400
[set]
grid = "30x30"
[axes]
integrator = ["approx-implicit", "implicit-cg"]
k = [300, 600, 900]
TOML
"$root/scripts/sweep-slurm.sh" "$work/long.toml" "$work/cancel" --max-running 2 >/dev/null 2>&1 || fail "submitting failed"
for _ in $(seq 600); do
  [ "$(ls -d "$work"/cancel/[0-9] 2>/dev/null | wc -l)" -ge 2 ] && break
  sleep 0.1
done
scancel --name clothsim-sweep
scancel --name clothsim-gather
while squeue -h | grep -q .; do sleep 0.2; done
done_before=$(ls -d "$work"/cancel/[0-9] 2>/dev/null | wc -l)
echo "cancelled with $done_before of 6 results written"
[ "$done_before" -ge 2 ] && [ "$done_before" -lt 6 ] || fail "the cancel came at $done_before of 6 results"
"$root/scripts/sweep-slurm.sh" "$work/long.toml" "$work/cancel" --wait >"$work/s2.out" 2>"$work/s2.err" \
  || fail "the second submission failed: $(cat "$work/s2.err")"
grep -q "runs rows .* of" "$work/s2.err" && ! grep -q "runs rows 0-5 of" "$work/s2.err" \
  || fail "the second array is not the missing rows only: $(cat "$work/s2.err")"
ls -a "$work/cancel" | grep -q '\.tmp-' && fail "temporary folders left: $(ls -a "$work/cancel")"
"$root/scripts/sweep.sh" "$work/long.toml" "$work/long-local" -j 2 >/dev/null 2>&1 || fail "sweep.sh failed"
stable "$work/cancel/results.csv" >"$work/cancel.csv"
stable "$work/long-local/results.csv" >"$work/long-local.csv"
cmp -s "$work/cancel.csv" "$work/long-local.csv" || fail "the resumed Slurm table differs from parallel's"

[ "$failures" = 0 ] && echo "all Slurm sweep checks passed"
exit "$failures"
