package dev.numlint.cuda;

import dev.numlint.cuda.clang.ClangFrontEnd;
import dev.numlint.spi.ScanContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The state of one {@link CudaSourceAnalyzer#analyze} call, shared by its files: the files the scan lists, the files
 * reached by {@code #include} (listed or not) with their first includer, the include policy and excludes, the
 * extensions of included files that are analyzed, the Clang front end of the scan, and the types Clang found undefined.
 */
final class CudaScanRun {
    /** The most files of the scanned tree indexed to resolve an include by name ({@link #inTree}). */
    static final long MAX_TREE_FILES = 200_000;

    /**
     * The first includer of a file that the scan does not list, with the macros defined at the include.
     * {@code covered}: for a listed header analyzed again in an includer's context ({@link IncludedSources}), the
     * lines already analyzed (alone, or in an earlier context), which this context adds to; else null.
     */
    record IncludedFrom(
            Path includer,
            Map<String, Preprocessor.Macro> macros,
            Preprocessor.Dialect dialect,
            java.util.BitSet covered) {
        IncludedFrom(Path includer, Map<String, Preprocessor.Macro> macros, Preprocessor.Dialect dialect) {
            this(includer, macros, dialect, null);
        }

        IncludedFrom covering(java.util.BitSet lines) {
            return new IncludedFrom(includer, macros, dialect, lines);
        }
    }

    final ScanContext ctx;
    /** Headers larger than this are not read (the cuda-source max-file-size). */
    final long maxHeaderBytes;
    /** Real paths of the files the scan gave this analyzer. */
    final Set<Path> listed = new HashSet<>();
    /** Files reached by #include that the scan does not list, by real path, with their first includer. */
    final Map<Path, IncludedFrom> included = new ConcurrentHashMap<>();
    /** Listed files reached by #include, by real path, with their first includer (for its constants). */
    final Map<Path, IncludedFrom> listedIncluders = new ConcurrentHashMap<>();
    /**
     * Listed headers reached by #include, by real path: per distinct state of the macros the header's conditions
     * test (its {@code #if}, {@code #ifdef} names), the first includer in path order ({@link IncludedSources}).
     */
    final Map<Path, Map<String, IncludedFrom>> headerContexts = new ConcurrentHashMap<>();
    /** The macros each compiled unit's own text defines ({@link UnitHeaders}), by path. */
    final Map<Path, Set<String>> unitDefines = new ConcurrentHashMap<>();
    /** The build-variants notices that change nothing, by their text without the entry's place ({@link BuildVariants}). */
    final Map<String, Map<String, String>> sameVariants = new ConcurrentHashMap<>();
    /** The names each listed header's conditions test ({@link IncludedSources#conditionNames}), by real path. */
    final Map<Path, Set<String>> conditionNames = new ConcurrentHashMap<>();
    /**
     * Set while this thread analyzes a unit again in another build variant ({@link BuildVariants}): its includes
     * record no includer of a header (headers are analyzed once, in the first variant) and its Clang parse keeps no
     * header's cursors.
     */
    final ThreadLocal<Boolean> variantPass = ThreadLocal.withInitial(() -> Boolean.FALSE);
    /** The lines of each listed header that its analysis alone read (tokens after preprocessing), by real path. */
    final Map<Path, java.util.BitSet> aloneLines = new ConcurrentHashMap<>();

    /** Listed headers, by real path: the compiled unit Clang reads each in ({@link UnitHeaders}). */
    final Map<Path, Path> headerUnits = UnitHeaders.map();
    /** Listed headers, by real path: their cursors from their unit's parse ({@link UnitHeaders}). */
    final Map<Path, UnitHeaders.Kept> keptHeaders = UnitHeaders.map();
    /** The project files each compiled unit's preprocessing read, by the unit's real path ({@link UnitHeaders}). */
    final Map<Path, Set<Path>> unitReads = UnitHeaders.map();
    /** The project files the scan's compiled units read, by real path ({@link BuildScope}). */
    final Set<Path> unitsRead = ConcurrentHashMap.newKeySet();
    /** The compiled units preprocessed in this scan, by real path ({@link UnreadHeaders}). */
    final Set<Path> unitsPreprocessed = ConcurrentHashMap.newKeySet();

    final dev.numlint.toolchain.IncludePolicy policy;
    /** The types Clang found used but defined in no file it read, over the whole scan (one notice at the end). */
    final UndefinedTypes undefinedTypes = new UndefinedTypes();
    /** The files Clang read with numlint's declarations of a CUDA library (one notice per library at the end). */
    final LibraryStubUse libraryStubs = new LibraryStubUse();
    /** Includes already reported as not read (includer:line:name). */
    final Set<String> refusedIncludes = ConcurrentHashMap.newKeySet();
    /**
     * Every include-by-name note of each header name, with the file that holds the {@code #include} (real path), by
     * header name: all of them are kept, and the one shown is decided once every file is analyzed
     * ({@link #flushIncludedByName}), so that it does not depend on which file worker got there first.
     */
    private final Map<String, Map<dev.numlint.model.Notification, Path>> byNameNotes = new ConcurrentHashMap<>();
    /** The file each by-name note's header name was read from, by header name. */
    private final Map<String, Path> byNameFiles = new ConcurrentHashMap<>();

    void includedByName(String name, Path real, dev.numlint.model.Notification n, Path from) {
        byNameFiles.putIfAbsent(name, real);
        Path includer = from == null ? null : realPath(from);
        byNameNotes
                .computeIfAbsent(name, k -> new ConcurrentHashMap<>())
                .putIfAbsent(n, includer == null ? from : includer);
    }

    /** Of two notes, the one at the earlier place (path, then line): the same whichever thread came first. */
    static dev.numlint.model.Notification firstPlace(
            dev.numlint.model.Notification a, dev.numlint.model.Notification b) {
        return BY_PLACE.compare(a, b) <= 0 ? a : b;
    }

    private static final java.util.Comparator<dev.numlint.model.Notification> BY_PLACE = java.util.Comparator.comparing(
                    dev.numlint.model.Notification::file)
            .thenComparingInt(dev.numlint.model.Notification::line);

    /**
     * One notice per included file that the configured include-extensions leave out (never silently): its path, its
     * first includer and the reason, in path order, once every file is analyzed.
     */
    void flushLeftOut(dev.numlint.spi.FindingSink sink) {
        new java.util.TreeMap<>(leftOut).forEach((file, includer) -> {
            String n = file.getFileName().toString();
            sink.notify(new dev.numlint.model.Notification(
                    ctx.relativize(file),
                    0,
                    dev.numlint.model.Level.NOTE,
                    "include-not-analyzed",
                    "not analyzed: #included by " + ctx.relativize(includer) + ", but its extension ."
                            + n.substring(n.lastIndexOf('.') + 1) + " is not in the configured include-extensions"));
        });
        leftOut.clear();
    }

    /**
     * Sends the include-by-name notes, in header-name order, once every file is analyzed: for each header name the
     * note at the first place (path, then line) whose {@code #include} the build does not read through an include
     * directory. A place is left out when the file that holds the {@code #include} has a build context whose include
     * directories hold the header as read (opus's {@code -Iinclude} of a Makefile command, STIR's {@code -I} in CMake's
     * includes_CUDA.rsp), or when a unit the build compiles (a compile command, not guessed flags) reads that file and
     * its directories hold it: the build includes the file as read, and only a reading in another context (a header
     * read alone, a file the build does not compile so) lacked the directory. Which readings happen in which context
     * depends on the order of the file workers; this decision reads only the build contexts and every unit's reads,
     * which do not.
     */
    void flushIncludedByName(dev.numlint.spi.FindingSink sink) {
        Map<Path, Path> buildDirs = byNameNotes.isEmpty() ? Map.of() : buildIncludeDirectories();
        for (var e : new java.util.TreeMap<>(byNameNotes).entrySet()) {
            Path real = byNameFiles.get(e.getKey());
            dev.numlint.model.Notification n = null;
            for (var place : e.getValue().entrySet()) {
                if (real != null && readThroughBuild(place.getValue(), e.getKey(), real)) continue;
                if (n == null || firstPlace(place.getKey(), n) == place.getKey()) n = place.getKey();
            }
            if (n == null) continue;
            Map.Entry<Path, Path> holder = buildDirs.entrySet().stream()
                    .filter(d -> real != null && real.equals(realPath(d.getKey().resolve(e.getKey()))))
                    .findFirst()
                    .orElse(null);
            if (holder != null) {
                // the build does hold it: only this reading (a header read alone, a file the build does not
                // compile) lacked the directory, and the note must not say that the build has none
                n = new dev.numlint.model.Notification(
                        n.file(),
                        n.line(),
                        n.level(),
                        n.id(),
                        "#include \"" + e.getKey() + "\" read from " + ctx.relativize(real)
                                + ", the only file of that name: this file was read without an include directory"
                                + " that holds it, but the build has one (" + shown(holder.getKey())
                                + ", given to " + ctx.relativize(holder.getValue()) + ")");
            }
            sink.notify(n);
        }
        byNameNotes.clear();
        byNameFiles.clear();
    }

    /**
     * Whether the build reads {@code name} in {@code file} through an include directory that holds it as the file
     * {@code real}: {@code file}'s own compile command has one, or a compiled unit that reads {@code file} has.
     */
    private boolean readThroughBuild(Path file, String name, Path real) {
        if (file == null) return false;
        if (holds(ctx.buildContext(file), name, real)) return true;
        for (var u : new java.util.TreeMap<>(unitReads).entrySet()) {
            if (!u.getValue().contains(file)) continue;
            dev.numlint.model.BuildContext bc = ctx.buildContext(u.getKey());
            if (bc != null && !dev.numlint.cuda.clang.ClangFrontEnd.guessed(bc) && holds(bc, name, real)) return true;
        }
        return false;
    }

    /** A file a build compiles on its own (.c, .cc, .cpp, .cxx, .cu), not one it reaches through an include. */
    private static boolean compiledUnit(Path f) {
        String n = f.getFileName() == null ? "" : f.getFileName().toString();
        String ext = n.substring(n.lastIndexOf('.') + 1);
        return ext.equals("cu") || SourceKinds.HOST_EXTENSIONS.contains(ext);
    }

    /** Whether an include directory of {@code bc} (a build file's) holds {@code name} as the file {@code real}. */
    private static boolean holds(dev.numlint.model.BuildContext bc, String name, Path real) {
        if (bc == null || bc.configuration() == null) return false;
        for (Path d : bc.includePaths()) {
            if (real.equals(realPath(d.resolve(name)))) return true;
        }
        return false;
    }

    /** A directory as the output names it: relative to the scanned tree, "." for its root. */
    private String shown(Path dir) {
        String r = ctx.relativize(dir);
        return r == null || r.isEmpty() ? "." : r;
    }

    /**
     * The include directories that a build file gave to some listed file, in order of the first such file by path,
     * each with that file: the build's include path, as far as the scan knows it.
     */
    private Map<Path, Path> buildIncludeDirectories() {
        Map<Path, Path> dirs = new java.util.LinkedHashMap<>();
        // a compiled unit before a header (which has the directory only through a unit that includes it): the
        // directory is named with the file its build command gives it to
        List<Path> order = new java.util.ArrayList<>(new java.util.TreeSet<>(listed));
        order.sort(java.util.Comparator.comparing(f -> !compiledUnit(f)));
        for (Path f : order) {
            dev.numlint.model.BuildContext bc = ctx.buildContext(f);
            if (bc == null || bc.configuration() == null) continue;
            for (Path d : bc.includePaths()) dirs.putIfAbsent(d, f);
        }
        return dirs;
    }

    /**
     * {@code includeExtensions}: the analyzer's extensions of included files, unless the scan sets its own;
     * {@code configured}: whether they were set (else an included file of any other extension is analyzed too).
     */
    CudaScanRun(
            ScanContext ctx, List<Path> files, Set<String> includeExtensions, boolean configured, long maxHeaderBytes) {
        this.ctx = ctx;
        this.maxHeaderBytes = maxHeaderBytes;
        for (Path f : files) {
            Path r = realPath(f);
            if (r != null) listed.add(r);
        }
        policy = dev.numlint.toolchain.IncludePolicy.of(
                ctx.root() == null ? List.of() : ctx.boundary().roots(), List.of());
        allConfigurations =
                ctx.setting("all-configurations").map(Boolean::parseBoolean).orElse(false);
        clang = ClangFrontEnd.forScan(ctx);
        for (String g : ctx.setting("exclude").orElse("").split("\n")) {
            if (g.isBlank()) continue;
            try {
                excludes.add(new dev.numlint.util.Glob(g));
            } catch (IllegalArgumentException bad) {
                // the scan validated its excludes already
            }
        }
        java.util.Optional<String> set = ctx.setting("include-extensions");
        anyExtension = set.isEmpty() && !configured;
        extensions = set.map(v -> normalizedExtensions(List.of(v.split(",")))).orElse(includeExtensions);
        cache = SourceCache.forScan(ctx, this);
        headerDialect = HeaderDialect.of(ctx, files);
    }

    /** The build's language and -std for a header Clang reads alone (no compiled unit includes it), or null. */
    final HeaderDialect headerDialect;

    /** The per-file analysis cache of this scan, or null when it is off. */
    final SourceCache cache;

    final boolean allConfigurations;
    final Set<String> extensions;
    /**
     * No include-extensions were configured: a file a scanned source includes is analyzed whatever its extension
     * (Clang reads it as part of its includer's unit, in that unit's language), as a header is.
     */
    final boolean anyExtension;
    /** Included files left out by configured include-extensions, with their first includer: one notice each. */
    private final Map<Path, Path> leftOut = new java.util.concurrent.ConcurrentHashMap<>();
    /** The Clang front end of this scan (inactive with --frontend legacy or when libclang does not load). */
    final ClangFrontEnd clang;

    /** Why Clang's workers cannot run libclang, once noted for the scan (null until then). */
    final java.util.concurrent.atomic.AtomicReference<String> clangUnavailable =
            new java.util.concurrent.atomic.AtomicReference<>();

    /** The file names that a scanned file #includes (read once, on first request). */
    private Set<String> includedNames;

    /**
     * Whether a scanned file includes a file of {@code file}'s name (then it is no translation unit of its own:
     * its includer compiles it with more code).
     */
    /**
     * The file names of the {@code #include "..."} and {@code #include <...>} lines of {@code b} (a line that
     * starts, after blanks, with {@code #}, blanks, {@code include}, blanks and a quote or angle bracket): a scan of
     * the bytes, as every listed file is read for it.
     */
    static void includeNames(byte[] b, Set<String> out) {
        int n = b.length;
        int i = 0;
        while (i < n) {
            int j = i;
            while (j < n && (b[j] == ' ' || b[j] == '\t')) j++;
            if (j < n && b[j] == '#') {
                j++;
                while (j < n && (b[j] == ' ' || b[j] == '\t')) j++;
                if (j + 7 <= n
                        && b[j] == 'i'
                        && b[j + 1] == 'n'
                        && b[j + 2] == 'c'
                        && b[j + 3] == 'l'
                        && b[j + 4] == 'u'
                        && b[j + 5] == 'd'
                        && b[j + 6] == 'e') {
                    j += 7;
                    while (j < n && (b[j] == ' ' || b[j] == '\t')) j++;
                    if (j < n && (b[j] == '"' || b[j] == '<')) {
                        int start = ++j;
                        while (j < n && b[j] != '"' && b[j] != '>' && b[j] != '\n') j++;
                        if (j < n && j > start && b[j] != '\n') {
                            String name = new String(b, start, j - start, StandardCharsets.UTF_8);
                            out.add(name.substring(name.lastIndexOf('/') + 1));
                        }
                    }
                }
            }
            while (j < n && b[j] != '\n') j++;
            i = j + 1;
        }
    }

    /** The identifiers the listed files that define no {@code main} mention (read once, on first request). */
    private Set<String> mentions;

    /** Whether a listed file could not be read for {@link #mentions}: every name may then be mentioned there. */
    private boolean mentionsPartial;

    /** A definition of {@code main} at the start of a line ({@code int main(}, K&R's {@code main(argc, argv)}). */
    private static final java.util.regex.Pattern MAIN =
            java.util.regex.Pattern.compile("(?m)^[ \t]*(?:(?:int|void|signed|extern)[ \t]+)*main[ \t]*\\(");

    /**
     * Whether a listed file that defines no {@code main} mentions the identifier {@code name} (in code, a comment or
     * a string: any word of the file), or a listed file could not be read. Asked for a function of a program's own
     * file (one that defines {@code main}): another program's file cannot be linked with it (two definitions of
     * {@code main}), so a tree of several programs, each with its own {@code norm}, leaves each program's calls
     * its own ({@link dev.numlint.cuda.clang.ClangSupplement#compiledAlone}).
     */
    synchronized boolean mentionedOutside(String name) {
        if (mentions == null) {
            mentions = new HashSet<>();
            for (Path f : listed) {
                try {
                    if (Files.size(f) > maxHeaderBytes) {
                        mentionsPartial = true;
                        continue;
                    }
                    byte[] b = Files.readAllBytes(f);
                    if (MAIN.matcher(new String(b, StandardCharsets.ISO_8859_1)).find()) continue;
                    mentions.addAll(words(b));
                } catch (IOException | RuntimeException e) {
                    mentionsPartial = true;
                }
            }
        }
        return mentionsPartial || mentions.contains(name);
    }

    /** The identifiers ({@code [A-Za-z_][A-Za-z0-9_]*}) of {@code b}, each once. */
    static Set<String> words(byte[] b) {
        Set<String> out = new HashSet<>();
        int n = b.length;
        for (int i = 0; i < n; ) {
            byte c = b[i];
            if (c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) {
                int start = i;
                while (i < n
                        && (b[i] == '_'
                                || (b[i] >= 'A' && b[i] <= 'Z')
                                || (b[i] >= 'a' && b[i] <= 'z')
                                || (b[i] >= '0' && b[i] <= '9'))) i++;
                out.add(new String(b, start, i - start, StandardCharsets.ISO_8859_1));
            } else if (c >= '0' && c <= '9') {
                while (i < n
                        && (b[i] == '_'
                                || (b[i] >= 'A' && b[i] <= 'Z')
                                || (b[i] >= 'a' && b[i] <= 'z')
                                || (b[i] >= '0' && b[i] <= '9'))) i++;
            } else i++;
        }
        return out;
    }

    synchronized boolean includedByName(Path file) {
        if (includedNames == null) {
            includedNames = new HashSet<>();
            for (Path f : listed) {
                try {
                    if (Files.size(f) > maxHeaderBytes) continue;
                    includeNames(Files.readAllBytes(f), includedNames);
                } catch (IOException | RuntimeException e) {
                    // unreadable: reported where the file itself is analyzed
                }
            }
        }
        Path n = file.getFileName();
        return n == null || includedNames.contains(n.toString());
    }

    final List<dev.numlint.util.Glob> excludes = new ArrayList<>();

    /** Whether {@code real} (a file inside the root) matches an exclude glob, itself or a directory above it. */
    boolean excluded(Path real) {
        if (excludes.isEmpty() || ctx.root() == null) return false;
        Path root = realPath(ctx.root());
        if (root == null || !real.startsWith(root)) return false;
        String rel = root.relativize(real).toString().replace('\\', '/');
        for (dev.numlint.util.Glob g : excludes) {
            if (g.matches(rel)) return true;
            for (int i = rel.indexOf('/'); i > 0; i = rel.indexOf('/', i + 1)) {
                if (g.matchesDirectory(rel.substring(0, i))) return true;
            }
        }
        return false;
    }

    /** The scanned tree's regular files by file name, built at the first include that no directory resolves. */
    private Map<String, List<Path>> byName;

    /**
     * The one file of the scanned tree that {@code #include "name"} can mean when neither the includer's
     * directory nor the build's include directories hold it (the build's include path is unknown: a CMake
     * project whose sources include {@code "x.hcu"} from a sibling {@code include/} directory): the files whose
     * path ends with {@code name}; null when none or more than one does.
     */
    /** Per include name, whether the system's include path holds it ({@link #inTree}). */
    private final Map<String, Boolean> systemHeaders = new HashMap<>();

    synchronized Path inTree(String name) {
        if (ctx.root() == null) return null;
        if (byName == null) {
            byName = new HashMap<>();
            Path root = ctx.root().toAbsolutePath().normalize();
            try (java.util.stream.Stream<Path> all = Files.walk(root)) {
                all.limit(MAX_TREE_FILES).forEach(f -> {
                    Path fn = f.getFileName();
                    if (fn == null || !Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
                    for (Path part : root.relativize(f)) if (part.toString().startsWith(".")) return;
                    byName.computeIfAbsent(fn.toString(), k -> new ArrayList<>())
                            .add(f);
                });
            } catch (IOException | RuntimeException e) {
                // an unreadable tree resolves nothing by name
            }
        }
        Path wanted;
        try {
            wanted = Path.of(name).normalize();
        } catch (RuntimeException bad) {
            return null;
        }
        if (wanted.isAbsolute() || wanted.getFileName() == null || wanted.startsWith("..")) return null;
        // a header the system's include path holds is the system's, as the compiler finds it (<span>, <algorithm>)
        if (systemHeaders.computeIfAbsent(name, dev.numlint.toolchain.IncludePolicy::systemHolds)) return null;
        Path hit = null;
        for (Path f : byName.getOrDefault(wanted.getFileName().toString(), List.of())) {
            Path real = realPath(f);
            if (!f.endsWith(wanted) || real == null || excluded(real)) continue;
            if (hit != null) return null;
            hit = real;
        }
        return hit;
    }

    void reached(Path header, Path includer, Map<String, Preprocessor.Macro> macros, Preprocessor.Dialect d) {
        if (variantPass.get()) return;
        if (listed.contains(header)) {
            // the includer the build compiles it through comes first (a kernel .cu that a host .c includes for its CPU
            // version and an nvcc unit for its device code is the nvcc unit's: session 52, its device code was read
            // as the .c unit's, where it is inactive), then the path
            listedIncluders.compute(header, (k, old) -> {
                if (old != null) {
                    boolean a = compiledThrough(header, old.includer()), b = compiledThrough(header, includer);
                    if (a != b ? a : old.includer().compareTo(includer) <= 0) return old;
                }
                return new IncludedFrom(includer, new HashMap<>(macros), d);
            });
            IncludedSources.reachedHeader(this, header, includer, macros, d);
            return;
        }
        String n = header.getFileName() == null ? "" : header.getFileName().toString();
        int dot = n.lastIndexOf('.');
        String ext = dot < 0 ? "" : n.substring(dot + 1).toLowerCase(Locale.ROOT);
        if (excluded(header)) return;
        if (!anyExtension && !extensions.contains(ext)) {
            leftOut.merge(header, includer, (a, b) -> a.compareTo(b) <= 0 ? a : b);
            return;
        }
        included.compute(
                header,
                (k, old) -> old != null && old.includer().compareTo(includer) <= 0
                        ? old
                        : new IncludedFrom(includer, new HashMap<>(macros), d));
    }

    /**
     * Whether the build context of {@code header} says the build compiles it through {@code includer}: the unit it is
     * compiled through, or a file compiled through that same unit.
     */
    private boolean compiledThrough(Path header, Path includer) {
        Path via = ctx.buildContext(header).compiledVia();
        Path unit = via == null ? null : realPath(via);
        if (unit == null) return false;
        if (unit.equals(includer)) return true;
        Path up = ctx.buildContext(includer).compiledVia();
        return up != null && unit.equals(realPath(up));
    }

    static Path realPath(Path p) {
        try {
            return p.toAbsolutePath().normalize().toRealPath();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Extensions without the dot, in lower case. */
    static Set<String> normalizedExtensions(java.util.Collection<String> exts) {
        Set<String> s = new HashSet<>();
        for (String e : exts) {
            String x = e.strip().toLowerCase(Locale.ROOT);
            if (x.startsWith(".")) x = x.substring(1);
            if (!x.isEmpty()) s.add(x);
        }
        return Set.copyOf(s);
    }
}
