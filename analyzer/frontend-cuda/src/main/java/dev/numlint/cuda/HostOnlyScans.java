package dev.numlint.cuda;

import dev.numlint.model.BuildContext;
import dev.numlint.model.DeclaredFunction;
import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.KernelLaunch;
import dev.numlint.model.Level;
import dev.numlint.rules.RuleCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Findings of host code whose level rests on a difference from a float computation on a GPU ({@link
 * Identity.Judgement#PORT}: host code that evaluates in double what a GPU port would compute in float, a host sum of
 * unknown length that decides nothing, whose order a GPU's reduction would change, a long double a GPU computes in
 * double) in a scan that
 * holds no device code: no file of it is CUDA ({@code .cu}, {@code .cuh}, {@code .ptx}, or compiled with
 * {@code -x cu}), no function it declares is {@code __device__} or {@code __global__} (a header-only CUDA library),
 * and no kernel is launched or loaded in it (a file the compilation database does not compile counts for none of
 * these: a CUDA backend the analyzed configuration leaves off). There the double result is the more accurate one and nothing computes it
 * in float to differ from: the finding is a note that says so ("consequence over existence"). Measured on unseen C
 * code (sessions 36 to 38): none of the host promotions sampled at warning level was actionable; sessions 66 and 67:
 * none of 130 such host sums.
 *
 * <p>A file the scan could not analyze could hold device code only if it is a CUDA unit itself (by its name or its
 * compile command: a header or a C file becomes device code only inside a CUDA unit, which the scan would have seen,
 * analyzed or not): such a file keeps every level; a C file or header left out (a symlink out of the scanned tree, a
 * file over the size limit) does not.
 */
final class HostOnlyScans {
    private HostOnlyScans() {}

    /**
     * {@code findings} with the port-only findings as notes when the scan holds no device code; {@code notAnalyzed}:
     * the files of the scan that could not be analyzed (a CUDA unit among them: nothing changes).
     */
    static List<Finding> review(
            List<Finding> findings,
            Map<String, BuildContext> contexts,
            List<DeclaredFunction> functions,
            List<KernelLaunch> launches,
            java.util.Set<String> notAnalyzed) {
        // a file the compilation database does not compile (a CUDA backend the configuration leaves off) is no device
        // code of the analyzed build (session 68 round F: a C library built with CUDA off)
        java.util.function.Predicate<String> built = f -> {
            BuildContext c = f == null ? null : contexts.get(f);
            return c == null || c.notCompiledReason() == null;
        };
        if (launches.stream().anyMatch(l -> built.test(l.file()))) return findings;
        if (functions.stream().anyMatch(f -> (f.device() || cuda(f.file())) && built.test(f.file()))) return findings;
        for (Map.Entry<String, BuildContext> e : contexts.entrySet()) {
            if (e.getValue().notCompiledReason() != null) continue;
            if (cuda(e.getKey()) || e.getValue().compiledAsCuda()) return findings;
        }
        for (String f : notAnalyzed) {
            if (cuda(f) && built.test(f)) return findings;
        }
        if (findings.stream()
                .anyMatch(f ->
                        cuda(f.location().file()) && built.test(f.location().file()))) return findings;
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            BuildContext c = contexts.get(f.location().file());
            boolean reassociated = c != null && c.hostReassociates();
            out.add(
                    f.level() != Level.NOTE && f.identity().judgement() == Identity.Judgement.PORT
                            ? note(f, reassociated)
                            : f);
        }
        return out;
    }

    /** A CUDA file by its name (the layers' own: {@code .cu}, {@code .cuh}, and the PTX nvcc emits). */
    private static boolean cuda(String file) {
        if (file == null) return false;
        String n = file.toLowerCase(Locale.ROOT);
        return n.endsWith(".cu") || n.endsWith(".cuh") || n.endsWith(".ptx");
    }

    private static Finding note(Finding f, boolean reassociated) {
        // the reason stays whole: the finding's own message gives up the room it needs (Quote.fit: none if it fits)
        // a sum's hazard is its order (a GPU's reduction sums in another), a promotion's or a long double's its
        // precision; where the host compiler may reassociate, it may reorder the sum itself (session 72 round C: a
        // resampler's sums said nothing reorders them under -fassociative-math)
        String key = f.identity().sum() == null
                ? "host-only-scan"
                : reassociated ? "host-only-scan-reassociated-sum" : "host-only-scan-sum";
        String stated = RuleCatalog.get().remark(key, f.message());
        return f.toBuilder()
                .level(Level.NOTE)
                .message(stated)
                .property("hostOnlyScan", true)
                .build();
    }
}
