package dev.numlint.ptx.facts;

import dev.numlint.ptx.model.Instruction;

/**
 * Fixed-point encodings in PTX: a {@code cvt} to a 64-bit integer of a product one of whose factors (through further
 * products) is a constant of magnitude 2^24 or more. Molecular dynamics accumulates forces as {@code llrintf(f * 2^40)} into 64-bit integers so that atomic
 * sums are exact and reproducible (nvcc folds the scale: {@code mul.f32 %f1, %f5, 0f53800000; cvt.rni.s64.f32 %rd1,
 * %f1}). One unit of the result is at most 2^-24 of the value's scale, at or below its float resolution: a one-ulp
 * difference moves the integer by as many units as it moves the value, never across a step of a coarse quantisation
 * (a bin, a pixel, a count), so the conversion magnifies nothing ({@link Consequences}: a bounded end of the value's
 * path, as a colour channel is). Stateless.
 */
final class FixedPoints {
    /** The least scale of a fixed-point encoding: float's significand, 2^24. */
    static final double LEAST_SCALE = 16777216.0;

    private FixedPoints() {}

    /** Whether {@code cvt} encodes its operand in fixed point (above). */
    static boolean encodes(PtxFacts facts, Instruction cvt) {
        if (!PtxFacts.isF(cvt.sourceType()) || cvt.type() == null || !cvt.type().endsWith("64")) {
            return false;
        }
        return scaled(facts, facts.defOf(cvt, 1), 0);
    }

    /**
     * Whether {@code d} is a product one of whose factors, through further products (at most four deep), is a constant
     * of magnitude {@link #LEAST_SCALE} or more: {@code fij *= FORCE_SCALE; fx = lliroundf(fij * dx);}.
     */
    private static boolean scaled(PtxFacts facts, Instruction d, int depth) {
        if (d == null || depth > 4 || !d.opcode().equals("mul") || !PtxFacts.isF(d.type())) {
            return false;
        }
        for (int k = 1; k <= 2; k++) {
            double v = facts.constantValue(d, d.operand(k));
            if (!Double.isNaN(v) && Math.abs(v) >= LEAST_SCALE) {
                return true;
            }
            if (scaled(facts, facts.defOf(d, k), depth + 1)) {
                return true;
            }
        }
        return false;
    }
}
