package dev.numlint.cuda.clang;

import dev.numlint.model.BuildContext;
import dev.numlint.spi.ScanContext;
import dev.numlint.toolchain.IncludePolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Clang front end's per-scan state: whether it runs ({@code --frontend clang|legacy|auto}), the CUDA toolkit
 * Clang reads, the stub headers, and how one file's compile command becomes Clang's arguments.
 */
public final class ClangFrontEnd {
    /** The {@code frontend} setting. */
    public enum Mode {
        /** Clang when libclang loads, else the hand-written front end with a notice. */
        AUTO,
        /** Clang; a scan where libclang cannot load says so once per scan and goes on with the hand-written one. */
        CLANG,
        /** The hand-written front end only. */
        LEGACY;

        public static Mode of(String s) {
            if (s == null || s.isBlank()) return AUTO;
            return switch (s.strip().toLowerCase(Locale.ROOT)) {
                case "clang" -> CLANG;
                case "legacy" -> LEGACY;
                case "auto" -> AUTO;
                default -> throw new IllegalArgumentException(
                        "unknown front end '" + s + "' (expected clang, legacy or auto)");
            };
        }
    }

    /** The language a file is parsed as. */
    public enum Language {
        C,
        CXX,
        CUDA
    }

    /** Whether Clang reads this scan's files; in a worker process ({@link ClangWorkers}) unless {@link #inProcess}. */
    private final boolean active;
    /**
     * Clang's facts alone for the files it reads ({@code -Dnumlint.clang.alone=true}, a developer setting): the
     * measure of how far Clang's facts are from retiring the hand-written front end (docs/frontend/clang-alone-session14.md).
     */
    private boolean alone;
    /**
     * Both front ends on every function of a file Clang read ({@code -Dnumlint.clang.both=true}, a developer setting):
     * the hand-written one's facts, amended by Clang's, as before session 34 (docs/frontend/one-frontend-session34.md).
     */
    private boolean both;
    /** libclang in this process (tests, {@code -Dnumlint.clang.inProcess=true}) instead of guarded workers. */
    private final boolean inProcess;

    private final Path toolkit;
    private final Path stubs;
    /** Where the precompiled CUDA headers are kept between scans ({@link ClangPch}), or null: per process. */
    private Path cacheDir;

    private final String fallback;

    /**
     * The include directories the user named in {@code --nvcc-flags} (real paths): trusted like the toolkit's, as the
     * PTX layer trusts them for nvcc ({@link dev.numlint.spi.UserIncludeDirs}); headers found there are the
     * compiler's, not followed by {@link ClangIncludeClosure}.
     */
    private List<Path> userDirs = List.of();
    /** The scan root: relative paths of the build are resolved against it. */
    private final Path root;

    /**
     * The scanned tree Clang may read ({@link #tree(ScanContext)}): the trust boundary's one root, or the common
     * directory of its roots. Not the scan root, which is the working directory and may lie above the scanned PATHs.
     */
    private final Path tree;

    /**
     * The real roots of the scan's trust boundary (the scanned PATHs, the compilation database's directory): what
     * Clang may read lies in one of them, not merely under {@link #tree} (with a build directory beside the sources,
     * {@link #tree} is their common parent, which holds other directories).
     */
    private List<Path> roots = List.of();

    private ClangFrontEnd(
            boolean active, boolean inProcess, Path toolkit, Path stubs, String fallback, Path root, Path tree) {
        this.active = active;
        this.inProcess = inProcess;
        this.toolkit = toolkit;
        this.stubs = stubs;
        this.fallback = fallback;
        this.root = root;
        this.tree = tree;
    }

    /**
     * The directory Clang may read below: the one real root of the scan's trust boundary (the scanned PATH), or the
     * deepest directory that holds all of its roots when several PATHs are scanned; the scan root when that directory
     * would be the file system's root (PATHs in unrelated trees: the residual risk the threat model names).
     */
    static Path tree(ScanContext ctx) {
        Path common = null;
        for (Path r : ctx.boundary().roots()) {
            Path a = r.toAbsolutePath().normalize();
            if (common == null) common = a;
            else {
                while (common != null && !a.startsWith(common)) common = common.getParent();
            }
        }
        Path root = ctx.root() == null ? null : ctx.root().toAbsolutePath().normalize();
        if (common == null || common.getParent() == null) return root;
        if (root != null) {
            // the boundary's roots are real paths; the scan's files are named below the scan root as given (a link
            // in its path): the same directory, spelt from the scan root
            try {
                Path realRoot = root.toRealPath();
                if (common.startsWith(realRoot))
                    return root.resolve(realRoot.relativize(common)).normalize();
            } catch (java.io.IOException | RuntimeException e) {
                // the real path is the one to compare
            }
        }
        return common;
    }

    /**
     * The front end for one scan ({@code frontend} setting or {@code -Dnumlint.frontend}, default {@code auto}).
     * {@link #active()} is false for {@code legacy}, and when libclang cannot be loaded ({@link #fallback()} then says
     * why, for the one notice of the scan). The scan's process does not load libclang: its workers do.
     */
    public static ClangFrontEnd forScan(ScanContext ctx) {
        Mode mode = Mode.of(ctx.setting("frontend").orElse(System.getProperty("numlint.frontend", "auto")));
        Path root = ctx.root() == null ? null : ctx.root().toAbsolutePath().normalize();
        Path tree = tree(ctx);
        if (mode == Mode.LEGACY) return new ClangFrontEnd(false, false, null, null, null, root, tree);
        boolean inProcess = Boolean.getBoolean("numlint.clang.inProcess");
        String missing = inProcess ? (Libclang.get() == null ? Libclang.unavailable() : null) : Libclang.missing();
        if (missing == null && !inProcess) missing = ClangWorkers.SHARED.unavailable();
        if (missing != null) return new ClangFrontEnd(false, false, null, null, fallbackNote(missing), root, tree);
        // a worker writes the stub headers into the scan's cache directory beside the precompiled CUDA headers it
        // keeps there (ClangPch), or into its own private directory when they are not kept
        Path stubs = inProcess ? Libclang.stubHeaders(ctx.cacheDir()) : null;
        ClangFrontEnd fe = new ClangFrontEnd(true, inProcess, toolkit(ctx), stubs, null, root, tree);
        fe.roots = List.copyOf(ctx.boundary().roots());
        fe.cacheDir = ClangPch.kept() ? ctx.cacheDir() : null;
        fe.userIncludeDirs(ctx.commandLineFlags());
        fe.alone = Boolean.getBoolean("numlint.clang.alone");
        fe.both = !fe.alone && Boolean.getBoolean("numlint.clang.both");
        return fe;
    }

    /**
     * Starts up to {@code workers} Clang workers in the background ({@link ClangWorkers#prestart}) for a scan that will
     * parse C, C++ or CUDA files in them; nothing when its front end would not use workers (legacy, libclang in this
     * process, the bindings or natives missing, or libclang known not to load in a worker).
     */
    public static void prestart(ScanContext ctx, int workers) {
        Mode mode;
        try {
            mode = Mode.of(ctx.setting("frontend").orElse(System.getProperty("numlint.frontend", "auto")));
        } catch (IllegalArgumentException bad) {
            return; // the scan reports the setting
        }
        if (mode == Mode.LEGACY || Boolean.getBoolean("numlint.clang.inProcess") || Libclang.missing() != null) return;
        ClangWorkers.SHARED.prestart(workers);
    }

    /** Whether the hand-written front end leaves the functions of a file Clang read to Clang ({@link #alone}). */
    public boolean alone() {
        return active && alone;
    }

    /**
     * Whether Clang's facts decide the functions of a file Clang read that it saw whole, the hand-written front end
     * analyzing only the others ({@code ClangDecides}): the default; not with {@link #alone} (Clang decides all of
     * them) nor with {@link #both}.
     */
    public boolean decides() {
        return active && !alone && !both;
    }

    /** Whether both front ends analyze every function of a file Clang read ({@link #both}). */
    public boolean both() {
        return active && both;
    }

    /** Which front end decides, for the identity of Clang's reading of a file: "alone ", "both " or "". */
    public String decidingTag() {
        return alone() ? "alone " : both() ? "both " : "";
    }

    /** The scan's one note when Clang cannot read its files. */
    public static String fallbackNote(String why) {
        return "the Clang front end is not available (" + why + "); C, C++ and CUDA sources were analyzed by the"
                + " fallback front end, which guesses (types from headers it cannot read, templates, macros)";
    }

    /** A front end over {@code root} for tests and tools: libclang in this process, it must load. */
    static ClangFrontEnd forTest(Path root, Path toolkit, Path cacheDir) {
        Libclang lib = Libclang.get();
        return new ClangFrontEnd(
                lib != null,
                true,
                toolkit,
                Libclang.stubHeaders(cacheDir),
                null,
                root.toAbsolutePath().normalize(),
                root.toAbsolutePath().normalize());
    }

    public boolean active() {
        return active;
    }

    /**
     * Clang's reading of {@code file} ({@code args} from {@link #arguments}, {@code text} the bytes the scan read):
     * in a guarded worker process, or in this process for tests. A failed unit says why
     * ({@link ClangUnit#failure()}); {@link ClangUnit#unavailable()} when libclang cannot run at all.
     */
    public ClangUnit parse(Path file, List<String> args, byte[] text) {
        return parse(file, args, text, null, null);
    }

    /**
     * Clang's reading of {@code target}, a file that the translation unit {@code file} includes and that the build
     * compiles only through it: {@code file} is parsed with {@code args} (its own compile command) and the unit holds
     * the target's cursors, errors and lines, as that unit compiles it (the macros defined before the include, the
     * declarations of the headers included before it, the unit's language). With a null target, {@code file}'s own.
     */
    public ClangUnit parse(Path file, List<String> args, byte[] text, Path target, byte[] targetText) {
        return parse(file, args, text, target, targetText, java.util.Map.of());
    }

    /**
     * As {@link #parse(Path, List, byte[], Path, byte[])}; the same parse also reads the project {@code headers} (with
     * the bytes the scan read) that the unit includes: {@link ClangIncludes#of}, each as a target is read.
     */
    public ClangUnit parse(
            Path file,
            List<String> args,
            byte[] text,
            Path target,
            byte[] targetText,
            java.util.Map<Path, byte[]> headers) {
        if (cuda(args)) { // launches written `k<< <g, b>> >(...)`, which nvcc reads and Clang does not
            text = LaunchSpacing.join(text);
            targetText = LaunchSpacing.join(targetText);
            headers = LaunchSpacing.join(headers);
        }
        if (inProcess && (roots.size() > 1 || tree != null)) {
            // an in-process parse: the check a worker makes before every parse (ClangWorkerMain, with the roots
            // themselves, not the directory that holds them: ClangWire.Request#roots)
            List<Path> boundary = roots.size() > 1 ? roots : List.of(tree);
            String refused = ClangIncludeClosure.refusal(boundary, file, text, args);
            if (refused == null && target != null)
                refused = ClangIncludeClosure.refusal(boundary, target, targetText, args);
            if (refused != null) return ClangUnit.failed(target == null ? file : target, "refused: " + refused);
        }
        if (inProcess) return ClangParser.parse(file, args, text, cacheDir, target, targetText, headers, tree);
        return ClangWorkers.SHARED.parse(new ClangWire.Request(
                file, tree, cacheDir, args, text, target, targetText, headers, roots.size() > 1 ? roots : List.of()));
    }

    /**
     * Whether {@code abs} lies in the scanned tree: under {@link #tree}, and with several roots in one of them (its
     * real path, a link followed).
     */
    private boolean readable(Path abs) {
        if (tree == null || !abs.startsWith(tree)) return false;
        if (roots.size() <= 1) return true;
        Path real = IncludePolicy.real(abs);
        return real != null && under(real, roots);
    }

    /** Whether the arguments ({@link #arguments}) parse the unit as CUDA ({@code -x cuda}). */
    static boolean cuda(List<String> args) {
        for (int i = 0; i + 1 < args.size(); i++) {
            if (args.get(i).equals("-x")) return args.get(i + 1).equals("cuda");
        }
        return false;
    }

    /** Why the Clang front end is not used in this scan although it was asked for (auto or clang), or null. */
    public String fallback() {
        return fallback;
    }

    /** The CUDA toolkit Clang reads the runtime headers from: nvcc's, $CUDA_PATH, $CUDA_HOME, /usr/local/cuda. */
    static Path toolkit(ScanContext ctx) {
        List<Path> candidates = new ArrayList<>();
        ctx.nvcc().ifPresent(n -> {
            Path bin = n.toAbsolutePath().getParent();
            if (bin != null && bin.getParent() != null) candidates.add(bin.getParent());
            try {
                Path real = n.toRealPath();
                if (real.getParent() != null && real.getParent().getParent() != null) {
                    candidates.add(real.getParent().getParent());
                }
            } catch (java.io.IOException | RuntimeException e) {
                // not resolvable: the other candidates
            }
        });
        for (String env : new String[] {"CUDA_PATH", "CUDA_HOME"}) {
            String v = System.getenv(env);
            if (v != null && !v.isBlank()) candidates.add(Path.of(v));
        }
        candidates.add(Path.of("/usr/local/cuda"));
        for (Path c : candidates) {
            if (Files.isRegularFile(c.resolve("include/cuda_runtime.h")))
                return c.toAbsolutePath().normalize();
        }
        return null;
    }

    /** The toolkit used for CUDA files, or null when none was found (CUDA files then stay with the legacy path). */
    public Path toolkit() {
        return toolkit;
    }

    /**
     * The {@code -D}s nvcc adds for its feature flags in {@code nvcc} (any spelling it accepts):
     * {@code --expt-relaxed-constexpr} defines {@code __CUDACC_RELAXED_CONSTEXPR__}, {@code --extended-lambda} (and
     * {@code --expt-extended-lambda}) {@code __CUDACC_EXTENDED_LAMBDA__}. Clang's CUDA mode already allows what the
     * flags allow (constexpr functions on both sides, device lambdas); only the macros were missing.
     */
    static List<String> featureMacros(List<String> nvcc) {
        boolean relaxed = false, lambda = false;
        for (String f : nvcc) {
            String g = f.strip().replaceFirst("^--?", "").replace('_', '-');
            if (g.equals("expt-relaxed-constexpr")) relaxed = true;
            if (g.equals("extended-lambda") || g.equals("expt-extended-lambda")) lambda = true;
        }
        List<String> d = new ArrayList<>();
        if (relaxed) d.add("-D__CUDACC_RELAXED_CONSTEXPR__");
        if (lambda) d.add("-D__CUDACC_EXTENDED_LAMBDA__");
        return d;
    }

    /**
     * A string literal glued to a macro name ({@code "at "S__LINE__}, {@code __FILE__"("S__LINE__"): "}): GCC, which
     * nvcc preprocesses host code with, warns (-Wliteral-suffix) and reads two tokens; Clang reads the same two tokens
     * but reports an error ("invalid suffix on literal", -Wreserved-user-defined-literal, an error by default), so
     * the file counted as one that does not compile (GVDB's gvdb_types.h). Off, Clang accepts it as GCC does. A
     * suffix that starts with an underscore ({@code "): "__VA_ARGS__}) is a user-defined literal in both.
     */
    static final String LITERAL_SUFFIX = "-Wno-reserved-user-defined-literal";

    /** Whether {@code file} has the compile command of a guessed build (no build file gave one). */
    public static boolean guessed(BuildContext bc) {
        return bc.configuration() == null;
    }

    /**
     * Clang's arguments for one file: the language, the build's macros, include directories inside the scanned tree
     * (the scan reads nothing outside it; system and toolkit headers are the compiler's own), the language standard
     * and forced includes of its compile command, the CUDA toolkit and architecture, the stub headers, and limits that
     * bound the work a hostile file can ask for.
     */
    public List<String> arguments(Path file, Language lang, BuildContext bc) {
        return arguments(file, lang, bc, List.of());
    }

    /**
     * As {@link #arguments(Path, Language, BuildContext)}, with include directories of the tree found for this file
     * ({@link ClangIncludesByName#includeDirsByName}) after the build's.
     */
    public List<String> arguments(Path file, Language lang, BuildContext bc, List<Path> extraIncludeDirs) {
        List<String> a = new ArrayList<>();
        String std = null;
        List<String> forced = bc.forcedIncludes();
        List<String> nvcc = bc.nvccFlags();
        for (int i = 0; i < nvcc.size(); i++) {
            String f = nvcc.get(i).strip();
            if (f.startsWith("-std=") || f.startsWith("--std=")) std = f.substring(f.indexOf('=') + 1);
            else if (f.equals("-std") && i + 1 < nvcc.size())
                std = nvcc.get(++i).strip();
            else if ((f.equals("-include") || f.equals("--pre-include")) && i + 1 < nvcc.size()) i++;
        }
        switch (lang) {
            case C -> {
                a.add("-x");
                a.add("c");
                a.add("-std="
                        + (std != null && (std.startsWith("c") || std.startsWith("gnu")) && !std.contains("++")
                                ? std
                                : "gnu17"));
            }
            case CXX -> {
                a.add("-x");
                a.add("c++");
                a.add("-std=" + (std != null && std.contains("++") ? std : "gnu++17"));
                // GCC only warns about `register` under C++17, where Clang stops with an error
                a.add("-Wno-register");
                a.add(LITERAL_SUFFIX);
            }
            case CUDA -> {
                a.add("-x");
                a.add("cuda");
                a.add("-std=" + (std != null && std.contains("++") ? std : "c++17"));
                if (toolkit != null) {
                    a.add("--cuda-path=" + toolkit);
                    // CUDA 13 keeps libcu++, CUB and Thrust in include/cccl, which nvcc adds by itself
                    Path cccl = toolkit.resolve("include/cccl");
                    if (Files.isDirectory(cccl)) {
                        a.add("-isystem");
                        a.add(cccl.toString());
                    }
                } else {
                    a.add("-nocudainc");
                }
                // nvcc defines __NVCC__ in every compilation it drives, host side included; Clang's CUDA mode does
                // not: C codes' portability headers (`#if defined(__NVCC__)`) otherwise take their CPU branch
                a.add("-D__NVCC__");
                // and with it nvcc's version macros, which CCCL (libcu++, CUB, Thrust, cooperative groups) reads once
                // it sees __NVCC__: without them it takes the compiler for a CUDA below 12 and stops at its #error
                int[] v = toolkitVersion(toolkit);
                if (v != null) {
                    a.add("-D__CUDACC_VER_MAJOR__=" + v[0]);
                    a.add("-D__CUDACC_VER_MINOR__=" + v[1]);
                    a.add("-D__CUDACC_VER_BUILD__=0");
                }
                // and the macros nvcc defines for its feature flags (nvcc --dryrun shows them): TNL's Assert.h stops
                // at an #error without them, although every compile command carries the flags
                a.addAll(featureMacros(nvcc));
                a.add("--cuda-gpu-arch=" + gpuArch(bc.cudaArch()));
                a.add("-nocudalib");
                a.add("--cuda-host-only");
                a.add("-Wno-unknown-cuda-version");
                // nvcc only warns where Clang's errors would drop the declaration: `register` under C++17 (AWP-ODC's
                // kernel.cu: 101 errors from its first line) and narrowing in braced initialisers (SUPRA)
                a.add("-Wno-register");
                a.add("-Wno-c++11-narrowing");
                a.add(LITERAL_SUFFIX);
            }
        }
        // a host file that nvcc compiles (its command's flags are nvcc's) finds the toolkit's headers as nvcc lets it
        // (cuda_runtime.h in a timer.cc built with nvcc -c): after every other directory, as nvcc adds them
        if (lang != Language.CUDA && toolkit != null && (!nvcc.isEmpty() || bc.cudaArch() != null)) {
            Path inc = toolkit.resolve("include");
            if (Files.isDirectory(inc)) {
                a.add("-idirafter");
                a.add(inc.toString());
            }
        }
        // the macros the host compiler predefines for the command's flags (-fopenmp: _OPENMP; -ffast-math:
        // __FAST_MATH__), before the command's own -D and -U, which win as they do on the compiler's command line
        a.addAll(dev.numlint.knowledge.HostMacros.targetFlags(
                bc.hostMacroFlags(), dev.numlint.knowledge.HostMacros.x86Host()));
        for (String d : bc.impliedDefines()) {
            // Clang predefines __FINITE_MATH_ONLY__ as 0: undefined first, so that the new value is no redefinition
            a.add("-U" + d.substring(0, d.indexOf('=')));
            a.add("-D" + d);
        }
        for (String d : bc.defines()) a.add("-D" + d);
        for (String u : bc.undefines()) a.add("-U" + u);
        // the compile command's own -D, -U and -I (nvcc's long forms too), as the hand-written front end reads them
        List<Path> flagDirs = new ArrayList<>();
        for (int i = 0; i < nvcc.size(); i++) {
            String f = nvcc.get(i).strip();
            String v = null;
            String kind = null;
            for (String[] form : new String[][] {
                {"-D", "D"},
                {"--define-macro", "D"},
                {"-U", "U"},
                {"--undefine-macro", "U"},
                {"-I", "I"},
                {"--include-path", "I"}
            }) {
                if (f.equals(form[0]) && i + 1 < nvcc.size()) {
                    v = nvcc.get(++i).strip();
                } else if (f.startsWith(form[0] + "=") && form[0].startsWith("--")) {
                    v = f.substring(form[0].length() + 1);
                } else if (f.startsWith(form[0]) && form[0].length() == 2 && f.length() > 2) {
                    v = f.substring(2);
                }
                if (v != null) {
                    kind = form[1];
                    break;
                }
            }
            if (v == null || v.isEmpty()) continue;
            if (kind.equals("D")) a.add("-D" + v);
            else if (kind.equals("U")) a.add("-U" + v);
            else {
                try {
                    Path p = Path.of(v);
                    Path d = file.toAbsolutePath().getParent();
                    flagDirs.add(p.isAbsolute() || d == null ? p : d.resolve(p));
                    if (root != null && !p.isAbsolute()) flagDirs.add(root.resolve(p));
                } catch (RuntimeException bad) {
                    // not a path: not used
                }
            }
        }
        for (Path p : flagDirs) {
            Path abs = p.toAbsolutePath().normalize();
            if (readable(abs) && Files.isDirectory(abs)) a.add("-I" + abs);
            else if (aboveRoot(tree, abs)) a.add("-I" + abs);
            else if (p.isAbsolute() && (packageIncludeDir(abs) || inToolkit(abs) || userDir(abs))) a.add("-I" + abs);
        }
        for (Path p : bc.includePaths()) {
            Path abs = (p.isAbsolute() || root == null ? p : root.resolve(p))
                    .toAbsolutePath()
                    .normalize();
            if (readable(abs)) a.add("-I" + abs);
            else if (aboveRoot(tree, abs)) a.add("-I" + abs);
            else if (p.isAbsolute() && (packageIncludeDir(abs) || inToolkit(abs) || userDir(abs))) a.add("-I" + abs);
        }
        // as -I, not -idirafter: Clang takes the headers of an -idirafter directory for system headers and leaves
        // their functions' facts out (a callee's body read by name); a standard header is never found by name
        // (ClangIncludesByName.STANDARD_HEADERS)
        for (Path p : extraIncludeDirs) {
            if (readable(p.toAbsolutePath().normalize())) a.add("-I" + p);
        }
        Path dir = file.toAbsolutePath().getParent();
        for (String inc : forced) {
            Path p = Path.of(inc);
            Path abs = (p.isAbsolute() || dir == null ? p : dir.resolve(p))
                    .toAbsolutePath()
                    .normalize();
            if (readable(abs) && Files.isRegularFile(abs)) {
                a.add("-include");
                a.add(abs.toString());
            } else if ((tree != null && abs.startsWith(tree) || !p.isAbsolute())
                    && !Files.exists(abs, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                // a name not beside the command (-include cstdio, resolved against its directory by the flag
                // interpreter, or as written): the system header the host compiler finds
                Path sys =
                        ClangForcedIncludes.found(p.isAbsolute() ? String.valueOf(abs.getFileName()) : inc, a, toolkit);
                if (sys != null) {
                    a.add("-include");
                    a.add(sys.toString());
                }
            }
        }
        a.addAll(Libclang.stubArguments(stubs, a));
        if (lang == Language.C) a.addAll(ClangCDialect.GCC_LENIENCY);
        a.add("-ferror-limit=100");
        a.add("-fbracket-depth=256");
        a.add("-ftemplate-depth=256");
        a.add("-fconstexpr-steps=1000000");
        a.add("-w");
        return a;
    }

    /**
     * Whether an include directory of the build lies above the scanned tree (MOQUI's {@code -I<project root>}, so that
     * {@code #include <moqui/base/x.hpp>} finds the tree's headers): kept, as the tree's headers are found only through
     * it; every header Clang would read through it must lie in the tree ({@link ClangIncludeClosure}, which refuses
     * the unit otherwise). Never the file system's root.
     */
    static boolean aboveRoot(Path root, Path abs) {
        return root != null
                && abs.getParent() != null
                && !root.equals(abs)
                && root.startsWith(abs)
                && Files.isDirectory(abs);
    }

    /** sm_NN for Clang from the scan's compute_NN / sm_NN (default sm_80). */
    static String gpuArch(String arch) {
        if (arch == null || arch.isBlank()) return "sm_80";
        String digits = arch.replaceAll("[^0-9]", "");
        if (digits.isEmpty()) return "sm_80";
        return "sm_" + digits;
    }

    private static final java.util.Map<Path, int[]> VERSIONS = new java.util.concurrent.ConcurrentHashMap<>();

    private static final java.util.regex.Pattern CUDA_VERSION =
            java.util.regex.Pattern.compile("(?m)^\\s*#\\s*define\\s+CUDA_VERSION\\s+(\\d+)\\b");

    /**
     * The toolkit's version {major, minor} from its {@code include/cuda.h} ({@code #define CUDA_VERSION 13000}), or
     * null when there is no toolkit or no such line (the toolkit is trusted; its first 64 KiB are read once).
     */
    static int[] toolkitVersion(Path toolkit) {
        if (toolkit == null) return null;
        int[] v = VERSIONS.computeIfAbsent(toolkit, t -> {
            try (java.io.InputStream in = Files.newInputStream(t.resolve("include/cuda.h"))) {
                String text = new String(in.readNBytes(64 * 1024), java.nio.charset.StandardCharsets.ISO_8859_1);
                java.util.regex.Matcher m = CUDA_VERSION.matcher(text);
                if (!m.find()) return new int[0];
                int n = Integer.parseInt(m.group(1));
                return new int[] {n / 1000, (n % 1000) / 10};
            } catch (java.io.IOException | RuntimeException e) {
                return new int[0];
            }
        });
        return v.length == 2 ? v : null;
    }

    /**
     * Whether an absolute {@code -I} directory of the compile command is an installed package's header tree
     * ({@link IncludePolicy#packageInclude}, judged by its real path), which the compiler reads like {@code
     * /usr/include}: an MPI or HDF5 include directory of the build.
     */
    /**
     * Whether {@code abs} is a directory of the CUDA toolkit Clang reads the runtime headers from (a host unit's
     * {@code -I/usr/local/cuda/targets/x86_64-linux/include} for {@code cuda.h}, the driver API): the compiler's own
     * headers, as trusted as the toolkit's CUDA wrapper headers; a link is followed before the test.
     */
    boolean inToolkit(Path abs) {
        if (toolkit == null) return false;
        Path real = IncludePolicy.real(abs);
        Path tk = IncludePolicy.real(toolkit);
        return real != null && tk != null && Files.isDirectory(real) && real.startsWith(tk);
    }

    /** Trusts the include directories that the user's command-line flags ({@code --nvcc-flags}) name. */
    void userIncludeDirs(List<String> flags) {
        userDirs = dev.numlint.spi.UserIncludeDirs.of(flags).stream()
                .map(IncludePolicy::real)
                .filter(java.util.Objects::nonNull)
                .toList();
    }

    /** Whether {@code abs} is one of the user's include directories or below one, a link followed first. */
    boolean userDir(Path abs) {
        if (userDirs.isEmpty()) return false;
        Path real = IncludePolicy.real(abs);
        if (real == null || !Files.isDirectory(real)) return false;
        for (Path u : userDirs) if (real.startsWith(u)) return true;
        return false;
    }

    static boolean packageIncludeDir(Path abs) {
        Path real = IncludePolicy.real(abs);
        if (real == null || !Files.isDirectory(real)) return false;
        if (IncludePolicy.packageInclude(real)) return true;
        // a subdirectory of the system's header trees (-I/usr/include/hdf5/serial): the compiler's own, as nvcc's
        for (Path sys : IncludePolicy.defaultSystemDirs(null)) {
            Path t = IncludePolicy.real(sys);
            if (t != null && real.startsWith(t)) return true;
        }
        return false;
    }

    /**
     * Why Clang must not read {@code file} (an include that names a path outside the scanned tree, climbs out of it,
     * or resolves to a link leading outside it or to a special file), or null. Clang follows every include it is given;
     * the scan reads nothing outside the tree except the compiler's own headers, so such a file stays with the
     * hand-written front end, which refuses those includes one by one.
     */
    public String refusal(Path file, byte[] text) {
        if (roots.size() > 1) return refusal(roots, file, text, m -> false);
        return tree == null ? null : refusal(tree, file, text);
    }

    /**
     * As {@link #refusal(Path, byte[])}, but a computed include is left to the check that runs with the compile
     * command before every parse ({@link ClangIncludeClosure}, in the worker and here): a unit that writes
     * {@code #ifdef OPT_HEADER / #include OPT_HEADER} itself reaches Clang when nothing can define the macro, and a
     * refusal there is a failed unit that the scan names (session 46: such units were kept from Clang without a word).
     */
    public String refusalBeforeCommand(Path file, byte[] text) {
        if (roots.size() > 1) return refusal(roots, file, text, m -> true);
        return tree == null ? null : refusal(tree, file, text, m -> true);
    }

    /** {@link #refusal(Path, byte[])} for the tree at {@code root} (also checked by the Clang worker). */
    static String refusal(Path root, Path file, byte[] text) {
        return refusal(root, file, text, m -> false);
    }

    /**
     * As {@link #refusal(Path, Path, byte[])}, where a computed include whose macro {@code harmless} accepts is not
     * refused here ({@link ClangIncludeClosure} decides it with the compile command).
     */
    static String refusal(Path root, Path file, byte[] text, java.util.function.Predicate<String> harmless) {
        return refusal(List.of(root), file, text, harmless);
    }

    /**
     * As {@link #refusal(Path, Path, byte[], java.util.function.Predicate)} for a scan of several roots (a scanned
     * PATH and the compilation database's directory beside it): a file may be read only inside one of them, never
     * elsewhere in the directory that holds them all (session 45: a sibling directory of an out-of-tree build dir).
     */
    static String refusal(List<Path> roots, Path file, byte[] text, java.util.function.Predicate<String> harmless) {
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        includeNames(text, names);
        Path dir = file.toAbsolutePath().normalize().getParent();
        List<Path> realRoots = new ArrayList<>();
        for (Path root : roots) {
            try {
                realRoots.add(root.toRealPath());
            } catch (java.io.IOException e) {
                realRoots.add(root);
            }
        }
        for (String n : names) {
            Path p;
            try {
                p = Path.of(n);
            } catch (RuntimeException bad) {
                return "#include \"" + n + "\" is not a valid path";
            }
            if (n.startsWith(COMPUTED)) {
                String macro = computedMacro(n);
                if (macro != null && harmless.test(macro)) continue;
                return "a computed #include (its file name comes from a macro)";
            }
            // an absolute path inside the tree is followed as a relative one is (CMake's configure_file writes
            // #include "@CMAKE_SOURCE_DIR@/src/x.hpp" into generated units; session 39), as IncludeGraph does for nvcc
            if (p.isAbsolute()) {
                Path c = p.normalize();
                if (!under(c, roots) && !under(c, realRoots)) {
                    return "#include \"" + n + "\" names an absolute path outside the scanned tree";
                }
            } else if (dir == null) {
                continue;
            }
            Path c = p.isAbsolute() ? p.normalize() : dir.resolve(p).normalize();
            if (n.contains("..") && !under(c, roots) && !under(c, realRoots))
                return "#include \"" + n + "\" climbs out of the scanned tree";
            if (Files.exists(c, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                try {
                    Path real = c.toRealPath();
                    if (!under(real, realRoots)) return "#include \"" + n + "\" leads outside the scanned tree";
                    if (!Files.isRegularFile(real) && !Files.isDirectory(real)) {
                        return "#include \"" + n + "\" is not a regular file";
                    }
                } catch (java.io.IOException | RuntimeException e) {
                    return "#include \"" + n + "\" cannot be resolved";
                }
            }
        }
        return null;
    }

    /** Whether {@code p} lies in one of {@code roots} (compared as given: pass real paths for real roots). */
    static boolean under(Path p, List<Path> roots) {
        for (Path r : roots) if (p.startsWith(r)) return true;
        return false;
    }

    /** How {@link #includeNames} marks a computed include: {@code <computed>}, or {@code <computed:MACRO>}. */
    static final String COMPUTED = "<computed";

    /** The macro a computed include's name ({@link #includeNames}) comes from, or null (none, or not computed). */
    static String computedMacro(String n) {
        return n.startsWith(COMPUTED + ":") ? n.substring(COMPUTED.length() + 1, n.length() - 1) : null;
    }

    /** The names of the {@code #include "..."} and {@code #include <...>} lines (full, as written). */
    static void includeNames(byte[] b, java.util.Set<String> out) {
        int n = b.length;
        int i = 0;
        while (i < n) {
            int j = i;
            while (j < n && (b[j] == ' ' || b[j] == '\t')) j++;
            if (j < n && b[j] == '#') {
                j++;
                while (j < n && (b[j] == ' ' || b[j] == '\t')) j++;
                String rest = new String(b, j, Math.min(n - j, 16), java.nio.charset.StandardCharsets.ISO_8859_1);
                if (rest.startsWith("include") || rest.startsWith("import")) {
                    j += rest.startsWith("include_next") ? 12 : rest.startsWith("include") ? 7 : 6;
                    while (j < n && (b[j] == ' ' || b[j] == '\t')) j++;
                    if (j < n && (b[j] == '"' || b[j] == '<')) {
                        int start = ++j;
                        while (j < n && b[j] != '"' && b[j] != '>' && b[j] != '\n') j++;
                        if (j < n && j > start && b[j] != '\n') {
                            out.add(new String(b, start, j - start, java.nio.charset.StandardCharsets.UTF_8));
                        }
                    } else if (j < n && b[j] != '\n') {
                        // the macro that gives the file name, when the include names one (#include CONFIG_FILE)
                        int start = j;
                        while (j < n && (Character.isLetterOrDigit(b[j]) || b[j] == '_')) j++;
                        boolean named = j > start && !Character.isDigit(b[start]);
                        // what can begin no macro (stb_image's documentation writes "#include ...", a number, a
                        // parenthesis) expands to no file name: an error, no file read; a comment, a line
                        // continuation or a byte of a non-ASCII identifier may hide one
                        byte c = b[start];
                        if (!named && c != '/' && c != '\\' && (c & 0x80) == 0) {
                            while (j < n && b[j] != '\n') j++;
                            i = j + 1;
                            continue;
                        }
                        out.add(
                                named
                                        ? COMPUTED + ":"
                                                + new String(
                                                        b, start, j - start, java.nio.charset.StandardCharsets.US_ASCII)
                                                + ">"
                                        : COMPUTED + ">");
                    }
                }
            }
            while (j < n && b[j] != '\n') j++;
            i = j + 1;
        }
    }
}
