package dev.numlint.validation.replay;

import dev.numlint.validation.fp.Ulp;
import dev.numlint.validation.report.FindingResult;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The element-by-element comparison of a replayed launch's builds: the outputs of each build against the IEEE-strict
 * build and the recorded outputs, by each allocation's element type (the access type of the first pointer parameter
 * into it), in ulps for floating-point elements.
 */
final class BuildComparison {
    private BuildComparison() {}

    /** Elements of a that differ from b bit for bit, and the elements compared, by each allocation's element type. */
    static long[] differing(List<byte[]> a, List<byte[]> b, String[] type) {
        long diff = 0, elems = 0;
        for (int i = 0; i < a.size(); i++) {
            int sz = size(type[i]);
            for (int off = 0; off + sz <= a.get(i).length; off += sz) {
                elems++;
                if (!Arrays.equals(a.get(i), off, off + sz, b.get(i), off, off + sz)) diff++;
            }
        }
        return new long[] {diff, elems};
    }

    /** The comparison of one executor's builds on a recorded launch. */
    static final class Stats {
        long compared, differing, maxUlp;
        double sumUlp;
        final Map<String, Map<String, Long>> histo = new LinkedHashMap<>();
        final Map<String, Long> removes = new LinkedHashMap<>();
        /** Per build: maxAbs, maxRel, differing-from-as-built, relUndefined (against the strict build). */
        final Map<String, double[]> err = new LinkedHashMap<>();
    }

    /**
     * As-built against strict on the allocations the launch changed, each build against strict (errors) and
     * against as-built (ULP histogram of the rule it isolates), and the elements each single switch removes.
     */
    static Stats compare(
            Map<String, List<byte[]>> outs, Recording.RecordedLaunch l, String[] type, List<Replayer.Build> vs) {
        Stats s = new Stats();
        List<byte[]> a = outs.get("as-built"), st = outs.get("strict");
        if (a == null || st == null) return s;
        List<Replayer.Build> present =
                vs.stream().filter(v -> outs.containsKey(v.name())).toList();
        for (Replayer.Build v : present) {
            s.err.put(v.name(), new double[4]);
            if (v.rule() != null) s.removes.put(v.name(), 0L);
        }
        for (int i = 0; i < a.size(); i++) {
            boolean output = !Arrays.equals(a.get(i), l.before.get(i))
                    || !Arrays.equals(st.get(i), l.before.get(i))
                    || l.after != null && !Arrays.equals(l.after.get(i), l.before.get(i));
            if (!output) continue;
            String t = type[i];
            int sz = size(t);
            for (int off = 0; off + sz <= a.get(i).length; off += sz) {
                s.compared++;
                double sv = value(st.get(i), off, t);
                long u = ulp(a.get(i), st.get(i), off, t);
                if (u != 0) {
                    s.differing++;
                    s.maxUlp = Math.max(s.maxUlp, u);
                    if (u != Ulp.NAN_MISMATCH) s.sumUlp += u;
                    for (Map.Entry<String, Long> r : s.removes.entrySet())
                        if (ulp(outs.get(r.getKey()).get(i), st.get(i), off, t) == 0) r.setValue(r.getValue() + 1);
                }
                for (Replayer.Build v : present) {
                    byte[] vb = outs.get(v.name()).get(i);
                    double x = value(vb, off, t);
                    double[] e = s.err.get(v.name());
                    double abs = Double.isNaN(x) && Double.isNaN(sv) ? 0 : Math.abs(x - sv);
                    e[0] = Math.max(e[0], Double.isNaN(abs) ? Double.POSITIVE_INFINITY : abs);
                    if (sv != 0) e[1] = Math.max(e[1], abs / Math.abs(sv));
                    else if (abs != 0) e[3] = 1;
                    long vu = ulp(a.get(i), vb, off, t);
                    if (vu != 0) {
                        e[2]++;
                        if (v.rule() != null)
                            s.histo
                                    .computeIfAbsent(v.name(), z -> new TreeMap<>())
                                    .merge(FindingResult.bucket(vu), 1L, Long::sum);
                    }
                }
            }
        }
        return s;
    }

    static int size(String t) {
        return switch (t) {
            case "f32", "u32", "s32", "b32" -> 4;
            case "f64", "u64", "s64", "b64" -> 8;
            case "f16", "bf16", "u16", "s16", "b16" -> 2;
            case "u8", "s8", "b8" -> 1;
            default -> {
                String d = t.replaceAll("[^0-9]", "");
                int bits = d.isEmpty() ? 8 : Integer.parseInt(d);
                yield Math.max(1, bits / 8);
            }
        };
    }

    // little-endian reads without a buffer object per element: the comparisons run over every element of every
    // recorded allocation for every build (hundreds of millions on a large launch)
    private static int i16(byte[] b, int o) {
        return (b[o] & 0xff) | (b[o + 1] & 0xff) << 8;
    }

    private static int i32(byte[] b, int o) {
        return (b[o] & 0xff) | (b[o + 1] & 0xff) << 8 | (b[o + 2] & 0xff) << 16 | (b[o + 3] & 0xff) << 24;
    }

    private static long i64(byte[] b, int o) {
        return (i32(b, o) & 0xffffffffL) | (long) i32(b, o + 4) << 32;
    }

    private static double value(byte[] b, int off, String t) {
        return switch (t) {
            case "f32" -> Float.intBitsToFloat(i32(b, off));
            case "f64" -> Double.longBitsToDouble(i64(b, off));
            case "f16", "bf16" -> i16(b, off); // compared as bits
            default -> switch (size(t)) {
                case 1 -> t.startsWith("s") ? b[off] : b[off] & 0xff;
                case 2 -> t.startsWith("s") ? (short) i16(b, off) : i16(b, off);
                case 4 -> t.startsWith("s") ? i32(b, off) : i32(b, off) & 0xffffffffL;
                default -> i64(b, off);
            };
        };
    }

    private static long ulp(byte[] x, byte[] y, int off, String t) {
        int sz = size(t);
        if (Arrays.equals(x, off, off + sz, y, off, off + sz)) return 0;
        return switch (t) {
            case "f32" -> Ulp.distance(Float.intBitsToFloat(i32(x, off)), Float.intBitsToFloat(i32(y, off)));
            case "f64" -> Ulp.distance(Double.longBitsToDouble(i64(x, off)), Double.longBitsToDouble(i64(y, off)));
            default -> {
                double d = Math.abs(value(x, off, t) - value(y, off, t));
                yield d == 0 ? 1 : (long) Math.min(d, Long.MAX_VALUE - 1);
            }
        };
    }
}
