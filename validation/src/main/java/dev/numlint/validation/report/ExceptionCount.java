package dev.numlint.validation.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Floating-point exceptions one PTX instruction raised in the as-built run on the interpreter, as GPU-FPX counts
 * them in instrumented runs: NaN or infinity from finite operands, division by zero, operands or results flushed
 * by .ftz, conversions to an integer out of its range. Counts of executions (one per thread and instruction).
 */
@JsonPropertyOrder({"ptxLine", "instruction", "source", "counts"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class ExceptionCount {
    public Integer ptxLine;
    public String instruction;
    /** file:line:column from the PTX's .loc, or null. */
    public String source;
    /** nanFromFinite, infFromFinite, divisionByZero, ftzFlushed, conversionOverflow: only those seen. */
    public Map<String, Long> counts = new LinkedHashMap<>();

    public ExceptionCount() {}

    /** The instructions of p that raised exceptions (p decoded with exceptions counted, after its runs). */
    public static java.util.List<ExceptionCount> of(dev.numlint.validation.interp.Program p) {
        java.util.List<ExceptionCount> out = new java.util.ArrayList<>();
        for (int s = 0; s < p.exceptionSites.size(); s++) {
            long[] row = p.exceptions[s];
            ExceptionCount e = null;
            for (int k = 0; k < row.length; k++) {
                if (row[k] == 0) continue;
                if (e == null) {
                    var site = p.exceptionSites.get(s);
                    e = new ExceptionCount();
                    e.ptxLine = site.ptxLine() > 0 ? site.ptxLine() : null;
                    e.instruction = site.text() == null
                            ? null
                            : site.text().replaceAll("\\s+", " ").trim();
                    e.source = site.source();
                }
                e.counts.merge(dev.numlint.validation.interp.Program.EXCEPTION_NAMES.get(k), row[k], Long::sum);
            }
            if (e != null) out.add(e);
        }
        return out;
    }

    /**
     * The exceptions of the instructions on a finding's source line (file and line of its .loc) or, without one,
     * on its PTX line.
     */
    public static Map<String, Long> at(java.util.List<ExceptionCount> all, String file, Integer line, Integer ptxLine) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (ExceptionCount e : all) {
            boolean here;
            if (file != null && line != null && e.source != null) {
                String[] parts = e.source.split(":");
                here = parts.length >= 2
                        && e.source.startsWith(file + ":")
                        && parts[parts.length - (e.source.matches(".*:\\d+:\\d+$") ? 2 : 1)].equals(
                                Integer.toString(line));
            } else here = ptxLine != null && ptxLine.equals(e.ptxLine);
            if (here) e.counts.forEach((k, v) -> m.merge(k, v, Long::sum));
        }
        return m;
    }
}
