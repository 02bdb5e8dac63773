package dev.numlint.validation.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.numlint.model.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {"environment": {...}, "kernels": [...]} */
@JsonPropertyOrder({"environment", "kernels"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class ValidationReport {
    /**
     * Facts of the run: executor, gpu mode, whether a GPU was used (and why not), device name, compute capability,
     * driver CUDA version, nvcc version, PTX arch.
     */
    public Map<String, String> environment = new LinkedHashMap<>();

    public List<KernelResult> kernels = new ArrayList<>();

    public ValidationReport() {}

    public long count(Verdict v) {
        return kernels.stream().filter(k -> k.verdict == v).count();
    }
}
