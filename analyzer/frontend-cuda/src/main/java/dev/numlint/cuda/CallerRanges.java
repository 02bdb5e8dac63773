package dev.numlint.cuda;

import dev.numlint.cuda.facts.CallerNeed;
import dev.numlint.model.DeclaredFunction;
import dev.numlint.model.FileCalls;
import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.rules.CallerRangeNote;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Findings that hold only where a caller passes a parameter negative ({@link CallerNeed}) are notes where every call of
 * the program passes it non-negative ({@link CallerRangeNote}): an unguarded conversion of a launcher's
 * {@code double size} that every call passes an image's pixel count cannot wrap in this program (session 86 round AP).
 * The decision waits for the whole tree, so that a cached finding is decided again when another file starts to call the
 * function. It is made only
 * <ul>
 *   <li>in a program: the build compiles a {@code main} (or another entry point) the tree defines ({@link
 *       UnreachableCode#program}); a library's functions are its interface, called by code the scan cannot see;
 *   <li>for a function the program calls at least once, whose every call passes each needed parameter an argument
 *       whose least value is at least 0 ({@link FileCalls}), and whose name no file uses otherwise (its address taken,
 *       an unresolved call of that name);
 *   <li>where every file of the tree that names the function (any word of it, comments included) had its calls read
 *       ({@link FileCalls}): a file Clang did not read whole may call it with anything.
 * </ul>
 */
final class CallerRanges {
    private CallerRanges() {}

    /** The largest file read for the names it holds (as {@link UnreachableCode}). */
    private static final long MAX_BYTES = 64L << 20;

    /** {@code findings} without the property, and those whose needs every call of the program meets as notes. */
    static List<Finding> review(
            List<Finding> findings, Map<Path, String> tree, List<DeclaredFunction> functions, List<FileCalls> calls) {
        boolean marked = false;
        for (Finding f : findings) marked |= f.properties().containsKey(CallerNeed.PROPERTY);
        if (!marked) return findings;
        boolean program = tree != null && UnreachableCode.program(functions);
        Map<String, List<Site>> byFunction = new HashMap<>();
        Set<String> escapedUsrs = new HashSet<>();
        Set<String> escapedNames = new HashSet<>();
        Set<String> read = new HashSet<>();
        for (FileCalls fc : calls) {
            read.add(fc.file());
            for (FileCalls.Call c : fc.calls()) {
                if (c.lows() == null) {
                    if (c.function() != null) escapedUsrs.add(c.function());
                    else escapedNames.add(c.name());
                } else if (c.function() != null) {
                    byFunction
                            .computeIfAbsent(c.function(), k -> new ArrayList<>())
                            .add(new Site(fc.file(), c));
                }
            }
        }
        Map<String, Boolean> namedOnlyWhereRead = new HashMap<>();
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            Object property = f.properties().get(CallerNeed.PROPERTY);
            if (property == null) {
                out.add(f);
                continue;
            }
            Finding.Builder b = f.toBuilder().removeProperty(CallerNeed.PROPERTY);
            List<CallerNeed> needs = CallerNeed.decode(property);
            if (program && needs != null && f.level() != Level.NOTE) {
                CallerNeed first = needs.get(0);
                List<Site> sites = byFunction.getOrDefault(first.function(), List.of());
                boolean met = !sites.isEmpty()
                        && !escapedUsrs.contains(first.function())
                        && !escapedNames.contains(first.name())
                        && needs.stream().allMatch(n -> n.function().equals(first.function()))
                        && sites.stream().allMatch(s -> needs.stream().allMatch(n -> passesNonNegative(s.call(), n)))
                        && namedOnlyWhereRead.computeIfAbsent(first.name(), n -> namedOnlyWhereRead(tree, read, n));
                if (met) CallerRangeNote.apply(b, first.name(), params(needs), where(sites));
            }
            out.add(b.build());
        }
        return out;
    }

    /** A call and the file it is in. */
    private record Site(String file, FileCalls.Call call) {}

    private static boolean passesNonNegative(FileCalls.Call c, CallerNeed n) {
        List<Double> lows = c.lows();
        if (n.index() < 0 || n.index() >= lows.size()) return false;
        Double lo = lows.get(n.index());
        return lo != null && lo >= 0;
    }

    /** Whether every file of the tree whose words hold {@code name} had its calls read. */
    private static boolean namedOnlyWhereRead(Map<Path, String> tree, Set<String> read, String name) {
        for (Map.Entry<Path, String> e : tree.entrySet()) {
            if (read.contains(e.getValue())) continue;
            try {
                if (Files.size(e.getKey()) > MAX_BYTES) return false;
                if (CudaScanRun.words(Files.readAllBytes(e.getKey())).contains(name)) return false;
            } catch (IOException | RuntimeException unreadable) {
                return false;
            }
        }
        return true;
    }

    /** "'size'", "'w' and 'h'", "'a', 'b' and 'c'". */
    private static String params(List<CallerNeed> needs) {
        List<String> names = new ArrayList<>();
        for (CallerNeed n : needs) names.add("'" + n.param() + "'");
        if (names.size() == 1) return names.get(0);
        return String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
    }

    /** "main.c:12", "main.c:12, io.c:40", "main.c:12 and 3 more". */
    private static String where(List<Site> sites) {
        List<String> at = new ArrayList<>();
        for (Site s : sites) {
            String l = s.file() + ":" + s.call().line();
            if (!at.contains(l)) at.add(l);
        }
        at.sort(null);
        if (at.size() <= 2) return String.join(", ", at);
        return at.get(0) + " and " + (at.size() - 1) + " more";
    }
}
