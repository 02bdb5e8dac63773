#!/usr/bin/env python3
"""Candidate rules for signed 8-bit (and 16-bit) texels read as normalized floats under linear filtering, against the
H200 recording of s8_sweep.cu (session 15) and the two signed 8-bit launches of texture_ties.cu (session 14).

Reads a recording of s8_sweep.cu made by `numlint record` (the committed three launches,
validation/src/test/resources/recordings/s8-sweep, or the lead's full six), recomputes every sample's weights with
exact fractions (interp/Texture's rule: 9-bit weights, x split halves up, y halves up in the upper x column) and
prints, per part and candidate, how many of the recorded results differ from the GPU's bit for bit. Then: whether
the GPU's 16-bit result N is a function of the raw product sum P alone (part A), whether any one rounding of a
linear function of P gives it (a linear program, with scipy), and the same candidates on texture_ties.cu's launches
4 and 5. Needs python3 and numpy (scipy optional). Written for numlint (docs/validation/textures-session15.md).

    python3 docs/validation/textures-session15/s8_search.py [S8_RECORDING_DIR [TIES_RECORDING_DIR]]
"""
import json
import math
import os
import sys
from fractions import Fraction as F

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = sys.argv[1] if len(sys.argv) > 1 else "validation/src/test/resources/recordings/s8-sweep"
TIES = sys.argv[2] if len(sys.argv) > 2 else "validation/src/test/resources/recordings/texture-ties"
# the part each launch of s8_sweep.cu is (the program launches A to F in order)
PARTS = "ABCDEF"
# CUarray_format: 1 unsigned 8-bit, 8 signed 8-bit, 9 signed 16-bit
DTYPES = {1: ("u1", "u8"), 8: ("i1", "s8"), 9: ("<i2", "s16")}


def up(n):  # n / 256 rounded, halves up
    return (n + 128) >> 8


def down(n):  # halves down
    return (n + 127) >> 8


def weight(frac):
    f = frac * 256
    i = math.floor(f)
    return i + 1 if f - i >= F(1, 2) else i


def corner_weights(x, y, w, h):
    """(texel, weight) of a clamp-addressed linear sample at unnormalized (x, y) of a w x h array."""
    out = []
    for v, n in ((x, w), (y, h)):
        vb = max(F(0), min(F(n - 1), F(float(v)) - F(1, 2)))
        i = math.floor(vb)
        out.append((i, weight(vb - i)))
    (i, a), (j, b) = out
    hi = up(a * 256)
    lo = 256 - hi
    ylo, yhi = down(b * lo), up(b * hi)

    def at(p, q):
        return min(max(p, 0), w - 1), min(max(q, 0), h - 1)

    return [(at(i, j), lo - ylo), (at(i + 1, j), hi - yhi), (at(i, j + 1), ylo), (at(i + 1, j + 1), yhi)]


def parts():
    """Per recorded launch: part letter, format, and a list of (texels with weights, GPU's 16-bit N)."""
    for line in open(f"{ROOT}/launches.jsonl"):
        d = json.loads(line)
        t = d["textures"][0]
        dtype, fmt = DTYPES[t["format"]]
        tex = np.fromfile(f"{ROOT}/data/launch-{d['id']}-texture-0.bin", dtype=dtype).reshape(t["height"], 2)
        n = int(np.frombuffer(open(f"{ROOT}/data/launch-{d['id']}-params.bin", "rb").read()[24:28], "<i4")[0])
        at = np.fromfile(f"{ROOT}/data/launch-{d['id']}-alloc-0-after.bin", "<f4")[: 2 * n].reshape(n, 2)
        out = np.fromfile(f"{ROOT}/data/launch-{d['id']}-alloc-1-after.bin", "<f4")[:n].astype(np.float64)
        full = 65535 if fmt == "u8" else 32767
        gpu = np.round(out * full).astype(int)
        assert (np.float32(gpu / full) == out.astype(np.float32)).all(), "a result off the 16-bit grid"
        samples = []
        for k in range(n):
            terms = [(int(tex[q, p]), wt) for (p, q), wt in corner_weights(at[k, 0], at[k, 1], 2, t["height"])]
            samples.append((terms, int(gpu[k])))
        yield PARTS[d["id"]], fmt, samples


def clamp(n, lo=-32767, hi=32767):
    return max(lo, min(hi, n))


def away(num, den):  # num / den rounded, halves away from zero
    q = (abs(num) * 2 + den) // (2 * den)
    return -q if num < 0 else q


# candidates for signed 8-bit texels: terms are (v, weight in 1/256)
def exact_away(terms):  # session 14: v * 32767 / 127 exactly, the sum rounded once halves away
    return clamp(away(sum(v * w for v, w in terms) * 32767, 256 * 127))


def exact_up(terms):  # the same, halves up
    return clamp((sum(v * w for v, w in terms) * 32767 * 2 + 256 * 127) // (2 * 256 * 127))


def per_texel(terms):  # each texel first rounded to 16 bits (halves away), then the sum halves up
    return clamp((sum(away(v * 32767, 127) * w for v, w in terms) + 128) >> 8)


def scale_once(terms):  # P * 0x8101 / 2^15 (= P * (1 + 2^-7 + 2^-15)) rounded once, halves up
    p = sum(v * w for v, w in terms)
    return clamp((p * 0x8101 + (1 << 14)) >> 15)


def shift_once(terms):  # P + round(P / 128), halves up
    p = sum(v * w for v, w in terms)
    return clamp(p + ((p + 64) >> 7))


def steps(terms):  # session 15: P + floor((P + 16 * floor(P / 4096) + 64) / 128)
    p = sum(v * w for v, w in terms)
    return clamp(p + ((p + 16 * (p >> 12) + 64) >> 7))


S8 = [
    ("exact scale, halves away (session 14)", exact_away),
    ("exact scale, halves up", exact_up),
    ("texels rounded to 16 bits first", per_texel),
    ("P * 0x8101 / 2^15, one rounding", scale_once),
    ("P + round(P / 128)", shift_once),
    ("**P + floor((P + 16 floor(P / 4096) + 64) / 128)**", steps),
]


def fixed16(terms, widen, lo, halves_up):
    s = sum(widen(v) * w for v, w in terms)
    return clamp((s + 128) >> 8 if halves_up else away(s, 256), lo, 65535 if lo == 0 else 32767)


OTHERS = {
    "u8": [("v * 257, halves away (session 14)", lambda t: fixed16(t, lambda v: v * 257, 0, False)),
           ("**v * 257, halves up**", lambda t: fixed16(t, lambda v: v * 257, 0, True))],
    "s16": [("halves away (session 14)", lambda t: fixed16(t, lambda v: v, -32767, False)),
            ("**halves up**", lambda t: fixed16(t, lambda v: v, -32767, True))],
}


def sweep():
    print("## s8_sweep.cu: recorded results that differ, per part and candidate\n")
    names = [n for n, _ in S8]
    print("| part | texels | samples | " + " | ".join(names) + " |")
    print("|---|---|---|" + "---|" * len(names))
    a_part = None
    for part, fmt, samples in parts():
        if fmt == "s8":
            cols = [sum(c(t) != g for t, g in samples) for _, c in S8]
            if part == "A":
                a_part = samples
        else:
            cols = [f"{n}: {sum(c(t) != g for t, g in samples)}" for n, c in OTHERS[fmt]]
            cols += [""] * (len(names) - len(cols))
        print(f"| {part} | {fmt} | {len(samples)} | " + " | ".join(str(c) for c in cols) + " |")
    print()
    if a_part is not None:
        function_of_products(a_part)


def function_of_products(samples):
    print("## part A: is the GPU's N a function of P = sum of v * w alone?\n")
    by_p = {}
    for terms, g in samples:
        by_p.setdefault(sum(v * w for v, w in terms), set()).add(g)
    print(f"- {len(by_p)} distinct P, {sum(len(s) > 1 for s in by_p.values())} with more than one N")
    try:
        from scipy.optimize import linprog
    except ImportError:
        print("- (scipy not installed: the linear program is skipped)\n")
        return
    keys = [p for p in sorted(by_p) if abs(next(iter(by_p[p]))) < 32767]
    for name, target in (("N", lambda p: next(iter(by_p[p]))), ("N - P", lambda p: next(iter(by_p[p])) - p)):
        a, b = [], []
        for p in keys:
            n = target(p)
            a += [[-p, -1], [p, 1]]
            b += [-n, n + 1 - 1e-9]
        res = linprog([0, 0], A_ub=a, b_ub=b, bounds=[(None, None)] * 2, method="highs")
        print(f"- {name} = floor(alpha * P + beta) for some reals alpha, beta: "
              + ("feasible" if res.status == 0 else "infeasible (no one rounding of a linear function of P)"))
    print()


def ties():
    if not os.path.isdir(TIES):
        return
    sys.path.insert(0, os.path.join(HERE, "..", "textures-session14"))
    saved = sys.argv
    sys.argv = [saved[0], TIES]
    import ties_search  # session 14's reader of texture_ties.cu's elements

    sys.argv = saved
    print("## texture_ties.cu: signed 8-bit elements that differ (1,024 per launch)\n")
    print("| launch | addressing | " + " | ".join(n for n, _ in S8) + " |")
    print("|---|---|" + "---|" * len(S8))
    for n in (4, 5):
        rows = []
        for texels, g, bc, full, signed in ties_search.elements(n):
            terms = []
            for v, w in texels:
                if v is None:  # the border colour, rounded to the texel format first
                    v = ties_search.away(max(F(-1), min(F(1), bc)) * 127)
                terms.append((int(v), w))
            rows.append((terms, round(g * 32767)))
        mode = "border" if ties_search.LAUNCHES[n]["textures"][0]["address"][0] == 3 else "clamp"
        print(f"| {n} | {mode} | " + " | ".join(str(sum(c(t) != g for t, g in rows)) for _, c in S8) + " |")
    print()


sweep()
ties()
