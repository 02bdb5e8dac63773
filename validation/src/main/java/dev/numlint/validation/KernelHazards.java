package dev.numlint.validation;

import dev.numlint.ptx.facts.PtxFacts;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Operand;
import dev.numlint.ptx.model.PtxFunction;
import dev.numlint.ptx.model.PtxModule;
import dev.numlint.ptx.model.SourcePos;
import dev.numlint.ptx.rules.PtxHit;
import dev.numlint.ptx.rules.PtxRules;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The hazards of one kernel as the scan's PTX rules ({@link PtxRules}, the same checks the scan runs) find them in
 * the kernel and the .func routines it calls: per rule the first finding, with its PTX line, instruction and
 * source position. Validation takes its hazards from here (and its kernels from the scan's findings), so it never
 * validates a hazard the scan does not report.
 */
public final class KernelHazards {
    private KernelHazards() {}

    /** One rule's first evidence in a kernel: PTX line, instruction text and source position (file:line:col). */
    public record Hit(String rule, int line, String text, String source, int sourceLine, int sourceColumn) {}

    /** Hazards of kernel in m, by rule id, counting long accumulations as the catalog's default does. */
    public static Map<String, Hit> of(PtxModule m, String kernel, boolean fastMath) {
        return of(m, kernel, fastMath, -1);
    }

    /**
     * Hazards of kernel in m, by rule id; fastMath: the file is built with --use_fast_math; minTripCount: the shortest
     * loop that is a long accumulation, as the scan was configured ({@link ValidationOptions#ruleSettings} through
     * {@code PtxFacts.minTripCount}; below 0: the catalog's default).
     */
    public static Map<String, Hit> of(PtxModule m, String kernel, boolean fastMath, int minTripCount) {
        Map<String, Hit> hits = new LinkedHashMap<>();
        Deque<PtxFunction> todo = new ArrayDeque<>();
        Set<String> seen = new HashSet<>();
        PtxFunction k = m.function(kernel);
        if (k == null) return hits;
        todo.add(k);
        int trips = minTripCount >= 0 ? minTripCount : dev.numlint.ptx.facts.PtxFacts.minTripCount(null);
        PtxFacts.Settings settings = new PtxFacts.Settings(trips, fastMath, loc -> null);
        while (!todo.isEmpty()) {
            PtxFunction f = todo.poll();
            if (!seen.add(f.name()) || f.isDeclarationOnly()) continue;
            for (PtxHit h : PtxRules.check(f, settings, id -> true)) {
                Instruction at = h.at();
                SourcePos p = at.loc() == null ? null : at.loc().userPos();
                String text = at.text() == null
                        ? at.opcode()
                        : at.text().replaceAll("\\s+", " ").trim();
                hits.putIfAbsent(
                        h.ruleId(),
                        new Hit(
                                h.ruleId(),
                                at.ptxLine(),
                                text,
                                p == null || p.line() <= 0 ? null : p.file(),
                                p == null ? 0 : p.line(),
                                p == null ? 0 : p.column()));
            }
            for (Instruction in : f.instructions()) {
                if (!in.opcode().equals("call")) continue;
                for (Operand o : in.operands()) {
                    PtxFunction g = m.function(o.toString().trim());
                    if (g != null) todo.add(g);
                }
            }
        }
        return hits;
    }
}
