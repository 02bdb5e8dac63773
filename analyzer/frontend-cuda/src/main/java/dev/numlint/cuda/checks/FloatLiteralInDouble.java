package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.knowledge.FloatExactness;
import dev.numlint.model.Confidence;
import dev.numlint.rules.RuleCatalog;

/**
 * NL014 in CUDA/C++ source: a float literal whose float value is not the number it denotes ({@code 0.1f}) widened
 * to double by the double arithmetic or the double target it reaches ({@code double d = 0.1f}, {@code r = x * 0.1f}
 * with double {@code x} and {@code r}): the double result carries float's rounding error of the constant, up to
 * 2^-24 (6e-8) relative, about 10^8 times double's. Always a warning: the value is wrong at double precision wherever it
 * goes. A literal spelled to float's full precision (8 or more significant digits: FLT_EPSILON, FLT_MIN as the
 * headers spell them) or whose value is a power of two names that float on purpose: not reported.
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
            out.report(ruleId(), facts.function, w.site(), msg, Confidence.HIGH, null, null);
        }
    }
}
