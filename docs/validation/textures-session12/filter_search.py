#!/usr/bin/env python3
"""Candidate models of the texture unit's linear filter against the outputs recorded on an H200.

Reads validation/src/test/resources/recordings/textures (texture_modes.cu, 50 launches), recomputes each launch's
coordinates as its PTX does (fma.rn.f32 then mul.f32), samples with each candidate model and prints, per model, how
many output elements differ from the GPU's bit for bit, per launch (markdown). Needs python3 and numpy; exact
arithmetic with fractions. Written for numlint (docs/validation/textures-session12.md).

    python3 docs/validation/textures-session12/filter_search.py [RECORDING_DIR]
"""
import json
import math
import struct
import sys
from fractions import Fraction as Fr

import numpy as np

f32 = np.float32


def hexf(h):
    return struct.unpack(">f", bytes.fromhex(h))[0]


# the kernels' coordinate constants (module-0.fatbin.ptx.txt): fma(i, step, start) * scale per dimension
STEPS = {
    "sample1d": [("3EBD70A4", "C0000000")],
    "sample2d": [("3F1C28F6", "BFC00000"), ("3F11EB85", "BFC00000")],
    "sample3d": [("3F90A3D7", "BF99999A"), ("3F6E147B", "BFA66666"), ("3F5EB852", "BF8CCCCD")],
}
STEPS["sampleLayered"] = STEPS["sample2d"]
ADDRESS = {0: "wrap", 1: "clamp", 2: "mirror", 3: "border"}


def coord(i, step, start, scale):
    v = f32(float(Fr(float(f32(i))) * Fr(hexf(step)) + Fr(hexf(start))))  # exact here, rounded once: fma
    return f32(v * f32(scale))


def load(root):
    launches = []
    for line in open(root + "/launches.jsonl"):
        d = json.loads(line)
        t = d["textures"][0]
        n = d["id"]
        p = open(f"{root}/data/launch-{n}-params.bin", "rb").read()
        out = np.frombuffer(open(f"{root}/data/launch-{n}-alloc-0-after.bin", "rb").read(), dtype="<f4")
        raw = open(f"{root}/data/launch-{n}-texture-0.bin", "rb").read()
        tex = np.frombuffer(raw, dtype="<f4") if t["format"] == 32 else np.frombuffer(raw, dtype="u1")
        kernel = next(k for k in STEPS if k in d["kernel"])
        st = STEPS[kernel]
        elems = []
        if kernel == "sample1d":
            cnt, s = struct.unpack_from("<if", p, 16)
            for i in range(cnt):
                elems.append(((coord(i, *st[0], s),), 0, out[i]))
        elif kernel == "sample3d":
            m, sx, sy, sz = struct.unpack_from("<ifff", p, 16)
            for i in range(m**3):
                c = (coord(i % m, *st[0], sx), coord(i // m % m, *st[1], sy), coord(i // (m * m), *st[2], sz))
                elems.append((c, 0, out[i]))
        else:
            if kernel == "sample2d":
                nx, ny, sx, sy = struct.unpack_from("<iiff", p, 16)
                layer = 0
            else:
                nx, ny, layer, sx, sy = struct.unpack_from("<iiiff", p, 16)
            for i in range(nx * ny):
                elems.append(((coord(i % nx, *st[0], sx), coord(i // nx, *st[1], sy)), layer, out[i]))
        launches.append(
            dict(id=n, kernel=kernel, dims=t["dims"], size=(t["width"], t["height"], t["depth"]), tex=tex,
                 u8=t["format"] != 32, linear=t["filter"] == 1, norm=bool(t["flags"] & 2),
                 addr=ADDRESS[t["address"][0]], border=Fr(t["border"][0]), elems=elems))
    return launches


def index(i, n, mode):
    if mode == "border":
        return -1 if i < 0 or i >= n else i
    if mode == "wrap":
        return i % n
    if mode == "mirror":
        j = i % (2 * n)
        return j if j < n else 2 * n - 1 - j
    return max(0, min(n - 1, i))


def texel(l, idx, layer, fixed16):
    """The texel (a Fraction; 8-bit texels as v / 255, or v * 257 in 16-bit fixed point) or the border colour."""
    at = [0, 0, 0]
    for d, i in enumerate(idx):
        at[d] = index(i, l["size"][d], l["addr"])
        if at[d] < 0:
            return l["border"] * 65535 if (l["u8"] and fixed16) else l["border"]
    w, h, dep = l["size"]
    v = l["tex"][((layer * dep + at[2]) * h + at[1]) * w + at[0]]
    if not l["u8"]:
        return Fr(float(v))
    return Fr(int(v) * 257) if fixed16 else Fr(float(f32(f32(int(v)) / f32(255))))


def round_int(v, ties):
    f = math.floor(v)
    r = v - f
    if r != Fr(1, 2):
        return f + (1 if r > Fr(1, 2) else 0)
    return f + 1 if ties == "up" else f


def to_f32(v, ties):
    """v rounded to float: halves to even or away from zero."""
    if v == 0:
        return f32(0)
    a = abs(v)
    lo = f32(float(a))
    if Fr(float(lo)) > a:
        lo = np.nextafter(lo, f32(0))
    hi = np.nextafter(lo, f32(np.inf))
    d1, d2 = a - Fr(float(lo)), Fr(float(hi)) - a
    if d1 == d2:
        r = hi if ties == "away" or (int(lo.view(np.uint32)) & 1) else lo
    else:
        r = lo if d1 < d2 else hi
    return f32(r if v > 0 else -r)


def sample(l, x, layer, m):
    size, dims = l["size"], len(x)
    xs = [Fr(float(x[d])) * size[d] if l["norm"] else Fr(float(x[d])) for d in range(dims)]
    if not l["linear"]:
        v = texel(l, [math.floor(v) for v in xs], layer, False)
        return f32(float(v))
    base, a = [0, 0, 0], [0, 0, 0]
    for d in range(dims):
        xb = xs[d] - Fr(1, 2)
        if m["clamp_coord"] and l["addr"] == "clamp":
            xb = max(Fr(0), min(Fr(size[d] - 1), xb))
        base[d] = math.floor(xb)
        a[d] = round_int((xb - base[d]) * 256, "up")
    row = l["kernel"] == "sample1d" and l["addr"] == "border"  # row -1 of a 1-D array is the border colour
    # corner bit 1: x, 2: y, 4: z, 8: the 1-D array's row 0 (rather than row -1)
    if m["weights"] == "exact":
        w = {0: Fr(256)}
        for bit, ad in [(1, a[0]), (2, a[1]), (4, a[2])][:dims]:
            w = {**{c | bit: v * ad / 256 for c, v in w.items()}, **{c: v * (256 - ad) / 256 for c, v in w.items()}}
    else:
        w = {0: 256}
        steps = [] if not row or m["row"] == "half" else [(8, 128, "up")]
        for d in m["weights"]:
            if d < dims:
                steps.append((1 << d, a[d], m["ties"][d]))
        for bit, ad, ties in steps:
            new = {}
            for c, v in w.items():
                hi = round_int(Fr(ad * v, 256), ties)
                new[c | bit], new[c] = hi, v - hi
            w = new
    fixed16 = l["u8"] and m["u8"] == "fixed16"
    total = Fr(0)
    for c, v in w.items():
        if v == 0:
            continue
        if row and m["row"] == "split" and not c & 8:
            t = l["border"] * 65535 if fixed16 else l["border"]
        else:
            t = texel(l, [base[d] + ((c >> d) & 1) for d in range(dims)], layer, fixed16)
        total += v * t
    total /= 256
    if row and m["row"] == "half":
        total = total / 2 + l["border"] / 2
    if fixed16:
        return f32(f32(round_int(total, "up")) / f32(65535))
    return to_f32(total, m["final"])


GUIDE = dict(weights="exact", clamp_coord=False, final="even", u8="float", row="half", ties=None)
MEASURED = dict(weights=[2, 0, 1], ties={0: "up", 1: "down", 2: "up"}, clamp_coord=True, final="away",
                u8="fixed16", row="split")
MODELS = [
    ("guide (session 11)", GUIDE),
    ("guide, sum rounded halves away", dict(GUIDE, final="away")),
    ("per-dimension weights split z, y, x, halves up", dict(MEASURED, weights=[2, 1, 0],
                                                              ties={0: "up", 1: "up", 2: "up"})),
    ("measured, y halves up", dict(MEASURED, ties={0: "up", 1: "up", 2: "up"})),
    ("measured, x halves down (as y)", dict(MEASURED, ties={0: "down", 1: "down", 2: "up"})),
    ("measured, clamp without clamping the coordinate", dict(MEASURED, clamp_coord=False)),
    ("measured, sum rounded halves to even", dict(MEASURED, final="even")),
    ("measured, 1-D border as half the border colour", dict(MEASURED, row="half")),
    ("measured, 8-bit texels as v/255 floats", dict(MEASURED, u8="float")),
    ("measured (Texture.java)", MEASURED),
]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "validation/src/test/resources/recordings/textures"
    launches = [l for l in load(root)]
    lin = [l for l in launches if l["linear"]]
    print("| model | " + " | ".join(f"{l['id']}" for l in lin) + " | linear total | point total |")
    print("|---" * (len(lin) + 3) + "|")
    for name, m in MODELS:
        counts = [sum(1 for x, ly, g in l["elems"] if sample(l, x, ly, m).tobytes() != g.tobytes()) for l in lin]
        point = sum(sum(1 for x, ly, g in l["elems"] if sample(l, x, ly, m).tobytes() != g.tobytes())
                    for l in launches if not l["linear"])
        print(f"| {name} | " + " | ".join(map(str, counts)) + f" | {sum(counts)} | {point} |")
    print()
    print("launches: " + ", ".join(
        f"{l['id']} {l['kernel'][6:]} {l['addr']}{' norm' if l['norm'] else ''}{' u8' if l['u8'] else ''}"
        for l in lin))


if __name__ == "__main__":
    main()
