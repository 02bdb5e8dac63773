package dev.numlint.ptx.facts;

import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Loop;
import dev.numlint.ptx.model.Operand;

/**
 * Float registers that hold whole numbers of bounded magnitude: whole immediates, copies, sums and products of them,
 * and float loop counters that start at a whole number and step by one over a known trip count
 * ({@code for (float i = -R; i <= R; i++)}: {@code mov.f32 %f9, 0fC0400000}, {@code add.f32 %f17, %f17, 0f3F800000},
 * {@code setp.le.f32 %p2, %f17, 0f40400000}). A product of two such values below 2^24 (float) or 2^53 (double) is
 * exact, so fusing it changes nothing, as the CUDA source layer rules for the same code.
 */
public final class WholeNumbers {
    private static final int MAX_DEPTH = 6;

    private WholeNumbers() {}

    /** The largest whole number the float type {@code t} computes with exactly. */
    public static double limit(String t) {
        return t != null && t.endsWith("64") ? 0x1p53 : 0x1p24;
    }

    /** A bound on the magnitude of operand {@code k} of {@code at} when it is a whole number; null otherwise. */
    public static Double bound(PtxFacts facts, Instruction at, int k) {
        return bound(facts, at, at.operand(k), 0);
    }

    private static Double bound(PtxFacts facts, Instruction at, Operand o, int depth) {
        if (o instanceof Operand.FloatImm f) return whole(f.value());
        if (o instanceof Operand.IntImm i) return (double) Math.abs(i.value());
        if (!(o instanceof Operand.Reg r) || r.component() != null || depth > MAX_DEPTH) return null;
        int[] defs = facts.defUse().reachingDefs(at.index(), r.name());
        if (defs.length == 0) return null;
        double out = 0;
        for (int d : defs) {
            Double b = ofDef(facts, facts.function().instruction(d), r.name(), depth + 1);
            if (b == null) return null;
            out = Math.max(out, b);
        }
        return out;
    }

    private static Double ofDef(PtxFacts facts, Instruction d, String reg, int depth) {
        if (!PtxFacts.isF(d.type()) && !d.opcode().equals("mov")) return null;
        switch (d.opcode()) {
            case "mov" -> {
                return bound(facts, d, d.operand(1), depth);
            }
            case "add", "sub" -> {
                if (d.rounding() != null && d.rounding() != Instruction.Rounding.RN) return null;
                if (d.operand(1) instanceof Operand.Reg s && s.name().equals(reg)) return counter(facts, d, reg, depth);
                Double a = bound(facts, d, d.operand(1), depth);
                Double b = bound(facts, d, d.operand(2), depth);
                return a == null || b == null || a + b > limit(d.type()) ? null : a + b;
            }
            case "mul" -> {
                if (d.rounding() != null && d.rounding() != Instruction.Rounding.RN) return null;
                Double a = bound(facts, d, d.operand(1), depth);
                Double b = bound(facts, d, d.operand(2), depth);
                return a == null || b == null || a * b > limit(d.type()) ? null : a * b;
            }
            case "cvt" -> {
                // an integer converted to the float type: whole, bounded by its source type (cvt.rn.f64.s16 of a
                // gradient: |x| <= 2^15; session 58 round F, a Canny edge detector's sqrt(gx*gx + gy*gy) in double)
                return integerBound(d.sourceType(), d.type());
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * {@code step} is a counter's step ({@code add.f32 %f17, %f17, 1.0}): the counter of a loop with a known trip
     * count, started from whole numbers outside the loop and changed only by this step, stays within
     * |start| + trip * |step|.
     */
    private static Double counter(PtxFacts facts, Instruction step, String reg, int depth) {
        Double s = bound(facts, step, step.operand(2), depth);
        if (s == null) return null;
        for (Loop l : facts.function().loops()) {
            if (!reg.equals(l.inductionReg()) || !l.tripCountKnown() || !l.contains(step.block())) continue;
            double start = 0;
            for (int d : facts.defUse().allDefs(reg)) {
                Instruction di = facts.function().instruction(d);
                if (l.contains(di.block())) {
                    if (di != step) return null; // changed otherwise inside the loop
                    continue;
                }
                Double b = ofDef(facts, di, reg, depth + 1);
                if (b == null) return null;
                start = Math.max(start, b);
            }
            double m = start + (double) l.tripCount() * s;
            return m <= limit(step.type()) ? m : null;
        }
        return null;
    }

    /**
     * The largest magnitude of an integer of type {@code src} ({@code s16}, {@code u8}, ...) that the float type
     * {@code dst} holds exactly; null for another source or one the type does not hold exactly.
     */
    static Double integerBound(String src, String dst) {
        if (src == null || src.length() < 2 || "su".indexOf(src.charAt(0)) < 0) return null;
        int bits;
        try {
            bits = Integer.parseInt(src.substring(1));
        } catch (NumberFormatException e) {
            return null;
        }
        double m = src.charAt(0) == 's' ? Math.pow(2, bits - 1) : Math.pow(2, bits) - 1;
        return m <= limit(dst) ? m : null;
    }

    private static Double whole(double v) {
        return !Double.isNaN(v) && !Double.isInfinite(v) && v == Math.rint(v) ? Math.abs(v) : null;
    }
}
