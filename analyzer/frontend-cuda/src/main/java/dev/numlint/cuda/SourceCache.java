package dev.numlint.cuda;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.rules.Rule;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.rules.RuleOption;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The CUDA source front end's per-file analysis cache: what the analysis of one file reported (findings, notices,
 * random-variate lines, the types Clang found undefined, the functions it declares, the kernel launches it holds), stored under {@code <cache-dir>/source/<sha256>.json} (the
 * scan's cache directory, the PTX cache's: {@code --cache-dir}, else the user's cache home; never inside the scanned
 * tree unless the user puts it there). The key ({@link Key}) is numlint's build, the scan's rule configuration and
 * front-end settings, the file's path and content, its compile command (build context, include directories, the
 * includer's constants, Clang's arguments; for a file reached only through an include, the includer and its macros
 * at the include) and the content of every project file its preprocessing read. A re-scan
 * that finds a valid entry reports what it holds without parsing the file's functions or starting Clang.
 *
 * <p>What a file's preprocessing reports (its includes: notices, the headers it reaches, their first includer) is not
 * stored: it is shared among the files of a scan and read again on every scan. An analysis whose result depends on
 * time or on the machine (a budget ran out, Clang failed or is not available, an internal error) is not stored.
 * An entry that cannot be read, is not numlint's or is not the key's is a notice ({@code cache-entry-ignored}) and
 * the file is analyzed again. {@code -Dnumlint.cuda.cache=false} switches the cache off.
 */
final class SourceCache {
    /** Bumped when the entry's format changes. */
    static final int FORMAT = 5;

    /** Notices whose analysis is not stored: they depend on time, on the machine or on another process. */
    private static final Set<String> NOT_STORED =
            Set.of("over-budget", "internal-error", "clang-not-parsed", "frontend-fallback");

    private static final ObjectMapper JSON =
            new ObjectMapper().enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    private final Path dir;
    /** The part of every key that is the scan's (build, configuration, settings). */
    private final String scanKey;
    /** Content hashes of the project files read this scan, by real path (read once per scan). */
    private final Map<Path, String> hashes = new ConcurrentHashMap<>();

    private SourceCache(Path dir, String scanKey) {
        this.dir = dir;
        this.scanKey = scanKey;
    }

    /** The cache of a scan, or null when it is switched off or the scan has no cache directory. */
    static SourceCache forScan(ScanContext ctx, CudaScanRun run) {
        if (!Boolean.parseBoolean(System.getProperty("numlint.cuda.cache", "true")) || ctx.cacheDir() == null) {
            return null;
        }
        Key k = new Key();
        k.add("format", String.valueOf(FORMAT));
        k.add("numlint", RuleCatalog.toolVersion() + " " + BuildId.get());
        k.add(
                "root",
                ctx.root() == null
                        ? "-"
                        : ctx.root().toAbsolutePath().normalize().toString());
        k.add("rules", rules(ctx));
        for (String s : List.of("all-configurations", "include-extensions", "exclude", "frontend")) {
            k.add("setting " + s, ctx.setting(s).orElse("-"));
        }
        k.add("extensions", new TreeSet<>(run.extensions) + (run.anyExtension ? " and any other included" : ""));
        k.add("max-size", String.valueOf(run.maxHeaderBytes));
        k.add(
                "ptx",
                ctx.ptxMode() + " " + ctx.cudaArch() + " "
                        + ctx.nvcc().map(Path::toString).orElse("-"));
        k.add("nvcc-flags", String.valueOf(ctx.commandLineFlags()));
        for (String p : List.of(
                "numlint.frontend",
                "numlint.clang.alone",
                "numlint.clang.both",
                "numlint.clang.inProcess",
                "numlint.clang.disable")) {
            k.add(p, System.getProperty(p, "-"));
        }
        return new SourceCache(ctx.cacheDir().toAbsolutePath().normalize().resolve("source"), k.digest());
    }

    /**
     * Whether a scan with {@code ctx} finds no entry in the analysis cache (the cache is off, or its directory holds
     * no entry of any scan): then every file it analyzes is parsed.
     */
    static boolean empty(ScanContext ctx) {
        if (!Boolean.parseBoolean(System.getProperty("numlint.cuda.cache", "true")) || ctx.cacheDir() == null) {
            return true;
        }
        Path dir = ctx.cacheDir().toAbsolutePath().normalize().resolve("source");
        if (!Files.isDirectory(dir)) return true;
        try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Every rule's state that changes what a check reports: enabled, level, options. */
    private static String rules(ScanContext ctx) {
        StringBuilder sb = new StringBuilder();
        for (Rule r : RuleCatalog.get().all()) {
            String id = r.id();
            sb.append(id)
                    .append(ctx.rules().enabled(id) ? " on " : " off ")
                    .append(ctx.rules().level(id));
            for (RuleOption o : r.options())
                sb.append(' ').append(o.name()).append('=').append(ctx.rules().option(id, o.name()));
            sb.append('\n');
        }
        return sb.toString();
    }

    /** A key for one file, starting from the scan's part. */
    Key key() {
        Key k = new Key();
        k.add("scan", scanKey);
        return k;
    }

    /** The build context as a key part: every setting the front end reads. */
    static String describe(BuildContext bc) {
        return bc + " undefines=" + bc.undefines() + " asCuda=" + bc.compiledAsCuda() + " origins=" + bc.origins()
                + " hostFastMath=" + bc.hostFastMath() + " summary=" + bc.summary();
    }

    /** Macros as a key part: each by name, with its parameters and the tokens of its body. */
    static String macros(Map<String, Preprocessor.Macro> macros) {
        StringBuilder sb = new StringBuilder();
        for (Preprocessor.Macro m : new TreeMap<>(macros).values()) {
            sb.append(m.name()).append(m.params() == null ? "" : m.params().toString());
            if (m.variadic()) sb.append("...");
            sb.append('=');
            if (m.body() != null) {
                for (PToken t : m.body())
                    sb.append(t.getType()).append(':').append(t.getText()).append(' ');
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** The content hash of a project file (once per scan), or "unreadable". */
    String hash(Path real) {
        return hashes.computeIfAbsent(real, p -> {
            try {
                return sha256(Files.readAllBytes(p));
            } catch (IOException | RuntimeException e) {
                return "unreadable";
            }
        });
    }

    static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A key under construction: labelled parts, each length-prefixed, hashed with SHA-256. */
    static final class Key {
        private final StringBuilder parts = new StringBuilder();

        Key add(String label, String value) {
            String v = value == null ? "\u0000null" : value;
            parts.append(label)
                    .append(':')
                    .append(v.length())
                    .append(':')
                    .append(v)
                    .append('\n');
            return this;
        }

        String digest() {
            return sha256(parts.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    /** One stored finding: the finding as reported, and whether its producer left the level to the scan. */
    record StoredFinding(Finding finding, boolean levelUnset) {}

    /** An entry: what one file's analysis reported, in the order it reported it. */
    record Entry(
            int format,
            String key,
            String file,
            List<StoredFinding> findings,
            List<Notification> notices,
            Set<Integer> variateLines,
            Map<String, Integer> undefinedTypes,
            Set<String> definedTypes,
            List<dev.numlint.model.DeclaredFunction> functions,
            List<dev.numlint.model.KernelLaunch> launches,
            List<dev.numlint.model.FileCalls> calls) {}

    private Path file(String key) {
        return dir.resolve(key + ".json");
    }

    /**
     * The entry of {@code key} for the file {@code rel}, or null: none, or one that cannot be used (then a notice on
     * {@code sink} names the file and the reason, and the caller analyzes the file again).
     */
    Entry get(String key, String rel, FindingSink sink) {
        Path p = file(key);
        String why;
        try {
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) return null;
            // an entry is a regular file numlint wrote, never a link (one planted in a cache inside the tree)
            if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(dir)) {
                why = "it is not a regular file";
            } else {
                Entry e = JSON.readValue(Files.readAllBytes(p), Entry.class);
                why = invalid(e, key, rel);
                if (why == null) return e;
            }
        } catch (IOException | RuntimeException e) {
            why = "it cannot be read (" + e.getClass().getSimpleName() + ")";
        }
        sink.notify(new Notification(
                rel,
                0,
                Level.NOTE,
                "cache-entry-ignored",
                "the analysis cache entry of this file (" + p.getFileName() + " under " + dir + ") was not used: " + why
                        + "; the file was analyzed again"));
        return null;
    }

    private static String invalid(Entry e, String key, String rel) {
        if (e == null || e.format() != FORMAT) return "another format";
        if (!key.equals(e.key()) || !rel.equals(e.file())) return "it is another file's entry";
        if (e.findings() == null
                || e.notices() == null
                || e.variateLines() == null
                || e.undefinedTypes() == null
                || e.definedTypes() == null
                || e.functions() == null
                || e.launches() == null
                || e.calls() == null) {
            return "it is incomplete";
        }
        for (StoredFinding f : e.findings()) {
            if (f == null || f.finding() == null) return "it holds an empty finding";
        }
        for (Notification n : e.notices()) {
            if (n == null || n.id() == null || n.message() == null || n.level() == null)
                return "it holds an empty notice";
        }
        return null;
    }

    /** Reports what an entry holds, as the file's analysis did. */
    static void replay(Entry e, ScanContext ctx, CudaScanRun run, FindingSink sink) {
        for (StoredFinding f : e.findings()) {
            Finding.Builder b = f.finding().toBuilder();
            if (f.levelUnset()) b.level(null);
            sink.report(b);
        }
        e.notices().forEach(sink::notify);
        if (!e.variateLines().isEmpty()) ctx.addRandomVariateLines(e.file(), new TreeSet<>(e.variateLines()));
        if (!e.undefinedTypes().isEmpty()) run.undefinedTypes.add(e.file(), e.undefinedTypes());
        run.undefinedTypes.defined(e.definedTypes());
        if (!e.functions().isEmpty()) ctx.addFunctions(e.functions());
        if (!e.launches().isEmpty()) ctx.addLaunches(e.launches());
        e.calls().forEach(ctx::addCalls);
    }

    /** Stores what {@code r} recorded under {@code key}, when it may be stored; a failure to write is silent. */
    void put(String key, String rel, Recording r) {
        if (!r.storable()) return;
        Entry e = new Entry(
                FORMAT,
                key,
                rel,
                List.copyOf(r.findings),
                List.copyOf(r.notices),
                new TreeSet<>(r.variateLines),
                new TreeMap<>(r.undefinedTypes),
                new TreeSet<>(r.definedTypes),
                List.copyOf(r.functions),
                List.copyOf(r.launches),
                List.copyOf(r.calls));
        try {
            dev.numlint.spi.SafeFiles.directory(dir.getParent());
            dev.numlint.spi.SafeFiles.directory(dir);
            byte[] json = JSON.writeValueAsBytes(e);
            dev.numlint.spi.SafeFiles.write(file(key), out -> out.write(json));
        } catch (IOException | RuntimeException ignored) {
            // a cache that cannot be written costs the next scan time, nothing else
        }
    }

    /**
     * The sink of one file's analysis: passes everything on and records it for the cache; a notice of
     * {@link #NOT_STORED} makes the analysis not storable.
     */
    static final class Recording implements FindingSink {
        private final FindingSink sink;
        private final ScanContext ctx;
        private final List<StoredFinding> findings = new ArrayList<>();
        private final List<Notification> notices = new ArrayList<>();
        private final Set<Integer> variateLines = new TreeSet<>();
        private final Map<String, Integer> undefinedTypes = new TreeMap<>();
        private final Set<String> definedTypes = new TreeSet<>();
        private final List<dev.numlint.model.DeclaredFunction> functions = new ArrayList<>();
        private final List<dev.numlint.model.KernelLaunch> launches = new ArrayList<>();
        private final List<dev.numlint.model.FileCalls> calls = new ArrayList<>();
        private boolean storable = true;

        Recording(FindingSink sink, ScanContext ctx) {
            this.sink = sink;
            this.ctx = ctx;
        }

        @Override
        public synchronized void report(Finding.Builder b) {
            Level given = b.level();
            try {
                if (given == null) b.level(Level.NOTE);
                findings.add(new StoredFinding(b.build(), given == null));
            } catch (RuntimeException incomplete) {
                storable = false; // the scan says what is wrong with it
            } finally {
                b.level(given);
            }
            sink.report(b);
        }

        @Override
        public synchronized void notify(Notification n) {
            if (NOT_STORED.contains(n.id())) storable = false;
            notices.add(n);
            sink.notify(n);
        }

        /** The random-variate lines of the file ({@link ScanContext#addRandomVariateLines}), passed on. */
        synchronized void variateLines(String rel, Set<Integer> lines) {
            variateLines.addAll(lines);
            ctx.addRandomVariateLines(rel, lines);
        }

        /** The types Clang found undefined in the file (the scan's summary counts them). */
        synchronized void undefinedTypes(Map<String, Integer> types) {
            types.forEach((t, n) -> undefinedTypes.merge(t, n, Integer::sum));
        }

        /** The types the file and its headers define (the scan's undefined-types notice leaves them out). */
        synchronized void definedTypes(java.util.Collection<String> names) {
            definedTypes.addAll(names);
        }

        /** The functions the file and its headers define or declare ({@link ScanContext#addFunctions}), passed on. */
        synchronized void functions(List<dev.numlint.model.DeclaredFunction> fns) {
            functions.addAll(fns);
            ctx.addFunctions(fns);
        }

        /** The kernel launches the file holds ({@link ScanContext#addLaunches}), passed on. */
        synchronized void launches(List<dev.numlint.model.KernelLaunch> ls) {
            launches.addAll(ls);
            ctx.addLaunches(ls);
        }

        /** The calls of the file, when Clang read it whole ({@link ScanContext#addCalls}), passed on. */
        synchronized void calls(dev.numlint.model.FileCalls c) {
            if (c == null) return;
            calls.add(c);
            ctx.addCalls(c);
        }

        /** The analysis failed in a way that must be computed again (an exception). */
        synchronized void notStorable() {
            storable = false;
        }

        synchronized boolean storable() {
            return storable;
        }
    }

    /**
     * numlint's build, for the key: for the code of this front end, of the rules (catalog, messages, knowledge) and of
     * the toolchain, its location with its size and time (the jar: one for all), or for a directory of classes (tests,
     * a development build) the newest time and the number of its files.
     */
    static final class BuildId {
        private static volatile String id;

        static String get() {
            String v = id;
            if (v == null) {
                Set<String> parts = new TreeSet<>();
                for (Class<?> c : List.of(SourceCache.class, RuleCatalog.class, dev.numlint.toolchain.PtxCache.class)) {
                    parts.add(compute(c));
                }
                id = v = String.join(" | ", parts);
            }
            return v;
        }

        private static String compute(Class<?> c) {
            try {
                Path p = Path.of(
                        c.getProtectionDomain().getCodeSource().getLocation().toURI());
                if (Files.isRegularFile(p))
                    return p + " " + Files.size(p) + " "
                            + Files.getLastModifiedTime(p).toMillis();
                long[] newest = {0, 0};
                try (java.util.stream.Stream<Path> s = Files.walk(p)) {
                    s.filter(Files::isRegularFile).forEach(f -> {
                        newest[1]++;
                        try {
                            newest[0] = Math.max(
                                    newest[0], Files.getLastModifiedTime(f).toMillis());
                        } catch (IOException e) {
                            newest[0] = Long.MAX_VALUE;
                        }
                    });
                }
                return p + " " + newest[0] + " " + newest[1];
            } catch (IOException | RuntimeException | java.net.URISyntaxException e) {
                return "unknown " + System.nanoTime(); // no build id: entries are never reused
            }
        }
    }
}
