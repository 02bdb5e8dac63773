package dev.numlint.ptx.facts;

import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Operand;

/**
 * Value ranges of float operands through max/min/.sat/abs/selp/mov/cvt/add/sub/mul/fma definitions, narrowed by the
 * branches that reach the operand ({@link BranchGuards}): the range guards of a conversion. Work per query is
 * bounded (depth and number of definitions visited).
 */
public final class ValueRanges {
    private static final double INF = Double.POSITIVE_INFINITY;
    private static final int BUDGET = 256;
    private static final int MAX_DEPTH = 10;

    private final PtxFacts facts;
    private final BranchGuards guards;
    private int budget;

    ValueRanges(PtxFacts facts) {
        this.facts = facts;
        this.guards = new BranchGuards(facts);
    }

    /** {lo, hi} of operand {@code o} as read by instruction {@code at}; unbounded sides are infinite. */
    public synchronized double[] range(Instruction at, Operand o) {
        budget = BUDGET;
        return range(at.index(), o, 0);
    }

    private double[] range(int at, Operand o, int depth) {
        if (o instanceof Operand.FloatImm f) {
            return new double[] {f.value(), f.value()};
        }
        if (o instanceof Operand.IntImm i) {
            return new double[] {i.value(), i.value()};
        }
        if (!(o instanceof Operand.Reg r) || depth > MAX_DEPTH || --budget < 0) {
            return new double[] {-INF, INF};
        }
        int[] defs = facts.defUse().reachingDefs(at, r.name());
        if (defs.length == 0) {
            return new double[] {-INF, INF};
        }
        double lo = INF;
        double hi = -INF;
        for (int d : defs) {
            double[] x = rangeOfDef(facts.function().instruction(d), depth + 1);
            lo = Math.min(lo, x[0]);
            hi = Math.max(hi, x[1]);
        }
        return guards.narrow(at, r.name(), new double[] {lo, hi});
    }

    private double[] rangeOfDef(Instruction d, int depth) {
        double[] full = {-INF, INF};
        double[] out;
        switch (d.opcode()) {
            case "max" -> {
                double[] a = range(d.index(), d.operand(1), depth);
                double[] b = range(d.index(), d.operand(2), depth);
                out = new double[] {Math.max(a[0], b[0]), Math.max(a[1], b[1])};
            }
            case "min" -> {
                double[] a = range(d.index(), d.operand(1), depth);
                double[] b = range(d.index(), d.operand(2), depth);
                out = new double[] {Math.min(a[0], b[0]), Math.min(a[1], b[1])};
            }
            case "mov" -> out = range(d.index(), d.operand(1), depth);
            case "mul" -> out = scale(range(d.index(), d.operand(1), depth), range(d.index(), d.operand(2), depth));
            case "div" -> out = quotient(range(d.index(), d.operand(1), depth), range(d.index(), d.operand(2), depth));
            case "add", "sub" -> {
                double[] a = range(d.index(), d.operand(1), depth);
                double[] b = range(d.index(), d.operand(2), depth);
                out = d.opcode().equals("add")
                        ? new double[] {a[0] + b[0], a[1] + b[1]}
                        : new double[] {a[0] - b[1], a[1] - b[0]};
                if (Double.isNaN(out[0]) || Double.isNaN(out[1])) {
                    out = full;
                }
            }
            case "fma", "mad" -> {
                double[] p = scale(range(d.index(), d.operand(1), depth), range(d.index(), d.operand(2), depth));
                double[] c = range(d.index(), d.operand(3), depth);
                out = new double[] {p[0] + c[0], p[1] + c[1]};
                if (Double.isNaN(out[0]) || Double.isNaN(out[1])) {
                    out = full;
                }
            }
            case "selp" -> {
                double[] a = range(d.index(), d.operand(1), depth);
                double[] b = range(d.index(), d.operand(2), depth);
                out = new double[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])};
            }
            case "abs" -> {
                double[] a = range(d.index(), d.operand(1), depth);
                out = new double[] {0, Math.max(Math.abs(a[0]), Math.abs(a[1]))};
            }
            case "copysign" -> {
                // copysign d, a, b: b's magnitude with a's sign (roundf's expansion: x + copysign(0.5, x))
                double[] a = range(d.index(), d.operand(1), depth);
                double[] b = range(d.index(), d.operand(2), depth);
                double m = Math.max(Math.abs(b[0]), Math.abs(b[1]));
                double n = b[0] > 0 || b[1] < 0 ? Math.min(Math.abs(b[0]), Math.abs(b[1])) : 0;
                out = a[0] >= 0 ? new double[] {n, m} : a[1] < 0 ? new double[] {-m, -n} : new double[] {-m, m};
            }
            case "cvt" -> out = rangeOfCvt(d, depth);
            default -> out = full;
        }
        if (d.sat() && d.isFloat()) {
            out = new double[] {Math.max(0, out[0]), Math.min(1, out[1])};
        }
        return out;
    }

    private double[] rangeOfCvt(Instruction d, int depth) {
        String s = d.sourceType();
        return switch (s == null ? "" : s) {
            case "u8" -> new double[] {0, 255};
            case "u16" -> new double[] {0, 65535};
            case "s8" -> new double[] {-128, 127};
            case "s16" -> new double[] {-32768, 32767};
            case "u32" -> new double[] {0, 4294967295.0};
            case "u64" -> new double[] {0, 1.8446744073709552E19};
            case "s32" -> new double[] {-2147483648.0, 2147483647.0};
            case "s64" -> new double[] {-9.223372036854776E18, 9.223372036854776E18};
            case "f32", "f64" -> {
                double[] a = range(d.index(), d.operand(1), depth);
                // float-to-float rounding to an integral value (floor/ceil/trunc/rint) is monotonic: the rounded
                // bounds bound it (floor of a value >= 0 is >= 0)
                yield d.rounding() != null && d.rounding().isInteger()
                        ? new double[] {integral(d.rounding(), a[0]), integral(d.rounding(), a[1])}
                        : a;
            }
            default -> new double[] {-INF, INF};
        };
    }

    /** {@code v} rounded to an integral value as {@code r} rounds (infinite bounds stay). */
    private static double integral(Instruction.Rounding r, double v) {
        return switch (r) {
            case RMI -> Math.floor(v);
            case RPI -> Math.ceil(v);
            case RNI -> Math.rint(v);
            default -> v < 0 ? Math.ceil(v) : Math.floor(v);
        };
    }

    /**
     * Interval quotient where the divisor's range is positive ({@code b[0] > 0}), or a non-negative dividend over a
     * non-negative divisor ([0, inf]: a quotient of counts); unbounded otherwise.
     */
    private static double[] quotient(double[] a, double[] b) {
        if (b[0] > 0) {
            double[] q = {a[0] / b[0], a[0] / b[1], a[1] / b[0], a[1] / b[1]};
            double lo = INF;
            double hi = -INF;
            for (double x : q) {
                if (Double.isNaN(x)) return new double[] {-INF, INF};
                lo = Math.min(lo, x);
                hi = Math.max(hi, x);
            }
            return new double[] {lo, hi};
        }
        if (a[0] >= 0 && b[0] >= 0) {
            return new double[] {0, INF};
        }
        return new double[] {-INF, INF};
    }

    /** Interval product; unbounded when either side is unbounded. */
    private static double[] scale(double[] a, double[] b) {
        if (Double.isInfinite(a[0]) || Double.isInfinite(a[1]) || Double.isInfinite(b[0]) || Double.isInfinite(b[1])) {
            return new double[] {-INF, INF};
        }
        double p1 = a[0] * b[0];
        double p2 = a[0] * b[1];
        double p3 = a[1] * b[0];
        double p4 = a[1] * b[1];
        return new double[] {Math.min(Math.min(p1, p2), Math.min(p3, p4)), Math.max(Math.max(p1, p2), Math.max(p3, p4))
        };
    }
}
