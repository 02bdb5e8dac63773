package dev.numlint.flags;

import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Location;
import dev.numlint.rules.Quote;
import dev.numlint.rules.RuleCatalog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Build-flag findings of one decision written on several lines of one build file, joined into one. A Makefile that
 * passes {@code --use_fast_math} on each of its seven recipe lines, each compiling other files, made one choice: one
 * finding per rule at the first line, the other lines its related locations (session 76 round F: 14 of a project's
 * 22 warnings were seven such pairs of NL002 and NL006). Only findings that agree in everything a reader acts on are
 * joined: rule, file, flag, the code it applies to, level, and no condition (a place under {@code ifeq} says so in its
 * own finding); each line's level was decided by what that line's files contain ({@link FlagReach}) before this.
 * Suppressed findings stay as they are.
 */
final class SameFileFlags {
    private SameFileFlags() {}

    /** At most this many joined lines are listed as related locations (as a group's other places are). */
    private static final int RELATED = 10;

    static List<Finding> join(List<Finding> findings) {
        Map<String, Integer> firstAt = new LinkedHashMap<>();
        Map<Integer, List<Location>> joined = new LinkedHashMap<>();
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            String key = key(f);
            if (key == null) {
                out.add(f);
                continue;
            }
            Integer first = firstAt.get(key);
            if (first == null) {
                firstAt.put(key, out.size());
                out.add(f);
            } else if (!f.location().equals(out.get(first).location())) {
                joined.computeIfAbsent(first, k -> new ArrayList<>()).add(f.location());
            }
        }
        joined.forEach((i, lines) -> out.set(i, withLines(out.get(i), lines)));
        return out;
    }

    /** What two findings must share to be one, or null for a finding this leaves alone. */
    private static String key(Finding f) {
        if (f.layer() != Layer.BUILD_FLAGS || f.suppressed() || f.location().file() == null) return null;
        if (f.properties().containsKey("condition")) return null;
        String flag = null;
        for (Evidence e : f.evidence()) if ("flag".equals(e.kind())) flag = e.text();
        if (flag == null) return null;
        return f.ruleId() + "\u0000" + f.location().file() + "\u0000" + flag + "\u0000" + f.level() + "\u0000"
                + f.properties().get("appliesTo");
    }

    private static Finding withLines(Finding f, List<Location> lines) {
        Finding.Builder b = f.toBuilder();
        String m = RuleCatalog.get().phrase("flag-same-file", "message", f.message(), "count", lines.size());
        if (m.length() <= Quote.MESSAGE) b.message(m);
        for (int i = 0; i < lines.size() && i < RELATED; i++) b.related(lines.get(i), BuildFlagAnalyzer.SAME_FLAG);
        b.property("sameFileLines", lines.size());
        return b.build();
    }
}
