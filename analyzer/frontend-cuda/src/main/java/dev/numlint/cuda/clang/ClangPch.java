package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.clang.CXClientData;
import org.bytedeco.llvm.clang.CXFile;
import org.bytedeco.llvm.clang.CXInclusionVisitor;
import org.bytedeco.llvm.clang.CXIndex;
import org.bytedeco.llvm.clang.CXSourceLocation;
import org.bytedeco.llvm.clang.CXTranslationUnit;
import org.bytedeco.llvm.clang.CXUnsavedFile;

/**
 * The CUDA runtime headers, parsed once per header-affecting argument set: every CUDA file starts with Clang's CUDA
 * wrapper ({@code __clang_cuda_runtime_wrapper.h}, which reads the toolkit's runtime headers), about 0.8 s of a
 * file's parse. The first CUDA file of a set builds a precompiled header of an empty CUDA file with those arguments
 * (the wrapper and nothing of the tree); every file of the set then parses with {@code -include-pch} (the wrapper's
 * include guard makes its second inclusion empty), so the main file's cursors and facts are those of the plain
 * parse.
 *
 * <p>The set is the file's arguments without its include directories and forced includes (language, {@code -std},
 * {@code -D}/{@code -U}, the toolkit, the GPU architecture, the stub headers, the limits), keyed with the libclang
 * version: another set or another libclang gets its own header. A file whose include directories hold a header of
 * the same name as one the precompiled header read (the tree would shadow a system header) is parsed plainly. A
 * header that fails to build, or that Clang refuses when reading it, is dropped with one line on standard error
 * (the worker's private file, never printed) and its files are parsed plainly, with no notice.
 *
 * <p>Where they live: with the scan's cache directory ({@code --cache-dir}), in its {@code clang-pch-N} folder, kept
 * between scans and shared by the workers of a scan (one builds, the others wait for it under a file lock), so a
 * scan after the first on a machine builds none. A kept header is used only when every file it read (the
 * toolkit's, Clang's and the stub headers) still has the size and modification time it had when the header was
 * built (listed beside it, {@code .inputs}); otherwise it is built again. {@code -Dnumlint.clang.pchCache=false}, or
 * no cache directory: in a private directory ({@link #directory(Path)}: the Clang worker's own temporary directory,
 * deleted with it), built once per worker. Never in the scanned tree. Off with {@code -Dnumlint.clang.pch=false}.
 */
final class ClangPch {
    /** A set whose header could not be built: its files parse plainly. */
    private static final Object FAILED = new Object();

    private static final Map<String, Object> HEADERS = new ConcurrentHashMap<>();
    /** Per set, every tail of the paths of the files the header read, for the shadowing check. */
    private static final Map<String, Set<String>> READ = new ConcurrentHashMap<>();

    private static volatile Path directory;
    /** Headers built and parses that used one, for the benchmarks (standard error of the worker). */
    static final java.util.concurrent.atomic.AtomicLong BUILT = new java.util.concurrent.atomic.AtomicLong();

    static final java.util.concurrent.atomic.AtomicLong USED = new java.util.concurrent.atomic.AtomicLong();

    private ClangPch() {}

    static boolean enabled() {
        return !"false".equalsIgnoreCase(System.getProperty("numlint.clang.pch", "true"));
    }

    /** Whether the headers are kept in the scan's cache directory between scans ({@code numlint.clang.pchCache}). */
    static boolean kept() {
        return enabled() && !"false".equalsIgnoreCase(System.getProperty("numlint.clang.pchCache", "true"));
    }

    /** Kept headers reused from the cache directory (built by an earlier scan or another worker), for tests. */
    static final java.util.concurrent.atomic.AtomicLong REUSED = new java.util.concurrent.atomic.AtomicLong();

    /** The first line of a kept header's list of inputs. */
    private static final String INPUTS_HEADER = "numlint precompiled CUDA header inputs 1 ";

    /** Where the headers are written: a private directory of this process (the worker's TMPDIR). */
    static void directory(Path dir) {
        directory = dir;
        debugLines = true;
    }

    /** Debug lines go to standard error in a worker (its private file); in process only with -Dnumlint.clang.debug. */
    private static volatile boolean debugLines = Boolean.getBoolean("numlint.clang.debug");

    private static synchronized Path dir() throws IOException {
        if (directory == null) {
            // in process (tests, tools): a private temporary directory of this process, deleted at its end
            Path d = Files.createTempDirectory("numlint-pch");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteAll(d)));
            directory = d;
        }
        return directory;
    }

    private static void deleteAll(Path d) {
        try (var s = Files.list(d)) {
            s.forEach(f -> f.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // best effort at exit
        }
        d.toFile().delete();
    }

    /** A precompiled header chosen for one parse: its file and the slot it is known under in this process. */
    record Header(Path file, String slot, String key) {}

    /**
     * The precompiled header for one parse ({@code args}: Clang's full arguments of {@code file}, the resource
     * directory included; {@code text}: the main file's bytes; {@code headers}: the project headers the request
     * carries), built on first use, or null (parse plainly): the unit's leading system headers ({@link
     * ClangSystemPrefix}, once a second unit of this process starts with them or a kept one exists), else the CUDA
     * runtime headers of a CUDA file; null when switched off, not built, or shadowed by the file's include
     * directories.
     */
    static Header choose(
            CXIndex index, List<String> args, Path file, byte[] text, Map<Path, byte[]> headers, Path cacheDir) {
        if (!enabled()) return null;
        Header h = prefix(index, args, file, text, headers, cacheDir);
        return h != null ? h : forArguments(index, args, cacheDir);
    }

    /** The CUDA runtime headers' precompiled header for {@code args} (see the class comment), or null. */
    static Header forArguments(CXIndex index, List<String> args, Path cacheDir) {
        if (!enabled() || !cuda(args) || cxx20(args)) return null;
        List<String> set = headerArguments(args);
        String key = key(set);
        Path store = cacheDir == null ? null : store(cacheDir);
        String slot = store == null ? key : key + "\0" + store;
        Object h = HEADERS.get(slot);
        if (h == null) {
            synchronized (slot.intern()) {
                h = HEADERS.get(slot);
                if (h == null) {
                    Source src = new Source("cuda-", "cuh", "", null);
                    h = store == null ? build(index, key, set, null, src) : kept(index, key, set, store, src);
                    HEADERS.put(slot, h);
                }
            }
        }
        if (h == FAILED) return null;
        if (shadowed(key, args)) return null;
        USED.incrementAndGet();
        return new Header((Path) h, slot, key);
    }

    /** Parses per prefix key in this process: a prefix is precompiled when its second unit comes. */
    private static final Map<String, Integer> SEEN = new ConcurrentHashMap<>();

    /**
     * Whether the leading system headers of C++ units are precompiled ({@code -Dnumlint.clang.prefixPch=true}; off by
     * default: on five code bases of session 47 it saved CPU time on two and cost it on one, where headers were built
     * for few units, docs/frontend/fixes-session47.md).
     */
    static boolean prefixEnabled() {
        return enabled() && "true".equalsIgnoreCase(System.getProperty("numlint.clang.prefixPch", "false"));
    }

    /** The precompiled leading system headers of {@code file} (see {@link #choose}), or null. */
    static Header prefix(
            CXIndex index, List<String> args, Path file, byte[] text, Map<Path, byte[]> headers, Path cacheDir) {
        Path root = ClangDiagnostics.treeRoot();
        // C++ host units only: a CUDA unit already shares the runtime headers' one header (a prefix would parse the
        // wrapper again per prefix), and a C unit's system headers cost less to parse than a header costs to build
        if (!prefixEnabled() || root == null || !cxx(args)) return null;
        ClangSystemPrefix.Prefix p = ClangSystemPrefix.of(file, text, headers, args, root);
        if (p.isEmpty()) return null;
        List<String> set = new ArrayList<>(args);
        set.add("\0prefix");
        set.addAll(p.includes());
        set.add("\0macros");
        set.addAll(p.macros());
        // the tree it was checked against: a kept prefix of another tree is not this one's
        set.add("\0root");
        set.add(root.toString());
        String key = key(set);
        Path store = cacheDir == null ? null : store(cacheDir);
        String slot = "prefix\0" + (store == null ? key : key + "\0" + store);
        Object h = HEADERS.get(slot);
        if (h == null) {
            synchronized (slot.intern()) {
                h = HEADERS.get(slot);
                if (h == null) {
                    String name = "prefix-" + key.substring(0, 32);
                    boolean keptOne = store != null && Files.isRegularFile(store.resolve(name + ".pch"));
                    if (SEEN.merge(slot, 1, Integer::sum) < 2 && !keptOne) return null;
                    String ext = extension(file);
                    Source src = new Source("prefix-", ext, p.source(), new Check(root, p.macros(), stubs(args)));
                    h = store == null ? build(index, key, args, null, src) : kept(index, key, args, store, src);
                    HEADERS.put(slot, h);
                }
            }
        }
        if (h == FAILED) return null;
        // a project header of this unit, or its main file, among what the header read: not this unit's prefix
        Set<Path> read = FILES.getOrDefault(key, Set.of());
        if (read.contains(file.toAbsolutePath().normalize())) return null;
        for (Path hp : headers.keySet()) if (read.contains(hp.toAbsolutePath().normalize())) return null;
        if (shadowed(key, args)) return null;
        USED.incrementAndGet();
        PREFIX_USED.incrementAndGet();
        return new Header((Path) h, slot, key);
    }

    /**
     * numlint's own stub headers among the arguments ({@link Libclang#stubArguments}: the {@code clang-stubs-N}
     * folder of the cache directory, which may lie in the scanned tree), as real paths.
     */
    private static List<Path> stubs(List<String> args) {
        List<Path> out = new ArrayList<>();
        for (int i = 0; i + 1 < args.size(); i++) {
            if (!args.get(i).equals("-idirafter")) continue;
            try {
                Path d = Path.of(args.get(i + 1)).toRealPath();
                for (Path x = d; x != null; x = x.getParent()) {
                    if (x.getFileName() != null && x.getFileName().toString().equals("clang-stubs-" + Libclang.MAJOR)) {
                        out.add(x);
                        break;
                    }
                }
            } catch (IOException | RuntimeException e) {
                // not a directory: nothing of it is read
            }
        }
        return out;
    }

    /** Parses that used a precompiled prefix, for tests and the benchmarks. */
    static final java.util.concurrent.atomic.AtomicLong PREFIX_USED = new java.util.concurrent.atomic.AtomicLong();

    /** Per key, the files the header read (normalized), for the check against a unit's own files. */
    private static final Map<String, Set<Path>> FILES = new ConcurrentHashMap<>();

    private static String extension(Path file) {
        String n = file.getFileName().toString();
        int dot = n.lastIndexOf('.');
        String e = dot < 0 ? "" : n.substring(dot + 1);
        return e.matches("[A-Za-z0-9+]{1,8}") ? e : "c";
    }

    /**
     * What a header is built from: a name prefix and extension, the main file's text, and for a prefix the checks
     * its translation unit must pass (null: none).
     */
    private record Source(String kind, String ext, String content, Check check) {}

    /**
     * A precompiled prefix is used only when it read nothing of the scanned tree ({@code root}) and no header it read
     * names a macro the project defined before it ({@code macros}). (That the unit's second inclusion of each header
     * is harmless is proven by the build: the prefix's text includes them twice, and an error fails it.)
     */
    private record Check(Path root, Set<String> macros, List<Path> stubs) {
        String refusal(List<Path> files) {
            java.util.regex.Pattern names = macros.isEmpty()
                    ? null
                    : java.util.regex.Pattern.compile("\\b(?:"
                            + String.join(
                                    "|",
                                    macros.stream()
                                            .map(java.util.regex.Pattern::quote)
                                            .toList()) + ")\\b");
            for (Path f : files) {
                try {
                    // the path as Clang spelled it (through ".." of the compiler's directories), then resolved
                    Path n = f.toRealPath();
                    boolean own = stubs.stream().anyMatch(n::startsWith);
                    if (!own
                            && (n.startsWith(root)
                                    || f.toAbsolutePath().normalize().startsWith(root))) {
                        return "it read " + n.getFileName() + " of the scanned tree";
                    }
                    if (names != null) {
                        String t = new String(Files.readAllBytes(n), StandardCharsets.ISO_8859_1);
                        java.util.regex.Matcher m = names.matcher(t);
                        if (m.find()) return n.getFileName() + " names " + m.group() + ", which the project defines";
                    }
                } catch (IOException | RuntimeException e) {
                    return "cannot read " + f + ": " + e;
                }
            }
            return null;
        }
    }

    /** Whether Clang refused the precompiled header when parsing with it (the unit is then not used). */
    static boolean refused(ClangUnit u) {
        if (u.failure() != null) return true;
        String e = u.firstError();
        return e != null && (e.contains("precompiled header") || e.contains("PCH file") || e.contains("AST file"));
    }

    /**
     * Drops the header of {@code args}' set: its files parse plainly from now on in this process, and a kept one is
     * deleted (the next scan builds it again).
     */
    static void drop(Header h, Path cacheDir, String why) {
        String key = h.key();
        Path store = cacheDir == null ? null : store(cacheDir);
        Object old = HEADERS.put(h.slot(), FAILED);
        if (old instanceof Path p) {
            try {
                Files.deleteIfExists(p);
                if (store != null) Files.deleteIfExists(inputsOf(p));
            } catch (IOException e) {
                // deleted with the private directory
            }
        }
        debug("precompiled CUDA header " + key.substring(0, 12) + " dropped: " + why);
    }

    /** The folder of the kept headers in a cache directory (one per libclang major version). */
    static Path store(Path cacheDir) {
        return cacheDir.toAbsolutePath().normalize().resolve("clang-pch-" + Libclang.MAJOR);
    }

    private static Path inputsOf(Path pch) {
        String n = pch.getFileName().toString();
        return pch.resolveSibling(n.substring(0, n.length() - ".pch".length()) + ".inputs");
    }

    /**
     * The kept header of one set in {@code store}: reused when its inputs are unchanged, else built there (under a
     * lock, so the workers of a scan build it once). A store that cannot be used (not a plain directory, no lock):
     * built in the private directory as without one.
     */
    @SuppressWarnings("try") // the lock is held for the block's extent, not referenced in it
    private static Object kept(CXIndex index, String key, List<String> set, Path store, Source source) {
        String name = source.kind() + key.substring(0, 32);
        Path pch = store.resolve(name + ".pch");
        Path inputs = store.resolve(name + ".inputs");
        Path rejected = store.resolve(name + ".rejected");
        try {
            Files.createDirectories(store);
            if (!Files.isDirectory(store, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException(store + " is not a directory");
            }
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(
                            store.resolve(name + ".lock"),
                            java.nio.file.StandardOpenOption.CREATE,
                            java.nio.file.StandardOpenOption.WRITE,
                            java.nio.file.LinkOption.NOFOLLOW_LINKS);
                    java.nio.channels.FileLock lock = ch.lock()) {
                List<Path> listed =
                        Files.isRegularFile(pch, java.nio.file.LinkOption.NOFOLLOW_LINKS) ? listed(key, inputs) : null;
                if (listed != null) {
                    READ.put(key, tails(listed));
                    FILES.put(key, normalized(listed));
                    REUSED.incrementAndGet();
                    return pch;
                }
                // a prefix refused by its checks in an earlier scan, its headers unchanged: refused again, unbuilt
                if (listed(key, rejected) != null) return FAILED;
                Path tmp =
                        store.resolve("." + name + "." + ProcessHandle.current().pid() + ".tmp");
                List<Path> files = new ArrayList<>();
                Object h = build(
                        index, key, set, new Target(tmp, store.resolve(name + "." + source.ext()), files), source);
                if (h == FAILED) {
                    // refused by its checks (not a save that failed): remembered while its inputs are unchanged
                    if (source.check() != null && !files.isEmpty()) write(store, name, key, files, rejected);
                    return FAILED;
                }
                try {
                    Path tmpInputs = write(store, name, key, files, null);
                    Files.move(tmp, pch, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                    Files.move(tmpInputs, inputs, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                } finally {
                    Files.deleteIfExists(tmp);
                }
                return pch;
            }
        } catch (IOException | RuntimeException e) {
            debug("precompiled CUDA header " + key.substring(0, 12) + " not kept in " + store + ": " + e);
            return build(index, key, set, null, source);
        }
    }

    /**
     * Writes the list of the files a header read, with their sizes and modification times: to {@code to}, or (null)
     * to a temporary file of the store, returned.
     */
    private static Path write(Path store, String name, String key, List<Path> files, Path to) throws IOException {
        StringBuilder b = new StringBuilder(INPUTS_HEADER).append(key).append('\n');
        for (Path f : files) {
            var a = Files.readAttributes(f, java.nio.file.attribute.BasicFileAttributes.class);
            b.append(a.size())
                    .append(' ')
                    .append(a.lastModifiedTime().toMillis())
                    .append(' ')
                    .append(f)
                    .append('\n');
        }
        Path tmp = store.resolve("." + name + "." + ProcessHandle.current().pid() + ".tmp-inputs");
        Files.writeString(tmp, b, StandardCharsets.UTF_8);
        if (to == null) return tmp;
        Files.move(tmp, to, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return to;
    }

    private static Set<Path> normalized(List<Path> files) {
        Set<Path> out = new HashSet<>();
        for (Path f : files) out.add(f.toAbsolutePath().normalize());
        return out;
    }

    /**
     * The tails of the files a kept header read ({@link #shadowed}), when the header and its list are plain files of
     * this key and every file listed has its recorded size and modification time; else null (build it again).
     */
    static Set<String> unchanged(String key, Path pch, Path inputs) {
        if (!Files.isRegularFile(pch, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return null;
        List<Path> files = listed(key, inputs);
        return files == null ? null : tails(files);
    }

    /**
     * The files of a list written by {@link #write} for {@code key} when each still has its recorded size and
     * modification time, else null.
     */
    private static List<Path> listed(String key, Path inputs) {
        if (!Files.isRegularFile(inputs, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return null;
        try {
            List<String> lines = Files.readAllLines(inputs, StandardCharsets.UTF_8);
            if (lines.isEmpty() || !lines.get(0).equals(INPUTS_HEADER + key)) return null;
            List<Path> files = new ArrayList<>();
            for (String line : lines.subList(1, lines.size())) {
                String[] w = line.split(" ", 3);
                if (w.length != 3) return null;
                Path f = Path.of(w[2]);
                var a = Files.readAttributes(f, java.nio.file.attribute.BasicFileAttributes.class);
                if (a.size() != Long.parseLong(w[0]) || a.lastModifiedTime().toMillis() != Long.parseLong(w[1])) {
                    return null;
                }
                files.add(f);
            }
            return files;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    static boolean cxx(List<String> args) {
        return language(args, "c++");
    }

    static boolean cuda(List<String> args) {
        return language(args, "cuda");
    }

    /** Whether the arguments select the language {@code x} ({@code -x x}). */
    private static boolean language(List<String> args, String x) {
        for (int i = 0; i + 1 < args.size(); i++) {
            if (args.get(i).equals("-x") && args.get(i + 1).equals(x)) return true;
        }
        return false;
    }

    /**
     * Whether the arguments select C++20 or later ({@code -std=c++20}, {@code gnu++2a}, {@code c++23}, ...). With
     * libclang 20, a CUDA file parsed in these modes with the precompiled wrapper headers gets errors the plain parse
     * does not have ({@code <string>}: "no matching function for call to 'operator delete'"; {@code <new>}: "'erfcx'
     * has different definitions in different modules") or crashes Clang ({@code <memory>}: a null dereference under
     * {@code Sema::ActOnCXXDelete}), which ends the worker: such files are parsed plainly.
     */
    static boolean cxx20(List<String> args) {
        String std = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.startsWith("-std=")) std = a.substring(5);
            else if (a.equals("-std") && i + 1 < args.size()) std = args.get(++i);
        }
        if (std == null) return false;
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("(?:c|gnu)\\+\\+(\\d)(\\w)").matcher(std);
        if (!m.matches()) return false;
        int year = Integer.parseInt(m.group(1) + m.group(2).replaceAll("[a-z]", "9"));
        // c++98 and c++03 are before 2011; 2a, 2b, 2c (the drafts of 20, 23, 26) read as 29: later than 17
        return year < 98 && year >= 20;
    }

    /** The arguments that decide what the CUDA wrapper reads: all but include directories and forced includes. */
    static List<String> headerArguments(List<String> args) {
        List<String> out = new ArrayList<>(args.size());
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-include") || a.equals("-I") || a.equals("-include-pch")) {
                i++;
                continue;
            }
            if (a.startsWith("-I")) continue;
            out.add(a);
        }
        return out;
    }

    static List<Path> includeDirs(List<String> args) {
        List<Path> out = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String d =
                    a.equals("-I") && i + 1 < args.size() ? args.get(++i) : a.startsWith("-I") ? a.substring(2) : null;
            if (d == null || d.isEmpty()) continue;
            try {
                out.add(Path.of(d));
            } catch (RuntimeException bad) {
                // not a path: Clang ignores it as well
            }
        }
        return out;
    }

    /** Per set and include directory, whether the directory shadows a file the set's header read. */
    private static final Map<String, Boolean> SHADOWS = new ConcurrentHashMap<>();

    /**
     * Whether one of the file's include directories holds a file under a name the header read: any tail of the path
     * of a file it read (an include of the wrapper would find the tree's file first). Checked once per directory.
     */
    static boolean shadowed(String key, List<String> args) {
        Set<String> read = READ.getOrDefault(key, Set.of());
        for (Path d : includeDirs(args)) {
            boolean s = SHADOWS.computeIfAbsent(key + "\0" + d, k -> shadows(d, read));
            if (s) return true;
        }
        return false;
    }

    static boolean shadows(Path dir, Set<String> read) {
        for (String tail : read) {
            try {
                if (Files.exists(dir.resolve(tail))) return true;
            } catch (RuntimeException bad) {
                return true;
            }
        }
        return false;
    }

    /** The key of a set: SHA-256 of the libclang version and the arguments. */
    static String key(List<String> set) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(version().getBytes(StandardCharsets.UTF_8));
            for (String a : set) {
                md.update((byte) 0);
                md.update(a.getBytes(StandardCharsets.UTF_8));
            }
            StringBuilder b = new StringBuilder();
            for (byte x : md.digest()) b.append(String.format("%02x", x & 0xff));
            return b.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static volatile String version;

    private static String version() {
        String v = version;
        if (v == null) {
            try {
                v = clang_getClangVersion().getString();
            } catch (RuntimeException | LinkageError e) {
                v = "libclang " + Libclang.MAJOR;
            }
            version = v;
        }
        return v;
    }

    /**
     * Where a header is saved: the file, the name of the empty main file it is built from (never written), and the
     * list that receives the files it read.
     */
    private record Target(Path out, Path src, List<Path> read) {}

    /**
     * Builds the header of one set: an empty CUDA file (the wrapper alone), parsed incomplete and saved, to
     * {@code target} or, when null, in the private directory.
     */
    private static Object build(CXIndex index, String key, List<String> set, Target target, Source source) {
        Path out;
        Path src;
        try {
            if (target == null) {
                Path d = dir();
                target = new Target(
                        d.resolve(source.kind() + key.substring(0, 24) + ".pch"),
                        d.resolve(source.kind() + key.substring(0, 24) + "." + source.ext()),
                        new ArrayList<>());
            }
            out = target.out();
            src = target.src();
        } catch (IOException | RuntimeException e) {
            debug("precompiled CUDA header not built: no private directory (" + e + ")");
            return FAILED;
        }
        CXTranslationUnit tu = new CXTranslationUnit();
        try (PointerPointer<BytePointer> argv = new PointerPointer<>(set.toArray(new String[0]));
                BytePointer name = new BytePointer(src.toString());
                BytePointer contents = new BytePointer(source.content().isEmpty() ? " " : source.content());
                CXUnsavedFile unsaved = new CXUnsavedFile()) {
            unsaved.Filename(name).Contents(contents).Length(source.content().getBytes(StandardCharsets.UTF_8).length);
            int rc = clang_parseTranslationUnit2(
                    index,
                    name,
                    argv,
                    set.size(),
                    unsaved,
                    1,
                    CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization,
                    tu);
            if (rc != 0 || tu.isNull()) {
                debug("precompiled CUDA header " + key.substring(0, 12) + " not built: libclang error " + rc);
                return FAILED;
            }
            try {
                int errors = 0;
                int n = clang_getNumDiagnostics(tu);
                for (int i = 0; i < n; i++) {
                    var diag = clang_getDiagnostic(tu, i);
                    if (clang_getDiagnosticSeverity(diag) >= CXDiagnostic_Error) errors++;
                    clang_disposeDiagnostic(diag);
                }
                if (errors > 0) {
                    debug("precompiled header " + key.substring(0, 12) + " not built: " + errors
                            + " errors in its headers");
                    return FAILED;
                }
                List<Path> files = inclusions(tu, src);
                target.read().addAll(files);
                if (source.check() != null) {
                    String why = source.check().refusal(files);
                    if (why != null) {
                        debug("precompiled prefix " + key.substring(0, 12) + " not used: " + why);
                        return FAILED;
                    }
                }
                READ.put(key, tails(files));
                FILES.put(key, normalized(files));
                int s = clang_saveTranslationUnit(tu, new BytePointer(out.toString()), 0);
                if (s != 0 || !Files.isRegularFile(out)) {
                    debug("precompiled CUDA header " + key.substring(0, 12) + " not saved: error " + s);
                    return FAILED;
                }
                BUILT.incrementAndGet();
                return out;
            } finally {
                clang_disposeTranslationUnit(tu);
            }
        } catch (RuntimeException e) {
            debug("precompiled CUDA header " + key.substring(0, 12) + " not built: " + e);
            return FAILED;
        }
    }

    /** Every tail of the path of every file read (the names an include may spell). */
    private static Set<String> tails(List<Path> files) {
        Set<String> out = new HashSet<>();
        for (Path f : files) {
            Path p = f.normalize();
            int n = p.getNameCount();
            for (int k = 1; k <= n; k++) out.add(p.subpath(n - k, n).toString());
        }
        return out;
    }

    /** The files the unit read, its main file {@code src} (given as unsaved text) left out. */
    private static List<Path> inclusions(CXTranslationUnit tu, Path src) {
        List<Path> out = new ArrayList<>();
        Set<Path> seen = new HashSet<>();
        CXInclusionVisitor v = new CXInclusionVisitor() {
            @Override
            public void call(CXFile f, CXSourceLocation stack, int depth, CXClientData data) {
                String name = clang_getFileName(f).getString();
                if (name == null || name.isEmpty()) return;
                try {
                    Path p = Path.of(name);
                    if (!p.equals(src) && seen.add(p)) out.add(p);
                } catch (RuntimeException bad) {
                    // not a path
                }
            }
        };
        try {
            clang_getInclusions(tu, v, (CXClientData) null);
        } finally {
            v.close();
        }
        return out;
    }

    /** One line on standard error (in a worker: its private error file, read only to classify how it ended). */
    private static void debug(String line) {
        if (debugLines) System.err.println("numlint debug: " + line);
    }

    /** For tests: forgets every header of this process. */
    static void reset() {
        HEADERS.clear();
        READ.clear();
        FILES.clear();
        SEEN.clear();
        PREFIX_USED.set(0);
        SHADOWS.clear();
        BUILT.set(0);
        USED.set(0);
        REUSED.set(0);
    }
}
