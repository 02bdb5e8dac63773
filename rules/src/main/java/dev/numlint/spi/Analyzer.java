package dev.numlint.spi;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

    /**
     * Called once per scan, on the scan's thread, when the scan has found the files it will give this analyzer
     * ({@code files}, absolute paths; their build context not read yet) and before its first phase runs: an analyzer
     * may begin in the background what those files will need and is slow to start, so that it overlaps the phases
     * before its own. It reports nothing and must not throw; the default does nothing.
     */
    default void prepare(ScanContext ctx, List<Path> files) {}

    /**
     * This analyzer configured with the build-model options of the scan ({@code -p}, {@code --make-target},
     * {@code --cmake-define}, {@code --preset}); an analyzer that reads no build model returns itself.
     */
    default Analyzer withBuildOptions(BuildOptions options) {
        return this;
    }

    /**
     * This front end's review of the scan's findings once every layer has reported and source and PTX findings
     * were merged (e.g. what a build flag changes in the scanned code); the default changes nothing.
     *
     * @param findings    every finding of the scan, in the scan's order
     * @param contexts    the build context of each scanned file that has one, by path relative to the root
     * @param notAnalyzed scanned files (relative paths) that could not be analyzed
     */
    default List<Finding> review(List<Finding> findings, Map<String, BuildContext> contexts, Set<String> notAnalyzed) {
        return findings;
    }

    /**
     * {@link #review(List, Map, Set)} with what the layers saw of each compiled unit's floating-point arithmetic
     * ({@link ScanContext#addUnitArithmetic}), by unit (path relative to the root); the default ignores them.
     */
    default List<Finding> review(
            List<Finding> findings,
            Map<String, BuildContext> contexts,
            Set<String> notAnalyzed,
            Map<String, List<dev.numlint.model.UnitArithmetic>> units) {
        return review(findings, contexts, notAnalyzed);
    }

    /**
     * {@link #review(List, Map, Set, Map)} with the functions the front ends saw defined or declared in the scanned
     * tree ({@link ScanContext#addFunctions}), in a stable order; the default ignores them.
     */
    default List<Finding> review(
            List<Finding> findings,
            Map<String, BuildContext> contexts,
            Set<String> notAnalyzed,
            Map<String, List<dev.numlint.model.UnitArithmetic>> units,
            List<dev.numlint.model.DeclaredFunction> functions) {
        return review(findings, contexts, notAnalyzed, units);
    }

    /**
     * {@link #review(List, Map, Set, Map, List)} with the kernel launches the front ends read in the scanned tree
     * ({@link ScanContext#addLaunches}), in a stable order; the default ignores them.
     */
    default List<Finding> review(
            List<Finding> findings,
            Map<String, BuildContext> contexts,
            Set<String> notAnalyzed,
            Map<String, List<dev.numlint.model.UnitArithmetic>> units,
            List<dev.numlint.model.DeclaredFunction> functions,
            List<dev.numlint.model.KernelLaunch> launches) {
        return review(findings, contexts, notAnalyzed, units, functions);
    }

    /**
     * {@link #review(List, Map, Set, Map, List, List)} with the calls of the files the front ends read whole
     * ({@link ScanContext#addCalls}), in a stable order; the default ignores them.
     */
    default List<Finding> review(
            List<Finding> findings,
            Map<String, BuildContext> contexts,
            Set<String> notAnalyzed,
            Map<String, List<dev.numlint.model.UnitArithmetic>> units,
            List<dev.numlint.model.DeclaredFunction> functions,
            List<dev.numlint.model.KernelLaunch> launches,
            List<dev.numlint.model.FileCalls> calls) {
        return review(findings, contexts, notAnalyzed, units, functions, launches);
    }
}
