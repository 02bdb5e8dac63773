package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.rules.RuleCatalog;

/**
 * NL012: float data computed in reduced precision on tensor cores: cuBLAS/cuBLASLt math modes and compute types that
 * allow TF32/FP16/BF16, cuDNN math types that allow down-conversion, WMMA {@code precision::tf32} fragments and
 * half/bfloat16 fragments filled from float data. Half data multiplied in half precision is what the program asked
 * for and is never flagged (the front end records a half fragment only when the function converts float data).
 */
@AutoService(CudaCheck.class)
public final class ReducedPrecisionMath implements CudaCheck {
    @Override
    public String ruleId() {
        return "NL012";
    }

    @Override
    public void check(FunctionFacts facts, CudaReport out) {
        RuleCatalog cat = RuleCatalog.get();
        for (FunctionFacts.TensorMath t : facts.tensorMath) {
            String text = t.site().text();
            int open = text.indexOf('(');
            boolean mode = t.construct().startsWith("CU");
            String expr = mode && open > 0 ? t.construct() : Consequences.quote(text);
            // significant bits: TF32 and FP16 keep 11, BF16 keeps 8
            String bound = t.effect().contains("BF16") ? "2^-8" : "2^-11";
            String msg = mode
                    ? cat.rule("NL012").message("cuda-mode", "expr", expr, "effect", t.effect(), "bound", bound)
                    : cat.rule("NL012")
                            .message(
                                    "cuda-fragment",
                                    "expr",
                                    expr,
                                    "what",
                                    t.effect(),
                                    "bound",
                                    bound,
                                    "evidence",
                                    t.evidence() == null ? "" : " (converted at " + t.evidence() + ")");
            Impact impact = new Impact(
                            Impact.Kind.AMPLIFIED,
                            "every product of the float data is rounded to reduced precision",
                            null,
                            null)
                    .withErrorBound(bound + " relative per product");
            if (mode) {
                // a math-mode call is a setting of its own, made at its line
                out.report("NL012", facts.function, t.site(), msg, Confidence.HIGH, impact, null);
            } else {
                // the kernel's fragments of one reduced format are one decision (with the PTX layer's conversions)
                out.reportDecision("NL012", facts.function, t.site(), msg, Confidence.HIGH, impact, bound);
            }
        }
    }
}
