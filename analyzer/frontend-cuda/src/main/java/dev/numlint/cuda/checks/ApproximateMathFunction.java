package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FlagCitation;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.rules.RuleCatalog;

/**
 * NL006: fast approximate math. The intrinsics written by name ({@code __sinf}, {@code __expf}, {@code rsqrtf} ...),
 * library calls that --use_fast_math maps to them, and square roots under -prec-sqrt=false get their level from what
 * the result decides: an intrinsic whose result only goes on in arithmetic or is stored is a note that says the
 * approximation was chosen by name (session 42: reviewers judged every such warning of two evaluations deliberate).
 */
@AutoService(CudaCheck.class)
public final class ApproximateMathFunction implements CudaCheck {
    @Override
    public String ruleId() {
        return "NL006";
    }

    @Override
    public void check(FunctionFacts facts, CudaReport out) {
        RuleCatalog cat = RuleCatalog.get();
        for (FunctionFacts.MathCall c : facts.calls) {
            String expr = Consequences.quote(c.site().text());
            if (c.fastIntrinsic()) {
                // an approximate device function written by name (__sinf, __expf, rsqrtf): the author's choice, its
                // level follows what the result decides, as for the library calls --use_fast_math maps to intrinsics
                boolean underscored = c.base().startsWith("__");
                String fn = underscored ? c.base().substring(2) : cpuCounterpart(c.base());
                Impact impact = Consequences.of(c.site(), out);
                String consequence = impact.consequence();
                if (impact.kind() == Impact.Kind.BOUNDED && asm(c.base())) {
                    consequence = Consequences.phrase("use-asm-operand");
                } else if (impact.kind() == Impact.Kind.BOUNDED && underscored) {
                    // its error is the intrinsic's (2^-21.4 absolute for __sinf on [-pi, pi]), not a few ulp
                    consequence = chosen(impact);
                    out.consequenceWithoutDecision(c.site(), consequence); // the PTX layer may follow it further
                    impact = new Impact(
                            Impact.Kind.BOUNDED, consequence, impact.sink(), impact.errorBound(), impact.reach());
                }
                Consequences.report(
                        out,
                        "NL006",
                        facts.function,
                        c.site(),
                        intrinsicMessage(expr, fn, consequence),
                        Confidence.HIGH,
                        impact,
                        null);
            } else if (c.site().device() && out.build().effectiveFastMath() && c.fastMathTarget() != null) {
                FlagCitation fl = out.flag(ApproximateDivision::fastMath, "--use_fast_math");
                out.deviceOnly("NL006", c.site()); // nvcc's flag changes device code only
                Impact impact = Consequences.of(c.site(), out);
                Consequences.report(
                        out,
                        "NL006",
                        facts.function,
                        c.site(),
                        cat.rule("NL006")
                                .message(
                                        "cuda-fast-math",
                                        "expr",
                                        expr,
                                        "target",
                                        c.fastMathTarget(),
                                        "flag",
                                        fl.origin() != null ? fl.origin().flag() : fl.text(),
                                        "consequence",
                                        impact.consequence()),
                        Confidence.HIGH,
                        impact,
                        fl,
                        true);
            } else if (c.site().device() && !out.build().effectivePrecSqrt() && c.floatSqrt()) {
                FlagCitation fl = out.flag(
                        x -> x.contains("prec-sqrt") || ApproximateDivision.fastMath(x),
                        Boolean.FALSE.equals(out.build().precSqrt()) ? "-prec-sqrt=false" : "--use_fast_math");
                out.deviceOnly("NL006", c.site());
                Impact impact = Consequences.of(c.site(), out);
                Consequences.report(
                        out,
                        "NL006",
                        facts.function,
                        c.site(),
                        cat.rule("NL006")
                                .message(
                                        "cuda-approx-sqrt",
                                        "expr",
                                        expr,
                                        "flag",
                                        fl.origin() != null ? fl.origin().flag() : fl.text(),
                                        "consequence",
                                        impact.consequence()),
                        Confidence.HIGH,
                        impact,
                        fl,
                        true);
            }
        }
    }

    /**
     * The consequence of an intrinsic written by name whose result decides nothing: where it goes, and that the
     * approximation was chosen (NL002's {@code __fdividef} too).
     */
    static String chosen(Impact bounded) {
        String use = bounded.consequence() == null ? "decides nothing" : bounded.consequence();
        int cut = use.indexOf(": ");
        if (cut > 0) use = use.substring(0, cut); // "only stored (line 9): a few ulp at most" -> where it goes
        return Consequences.phrase("chosen-by-name", "message", use);
    }

    /** NL006's message for a fast approximation {@code expr} of the CPU's {@code fn}. */
    private static String intrinsicMessage(String expr, String fn, String consequence) {
        return RuleCatalog.get()
                .rule("NL006")
                .message("cuda-fast-intrinsic", "expr", expr, "fn", fn, "consequence", consequence);
    }

    /** Whether {@code name} is an instruction of an asm statement ({@code ex2.approx.f32}), not a function. */
    static boolean asm(String name) {
        return name != null && name.indexOf('.') > 0;
    }

    /** What the CPU computes for an approximate device function: {@code 1/sqrtf} for {@code rsqrtf}. */
    private static String cpuCounterpart(String base) {
        String asm = dev.numlint.knowledge.InlinePtx.cpu(base); // an instruction of an asm statement
        return asm != null
                ? asm
                : dev.numlint.knowledge.NumericFacts.APPROXIMATE_DEVICE_FUNCTIONS.getOrDefault(base, base);
    }
}
