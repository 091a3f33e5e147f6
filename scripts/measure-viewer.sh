#!/usr/bin/env bash
# The viewer's frame rate as the README quotes it: the default flag at the default 1280 x 720 under
# Xvfb (Mesa llvmpipe), RUNS runs (default 3) each of 600 frames with the panels open and with
# --show no-ui, alternating; prints every run's exit summary, the medians and what the panels cost.
# Then the same with a PNG recording running (frame rate and frames lost), and the 100^2 flag with
# the wrinkled spline at r = 4 on the default threads and on one: fps and the fraction of real time;
# then compare mode with k=50 and with h=0.005 (issue #39: within 10 % of each other).
# Usage: scripts/measure-viewer.sh [BUILD_DIR] [RUNS]
set -euo pipefail
build=${1:-build/release}
runs=${2:-3}
viewer="$build/src/app/clothview"
[ -x "$viewer" ] || { echo "measure-viewer: no $viewer; build first (scripts/test.sh)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fps_of() { sed -nE 's/.* frames in [0-9.]+ s \(([0-9.]+) fps.*/\1/p' "$1"; }
run() {  # run NAME ARGS...: one run, its fps appended to $work/NAME
  local name=$1
  shift
  xvfb-run -a -s '-screen 0 1280x720x24' "$viewer" "$@" >"$work/log" 2>&1
  grep " frames in " "$work/log" | sed "s/^/  $name: /"
  fps_of "$work/log" >>"$work/$name"
}
median() { sort -g "$work/$1" | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

echo "clothview frame rate, default flag, 1280x720, $runs runs of 600 frames each ($(nproc) cores)"
for ((i = 0; i < runs; ++i)); do
  run panels --exit-after-frames 600
  run no-ui --exit-after-frames 600 --show no-ui
done
panels=$(median panels) bare=$(median no-ui)
echo "median: $panels fps with the panels, $bare fps without"
python3 -c "p, b = $panels, $bare; print('panels cost %.2f ms of a %.2f ms frame: %.1f %%' % (1e3 / p - 1e3 / b, 1e3 / p, 100 * (1 - p / b)))"

echo "recording PNG frames (30 fps, paced to real time) and as fast as it goes (60 fps):"
for fps in 30 60; do
  rm -rf "$work/rec"
  run "rec$fps" --exit-after 10 --record "$work/rec" --fps "$fps"
  echo "  $(ls "$work/rec/recording_0001" | wc -l) PNG files written"
done

rt_of() { sed -nE 's/.*s, ([0-9.]+) of real time.*/\1/p' "$1"; }
echo "the 100^2 flag, wrinkled spline at r = 4 (157,609 render nodes), $runs runs of 300 frames each:"
for threads in 0 1; do
  : >"$work/fine$threads"
  : >"$work/fine-rt$threads"
  for ((i = 0; i < runs; ++i)); do
    run "fine$threads" --exit-after-frames 300 --scene flag --set grid=100x100 --set refine=4 --set threads=$threads
    rt_of "$work/log" >>"$work/fine-rt$threads"
  done
  echo "  threads=$threads (0 = one per core): median $(median "fine$threads") fps, $(median "fine-rt$threads") of real time"
done

echo "compare mode, the default flag beside itself with another k and with another h, $runs runs of 600 frames each:"
for ((i = 0; i < runs; ++i)); do
  run compare-k --exit-after-frames 600 --compare k=50
  run compare-h --exit-after-frames 600 --compare h=0.005
done
k=$(median compare-k) h=$(median compare-h)
python3 -c "k, h = $k, $h; print('median: k=50 %.1f fps, h=0.005 %.1f fps: %.0f %% of k=50 (target: within 10 %%)' % (k, h, 100 * h / k))"
