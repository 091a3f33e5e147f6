#!/usr/bin/env python3
"""Plots a sweep's results.csv (clothsim --gather): one line per value of a group column, a quantity
against a swept parameter, into a PNG (ImageMagick's convert draws it; no plotting library needed).

  plot-sweep.py OUT.png RESULTS.csv X Y GROUP TITLE [--logx] [--logy] [--where COLUMN=VALUE ...]

Y is a column or the difference of two ("bbox_max_0-bbox_min_0"). Rows whose status is not ok, or
whose Y is empty, are left out. --where keeps only the rows with that value.
"""
import csv
import math
import subprocess
import sys

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 800, 360, 60, 250, 30, 45
COLOURS = ["#1f5fd6", "#e07b00", "#2a9d3a", "#c0392b", "#8e44ad", "#555555"]


def value(row, expr):
    if expr in row:
        return float(row[expr]) if row[expr] not in ("", "null") else None
    a, b = expr.split("-", 1)
    va, vb = value(row, a), value(row, b)
    return None if va is None or vb is None else va - vb


def scale(v, lo, hi, log):
    if log:
        v, lo, hi = math.log10(v), math.log10(lo), math.log10(hi)
    return 0.5 if hi == lo else (v - lo) / (hi - lo)


def main():
    args = sys.argv[1:]
    logx, logy = "--logx" in args, "--logy" in args
    where = [a.split("=", 1) for a, prev in zip(args, [""] + args) if prev == "--where"]
    pos = [a for a, prev in zip(args, [""] + args) if not a.startswith("--") and prev != "--where"]
    if len(pos) != 6:
        sys.exit(__doc__)
    out, path, xcol, ycol, group, title = pos
    with open(path) as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "ok" and all(r[k] == v for k, v in where)]
    lines = {}
    for r in rows:
        y = value(r, ycol)
        if y is not None and (not logy or y > 0):
            lines.setdefault(r[group], []).append((float(r[xcol]), y))
    if not lines:
        sys.exit("plot-sweep.py: no rows to plot")
    xs = [x for pts in lines.values() for x, _ in pts]
    ys = [y for pts in lines.values() for _, y in pts]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    if not logy and y0 > 0 and y0 < 0.5 * y1:
        y0 = 0.0
    pw, ph = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    px = lambda x: LEFT + pw * scale(x, x0, x1, logx)
    py = lambda y: TOP + ph * (1 - scale(y, y0, y1, logy))
    draw = ["-fill", "none", "-stroke", "#888888", "-draw",
            "rectangle %d,%d %d,%d" % (LEFT, TOP, LEFT + pw, TOP + ph)]
    for k, (label, pts) in enumerate(lines.items()):
        pts.sort()
        colour = COLOURS[k % len(COLOURS)]
        line = " ".join("%.1f,%.1f" % (px(x), py(y)) for x, y in pts)
        draw += ["-stroke", colour, "-strokewidth", "2", "-draw", "polyline " + line]
        for x, y in pts:
            draw += ["-draw", "circle %.1f,%.1f %.1f,%.1f" % (px(x), py(y), px(x) + 3, py(y))]
        draw += ["-stroke", "none", "-fill", colour, "-annotate",
                 "+%d+%d" % (LEFT + pw + 12, TOP + 16 + 20 * k), "%s = %s" % (group, label), "-fill", "none"]
    ticks = sorted(set(xs)) if len(set(xs)) <= 8 else [x0, x1]
    text = ["-stroke", "none", "-fill", "black", "-annotate", "+%d+20" % LEFT, title,
            "-annotate", "+%d+%d" % (LEFT + pw // 2 - 60, HEIGHT - 6), xcol + (" (log scale)" if logx else ""),
            "-annotate", "+4+%d" % (TOP + 12), "%.3g" % y1,
            "-annotate", "+4+%d" % (TOP + ph), "%.3g" % y0]
    for x in ticks:
        text += ["-annotate", "+%d+%d" % (px(x) - 14, TOP + ph + 16), "%.3g" % x]
    subprocess.run(["convert", "-size", "%dx%d" % (WIDTH, HEIGHT), "xc:white", "-font", "DejaVu-Sans",
                    "-pointsize", "13"] + draw + text + [out], check=True)


if __name__ == "__main__":
    main()
