#!/usr/bin/env bash
# Runs a sweep on a Slurm cluster: one job array, a task per row with no result yet, then a job that
# gathers DIR/results.csv when the array ends (whatever its tasks' exit codes).
#
#   scripts/sweep-slurm.sh FILE DIR [--max-running N] [--partition P] [--time LIMIT] [--wait]
#
# DIR and clothsim must be on a file system every node sees. --max-running caps the tasks that run at
# once (sbatch --array=...%N). --wait returns when the gather job ends, with clothsim --gather's exit
# code; without it the script prints the job ids and returns. Submitting again submits only the rows
# still missing. CLOTHSIM names the clothsim binary (default: the release build of this checkout).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() {
  echo "usage: scripts/sweep-slurm.sh FILE DIR [--max-running N] [--partition P] [--time LIMIT] [--wait]" >&2
  exit 2
}
[ $# -ge 2 ] || usage
file=$(realpath "$1") dir=$2
shift 2
limit="" wait=0 extra=()
while [ $# -gt 0 ]; do
  case $1 in
    --max-running) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || usage; limit="%$2"; shift 2 ;;
    --partition) [ $# -ge 2 ] || usage; extra+=(--partition "$2"); shift 2 ;;
    --time) [ $# -ge 2 ] || usage; extra+=(--time "$2"); shift 2 ;;
    --wait) wait=1; shift ;;
    *) usage ;;
  esac
done
command -v sbatch >/dev/null || { echo "sweep-slurm.sh: sbatch not found (is this a Slurm login node?)" >&2; exit 2; }
clothsim=$(realpath "${CLOTHSIM:-$root/build/release/src/cli/clothsim}")
[ -x "$clothsim" ] || { echo "sweep-slurm.sh: no clothsim at '$clothsim' (build it, or set CLOTHSIM)" >&2; exit 2; }

list=$("$clothsim" --sweep "$file" --list) || exit 2
rows=$(grep -c . <<<"$list")
mkdir -p "$dir/slurm" || exit 2
dir=$(realpath "$dir")

# The rows with no result, as Slurm's array syntax: 0-3,7,9-12.
todo="" first=-1 last=-2
flush() { [ "$first" -ge 0 ] && todo+="${todo:+,}$first$([ "$last" -gt "$first" ] && echo "-$last")"; }
for ((i = 0; i < rows; i++)); do
  [ -f "$dir/$i/run.json" ] && continue
  if [ "$i" -eq $((last + 1)) ]; then last=$i; else flush; first=$i last=$i; fi
done
flush
max=$(scontrol show config 2>/dev/null | awk '$1 == "MaxArraySize" {print $3}')
if [ -n "$max" ] && [ "$rows" -gt "$max" ]; then
  echo "sweep-slurm.sh: $rows rows, but this cluster's MaxArraySize is $max: split the sweep" >&2
  exit 2
fi

gather=$(printf '%q --gather %q' "$clothsim" "$dir")
if [ -z "$todo" ]; then
  echo "sweep-slurm.sh: every row of $file has its result in $dir" >&2
  gather_job=$(sbatch --parsable --job-name clothsim-gather -o "$dir/slurm/gather.log" "${extra[@]}" \
    --wrap "$gather") || exit 1
else
  cat >"$dir/slurm/row.sh" <<EOF
#!/bin/bash
# One row of the sweep: Slurm's array task id is the row.
exec $(printf '%q' "$clothsim") --sweep $(printf '%q' "$file") --index "\$SLURM_ARRAY_TASK_ID" \\
  --out $(printf '%q' "$dir") --set "threads=\${SLURM_CPUS_PER_TASK:-1}"
EOF
  array_job=$(sbatch --parsable --job-name clothsim-sweep --array="$todo$limit" --cpus-per-task=1 \
    -o "$dir/slurm/%a.log" "${extra[@]}" "$dir/slurm/row.sh") || exit 1
  echo "sweep-slurm.sh: job array $array_job runs rows $todo of $file" >&2
  gather_job=$(sbatch --parsable --job-name clothsim-gather --dependency="afterany:$array_job" \
    -o "$dir/slurm/gather.log" "${extra[@]}" --wrap "$gather") || exit 1
fi
echo "sweep-slurm.sh: job $gather_job writes $dir/results.csv when the array ends" >&2
[ "$wait" = 1 ] || exit 0

# sbatch --wait on a job already submitted is not possible; poll until the gather job leaves the queue.
while squeue -h -j "$gather_job" 2>/dev/null | grep -q .; do sleep 1; done
cat "$dir/slurm/gather.log"
[ -f "$dir/results.csv" ] || { echo "sweep-slurm.sh: the gather job wrote no results.csv" >&2; exit 1; }
# Without accounting, the CSV tells: every row ok or not.
if awk -F, 'NR > 1 && $2 != "ok" {bad = 1} END {exit bad}' "$dir/results.csv"; then exit 0; fi
for f in "$dir"/*.failed; do [ -e "$f" ] && cat "$f" >&2; done
exit 1
