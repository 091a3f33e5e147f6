#!/usr/bin/env python3
"""Pixel measurements for the end-to-end tests (images read through ImageMagick's convert).

  pixels.py changed A.png B.png BACKGROUND THRESHOLD
      Of the pixels that are not the background colour (R,G,B) in A or B, how many differ between A and
      B by more than THRESHOLD (0-255) in some channel. Prints "cloth N changed M percent P".
  pixels.py count A.png COLOUR TOLERANCE
      How many pixels lie within TOLERANCE of COLOUR (R,G,B) in every channel. Prints "pixels N".
"""
import subprocess
import sys


def read(path):
    data = subprocess.run(["convert", path, "-depth", "8", "ppm:-"], check=True, capture_output=True).stdout
    fields, pos = [], 0
    while len(fields) < 4:  # P6, width, height, maximum, separated by white space
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    width, height = int(fields[1]), int(fields[2])
    pixels = data[pos + 1:]
    return [tuple(pixels[i:i + 3]) for i in range(0, 3 * width * height, 3)]


def colour(text):
    return tuple(int(x) for x in text.split(","))


def main(argv):
    if len(argv) == 5 and argv[0] == "changed":
        a, b, background, threshold = read(argv[1]), read(argv[2]), colour(argv[3]), int(argv[4])
        cloth = changed = 0
        for p, q in zip(a, b):
            if p == background and q == background:
                continue
            cloth += 1
            changed += max(abs(x - y) for x, y in zip(p, q)) > threshold
        print(f"cloth {cloth} changed {changed} percent {100.0 * changed / max(cloth, 1):.2f}")
    elif len(argv) == 4 and argv[0] == "count":
        image, target, tolerance = read(argv[1]), colour(argv[2]), int(argv[3])
        print(f"pixels {sum(all(abs(x - y) <= tolerance for x, y in zip(p, target)) for p in image)}")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
