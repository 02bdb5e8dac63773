package dev.numlint.flags;

import static dev.numlint.flags.BuildFlagAnalyzer.isCuda;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The build contexts of a CMake project's targets ({@link CMakeAudit.Out}): each target's sources get the flags of
 * the directory that defines it plus the target's own; a FindCUDA target's CUDA sources get {@code CUDA_NVCC_FLAGS}
 * and {@code cuda_include_directories} as they stood at its {@code cuda_add_*} call instead of the directory's final
 * values.
 */
final class CMakeTargets {
    private CMakeTargets() {}

    /** What one target's sources are compiled with. */
    record Target(String name, List<Path> sources, FlagInterpreter.Result flags) {}

    /**
     * Every target of {@code out}, in the order of definition.
     *
     * @param dirFlags   the directory flags of each evaluated directory
     * @param dirArch    the CUDA architecture of a directory's targets that set none of their own, or null
     * @param notDefault the condition under which a directory is added when the default configuration skips it
     * @param rep        where the flags' hazards go; null when they are reported elsewhere
     */
    static List<Target> targets(
            CMakeAudit.Out out,
            Path dir,
            Map<Path, List<FlagTok>> dirFlags,
            Function<Path, String> dirArch,
            Function<List<FlagTok>, List<FlagTok>> dedupe,
            FlagReporter rep) {
        Set<String> names = new LinkedHashSet<>(out.sources.keySet()); // in the order of definition
        names.addAll(out.targets.keySet());
        names.addAll(out.cudaArch.keySet());
        names.remove("");
        names.removeIf(n -> n.startsWith("dir:"));
        List<Target> res = new ArrayList<>();
        for (String t : names) {
            Path tdir = out.targetDirs.getOrDefault(t, dir);
            List<FlagTok> all = new ArrayList<>();
            List<FlagTok> atCall = out.findCuda.get(t);
            // a custom command's nvcc has its own flags only: CMake gives the directory's to its own compilations
            for (FlagTok f :
                    CMakeCustomCommands.named(t) ? List.<FlagTok>of() : dirFlags.getOrDefault(tdir, out.directory)) {
                if (atCall == null || !CMakeAudit.findCudaScoped(f)) all.add(f);
            }
            if (atCall != null) all.addAll(atCall);
            all.addAll(out.targets.getOrDefault(t, List.of()));
            FlagInterpreter.Result r = FlagInterpreter.interpret(dedupe.apply(all), tdir);
            if (rep != null) rep.report(r);
            String notDefault = out.notDefaultDirectories.get(tdir);
            if (notDefault != null) {
                r = FlagInterpreter.interpret(dedupe.apply(BuildFlagAnalyzer.unconditional(all, notDefault)), tdir);
            }
            String arch = out.cudaArch.get(t);
            if (arch == null) arch = dirArch.apply(tdir);
            if (arch != null) r.cuda.cudaArch(arch);
            res.add(new Target(t, out.sources.getOrDefault(t, List.of()), r));
        }
        return res;
    }

    /** The flags of {@code t} for one of its sources. */
    static dev.numlint.model.BuildContext context(Target t, Path src) {
        return isCuda(src) ? t.flags().cuda : t.flags().host;
    }
}
