package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.model.Confidence;
import dev.numlint.rules.RuleCatalog;

/**
 * NL010: a transcendental function in {@code __host__ __device__} code, where the CPU's libm and CUDA's math library
 * legitimately return different results for the same argument.
 */
@AutoService(CudaCheck.class)
public final class MathLibraryDivergence implements CudaCheck {
    @Override
    public String ruleId() {
        return "NL010";
    }

    @Override
    public void check(FunctionFacts facts, CudaReport out) {
        for (FunctionFacts.MathCall c : facts.calls) {
            if (!c.transcendental() || !c.site().device() || !c.site().host()) continue;
            String ulp = c.base().endsWith("f") ? "up to 2 ulp" : "up to 1-2 ulp";
            out.report(
                    "NL010",
                    facts.function,
                    c.site(),
                    RuleCatalog.get()
                            .rule("NL010")
                            .message(
                                    "cuda-library",
                                    "expr",
                                    Consequences.quote(c.site().text()),
                                    "fn",
                                    c.base(),
                                    "ulp",
                                    ulp),
                    Confidence.HIGH,
                    null,
                    null);
        }
    }
}
