package dev.numlint.cuda;

import dev.numlint.cuda.checks.CudaCheck;
import dev.numlint.cuda.clang.ClangSupplement;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.model.Layer;
import dev.numlint.spi.Checks;
import java.util.List;
import java.util.Set;

/** The checks of the CUDA source layer, found through their {@code @AutoService(CudaCheck.class)} registration. */
final class CudaChecks {
    private static final List<CudaCheck> CHECKS = Checks.load(CudaCheck.class, Layer.CUDA_SOURCE);

    private CudaChecks() {}

    static Set<String> ruleIds() {
        return Checks.ruleIds(CHECKS);
    }

    /**
     * Runs every enabled check on one function's (or the file's) facts, after Clang's corrections when Clang read the
     * file ({@code clang} not null).
     */
    static void run(FunctionFacts facts, Reporter rep, ClangSupplement clang) {
        if (rep.archBranches != null) rep.archBranches.mark(facts);
        if (clang != null) clang.amend(facts);
        for (FunctionFacts.Atomic a : facts.atomics)
            rep.atomicLines.add(a.site().line());
        for (CudaCheck c : CHECKS) {
            if (rep.enabled(c.ruleId())) c.check(facts, rep);
        }
    }

    /** Each check's review of the scan's findings ({@link CudaCheck#review}), in the checks' order. */
    static List<dev.numlint.model.Finding> review(
            List<dev.numlint.model.Finding> findings, List<dev.numlint.model.DeclaredFunction> functions) {
        List<dev.numlint.model.Finding> out = findings;
        for (CudaCheck c : CHECKS) out = c.review(out, functions);
        return out;
    }
}
