#!/usr/bin/env python3
"""Candidate models of the texture unit against the H200 recording of texture_ties.cu (session 14).

Reads validation/src/test/resources/recordings/texture-ties (18 launches), recomputes each launch's samples with exact
fractions and prints, per launch and candidate model, how many recorded samples (weights launches) or output elements
(format launches) differ from the GPU's bit for bit. With scipy installed it also asks a linear program whether ANY
per-texel values reproduce the signed 8-bit launches with one rounding of the weighted sum. Needs python3 and numpy.
Written for numlint (docs/validation/textures-session14.md).

    python3 docs/validation/textures-session14/ties_search.py [RECORDING_DIR]
"""
import json
import math
import sys
from fractions import Fraction as F

import numpy as np

ROOT = sys.argv[1] if len(sys.argv) > 1 else "validation/src/test/resources/recordings/texture-ties"
LAUNCHES = [json.loads(line) for line in open(ROOT + "/launches.jsonl")]
FORMATS = {1: ("u1", 255, False), 8: ("i1", 127, True), 2: ("<u2", 65535, False), 9: ("<i2", 32767, True),
           16: ("<f2", None, True), 32: ("<f4", None, True)}


def after(n, dtype):
    return np.fromfile(f"{ROOT}/data/launch-{n}-alloc-0-after.bin", dtype=dtype)


def up(n):  # n / 256 rounded, halves up
    return (n + 128) >> 8


def down(n):  # halves down
    return (n + 127) >> 8


def weights2(a, b, y_up_in_upper_column):
    """Corner weights (x0y0, x1y0, x0y1, x1y1) of a 256-unit slab: x split halves up, then y per column."""
    return weights_slab(256, a, b, y_up_in_upper_column)


def weights_slab(w, a, b, rule):
    hi = up(a * w)
    lo = w - hi
    ylo = down(b * lo)
    yhi = up(b * hi) if rule else down(b * hi)
    return (lo - ylo, hi - yhi, ylo, yhi)


def spread(j):
    return 4 * j + (j & 3)


def weight_launches():
    print("## weights launches: samples whose four (or eight) corner weights differ\n")
    print("| launch | samples | y halves down (session 12) | y halves up in the upper x column (session 14) |")
    print("|---|---|---|---|")
    o = after(0, "<u2").reshape(256, 256, 4)
    cells = [(kx, ky, tuple(int(x) for x in o[ky, kx])) for ky in range(256) for kx in range(256)]
    row(0, cells, lambda kx, ky, r: weights2(kx, ky, r))
    o = after(1, "<u2").reshape(4096, 4)
    cells = [(spread(i % 64), spread(i // 64), tuple(int(x) for x in o[i])) for i in range(4096)]
    row(1, cells, lambda a, b, r: weights2(a, b, r))
    lo, hi = after(2, "<u2").reshape(-1, 4), after(3, "<u2").reshape(-1, 4)
    kz = [1, 77, 128, 255]
    cells = []
    for i in range(16384):
        a, b, c = spread(i % 64), spread(i // 64 % 64), kz[i // 4096]
        cells.append(((a, c), b, tuple(int(x) for x in lo[i]) + tuple(int(x) for x in hi[i])))
    row("2, 3", cells, lambda ac, b, r: weights_slab(256 - ac[1], ac[0], b, r) + weights_slab(ac[1], ac[0], b, r))
    print()


def row(n, cells, model):
    bad = [sum(model(a, b, rule) != w for a, b, w in cells) for rule in (False, True)]
    print(f"| {n} | {len(cells)} | {bad[0]} | {bad[1]} |")


def footprint(x, y, mode):
    out = []
    for v in (x, y):
        vb = v - F(1, 2)
        if mode == 1:
            vb = max(F(0), min(F(3), vb))
        i = math.floor(vb)
        f = (vb - i) * 256
        out.append((i, math.floor(f) + (1 if f - math.floor(f) >= F(1, 2) else 0)))
    (i, a), (j, b) = out
    w = weights2(a, b, True)
    return [((i, j), w[0]), ((i + 1, j), w[1]), ((i, j + 1), w[2]), ((i + 1, j + 1), w[3])]


def away(q):
    return math.floor(q + F(1, 2)) if q >= 0 else -math.floor(-q + F(1, 2))


def to_half(q):
    if q == 0:
        return 0.0
    a = abs(q)
    e = max(math.floor(math.log2(a)), -14)
    while F(2) ** e > a:
        e -= 1
    while F(2) ** (e + 1) <= a:
        e += 1
    ulp = F(2) ** (max(e, -14) - 10)
    return float((1 if q > 0 else -1) * away(a / ulp) * ulp)


def elements(n):
    d = LAUNCHES[n]
    t = d["textures"][0]
    dtype, full, signed = FORMATS[t["format"]]
    tex = np.fromfile(f"{ROOT}/data/launch-{n}-texture-0.bin", dtype=dtype).reshape(4, 4, t["channels"])
    vector = "grid2dyP6" in d["kernel"]
    out = after(n, "<f4")
    border = t["address"][0] == 3
    for k in range(1024):
        x, y = F(-1) + F(k % 32) * F(49, 256), F(-1) + F(k // 32) * F(49, 256)
        fp = footprint(x, y, t["address"][0])
        for c in range(t["channels"] if vector else 1):
            texels = []
            for (i, j), w in fp:
                if border and not (0 <= i < 4 and 0 <= j < 4):
                    texels.append((None, w))
                else:
                    v = tex[min(max(j, 0), 3), min(max(i, 0), 3), c]
                    texels.append((F(float(v)) if full is None else int(v), w))
            yield texels, float(out[k * 4 + c] if vector else out[k]), F(t["border"][c]), full, signed


def fixed(texels, bc, raw_max, signed, per_texel):
    """The 16-bit fixed-point model: texel v as v * full / raw_max (rounded per texel when per_texel), the border
    colour rounded to the format first; the sum rounded once, halves away, clamped, read as N / full."""
    full = 32767 if signed else 65535
    s = 0
    for v, w in texels:
        if v is None:
            v = away(max(F(-1) if signed else F(0), min(F(1), bc)) * raw_max)
        x = F(v) * F(full, raw_max)
        s += w * (away(x) if per_texel else x)
    n = max(-full if signed else 0, min(full, away(s / 256)))
    return float(np.float32(n / full))


def as_floats(texels, bc, half, raw_max=None):
    """The float model of session 12: an exact sum rounded once to float (to a half float when half), ties away;
    integer texels as the floats v / raw_max (at least -1)."""

    def value(v):
        if v is None:
            return bc
        return v if raw_max is None else max(F(-1), F(float(np.float32(v) / np.float32(raw_max))))

    s = sum(w * value(v) for v, w in texels) / 256
    if half:
        return to_half(s)
    f = np.float32(float(s))
    best = min([f, np.nextafter(f, np.float32(np.inf)), np.nextafter(f, np.float32(-np.inf))],
               key=lambda c: (abs(F(float(c)) - s), -abs(float(c))))
    return float(best)


def format_launches():
    names = {4: "signed 8-bit", 6: "16-bit", 8: "signed 16-bit", 10: "half", 12: "8-bit", 14: "8-bit x 2"}
    print("## format launches: output elements that differ (1,024 per launch, 2,048 for two channels)\n")
    print("| launch | texels | addressing | texels as floats v / max (session 12 for all but 8-bit) | 16-bit fixed point, texels widened "
          "one by one | 16-bit fixed point, exact scale (session 14) | float into a half (session 14) |")
    print("|---|---|---|---|---|---|---|")
    for n in range(4, 16):
        base = n - (n % 2)
        t = LAUNCHES[n]["textures"][0]
        els = list(elements(n))
        half = t["format"] == 16
        cols = [sum(as_floats(tx, bc, False, full) != g for tx, g, bc, full, s in els)]
        if half:
            cols += ["", "", sum(as_floats(tx, bc, True) != g for tx, g, bc, full, s in els)]
        else:
            for per_texel in (True, False):
                cols.append(sum(fixed(tx, bc, full, s, per_texel) != g for tx, g, bc, full, s in els))
            cols.append("")
        mode = "border" if t["address"][0] == 3 else "clamp"
        print(f"| {n} | {names[base]} | {mode} | " + " | ".join(str(c) for c in cols) + " |")
    print()


def signed_eight_bit_lp():
    try:
        from scipy.optimize import linprog
    except ImportError:
        print("(scipy not installed: the linear program is skipped)")
        return
    print("## signed 8-bit: can any per-texel values, summed with the weights and rounded once, give the GPU's N?\n")
    for most in (2, 4):
        rows, keys = [], []
        for n in (4, 5):
            for tx, g, bc, full, signed in elements(n):
                if abs(g) >= 1:
                    continue
                r = {}
                for v, w in tx:
                    if w:
                        key = ("border", n) if v is None else v
                        if key not in keys:
                            keys.append(key)
                        r[keys.index(key)] = r.get(keys.index(key), 0) + w / 256
                if len(r) <= most:
                    rows.append((r, round(g * 32767)))
        a = np.zeros((2 * len(rows), len(keys)))
        b = np.zeros(2 * len(rows))
        for i, (r, n16) in enumerate(rows):
            for j, w in r.items():
                a[2 * i, j], a[2 * i + 1, j] = w, -w
            b[2 * i], b[2 * i + 1] = n16 + 0.5, -(n16 - 0.5)
        res = linprog(np.zeros(len(keys)), A_ub=a, b_ub=b, bounds=[(None, None)] * len(keys), method="highs")
        print(f"- samples of at most {most} texels ({len(rows)} output elements): "
              + ("feasible" if res.status == 0 else "infeasible: no such values exist"))
    print()


if __name__ == "__main__":
    weight_launches()
    format_launches()
    signed_eight_bit_lp()
