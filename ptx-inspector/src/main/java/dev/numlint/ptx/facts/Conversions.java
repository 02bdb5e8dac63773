package dev.numlint.ptx.facts;

import dev.numlint.ptx.model.Instruction;

/**
 * What a {@code cvt} does to a bound {lo, hi}: {@link #forward} bounds the result from a bound on the operand,
 * {@link #inverse} bounds the operand from a bound on the result. Every conversion between integers and floats is
 * monotone, which is all either direction uses; a side it cannot bound is infinite, a bound it cannot map at all is
 * null. A NaN operand (0 after a float-to-integer cvt) is left out, as the branch guards leave it out.
 */
final class Conversions {
    private static final double INF = Double.POSITIVE_INFINITY;

    private Conversions() {}

    /** The result's bound from a bound on the operand, or null. */
    static double[] forward(Instruction cvt, double[] x) {
        String dst = cvt.type();
        String src = cvt.sourceType();
        if (x == null || dst == null || src == null) {
            return null;
        }
        boolean toFloat = PtxFacts.isAnyFloat(dst);
        boolean fromFloat = PtxFacts.isAnyFloat(src);
        if (!toFloat && !fromFloat) {
            double[] s = intersect(x, integerRange(src));
            double[] d = integerRange(dst);
            return s != null && d != null && s[0] >= d[0] && s[1] <= d[1] ? s : d;
        }
        if (!toFloat) {
            // rounded to an integer, then saturated to the type
            double[] d = integerRange(dst);
            if (d == null) {
                return null;
            }
            double lo = Math.max(d[0], round(cvt.rounding(), x[0], true));
            double hi = Math.min(d[1], round(cvt.rounding(), x[1], false));
            return lo <= hi ? new double[] {lo, hi} : d;
        }
        double[] s = fromFloat ? x : intersect(x, integerRange(src));
        if (s == null) {
            return null;
        }
        double[] out;
        if (fromFloat && cvt.rounding() != null && cvt.rounding().isInteger()) {
            out = new double[] {Math.floor(s[0]), Math.ceil(s[1])};
        } else {
            out = switch (dst) {
                case "f64" -> s;
                case "f32" -> new double[] {floatAtMost(s[0]), floatAtLeast(s[1])};
                default -> new double[] {-INF, INF};
            };
        }
        return cvt.sat() ? new double[] {Math.max(0, out[0]), Math.min(1, out[1])} : out;
    }

    /** The operand's bound from a bound on the result, or null. */
    static double[] inverse(Instruction cvt, double[] x) {
        String dst = cvt.type();
        String src = cvt.sourceType();
        if (x == null || dst == null || src == null) {
            return null;
        }
        boolean toFloat = PtxFacts.isAnyFloat(dst);
        boolean fromFloat = PtxFacts.isAnyFloat(src);
        if (!toFloat && !fromFloat) {
            // a widening of the same signedness keeps the value; a narrowing or a change of sign does not
            double[] s = integerRange(src);
            double[] d = integerRange(dst);
            return s != null && d != null && src.charAt(0) == dst.charAt(0) && d[0] <= s[0] && d[1] >= s[1]
                    ? intersect(x, s)
                    : null;
        }
        if (toFloat && !fromFloat) {
            // an integer converts exactly up to the float's precision: cvt(i) >= lo holds exactly for i >= ceil(lo)
            // while ceil(lo) - 1 converts exactly
            double limit =
                    switch (dst) {
                        case "f64" -> 0x1p53;
                        case "f32" -> 0x1p24;
                        default -> 0;
                    };
            double lo = Math.ceil(x[0]);
            double hi = Math.floor(x[1]);
            return new double[] {Math.abs(lo - 1) <= limit ? lo : -INF, Math.abs(hi + 1) <= limit ? hi : INF};
        }
        if (!toFloat) {
            // an integer result bounded inside its type: the operand rounded to it (a saturated side says nothing)
            double[] d = integerRange(dst);
            if (d == null) {
                return null;
            }
            double lo = Math.ceil(x[0]);
            double hi = Math.floor(x[1]);
            Instruction.Rounding r = cvt.rounding();
            double below = lo <= d[0]
                    ? -INF
                    : r == Instruction.Rounding.RMI || r == Instruction.Rounding.RZI && lo >= 1
                            ? lo
                            : r == Instruction.Rounding.RNI ? lo - 0.5 : Math.nextUp(lo - 1);
            double above = hi >= d[1]
                    ? INF
                    : r == Instruction.Rounding.RPI || r == Instruction.Rounding.RZI && hi <= -1
                            ? hi
                            : r == Instruction.Rounding.RNI ? hi + 0.5 : Math.nextDown(hi + 1);
            return new double[] {below, above};
        }
        if (cvt.sat()) {
            return new double[] {-INF, INF}; // clamped to [0, 1]: a result at either end says nothing of the operand
        }
        if (cvt.rounding() != null && cvt.rounding().isInteger()) {
            return new double[] {x[0] - 1, x[1] + 1}; // a rounding to an integral value moves by less than 1
        }
        return switch (dst) {
            case "f64" -> src.equals("f32") ? x : new double[] {-INF, INF};
                // rounded to a float at least lo: the operand is above the float before the least float >= lo
            case "f32" -> new double[] {
                Math.nextDown((float) floatAtLeast(x[0])), Math.nextUp((float) floatAtMost(x[1]))
            };
            default -> new double[] {-INF, INF};
        };
    }

    /** The integer a rounding gives, or (no rounding stated) the bound that holds whichever it is. */
    private static double round(Instruction.Rounding r, double v, boolean lower) {
        if (Double.isInfinite(v) || Double.isNaN(v)) {
            return lower ? -INF : INF;
        }
        if (r == null) {
            return lower ? Math.floor(v) : Math.ceil(v);
        }
        return switch (r) {
            case RZI -> v < 0 ? Math.ceil(v) : Math.floor(v);
            case RMI -> Math.floor(v);
            case RPI -> Math.ceil(v);
            case RNI -> Math.rint(v);
            default -> lower ? Math.floor(v) : Math.ceil(v);
        };
    }

    /** The greatest float not above {@code v}. */
    private static double floatAtMost(double v) {
        float f = (float) v;
        return f > v ? Math.nextDown(f) : f;
    }

    /** The least float not below {@code v}. */
    private static double floatAtLeast(double v) {
        float f = (float) v;
        return f < v ? Math.nextUp(f) : f;
    }

    /** The values of an integer type, or null for any other type. */
    static double[] integerRange(String t) {
        return switch (t) {
            case "u8" -> new double[] {0, 255};
            case "u16" -> new double[] {0, 65535};
            case "u32" -> new double[] {0, 4294967295.0};
            case "u64" -> new double[] {0, 1.8446744073709552E19};
            case "s8" -> new double[] {-128, 127};
            case "s16" -> new double[] {-32768, 32767};
            case "s32" -> new double[] {-2147483648.0, 2147483647.0};
            case "s64" -> new double[] {-9.223372036854776E18, 9.223372036854776E18};
            default -> null;
        };
    }

    private static double[] intersect(double[] x, double[] range) {
        if (range == null) {
            return null;
        }
        double lo = Math.max(x[0], range[0]);
        double hi = Math.min(x[1], range[1]);
        return lo <= hi ? new double[] {lo, hi} : range;
    }
}
