package dev.numlint.ptx.facts;

import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Operand;
import java.math.BigDecimal;
import java.util.TreeSet;

/**
 * Float registers that hold one of a few exact values: immediates, a {@code selp} between such values (the upwind
 * weight {@code copysign(1.0, u)} compiles to {@code selp.f64 %fd1, 0dBFF0000000000000, 0d3FF0000000000000, %p4}),
 * {@code copysign} of one, copies, negations, widening conversions, and sums, differences and products of such values
 * that round nothing ({@code 0.5*(1.0 + s)} is 0 or 1). A product by a register whose every value is zero or a power
 * of two is exact, so fusing it changes nothing, as the CUDA source layer rules for the same code.
 */
public final class FewValues {
    private static final int MAX_DEPTH = 6;
    private static final int MAX = 8;

    private FewValues() {}

    /** Whether every value operand {@code k} of {@code at} can take is zero or a power of two. */
    public static boolean powerOfTwo(PtxFacts facts, Instruction at, int k) {
        TreeSet<Double> s = of(facts, at, at.operand(k), 0);
        if (s == null) return false;
        for (double d : s) if (!PtxFacts.exactScale(d)) return false;
        return true;
    }

    private static TreeSet<Double> of(PtxFacts facts, Instruction at, Operand o, int depth) {
        if (o instanceof Operand.FloatImm f) return one(f.value());
        if (!(o instanceof Operand.Reg r) || r.component() != null || depth > MAX_DEPTH) return null;
        int[] defs = facts.defUse().reachingDefs(at.index(), r.name());
        if (defs.length == 0) return null;
        TreeSet<Double> out = new TreeSet<>();
        for (int d : defs) {
            TreeSet<Double> v = ofDef(facts, facts.function().instruction(d), depth + 1);
            if (v == null) return null;
            out.addAll(v);
            if (out.size() > MAX) return null;
        }
        return out;
    }

    private static TreeSet<Double> ofDef(PtxFacts facts, Instruction d, int depth) {
        if (!PtxFacts.isF(d.type())) return null;
        switch (d.opcode()) {
            case "mov", "neg", "copysign" -> {
                TreeSet<Double> v = of(facts, d, d.operand(d.opcode().equals("copysign") ? 2 : 1), depth);
                if (v == null || d.opcode().equals("mov")) return v;
                TreeSet<Double> out = new TreeSet<>();
                for (double x : v) {
                    if (d.opcode().equals("neg")) out.add(-x);
                    else {
                        out.add(Math.abs(x));
                        out.add(-Math.abs(x));
                    }
                }
                return out;
            }
            case "selp" -> {
                TreeSet<Double> a = of(facts, d, d.operand(1), depth);
                TreeSet<Double> b = a == null ? null : of(facts, d, d.operand(2), depth);
                if (b == null) return null;
                TreeSet<Double> out = new TreeSet<>(a);
                out.addAll(b);
                return out.size() > MAX ? null : out;
            }
            case "cvt" -> {
                // a widening of a float to double keeps every value
                String from = d.sourceType();
                if (from == null || !from.equals("f32") || !d.type().equals("f64")) return null;
                return of(facts, d, d.operand(1), depth);
            }
            case "add", "sub", "mul" -> {
                if (d.rounding() != null && d.rounding() != Instruction.Rounding.RN) return null;
                TreeSet<Double> a = of(facts, d, d.operand(1), depth);
                TreeSet<Double> b = a == null ? null : of(facts, d, d.operand(2), depth);
                if (b == null) return null;
                boolean f32 = !d.type().endsWith("64");
                TreeSet<Double> out = new TreeSet<>();
                for (double x : a) {
                    for (double y : b) {
                        BigDecimal p = new BigDecimal(x);
                        BigDecimal q = new BigDecimal(y);
                        BigDecimal e =
                                switch (d.opcode()) {
                                    case "add" -> p.add(q);
                                    case "sub" -> p.subtract(q);
                                    default -> p.multiply(q);
                                };
                        double r = e.doubleValue();
                        if (!Double.isFinite(r) || new BigDecimal(r).compareTo(e) != 0) return null;
                        if (f32 && (double) (float) r != r) return null;
                        out.add(r == 0 ? 0.0 : r);
                        if (out.size() > MAX) return null;
                    }
                }
                return out;
            }
            default -> {
                return null;
            }
        }
    }

    private static TreeSet<Double> one(double v) {
        if (!Double.isFinite(v)) return null;
        TreeSet<Double> s = new TreeSet<>();
        s.add(v);
        return s;
    }
}
