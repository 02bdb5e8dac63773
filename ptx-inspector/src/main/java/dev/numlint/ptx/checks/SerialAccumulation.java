package dev.numlint.ptx.checks;

import com.google.auto.service.AutoService;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.ptx.facts.Consequences;
import dev.numlint.ptx.facts.Consequences.Consequence;
import dev.numlint.ptx.facts.PtxFacts;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Loop;
import dev.numlint.ptx.model.Operand;
import dev.numlint.ptx.model.PtxFunction;
import dev.numlint.ptx.rules.PtxHit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * NL004 in PTX: a float add/sub/fma whose result is carried around a loop back into itself (a serial accumulator)
 * when the loop's trip count is unknown or at least {@code min-trip-count}. Compensated (Kahan) sums and exact
 * integral steps (a float counter) are not accumulations of rounding error.
 */
@AutoService(PtxCheck.class)
public final class SerialAccumulation implements PtxCheck {
    @Override
    public String ruleId() {
        return "NL004";
    }

    @Override
    public void check(PtxFacts facts, Consumer<PtxHit> out) {
        PtxFunction fn = facts.function();
        List<Loop> loops = fn.loops();
        if (loops.isEmpty()) {
            return;
        }
        int min = facts.settings().nl004MinTripCount();
        for (Instruction in : fn.instructions()) {
            String op = in.opcode();
            boolean acc = op.equals("add") || op.equals("sub") || op.equals("fma") || op.equals("mad");
            if (!acc || !PtxFacts.isF(in.type()) || in.defs().isEmpty() || integralStep(in)) {
                continue;
            }
            List<Loop> enclosing = new ArrayList<>();
            for (Loop l : loops) {
                if (l.contains(in.block())) {
                    enclosing.add(l);
                }
            }
            enclosing.sort(
                    (a, b) -> Integer.compare(a.body().cardinality(), b.body().cardinality()));
            for (Loop l : enclosing) {
                Set<Integer> cycle = new HashSet<>();
                if (!carriedAround(facts, in, l.body(), cycle)) {
                    continue;
                }
                if (l.tripCountKnown() && l.tripCount() < min) {
                    break;
                }
                if (compensated(facts, in) || cycle.stream().anyMatch(x -> compensated(facts, fn.instruction(x)))) {
                    break;
                }
                String trip = l.tripCountKnown()
                        ? (l.tripCountBound() ? "at most " : "") + l.tripCount() + " iterations"
                        : "an unknown trip count";
                int header = fn.instruction(fn.blocks().get(l.header()).first()).ptxLine();
                // PTX is device code: one thread's loop. A loop stepping by the grid or block size is that thread's
                // share of a parallel sum, whose order is not a serial CPU loop's; any other loop sums in the
                // order of the serial loop it ports (as the CUDA source layer judges), unless its value decides
                boolean shared = gridStride(facts, l);
                Consequence consequence;
                String key;
                if (shared) {
                    consequence = new Consequence(
                            Impact.Kind.GROWING, Consequences.phrase("ptx-use-growing", "trip", trip), null);
                    key = "ptx-acc-grid";
                } else {
                    Consequence use = facts.consequences().of(in);
                    boolean decides = use.kind() == Impact.Kind.AMPLIFIED || use.kind() == Impact.Kind.CANCELLATION;
                    consequence = decides
                            ? use
                            : new Consequence(Impact.Kind.BOUNDED, Consequences.phrase("ptx-use-one-thread"), null);
                    key = decides ? "ptx-acc-thread-use" : "ptx-acc-thread";
                }
                out.accept(new PtxHit(
                        ruleId(),
                        fn,
                        in,
                        PtxMessages.format(
                                ruleId(),
                                key,
                                "instr",
                                in.text(),
                                "reg",
                                in.defs().get(0),
                                "trip",
                                trip,
                                "line",
                                header),
                        Confidence.HIGH,
                        List.of(),
                        in.mnemonic() + "-loop",
                        consequence));
                break;
            }
        }
    }

    /**
     * Whether the loop steps an integer by the grid or block size ({@code i += blockDim.x * gridDim.x}): an
     * integer add in the loop that carries its own result ({@code add %r, %r, %step}) with a step computed from
     * {@code %nctaid} or {@code %ntid}.
     */
    static boolean gridStride(PtxFacts facts, Loop l) {
        for (Instruction x : facts.function().instructions()) {
            if (!l.contains(x.block()) || !x.opcode().equals("add") || !PtxFacts.isInteger(x.type())) {
                continue;
            }
            if (x.defs().isEmpty()) {
                continue;
            }
            String self = x.defs().get(0);
            for (int k = 1; k <= 2; k++) {
                int other = 3 - k;
                if (x.operand(k) instanceof Operand.Reg r
                        && r.name().equals(self)
                        && readsLaunchSize(facts, x, other, 0)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean readsLaunchSize(PtxFacts facts, Instruction at, int k, int depth) {
        Operand o = at.operand(k);
        if (o instanceof Operand.Reg r && r.isSpecial()) {
            return r.name().equals("%nctaid") || r.name().equals("%ntid");
        }
        if (!(o instanceof Operand.Reg) || depth > 5) {
            return false;
        }
        Instruction d = facts.defOf(at, k);
        if (d == null) {
            return false;
        }
        switch (d.opcode()) {
            case "mov", "cvt", "mul", "mad", "shl", "add", "sub" -> {
                for (int j = 1; j < d.operands().size(); j++) {
                    if (readsLaunchSize(facts, d, j, depth + 1)) {
                        return true;
                    }
                }
                return false;
            }
            default -> {
                return false;
            }
        }
    }

    private static boolean integralStep(Instruction in) {
        if (!in.opcode().equals("add") && !in.opcode().equals("sub")) {
            return false;
        }
        for (int k = 1; k <= 2; k++) {
            if (in.operand(k) instanceof Operand.FloatImm f) {
                double v = f.value();
                if (v == Math.rint(v) && Math.abs(v) <= 16777216) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The value defined by {@code start} flows (through float add/sub/fma-addend/mov/selp) back into it. */
    private static boolean carriedAround(PtxFacts facts, Instruction start, BitSet body, Set<Integer> seen) {
        PtxFunction fn = facts.function();
        ArrayDeque<Integer> work = new ArrayDeque<>();
        work.add(start.index());
        while (!work.isEmpty()) {
            int cur = work.poll();
            List<String> curDefs = fn.instruction(cur).defs();
            for (int u : facts.defUse().users(cur)) {
                Instruction ui = fn.instruction(u);
                if (!body.get(ui.block())) {
                    continue;
                }
                if (u == start.index()) {
                    if (accumulatorOperand(start, curDefs)) {
                        return true;
                    }
                    continue;
                }
                String op = ui.opcode();
                boolean pass = (op.equals("add")
                                || op.equals("sub")
                                || op.equals("mov")
                                || op.equals("selp")
                                || ((op.equals("fma") || op.equals("mad")) && usesAt(ui, 3, curDefs)))
                        && PtxFacts.isF(ui.type());
                if (pass && seen.add(u)) {
                    work.add(u);
                }
            }
        }
        return false;
    }

    private static boolean accumulatorOperand(Instruction acc, List<String> regs) {
        if (acc.opcode().equals("fma") || acc.opcode().equals("mad")) {
            return usesAt(acc, 3, regs);
        }
        return usesAt(acc, 1, regs) || usesAt(acc, 2, regs);
    }

    private static boolean usesAt(Instruction in, int k, List<String> regs) {
        return in.operand(k) instanceof Operand.Reg r && regs.contains(r.name());
    }

    /** Kahan/compensated summation: the new sum is subtracted from/with the old one ((t - sum) - y). */
    private static boolean compensated(PtxFacts facts, Instruction add) {
        if (!add.opcode().equals("add") && !add.opcode().equals("sub")) {
            return false;
        }
        Set<String> inputs = new HashSet<>();
        for (int k = 1; k <= 2; k++) {
            if (add.operand(k) instanceof Operand.Reg r) {
                inputs.add(r.name());
            }
        }
        for (int u : facts.defUse().users(add.index())) {
            Instruction s = facts.function().instruction(u);
            if (!s.opcode().equals("sub")) {
                continue;
            }
            for (int k = 1; k <= 2; k++) {
                if (s.operand(k) instanceof Operand.Reg r && inputs.contains(r.name())) {
                    return true;
                }
            }
        }
        return false;
    }
}
