package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FlagCitation;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.rules.RuleCatalog;

/**
 * NL006: fast approximate math. The intrinsics ({@code __sinf}, {@code __expf} ...) are always reported at the
 * rule's level; library calls that --use_fast_math maps to them, and square roots under -prec-sqrt=false, get
 * their level from what the result decides.
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
            if (c.fastIntrinsic() && !c.base().startsWith("__")) {
                // a device math function that is approximate whatever the flags (rsqrtf): its level follows what
                // the result decides, as for the library calls --use_fast_math maps to intrinsics
                Impact impact = Consequences.of(c.site(), out);
                String consequence = impact.kind() == Impact.Kind.BOUNDED && asm(c.base())
                        ? Consequences.phrase("use-asm-operand")
                        : impact.consequence();
                Consequences.report(
                        out,
                        "NL006",
                        facts.function,
                        c.site(),
                        intrinsicMessage(expr, cpuCounterpart(c.base()), consequence),
                        Confidence.HIGH,
                        impact,
                        null);
            } else if (c.fastIntrinsic()) {
                Impact impact = Consequences.of(c.site(), out);
                if (impact.kind() == Impact.Kind.BOUNDED) impact = null; // intrinsics are always worth a look
                String consequence = impact == null
                        ? Consequences.phrase(
                                "unlike-cpu-function", "fn", c.base().substring(2))
                        : impact.consequence();
                if (impact == null) out.consequenceWithoutDecision(c.site(), consequence);
                out.report(
                        "NL006",
                        facts.function,
                        c.site(),
                        intrinsicMessage(expr, c.base().substring(2), consequence),
                        Confidence.HIGH,
                        impact,
                        null);
            } else if (c.site().device() && out.build().effectiveFastMath() && c.fastMathTarget() != null) {
                FlagCitation fl = out.flag(ApproximateDivision::fastMath, "--use_fast_math");
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
