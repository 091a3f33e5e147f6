# Helpers for end-to-end tests of the real clothview binary. Source this; set $clothview first.
set -u
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"' EXIT  # KEEP=1 keeps the files
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
finish() {
  [ "$failures" = 0 ] && echo "all checks passed"
  exit "$failures"
}

# json FILE EXPR: evaluates a Python expression with d = the parsed file.
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# Mean brightness of an image in [0, 1].
brightness() { convert "$1" -colorspace gray -format "%[fx:mean]" info:; }

# Number of pixels that differ between two images.
pixels_differing() { compare -metric AE "$1" "$2" null: 2>&1 | cut -d' ' -f1; }

# in_xvfb SCRIPT: runs a bash script on a fresh 1280x720 X display.
in_xvfb() { timeout 120 xvfb-run -a -s '-screen 0 1280x720x24' bash -c "$1"; }

# Waits for the clothview window to show its first frame (inside in_xvfb): the title then names the scene.
wait_window='xdotool search --sync --name "clothview - " >/dev/null'
