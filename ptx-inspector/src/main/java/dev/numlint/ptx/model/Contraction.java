package dev.numlint.ptx.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A model of the floating-point contraction ptxas applies when it assembles PTX: which {@code add}/{@code sub} of
 * a product computed by a separate {@code mul} becomes one fused multiply-add (FFMA for .f32, DFMA for .f64) in
 * the machine code, so that the product is not rounded on its own.
 *
 * <p>The PTX ISA lets ptxas fuse {@code mul} and {@code add}/{@code sub} that carry no rounding modifier: "mul/add
 * and mul/sub sequences with no rounding modifiers may be optimized to use fused-multiply-add instructions on the
 * target device"; an explicit {@code .rn} (what {@code -fmad=false}, {@code __fmul_rn} and {@code __fadd_rn}
 * produce) forbids it. The model fuses an {@code add}/{@code sub} of .f32 or .f64 without rounding modifier when
 * one of its source operands has exactly one reaching definition and that definition is an unguarded {@code mul}
 * of the same type, without rounding modifier and without {@code .sat}, with the same {@code .ftz} setting, either
 * directly or through {@code mov} and {@code neg} of the same type (a negation becomes the sign of the FFMA
 * operand), and when every instruction that reads the product is such an addition in the mul's own basic block.
 * A product that feeds several such additions is fused into each of them (ptxas repeats the multiplication inside
 * each FFMA: "a product used twice becomes two FFMAs"). A product that is also stored, compared, or added in
 * another block (after a branch, across a loop back edge) stays a separate FMUL, and none of its additions is
 * fused. A {@code div.approx.f32} counts as a product ({@link #isApproxDivision}). Neither is a product whose addition follows an IEEE division or square root ({@code div.rn},
 * {@code sqrt.rn}, {@code rcp.rn}: ptxas expands them with a slow-path call, which splits the block). When both
 * operands of an addition are fusable products, the one with fewer readers is fused (the first on a tie) and the
 * other stays an FMUL; a product that is not fused into every one of its readers is fused into none.
 *
 * <p>The model was checked against the SASS that ptxas 13.0 (sm_90) produced for hand-written patterns and for
 * real kernels (see ptx-inspector/src/test/resources/contraction/ and docs/validation/); the scan's PTX NL003 rule
 * should report a fusion as certain only where {@link #isFused(int)} holds and the SASS has not contradicted it.
 *
 * <p>Instances are immutable and computed per function with {@link #of(PtxFunction)}.
 */
public final class Contraction {
    /**
     * One predicted fusion.
     *
     * @param add        index of the {@code add}/{@code sub} instruction that becomes an FFMA/DFMA
     * @param mul        index of the {@code mul} whose product it consumes
     * @param operand    which source operand of the add/sub is the product: 1 (first) or 2 (second)
     * @param negated    whether the product enters negated ({@code neg} on the way, or subtracted: {@code c - a*b})
     * @param addendNegated whether the other operand enters negated ({@code a*b - c})
     */
    public record Fusion(int add, int mul, int operand, boolean negated, boolean addendNegated) {}

    private final PtxFunction function;
    private final Map<Integer, Fusion> byAdd;
    private final Map<Integer, List<Fusion>> byMul;
    private final Map<Integer, Boolean> mulRetained;

    private Contraction(
            PtxFunction function,
            Map<Integer, Fusion> byAdd,
            Map<Integer, List<Fusion>> byMul,
            Map<Integer, Boolean> mulRetained) {
        this.function = function;
        this.byAdd = byAdd;
        this.byMul = byMul;
        this.mulRetained = mulRetained;
    }

    /** The contractions ptxas is predicted to apply in function f. */
    public static Contraction of(PtxFunction f) {
        Map<Integer, Fusion> byAdd = new LinkedHashMap<>();
        Map<Integer, List<Fusion>> byMul = new LinkedHashMap<>();
        List<Instruction> ins = f.instructions();
        if (ins.isEmpty()) return new Contraction(f, byAdd, byMul, Map.of());
        DefUse du = f.defUse();
        // every (addition, operand) pair whose operand is a contractible product
        Map<Integer, List<Fusion>> candidates = new LinkedHashMap<>();
        for (Instruction in : ins) {
            if (!isContractibleAdd(in)) continue;
            for (int k = 1; k <= 2; k++) {
                Fusion fu = product(f, du, in, k);
                if (fu != null)
                    candidates.computeIfAbsent(fu.mul(), x -> new ArrayList<>()).add(fu);
            }
        }
        // a product is fused only when every reader is a candidate addition in the mul's own basic block with no
        // branchy expansion (IEEE division or square root: a call to a slow path) between them
        List<Integer> fusable = new ArrayList<>();
        for (Map.Entry<Integer, List<Fusion>> e : candidates.entrySet()) {
            int mul = e.getKey();
            int block = f.instruction(mul).block();
            boolean ok = true;
            for (int u : readersThroughCopies(f, du, mul)) {
                boolean cand = false;
                for (Fusion fu : e.getValue()) cand |= fu.add() == u;
                if (!cand || f.instruction(u).block() != block || slowPathBetween(f, mul, u)) {
                    ok = false;
                    break;
                }
            }
            if (ok) fusable.add(mul);
        }
        // each addition takes one fusable product (the one with fewer readers, else its first operand); a product
        // that some reader did not take stays a rounded FMUL for all of them: repeat until nothing changes
        Map<Integer, Integer> readers = new LinkedHashMap<>();
        for (int mul : fusable)
            readers.put(mul, readersThroughCopies(f, du, mul).size());
        boolean changed = true;
        while (changed) {
            changed = false;
            byAdd.clear();
            byMul.clear();
            for (Instruction in : ins) {
                if (!isContractibleAdd(in)) continue;
                Fusion pick = null;
                for (int mul : fusable) {
                    for (Fusion fu : candidates.get(mul)) {
                        if (fu.add() != in.index()) continue;
                        if (pick == null
                                || readers.get(mul) < readers.get(pick.mul())
                                || (readers.get(mul).equals(readers.get(pick.mul()))
                                        && fu.operand() < pick.operand())) {
                            pick = fu;
                        }
                    }
                }
                if (pick != null) {
                    byAdd.put(in.index(), pick);
                    byMul.computeIfAbsent(pick.mul(), x -> new ArrayList<>()).add(pick);
                }
            }
            for (int mul : new ArrayList<>(fusable)) {
                if (byMul.getOrDefault(mul, List.of()).size() < readers.get(mul)) {
                    fusable.remove((Integer) mul);
                    changed = true;
                }
            }
        }
        Map<Integer, Boolean> retained = new LinkedHashMap<>();
        for (int mul : fusable) retained.put(mul, false);
        return new Contraction(
                f,
                Collections.unmodifiableMap(byAdd),
                Collections.unmodifiableMap(byMul),
                Collections.unmodifiableMap(retained));
    }

    /** An add/sub of .f32 or .f64 with no rounding modifier: the instructions ptxas may fuse with a product. */
    public static boolean isContractibleAdd(Instruction in) {
        return (in.opcode().equals("add") || in.opcode().equals("sub"))
                && in.rounding() == null
                && floatType(in)
                && in.operands().size() == 3;
    }

    /** A mul of .f32 or .f64 with no rounding modifier and no .sat: a product ptxas may fuse into an addition. */
    public static boolean isContractibleMul(Instruction in) {
        return (in.opcode().equals("mul") && in.rounding() == null || isApproxDivision(in))
                && !in.sat()
                && floatType(in)
                && in.operands().size() == 3
                && in.guard() == null;
    }

    /**
     * {@code div.approx.f32 d, a, b}: ptxas computes it as {@code a * rcp.approx(b)} (MUFU.RCP + FMUL), and that
     * multiplication contracts with a following addition like a {@code mul} does (seen in the SASS of fast-math
     * builds: {@code absorb += v * r / h} becomes MUFU.RCP + FFMA).
     */
    public static boolean isApproxDivision(Instruction in) {
        return in.opcode().equals("div") && in.approx() && "f32".equals(in.type());
    }

    private static boolean floatType(Instruction in) {
        String t = in.type();
        return ("f32".equals(t) || "f64".equals(t)) && in.types().size() == 1;
    }

    private static Fusion product(PtxFunction f, DefUse du, Instruction add, int k) {
        if (!(add.operand(k) instanceof Operand.Reg r)) return null;
        boolean neg = false;
        String reg = r.name();
        int at = add.index();
        for (int hops = 0; hops < 8; hops++) {
            int d = du.uniqueDef(at, reg);
            if (d < 0) return null;
            Instruction def = f.instruction(d);
            if (def.guard() != null || !add.type().equals(def.type())) return null;
            if (def.opcode().equals("mul") || isApproxDivision(def)) {
                if (!isContractibleMul(def) || def.ftz() != add.ftz()) return null;
                boolean sub = add.opcode().equals("sub");
                boolean productNegated = neg ^ (sub && k == 2);
                boolean addendNegated = sub && k == 1;
                return new Fusion(add.index(), d, k, productNegated, addendNegated);
            }
            if ((def.opcode().equals("mov") || def.opcode().equals("neg"))
                    && def.operand(1) instanceof Operand.Reg src
                    && def.types().size() == 1) {
                if (def.opcode().equals("neg")) {
                    if (def.ftz() != add.ftz()) return null;
                    neg = !neg;
                }
                reg = src.name();
                at = d;
                continue;
            }
            return null;
        }
        return null;
    }

    /** IEEE division and square root (and rcp.rn) expand into code with a slow-path call in the machine code. */
    private static boolean slowPathBetween(PtxFunction f, int from, int to) {
        for (int i = from + 1; i < to; i++) {
            Instruction x = f.instruction(i);
            String op = x.opcode();
            if ((op.equals("div") || op.equals("sqrt") || op.equals("rcp"))
                    && !x.approx()
                    && !x.full()
                    && ("f32".equals(x.type()) || "f64".equals(x.type()))) {
                return true;
            }
        }
        return false;
    }

    /** Instructions reading the mul's result, looking through mov/neg copies (the copies themselves excluded). */
    private static List<Integer> readersThroughCopies(PtxFunction f, DefUse du, int mul) {
        List<Integer> out = new ArrayList<>();
        List<Integer> todo = new ArrayList<>();
        todo.add(mul);
        for (int i = 0; i < todo.size() && i < 64; i++) {
            for (int u : du.users(todo.get(i))) {
                Instruction ui = f.instruction(u);
                if ((ui.opcode().equals("mov") || ui.opcode().equals("neg"))
                        && ui.types().size() == 1
                        && ui.type().equals(f.instruction(mul).type())) {
                    if (!todo.contains(u)) todo.add(u);
                } else if (!out.contains(u)) {
                    out.add(u);
                }
            }
        }
        return out;
    }

    /** The function this model describes. */
    public PtxFunction function() {
        return function;
    }

    /** Every predicted fusion, in instruction order of the additions. */
    public List<Fusion> fusions() {
        return List.copyOf(byAdd.values());
    }

    /** Whether the add/sub at instruction index {@code add} is predicted to become an FFMA/DFMA. */
    public boolean isFused(int add) {
        return byAdd.containsKey(add);
    }

    /** The fusion of the add/sub at instruction index {@code add}, if one is predicted. */
    public Optional<Fusion> fusionAt(int add) {
        return Optional.ofNullable(byAdd.get(add));
    }

    /** The fusions that consume the product of the mul at instruction index {@code mul} (empty when none). */
    public List<Fusion> fusionsOf(int mul) {
        return byMul.getOrDefault(mul, List.of());
    }

    /**
     * Whether the mul at instruction index {@code mul} still appears as a separate FMUL/DMUL: false exactly when
     * its product is fused into every addition that reads it.
     */
    public boolean isMulRetained(int mul) {
        return mulRetained.getOrDefault(mul, true);
    }
}
