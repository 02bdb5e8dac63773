package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.knowledge.FloatExactness;
import dev.numlint.knowledge.ToleranceUse;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.rules.RuleCatalog;

/**
 * NL014 in CUDA/C++ source: a float literal whose float value is not the number it denotes ({@code 0.1f}) widened
 * to double by the double arithmetic or the double target it reaches ({@code double d = 0.1f}, {@code r = x * 0.1f}
 * with double {@code x} and {@code r}): the double result carries float's rounding error of the constant, up to
 * 2^-24 (6e-8) relative, about 10^8 times double's. A warning where the value it computes decides something, becomes an
 * integer or an index, or cancels ({@link Consequences#of}); else a note: a result off by 2^-24 relative that nothing
 * amplifies is off by as much, far below what the code's outputs resolve in every evaluation so far. A literal
 * spelled to float's full precision (8 or more significant digits: FLT_EPSILON, FLT_MIN as the headers spell them) or
 * whose value is a power of two names that float on purpose: not reported. A round literal
 * (an order of magnitude: {@code 1e-10f}, {@code 0.01f}) used as a tolerance ({@link ToleranceUse}: a guard in a
 * denominator or under sqrt/log, a bound of max/min, a threshold, or a local initialised with it and used only so) is
 * a note with a bounded impact: its float rounding, 2^-24 relative, does not change what it guards; the PTX layer's
 * finding of the same line does not raise it (scan/LayerMerge keeps a source finding's bounded impact).
 */
@AutoService(CudaCheck.class)
public final class FloatLiteralInDouble implements CudaCheck {
    @Override
    public String ruleId() {
        return "NL014";
    }

    @Override
    public void check(FunctionFacts facts, CudaReport out) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (FunctionFacts.WidenedLiteral w : facts.widenedLiterals) {
            FloatExactness.Widening parts = FloatExactness.widening(w.literal());
            if (parts == null || !seen.add(w.site().line() + "|" + w.literal())) continue;
            String use = tolerance(w);
            if (use != null) {
                String note = RuleCatalog.get()
                        .rule(ruleId())
                        .message(
                                "cuda-tolerance",
                                "literal",
                                w.literal(),
                                "expr",
                                Consequences.quote(w.expression()),
                                "use",
                                use);
                out.report(
                        ruleId(),
                        facts.function,
                        w.site(),
                        note,
                        Confidence.HIGH,
                        new Impact(Impact.Kind.BOUNDED, RuleCatalog.get().phrase("tolerance-rounding"), null, null),
                        null);
                continue;
            }
            String msg = RuleCatalog.get()
                    .rule(ruleId())
                    .message(
                            "cuda-widened",
                            "literal",
                            w.literal(),
                            "expr",
                            Consequences.quote(w.expression()),
                            "target",
                            w.target(),
                            "value",
                            parts.value(),
                            "error",
                            parts.error(),
                            "decimal",
                            parts.decimal());
            // consequence over existence: the constant is off by at most 2^-24 relative, and so is what it computes;
            // a warning where that value decides something, becomes an integer or an index, or cancels (three
            // evaluations judged every stored one tolerable: session 25's 38, session 33's 9, session 49's 18)
            Impact impact = Consequences.of(w.site(), out);
            if (impact.kind() != Impact.Kind.AMPLIFIED && impact.kind() != Impact.Kind.CANCELLATION)
                impact = new Impact(Impact.Kind.BOUNDED, RuleCatalog.get().phrase("widened-stored"), null, null);
            out.report(ruleId(), facts.function, w.site(), msg, Confidence.HIGH, impact, null);
        }
    }

    /**
     * How the widened literal is a tolerance ({@link ToleranceUse}), or null: a round literal in a tolerance's place
     * of its expression, or the initialiser of a local whose every use is one.
     */
    public static String tolerance(FunctionFacts.WidenedLiteral w) {
        if (!ToleranceUse.round(w.literal())) return null;
        String use = ToleranceUse.use(w.expression(), w.literal());
        if (use != null) return use;
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("initialization of '([A-Za-z_][A-Za-z_0-9]*)'")
                .matcher(w.target());
        // the local holds the constant itself (const double floor_v = 1e-10f), not a value computed with it (double
        // s = x * 3.7f, then if (s > limit): s is the value compared, not the threshold)
        String held = w.expression().replaceAll("[\\s()]", "");
        if (m.matches() && w.function() != null && held.equals(w.literal())) {
            String local = ToleranceUse.usesOf(w.function(), m.group(1));
            if (local != null) return local + " (as '" + Consequences.shortQuote(m.group(1)) + "')";
        }
        return null;
    }
}
