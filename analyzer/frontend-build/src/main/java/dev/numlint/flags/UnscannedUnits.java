package dev.numlint.flags;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.spi.ScanContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Units the compilation database compiles that the scan leaves out (excluded, or outside the scanned paths) while
 * they {@code #include} scanned code: a project whose kernels live in headers and whose only units that instantiate
 * them are generated into the build directory (session 39: CMake's {@code configure_file} writes 28 {@code .cu}
 * units into {@code build/}; with {@code build/} excluded, the device headers were analyzed only as the host units
 * see them, 2 findings instead of 133, and nothing said so). One {@code units-not-scanned} note names them and what
 * they include, so that the user can scan them too. Only units inside the trust boundary are read (their includes);
 * a unit compiled through a symbolic link to a scanned file is that file (BuildFlagAnalyzer), not left out.
 */
final class UnscannedUnits {
    static final String NOTICE = "units-not-scanned";

    private UnscannedUnits() {}

    static void review(ScanContext ctx, BuildFlagAnalyzer.Model model, List<Path> sources) {
        if (model.dbUsed == null || model.db.files.isEmpty() || model.sink == null) return;
        Set<Path> scanned = new HashSet<>(sources);
        Map<String, String> left = new TreeMap<>(); // unit -> first scanned file it includes
        for (Map.Entry<Path, BuildContext> e : model.db.files.entrySet()) {
            Path unit = e.getKey();
            // an entry through a link to a scanned file is keyed by that file already (BuildFlagAnalyzer)
            if (!ContextChoice.unit(unit) || scanned.contains(unit)) continue;
            if (!BuildFlagAnalyzer.inTree(ctx.boundary(), unit) || !Files.isRegularFile(unit)) continue;
            List<Path> inc = IncludeScan.quotedIncludes(unit, e.getValue().includePaths(), scanned);
            if (!inc.isEmpty()) left.put(ctx.relativize(unit), ctx.relativize(inc.get(0)));
        }
        if (left.isEmpty()) return;
        List<String> shown = new ArrayList<>();
        for (Map.Entry<String, String> e : left.entrySet()) {
            if (shown.size() == 5) break;
            shown.add(e.getKey() + " includes " + e.getValue());
        }
        int n = left.size();
        model.sink.notify(new Notification(
                ContextChoice.dbLocation(model.dbUsed),
                0,
                Level.NOTE,
                NOTICE,
                n + " unit" + (n == 1 ? "" : "s") + " this build compiles "
                        + (n == 1 ? "is" : "are")
                        + " not scanned (excluded, or outside the scanned paths) and include scanned code ("
                        + String.join("; ", shown) + (n > shown.size() ? "; and " + (n - shown.size()) + " more" : "")
                        + "): the templates and kernels they instantiate there are analyzed only as the scanned"
                        + " units use them; scan those units too"));
    }
}
