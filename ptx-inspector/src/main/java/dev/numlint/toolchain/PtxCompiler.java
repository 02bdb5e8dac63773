package dev.numlint.toolchain;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Compiles CUDA files of an untrusted tree to PTX ({@code nvcc -ptx -lineinfo -arch=compute_NN}), for the scan's
 * PTX front end and for validation alike. In order:
 * <ol>
 *   <li>the flags go through {@link NvccFlagPolicy} (dropped ones become notices naming the flag and where it was
 *   set);</li>
 *   <li>the include graph is resolved ({@link IncludeGraph}); a file that would make the compiler read anything
 *   outside the scanned roots and the trusted include trees, or a special file, is not compiled, and the notice
 *   names the include (file:line, as written) and why;</li>
 *   <li>files whose graph has no {@code __global__}/{@code __device__} code are not compiled;</li>
 *   <li>an architecture the installed nvcc no longer supports falls back to the oldest it supports
 *   ({@code nvcc --list-gpu-arch}), with a notice;</li>
 *   <li>the PTX cache is keyed by the contents of every file of the graph inside the roots (headers reached
 *   through {@code "..."}, {@code <...>} and {@code -I} alike), the names of the toolkit/system headers used, the
 *   arguments, the architecture and nvcc's version;</li>
 *   <li>nvcc runs through {@link GuardedProcess} in a private directory under the cache; its output is never
 *   echoed whole: only lines about files inside the roots (paths made relative) reach a notice.</li>
 * </ol>
 * Thread-safe.
 */
public final class PtxCompiler {
    /**
     * The outcome: PTX text and the cached file holding it when it worked; {@code noDeviceCode} when the file was
     * skipped because it has no device code; notifications (dropped flags and fallbacks as NOTE, compile problems
     * as WARNING).
     */
    public record Result(
            boolean ok,
            String ptx,
            Path ptxFile,
            boolean cached,
            boolean noDeviceCode,
            List<Notification> notifications) {}

    private final Nvcc nvcc;
    private final PtxCache cache;
    private final IncludePolicy policy;
    private final IncludeGraph graph;
    private final NvccFlagPolicy flags;
    private final Duration timeout;

    /**
     * @param nvcc    the toolkit's nvcc
     * @param cache   the PTX cache (its directory also holds nvcc's temporary directories)
     * @param roots   the scanned roots: the only untrusted files nvcc may read
     * @param timeout wall-clock limit of one nvcc run (the whole process tree is killed past it)
     */
    /**
     * The notice of an nvcc run killed at the limit: what is left out and how to raise the limit (wall time, so on a
     * loaded machine one run can finish and the next not).
     */
    static String timeoutNotice(Duration timeout) {
        long ms = timeout.toMillis();
        return "nvcc -ptx did not finish within " + (ms >= 1000 ? ms / 1000 + " s" : ms + " ms")
                + "; its process tree was killed; left out: the PTX layer's findings of this file (the CUDA source"
                + " layer still ran); the limit is wall time, so a loaded machine can finish in one run and not the"
                + " next; raise it with JAVA_TOOL_OPTIONS=-Dnumlint.nvcc.compileTimeoutMs=" + ms * 3
                + " ./numlint scan ...";
    }

    public PtxCompiler(Nvcc nvcc, PtxCache cache, List<Path> roots, Duration timeout) {
        this(nvcc, cache, roots, List.of(), timeout);
    }

    /**
     * @param userDirs include directories the user named on numlint's command line ({@code --nvcc-flags
     *                 "-I/opt/mpi/include"}): trusted like the toolkit's, since the user, not the scanned tree, named
     *                 them; an {@code -I} from the tree's build files that leaves the tree is still refused
     */
    public PtxCompiler(Nvcc nvcc, PtxCache cache, List<Path> roots, List<Path> userDirs, Duration timeout) {
        this.nvcc = nvcc;
        this.cache = cache;
        // before the first probe (trustedDirs may run nvcc --dryrun): every run's directory is under the cache
        nvcc.tempParent(cache.dir().resolve("tmp"));
        List<Path> trusted = new java.util.ArrayList<>(nvcc.trustedDirs());
        trusted.addAll(userDirs);
        this.policy = IncludePolicy.of(roots, trusted);
        this.graph = new IncludeGraph(policy);
        this.flags = new NvccFlagPolicy(policy);
        this.timeout = timeout;
    }

    public Nvcc nvcc() {
        return nvcc;
    }

    /**
     * Null when nvcc can be used, else why not (e.g. {@code nvcc --version} hangs: it is given
     * {@link Nvcc#QUERY_TIMEOUT}).
     */
    public String unusable() {
        return nvcc.version().isPresent() ? null : nvcc.versionProblem();
    }

    /**
     * Whether nothing can define {@code macro} for nvcc's compile with {@code args}: no reserved name, the arguments
     * neither define it ({@code -D}) nor force includes ({@code -include}, {@code --pre-include}), and no file of a
     * scanned root may ({@link TreeMacros}). A computed {@code #include macro} then reads no file (session 46:
     * CImg's {@code #include cimg_plugin}, under {@code #ifdef cimg_plugin}, kept every file that includes CImg.h
     * from PTX). What a trusted system header defines is the compiler's, as for any include it makes.
     */
    boolean undefinable(String macro, List<String> args) {
        return TreeMacros.undefinable(macro, args, policy.roots());
    }

    /** Normalizes sm_90 / compute_90 / 90 to compute_90 (a virtual architecture for -ptx). */
    public static String virtualArch(String arch) {
        if (arch == null || arch.isBlank()) return "compute_90";
        String a = NvccFlagPolicy.archOf(arch);
        if (a != null) return "compute_" + a.substring(a.indexOf('_') + 1);
        if (arch.matches("\\d+[a-z]?")) return "compute_" + arch;
        return "compute_90";
    }

    /** What an nvcc-failed notice for a header not found advises. */
    public static final String INCLUDE_ADVICE =
            ": give the build's include directories with -p DIR (compile_commands.json) or --nvcc-flags \"-I...\"";

    /**
     * What a header not found advises: {@link #INCLUDE_ADVICE}, unless the build's own {@code -I} directory was
     * dropped as lying outside the scanned tree (then -p was no help: the directory must be scanned too). A header of
     * a CUDA library ({@code curand_kernel.h}) is one the toolkit nvcc uses does not hold: the library is to be
     * installed, whatever directory was dropped (named too, as the other place it may be).
     */
    static String includeAdvice(List<NvccFlagPolicy.Dropped> dropped, String header) {
        String outside = null;
        for (NvccFlagPolicy.Dropped x : dropped) {
            if (NvccFlagPolicy.OUTSIDE_DIRECTORY.equals(x.reason()) && outside == null) outside = x.flag();
        }
        String library = dev.numlint.knowledge.CudaLibraryHeaders.library(header);
        if (library != null) {
            return ": " + LIBRARY_ADVICE.replace("{library}", library)
                    + (outside == null
                            ? ""
                            : "; the build's include directory ('" + outside + "') lies outside the scanned tree and"
                                    + " was not passed to nvcc either");
        }
        if (outside != null) {
            return ": the build's include directory ('" + outside + "') lies outside the scanned tree and was"
                    + " not passed to nvcc (numlint reads nothing outside it): add that directory to the scanned"
                    + " paths";
        }
        return INCLUDE_ADVICE;
    }

    /** The advice for a CUDA library's header nvcc did not find ({@code {library}}: its name). */
    public static final String LIBRARY_ADVICE = "a header of {library}, a CUDA library the toolkit nvcc uses does not"
            + " hold: install the library's development package, or give its include directory (--nvcc-flags"
            + " \"-I<dir>\")";

    /** Like {@link #compile(Path, String, List, String, Function)} without flag origins. */
    public Result compile(Path cu, String arch, List<String> flagList, String displayName) {
        return compile(cu, arch, flagList, displayName, null);
    }

    /**
     * Compiles {@code cu} with {@code flagList} (unfiltered; filtered here) for {@code arch}. {@code origin} says
     * where a flag was set (for notices). Never throws for compiler or input problems: they come back as
     * notifications.
     */
    public Result compile(
            Path cu, String arch, List<String> flagList, String displayName, Function<String, String> origin) {
        List<Notification> notes = new ArrayList<>();
        String why = unusable();
        if (why != null) {
            notes.add(new Notification(displayName, 0, Level.WARNING, "nvcc-failed", "not compiled to PTX: " + why));
            return fail(notes);
        }
        NvccFlagPolicy.Decision d = flags.apply(flagList, origin);
        for (NvccFlagPolicy.Dropped x : d.dropped()) {
            notes.add(new Notification(displayName, 0, Level.NOTE, "nvcc-flag-dropped", x.message()));
        }
        List<Path> angle = new ArrayList<>(d.includeDirs());
        angle.addAll(d.systemIncludeDirs());
        angle.addAll(nvcc.systemIncludeDirs());
        IncludeGraph.Result g = graph.graph(cu, d.includeDirs(), angle, macro -> undefinable(macro, d.args()));
        if (!g.ok()) {
            IncludeGraph.Problem p = g.problems().get(0);
            String where = shown(p.file(), displayName);
            notes.add(new Notification(
                    displayName,
                    p.file().equals(real(cu)) ? p.line() : 0,
                    Level.WARNING,
                    "include-blocked",
                    "not compiled to PTX: " + where + (p.line() > 0 ? ":" + p.line() : "") + ": "
                            + p.include() + ": " + p.reason()
                            + (g.problems().size() > 1
                                    ? " (and " + (g.problems().size() - 1) + " more)"
                                    : "")));
            return fail(notes);
        }
        // contents of the graph: device code? cache key
        MessageDigest md = sha256();
        boolean device = false;
        for (Path f : g.reached()) {
            byte[] content;
            try {
                content = Files.readAllBytes(f);
            } catch (IOException e) {
                notes.add(new Notification(
                        displayName,
                        0,
                        Level.WARNING,
                        "nvcc-failed",
                        "not compiled to PTX: " + shown(f, displayName) + " cannot be read"));
                return fail(notes);
            }
            device |= hasDeviceCode(content);
            md.update(f.toString().getBytes(StandardCharsets.UTF_8));
            md.update((byte) 0);
            md.update(Integer.toString(content.length).getBytes(StandardCharsets.UTF_8));
            md.update((byte) 0);
            md.update(content);
        }
        if (!device) return new Result(false, null, null, false, true, notes);
        for (Path e : g.external()) md.update((e + "\u0000").getBytes(StandardCharsets.UTF_8));

        String va = virtualArch(arch);
        List<String> supported = nvcc.supportedArchs();
        if (!supported.isEmpty() && supported.stream().noneMatch(s -> Nvcc.archNumber(s) == Nvcc.archNumber(va))) {
            String fallback = fallback(va, supported);
            notes.add(new Notification(
                    displayName,
                    0,
                    Level.NOTE,
                    "nvcc-arch-fallback",
                    "architecture " + arch
                            + " is not supported by the installed nvcc (" + supported.get(0) + " to "
                            + supported.get(supported.size() - 1) + "); PTX was built for " + fallback + " instead"));
            return compileArch(cu, fallback, d, g, md, displayName, notes);
        }
        return compileArch(cu, va, d, g, md, displayName, notes);
    }

    /** The oldest supported architecture for an older one, else the newest supported one below it. */
    static String fallback(String va, List<String> supported) {
        int n = Nvcc.archNumber(va);
        String best = supported.get(0);
        for (String s : supported) if (Nvcc.archNumber(s) <= n) best = s;
        return best;
    }

    private Result compileArch(
            Path cu,
            String va,
            NvccFlagPolicy.Decision d,
            IncludeGraph.Result g,
            MessageDigest md,
            String displayName,
            List<Notification> notes) {
        List<String> args = new ArrayList<>();
        args.add("-ptx");
        args.add("-lineinfo");
        args.add("-arch=" + va);
        for (String a : d.args()) if (!a.equals("-lineinfo")) args.add(a);
        Path src = g.reached().get(0);
        md.update(String.join("\u0000", args).getBytes(StandardCharsets.UTF_8));
        md.update(nvcc.version().orElse("").getBytes(StandardCharsets.UTF_8));
        String key = HexFormat.of().formatHex(md.digest());
        java.util.Optional<String> hit = cache.get(key);
        if (hit.isPresent()) {
            Notification emptied = emptiedNotice(hit.get(), displayName);
            if (emptied != null) notes.add(emptied);
            return new Result(true, hit.get(), cache.file(key), true, false, notes);
        }
        java.util.Optional<String[]> failed = cache.failure(key);
        if (failed.isPresent()) {
            notes.add(failureNotice(Integer.parseInt(failed.get()[0]), failed.get()[1], src, g, d, displayName));
            return fail(notes);
        }
        List<String> full = new ArrayList<>(args);
        // a .cu name that links to a .cpp file (warp-ctc's ctc_entrypoint.cu): nvcc goes by the real name's suffix
        // and would compile it as host C++, writing no PTX; the build compiles it as CUDA
        if (!src.getFileName().toString().endsWith(".cu")) {
            full.add("-x");
            full.add("cu");
        }
        full.add(src.toString());
        full.add("-o");
        full.add("out.ptx");
        try {
            GuardedProcess.Spec spec = compileSpec(full);
            return GuardedProcess.run(spec, (work, r) -> {
                Path out = work.resolve("out.ptx");
                if (r.timedOut()) {
                    notes.add(new Notification(displayName, 0, Level.WARNING, "nvcc-failed", timeoutNotice(timeout)));
                    return fail(notes);
                }
                if (r.outputTruncated()) {
                    notes.add(new Notification(
                            displayName,
                            0,
                            Level.WARNING,
                            "nvcc-failed",
                            "nvcc -ptx printed " + "more than 256 KiB of messages and was stopped"));
                    return fail(notes);
                }
                if (r.exitCode() != 0) {
                    Result retried = withoutHostBodies(src, r.output(), g, args, key, displayName, notes);
                    if (retried != null) return retried;
                }
                if (r.exitCode() != 0 || !Files.isRegularFile(out) || Files.size(out) == 0) {
                    notes.add(failureNotice(r.exitCode(), r.output(), src, g, d, displayName));
                    // the sources, flags and nvcc decide it: a re-scan reads the failure (not a timeout, nor nvcc
                    // killed by a signal, as a memory limit kills it); nvcc's own exit code and messages are kept,
                    // and the notice is written from them each time, so a later numlint words it its own way
                    if (r.exitCode() < 128) cache.putFailure(key, r.exitCode(), r.output());
                    return fail(notes);
                }
                Path stored = cache.put(key, out);
                return new Result(true, Files.readString(stored, StandardCharsets.UTF_8), stored, false, false, notes);
            });
        } catch (PtxCache.CacheDirException e) {
            throw e;
        } catch (IOException e) {
            notes.add(new Notification(
                    displayName, 0, Level.WARNING, "nvcc-failed", "could not run nvcc: " + e.getMessage()));
            return fail(notes);
        }
    }

    /** One nvcc -ptx run: under the cache, the compile limits, its messages bounded. */
    private GuardedProcess.Spec compileSpec(List<String> args) throws IOException {
        return nvcc.spec(args)
                .tempParent(cache.tempDir())
                .timeout(timeout)
                .cpuSeconds(Math.max(60, timeout.toSeconds() * 2))
                .maxOutput(256 * 1024);
    }

    /** The first line of a PTX file stored after {@link #withoutHostBodies}: a comment holding its notice. */
    static final String EMPTIED_MARK = "// numlint nvcc-host-bodies-emptied ";

    private static final java.util.regex.Pattern ERROR_AT =
            java.util.regex.Pattern.compile("^(.+)\\((\\d+)\\): (?:error|catastrophic error)\\b.*");
    private static final java.util.regex.Pattern ERRORS_DETECTED =
            java.util.regex.Pattern.compile("^\\d+ errors? detected in the compilation of .*");

    /**
     * When every error of nvcc's {@code log} is in {@code src} itself, inside the bodies of host functions
     * ({@link HostBodies}): compiles a private copy of {@code src} with those bodies empty (a {@code #line} directive
     * keeps the file's name and lines in the PTX; {@code -iquote} the file's directory keeps its quoted includes), and
     * returns its PTX with a notice naming the emptied functions; else, or when the copy does not compile or defines
     * a function of an emptied name (device code after all), null.
     */
    private Result withoutHostBodies(
            Path src,
            String log,
            IncludeGraph.Result g,
            List<String> args,
            String key,
            String displayName,
            List<Notification> notes)
            throws IOException {
        java.util.Set<Integer> errorLines = new java.util.TreeSet<>();
        for (String l : log.split("\n")) {
            String t = l.strip();
            if (!t.toLowerCase(Locale.ROOT).contains("error")
                    || ERRORS_DETECTED.matcher(t).matches()) continue;
            java.util.regex.Matcher m = ERROR_AT.matcher(t);
            if (!m.matches()) {
                // an error nvcc's front end gives no line of the file (a preprocessor's, a header's caret line)
                if (t.contains(": error") || t.contains("fatal error")) return null;
                continue;
            }
            Path p;
            try {
                p = real(Path.of(m.group(1).strip()));
            } catch (RuntimeException e) {
                return null;
            }
            if (!p.equals(src)) return null;
            errorLines.add(Integer.parseInt(m.group(2)));
        }
        if (errorLines.isEmpty()) return null;
        String text = Files.readString(src, StandardCharsets.ISO_8859_1);
        List<String> texts = new ArrayList<>();
        for (Path f : g.reached()) {
            if (Files.size(f) <= (8 << 20)) texts.add(Files.readString(f, StandardCharsets.ISO_8859_1));
        }
        List<HostBodies.Body> bodies = HostBodies.holding(text, errorLines, HostBodies.deviceMacros(texts));
        if (bodies == null || bodies.isEmpty()) return null;
        for (HostBodies.Body b : bodies) if (b.name().length() < 3) return null;
        String dir = src.getParent().toString();
        String path = src.toString();
        if (dir.contains(",") || path.contains("\"") || path.contains("\\") || path.contains("\n")) return null;
        String copy = "#line 1 \"" + path + "\"\n" + HostBodies.emptied(text, bodies);
        String name = src.getFileName().toString().endsWith(".cu") ? "host-emptied.cu" : "host-emptied";
        List<String> full = new ArrayList<>(args);
        full.add("-Xcompiler=-iquote," + dir);
        if (!name.endsWith(".cu")) {
            full.add("-x");
            full.add("cu");
        }
        full.add(name);
        full.add("-o");
        full.add("out.ptx");
        GuardedProcess.Spec spec = compileSpec(full);
        List<String> first = relevantLines(log);
        int firstLine = errorLines.iterator().next();
        StringBuilder names = new StringBuilder();
        for (HostBodies.Body b : bodies) {
            if (names.length() > 0) names.append(", ");
            names.append("'")
                    .append(b.name())
                    .append("' (line ")
                    .append(b.firstLine())
                    .append(")");
        }
        String notice = "nvcc -ptx failed on host code only"
                + (first.isEmpty() ? "" : " (" + first.get(0) + ")")
                + "; the PTX layer compiled a private copy in which the bodies of the host "
                + (bodies.size() == 1 ? "function" : "functions") + " holding the errors are empty: " + names
                + "; the kernels' PTX is nvcc's own, but a kernel template instantiated only by a launch in "
                + (bodies.size() == 1 ? "that function" : "those functions") + " is missing";
        return GuardedProcess.run(
                spec, work -> Files.writeString(work.resolve(name), copy, StandardCharsets.ISO_8859_1), (work, r) -> {
                    Path out = work.resolve("out.ptx");
                    if (r.timedOut() || r.exitCode() != 0 || !Files.isRegularFile(out) || Files.size(out) == 0)
                        return null;
                    String ptx = Files.readString(out, StandardCharsets.UTF_8);
                    for (HostBodies.Body b : bodies) if (definesFunction(ptx, b.name())) return null;
                    Files.writeString(
                            out, EMPTIED_MARK + firstLine + " " + notice + "\n" + ptx, StandardCharsets.UTF_8);
                    Path stored = cache.put(key, out);
                    notes.add(new Notification(displayName, firstLine, Level.NOTE, "nvcc-host-bodies-emptied", notice));
                    return new Result(
                            true, Files.readString(stored, StandardCharsets.UTF_8), stored, false, false, notes);
                });
    }

    /** Whether {@code ptx} declares an entry or function whose (mangled) name holds {@code name}. */
    static boolean definesFunction(String ptx, String name) {
        for (String l : ptx.split("\n")) {
            String t = l.strip();
            if ((t.contains(".entry ") || t.contains(".func ")) && t.contains(name)) return true;
        }
        return false;
    }

    /** The notice a cached PTX file stored by {@link #withoutHostBodies} carries on its first line, or null. */
    static Notification emptiedNotice(String ptx, String displayName) {
        if (!ptx.startsWith(EMPTIED_MARK)) return null;
        int eol = ptx.indexOf('\n');
        String rest = ptx.substring(EMPTIED_MARK.length(), eol < 0 ? ptx.length() : eol);
        int sp = rest.indexOf(' ');
        int line;
        try {
            line = Integer.parseInt(rest.substring(0, Math.max(0, sp)));
        } catch (NumberFormatException e) {
            line = 0;
        }
        return new Notification(displayName, line, Level.NOTE, "nvcc-host-bodies-emptied", rest.substring(sp + 1));
    }

    private static final java.util.regex.Pattern MISSING_HEADER =
            java.util.regex.Pattern.compile("fatal error: ([^:\\s][^:]*): No such file or directory");

    /** The header of nvcc's "fatal error: X: No such file or directory", or null. */
    static String missingHeader(String output) {
        java.util.regex.Matcher mm = MISSING_HEADER.matcher(output);
        return mm.find() ? mm.group(1).trim() : null;
    }

    private static Result fail(List<Notification> notes) {
        return new Result(false, null, null, false, false, notes);
    }

    /** Whether a file's text has CUDA device code (or a kernel launch). */
    static boolean hasDeviceCode(byte[] content) {
        String s = new String(content, StandardCharsets.ISO_8859_1);
        return s.contains("__global__") || s.contains("__device__");
    }

    /** Root-relative display of a file inside the roots; the display name of the compiled file otherwise. */
    private String shown(Path file, String fallback) {
        Path r = real(file);
        for (Path root : policy.roots()) {
            if (r != null && r.startsWith(root))
                return root.relativize(r).toString().replace('\\', '/');
        }
        return fallback;
    }

    private static Path real(Path p) {
        Path r = IncludePolicy.real(p.toAbsolutePath());
        return r == null ? p.toAbsolutePath().normalize() : r;
    }

    /**
     * nvcc's error lines about files inside the roots (path made relative), at most 3, each at most 200
     * characters; everything else (lines about other files, free text) is left out.
     */
    List<String> relevantLines(String log) {
        List<String> out = new ArrayList<>();
        for (String l : log.split("\n")) {
            String s = l.strip();
            int paren = s.indexOf('(');
            int colon = s.indexOf(':');
            int end = paren > 0 && (colon < 0 || paren < colon) ? paren : colon;
            if (end <= 0) continue;
            String file = s.substring(0, end);
            Path p;
            try {
                p = Path.of(file);
            } catch (RuntimeException e) {
                continue;
            }
            if (!p.isAbsolute()) continue;
            Path r = real(p);
            String rel = null;
            for (Path root : policy.roots())
                if (r.startsWith(root)) rel = root.relativize(r).toString();
            if (rel == null) continue;
            String lower = s.toLowerCase(Locale.ROOT);
            if (!lower.contains("error") && !lower.contains("fatal")) continue;
            String t = rel.replace('\\', '/') + s.substring(end);
            out.add(t.length() > 200 ? t.substring(0, 197) + "..." : t);
            if (out.size() == 3) break;
        }
        return out;
    }

    private static final java.util.regex.Pattern MACRO_ERROR =
            java.util.regex.Pattern.compile("error.*?macro \"([A-Za-z_]\\w*)\"");

    /**
     * The macro that nvcc's first error naming one ({@code macro "min" passed 3 arguments, but takes just 2}, from a
     * libstdc++ header) names, with where a project file the unit reads defines it ({@code min (include/basic.h:20)}),
     * or null when the error names no macro or the scanned tree defines none of that name.
     */
    String projectMacro(String log, List<Path> reached) {
        java.util.regex.Matcher m = MACRO_ERROR.matcher(log);
        if (!m.find()) return null;
        String name = m.group(1);
        java.util.regex.Pattern define = java.util.regex.Pattern.compile(
                "^[ \\t]*#[ \\t]*define[ \\t]+" + java.util.regex.Pattern.quote(name) + "\\b");
        for (Path f : reached) {
            try {
                if (Files.size(f) > (8 << 20)) continue;
                List<String> lines = Files.readAllLines(f, StandardCharsets.ISO_8859_1);
                for (int i = 0; i < lines.size(); i++) {
                    if (define.matcher(lines.get(i)).find())
                        return name + " (" + shown(f, f.toString()) + ":" + (i + 1) + ")";
                }
            } catch (IOException | RuntimeException e) {
                // unreadable: not this file
            }
        }
        return null;
    }

    /** The number of nvcc's error lines ("...: error ...", "fatal error"). */
    private static long errorLines(String log) {
        return log.lines()
                .filter(l -> l.contains(": error") || l.contains("fatal error") || l.contains("): error"))
                .count();
    }

    /** The line of nvcc's first error in {@code src} itself ("path(12): error ...", {@link #ERROR_AT}), else 0. */
    /**
     * The {@code nvcc-failed} notice of a compile that exited with {@code exitCode} (0: it wrote no PTX) and printed
     * {@code output}: the lines about the scanned tree, or what the others were about, and the header it could not
     * open with what to do.
     */
    private Notification failureNotice(
            int exitCode,
            String output,
            Path src,
            IncludeGraph.Result g,
            NvccFlagPolicy.Decision d,
            String displayName) {
        List<String> lines = relevantLines(output);
        StringBuilder m = new StringBuilder(
                exitCode == 0 ? "nvcc -ptx wrote no PTX (exit 0)" : "nvcc -ptx failed (exit " + exitCode + ")");
        if (!lines.isEmpty()) {
            m.append(": ").append(String.join(" | ", lines));
        } else {
            long outside = errorLines(output);
            if (outside > 0) {
                // not quoted (only lines about the scanned tree are), but said: the reason is not absent
                m.append(": its ")
                        .append(outside)
                        .append(outside == 1 ? " error line is" : " error lines are all")
                        .append(" about headers outside the scanned tree (the toolkit's or another package's)");
                String macro = projectMacro(output, g.reached());
                m.append(
                        macro != null
                                ? ", where the project's macro " + macro + " is expanded: the scanned tree's macro"
                                        + " breaks them"
                                : ": often code this nvcc version no longer accepts");
            }
        }
        // the hint names the header nvcc could not open (not the first include numlint's own graph could not
        // resolve: system headers such as <algorithm> are found by nvcc, not by the graph)
        String header = missingHeader(output);
        if (header != null) {
            IncludeGraph.Problem p = null;
            for (IncludeGraph.Problem q : g.missing()) {
                if (q.include().contains(header)) {
                    p = q;
                    break;
                }
            }
            m.append("; header ").append(p != null ? p.include() : header);
            if (p != null) {
                m.append(" (")
                        .append(shown(p.file(), displayName))
                        .append(":")
                        .append(p.line())
                        .append(")");
            }
            m.append(" was not found").append(includeAdvice(d.dropped(), header));
        }
        return new Notification(displayName, firstLine(output, src), Level.WARNING, "nvcc-failed", m.toString());
    }

    private static int firstLine(String log, Path src) {
        for (String l : log.split("\n")) {
            java.util.regex.Matcher m = ERROR_AT.matcher(l.strip());
            if (!m.matches()) continue;
            try {
                if (real(Path.of(m.group(1).strip())).equals(src)) return Integer.parseInt(m.group(2));
            } catch (RuntimeException e) {
                // not a position
            }
        }
        return 0;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
