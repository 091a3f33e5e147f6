# Helpers of the sweep end-to-end tests. Source this.

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# stable CSV: results.csv without the columns that differ between two runs of the same rows
# (cli::kMachineColumns).
stable() {
  python3 - "$1" <<'PY'
import csv, sys
machine = {"wall_seconds", "ms_per_step", "run_wall_seconds", "host"}
rows = list(csv.reader(open(sys.argv[1])))
keep = [i for i, c in enumerate(rows[0]) if c not in machine]
for r in rows:
    print(",".join(r[i] for i in keep))
PY
}
