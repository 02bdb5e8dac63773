package dev.numlint.scan;

import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One report per written text: two scanned files with the same text (a build's {@code configure_file} copy of a
 * header compiled as its implementation unit, {@code build/nanosvg.c} of {@code src/nanosvg.h}) hold the same
 * hazards at the same lines, and a reviewer fixes them once, in the file the project writes. The findings of the
 * copy move to that file, where a finding of the same rule at the same line and column already stands for them (the
 * more severe one kept); a notice names each copy (session 58 round B: every nanosvg finding was reported twice).
 * A copy is a file in a build directory ({@link #generated}) with the text of one outside, the written file (the
 * first by path where several are); two written copies of one text stay two files. Only files with findings are
 * compared, by their lines as read for suppressions and fingerprints.
 */
final class CopiedFiles {
    private CopiedFiles() {}

    static List<Finding> review(List<Finding> findings, SourceLines lines, Collection<Notification> notes) {
        Map<List<String>, List<String>> byText = new LinkedHashMap<>();
        for (Finding f : findings) {
            String file = f.location() == null ? null : f.location().file();
            if (file == null) continue;
            List<String> text = lines.lines(file);
            if (text.isEmpty()) continue;
            List<String> same = byText.computeIfAbsent(text, t -> new ArrayList<>());
            if (!same.contains(file)) same.add(file);
        }
        Map<String, String> original = new TreeMap<>();
        for (List<String> same : byText.values()) {
            // a copy in a build directory of a file outside one; two written copies stay two files
            String first = same.stream()
                    .filter(f -> !generated(f))
                    .sorted()
                    .findFirst()
                    .orElse(null);
            if (first == null) continue;
            for (String s : same) if (generated(s)) original.put(s, first);
        }
        if (original.isEmpty()) return findings;
        Map<String, Finding> kept = new LinkedHashMap<>();
        Map<String, Integer> moved = new HashMap<>();
        for (Finding f : findings) {
            String file = f.location() == null ? null : f.location().file();
            String to = file == null ? null : original.get(file);
            Finding g = f;
            if (to != null) {
                Location l = f.location();
                g = f.toBuilder()
                        .location(new Location(to, l.startLine(), l.startColumn(), l.endLine(), l.endColumn()))
                        .property("copiedFrom", file)
                        .build();
                moved.merge(file, 1, Integer::sum);
            }
            // only a copy's findings and those of the files copied are compared; any other stays as it is
            boolean compared = to != null || file != null && original.containsValue(file);
            String key = !compared
                    ? "#" + kept.size()
                    : g.ruleId() + "\u0001" + g.location().file() + "\u0001"
                            + g.location().startLine() + "\u0001" + g.location().startColumn() + "\u0001" + g.layer();
            Finding old = kept.get(key);
            if (old == null || g.level().atLeast(old.level()) && !old.level().atLeast(g.level())) kept.put(key, g);
        }
        moved.forEach((copy, n) -> notes.add(new Notification(
                copy,
                0,
                Level.NOTE,
                "copied-source",
                copy + " has the same text as " + original.get(copy) + " (a copy the build makes or keeps): its " + n
                        + " finding(s) are reported once, at " + original.get(copy))));
        return new ArrayList<>(kept.values());
    }

    /** Whether {@code file} lies in a build directory: a path segment {@code build}, {@code build-*}, {@code _build}. */
    static boolean generated(String file) {
        for (String seg : file.replace('\\', '/').split("/")) {
            String s = seg.toLowerCase(java.util.Locale.ROOT);
            if (s.equals("build") || s.equals("_build") || s.startsWith("build-") || s.startsWith("cmake-build"))
                return true;
        }
        return false;
    }
}
