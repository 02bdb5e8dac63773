package dev.numlint.spi;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Location;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

/** What an analyzer knows about the scan it is part of. Thread-safe. */
public interface ScanContext {
    /** The scan root: findings' paths are relative to it. */
    Path root();

    /**
     * What the scan may read and quote: the real paths of the scanned PATHs ({@link TrustBoundary}). The default, for
     * contexts that know no PATHs, is the root and the directory of every file outside it.
     */
    default TrustBoundary boundary() {
        List<Path> paths = new java.util.ArrayList<>();
        Path root = root() == null ? null : root().toAbsolutePath().normalize();
        if (root != null) paths.add(root);
        for (Path f : files()) {
            Path a = f.toAbsolutePath().normalize();
            if (root == null || !a.startsWith(root)) paths.add(a);
        }
        return TrustBoundary.of(paths);
    }

    /** All files the scan discovered (absolute), for analyzers that need to look around (headers, pom.xml). */
    List<Path> files();

    RuleSettings rules();

    /** Build context that applies to {@code file}: flags found by the build-flag audit plus {@code --nvcc-flags}. */
    BuildContext buildContext(Path file);

    /** Record flags for a file (or for the whole project when {@code file} is null); used by phase 0. */
    void addBuildContext(Path file, BuildContext ctx);

    /**
     * The tokens of {@code --nvcc-flags "FLAGS"} as given on the command line (empty when absent). The build-flag
     * analyzer interprets them and records them as project-wide build context.
     */
    List<String> commandLineFlags();

    PtxMode ptxMode();

    /** {@code --cuda-arch}, e.g. compute_90. */
    String cudaArch();

    /** Path to nvcc when {@code --ptx auto} and nvcc was found. */
    Optional<Path> nvcc();

    /** {@code --classpath} entries for the Java front end. */
    List<Path> classpath();

    /** A shared pool sized to the cores; analyzers may submit work and must wait for it themselves. */
    ExecutorService executor();

    /** Relative path (with '/') of {@code file} under the root, or the absolute path when outside. */
    String relativize(Path file);

    default Location location(Path file, int line) {
        return Location.line(relativize(file), line);
    }

    /** Record a kernel launched from host code (phase 1); phase 2 analyzes the linked file too. */
    void linkKernel(KernelLink link);

    /**
     * Records that the floating-point values computed on {@code lines} of {@code file} (a path as {@link #relativize}
     * gives it) are random variates: the CUDA source layer proved every value the line's arithmetic defines to be
     * computed from a random draw. The scan merges the layers with these facts: what another layer reports on such a
     * line that only a decision could make consequential is another draw of the same distribution. Thread-safe;
     * ignored by default.
     */
    default void addRandomVariateLines(String file, java.util.Set<Integer> lines) {}

    /**
     * Records what the PTX compiled from the scan's code shows of the source lines of {@code file} (a path as
     * {@link #relativize} gives it): {@code code}, the lines that some PTX instruction's {@code .loc} names (its own
     * line, or a line of user code it was inlined at), and {@code fp64}, those of them that carry an FP64 instruction
     * (an f64 operation, a cvt to or from f64; an f64 instruction without a line counts at the lines of its value's
     * uses). The scan merges the layers with these facts: nvcc decides the PTX, so a source finding about double
     * arithmetic on a line whose PTX holds none is a line the compiler narrowed. Called once per PTX unit; the lines
     * of several units add up. Thread-safe; ignored by default.
     */
    default void addCompiledLines(String file, java.util.Set<Integer> code, java.util.Set<Integer> fp64) {}

    /**
     * Records that the PTX layer tried the unit {@code unit} (a path as {@link #relativize} gives it; {@code read}
     * false, before it compiles) and that its PTX was read, its lines given to {@link #addCompiledLines} ({@code read}
     * true; also for a unit nvcc found no device code in). A unit tried and never read (nvcc failed, the PTX did not
     * parse, a budget ran out) leaves the PTX's view of the tree incomplete: no source finding is then judged by
     * lines the PTX lacks. Thread-safe; ignored by default.
     */
    default void addPtxUnit(String unit, boolean read) {}

    /**
     * Records what a layer saw of one compiled unit's floating-point arithmetic ({@link
     * dev.numlint.model.UnitArithmetic}): the front ends' reviews ({@link Analyzer#review(List, Map, Set, Map)}) judge
     * with it what a build flag changes. Thread-safe; ignored by default.
     */
    default void addUnitArithmetic(dev.numlint.model.UnitArithmetic fact) {}

    /**
     * The functions a front end saw defined or declared in the scanned tree
     * ({@link dev.numlint.model.DeclaredFunction}): the front ends' reviews ({@link Analyzer}{@code .review})
     * judge a finding against the project's other functions. Thread-safe; ignored by default.
     */
    default void addFunctions(java.util.Collection<dev.numlint.model.DeclaredFunction> functions) {}

    /**
     * The kernel launches, and other uses of a kernel's name, a front end read in the scanned tree
     * ({@link dev.numlint.model.KernelLaunch}): the front ends' reviews ({@link Analyzer}{@code .review}) judge a
     * finding of a kernel by how it is launched. Thread-safe; ignored by default.
     */
    default void addLaunches(java.util.Collection<dev.numlint.model.KernelLaunch> launches) {}

    /**
     * The calls of a file a front end read whole ({@link dev.numlint.model.FileCalls}): the front ends' reviews
     * ({@link Analyzer}{@code .review}) judge a finding that holds only for some values of a function's parameters by
     * what every call of the program passes. Thread-safe; ignored by default.
     */
    default void addCalls(dev.numlint.model.FileCalls calls) {}

    /**
     * Tells the scan's progress display that one of this analyzer's files is done: an analyzer that works through
     * its files on a few long tasks of {@link #executor} calls it per file, so that the display moves while they run
     * (session 49: "145 of 348 file analyses done" for three minutes while two tasks parsed 92 units). Once an analyzer
     * calls it, its tasks no longer count as files. Thread-safe; ignored by default.
     */
    default void fileDone() {}

    /**
     * Tells the scan's progress display that this analyzer found {@code n} more file analyses to do than the files it
     * was given (headers its files include from outside the scanned paths), each ended by {@link #fileDone()}: the
     * display counts them instead of standing at "all done" while they run. Thread-safe; ignored by default.
     */
    default void moreFiles(int n) {}

    /** A cache directory for derived artifacts (PTX compiled from .cu), keyed by content hash by the user. */
    Path cacheDir();

    /**
     * The {@link #setting} that names the project root found for a scan of a file or subdirectory inside a project
     * (the build files from there down are read for the build context).
     */
    String PROJECT_ROOT = "project-root";

    /**
     * A front-end setting from the command line or the configuration, by key: {@code all-configurations}
     * ("true": also analyze inactive preprocessor branches), {@code include-extensions} (comma-separated extensions of
     * included files to analyze), {@code exclude} (the exclude globs, one per line). Empty when not set.
     */
    default java.util.Optional<String> setting(String key) {
        return java.util.Optional.empty();
    }

    /**
     * The largest file, in bytes, that the front end of {@code layer} reads (a project file, a header it follows, a
     * checked-in PTX file): {@code max-file-size} and {@code max-file-size-by-layer} in {@code .numlint.yml}. A file
     * over it is reported as not analyzed ({@code file-too-large}) and the scan goes on.
     */
    default long maxFileSize(dev.numlint.model.Layer layer) {
        return defaultMaxFileSize(layer);
    }

    /** The documented default of {@link #maxFileSize}: 64 MiB for PTX (generated, verbose), 16 MiB otherwise. */
    static long defaultMaxFileSize(dev.numlint.model.Layer layer) {
        return layer == dev.numlint.model.Layer.PTX ? 64L << 20 : 16L << 20;
    }
}
