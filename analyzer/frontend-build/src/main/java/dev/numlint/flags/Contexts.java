package dev.numlint.flags;

import dev.numlint.model.BuildContext;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** One build system's contexts: per directory (directory-wide flags) and per file (commands, targets). */
final class Contexts {
    final String system;
    final Map<Path, BuildContext[]> dirs = new HashMap<>(); // {cuda, host}
    final Map<Path, String> dirConfig = new HashMap<>();
    final Map<Path, BuildContext> files = new HashMap<>();
    /** Units a compile command names that do not exist in the tree ({@link UnscannedUnits#absent}). */
    final java.util.Set<Path> missing = new java.util.TreeSet<>();

    Contexts(String system) {
        this.system = system;
    }

    void dir(Path d, BuildContext cuda, BuildContext host, String config) {
        BuildContext[] c =
                dirs.computeIfAbsent(d, k -> new BuildContext[] {BuildContext.defaults(), BuildContext.defaults()});
        c[0].merge(cuda);
        c[1].merge(host);
        dirConfig.putIfAbsent(d, config);
    }

    /** Files compiled more than once with different defines (cminpack: float, double, long double): how often. */
    final Map<Path, Integer> variants = new HashMap<>();

    /** Files whose CUDA compilation ({@code nvcc -x cu}) stands for their host-only variants. */
    final java.util.Set<Path> cudaVariant = new java.util.HashSet<>();

    /**
     * The other variants of each file: the context of every later compilation whose defines differ from the first's
     * (one per distinct set of defines, in entry order), which {@link ContextChoice} hands on as {@link
     * BuildContext#variants()} (compilation-database units only). Not kept beside a CUDA compilation that stands for
     * host-only ones.
     */
    final Map<Path, java.util.List<BuildContext>> others = new HashMap<>();

    /**
     * A file's context. A second compilation of it with the same defines adds its settings; one with other
     * defines is another build of the file (a float and a double variant), which the first stands for: merged,
     * the two would define both variants' macros, which no real build does. A compilation as CUDA ({@code nvcc -x
     * cu} of a C source, beside host compilations with {@code -DUSING_CUDA=false}) stands for the host-only ones:
     * its device code is active only there, and the GPU build is the one whose hazards numlint reports.
     */
    void file(Path f, BuildContext c, String config) {
        BuildContext x = c.copy();
        if (x.configuration() == null) x.configuration(config);
        BuildContext had = files.get(f);
        if (had != null && !new java.util.HashSet<>(had.defines()).equals(new java.util.HashSet<>(x.defines()))) {
            variants.merge(f, 2, (n, one) -> n + 1);
            if (x.compiledAsCuda() && !had.compiledAsCuda()) {
                files.put(f, x);
                cudaVariant.add(f);
                others.remove(f);
            } else if (!had.compiledAsCuda() || x.compiledAsCuda()) {
                java.util.List<BuildContext> o = others.computeIfAbsent(f, k -> new java.util.ArrayList<>());
                if (o.stream().noneMatch(y -> BuildContext.sameDefines(y, x))) o.add(x);
            }
            return;
        }
        files.merge(f, x, (a, b) -> a.copy().merge(b).configuration(a.configuration()));
    }
}
