package dev.numlint;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The dependency rules of ARCHITECTURE.md over the compiled classes of every module (rules, ptx-inspector,
 * validation, analyzer). The rooms are the packages below {@code dev.numlint}: the model ({@code model}, {@code rules},
 * {@code spi}, {@code knowledge}), the front ends ({@code cuda}, {@code java}, {@code flags}, {@code ptx}), the engine
 * ({@code scan}, {@code output}, {@code cli}, {@code config}), {@code validation}, and the guarded toolchain
 * ({@code toolchain}: processes, nvcc, the PTX cache) that front ends, engine and validation share.
 *
 * <p>No edge breaks a rule today: the front ends' glue reaches the engine's needs through {@code spi}
 * ({@code Analyzer.withBuildOptions}, {@code Analyzer.review}, {@code HostCodeReader}) and the helpers every room uses
 * (globs, terminal escapes, the demangler) live in the shared utility room {@code util}, which uses no other room.
 */
class ArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.numlint");

    private static final Set<String> MODEL = Set.of("model", "rules", "spi", "knowledge");
    private static final Set<String> FRONT_ENDS = Set.of("cuda", "java", "flags", "ptx");
    private static final Set<String> ENGINE = Set.of("scan", "output", "cli");
    /** The Maven modules with main code the engine and the CLI are built from (the root pom's modules). */
    private static final List<String> MODULES = List.of(
            "rules",
            "ptx-inspector",
            "validation",
            "analyzer/frontend-build",
            "analyzer/frontend-java",
            "analyzer/frontend-cuda",
            "analyzer/engine",
            "analyzer");

    private static final List<String> ALL_MODULES = java.util.stream.Stream.concat(
                    MODULES.stream(), Stream.of("spotbugs-plugin"))
            .toList();

    /** The room of a class: the first package name below dev.numlint, or null outside it. */
    private static String room(JavaClass c) {
        String p = c.getPackageName();
        if (!p.startsWith("dev.numlint.")) {
            return null;
        }
        String rest = p.substring("dev.numlint.".length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    private static String outer(JavaClass c) {
        String n = c.getName();
        int d = n.indexOf('$');
        return d < 0 ? n : n.substring(0, d);
    }

    private static Map<String, Set<String>> edges;

    /**
     * Every class edge between two rooms, as "origin -> target" (outer classes), by room edge "a -> b": computed once
     * for the tests that read it (a walk through every dependency of every class).
     */
    private static synchronized Map<String, Set<String>> edges() {
        if (edges == null) edges = roomEdges();
        return edges;
    }

    private static Map<String, Set<String>> roomEdges() {
        Map<String, Set<String>> out = new TreeMap<>();
        for (JavaClass c : CLASSES) {
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String a = room(d.getOriginClass());
                String b = room(d.getTargetClass());
                if (a == null || b == null || a.equals(b)) {
                    continue;
                }
                out.computeIfAbsent(a + " -> " + b, k -> new TreeSet<>())
                        .add(outer(d.getOriginClass()) + " -> " + outer(d.getTargetClass()));
            }
        }
        return out;
    }

    private static Set<String> classEdges(Set<String> from, Set<String> to) {
        Set<String> out = new TreeSet<>();
        edges().forEach((k, v) -> {
            String[] ab = k.split(" -> ");
            if (from.contains(ab[0]) && to.contains(ab[1])) {
                out.addAll(v);
            }
        });
        return out;
    }

    @Test
    void theModelKnowsNothingOfFrontEndsEngineOrValidation() {
        Set<String> others = new HashSet<>(FRONT_ENDS);
        others.addAll(ENGINE);
        others.add("config");
        others.add("validation");
        others.add("toolchain");
        assertThat(classEdges(MODEL, others)).isEmpty();
    }

    @Test
    void frontEndsDoNotUseTheEngine() {
        assertThat(classEdges(FRONT_ENDS, ENGINE))
                .as("front end -> scan/output/cli")
                .isEmpty();
    }

    @Test
    void frontEndsDoNotUseValidation() {
        // validation is a room above the front ends: what a front end reads for it (a host launch) is a model type
        assertThat(classEdges(FRONT_ENDS, Set.of("validation")))
                .as("front end -> validation")
                .isEmpty();
    }

    @Test
    void frontEndSourcesNameNoEngineClass() throws IOException {
        // a constant of the engine (a setting's key) is inlined by the compiler: the class edges above miss it
        Pattern engine = Pattern.compile("\\bdev\\.numlint\\.(scan|output|cli)\\.");
        Path repo = Path.of("..");
        Set<String> naming = new TreeSet<>();
        for (String dir : List.of(
                "analyzer/frontend-cuda/src/main/java/dev/numlint/cuda",
                "analyzer/frontend-java/src/main/java/dev/numlint/java",
                "analyzer/frontend-build/src/main/java/dev/numlint/flags",
                "ptx-inspector/src/main/java/dev/numlint/ptx")) {
            try (Stream<Path> files = Files.walk(repo.resolve(dir))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    if (engine.matcher(Files.readString(f, StandardCharsets.UTF_8))
                            .find()) {
                        naming.add(repo.relativize(f).toString());
                    }
                }
            }
        }
        assertThat(naming).as("front-end sources that name the engine").isEmpty();
    }

    @Test
    void theEngineUsesFrontEndsOnlyThroughTheSpi() {
        assertThat(classEdges(ENGINE, FRONT_ENDS))
                .as("engine -> front end outside spi")
                .isEmpty();
    }

    @Test
    void theSharedUtilitiesUseNoOtherRoom() {
        Set<String> out = new TreeSet<>();
        edges().forEach((k, v) -> {
            if (k.startsWith("util -> ")) {
                out.addAll(v);
            }
        });
        assertThat(out).as("util -> another room").isEmpty();
    }

    @Test
    void noPackageCycles() {
        Map<String, Set<String>> graph = new HashMap<>();
        Map<String, Set<String>> edges = edges();
        for (String k : edges.keySet()) {
            String[] ab = k.split(" -> ");
            graph.computeIfAbsent(ab[0], x -> new HashSet<>()).add(ab[1]);
        }
        Set<String> cyclic = new TreeSet<>();
        for (String k : edges.keySet()) {
            String[] ab = k.split(" -> ");
            if (reaches(graph, ab[1], ab[0])) {
                cyclic.add(k);
            }
        }
        Map<String, Set<String>> detail = new TreeMap<>();
        cyclic.forEach(k -> detail.put(k, edges.get(k)));
        assertThat(cyclic).as("room edges on a cycle; class edges: " + detail).isEmpty();
    }

    private static boolean reaches(Map<String, Set<String>> graph, String from, String to) {
        Deque<String> todo = new ArrayDeque<>(List.of(from));
        Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            String n = todo.pop();
            if (n.equals(to)) {
                return true;
            }
            if (seen.add(n)) {
                todo.addAll(graph.getOrDefault(n, Set.of()));
            }
        }
        return false;
    }

    /** A rule id as a string literal. */
    private static final Pattern RULE_ID = Pattern.compile("\"NL\\d{3}\"");

    @Test
    void onlyARulesChecksNameIt() throws IOException {
        // a rule's policy lives in the catalog; the engine, the front ends' glue and validation ask it
        Path repo = Path.of("..");
        Set<String> naming = new TreeSet<>();
        for (String module : ALL_MODULES) {
            Path src = repo.resolve(module).resolve("src/main/java");
            try (Stream<Path> files = Files.walk(src)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    // a rule's checks: a checks package, and the bytecode layer's SpotBugs detectors (one per rule)
                    if (f.getParent().getFileName().toString().equals("checks")
                            || module.equals("spotbugs-plugin")
                                    && f.getFileName().toString().endsWith("Detector.java")) {
                        continue;
                    }
                    if (RULE_ID.matcher(Files.readString(f, StandardCharsets.UTF_8))
                            .find()) {
                        naming.add(repo.relativize(f).toString());
                    }
                }
            }
        }
        assertThat(naming)
                .as("main sources outside a checks package that name a rule id")
                .isEmpty();
    }

    /**
     * The classes split out of a long class (issue 28): each takes what it needs (the walked body, the values, the
     * sink of its facts) and never calls back into the class it came from, so that the split leaves no file cycle.
     */
    private static final Set<String> SPLIT = Set.of(
            "dev.numlint.cuda.FunctionAnalyzer",
            "dev.numlint.cuda.CudaSourceAnalyzer",
            "dev.numlint.flags.MakefileAudit",
            "dev.numlint.java.RangeAnalysis");

    @Test
    void classesSplitOutOfALongClassDoNotCallBackIntoIt() {
        Set<String> back = new TreeSet<>();
        for (JavaClass c : CLASSES) {
            if (!SPLIT.contains(c.getName())) {
                continue;
            }
            Set<String> used = new TreeSet<>();
            for (JavaClass x : CLASSES) {
                if (outer(x).equals(c.getName())) {
                    for (Dependency d : x.getDirectDependenciesFromSelf()) {
                        used.add(outer(d.getTargetClass()));
                    }
                }
            }
            for (JavaClass u : CLASSES) {
                if (!used.contains(outer(u)) || outer(u).equals(c.getName())) {
                    continue;
                }
                for (Dependency d : u.getDirectDependenciesFromSelf()) {
                    if (outer(d.getTargetClass()).equals(c.getName())) {
                        back.add(outer(u) + " -> " + c.getName());
                    }
                }
            }
        }
        assertThat(back)
                .as("classes that a split class uses and that use it back")
                .isEmpty();
    }

    /** The most lines a main source file may hold. */
    private static final int MAX_LINES = 800;

    /** The PTX interpreter's hot loop: one method on purpose (a dispatch per instruction), exempt for good. */
    private static final Set<String> HOT_LOOP =
            Set.of("validation/src/main/java/dev/numlint/validation/interp/Interpreter.java");

    /**
     * Main source files over {@link #MAX_LINES} lines that are still to be split (issue 28): none left. The test
     * fails when a file not listed grows over the limit and when a listed one is split below it, so the list only
     * shrinks.
     */
    private static final Set<String> TODO_TOO_LONG = Set.of();

    @Test
    void noClassIsOverEightHundredLines() throws IOException {
        Path repo = Path.of("..");
        Set<String> tooLong = new TreeSet<>();
        for (String module : ALL_MODULES) {
            Path src = repo.resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(src)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(src)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    String rel = repo.relativize(f).toString().replace('\\', '/');
                    long lines;
                    try (Stream<String> l = Files.lines(f, StandardCharsets.UTF_8)) {
                        lines = l.count();
                    }
                    if (lines > MAX_LINES && !HOT_LOOP.contains(rel)) {
                        tooLong.add(rel);
                    }
                }
            }
        }
        assertThat(tooLong)
                .as("main sources over " + MAX_LINES + " lines (frozen: TODO_TOO_LONG; the list only shrinks)")
                .containsExactlyInAnyOrderElementsOf(TODO_TOO_LONG);
    }
}
