package dev.numlint.ptx.facts;

import dev.numlint.ptx.model.BasicBlock;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Operand;
import dev.numlint.ptx.model.PtxFunction;

/**
 * Value ranges of float operands through max/min/.sat/abs/selp/mov/cvt/add/sub/mul/fma definitions: the range
 * guards of a conversion. Work per query is bounded (depth and number of definitions visited).
 */
public final class ValueRanges {
    private static final double INF = Double.POSITIVE_INFINITY;
    private static final int BUDGET = 256;
    private static final int MAX_DEPTH = 10;

    private final PtxFacts facts;
    private int budget;

    ValueRanges(PtxFacts facts) {
        this.facts = facts;
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
        return branchGuards(at, r.name(), new double[] {lo, hi});
    }

    /** The most dominating blocks a branch guard is looked for in. */
    private static final int MAX_GUARDS = 32;

    /**
     * {@code r} narrowed by the branches every path to instruction {@code at} takes: a block that ends in
     * {@code @%p bra} on {@code setp.lt.f32 %p, %f18, 0f00000000} and whose fall-through (or target) is entered only
     * from it and dominates {@code at} bounds {@code %f18} there ({@code if (r < 0) v = 0; else if (r > 15) v = 15;
     * else v = (T) r;}). Only a register with one definition reaching both the comparison and {@code at} (the same
     * value) is narrowed; a NaN passes such tests, as the source layer's guards take it.
     */
    private double[] branchGuards(int at, String reg, double[] r) {
        PtxFunction fn = facts.function();
        int[] def = facts.defUse().reachingDefs(at, reg);
        if (def.length != 1) {
            return r;
        }
        int target = fn.blockOf(at).index();
        int[] idom = fn.immediateDominators();
        double lo = r[0];
        double hi = r[1];
        int d = target < idom.length ? idom[target] : -1;
        for (int n = 0; d >= 0 && n < MAX_GUARDS; d = idom[d], n++) {
            BasicBlock b = fn.blocks().get(d);
            Instruction br = fn.instruction(b.last());
            if (!br.opcode().equals("bra")
                    || br.guard() == null
                    || b.successors().size() != 2) {
                continue;
            }
            int taken = -1;
            for (Operand o : br.operands()) {
                if (o instanceof Operand.Label l && l.target() >= 0) {
                    taken = fn.blockOf(l.target()).index();
                }
            }
            Boolean holds = null; // whether the guard predicate is true on the way to at
            for (int s : b.successors()) {
                if (fn.blocks().get(s).predecessors().size() == 1 && fn.dominates(s, target)) {
                    holds = (s == taken) != br.guardNegated();
                }
            }
            if (holds == null) {
                continue;
            }
            int[] p = facts.defUse().reachingDefs(b.last(), br.guard().name());
            if (p.length != 1) {
                continue;
            }
            Instruction setp = fn.instruction(p[0]);
            if (!setp.opcode().equals("setp")
                    || setp.operands().size() != 3
                    || setp.compare() == null
                    || !PtxFacts.isAnyFloat(setp.sourceType())) {
                continue;
            }
            for (int k = 1; k <= 2; k++) {
                if (!(setp.operand(k) instanceof Operand.Reg x)
                        || !x.name().equals(reg)
                        || !java.util.Arrays.equals(facts.defUse().reachingDefs(setp.index(), reg), def)) {
                    continue;
                }
                double c = facts.constantValue(setp, setp.operand(3 - k));
                if (Double.isNaN(c)) {
                    continue;
                }
                // the relation with the register on the left: 0 < r is r > 0
                String cmp = setp.compare().replace("u", "");
                if (k == 2) {
                    cmp = switch (cmp) {
                        case "lt" -> "gt";
                        case "le" -> "ge";
                        case "gt" -> "lt";
                        case "ge" -> "le";
                        default -> cmp;
                    };
                }
                boolean below = holds ? cmp.equals("lt") || cmp.equals("le") : cmp.equals("gt") || cmp.equals("ge");
                boolean above = holds ? cmp.equals("gt") || cmp.equals("ge") : cmp.equals("lt") || cmp.equals("le");
                boolean equal = holds ? cmp.equals("eq") : cmp.equals("ne");
                if (below || equal) {
                    hi = Math.min(hi, c);
                }
                if (above || equal) {
                    lo = Math.max(lo, c);
                }
            }
        }
        return lo <= hi ? new double[] {lo, hi} : r;
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
                // float-to-float rounding to an integral value (floor/ceil/trunc) moves by less than 1
                yield d.rounding() != null && d.rounding().isInteger() ? new double[] {a[0] - 1, a[1] + 1} : a;
            }
            default -> new double[] {-INF, INF};
        };
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
