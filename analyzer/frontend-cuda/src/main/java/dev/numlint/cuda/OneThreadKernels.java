package dev.numlint.cuda;

import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Impact;
import dev.numlint.model.KernelLaunch;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.rules.Quote;
import dev.numlint.rules.RuleCatalog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Findings whose level rests on what the code costs on the GPU alone ({@link Identity.Judgement#COST}: double
 * arithmetic whose result decides nothing) in a kernel that runs as one thread: every launch of it the scanned tree
 * holds is a {@code <<<>>>} launch whose grid and block provably hold one thread, and there is at least one
 * ({@link KernelLaunch}, read by {@link KernelLaunches} from every analyzed file, cached or not). The cost of one
 * thread is nothing: the finding is a note that names a launch ("consequence over existence"). Since session 69
 * every device promotion is a cost note already (a CPU computes the same double), so what this adds is the launch
 * the message names.
 *
 * <p>A kernel named anywhere else (its address taken, passed to {@code cudaLaunchKernel}), launched with any
 * configuration not proven one thread, or never launched in the tree keeps its findings' levels; so does every
 * finding when a C, C++ or CUDA file of the scan could not be analyzed (a launch there would be unseen). A finding
 * whose value another layer followed to a decision (an impact graver than bounded) keeps its level too.
 */
final class OneThreadKernels {
    private OneThreadKernels() {}

    /**
     * {@code findings} with those of one-thread kernels' costs as notes; {@code unread}: whether a C, C++ or CUDA file
     * of the scan could not be analyzed (then nothing changes).
     */
    static List<Finding> review(List<Finding> findings, List<KernelLaunch> launches, boolean unread) {
        if (launches.isEmpty() || unread) return findings;
        Map<String, List<KernelLaunch>> byKernel = new HashMap<>();
        for (KernelLaunch l : launches)
            byKernel.computeIfAbsent(l.kernel(), k -> new ArrayList<>()).add(l);
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            List<KernelLaunch> ls = costOnly(f) ? byKernel.get(unqualified(f.function())) : null;
            if (ls == null || ls.isEmpty() || !ls.stream().allMatch(KernelLaunch::oneThread)) {
                out.add(f);
                continue;
            }
            out.add(note(f, site(ls, f.location().file())));
        }
        return out;
    }

    /**
     * A finding whose hazard is its cost alone, and no other layer's decision raised it (a note since session 42:
     * what a one-thread launch adds is the reason its cost is negligible too).
     */
    private static boolean costOnly(Finding f) {
        return f.function() != null
                && f.identity().judgement() == Identity.Judgement.COST
                && (f.impact() == null || f.impact().kind().compareTo(Impact.Kind.BOUNDED) >= 0);
    }

    /** The launch a message names: the first in the finding's file, else the first of the tree. */
    private static KernelLaunch site(List<KernelLaunch> ls, String file) {
        for (KernelLaunch l : ls) if (l.file().equals(file)) return l;
        return ls.get(0);
    }

    private static Finding note(Finding f, KernelLaunch l) {
        String name = l.file().substring(l.file().lastIndexOf('/') + 1);
        String at = name + ":" + l.line();
        String kernel = Quote.shorten(l.kernel(), Quote.EXPRESSION);
        String launch = Quote.shorten(l.configuration(), Quote.EXPRESSION);
        String message = f.message();
        String stated = null;
        for (String key : List.of("one-thread-kernel", "one-thread-kernel-launch", "one-thread-kernel-short")) {
            stated = phrase(key, message, kernel, launch, at);
            if (stated.length() <= Quote.MESSAGE) break;
        }
        if (stated.length() > Quote.MESSAGE) {
            // the reason stays whole: the finding's own message gives up the room (its quotes first)
            String remark = phrase("one-thread-kernel-short", "", kernel, launch, at);
            stated = phrase(
                    "one-thread-kernel-short", Quote.fit(message, Quote.MESSAGE - remark.length()), kernel, launch, at);
        }
        return f.toBuilder()
                .level(Level.NOTE)
                .message(stated)
                .related(new Location(l.file(), l.line(), 0, l.line(), 0), "launched as one thread here")
                .property("oneThreadLaunch", at)
                .build();
    }

    private static String phrase(String key, String message, String kernel, String launch, String at) {
        return RuleCatalog.get().phrase(key, "message", message, "kernel", kernel, "launch", launch, "site", at);
    }

    private static String unqualified(String function) {
        int q = function.lastIndexOf("::");
        return q >= 0 ? function.substring(q + 2) : function;
    }
}
