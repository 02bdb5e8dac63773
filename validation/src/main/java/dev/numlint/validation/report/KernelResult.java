package dev.numlint.validation.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.numlint.model.Verdict;
import java.util.ArrayList;
import java.util.List;

/** Validation of one kernel: the as-built build against the IEEE-strict build and the reference. */
@JsonPropertyOrder({
    "file",
    "kernel",
    "executor",
    "verdict",
    "inputs",
    "elementsCompared",
    "elementsDiffering",
    "maxUlp",
    "meanUlp",
    "closerToReference",
    "attribution",
    "gpu",
    "reason",
    "build",
    "launch",
    "findings",
    "variants",
    "exceptions",
    "notes"
})
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class KernelResult {
    public String file;
    public String kernel;
    /** "cpu-interpreter" (or a GPU executor's name). */
    public String executor;

    public Verdict verdict;
    /** Number of input sets run. */
    public int inputs;

    public long elementsCompared;
    public long elementsDiffering;
    /** Largest ULP distance between as-built and strict outputs (NaN against a number counts as Long.MAX_VALUE). */
    public long maxUlp;

    public double meanUlp;
    /** "as-built", "strict" or "equal": which build's outputs are closer to the reference (mean absolute error). */
    public String closerToReference;

    @JsonInclude(JsonInclude.Include.ALWAYS)
    public List<Attribution> attribution = new ArrayList<>();
    /** The GPU runs of the same variants on the same inputs (null when no GPU executor is active). */
    public GpuKernelResult gpu;
    /** Why the verdict is what it is (mandatory for not-runnable). */
    public String reason;
    /**
     * The command the builds were made with: the project's own compile command for the unit (and where it came
     * from), numlint's guess when no build gives one, or the PTX as given or recorded.
     */
    public String build;
    /**
     * Where each launch parameter came from: "source" (spec file, host code at file:line, or inferred from the
     * PTX), then grid, block, shared and each kernel parameter by name.
     */
    public java.util.Map<String, String> launch = new java.util.LinkedHashMap<>();
    /** The launch spec the kernel ran with (for --write-spec; not part of the JSON report). */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public dev.numlint.validation.input.KernelSpec spec;

    public List<FindingResult> findings = new ArrayList<>();
    public List<VariantError> variants = new ArrayList<>();
    /** Caveats, e.g. approximate instructions modelled from their documented definitions. */
    public List<String> notes = new ArrayList<>();
    /** Floating-point exceptions per PTX instruction of the as-built run (replay: on the recorded inputs). */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
    public List<ExceptionCount> exceptions = new ArrayList<>();

    public KernelResult() {}
}
