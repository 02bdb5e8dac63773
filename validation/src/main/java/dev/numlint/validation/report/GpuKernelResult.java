package dev.numlint.validation.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.numlint.model.Verdict;
import java.util.ArrayList;
import java.util.List;

/** The GPU's side of a kernel's validation: as-built against strict on the GPU, and GPU against the interpreter. */
@JsonPropertyOrder({
    "verdict",
    "fault",
    "elementsCompared",
    "elementsDiffering",
    "maxUlp",
    "meanUlp",
    "closerToReference",
    "attribution",
    "strictAgreement",
    "asBuiltAgreement",
    "variantAgreement",
    "recordedAgreement",
    "repeatable",
    "reason"
})
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class GpuKernelResult {
    /**
     * The GPU's own verdict: confirmed / not-observed from the GPU's as-built against strict builds, not-runnable
     * when the GPU run faulted (see {@link #fault}); null when the GPU could not compare the two builds.
     */
    public Verdict verdict;
    /**
     * The GPU fault of this kernel, naming the kernel, the build and input set, and the error: a launch error
     * (e.g. CUDA_ERROR_ILLEGAL_ADDRESS), or the kernel's child process crashed or exceeded its time limit.
     */
    public String fault;

    public long elementsCompared;
    /** Elements where the GPU's as-built output differs from the GPU's strict output. */
    public long elementsDiffering;

    public long maxUlp;
    public double meanUlp;
    public String closerToReference;
    public List<Attribution> attribution = new ArrayList<>();
    /** GPU strict against interpreter strict: must be bit-exact; any difference is a discrepancy to explain. */
    public Agreement strictAgreement;
    /** GPU as-built against interpreter as-built: differences expected only from approximate instructions. */
    public Agreement asBuiltAgreement;
    /** GPU against interpreter for the single-switch variants. */
    public List<Agreement> variantAgreement = new ArrayList<>();
    /** Replay: the GPU's as-built outputs against the outputs recorded after the launch, bit for bit. */
    public Agreement recordedAgreement;
    /** Replay: whether the GPU's timed repeats of the as-built launch left the same bytes as the first. */
    public Boolean repeatable;
    /** Set when the GPU runs could not be made (e.g. a launch error). */
    public String reason;

    public GpuKernelResult() {}
}
