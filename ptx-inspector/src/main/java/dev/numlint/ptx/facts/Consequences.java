package dev.numlint.ptx.facts;

import dev.numlint.model.Impact;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Operand;
import dev.numlint.ptx.rules.SourceText;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.List;

/**
 * What a value decides: follows an instruction's result forward through def-use (float arithmetic, moves,
 * selections, float-to-float conversions) to the first consumer that amplifies a small difference: a conversion to
 * an integer or an integral rounding (floor/ceil/trunc), a comparison, a min/max selection, an atomic reduction.
 * A value that only reaches stores or the function's return is bounded: CPU and GPU differ by a few ulp there.
 * The walk is bounded (it visits at most {@value #MAX_STEPS} instructions).
 */
public final class Consequences {
    static final int MAX_STEPS = 256;

    /**
     * The consequence found for a value.
     *
     * @param kind what the value decides
     * @param what short phrase for the message, e.g. "converted to an integer"
     * @param sink the instruction that consumes it, or null
     */
    public record Consequence(Impact.Kind kind, String what, Instruction sink) {}

    private final PtxFacts facts;

    Consequences(PtxFacts facts) {
        this.facts = facts;
    }

    /** The consequence of the value that {@code start} defines. */
    public Consequence of(Instruction start) {
        if (start.defs().isEmpty()) {
            return new Consequence(Impact.Kind.BOUNDED, phrase("ptx-use-none"), null);
        }
        List<Instruction> ins = facts.function().instructions();
        // seen: reached at all; direct: reached as the value itself, only moved, negated, converted or scaled
        BitSet seen = new BitSet(ins.size());
        BitSet direct = new BitSet(ins.size());
        ArrayDeque<Integer> work = new ArrayDeque<>();
        work.add(start.index());
        seen.set(start.index());
        direct.set(start.index());
        int steps = 0;
        boolean stored = false;
        while (!work.isEmpty()) {
            int cur = work.poll();
            List<String> defs = ins.get(cur).defs();
            boolean isDirect = direct.get(cur);
            for (int u : facts.defUse().users(cur)) {
                if (++steps > MAX_STEPS) {
                    return stored
                            ? new Consequence(Impact.Kind.BOUNDED, phrase("ptx-use-stored"), null)
                            : new Consequence(Impact.Kind.BOUNDED, phrase("ptx-use-unknown"), null);
                }
                Instruction x = ins.get(u);
                boolean library = libraryDecision(x);
                Consequence c = library ? null : sink(x, defs, isDirect && scales(ins.get(cur)));
                if (c != null) {
                    return c;
                }
                boolean keeps = isDirect && keepsValue(x);
                if ((passes(x)
                                || (library
                                        && (x.opcode().equals("min")
                                                || x.opcode().equals("max"))))
                        && (!seen.get(u) || keeps && !direct.get(u))) {
                    seen.set(u);
                    if (keeps) direct.set(u);
                    work.add(u);
                } else if (x.opcode().equals("st")) {
                    stored = true;
                }
            }
        }
        return new Consequence(Impact.Kind.BOUNDED, phrase(stored ? "ptx-use-stored" : "ptx-use-undecided"), null);
    }

    /**
     * A decision of an inlined math routine that carries the caller's line (libdevice code has no line table of
     * its own): a comparison, selection or round-to-integral on a line that calls a math-library function but
     * writes no comparison, selection or such rounding itself (the branches inside atanf on {@code return
     * atanf(y / x);}). It is the routine's, not a decision the user's value makes: its documented error bound
     * covers it. A truncation (cvt.rzi) stays a sink: an implicit conversion to int is written without a mark.
     */
    private boolean libraryDecision(Instruction x) {
        String op = x.opcode();
        boolean decision =
                switch (op) {
                    case "setp", "set", "slct", "testp", "min", "max" -> true;
                    case "cvt" -> x.rounding() == Instruction.Rounding.RNI
                            || x.rounding() == Instruction.Rounding.RMI
                            || x.rounding() == Instruction.Rounding.RPI;
                    default -> false;
                };
        if (!decision) {
            return false;
        }
        String line = facts.sourceLine(x);
        if (!SourceText.callsMathLibrary(line)) {
            return false;
        }
        if (op.equals("cvt")) {
            String[] spelled =
                    switch (x.rounding()) {
                        case RNI -> new String[] {"rint", "round", "_rn"};
                        case RMI -> new String[] {"floor", "_rd"};
                        default -> new String[] {"ceil", "_ru"};
                    };
            return !SourceText.callsNamed(line, spelled);
        }
        return !SourceText.writesDecision(line);
    }

    /**
     * {@code product}: the value reaches {@code x} as itself scaled into a product or quotient, so that a
     * subtraction of another product there is a difference of products it belongs to (not a function of it, a sum
     * with it, or the value minus one product).
     */
    private Consequence sink(Instruction x, List<String> defs, boolean product) {
        String op = x.opcode();
        switch (op) {
            case "cvt" -> {
                String dst = x.type();
                if (PtxFacts.isInteger(dst)) {
                    return new Consequence(Impact.Kind.AMPLIFIED, phrase("ptx-use-integer"), x);
                }
                if (x.rounding() != null && x.rounding().isInteger()) {
                    return new Consequence(Impact.Kind.AMPLIFIED, phrase("ptx-use-rounding"), x);
                }
                return null;
            }
            case "setp", "set", "slct", "testp" -> {
                return new Consequence(Impact.Kind.AMPLIFIED, phrase("ptx-use-comparison"), x);
            }
            case "min", "max" -> {
                // against a constant it is a clamp (fmaxf(v, 0.0f)): continuous in the value, which is followed on
                if (clamp(x, defs)) {
                    return null;
                }
                return new Consequence(Impact.Kind.AMPLIFIED, phrase("ptx-use-selection", "op", op), x);
            }
            case "atom", "red" -> {
                return new Consequence(Impact.Kind.AMPLIFIED, phrase("ptx-use-atomic"), x);
            }
            case "sub", "add" -> {
                if (product && cancels(x, defs)) {
                    return new Consequence(Impact.Kind.CANCELLATION, phrase("ptx-use-cancellation"), x);
                }
                return null;
            }
            default -> {
                return null;
            }
        }
    }

    /** {@code x} subtracts two products: the value is one of them and the other operand is a product too. */
    private boolean cancels(Instruction x, List<String> defs) {
        if (!PtxFacts.isF(x.type())) {
            return false;
        }
        boolean sub = x.opcode().equals("sub");
        for (int k = 1; k <= 2; k++) {
            int other = 3 - k;
            if (!(x.operand(k) instanceof Operand.Reg r) || !defs.contains(r.name())) {
                continue;
            }
            Instruction d = facts.defOf(x, other);
            if (d == null) {
                continue;
            }
            boolean neg = false;
            if (d.opcode().equals("neg")) {
                neg = true;
                d = facts.defOf(d, 1);
            }
            if (d != null && (sub ^ neg) && isProduct(d)) {
                return true;
            }
        }
        return false;
    }

    static boolean isProduct(Instruction d) {
        String op = d.opcode();
        return (op.equals("mul") && PtxFacts.isF(d.type())) || op.equals("fma") || op.equals("mad");
    }

    /** The instruction scales its input into a float product or quotient ({@code mul}, {@code div}). */
    private static boolean scales(Instruction d) {
        String op = d.opcode();
        return (op.equals("mul") || op.equals("div")) && PtxFacts.isF(d.type());
    }

    /** Operations whose result is still the value itself, only moved, negated, converted or scaled. */
    private static boolean keepsValue(Instruction x) {
        return switch (x.opcode()) {
            case "mov", "neg", "abs", "cvt", "mul", "div", "selp" -> true;
            default -> false;
        };
    }

    /** Operations a difference passes through unchanged in kind. */
    /** A min/max of the followed value and a constant. */
    private boolean clamp(Instruction x, List<String> defs) {
        for (int k = 1; k <= 2; k++) {
            if (x.operand(k) instanceof Operand.Reg r && defs.contains(r.name())) {
                return facts.constantOperand(x, x.operand(3 - k));
            }
        }
        return false;
    }

    private static boolean passes(Instruction x) {
        if (x.opcode().equals("min") || x.opcode().equals("max")) {
            return true; // reached only when sink() found a clamp
        }
        return switch (x.opcode()) {
            case "add",
                    "sub",
                    "mul",
                    "fma",
                    "mad",
                    "div",
                    "neg",
                    "abs",
                    "mov",
                    "selp",
                    "sqrt",
                    "rsqrt",
                    "rcp",
                    "ex2",
                    "lg2",
                    "sin",
                    "cos",
                    "tanh",
                    "cvt",
                    "copysign" -> true;
            default -> false;
        };
    }

    /** The catalog's shared message fragment {@code key} ({@code phrases:}) with its placeholders filled. */
    public static String phrase(String key, Object... args) {
        return dev.numlint.rules.RuleCatalog.get().phrase(key, args);
    }
}
