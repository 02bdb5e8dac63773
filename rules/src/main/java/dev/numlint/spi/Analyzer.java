package dev.numlint.spi;

import dev.numlint.model.Layer;
import java.nio.file.Path;
import java.util.List;

/**
 * One front end of numlint (build flags, CUDA source, PTX, Java source). The scan discovers files, hands each
 * analyzer the files it {@link #accepts}, phase by phase, and collects what the analyzers report through the
 * {@link FindingSink}. Implementations are found with {@link java.util.ServiceLoader}.
 *
 * <p>Contract:
 * <ul>
 *   <li>Never throw for bad input: report a {@link dev.numlint.model.Notification} naming the file and reason and
 *       go on. An exception escaping {@link #analyze} is reported by the scan as an internal error for those
 *       files.</li>
 *   <li>May run files in parallel on {@link ScanContext#executor()}; the scan sorts output, so order does not
 *       matter.</li>
 *   <li>Check {@link ScanContext#rules()} before reporting: disabled rules must not be reported.</li>
 * </ul>
 */
public interface Analyzer {
    /** Phase 0 builds context (build flags); phase 1 finds links (Java host code); phase 2 analyzes kernels. */
    int PHASE_CONTEXT = 0;

    int PHASE_HOST = 1;
    int PHASE_KERNEL = 2;

    /** Short id, e.g. "build-flags", "cuda-source", "ptx", "java-source". */
    String id();

    Layer layer();

    default int phase() {
        return PHASE_KERNEL;
    }

    /** Rule ids this analyzer implements at its layer (the consistency test checks these against the catalog). */
    java.util.Set<String> implementedRules();

    /** Whether this analyzer wants the file ({@code file} is the path relative to the scan root). */
    boolean accepts(Path file);

    /** Analyze {@code files} (absolute paths). */
    void analyze(ScanContext ctx, List<Path> files, FindingSink sink);
}
