package dev.numlint.validation.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.numlint.model.Verdict;
import java.util.Map;

/**
 * The verdict for one hazard found in a kernel (a rule with its first evidence as the scan's PTX rules found it):
 * PTX line and instruction, source file, line and column, and the distribution of the ULP differences it causes.
 */
@JsonPropertyOrder({
    "rule",
    "source",
    "sourceLine",
    "sourceColumn",
    "line",
    "evidence",
    "verdict",
    "elementsDiffering",
    "ulpHistogram",
    "exceptions",
    "fusedInMachineCode",
    "machineCode"
})
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class FindingResult {
    public String rule;
    /** The source file of the evidence (from the PTX's .loc; the user's call site when inlined). */
    public String source;

    public Integer sourceLine;
    public Integer sourceColumn;
    /** PTX line of the evidence. */
    public Integer line;

    public String evidence;
    public Verdict verdict;
    public Long elementsDiffering;
    /**
     * ULP distance between the as-built build and the build with only this hazard switched off (NL001: between the
     * GPU and the x86 conversion), per element, in buckets "1", "2-3", "4-15", "16-255", "256-65535", ">=65536",
     * "nan-mismatch"; elements at distance 0 are not counted.
     */
    public Map<String, Long> ulpHistogram;
    /** NL003: whether the SASS of the as-built build has a fused multiply-add at the evidence (null: not read). */
    public Boolean fusedInMachineCode;
    /** NL003: the machine instructions at the evidence's PTX line, or why the SASS was not read. */
    public String machineCode;

    /**
     * Floating-point exceptions raised by the as-built run's instructions on this finding's source line (or its
     * PTX line): kind to executions; null when not counted.
     */
    public Map<String, Long> exceptions;

    public FindingResult() {}

    /** The histogram bucket of a nonzero ULP distance. */
    public static String bucket(long ulp) {
        if (ulp == Long.MAX_VALUE) return "nan-mismatch";
        if (ulp <= 1) return "1";
        if (ulp <= 3) return "2-3";
        if (ulp <= 15) return "4-15";
        if (ulp <= 255) return "16-255";
        if (ulp <= 65535) return "256-65535";
        return ">=65536";
    }
}
