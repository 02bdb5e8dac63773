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

    /** Whether the rounding {@code cvt} counts the periods subtracted from the value its operand was computed from. */
    public boolean wraps(Instruction cvt) {
        if (cvt.defs().size() != 1 || !(cvt.operand(1) instanceof Operand.Reg src)) {
            return false;
        }
        Set<String> slice = new HashSet<>();
        slice(cvt, src.name(), SLICE, slice);
        List<Instruction> ins = facts.function().instructions();
        // the count, back in float when it was rounded to an integer
        Set<Integer> counts = new HashSet<>();
        counts.add(cvt.index());
        if (PtxFacts.isInteger(cvt.type())) {
            counts.clear();
            for (int u : facts.defUse().users(cvt.index())) {
                Instruction x = ins.get(u);
                if (x.opcode().equals("cvt") && PtxFacts.isF(x.type())) counts.add(u);
            }
        }
        for (int c : counts) {
            String k = ins.get(c).defs().get(0);
            for (int u : facts.defUse().users(c)) {
                Instruction x = ins.get(u);
                if (subtractsFrom(x, k, slice)) return true;
                // times the period, then subtracted
                if (x.opcode().equals("mul")
                        && PtxFacts.isF(x.type())
                        && x.defs().size() == 1) {
                    String kl = x.defs().get(0);
                    for (int v : facts.defUse().users(u)) {
                        if (subtractsFrom(ins.get(v), kl, slice)) return true;
                    }
                }
                // x - L*k contracted: fma(k, -L, x)
                if (x.opcode().equals("fma") && reg(x, 3) != null && slice.contains(reg(x, 3))) {
                    int other = k.equals(reg(x, 1)) ? 2 : k.equals(reg(x, 2)) ? 1 : 0;
                    if (other != 0 && negative(x, other)) return true;
                }
            }
        }
        return false;
    }

    /** {@code x} is {@code sub a, k} with {@code a} among the registers the rounded value was computed from. */
    private static boolean subtractsFrom(Instruction x, String k, Set<String> slice) {
        return x.opcode().equals("sub")
                && PtxFacts.isF(x.type())
                && k.equals(reg(x, 2))
                && reg(x, 1) != null
                && slice.contains(reg(x, 1));
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
