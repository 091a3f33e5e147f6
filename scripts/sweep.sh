#!/usr/bin/env bash
# Runs every row of a sweep file on this machine with GNU parallel, then gathers DIR/results.csv.
#
#   scripts/sweep.sh FILE DIR [-j N] [--threads T]
#
# N runs at a time (default: one per core), each with T threads (default: cores / N; a run's result
# does not depend on its thread count). A progress bar on the terminal; a job log in DIR/parallel.log; each row's
# messages in DIR/logs/I.txt. Run it again after an interruption: it runs only the rows with no
# result (parallel's --resume-failed, and clothsim skips a row whose result is there). Exit 0 when
# every row has its result; 1 when some failed (DIR/I.failed says why); 2 for a bad sweep file.
# CLOTHSIM names the clothsim binary (default: the release build of this checkout).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: scripts/sweep.sh FILE DIR [-j N] [--threads T]" >&2; exit 2; }
[ $# -ge 2 ] || usage
file=$1 dir=$2
shift 2
jobs=$(nproc) threads=""
while [ $# -gt 0 ]; do
  case $1 in
    -j) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
    -j*) jobs=${1#-j}; shift ;;
    --threads) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || usage; threads=$2; shift 2 ;;
    *) usage ;;
  esac
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "sweep.sh: -j takes a whole number of jobs, not '$jobs'" >&2; exit 2; }
command -v parallel >/dev/null || { echo "sweep.sh: GNU parallel is not installed (scripts/install-deps.sh)" >&2; exit 2; }
clothsim=${CLOTHSIM:-$root/build/release/src/cli/clothsim}
[ -x "$clothsim" ] || { echo "sweep.sh: no clothsim at '$clothsim' (build it, or set CLOTHSIM)" >&2; exit 2; }

list=$("$clothsim" --sweep "$file" --list) || exit 2
rows=$(grep -c . <<<"$list")
[ -n "$threads" ] || threads=$(( $(nproc) / jobs ))
[ "$threads" -ge 1 ] || threads=1
mkdir -p "$dir/logs" || exit 2
bad=$(grep -c $'\tbad: ' <<<"$list")
echo "sweep.sh: $rows runs of $file into $dir, $jobs at a time, $threads thread(s) each" \
  "($bad with values the scene does not take)" >&2

export CLOTHSIM_BIN=$clothsim SWEEP_FILE=$file SWEEP_DIR=$dir SWEEP_THREADS=$threads
run_row() {
  "$CLOTHSIM_BIN" --sweep "$SWEEP_FILE" --index "$1" --out "$SWEEP_DIR" --set "threads=$SWEEP_THREADS" \
    2>>"$SWEEP_DIR/logs/$1.txt"
}
export -f run_row
start=$SECONDS
progress=()
[ -t 2 ] && progress=(--bar)  # a bar on a terminal; in a log, nothing
seq 0 $((rows - 1)) | parallel --will-cite "${progress[@]}" --joblog "$dir/parallel.log" --resume-failed -j "$jobs" run_row {}
echo "sweep.sh: ran in $((SECONDS - start)) s" >&2

"$clothsim" --gather "$dir"
status=$?
if [ "$status" != 0 ]; then
  for f in "$dir"/*.failed; do [ -e "$f" ] && cat "$f" >&2; done
fi
exit "$status"
