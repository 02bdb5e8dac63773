package dev.numlint.ptx.facts;

import dev.numlint.ptx.model.Instruction;

/**
 * Where a float value comes from: whether it is computed from integers and constants only (a count converted to
 * double and divided, {@code pow} of an integer), with no floating data loaded or passed in ({@link
 * #computedFromIntegers}).
 */
public final class IntegerData {
    private IntegerData() {}

    /** PTX's special registers of the launch ({@code %tid.x}, {@code %ctaid.y}, {@code %ntid.x}, {@code %laneid}). */
    private static final java.util.regex.Pattern SPECIAL =
            java.util.regex.Pattern.compile("%(tid|ntid|ctaid|nctaid|laneid|warpid|nwarpid|smid|nsmid|gridid)\\b");

    /** The most definitions {@link #computedFromIntegers} visits. */
    private static final int INTEGER_BUDGET = 512;

    /**
     * Whether operand {@code operand} of {@code in} is computed from integers and constants only: every definition it is computed from,
     * through float arithmetic, moves and the steps of an inlined math routine ({@code pow(n, 3)} of an integer
     * {@code n}), ends in an immediate, an integer register or load, or a conversion from an integer; no float is
     * loaded or passed in (NL001: such a conversion has no floating data to guard, as the CUDA source layer rules).
     */
    public static boolean computedFromIntegers(PtxFacts facts, Instruction in, int operand) {
        java.util.ArrayDeque<int[]> work = new java.util.ArrayDeque<>();
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        work.add(new int[] {in.index(), operand});
        int budget = INTEGER_BUDGET;
        while (!work.isEmpty()) {
            if (--budget < 0) {
                return false;
            }
            int[] w = work.poll();
            Instruction at = facts.function().instruction(w[0]);
            if (!(at.operand(w[1]) instanceof dev.numlint.ptx.model.Operand.Reg r)) {
                continue; // an immediate
            }
            int[] defs = facts.defUse().reachingDefs(at.index(), r.name());
            if (defs.length == 0) {
                if (SPECIAL.matcher(r.name()).lookingAt()) {
                    continue; // a thread or block index, a count of the launch: an integer
                }
                return false; // a value from outside the function's code
            }
            for (int d : defs) {
                if (!seen.add(d)) {
                    continue;
                }
                Instruction x = facts.function().instruction(d);
                String t = x.opcode().equals("cvt") && x.types().size() == 2
                        ? x.types().get(1)
                        : x.type();
                boolean integer = t != null && (t.startsWith("s") || t.startsWith("u") || t.equals("pred"));
                boolean source = x.opcode().equals("ld")
                        || x.opcode().equals("mov")
                                && x.operands().size() == 2
                                && !(x.operand(1) instanceof dev.numlint.ptx.model.Operand.Reg);
                if (integer && source) {
                    continue; // an integer load or parameter, a special register, an integer constant
                }
                if (!integer
                        && x.opcode().equals("ld")
                        && x.space() != null
                        && x.space().equals("param")) {
                    // the value a math routine nvcc calls returns (pow's __internal_accurate_pow): a routine of its
                    // arguments, which are followed instead
                    int[] args = routineArguments(facts, x);
                    if (args == null) {
                        return false;
                    }
                    for (int a : args) {
                        work.add(new int[] {a, 1});
                    }
                    continue;
                }
                if (!integer
                        && (x.opcode().equals("ld")
                                || x.opcode().equals("call")
                                || x.opcode().startsWith("tex"))) {
                    return false; // floating data
                }
                // integer arithmetic is followed to its sources too: an int truncated from a float
                // (cvt.rzi.s32.f32 of loaded data) is floating data, not an integer of the code's counting
                for (int k = 1; k < x.operands().size(); k++) {
                    if (x.operand(k) instanceof dev.numlint.ptx.model.Operand.Reg) {
                        work.add(new int[] {d, k});
                    }
                }
            }
        }
        return true;
    }

    /**
     * For {@code ld.param} of a call's return value, where the callee is an inlined math library routine nvcc calls
     * ({@code __internal_*}, {@code __nv_*}): the {@code st.param} instructions that pass its arguments, else null.
     */
    private static int[] routineArguments(PtxFacts facts, Instruction ld) {
        var ins = facts.function().instructions();
        for (int i = ld.index() - 1; i >= 0 && i >= ld.index() - 8; i--) {
            Instruction c = ins.get(i);
            if (!c.opcode().equals("call")) {
                continue;
            }
            String text = c.text();
            if (!text.contains("__internal_") && !text.contains("__nv_")) {
                return null;
            }
            java.util.List<Integer> st = new java.util.ArrayList<>();
            for (int k = i - 1; k >= 0 && k >= i - 16; k--) {
                Instruction p = ins.get(k);
                if (p.opcode().equals("call")) {
                    break;
                }
                if (p.opcode().equals("st")
                        && "param".equals(p.space())
                        && p.operands().size() == 2) {
                    st.add(k);
                }
            }
            return st.isEmpty() ? null : st.stream().mapToInt(Integer::intValue).toArray();
        }
        return null;
    }
}
