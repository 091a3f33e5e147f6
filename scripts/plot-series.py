#!/usr/bin/env python3
"""Draws one column of clothsim --series CSV files as lines, one colour per file, into a PNG
(ImageMagick's convert draws it; no plotting library needed).

  plot-series.py OUT.png COLUMN TITLE LABEL_A A.csv LABEL_B B.csv
"""
import csv
import subprocess
import sys

WIDTH, HEIGHT, MARGIN = 960, 220, 50
COLOURS = ["#1f5fd6", "#e07b00"]


def read(path, column):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return [float(r["time_s"]) for r in rows], [float(r[column]) for r in rows]


def main():
    out, column, title = sys.argv[1:4]
    runs = [(sys.argv[i], *read(sys.argv[i + 1], column)) for i in range(4, len(sys.argv), 2)]
    t_max = max(max(t) for _, t, _ in runs) or 1
    y_max = max(max(y) for _, _, y in runs) or 1
    draw = ["-fill", "none", "-stroke", "#888888", "-draw",
            "rectangle %d,%d %d,%d" % (MARGIN, 20, WIDTH - 10, HEIGHT - 30)]
    for k, (label, t, y) in enumerate(runs):
        points = " ".join("%.1f,%.1f" % (MARGIN + (WIDTH - 10 - MARGIN) * ti / t_max,
                                         HEIGHT - 30 - (HEIGHT - 50) * yi / y_max) for ti, yi in zip(t, y))
        draw += ["-stroke", COLOURS[k % 2], "-strokewidth", "2", "-draw", "polyline " + points]
        draw += ["-stroke", "none", "-fill", COLOURS[k % 2], "-annotate", "+%d+15" % (MARGIN + 330 * k + 250), label]
        draw += ["-fill", "none"]
    text = ["-stroke", "none", "-fill", "black", "-annotate", "+%d+15" % MARGIN, title,
            "-annotate", "+%d+%d" % (MARGIN, HEIGHT - 8), "0 s",
            "-annotate", "+%d+%d" % (WIDTH - 60, HEIGHT - 8), "%.0f s" % t_max,
            "-annotate", "+4+30", "%.3g" % y_max, "-annotate", "+4+%d" % (HEIGHT - 30), "0"]
    subprocess.run(["convert", "-size", "%dx%d" % (WIDTH, HEIGHT), "xc:white", "-font", "DejaVu-Sans",
                    "-pointsize", "14"] + draw + text + [out], check=True)


if __name__ == "__main__":
    main()
