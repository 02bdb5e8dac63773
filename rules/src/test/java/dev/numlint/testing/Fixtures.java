package dev.numlint.testing;

import dev.numlint.model.Finding;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The one fixture runner of every module: finds the fixtures under a module's {@code fixtures/} directory, reads
 * their {@code fixture.properties} (one dialect) and compares what the module's front end found with the inline
 * expectations ({@link InlineExpectations}) exactly, levels included, and checks that every finding's message is
 * one short line. A module adds only its glue: how it scans one fixture.
 *
 * <p>Each directory directly under the root is a fixture; so is a deeper directory with its own
 * {@code fixture.properties} (e.g. {@code cuda/fastmath} with {@code nvcc-flags=--use_fast_math}), which is
 * scanned separately with its settings and left out of its parent's scan and comparison.
 *
 * <p>{@code fixture.properties} keys (any other key fails the fixture, so a misspelt setting is never ignored):
 * <ul>
 *   <li>{@code nvcc-flags}: the flags the CUDA code is built with;
 *   <li>{@code ptx}: {@code auto} compiles the fixture's .cu files to PTX (needs nvcc; skipped without it);
 *   <li>{@code classpath}: class-path entries relative to the fixture, separated by the path separator;
 *   <li>{@code test-analyzers}: extra test-only analyzer classes (the engine's own fixture);
 *   <li>{@code frontend}: the C/C++/CUDA front end of the scan ({@code auto}, the default for fixtures, {@code clang},
 *   {@code legacy});</li>
 *   <li>{@code other-layer-rules}: rules whose expectations in a fixture shared with another layer are not
 *       compared here (NL005 in the Java samples that the SpotBugs plugin compiles for Java 8).
 * </ul>
 */
public final class Fixtures {
    /**
     * The longest finding message a fixture may produce: one line that names the expression or instruction and its
     * consequence; the explanation lives in the rule document (issue 12).
     */
    public static final int MAX_MESSAGE = dev.numlint.rules.Quote.MESSAGE;

    static final Set<String> KEYS =
            Set.of("nvcc-flags", "ptx", "classpath", "test-analyzers", "other-layer-rules", "frontend");

    private Fixtures() {}

    /**
     * One fixture: its directory, its settings and the fixtures nested in it (paths relative to it, '/'-separated).
     */
    public record Fixture(Path dir, String name, Properties properties, List<String> nested) {
        /** A setting, stripped; {@code fallback} when absent. */
        public String get(String key, String fallback) {
            if (!KEYS.contains(key)) throw new IllegalArgumentException("not a fixture.properties key: " + key);
            return properties.getProperty(key, fallback).strip();
        }

        /** A whitespace- or comma-separated setting as a list (empty when absent). */
        public List<String> list(String key) {
            String v = get(key, "");
            return v.isEmpty() ? List.of() : Arrays.asList(v.split("[,\\s]+"));
        }

        /** Whether {@code relative} (a '/'-separated path inside this fixture) belongs to a nested fixture. */
        public boolean inNested(String relative) {
            return nested.stream().anyMatch(n -> relative.startsWith(n + "/"));
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** The fixtures under {@code root}, sorted by name. */
    public static List<Fixture> discover(Path root) {
        List<Path> dirs = new ArrayList<>();
        try (Stream<Path> s = Files.list(root)) {
            s.filter(Files::isDirectory).forEach(dirs::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (Stream<Path> s = Files.walk(root)) {
            s.filter(p -> p.getFileName().toString().equals("fixture.properties"))
                    .map(Path::getParent)
                    .filter(d -> !d.equals(root) && !d.getParent().equals(root))
                    .forEach(dirs::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        dirs.sort(null);
        List<Fixture> out = new ArrayList<>();
        for (Path d : dirs) {
            List<String> nested = dirs.stream()
                    .filter(o -> !o.equals(d) && o.startsWith(d))
                    .map(o -> slashes(d.relativize(o)))
                    .collect(Collectors.toList());
            out.add(new Fixture(d, slashes(root.relativize(d)), properties(d), nested));
        }
        return out;
    }

    /** The fixture's settings; an unknown key is an error that names the file and the key. */
    static Properties properties(Path dir) {
        Properties p = new Properties();
        Path f = dir.resolve("fixture.properties");
        if (Files.isRegularFile(f)) {
            try (Reader r = Files.newBufferedReader(f)) {
                p.load(r);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        for (String k : p.stringPropertyNames()) {
            if (!KEYS.contains(k)) {
                throw new IllegalStateException(f + ": unknown key '" + k + "' (known: " + new TreeSet<>(KEYS) + ")");
            }
        }
        return p;
    }

    /**
     * The differences between {@code findings} (locations relative to the fixture) and the fixture's expectations,
     * one per line, and every message longer than {@link #MAX_MESSAGE} or not on one line; empty when they agree.
     * Several findings of one rule on one line count with the most severe level.
     */
    public static String compare(Fixture fixture, Collection<Finding> findings) {
        List<InlineExpectations.Hit> hits = new ArrayList<>();
        Map<InlineExpectations.Hit, String> levels = new HashMap<>();
        for (Finding f : findings) {
            List<InlineExpectations.Hit> at = new ArrayList<>(List.of(hit(f)));
            // a run of one hazard on neighbouring lines (scan/RunGroups) is one finding: its other lines are
            // expected where they are written, at the group's level
            if (f.properties().get("runLines") instanceof List<?> run)
                for (Object l : run)
                    at.add(new InlineExpectations.Hit(f.location().file(), ((Number) l).intValue(), f.ruleId()));
            for (InlineExpectations.Hit h : at) {
                hits.add(h);
                levels.merge(h, f.level().id(), (x, y) -> severity(x) >= severity(y) ? x : y);
            }
        }
        Set<String> otherLayer = new HashSet<>(fixture.list("other-layer-rules"));
        Predicate<InlineExpectations.Hit> own = h -> !fixture.inNested(h.file()) && !otherLayer.contains(h.ruleId());
        InlineExpectations exp = InlineExpectations.read(fixture.dir()).only(own);
        StringBuilder sb = new StringBuilder(exp.compare(hits, levels));
        sb.append(messageProblems(findings));
        return sb.toString();
    }

    /** Messages that are not one line of at most {@link #MAX_MESSAGE} characters, one per line; empty when none. */
    public static String messageProblems(Collection<Finding> findings) {
        StringBuilder sb = new StringBuilder();
        for (Finding f : findings) {
            String m = f.message();
            if (m.length() > MAX_MESSAGE || m.indexOf('\n') >= 0 || m.indexOf('\r') >= 0) {
                sb.append("  message:    ")
                        .append(hit(f))
                        .append(" has ")
                        .append(m.length())
                        .append(" characters (at most ")
                        .append(MAX_MESSAGE)
                        .append(", one line): ")
                        .append(m)
                        .append('\n');
            }
        }
        return sb.toString();
    }

    /** A finding as an expectation hit. */
    public static InlineExpectations.Hit hit(Finding f) {
        return new InlineExpectations.Hit(f.location().file(), f.location().startLine(), f.ruleId());
    }

    private static int severity(String level) {
        return switch (level) {
            case "error" -> 3;
            case "warning" -> 2;
            case "note" -> 1;
            default -> 0;
        };
    }

    private static String slashes(Path p) {
        return p.toString().replace('\\', '/');
    }
}
