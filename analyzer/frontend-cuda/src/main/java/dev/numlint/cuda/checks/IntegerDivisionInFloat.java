package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.knowledge.IntegerQuotients;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.rules.RuleCatalog;

/**
 * NL015 in CUDA/C++ source: an integer division whose quotient is converted to a floating type (Clang's {@code
 * FunctionFacts.integerDivisions}). The loss is certain, a warning, for a division of constants that is not exact
 * ({@code 1 / 24} is 0), a reciprocal {@code 1 / n} and a quotient a rounding function is applied to ({@code
 * ceil(n / 2)}); a quotient of variables is a note that says an integer quotient may be meant ({@link
 * IntegerQuotients} decides for both source layers). A quotient stored into a local that is written again before any
 * read is a note that says so.
 */
@AutoService(CudaCheck.class)
public final class IntegerDivisionInFloat implements CudaCheck {
    @Override
    public String ruleId() {
        return "NL015";
    }

    @Override
    public void check(FunctionFacts facts, CudaReport out) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (FunctionFacts.IntegerDivision d : facts.integerDivisions) {
            // a template's instantiations share the pattern's position: one finding
            if (!seen.add(d.site().line() + ":" + d.site().column())) continue;
            IntegerQuotients.Loss loss =
                    IntegerQuotients.loss(d.dividend(), d.divisor(), d.rounding(), d.indexed(), d.nonNegative());
            if (loss == null) continue;
            // double t_mu = 41 / 2; with t_mu written again before any read: 41 / 2 is 20, but nothing sees it
            if (d.unread()) loss = new IntegerQuotients.Loss(false, "never read: the variable is written again first");
            String msg = RuleCatalog.get()
                    .rule(ruleId())
                    .message(
                            "cuda-integer-division-in-float",
                            "expr",
                            Consequences.quote(d.expression()),
                            "target",
                            d.target(),
                            "consequence",
                            loss.consequence());
            Impact impact = loss.certain() ? null : new Impact(Impact.Kind.BOUNDED, loss.consequence(), null, null);
            out.report(ruleId(), facts.function, d.site(), msg, Confidence.HIGH, impact, null);
        }
    }
}
