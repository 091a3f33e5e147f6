#!/usr/bin/env python3
"""Measures clothsim's exported OBJ frames (clothsim --export-obj DIR), independently of the C++ code.

  analyze-frames.py flutter DIR [--settle S]
      A flag exported with --detail key: the spectrum of its free edge's out-of-plane motion after S
      seconds (default 1): dominant frequency, share of the power below 20 Hz, peak-to-peak.
  analyze-frames.py wrinkles SPLINE_DIR WRINKLED_DIR
      The same run exported with --detail spline and --detail wrinkled: the largest offset between the
      two surfaces, its median over the last second's frames (and in the last frame, and over all
      frames), as a share of the key spacing.

Frames carry their time, grid and key spacing in their first comment line.
"""
import cmath
import glob
import math
import os
import re
import sys

HEADER = re.compile(r"t = ([0-9.eE+-]+) s, detail (\S+), grid (\d+)x(\d+), key grid (\d+)x(\d+), "
                    r"key spacing ([0-9.eE+-]+) m")


def read_frame(path):
    """(header fields, list of vertex positions) of one exported OBJ frame."""
    header, vertices = None, []
    with open(path) as f:
        for line in f:
            if header is None and line.startswith("#"):
                m = HEADER.search(line)
                if m:
                    header = {"t": float(m.group(1)), "detail": m.group(2), "nu": int(m.group(3)),
                              "nv": int(m.group(4)), "spacing": float(m.group(7))}
            elif line.startswith("v "):
                vertices.append(tuple(float(x) for x in line.split()[1:4]))
    if header is None:
        sys.exit(f"analyze-frames: {path} has no clothsim header comment")
    return header, vertices


def frames(folder):
    paths = sorted(glob.glob(os.path.join(folder, "frame_*.obj")))
    if not paths:
        sys.exit(f"analyze-frames: no frame_*.obj in {folder}")
    return [read_frame(p) for p in paths]


def sub(a, b):
    return tuple(x - y for x, y in zip(a, b))


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def flutter(folder, settle):
    all_frames = frames(folder)
    head, rest = all_frames[0]
    nu, nv = head["nu"], head["nv"]
    # The out-of-plane direction: the normal of the cloth's first cell at rest (frame 0).
    n = cross(sub(rest[nu], rest[0]), sub(rest[1], rest[0]))
    n = tuple(x / math.sqrt(dot(n, n)) for x in n)
    kept = [(h, v) for h, v in all_frames if h["t"] >= settle - 1e-9]
    if len(kept) < 8:
        sys.exit("analyze-frames: too few frames after the settle time")
    dt = (kept[-1][0]["t"] - kept[0][0]["t"]) / (len(kept) - 1)
    count = len(kept)
    power = [0.0] * (count // 2 + 1)
    peak_to_peak = 0.0
    for j in range(nv):
        signal = [dot(v[j * nu + nu - 1], n) for _, v in kept]
        peak_to_peak = max(peak_to_peak, max(signal) - min(signal))
        mean = sum(signal) / count
        for k in range(1, count // 2 + 1):
            s = sum((x - mean) * cmath.exp(-2j * math.pi * k * t / count) for t, x in enumerate(signal))
            power[k] += abs(s) ** 2
    seconds = count * dt
    total = sum(power[1:])
    below = sum(p for k, p in enumerate(power) if k > 0 and k / seconds < 20)
    dominant = max(range(1, len(power)), key=lambda k: power[k]) / seconds
    print(f"flutter over {seconds:.2f} s from t = {kept[0][0]['t']:.2f} s ({count} frames): dominant "
          f"{dominant:.2f} Hz, {100 * below / total:.1f} % of the power below 20 Hz, peak to peak "
          f"{peak_to_peak:.3f} m")


def wrinkles(spline_dir, wrinkled_dir):
    spline, wrinkled = frames(spline_dir), frames(wrinkled_dir)
    if len(spline) != len(wrinkled):
        sys.exit("analyze-frames: the two folders hold different numbers of frames")
    spacing = spline[0][0]["spacing"]
    offsets = []
    for (hs, vs), (hw, vw) in zip(spline, wrinkled):
        if len(vs) != len(vw):
            sys.exit("analyze-frames: frames of different surfaces (use the same --refine)")
        offsets.append(max(math.sqrt(dot(sub(a, b), sub(a, b))) for a, b in zip(vs, vw)))
    # The median over the last second's frames: one frame can catch a flag pulled taut all over, where
    # no triangle is compressed and no wrinkle shows (the flag at exactly 3 s, stop 65).
    last_t = spline[-1][0]["t"]
    recent = sorted(o for (h, _), o in zip(spline, offsets) if h["t"] >= last_t - 1 - 1e-9)
    median = recent[len(recent) // 2]
    print(f"wrinkled vs spline over the second to t = {last_t:.2f} s ({len(recent)} frames): median "
          f"largest offset {1000 * median:.1f} mm, {100 * median / spacing:.1f} % of the key spacing "
          f"({1000 * spacing:.1f} mm); in the last frame {100 * offsets[-1] / spacing:.1f} %; over all "
          f"{len(offsets)} frames at most {100 * max(offsets) / spacing:.1f} %")


def main(argv):
    if len(argv) >= 2 and argv[0] == "flutter":
        settle = float(argv[argv.index("--settle") + 1]) if "--settle" in argv else 1.0
        return flutter(argv[1], settle)
    if len(argv) == 3 and argv[0] == "wrinkles":
        return wrinkles(argv[1], argv[2])
    sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
