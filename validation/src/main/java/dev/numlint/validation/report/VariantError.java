package dev.numlint.validation.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/** Error of one build variant's outputs against the high-precision reference. */
@JsonPropertyOrder({
    "variant",
    "flags",
    "maxAbsError",
    "maxRelError",
    "maxRelErrorNote",
    "meanAbsError",
    "elementsDifferingFromAsBuilt",
    "gpuMaxAbsError",
    "gpuMeanAbsError",
    "gpuKernelMillis",
    "gpuReason",
    "reason"
})
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class VariantError {
    public String variant;
    public List<String> flags;
    public Double maxAbsError;
    /** Null when undefined: some reference element is 0 where this build's is not, or a result is NaN. */
    public Double maxRelError;
    /** Why maxRelError is absent, e.g. "undefined: reference is 0". */
    public String maxRelErrorNote;

    public Double meanAbsError;
    public Long elementsDifferingFromAsBuilt;
    /** The GPU's outputs of this variant against the reference (null without a GPU). */
    public Double gpuMaxAbsError;

    public Double gpuMeanAbsError;
    /** Median kernel time on the GPU (CUDA events) over the timed repeats of every input set, milliseconds. */
    public Double gpuKernelMillis;
    /** Why this variant did not run on the GPU. */
    public String gpuReason;
    /** Set when the variant could not be built or run. */
    public String reason;

    public VariantError() {}
}
