package dev.numlint.ptx.checks;

import com.google.auto.service.AutoService;
import dev.numlint.model.Confidence;
import dev.numlint.model.Identity;
import dev.numlint.model.Impact;
import dev.numlint.ptx.facts.Consequences.Consequence;
import dev.numlint.ptx.facts.PtxFacts;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.rules.PtxHit;
import dev.numlint.ptx.rules.SourceText;
import java.util.List;
import java.util.function.Consumer;

/**
 * NL006 in PTX: sin/cos/ex2/lg2/sqrt/rsqrt/tanh {@code .approx} that the programmer asked for (__sinf, __expf,
 * fast math), not the approximate first step of an accurate library routine. Inlined library code often carries
 * the caller's line (libdevice has no line table): an approximate instruction on a line that calls a math routine
 * but nothing that compiles to that instruction (the rsqrt.approx on a line that calls only acosf) is the
 * routine's.
 */
@AutoService(PtxCheck.class)
public final class ApproximateMathInstruction implements PtxCheck {
    private static final float LOG2E = 1.4426950408889634f;
    private static final float LOG2_10 = 3.321928094887362f;
    private static final float LN2 = 0.6931471805599453f;
    private static final float LOG10_2 = 0.30102999566398120f;

    @Override
    public String ruleId() {
        return "NL006";
    }

    @Override
    public void check(PtxFacts facts, Consumer<PtxHit> out) {
        for (Instruction in : facts.function().instructions()) {
            String op = in.opcode();
            if (!in.approx() || !dev.numlint.knowledge.InlinePtx.APPROXIMATE_MATH.contains(op)) {
                continue;
            }
            String t = in.type();
            if (!"f32".equals(t) && !(t != null && (t.startsWith("f16") || t.startsWith("bf16")))) {
                continue;
            }
            if (facts.libraryInternal(in)) {
                continue;
            }
            String line = facts.sourceLine(in);
            if (SourceText.callsMathLibrary(line) && !SourceText.callsNamed(line, spellings(op))) {
                // a step of an inlined math routine that carries the caller's line (libdevice has no line table):
                // the rsqrt.approx of acosf, whose documented error bound already covers it
                continue;
            }
            String why = why(facts, in, op, line);
            if (why == null) {
                continue;
            }
            Consequence c = facts.consequences().of(in);
            PtxHit hit = new PtxHit(
                    ruleId(),
                    facts.function(),
                    in,
                    PtxMessages.message(ruleId(), "ptx-approx", "instr", in.text(), "why", why),
                    line == null ? Confidence.MEDIUM : Confidence.HIGH,
                    List.of(),
                    in.mnemonic(),
                    c.kind() == Impact.Kind.BOUNDED ? null : c);
            out.accept(chosen(facts, op, t, line) ? hit.withJudgement(Identity.Judgement.CHOSEN_APPROXIMATION) : hit);
        }
    }

    /**
     * Whether the project's build flags chose the approximation (--use_fast_math maps the library call to it, or
     * -prec-sqrt=false makes the square root approximate) and nothing on the line asks for it by name.
     */
    private static boolean chosen(PtxFacts facts, String op, String type, String line) {
        if (!"f32".equals(type) || SourceText.writesApproximation(line)) return false;
        return op.equals("sqrt") || op.equals("rsqrt")
                ? facts.settings().sqrtBuild() || facts.settings().fastMathBuild()
                : facts.settings().fastMathBuild();
    }

    /**
     * The multiply scales by {@code c} or by {@code -c}: nvcc folds a negation into the constant ({@code __expf(-x)}
     * and, under --use_fast_math, {@code expf(-x)} multiply by -log2(e)).
     */
    private static boolean hasScale(PtxFacts facts, Instruction mul, float c) {
        return facts.hasConst(mul, c) || facts.hasConst(mul, -c);
    }

    /** Parts of the names of the functions that compile to {@code op} as the programmer's own operation. */
    private static String[] spellings(String op) {
        return switch (op) {
            case "sin", "cos" -> new String[] {"sin", "cos", "tan"};
            case "ex2" -> new String[] {"exp", "pow"};
            case "lg2" -> new String[] {"log", "pow"};
            case "sqrt" -> new String[] {"sqrt", "hypot", "norm"};
            case "rsqrt" -> new String[] {"sqrt", "rnorm", "rhypot", "normali"};
            case "tanh" -> new String[] {"tanh"};
            default -> new String[] {op};
        };
    }

    private static String why(PtxFacts facts, Instruction in, String op, String line) {
        boolean fastBuild = facts.ftzMode() || facts.settings().fastMathBuild();
        switch (op) {
            case "ex2" -> {
                Instruction feed = facts.defOf(in, 1);
                boolean fast = feed != null
                        && feed.opcode().equals("mul")
                        && (hasScale(facts, feed, LOG2E) || hasScale(facts, feed, LOG2_10));
                if (!fast && SourceText.calls(line, "__expf", "__exp10f", "__powf")) {
                    fast = true;
                }
                return fast ? PtxMessages.format("NL006", "ptx-why-exp") : null;
            }
            case "lg2" -> {
                boolean fast = false;
                for (int u : facts.defUse().users(in.index())) {
                    Instruction x = facts.function().instruction(u);
                    if (x.opcode().equals("mul") && (hasScale(facts, x, LN2) || hasScale(facts, x, LOG10_2))) {
                        fast = true;
                    }
                }
                if (SourceText.calls(line, "__logf", "__log2f", "__log10f", "__powf")) {
                    fast = true;
                }
                if (fastBuild
                        && SourceText.calls(line, "logf", "log2f", "log10f", "powf", "log", "log2", "log10", "pow")) {
                    fast = true;
                }
                return fast ? PtxMessages.format("NL006", "ptx-why-log") : null;
            }
            case "sin", "cos" -> {
                return PtxMessages.format("NL006", "ptx-why-trig", "op", op);
            }
            case "sqrt" -> {
                return PtxMessages.format("NL006", "ptx-why-sqrt");
            }
            case "rsqrt" -> {
                // __frsqrt_rn is correctly rounded: nvcc seeds its refinement with rsqrt.approx (session 59 round C)
                if (SourceText.calls(line, "__frsqrt_rn") && !SourceText.calls(line, "rsqrtf", "rsqrt", "rnormf"))
                    return null;
                return PtxMessages.format("NL006", "ptx-why-rsqrt");
            }
            case "tanh" -> {
                return PtxMessages.format("NL006", "ptx-why-tanh");
            }
            default -> {
                return null;
            }
        }
    }
}
