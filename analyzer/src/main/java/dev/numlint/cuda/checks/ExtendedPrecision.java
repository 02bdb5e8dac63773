package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.model.Confidence;
import dev.numlint.rules.RuleCatalog;

/** NL005: long double in host code, evaluated in 80-bit x87 precision on x86 and in 64 bits everywhere else. */
@AutoService(CudaCheck.class)
public final class ExtendedPrecision implements CudaCheck {
    @Override
    public String ruleId() {
        return "NL005";
    }

    @Override
    public void check(FunctionFacts facts, CudaReport out) {
        for (FunctionFacts.LongDouble l : facts.longDoubles) {
            if (!l.site().host()) continue;
            out.report(
                    "NL005",
                    facts.function,
                    l.site(),
                    RuleCatalog.get().rule("NL005").message("cuda-long-double", "what", what(l.what())),
                    Confidence.HIGH,
                    null,
                    null);
        }
    }

    /** "'x'" as it is; a cast "cast (long double)expr" quoted and shortened like every expression. */
    static String what(String what) {
        return what.startsWith("cast ") ? "cast '" + Consequences.quote(what.substring(5)) + "'" : what;
    }
}
