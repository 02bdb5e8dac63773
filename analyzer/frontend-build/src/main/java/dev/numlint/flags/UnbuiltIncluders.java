package dev.numlint.flags;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.spi.ScanContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A scanned unit ({@code .cu}, {@code .c}, {@code .cpp}...) or header that no compile command compiles, that no
 * compiled unit includes, and that only files the build does not compile {@code #include} (transitively, through
 * headers too): a port's {@code impl.cu-cl.cpp} that only its unbuilt {@code main.cu} includes, a library's {@code
 * export.h} that only its tests include when the configuration builds no tests (session 49: five errors of one
 * project's pool). A header no file includes is not concerned: it may be the interface of a library whose users include
 * it. With a compilation database it is not compiled either ({@link BuildContext#notCompiled}: its findings are notes,
 * {@link NotCompiledReview}), the reason naming an unbuilt includer; one {@code not-compiled-included} note names such
 * files. A file that a compiled unit reaches has its context already ({@link BuildContext#compiledVia()}) and is not
 * concerned; nor is anything without a compilation database.
 */
final class UnbuiltIncluders {
    /** The notice that names the files concerned. */
    static final String NOTICE = "not-compiled-included";

    private UnbuiltIncluders() {}

    static void review(
            ScanContext ctx, BuildFlagAnalyzer.Model model, List<Path> sources, Map<Path, BuildContext> chosen) {
        if (model.dbUsed == null || model.db.files.isEmpty()) return;
        // the files known not compiled, each with the unbuilt unit it comes from (itself for those known already),
        // grown below by the files only they include (a header may carry it on to a unit)
        Map<Path, Path> unbuilt = new HashMap<>();
        for (Path file : sources) {
            BuildContext c = chosen.get(file);
            if (c != null && c.notCompiledReason() != null) unbuilt.put(file, file);
        }
        if (unbuilt.isEmpty()) return;
        Set<Path> scanned = new HashSet<>(sources);
        // who includes each scanned file (sorted, for a stable reason)
        Map<Path, Set<Path>> includers = new TreeMap<>();
        for (Path file : sources) {
            BuildContext c = chosen.get(file);
            List<Path> paths = c == null ? List.of() : c.includePaths();
            for (Path inc : IncludeScan.quotedIncludes(file, paths, scanned)) {
                if (!inc.equals(file))
                    includers.computeIfAbsent(inc, k -> new TreeSet<>()).add(file);
            }
        }
        Map<String, List<String>> byIncluder = new TreeMap<>();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (Map.Entry<Path, Set<Path>> e : includers.entrySet()) {
                Path file = e.getKey();
                if (unbuilt.containsKey(file) || !candidate(model, chosen.get(file), file, unbuilt.keySet())) continue;
                if (!unbuilt.keySet().containsAll(e.getValue())) continue;
                Path first = e.getValue().iterator().next();
                Path origin = unbuilt.get(first);
                unbuilt.put(file, origin);
                grew = true;
                String by = ctx.relativize(first)
                        + (origin.equals(first) ? "" : " (reached from " + ctx.relativize(origin) + ")");
                int others = e.getValue().size() - 1;
                String why = "included only by " + by + (others > 0 ? " and " + others + " other file(s)" : "")
                        + ", which the build does not compile";
                BuildContext c = chosen.get(file);
                if (c == null) {
                    c = BuildContext.defaults();
                    chosen.put(file, c);
                }
                c.notCompiled(why);
                byIncluder.computeIfAbsent(by, k -> new ArrayList<>()).add(ctx.relativize(file));
            }
        }
        if (byIncluder.isEmpty() || model.sink == null) return;
        List<String> named = new ArrayList<>();
        byIncluder.forEach((by, files) -> named.add(String.join(", ", files) + " (included by " + by + ")"));
        int shown = Math.min(named.size(), 10);
        int count = byIncluder.values().stream().mapToInt(List::size).sum();
        model.sink.notify(new Notification(
                ContextChoice.dbLocation(model.dbUsed),
                0,
                Level.NOTE,
                NOTICE,
                count + " scanned C/C++/CUDA file" + (count == 1 ? "" : "s")
                        + " that no compile command compiles and that only files the build does not compile"
                        + " #include: analyzed, their findings are notes: " + String.join("; ", named.subList(0, shown))
                        + (named.size() > shown ? " and " + (named.size() - shown) + " more" : "")));
    }

    /**
     * Whether the build leaves {@code file} without a say: no compile command, no reason, and no compiling includer
     * but one of {@code unbuilt} (a {@code .cu} with a borrowed entry that the database turned out not to compile was
     * its includer when the include walk ran: the includers of the file decide, above).
     */
    private static boolean candidate(BuildFlagAnalyzer.Model model, BuildContext c, Path file, Set<Path> unbuilt) {
        if (model.db.files.containsKey(file) || model.make.files.containsKey(file) || model.py.files.containsKey(file))
            return false;
        if (c == null) return true;
        if (c.notCompiledReason() != null) return false;
        if (c.compiledVia() != null) return unbuilt.contains(c.compiledVia());
        return !c.compiled();
    }
}
