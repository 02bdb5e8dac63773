package dev.numlint.java;

import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.Checks;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jdt.core.JavaCore;
import org.eclipse.jdt.core.compiler.IProblem;
import org.eclipse.jdt.core.dom.AST;
import org.eclipse.jdt.core.dom.ASTParser;
import org.eclipse.jdt.core.dom.CompilationUnit;
import org.eclipse.jdt.core.dom.FileASTRequestor;

/**
 * The Java source front end: parses with Eclipse JDT (bindings from the classpath, the project's source folders
 * and the running JRE; syntactic types where a binding is missing), runs the java-source rules on each
 * compilation unit as it is parsed, and links JCuda launches to their kernel files.
 */
public final class JavaSourceAnalyzer implements Analyzer {
    /** Files per ASTParser batch: large enough to share binding work, small enough to spread over the cores. */
    static final int BATCH_TARGET = 400;

    private static final int MAX_SYNTAX_NOTES = 10;
    /**
     * Problems JDT files as syntax errors that are type checks: an exhaustive switch expression over an enum or a
     * sealed type whose declaration is not on the class path "should have a default case". Valid code; not reported.
     */
    private static final Set<Integer> NOT_SYNTAX = Set.of(
            IProblem.SwitchExpressionsYieldMissingDefaultCase, IProblem.SwitchExpressionsYieldMissingEnumConstantCase);

    private final boolean resolveBindings;

    /** The analyzer as registered: resolves bindings. */
    public JavaSourceAnalyzer() {
        this(true);
    }

    /** With {@code resolveBindings} false every file is parsed alone with syntactic types (tests, fallback). */
    JavaSourceAnalyzer(boolean resolveBindings) {
        this.resolveBindings = resolveBindings;
    }

    @Override
    public String id() {
        return "java-source";
    }

    @Override
    public Layer layer() {
        return Layer.JAVA_SOURCE;
    }

    @Override
    public int phase() {
        return PHASE_HOST;
    }

    /** The registered java-source checks (one per rule), loaded once. */
    static List<JavaCheck> checks() {
        return Holder.CHECKS;
    }

    private static final class Holder {
        static final List<JavaCheck> CHECKS = Checks.load(JavaCheck.class, Layer.JAVA_SOURCE);
    }

    @Override
    public Set<String> implementedRules() {
        return Checks.ruleIds(checks());
    }

    @Override
    public boolean accepts(Path file) {
        Path n = file.getFileName();
        return n != null && n.toString().endsWith(".java");
    }

    /** One parser batch: files of one project with its environment. */
    private record Batch(List<Path> files, int release, String[] classpath, String[] sourcepath, Path mirror) {}

    @Override
    @SuppressWarnings("try") // the resource only silences JDT's stderr while the block runs
    public void analyze(ScanContext ctx, List<Path> files, FindingSink sink) {
        if (files.isEmpty()) {
            return;
        }
        UnresolvedTypes unresolved = new UnresolvedTypes();
        try (JdtNoise quiet = JdtNoise.silence()) {
            analyzeAll(ctx, files, new UnresolvedSink(sink, unresolved));
        }
        if (unresolved.files.get() > 0 && resolveBindings) {
            int n = unresolved.files.get();
            sink.notify(new Notification(
                    null,
                    0,
                    Level.WARNING,
                    "java-types-unresolved",
                    "types used by " + n + " Java file" + (n == 1 ? "" : "s") + " could not be resolved"
                            + unresolved.packages() + " (first: " + unresolved.example + "); they were guessed from"
                            + " the source, so findings may be missed or have low confidence: "
                            + (ctx.classpath().isEmpty()
                                    ? "pass the project's jars with --classpath"
                                    : "the --classpath given lacks them; add the jars that provide them")));
        }
    }

    /** Counts files with unresolved types (for the one notice at the end of the scan). */
    static final class UnresolvedTypes {
        /** How many missing packages the notice names; the rest are counted. */
        static final int LISTED = 5;

        final java.util.concurrent.atomic.AtomicInteger files = new java.util.concurrent.atomic.AtomicInteger();
        /** Missing package (from the imports that cannot be resolved) to the number of files importing it. */
        final Map<String, java.util.concurrent.atomic.AtomicInteger> missing = new ConcurrentHashMap<>();

        volatile String example;

        /** Records the packages of one file's unresolved imports (each package counted once per file). */
        void file(Set<String> packages) {
            for (String p : packages)
                missing.computeIfAbsent(p, k -> new java.util.concurrent.atomic.AtomicInteger())
                        .incrementAndGet();
        }

        /** " (missing packages: a.b (12 files), c.d (3 files) and 4 more)", or "" when no import named them. */
        String packages() {
            if (missing.isEmpty()) return "";
            List<Map.Entry<String, java.util.concurrent.atomic.AtomicInteger>> all =
                    new ArrayList<>(missing.entrySet());
            all.sort((x, y) -> y.getValue().get() != x.getValue().get()
                    ? Integer.compare(y.getValue().get(), x.getValue().get())
                    : x.getKey().compareTo(y.getKey()));
            StringBuilder sb = new StringBuilder(" (missing packages: ");
            for (int i = 0; i < Math.min(LISTED, all.size()); i++) {
                if (i > 0) sb.append(", ");
                int k = all.get(i).getValue().get();
                sb.append(all.get(i).getKey()).append(" (").append(k).append(k == 1 ? " file)" : " files)");
            }
            if (all.size() > LISTED)
                sb.append(" and ").append(all.size() - LISTED).append(" more");
            return sb.append(')').toString();
        }

        /**
         * The package an unresolved import names: the segments before the first capitalised one ({@code
         * org.scijava.plugin.Plugin} and {@code org.scijava.plugin} are both {@code org.scijava.plugin}).
         */
        static String packageOf(String imported) {
            String[] parts = imported.split("\\.");
            StringBuilder sb = new StringBuilder();
            for (String part : parts) {
                if (part.isEmpty() || Character.isUpperCase(part.charAt(0)) || part.equals("*")) break;
                if (sb.length() > 0) sb.append('.');
                sb.append(part);
            }
            return sb.length() == 0 ? imported : sb.toString();
        }
    }

    /** Passes everything on; remembers the unresolved-types marker of {@link #analyzeUnit}. */
    private record UnresolvedSink(FindingSink sink, UnresolvedTypes unresolved) implements FindingSink {
        @Override
        public void report(dev.numlint.model.Finding.Builder finding) {
            sink.report(finding);
        }

        @Override
        public void notify(Notification n) {
            sink.notify(n);
        }
    }

    private void analyzeAll(ScanContext ctx, List<Path> files, FindingSink sink) {
        List<Batch> batches = plan(ctx, files, sink);
        ConcurrentLinkedQueue<Batch> queue = new ConcurrentLinkedQueue<>(batches);
        Runnable worker = () -> {
            Batch b;
            while ((b = queue.poll()) != null) {
                runBatch(ctx, sink, b);
            }
        };
        int helpers = Math.min(Math.max(0, batches.size() - 1), Math.max(0, dev.numlint.model.Cores.available() - 1));
        // Helpers run on the shared pool; one that has not started by the time the queue is drained is claimed
        // here and never runs (the pool may be busy with our own caller), so waiting cannot deadlock.
        CountDownLatch finished = new CountDownLatch(helpers);
        List<AtomicBoolean> claims = new ArrayList<>();
        for (int i = 0; i < helpers; i++) {
            AtomicBoolean claim = new AtomicBoolean();
            claims.add(claim);
            ctx.executor().execute(() -> {
                if (!claim.compareAndSet(false, true)) return;
                try {
                    worker.run();
                } catch (RuntimeException | Error e) {
                    sink.notify(new Notification(
                            null, 0, Level.WARNING, "internal-error", "java-source worker failed: " + e));
                } finally {
                    finished.countDown();
                }
            });
        }
        worker.run();
        for (AtomicBoolean claim : claims) {
            if (claim.compareAndSet(false, true)) finished.countDown();
        }
        try {
            finished.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private List<Batch> plan(ScanContext ctx, List<Path> files, FindingSink sink) {
        // group by project (nearest pom.xml), in path order so a batch holds neighbouring packages
        Map<Path, List<Path>> byProject = new TreeMap<>();
        Map<Path, Path> projectDirs = new LinkedHashMap<>();
        Path rootKey = ctx.root().toAbsolutePath().normalize();
        List<String> templates = new ArrayList<>();
        for (Path f : files.stream().sorted().toList()) {
            Path abs = f.toAbsolutePath().normalize();
            try {
                if (!Files.isReadable(abs)) {
                    sink.notify(new Notification(
                            ctx.relativize(abs), 0, Level.ERROR, "unreadable-file", "cannot read the file"));
                    continue;
                }
                long size = Files.size(abs);
                long max = ctx.maxFileSize(dev.numlint.model.Layer.JAVA_SOURCE);
                if (size > max) {
                    sink.notify(new Notification(
                            ctx.relativize(abs),
                            0,
                            Level.ERROR,
                            "file-too-large",
                            "not analyzed: the file has " + size + " bytes, more than max-file-size for java-source ("
                                    + max + ")"));
                    continue;
                }
            } catch (IOException e) {
                sink.notify(new Notification(
                        ctx.relativize(abs),
                        0,
                        Level.ERROR,
                        "unreadable-file",
                        "cannot read the file: " + e.getMessage()));
                continue;
            }
            if (isTemplate(ctx.relativize(abs), abs)) {
                templates.add(ctx.relativize(abs));
                continue;
            }
            Path pd = JavaProject.projectDir(abs, rootKey);
            Path key = pd == null ? rootKey : pd;
            projectDirs.put(key, pd);
            byProject.computeIfAbsent(key, k -> new ArrayList<>()).add(abs);
        }
        if (!templates.isEmpty()) {
            sink.notify(new Notification(
                    null,
                    0,
                    Level.NOTE,
                    "java-templates-skipped",
                    templates.size() + " .java file" + (templates.size() == 1 ? " is" : "s are")
                            + " not analyzed: templates or resources, not compilation units (under "
                            + "archetype-resources or src/*/resources, or with Velocity directives; first: "
                            + templates.get(0) + ")"));
        }
        // classpath: --classpath, jars in the scanned tree, Maven output folders
        Set<String> commonCp = new LinkedHashSet<>();
        for (Path p : ctx.classpath())
            if (Files.exists(p)) commonCp.add(p.toAbsolutePath().normalize().toString());
        for (Path p : ctx.files()) {
            if (p.getFileName() != null && p.getFileName().toString().endsWith(".jar"))
                commonCp.add(p.toAbsolutePath().normalize().toString());
        }
        int cores = dev.numlint.model.Cores.available();
        dev.numlint.spi.TrustBoundary boundary = ctx.boundary();
        List<Batch> out = new ArrayList<>();
        Integer forced = ctx.setting("java-release").map(Integer::valueOf).orElse(null);
        Path mavenRepo = ctx.setting("maven-repo").map(Path::of).orElse(null);
        int assumedFiles = 0;
        Set<String> missingParents = new java.util.TreeSet<>();
        for (Map.Entry<Path, List<Path>> e : byProject.entrySet()) {
            Path pd = projectDirs.get(e.getKey());
            int release;
            if (forced != null) {
                release = forced;
            } else {
                JavaProject.Release r = JavaProject.releaseOf(pd, boundary, mavenRepo);
                release = r.release();
                if (!r.known() && r.missingParent() != null) {
                    assumedFiles += e.getValue().size();
                    missingParents.add(r.missingParent());
                }
            }
            Set<String> cp = new LinkedHashSet<>(commonCp);
            if (pd != null) {
                Path classes = pd.resolve("target/classes");
                if (Files.isDirectory(classes)) cp.add(classes.toString());
            }
            List<Path> fs = e.getValue();
            Set<Path> roots = new LinkedHashSet<>();
            for (Path f : fs) {
                Path r = JavaProject.sourceRoot(f);
                if (r != null) roots.add(r);
            }
            // batches of whole packages (directories), balanced by size: a batch then rarely looks up a missing type
            // in a package whose sources it must scan (JDT parses a whole source package to find secondary types)
            Map<Path, List<Path>> byDir = new TreeMap<>();
            Map<Path, Long> dirBytes = new java.util.HashMap<>();
            for (Path f : fs) {
                byDir.computeIfAbsent(f.getParent(), k -> new ArrayList<>()).add(f);
                dirBytes.merge(f.getParent(), sizeOf(f), Long::sum);
            }
            int n = fs.size();
            int chunks = n < 40 ? 1 : Math.max(Math.min(cores, n / 20), (n + BATCH_TARGET - 1) / BATCH_TARGET);
            chunks = Math.max(1, Math.min(Integer.getInteger("numlint.java.batches", chunks), byDir.size()));
            List<List<Path>> parts = new ArrayList<>();
            long[] load = new long[chunks];
            for (int i = 0; i < chunks; i++) parts.add(new ArrayList<>());
            List<Path> dirs = new ArrayList<>(byDir.keySet());
            dirs.sort((a, b) -> Long.compare(dirBytes.get(b), dirBytes.get(a)));
            for (Path d : dirs) {
                int best = 0;
                for (int i = 1; i < chunks; i++) if (load[i] < load[best]) best = i;
                parts.get(best).addAll(byDir.get(d));
                load[best] += dirBytes.get(d);
            }
            // every source file under the project's source folders, for the types a batch needs from the others
            List<Path[]> sources = projectSources(roots, boundary); // {root, file}
            for (List<Path> part : parts) {
                if (part.isEmpty()) continue;
                part.sort(null);
                Set<Path> own = new java.util.HashSet<>(part);
                Path mirror = null;
                String[] sp;
                try {
                    mirror = mirror(sources, own);
                    sp = mirror == null ? new String[0] : new String[] {mirror.toString()};
                } catch (IOException | RuntimeException ex) {
                    // no symbolic links here: give JDT the real folders (slower, same bindings)
                    sp = roots.stream()
                            .filter(r -> boundary.contains(realOrNull(r)))
                            .map(Path::toString)
                            .toArray(String[]::new);
                }
                out.add(new Batch(part, release, cp.toArray(new String[0]), sp, mirror));
            }
        }
        if (assumedFiles > 0) {
            List<String> named = new ArrayList<>(missingParents);
            String parents = String.join(", ", named.subList(0, Math.min(3, named.size())))
                    + (named.size() > 3 ? " and " + (named.size() - 3) + " more" : "");
            sink.notify(new Notification(
                    null,
                    0,
                    Level.WARNING,
                    "java-release-assumed",
                    "Java release assumed " + JavaProject.DEFAULT_RELEASE + " for " + assumedFiles + " file"
                            + (assumedFiles == 1 ? "" : "s") + ": the parent POM that may set it (" + parents
                            + ") is not in the scanned tree"
                            + (mavenRepo == null ? "" : " nor in " + mavenRepo)
                            + "; pass --java-release N, or --maven-repo ~/.m2/repository to read parent POMs there"));
        }
        return out;
    }

    /**
     * Every source file under the project's source folders ({root, file}), for the types a batch needs from the
     * others: only those inside the trust boundary; a source folder above the scanned PATH, or a link in it that leads
     * out, is never handed to JDT.
     */
    static List<Path[]> projectSources(java.util.Collection<Path> roots, dev.numlint.spi.TrustBoundary boundary) {
        List<Path[]> sources = new ArrayList<>();
        for (Path r : roots) {
            try (java.util.stream.Stream<Path> w = Files.walk(r)) {
                w.filter(p -> p.toString().endsWith(".java") && boundary.readable(p) != null)
                        .forEach(p ->
                                sources.add(new Path[] {r, p.toAbsolutePath().normalize()}));
            } catch (IOException | RuntimeException ex) {
                // unreadable folder: its types stay unresolved (syntactic types)
            }
        }
        return sources;
    }

    private static Path realOrNull(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static long sizeOf(Path f) {
        try {
            return Files.size(f);
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * A temporary source folder holding links to the sources a batch does not analyze itself (null when there are
     * none), so that JDT finds the other batches' types without scanning the batch's own packages again.
     */
    private static Path mirror(List<Path[]> sources, Set<Path> own) throws IOException {
        Path dir = null;
        for (Path[] s : sources) {
            if (own.contains(s[1])) continue;
            if (dir == null) dir = Files.createTempDirectory("numlint-java-src");
            Path link = dir.resolve(s[0].relativize(s[1]).toString());
            Files.createDirectories(link.getParent());
            if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) Files.createSymbolicLink(link, s[1]);
        }
        return dir;
    }

    private static void deleteTree(Path dir) {
        if (dir == null) return;
        try (java.util.stream.Stream<Path> w = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) w.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | RuntimeException e) {
            // temporary links only; the OS cleans the temp folder
        }
    }

    static Map<String, String> compilerOptions(int release) {
        Map<String, String> options = JavaCore.getOptions();
        String v = release <= 8 ? "1." + Math.max(release, 1) : Integer.toString(release);
        if (!JavaCore.getAllVersions().contains(v)) v = JavaCore.latestSupportedJavaVersion();
        JavaCore.setComplianceOptions(v, options);
        options.put(JavaCore.COMPILER_DOC_COMMENT_SUPPORT, JavaCore.DISABLED);
        options.put(JavaCore.COMPILER_PB_ENABLE_PREVIEW_FEATURES, JavaCore.DISABLED);
        options.put(JavaCore.COMPILER_TASK_TAGS, "");
        if (!Boolean.getBoolean("numlint.java.keepwarnings")) {
            // only bindings are wanted: optional diagnostics (unused code, raw types, ...) cost analysis time
            for (Map.Entry<String, String> e : options.entrySet()) {
                String val = e.getValue();
                if (e.getKey().startsWith("org.eclipse.jdt.core.compiler.problem.")
                        && (val.equals(JavaCore.WARNING) || val.equals(JavaCore.INFO) || val.equals(JavaCore.ERROR))) {
                    e.setValue(JavaCore.IGNORE);
                }
            }
        }
        return options;
    }

    private void runBatch(ScanContext ctx, FindingSink sink, Batch b) {
        Set<String> done = ConcurrentHashMap.newKeySet();
        String[] paths = b.files().stream().map(Path::toString).toArray(String[]::new);
        String[] enc = new String[b.sourcepath().length];
        java.util.Arrays.fill(enc, "UTF-8");
        String[] fileEnc = new String[paths.length];
        for (int i = 0; i < paths.length; i++) fileEnc[i] = encodingOf(b.files().get(i));
        if (resolveBindings) {
            List<Path> failed = new ArrayList<>();
            Throwable[] cause = {null};
            resolve(ctx, sink, b, b.files(), fileEnc, enc, done, failed, cause);
            if (!failed.isEmpty()) {
                StringBuilder names = new StringBuilder();
                for (int i = 0; i < Math.min(MAX_FAILED_NAMED, failed.size()); i++) {
                    if (i > 0) names.append(", ");
                    names.append(ctx.relativize(failed.get(i)));
                }
                if (failed.size() > MAX_FAILED_NAMED)
                    names.append(" and ")
                            .append(failed.size() - MAX_FAILED_NAMED)
                            .append(" more");
                sink.notify(new Notification(
                        failed.size() == 1 ? ctx.relativize(failed.get(0)) : null,
                        0,
                        Level.WARNING,
                        "java-bindings-failed",
                        "the Java compiler failed to resolve the types of " + failed.size() + " file"
                                + (failed.size() == 1 ? "" : "s") + " (" + cause[0] + "): " + names
                                + "; analyzed with types guessed from the source (the other "
                                + (paths.length - failed.size()) + " files of the batch kept their types)"));
            }
        }
        deleteTree(b.mirror());
        // files JDT did not hand back (or the batch failed): parse them one by one without bindings
        for (Path f : b.files()) {
            if (done.contains(f.toString())) continue;
            parseAlone(ctx, sink, f, b.release());
        }
    }

    /**
     * Tests only: makes binding resolution throw when JDT hands back a matching file, as JDT itself has thrown
     * NullPointerException on real code (the failure cannot be provoked through the public parser otherwise).
     */
    static volatile java.util.function.Predicate<String> compilerFailureForTests = f -> false;

    /** Velocity/FreeMarker lines that cannot start a line of Java: a file holding one is a template. */
    private static final java.util.regex.Pattern TEMPLATE_LINE = java.util.regex.Pattern.compile(
            "^[ \t]*(?:#(?:set|if|elseif|else|end|foreach|macro|parse|include|define)\\b|##|<#|package[ \t]+\\$\\{)",
            java.util.regex.Pattern.MULTILINE);

    /**
     * A .java file that is no compilation unit of the project: under an {@code archetype-resources} folder or a
     * Maven resources folder ({@code src/main/resources}, {@code src/test/resources}), or holding a template
     * directive ({@code #set(...)}, {@code package ${package};}).
     */
    static boolean isTemplate(String rel, Path file) {
        String[] seg = rel.replace('\\', '/').split("/");
        for (int i = 0; i < seg.length - 1; i++) {
            if (seg[i].equals("archetype-resources")) return true;
            if (i + 2 < seg.length && seg[i].equals("src") && seg[i + 2].equals("resources")) return true;
        }
        try (java.io.BufferedReader r = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            char[] head = new char[8192];
            int n = r.read(head);
            return n > 0 && TEMPLATE_LINE.matcher(new String(head, 0, n)).find();
        } catch (IOException e) {
            return false; // read again (and reported) by the analysis
        }
    }

    /** How many files a failed-binding notice names; the rest are counted. */
    static final int MAX_FAILED_NAMED = 5;
    /** After this many files isolated as failing, the rest of a failing part is not split further. */
    static final int MAX_ISOLATED = 16;

    /**
     * Resolves {@code files} with bindings; when JDT throws, splits the files it did not hand back in halves and tries
     * again, so that one file that breaks the compiler (JDT has thrown NullPointerException on real code) costs only
     * itself its types. Files that fail alone, or once {@link #MAX_ISOLATED} did, go to {@code failed}.
     */
    private void resolve(
            ScanContext ctx,
            FindingSink sink,
            Batch b,
            List<Path> files,
            String[] fileEncAll,
            String[] enc,
            Set<String> done,
            List<Path> failed,
            Throwable[] cause) {
        try {
            ASTParser parser = ASTParser.newParser(AST.getJLSLatest());
            parser.setKind(ASTParser.K_COMPILATION_UNIT);
            parser.setCompilerOptions(compilerOptions(b.release()));
            parser.setResolveBindings(true);
            parser.setBindingsRecovery(true);
            parser.setStatementsRecovery(true);
            parser.setEnvironment(b.classpath(), b.sourcepath(), enc, true);
            String[] paths = files.stream().map(Path::toString).toArray(String[]::new);
            String[] fileEnc = new String[paths.length];
            for (int i = 0; i < paths.length; i++)
                fileEnc[i] = fileEncAll[b.files().indexOf(files.get(i))];
            parser.createASTs(
                    paths,
                    fileEnc,
                    new String[0],
                    new FileASTRequestor() {
                        @Override
                        public void acceptAST(String sourceFilePath, CompilationUnit ast) {
                            if (compilerFailureForTests.test(sourceFilePath))
                                throw new NullPointerException("simulated compiler failure");
                            if (!done.add(sourceFilePath)) return;
                            analyzeUnit(ctx, sink, Path.of(sourceFilePath), ast, b.release(), true);
                        }
                    },
                    null);
        } catch (RuntimeException | LinkageError e) {
            if (cause[0] == null) cause[0] = e;
            List<Path> rest =
                    files.stream().filter(f -> !done.contains(f.toString())).toList();
            if (rest.size() <= 1 || failed.size() >= MAX_ISOLATED || rest.size() == files.size() && files.size() == 1) {
                failed.addAll(rest);
                return;
            }
            int half = rest.size() / 2;
            resolve(ctx, sink, b, rest.subList(0, half), fileEncAll, enc, done, failed, cause);
            resolve(ctx, sink, b, rest.subList(half, rest.size()), fileEncAll, enc, done, failed, cause);
        }
    }

    private void parseAlone(ScanContext ctx, FindingSink sink, Path f, int release) {
        String src = readSource(f);
        if (src == null) {
            sink.notify(new Notification(ctx.relativize(f), 0, Level.ERROR, "unreadable-file", "cannot read the file"));
            return;
        }
        try {
            ASTParser parser = ASTParser.newParser(AST.getJLSLatest());
            parser.setKind(ASTParser.K_COMPILATION_UNIT);
            parser.setCompilerOptions(compilerOptions(release));
            parser.setStatementsRecovery(true);
            parser.setSource(src.toCharArray());
            CompilationUnit cu = (CompilationUnit) parser.createAST(null);
            analyzeUnit(ctx, sink, f, cu, release, false);
        } catch (RuntimeException | LinkageError e) {
            sink.notify(new Notification(
                    ctx.relativize(f), 0, Level.ERROR, "parse-failed", "the Java parser failed: " + e));
        }
    }

    /** The name the import declaration at {@code pos} imports (JDT's message names only its first unknown part). */
    private static String importAt(CompilationUnit cu, int pos) {
        for (Object o : cu.imports()) {
            org.eclipse.jdt.core.dom.ImportDeclaration d = (org.eclipse.jdt.core.dom.ImportDeclaration) o;
            if (pos >= d.getStartPosition() && pos < d.getStartPosition() + d.getLength())
                return d.getName().getFullyQualifiedName();
        }
        return null;
    }

    static void analyzeUnit(
            ScanContext ctx, FindingSink sink, Path file, CompilationUnit cu, int release, boolean bindings) {
        String rel = ctx.relativize(file);
        try {
            int syntax = 0;
            boolean unresolvedType = false;
            Set<String> missingPackages = new java.util.TreeSet<>();
            for (IProblem p : cu.getProblems()) {
                if (bindings && (p.getID() == IProblem.UndefinedType || p.getID() == IProblem.ImportNotFound)) {
                    if (p.getID() == IProblem.ImportNotFound) {
                        String imported = importAt(cu, p.getSourceStart());
                        if (imported != null) missingPackages.add(UnresolvedTypes.packageOf(imported));
                    }
                    if (!unresolvedType
                            && sink instanceof UnresolvedSink u
                            && u.unresolved().files.getAndIncrement() == 0) {
                        u.unresolved().example = rel + ": " + p.getMessage();
                    }
                    unresolvedType = true;
                }
                if (!p.isError() || (p.getID() & IProblem.Syntax) == 0 || NOT_SYNTAX.contains(p.getID())) continue;
                if (++syntax <= MAX_SYNTAX_NOTES) {
                    sink.notify(new Notification(
                            rel,
                            Math.max(0, p.getSourceLineNumber()),
                            Level.WARNING,
                            "syntax-error",
                            "syntax error (recovered; analysis around it may be incomplete): " + p.getMessage()));
                }
            }
            if (sink instanceof UnresolvedSink u && !missingPackages.isEmpty())
                u.unresolved().file(missingPackages);
            if (syntax > MAX_SYNTAX_NOTES) {
                sink.notify(new Notification(
                        rel,
                        0,
                        Level.WARNING,
                        "syntax-error",
                        (syntax - MAX_SYNTAX_NOTES) + " more syntax errors not listed"));
            }
            String source = readSource(file);
            if (source == null) {
                sink.notify(new Notification(rel, 0, Level.ERROR, "unreadable-file", "cannot read the file"));
                return;
            }
            new JavaUnit(
                            ctx,
                            sink,
                            file,
                            source,
                            cu,
                            release,
                            bindings && cu.getAST().hasResolvedBindings(),
                            Long.getLong("numlint.java.fileBudgetMs", JavaUnit.DEFAULT_BUDGET_MS))
                    .run(checks());
        } catch (JavaUnit.BudgetExceeded e) {
            sink.notify(new Notification(
                    rel,
                    0,
                    Level.WARNING,
                    "not-analyzed",
                    "not analyzed: the java-source rules took longer than the per-file budget of "
                            + Long.getLong("numlint.java.fileBudgetMs", JavaUnit.DEFAULT_BUDGET_MS)
                            + " ms (set -Dnumlint.java.fileBudgetMs to raise it); the scan goes on"));
        } catch (RuntimeException | StackOverflowError e) {
            sink.notify(new Notification(
                    rel,
                    0,
                    Level.WARNING,
                    "internal-error",
                    "the java-source rules failed on this file (partly analyzed): " + e));
        }
    }

    private static String encodingOf(Path f) {
        try {
            byte[] b = Files.readAllBytes(f);
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b));
            return "UTF-8";
        } catch (CharacterCodingException e) {
            return "ISO-8859-1";
        } catch (IOException e) {
            return "UTF-8";
        }
    }

    static String readSource(Path f) {
        try {
            byte[] b = Files.readAllBytes(f);
            try {
                String t = StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(b))
                        .toString();
                // JDT skips a byte-order mark: positions count from the character after it
                return t.startsWith("\uFEFF") ? t.substring(1) : t;
            } catch (CharacterCodingException e) {
                return new String(b, StandardCharsets.ISO_8859_1);
            }
        } catch (IOException e) {
            return null;
        }
    }
}
