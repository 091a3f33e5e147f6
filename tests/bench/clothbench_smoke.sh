#!/usr/bin/env bash
# clothbench --quick --only SECTIONS ($2, comma-separated) finishes and its JSON holds those tables
# with finite, positive figures. Two tests share the sections, so that each stays well within its
# timeout under the sanitizer (all at once took 300 s there).
set -u
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A soak length that is not a positive whole number is refused, not taken for a full benchmark run.
# So is a section it does not have.
for bad in abc 0 -5 10x; do
  "$1" --soak "$bad" >/dev/null 2>&1
  [ $? -eq 2 ] || { echo "clothbench --soak $bad was not refused"; exit 1; }
done
for bad in moon steps,moon steps, ,; do
  "$1" --only "$bad" >/dev/null 2>&1
  [ $? -eq 2 ] || { echo "clothbench --only '$bad' was not refused"; exit 1; }
done
"$1" --quick --only "$2" --json "$work/bench.json" >"$work/out.txt" || { cat "$work/out.txt"; exit 1; }
python3 - "$work/bench.json" "$2" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
wanted = set(sys.argv[2].split(","))
assert set(d) - {"quick"} == {s.replace("-", "_") for s in wanted}, (sorted(d), wanted)
if "steps" in d:
  rows = [r for r in d["steps"] if "ms_per_step_median" in r]
  assert {r["integrator"] for r in rows} == {"approx-implicit", "explicit", "implicit-cg"}, rows
  assert all(r["ms_per_step_median"] > 0 and r["finite"] for r in rows), rows
  assert all(math.isfinite(r["growth_exponent"]) for r in d["steps"] if "growth_exponent" in r)
if "stability" in d:
  assert len(d["stability"]) == 3 and all(s["h_max"] > 0 for s in d["stability"]), d["stability"]
if "refine" in d:
  assert {r["mode"] for r in d["refine"]} >= {"key", "spline", "wrinkled", "hadap", "hadap-modulation"}
# Large steps: every row has a finite value; the accuracy targets (not the timings, which depend on the
# machine) are met even in the quick run.
if "large_steps" in d:
  large = d["large_steps"]
  assert large and all(math.isfinite(r["value"]) for r in large), large
  accuracy = [r for r in large if not r["comparison"] and not r["timing"]]
  missed = [r["name"] for r in accuracy if not r["met"]]
  assert accuracy and not missed, missed
# Colliders: the analytic sphere first, then the same sphere as meshes, the table and a packaged mesh.
if "colliders" in d:
  colliders = d["colliders"]
  assert colliders[0]["triangles"] == 0 and len(colliders) >= 3, colliders
  assert all(r["ms_per_step_median"] > 0 for r in colliders), colliders
# Threads: the pool's loops ran, each row with a positive time (OpenMP's where it was built), the last
# with a serial pass between its loops.
if "threads" in d:
  pool = d["threads"]
  assert len(pool) == 5 and "serial pass between" in pool[-1]["loop"], pool
  assert all(r["pool_us"] > 0 and r["serial_us"] >= 0 for r in pool), pool
# Contacts: every scenario a row; the drag into the table and the ball (with and without self-collision)
# keep the colliders out. A quick run still runs the drags through: the drape pressed into its table
# until 2.5 s, the yank until 3.1 s.
if "contacts" in d:
  contacts = {r["scenario"]: r for r in d["contacts"]}
  assert len(contacts) >= 4 and all(r["ms_per_step"] > 0 for r in contacts.values()), contacts
  assert all(0 < r["audit_ms_per_step"] for r in contacts.values()), contacts  # --stats' cost, timed
  held = [r for name, r in contacts.items() if name.startswith(("drape 30^2: node (15,15) dragged", "ball 20^2"))]
  assert len(held) == 3 and all(r["max_collider_penetrations"] == 0 for r in held), held
  pressed = [r for name, r in contacts.items() if "dragged 0.5 m down" in name]
  yanked = [r for name, r in contacts.items() if "pulled off the table" in name]
  assert len(pressed) == 1 and pressed[0]["sim_seconds"] >= 2.5, pressed
  assert len(yanked) == 1 and yanked[0]["sim_seconds"] > 3.1, yanked
  struck = [r for name, r in contacts.items() if "(ball-hit)" in name]  # through the strike (1-1.07 s)
  assert len(struck) == 1 and struck[0]["sim_seconds"] > 1.1, struck
  assert struck[0]["max_collider_penetrations"] == 0 and struck[0]["max_self_intersections"] == 0, struck
  # What the user sees (Untangle): no row's drawn surface passes through itself in any frame.
  drawn = [n for n, r in contacts.items() if r["max_drawn_self_intersections"]]
  assert not drawn, drawn
  # The flag with self-collision on, its contacts in every small step, dragged onto its pole (with and
  # without K_D): its key mesh clear of itself and of the pole (129 and 281 pairs with it off).
  flags = [r for n, r in contacts.items() if n.startswith(("flag 10^2, self-collision on", "the same with K_D"))]
  assert len(flags) == 2 and all(r["max_self_intersections"] == 0 and r["max_collider_penetrations"] == 0 for r in flags), flags
  assert all(r["p99_ms_per_step"] > 0 and r["target_ms_per_step"] > 0 for r in contacts.values()), contacts  # #37's targets
  assert all(r["draw_ms_per_frame"] > 0 for r in contacts.values()), contacts
# Torture (issue #41): the struck curtain, the layered cloths and the funnel, each through its hardest
# part in the quick run (the strike at 1-1.07 s; the layers landing on the ball by 0.6 s; the funnel's
# pull into the throat from 1 s), never through themselves; the curtain and the layers never in a
# collider either (the funnel's throat edge pokes through the squeezed cloth: a row the bench reports
# NOT MET). The twist's row is there and finite; its quick run (3.3 s) goes past 2.4 s, where the
# coiled cloth first stretches and then passes through itself (NOT MET; its first 2 s are held to 0
# in twist_test). The cost targets are printed, not asserted: timings belong to the full run.
if "torture" in d:
  torture = {r["scenario"].split(":")[0]: r for r in d["torture"]}
  assert set(torture) == {"ball-hit", "layers", "funnel", "twist"}, sorted(torture)
  assert all(r["sim_seconds"] > 1.1 and r["target_ms_per_step"] > 0 for r in torture.values()), torture
  assert torture["twist"]["sim_seconds"] > 3 and math.isfinite(torture["twist"]["peak_strain"]), torture["twist"]
  assert not [n for n, r in torture.items() if r["max_self_intersections"] and n != "twist"], torture
  assert not [n for n in ("ball-hit", "layers") if torture[n]["max_collider_penetrations"]], torture
  assert not [n for n, r in torture.items() if r["max_drawn_self_intersections"] and n != "twist"], torture
# Convergence: the flag's reference is one two integrators agree on (within 5 % in frequency), and the
# default's rows are there with finite values. Whether the default meets its targets is issue #38's:
# the bench prints it; this test does not yet require it.
if "convergence" in d:
  rows = d["convergence"]
  assert rows and all(math.isfinite(r["value"]) for r in rows), rows
  reference = [r for r in rows if r["name"].startswith("flag reference") and not r["comparison"]]
  assert len(reference) == 2 and all(r["met"] for r in reference), reference  # and the viewer's mark
  default = [r for r in rows if r["name"].startswith("flag at its default")]
  assert len(default) >= 4, default
print("clothbench smoke: ok")
PY
