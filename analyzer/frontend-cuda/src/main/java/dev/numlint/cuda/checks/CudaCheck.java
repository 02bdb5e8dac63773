package dev.numlint.cuda.checks;

import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.spi.RuleCheck;

/**
 * One rule at the CUDA/C++ source layer. Implementations are registered with
 * {@code @AutoService(CudaCheck.class)}; the front end computes the {@link FunctionFacts} of each function once and
 * passes them to every enabled check. The set of rules the layer implements is derived from the registered checks.
 */
public interface CudaCheck extends RuleCheck {
    /** Checks one function's facts (or the file-level facts, whose {@code function} is null). */
    void check(FunctionFacts facts, CudaReport out);

    /**
     * The check's review of the scan's findings of its rule once every layer has reported and the layers were merged
     * (the front end's {@link dev.numlint.spi.Analyzer} review), with the functions the scanned tree defines or
     * declares: what only the whole project tells (a float routine with a double twin). The default changes nothing.
     */
    default java.util.List<dev.numlint.model.Finding> review(
            java.util.List<dev.numlint.model.Finding> findings,
            java.util.List<dev.numlint.model.DeclaredFunction> functions) {
        return findings;
    }
}
