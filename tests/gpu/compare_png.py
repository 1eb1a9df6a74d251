#!/usr/bin/env python3
"""Compares two screenshots of the same scene drawn by two renderers (--raster gl and cuda).

Usage: compare_png.py A.png B.png [max_rel_diff] [max_far_fraction]
Prints the mean absolute difference per channel (0-255) against the mean brightness, and the
fraction of the lit pixels (largest channel > 8 in either) whose largest channel differs by
more than 24; exits 1 when the mean difference exceeds max_rel_diff (default 0.05) times the
mean brightness, or the far fraction exceeds max_far_fraction (default 0.02), or the sizes
differ. A talk's pictures are mostly black, so both are relative to what is lit. Standard
library only (tests/viewer/imgcheck.py reads the PNGs): the GPU machine has no numpy.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "viewer"))
import imgcheck  # noqa: E402  (the viewer tests' PNG reader: stdlib only)


def main():
    a, b = sys.argv[1], sys.argv[2]
    max_rel = float(sys.argv[3]) if len(sys.argv) > 3 else 0.05
    max_far = float(sys.argv[4]) if len(sys.argv) > 4 else 0.02
    ia, ib = imgcheck.read_png(a), imgcheck.read_png(b)
    wa, ha, ra = ia.w, ia.h, ia.rows
    wb, hb, rb = ib.w, ib.h, ib.rows
    if (wa, ha) != (wb, hb):
        print(f"FAIL sizes differ: {wa}x{ha} against {wb}x{hb}")
        return 1
    total = far = lit = 0
    sum_a = sum_b = 0
    for la, lb in zip(ra, rb):
        for x in range(wa):
            pa, pb = la[3 * x:3 * x + 3], lb[3 * x:3 * x + 3]
            d = [abs(pa[k] - pb[k]) for k in range(3)]
            total += sum(d)
            sum_a += sum(pa)
            sum_b += sum(pb)
            if max(pa) > 8 or max(pb) > 8:
                lit += 1
                if max(d) > 24:
                    far += 1
    n = wa * ha
    mean, frac = total / (3 * n), far / max(lit, 1)
    bright = 0.5 * (sum_a + sum_b) / (3 * n)
    print(f"{a} vs {b}: mean |diff| {mean:.3f} /255 per channel = {mean / max(bright, 1e-9):.3f} "
          f"of the mean brightness ({sum_a / (3 * n):.2f} and {sum_b / (3 * n):.2f}); "
          f"{100 * frac:.3f}% of {lit} lit pixels differ by > 24")
    ok = lit > 0 and mean <= max_rel * bright and frac <= max_far
    print("PASS" if ok else f"FAIL (limits: {max_rel} of the brightness, far fraction {max_far})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
