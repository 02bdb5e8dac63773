package dev.numlint.validation.gpu;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a GPU child process reports back, as JSON in its working directory: device facts (or why no GPU can be used)
 * and, per launch, its outcome with the output buffers in files. Rewritten before every launch, so that after a
 * crash or a timeout {@link #running} names the launch that was in progress and the earlier outcomes survive.
 */
public final class GpuJobResult {
    public Map<String, String> facts = new LinkedHashMap<>();
    /** Why no GPU can be used (the probe's answer, or why the launches were not made). */
    public String unavailable;
    /** The launch in progress ("build as-built, input set 0"), null once the child has finished. */
    public String running;

    public List<Outcome> launches = new ArrayList<>();

    public GpuJobResult() {}

    /** The outcome of one launch. */
    public static final class Outcome {
        public String variant;
        public int set;
        /** "ok", "failed" (the driver reported an error) or "not-run" (the context was lost before). */
        public String status;
        /** The driver's error for failed, the reason for not-run. */
        public String error;
        /** Output buffers after the first launch: parameter index to file. */
        public Map<Integer, String> outputs = new LinkedHashMap<>();

        public float[] kernelMillis;
        /** A replayed launch: whether every timed repeat left the same bytes as the first launch. */
        public Boolean repeatsIdentical;

        public Outcome() {}
    }
}
