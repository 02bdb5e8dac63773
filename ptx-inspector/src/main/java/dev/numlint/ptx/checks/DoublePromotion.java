package dev.numlint.ptx.checks;

import com.google.auto.service.AutoService;
import dev.numlint.model.Confidence;
import dev.numlint.ptx.facts.Consequences.Consequence;
import dev.numlint.ptx.facts.PtxFacts;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.rules.PtxHit;
import dev.numlint.ptx.rules.PtxMessage;
import dev.numlint.ptx.rules.SourceText;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * NL008 in PTX: {@code cvt.f64.f32} whose double is used in f64 arithmetic and converted back to f32: a float
 * expression evaluated in double (an unsuffixed literal or a double function). When that arithmetic's other operand
 * is double data loaded from memory or a parameter ({@code ld.global.f64}: an element of a {@code double*}, a
 * {@code double} argument), the double arithmetic is what the declared types ask for, a deliberate precision, not an
 * accidental promotion: a note that says so. The float result of a math routine called on double arguments on the
 * same line ({@code powf(p / pk, e)} with doubles: {@code cvt.rn.f32.f64} into the routine) is not reported: the
 * code around it is double, nothing float is promoted. When the source line declares the double
 * ({@code const double w = weights[i];}, {@code static_cast<double>(d * d)}) or, holding no unsuffixed floating
 * literal, reaches double arithmetic with no double constant in it (the double is a declared variable, parameter or
 * a function's declared return type: {@code weights[i] * potential.value(a, b)}), the FP64 is what the code declares:
 * a note, "declared double: deliberate FP64". A double literal mixed into float code ({@code 0.5 * diff},
 * {@code sum * 2.0 * f}) or a double constant folded into the arithmetic ({@code x * M_PI}) is an accidental
 * promotion, a note too: a CPU running the same code computes the same double (only FP64 throughput is at stake).
 */
@AutoService(PtxCheck.class)
public final class DoublePromotion implements PtxCheck {
    private static final int MAX_STEPS = 200;

    @Override
    public String ruleId() {
        return "NL008";
    }

    @Override
    public void check(PtxFacts facts, Consumer<PtxHit> out) {
        for (Instruction in : facts.function().instructions()) {
            if (in.opcode().equals("cvt")
                    && in.types().size() == 2
                    && "f64".equals(in.types().get(0))
                    && "f32".equals(in.types().get(1))) {
                check(facts, in, out);
            }
        }
    }

    private void check(PtxFacts facts, Instruction in, Consumer<PtxHit> out) {
        if (SourceText.callsMathLibraryAnyCase(facts.sourceLine(in)) && facts.narrowedFromDouble(in, 1)) {
            // the float result of a routine called on double arguments (powf(p / pk, e) in a double solver): the
            // double arithmetic it re-enters is the code's own precision, no float math promoted
            return;
        }
        ArrayDeque<Integer> work = new ArrayDeque<>();
        Set<Integer> seen = new HashSet<>();
        work.add(in.index());
        Instruction firstArith = null;
        boolean constant = false;
        int steps = 0;
        while (!work.isEmpty() && steps++ < MAX_STEPS) {
            int cur = work.poll();
            for (int u : facts.defUse().users(cur)) {
                Instruction x = facts.function().instruction(u);
                String op = x.opcode();
                if (op.equals("cvt")
                        && x.types().size() == 2
                        && "f32".equals(x.types().get(0))
                        && "f64".equals(x.types().get(1))) {
                    if (firstArith != null) {
                        String line = facts.sourceLine(in);
                        Consequence c = facts.consequences().of(x);
                        // double arithmetic in device code is slow on the GPU, but the answer does not change:
                        // its value decides nothing (session 42), or a CPU running the same code computes the same
                        // double and decides with it (session 69, as the CUDA source layer rules): a note
                        c = new Consequence(
                                dev.numlint.model.Impact.Kind.BOUNDED,
                                dev.numlint.rules.RuleCatalog.get()
                                        .phrase(
                                                c == null || c.kind() == dev.numlint.model.Impact.Kind.BOUNDED
                                                        ? "cost-only"
                                                        : "cost-same-on-cpu"),
                                null);
                        Instruction data = doubleData(facts, firstArith);
                        String literal = data == null ? literalOrigin(facts, in, firstArith) : null;
                        String declared =
                                data == null && literal == null ? declared(facts, in, firstArith, constant) : null;
                        PtxMessage message;
                        if (literal != null) {
                            // a reduction's identity 0.0 (sum(u, 0.0) / (tau * n)): the double the float meets was
                            // a literal, not a declaration; an accidental promotion like any other
                            message = PtxMessages.message(
                                    ruleId(),
                                    "ptx-promote-literal",
                                    "cvt",
                                    in.text(),
                                    "arith",
                                    firstArith.text(),
                                    "literal",
                                    literal);
                        } else if (declared != null) {
                            // const double w = weights[i]; ... g[i] = w * grad: the double is the code's own
                            message = PtxMessages.message(
                                    ruleId(),
                                    "ptx-promote-declared",
                                    "cvt",
                                    in.text(),
                                    "arith",
                                    firstArith.text(),
                                    "how",
                                    declared);
                            // the code asked for this double: what its value decides, it decides as written
                            // (a float computation nobody wrote is no reference), so a note whatever it reaches
                            // (session 40's evaluation: every sampled deliberate double was not actionable)
                            c = new Consequence(
                                    dev.numlint.model.Impact.Kind.BOUNDED,
                                    dev.numlint.rules.RuleCatalog.get().phrase("declared-double"),
                                    null);
                        } else if (data != null) {
                            // float x = g_y[n] - y0 with a double* g_y: the double comes from the declared types
                            message = PtxMessages.message(
                                    ruleId(),
                                    "ptx-promote-double-data",
                                    "cvt",
                                    in.text(),
                                    "load",
                                    data.text(),
                                    "arith",
                                    firstArith.text());
                            // the declared types ask for double: deliberate, a note whatever it reaches (above)
                            c = new Consequence(
                                    dev.numlint.model.Impact.Kind.BOUNDED,
                                    dev.numlint.rules.RuleCatalog.get().phrase("ptx-use-undecided"),
                                    null);
                        } else {
                            message = PtxMessages.message(
                                    ruleId(),
                                    "ptx-promote",
                                    "cvt",
                                    in.text(),
                                    "arith",
                                    firstArith.text(),
                                    "back",
                                    x.text());
                        }
                        out.accept(new PtxHit(
                                ruleId(),
                                facts.function(),
                                in,
                                message,
                                line == null ? Confidence.MEDIUM : Confidence.HIGH,
                                data == null ? List.of(firstArith, x) : List.of(firstArith, x, data),
                                "cvt.f64.f32>" + firstArith.mnemonic(),
                                c));
                        return;
                    }
                    continue;
                }
                if (!"f64".equals(x.type())) {
                    continue;
                }
                boolean arith = op.equals("add")
                        || op.equals("sub")
                        || op.equals("mul")
                        || op.equals("div")
                        || op.equals("fma")
                        || op.equals("mad")
                        || op.equals("sqrt")
                        || op.equals("rcp");
                boolean pass = arith
                        || op.equals("mov")
                        || op.equals("neg")
                        || op.equals("abs")
                        || op.equals("selp")
                        || op.equals("min")
                        || op.equals("max");
                if (!pass || !seen.add(u)) {
                    continue;
                }
                if (arith && firstArith == null) {
                    firstArith = x;
                }
                if (arith) constant |= doubleConstant(x);
                work.add(u);
            }
        }
    }

    /**
     * The load of double data ({@code ld.*.f64}: memory or a parameter) that gives {@code arith} another source
     * operand, or null: the double arithmetic then combines the float with a value declared double.
     */
    private static Instruction doubleData(PtxFacts facts, Instruction arith) {
        for (int k = 1; k < arith.operands().size(); k++) {
            Instruction d = facts.defOf(arith, k);
            if (d != null && d.opcode().equals("ld") && "f64".equals(d.type())) return d;
        }
        return null;
    }

    private static final java.util.regex.Pattern DECLARED_LOCAL =
            java.util.regex.Pattern.compile("(?<![\\w.])double\\s+[A-Za-z_]\\w*\\s*(=|\\{)");

    private static final java.util.regex.Pattern DOUBLE_CAST =
            java.util.regex.Pattern.compile("static_cast\\s*<\\s*double\\s*>|\\(\\s*double\\s*\\)\\s*[\\w(]");

    /** An unsuffixed floating literal: 0.5, 2.0, 1e-3, .25 (not 0.5f, not an integer, not part of a name). */
    private static final java.util.regex.Pattern DOUBLE_LITERAL = java.util.regex.Pattern.compile(
            "(?<![\\w.])(?:\\d+\\.\\d*|\\.\\d+|\\d+(?=[eE]))(?:[eE][+-]?\\d+)?(?![\\w.])");

    /**
     * How the source declares the double the float meets ("a local declared double", "an explicit cast to double",
     * "a double variable, parameter or return type"), or null when the promotion may be a literal's: the cvt's or the
     * arithmetic's line holds an unsuffixed floating literal, or the double arithmetic holds a double constant (a
     * macro such as M_PI, a folded literal) and the line declares nothing.
     */
    static String declared(PtxFacts facts, Instruction cvt, Instruction arith, boolean constant) {
        String line = facts.sourceLine(cvt);
        if (line == null) return null;
        String code = stripComment(line);
        if (DECLARED_LOCAL.matcher(code).find()) return "a local declared double";
        if (DOUBLE_CAST.matcher(code).find()) return "an explicit cast to double";
        if (DOUBLE_LITERAL.matcher(code).find() || constant) return null;
        String other = facts.sourceLine(arith);
        if (other != null && DOUBLE_LITERAL.matcher(stripComment(other)).find()) return null;
        return "a double variable, parameter or return type";
    }

    /** How far {@link #literalOrigin} follows the double operands back. */
    private static final int MAX_ORIGIN_STEPS = 64;

    /**
     * The double literal the f64 value that {@code arith} combines with the promoted float comes from ("0.0"), or
     * null. The other operands of {@code arith} are followed back through double arithmetic and moves (a loop's
     * accumulator through its initial value): they must end in double constants ({@code mov.f64 %fd1, 0d0...}, an
     * immediate operand) and in floats promoted with {@code cvt.f64.f32}, nothing else (no double load, parameter,
     * call result or integer conversion: a declared double). A reduction given the identity {@code 0.0} over float
     * data ({@code sum(u, plus, 0.0) / (tau * n)}) is such a value: its double is the literal's, not a declaration's.
     */
    static String literalOrigin(PtxFacts facts, Instruction cvt, Instruction arith) {
        var fn = facts.function();
        ArrayDeque<Integer> work = new ArrayDeque<>();
        Set<Integer> seen = new HashSet<>();
        seen.add(arith.index());
        for (int k = 1; k < arith.operands().size(); k++) {
            if (!(arith.operand(k) instanceof dev.numlint.ptx.model.Operand.Reg r)) continue;
            int[] defs = facts.defUse().reachingDefs(arith.index(), r.name());
            if (defs.length == 0) return null; // a value from outside the function's code
            for (int d : defs) {
                if (d != cvt.index() && seen.add(d)) work.add(d);
            }
        }
        if (work.isEmpty()) return null;
        String literal = null;
        int steps = 0;
        while (!work.isEmpty()) {
            if (steps++ > MAX_ORIGIN_STEPS) return null;
            Instruction x = fn.instruction(work.poll());
            String op = x.opcode();
            if (op.equals("cvt")
                    && x.types().size() == 2
                    && "f64".equals(x.types().get(0))
                    && "f32".equals(x.types().get(1))) {
                continue; // float data promoted (the terms of the reduction)
            }
            boolean pass = "f64".equals(x.type())
                    && switch (op) {
                        case "mov", "add", "sub", "mul", "fma", "mad", "neg", "abs", "selp", "min", "max" -> true;
                        default -> false;
                    };
            if (!pass) return null;
            for (int k = 1; k < x.operands().size(); k++) {
                dev.numlint.ptx.model.Operand o = x.operand(k);
                if (o instanceof dev.numlint.ptx.model.Operand.FloatImm f) {
                    if (literal == null) literal = literalText(f.value());
                } else if (o instanceof dev.numlint.ptx.model.Operand.Reg r && !(op.equals("selp") && k == 3)) {
                    int[] defs = facts.defUse().reachingDefs(x.index(), r.name());
                    if (defs.length == 0) return null;
                    for (int d : defs) {
                        if (seen.add(d)) work.add(d);
                    }
                } else if (!(op.equals("selp") && k == 3)) {
                    return null;
                }
            }
        }
        return literal;
    }

    /** A double constant as code writes it: 0.0, 0.5, 1e-07. */
    static String literalText(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return String.valueOf(v);
        return String.valueOf(v).replace("E", "e");
    }

    private static String stripComment(String line) {
        int at = line.indexOf("//");
        return at < 0 ? line : line.substring(0, at);
    }

    /** Whether the f64 instruction has a floating immediate operand (a double constant folded into it). */
    private static boolean doubleConstant(Instruction x) {
        for (dev.numlint.ptx.model.Operand o : x.operands()) {
            if (o instanceof dev.numlint.ptx.model.Operand.FloatImm) return true;
        }
        return false;
    }
}
