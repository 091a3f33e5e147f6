#!/usr/bin/env bash
# Mesh colliders and point caches through the real clothsim: the drape scene on its bundled table and
# on a packaged mesh with --export-pc2; the cache read back by an independent reader, frame by frame
# equal to the OBJ frames of the same run; bad mesh files refused with one line and exit 2.
set -u
clothsim="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
models=/usr/share/assimp/models  # Debian's assimp-testmodels

# The issue's command, on the bundled table and on a packaged mesh.
for mesh in "" "$models/OBJ/WusonOBJ.obj"; do
  name=$([ -z "$mesh" ] && echo table || echo wuson)
  args=(--scene drape --export-pc2 "$work/$name.pc2" --seconds 3 --stats "$work/$name.json")
  [ -n "$mesh" ] && args+=(--collider-mesh "$mesh")
  "$clothsim" "${args[@]}" >"$work/$name.log" 2>&1 || fail "drape on $name failed: $(cat "$work/$name.log")"
  [ -s "$work/$name.pc2" ] && [ -s "$work/$name.obj" ] || fail "no $name.pc2 and $name.obj"
  python3 - "$work/$name.json" "$name" <<'PY' || fail "drape on $name: the cloth is not on the mesh"
import json, sys
d = json.load(open(sys.argv[1]))
print("%s: min clearance %.4f m, render surface %s, %.3f ms/step" % (sys.argv[2], d["min_collider_clearance"], d["render_surface"], d["ms_per_step"]))
assert d["finite"] and d["recoveries"] == 0
assert d["render_surface"]["vertices_pushed_out"] >= 0
PY
done

# PC2 against OBJ frames of the same run: every frame, every vertex, to float precision.
"$clothsim" --scene drape --seconds 1 --every 6 --detail wrinkled --refine 3 --export-obj "$work/frames" \
  --export-pc2 "$work/drape.pc2" >/dev/null 2>&1 || fail "export run failed"
python3 - "$work/drape.pc2" "$work/drape.obj" "$work/frames" <<'PY' || fail "the point cache does not match the OBJ frames"
import glob, os, struct, sys
pc2, first, frames = sys.argv[1:]
with open(pc2, "rb") as f:
    data = f.read()
signature, version, points, start, rate, samples = struct.unpack("<12siiffi", data[:32])
assert signature == b"POINTCACHE2\0" and version == 1, (signature, version)
assert len(data) == 32 + samples * points * 12, (len(data), samples, points)
def vertices(path):
    return [tuple(map(float, l.split()[1:4])) for l in open(path) if l.startswith("v ")]
objs = sorted(glob.glob(os.path.join(frames, "frame_*.obj")))
assert samples == len(objs), (samples, len(objs))
assert vertices(first) == vertices(objs[0]), "the first-frame OBJ is not frame 0"
worst = 0
for s, obj in enumerate(objs):
    ref = vertices(obj)
    assert len(ref) == points
    cached = struct.unpack_from("<%df" % (3 * points), data, 32 + s * points * 12)
    for i, v in enumerate(ref):
        for k in range(3):
            worst = max(worst, abs(cached[3 * i + k] - v[k]))
print("PC2: %d samples of %d points; largest difference to the OBJ frames %.2g m" % (samples, points, worst))
assert worst < 1e-5, worst  # OBJ text keeps 6 decimals, the cache float32
PY

# No overwriting without --force, then with it.
"$clothsim" --scene drape --seconds 0.1 --export-pc2 "$work/drape.pc2" >/dev/null 2>"$work/err" && fail "replaced a cache without --force"
grep -q "exists (use --force" "$work/err" || fail "no message about the existing cache: $(cat "$work/err")"
"$clothsim" --scene drape --seconds 0.1 --export-pc2 "$work/drape.pc2" --force >/dev/null 2>&1 || fail "--force did not replace it"

# Bad mesh files: exit 2, one line naming the file.
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0 -1 0\nf 1 2 3\nf 1 2 4\nf 1 2 5\n' >"$work/fin.obj"
: >"$work/empty.stl"
for bad in "$work/missing.obj" "$work/empty.stl" "$models/invalid/malformed.obj"; do
  "$clothsim" --scene drape --seconds 0.1 --collider-mesh "$bad" >/dev/null 2>"$work/err"
  rc=$?
  [ "$rc" = 2 ] || fail "clothsim with --collider-mesh $bad exited $rc, expected 2"
  [ "$(wc -l <"$work/err")" = 1 ] && grep -qF "$bad" "$work/err" || fail "not one line naming $bad: $(cat "$work/err")"
  echo "  $(cat "$work/err")"
done
# An STL with a NaN coordinate is named as such, not as a file with no triangles.
printf 'solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 nan\nvertex 0 1 0\nendloop\nendfacet\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 1\nendloop\nendfacet\nendsolid t\n' >"$work/nan.stl"
"$clothsim" --scene drape --seconds 0.1 --collider-mesh "$work/nan.stl" >/dev/null 2>"$work/err"
rc=$?
[ "$rc" = 2 ] && grep -q "nan.stl': cannot be a collider: a vertex coordinate is not a finite number" "$work/err" ||
  fail "the NaN STL: exit $rc, $(cat "$work/err")"
# A non-manifold fin (three triangles on one edge) is no longer bad: it is taken as two-sided.
"$clothsim" --scene drape --seconds 0.1 --collider-mesh "$work/fin.obj" >/dev/null 2>"$work/err" ||
  fail "clothsim refused the non-manifold fin: $(cat "$work/err")"
grep -qF "two-sided" "$work/err" || fail "the fin was not reported as two-sided: $(cat "$work/err")"
[ "$failures" = 0 ] && echo "all checks passed"
exit "$failures"
