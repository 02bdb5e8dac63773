package dev.numlint.flags;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.spi.ScanContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The notes of CUDA sources that CMake builds only in a configuration other than the default one (issue 25). */
final class NotDefaultSources {
    private NotDefaultSources() {}

    /** The CMake option an {@code if(NAME)} condition tests, for the next step of a not-default source. */
    private static final java.util.regex.Pattern SINGLE_OPTION =
            java.util.regex.Pattern.compile("^if\\(\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*\\)");

    /**
     * A .cu file that a target names only in a branch the default configuration skips (zfp's {@code
     * if(ZFP_WITH_CUDA) cuda_wrap_srcs(... cuZFP.cu ...)}) is compiled without that target's flags, so its headers are
     * often not found: a note says which condition builds it and how to turn it on.
     */
    static void report(
            ScanContext ctx, CMakeAudit.Out out, FlagReporter rep, java.util.function.Predicate<Path> inTree) {
        Set<Path> named = new HashSet<>();
        for (List<Path> l : out.sources.values()) named.addAll(l);
        for (Map.Entry<Path, String> e : out.notDefaultSources.entrySet()) {
            Path src = e.getKey();
            if (named.contains(src) || !inTree.test(src) || !Files.isRegularFile(src)) continue;
            String cond = e.getValue();
            java.util.regex.Matcher m = SINGLE_OPTION.matcher(cond);
            String step = m.find()
                    ? "pass --cmake-define " + m.group(1) + "=ON (or configure with it and pass -p build)"
                    : "set the options that make it true with --cmake-define (or configure and pass -p build)";
            rep.sink.notify(new Notification(
                    ctx.relativize(src),
                    0,
                    Level.NOTE,
                    "not-default-source",
                    "built only under " + cond + "; its target's flags (include directories, defines) are not"
                            + " applied, so it is compiled with a guessed context: " + step));
        }
    }
}
