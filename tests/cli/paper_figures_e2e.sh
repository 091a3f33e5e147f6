#!/usr/bin/env bash
# The README's measuring commands: clothsim exports frames, scripts/analyze-frames.py measures them.
# The flag flutters (Kang Fig. 7) and every paper scene shows wrinkles of 15 % of a key spacing.
set -u
clothsim="$1"
analyze="$(dirname "$0")/../../scripts/analyze-frames.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# number TEXT REGEX: the number the regex's first group captures.
number() { python3 -c "import re, sys; print(re.search(sys.argv[2], sys.argv[1]).group(1))" "$1" "$2"; }
at_least() { python3 -c "import sys; sys.exit(0 if $1 >= $2 else 1)"; }

"$clothsim" --scene flag --detail key --export-obj "$work/flag" --every 5 --seconds 4 || fail "flag export failed"
out=$("$analyze" flutter "$work/flag")
echo "flag: $out"
hz=$(number "$out" "dominant ([0-9.]+) Hz")
low=$(number "$out" "([0-9.]+) % of the power below")
p2p=$(number "$out" "peak to peak ([0-9.]+) m")
at_least "$hz" 1 && at_least 12 "$hz" || fail "dominant flutter frequency $hz Hz is outside 1-12 Hz"
at_least "$low" 60 || fail "only $low % of the flutter's power lies below 20 Hz"
at_least "$p2p" 0.1 || fail "the free edge moves only $p2p m peak to peak"

for scene in flag waving-flag hang-horizontal hang-vertical ball; do
  for detail in spline wrinkled; do
    "$clothsim" --scene "$scene" --detail $detail --refine 5 --seconds 3 --export-obj "$work/$scene-$detail" \
      || fail "$scene $detail export failed"
  done
  out=$("$analyze" wrinkles "$work/$scene-spline" "$work/$scene-wrinkled")
  echo "$scene: $out"
  share=$(number "$out" "([0-9.]+) % of the key spacing")
  at_least "$share" 15 || fail "$scene: wrinkles of only $share % of a key spacing"
done
[ "$failures" = 0 ] && echo "all checks passed"
exit "$failures"
