package dev.numlint.ptx.facts;

import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Operand;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The periodic-wrap fact of the PTX layer (the Clang front end's {@code ClangPeriodicWraps}): a round to an integral
 * value ({@code cvt.rmi.f32.f32}, {@code cvt.rni.s32.f32} then back to float) whose count of periods, alone or times a
 * period, is subtracted from the value it was computed from ({@code sub.f32 %r, %x, %k}, or the contracted
 * {@code fma.rn.f32 %r, %k, %negL, %x}): the minimum image {@code f.x -= floorf(0.5f + f.x)} or a wrap into one
 * period. Where one ulp moves the count, the result moves by one period to an equivalent image: continuous modulo the
 * period. The wrapped value is followed on as any value is.
 */
public final class PeriodicWraps {
    /** How many definitions back the rounded operand is searched for the wrapped value. */
    private static final int SLICE = 6;

    private final PtxFacts facts;

    public PeriodicWraps(PtxFacts facts) {
        this.facts = facts;
    }

    /**
     * Whether the rounding {@code cvt} counts the periods subtracted from the value its operand was computed from:
     * every use of the count, alone or times a factor and summed with other such terms (a triclinic lattice vector),
     * ends subtracted from a register the count's operand (or that of another rounding of the same sum) was computed
     * from.
     */
    public boolean wraps(Instruction cvt) {
        if (cvt.defs().size() != 1 || !(cvt.operand(1) instanceof Operand.Reg)) {
            return false;
        }
        List<Instruction> ins = facts.function().instructions();
        // the count, back in float when it was rounded to an integer
        List<Integer> counts = new java.util.ArrayList<>();
        if (PtxFacts.isInteger(cvt.type())) {
            for (int u : facts.defUse().users(cvt.index())) {
                Instruction x = ins.get(u);
                if (!x.opcode().equals("cvt") || !PtxFacts.isF(x.type())) return false;
                counts.add(u);
            }
        } else {
            counts.add(cvt.index());
        }
        boolean any = false;
        for (int c : counts) {
            Instruction ci = ins.get(c);
            if (ci.defs().size() != 1) return false;
            for (int u : facts.defUse().users(c)) {
                Boolean r = chain(ins.get(u), ci.defs().get(0), 0);
                if (r == null) return false;
                any |= r;
            }
        }
        return any;
    }

    /**
     * The use {@code x} of {@code reg} (the count, or a sum of counts times factors): true when it ends as the
     * subtrahend of a wrap, false when it ends in a term that is no wrap's (nothing subtracted), null when it goes
     * anywhere else (a store, a conversion, a comparison: the count decides something).
     */
    private Boolean chain(Instruction x, String reg, int depth) {
        if (depth > 8 || !PtxFacts.isF(x.type()) || x.defs().size() != 1) return null;
        String op = x.opcode();
        if (op.equals("sub") && reg.equals(reg(x, 2)) && reg(x, 1) != null) {
            return minuendOfRounding(x, reg(x, 1)) ? Boolean.TRUE : null;
        }
        if (op.equals("fma") && (reg.equals(reg(x, 1)) || reg.equals(reg(x, 2))) && reg(x, 3) != null) {
            // x - L*k contracted: fma(k, -L, x)
            int other = reg.equals(reg(x, 1)) ? 2 : 1;
            if (negative(x, other) && minuendOfRounding(x, reg(x, 3))) return Boolean.TRUE;
        }
        boolean passes = op.equals("mul") || op.equals("add") || op.equals("fma") || op.equals("mov");
        if (!passes) return null;
        boolean any = false;
        List<Instruction> ins = facts.function().instructions();
        for (int u : facts.defUse().users(x.index())) {
            Boolean r = chain(ins.get(u), x.defs().get(0), depth + 1);
            if (r == null) return null;
            any |= r;
        }
        return any;
    }

    /**
     * Whether {@code minuend}, read at {@code at}, is among the registers that a rounding feeding {@code at}'s
     * subtrahend was computed from: the count's own value, or a component of the vector a lattice sum wraps.
     */
    private boolean minuendOfRounding(Instruction at, String minuend) {
        Set<String> out = new HashSet<>();
        for (Instruction r : roundingsFeeding(at, 0, new HashSet<>())) {
            if (r.operand(1) instanceof Operand.Reg src) slice(r, src.name(), SLICE, out);
            if (out.contains(minuend)) return true;
        }
        return false;
    }

    /** The float roundings to an integral value ({@code cvt.rmi} ...) whose results feed {@code x}, a few steps back. */
    private List<Instruction> roundingsFeeding(Instruction x, int depth, Set<Integer> seen) {
        List<Instruction> out = new java.util.ArrayList<>();
        if (depth > 8 || !seen.add(x.index())) return out;
        for (int k = 1; k <= 3; k++) {
            Instruction d = facts.defOf(x, k);
            if (d == null) continue;
            if (d.opcode().equals("cvt") && d.rounding() != null && d.rounding().isInteger()) {
                out.add(d);
            } else if (d.opcode().equals("cvt") && PtxFacts.isF(d.type()) && PtxFacts.isInteger(d.sourceType())) {
                Instruction i = facts.defOf(d, 1);
                if (i != null && i.opcode().equals("cvt")) out.add(i);
            } else if (d.opcode().equals("mul")
                    || d.opcode().equals("fma")
                    || d.opcode().equals("add")
                    || d.opcode().equals("mov")) {
                out.addAll(roundingsFeeding(d, depth + 1, seen));
            }
        }
        return out;
    }

    /** Operand {@code k} of {@code x} is negative: a negation, or a negative constant. */
    private boolean negative(Instruction x, int k) {
        double v = facts.constantValue(x, x.operand(k));
        if (!Double.isNaN(v)) return v < 0;
        Instruction d = facts.defOf(x, k);
        return d != null && d.opcode().equals("neg");
    }

    private static String reg(Instruction x, int k) {
        return x.operand(k) instanceof Operand.Reg r ? r.name() : null;
    }

    /** The registers {@code reg} (read at {@code at}) is computed from, through float arithmetic, a few steps back. */
    private void slice(Instruction at, String reg, int depth, Set<String> out) {
        if (!out.add(reg) || depth == 0) return;
        int d = facts.defUse().uniqueDef(at.index(), reg);
        if (d < 0) return;
        Instruction x = facts.function().instruction(d);
        switch (x.opcode()) {
            case "add", "sub", "mul", "fma", "mov", "neg", "cvt" -> {
                for (int k = 1; k <= 3; k++) {
                    if (x.operand(k) instanceof Operand.Reg r) slice(x, r.name(), depth - 1, out);
                }
            }
            default -> {
                // the value itself, or a load: the slice ends
            }
        }
    }
}
