package dev.numlint.validation.report;

import java.util.ArrayList;
import java.util.List;

/** {"kernels": [...]} */
public final class ValidationReport {
    public List<KernelResult> kernels = new ArrayList<>();

    public ValidationReport() {}

    public long count(Verdict v) {
        return kernels.stream().filter(k -> k.verdict == v).count();
    }
}
