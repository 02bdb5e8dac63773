package dev.numlint.ptx.facts;

import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Operand;
import java.util.List;

/**
 * Comparisons that only clamp a value to the bound they compare it with ({@link #clamps}): where such a test flips,
 * the value equals the bound, so both sides leave the same result and the comparison is continuous in the value
 * ({@link Consequences}: "clamped to the bound it is compared with").
 */
final class Clamps {
    private final PtxFacts facts;

    Clamps(PtxFacts facts) {
        this.facts = facts;
    }

    /**
     * Whether the comparison {@code x} of the value (a register of {@code defs}) with a bound only clamps the value to
     * that bound: every use of its predicate selects between the two compared operands ({@code selp}: a min or max
     * written as a test), or skips a block that only stores the bound where the value was stored ({@code
     * st [a], v; setp p, v, hi; @p bra L; st [a], hi; L:}, nvcc's form of {@code out[i] = v; if (out[i] > hi) out[i] =
     * hi;}). Where the test flips, the value equals the bound, so both sides leave the same result: continuous.
     */
    boolean clamps(Instruction x, List<String> defs) {
        if (!x.opcode().equals("setp") || x.operands().size() < 3 || !PtxFacts.isF(x.type())) {
            return false;
        }
        Operand a = x.operand(1);
        Operand b = x.operand(2);
        Operand bound = reg(a, defs) ? b : reg(b, defs) ? a : null;
        Operand value = bound == a ? b : a;
        if (bound == null || x.defs().isEmpty()) {
            return false;
        }
        List<Instruction> ins = facts.function().instructions();
        int[] users = facts.defUse().users(x.index());
        if (users.length == 0) {
            return false;
        }
        for (int u : users) {
            Instruction y = ins.get(u);
            if (y.opcode().equals("selp") && y.operands().size() == 4) {
                Operand p = y.operand(1);
                Operand q = y.operand(2);
                if (!(p.equals(a) && q.equals(b) || p.equals(b) && q.equals(a))) {
                    return false;
                }
            } else if (!y.opcode().equals("bra") || !storesBoundOnly(y, value, bound)) {
                return false;
            }
        }
        return true;
    }

    /** {@code bra} skips, when it is not taken, a block that only stores {@code bound} where {@code value} was stored. */
    private boolean storesBoundOnly(Instruction bra, Operand value, Operand bound) {
        if (bra.guard() == null || bra.operands().isEmpty() || !(bra.operand(0) instanceof Operand.Label label)) {
            return false;
        }
        List<Instruction> ins = facts.function().instructions();
        int target = facts.function().labelTarget(label.name());
        int from = bra.index() + 1;
        if (target <= from || target - from > 2) {
            return false;
        }
        for (int i = from; i < target; i++) {
            Instruction st = ins.get(i);
            if (!st.opcode().equals("st")
                    || st.guard() != null
                    || st.operands().size() != 2
                    || !st.operand(1).equals(bound)) {
                return false;
            }
            String where = address(st, st.operand(0));
            boolean stored = false;
            for (int k = bra.index() - 1; k >= 0 && !stored && where != null; k--) {
                Instruction w = ins.get(k);
                stored = w.opcode().equals("st")
                        && w.operands().size() == 2
                        && w.operand(1).equals(value)
                        && where.equals(address(w, w.operand(0)));
            }
            if (!stored) {
                return false;
            }
        }
        return true;
    }

    /**
     * The address {@code a} of the access {@code in} as a base register and a byte offset, with the base followed
     * through additions of a constant ({@code add.s64 %rd1, %rd9, 4} makes {@code [%rd1]} the same as {@code
     * [%rd9+4]}), or null where it is not a register plus a constant.
     */
    private String address(Instruction in, Operand a) {
        if (!(a instanceof Operand.Address addr)
                || !addr.extra().isEmpty()
                || !(addr.base() instanceof Operand.Reg base)) {
            return null;
        }
        long offset = addr.offset();
        String reg = base.name();
        int at = in.index();
        for (int step = 0; step < 4; step++) {
            int d = facts.defUse().uniqueDef(at, reg);
            if (d < 0) break;
            Instruction def = facts.function().instruction(d);
            if (!def.opcode().equals("add")
                    || def.operands().size() != 3
                    || !(def.operand(1) instanceof Operand.Reg r)
                    || !(def.operand(2) instanceof Operand.IntImm imm)) break;
            offset += imm.value();
            reg = r.name();
            at = d;
        }
        return reg + "@" + facts.defUse().uniqueDef(at, reg) + "+" + offset;
    }

    private static boolean reg(Operand o, List<String> defs) {
        return o instanceof Operand.Reg r && defs.contains(r.name());
    }
}
