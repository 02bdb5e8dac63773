package dev.numlint.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Inline expectations in fixtures, shared by every module's fixture tests.
 *
 * <p>A comment {@code // ruleid: NL003} (or {@code # ruleid: NL003} in CMake/Makefiles, several ids separated by
 * commas) says that the next line that is not itself an expectation comment must be flagged with that rule;
 * {@code // ok: NL003} says it must not be. A fixture test collects the findings as {@link Hit}s and calls
 * {@link #compare}: the comparison is exact, so every finding must be expected and every expectation found.
 *
 * <p>An expectation may also state the level the finding must have: {@code // ruleid: NL003 level=note}. Tests that
 * pass the actual levels to {@link #compare(Collection, Map)} then check it too.
 */
public final class InlineExpectations {
    private static final Pattern MARK = Pattern.compile(
            "(?://|#|/\\*|<!--)\\s*(ruleid|ok)\\s*:\\s*(NL\\d{3}(?:\\s*,\\s*NL\\d{3})*)(?:\\s+level\\s*[=:]\\s*(error|warning|note))?");

    /** A (file, line, rule) triple; file is the path relative to the fixture root with '/' separators. */
    public record Hit(String file, int line, String ruleId) implements Comparable<Hit> {
        @Override
        public int compareTo(Hit o) {
            int c = file.compareTo(o.file);
            if (c == 0) c = Integer.compare(line, o.line);
            if (c == 0) c = ruleId.compareTo(o.ruleId);
            return c;
        }

        @Override
        public String toString() {
            return file + ":" + line + " " + ruleId;
        }
    }

    private final Set<Hit> expected = new TreeSet<>();
    private final Set<Hit> forbidden = new TreeSet<>();
    private final Map<Hit, String> expectedLevels = new TreeMap<>();

    private InlineExpectations() {}

    /**
     * The expectations for which {@code keep} holds (e.g. the rules one layer implements); findings of other rules
     * on those lines then count as unexpected only when they are kept too, so compare only findings of kept rules.
     */
    public InlineExpectations only(java.util.function.Predicate<Hit> keep) {
        InlineExpectations e = new InlineExpectations();
        expected.stream().filter(keep).forEach(e.expected::add);
        forbidden.stream().filter(keep).forEach(e.forbidden::add);
        expectedLevels.forEach((h, l) -> {
            if (keep.test(h)) e.expectedLevels.put(h, l);
        });
        return e;
    }

    /** Reads the expectations of every regular file under {@code root} (recursively). */
    public static InlineExpectations read(Path root) {
        InlineExpectations e = new InlineExpectations();
        try (var files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                e.readFile(root, f);
            }
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return e;
    }

    private void readFile(Path root, Path f) throws IOException {
        byte[] bytes = Files.readAllBytes(f);
        for (byte b : bytes) {
            if (b == 0) {
                return; // binary
            }
        }
        String rel = root.relativize(f).toString().replace('\\', '/');
        String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\r?\n", -1);
        List<String[]> pending = new ArrayList<>(); // {kind, ids}
        for (int i = 0; i < lines.length; i++) {
            Matcher m = MARK.matcher(lines[i]);
            if (m.find() && lines[i].substring(0, m.start()).isBlank()) {
                pending.add(new String[] {m.group(1), m.group(2), m.group(3)});
                continue;
            }
            if (!pending.isEmpty()) {
                for (String[] p : pending) {
                    for (String id : p[1].split(",")) {
                        Hit h = new Hit(rel, i + 1, id.trim());
                        (p[0].equals("ruleid") ? expected : forbidden).add(h);
                        if (p[0].equals("ruleid") && p[2] != null) {
                            expectedLevels.put(h, p[2]);
                        }
                    }
                }
                pending.clear();
            }
        }
    }

    public Set<Hit> expected() {
        return expected;
    }

    public Set<Hit> forbidden() {
        return forbidden;
    }

    /** The levels stated with {@code level=...} on expectations. */
    public Map<Hit, String> expectedLevels() {
        return expectedLevels;
    }

    /**
     * Like {@link #compare(Collection)}, and also checks the level of every expectation that states one;
     * {@code actualLevels} maps each actual hit to its level id (error, warning, note).
     */
    public String compare(Collection<Hit> actual, Map<Hit, String> actualLevels) {
        StringBuilder sb = new StringBuilder(compare(actual));
        for (Map.Entry<Hit, String> e : expectedLevels.entrySet()) {
            String got = actualLevels.get(e.getKey());
            if (got != null && !got.equals(e.getValue())) {
                sb.append("  level:      ")
                        .append(e.getKey())
                        .append(" is ")
                        .append(got)
                        .append(", expected ")
                        .append(e.getValue())
                        .append('\n');
            }
        }
        return sb.toString();
    }

    /**
     * Compares with the actual hits. Returns an empty string when they agree exactly, otherwise a report listing
     * missed expectations, unexpected findings and findings on {@code ok:} lines.
     */
    public String compare(Collection<Hit> actual) {
        Set<Hit> act = new TreeSet<>(actual);
        StringBuilder sb = new StringBuilder();
        for (Hit h : expected) {
            if (!act.contains(h)) sb.append("  missed:     ").append(h).append('\n');
        }
        for (Hit h : act) {
            if (forbidden.contains(h)) sb.append("  false pos.: ").append(h).append(" (line marked ok)\n");
            else if (!expected.contains(h))
                sb.append("  unexpected: ").append(h).append('\n');
        }
        return sb.toString();
    }
}
