package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.rules.RuleCatalog;

/** NL009: a floating atomic add; the order of the additions and so the sum vary from run to run. */
@AutoService(CudaCheck.class)
public final class FloatAtomic implements CudaCheck {
    @Override
    public String ruleId() {
        return "NL009";
    }

    @Override
    public void check(FunctionFacts facts, CudaReport out) {
        for (FunctionFacts.Atomic a : facts.atomics) {
            if (!a.floating()) continue;
            String msg = RuleCatalog.get()
                    .rule("NL009")
                    .message("cuda-atomic", "expr", Consequences.quote(a.site().text()), "type", a.type());
            out.report(
                    "NL009",
                    facts.function,
                    a.site(),
                    msg,
                    a.inferred() ? Confidence.LOW : Confidence.HIGH,
                    new Impact(Impact.Kind.AMPLIFIED, "added atomically in a run-dependent order", null, null),
                    null);
        }
    }
}
