package dev.numlint.flags;

import dev.numlint.flags.checks.BuildFlagCheck;
import dev.numlint.flags.checks.FlagEntry;
import dev.numlint.flags.checks.FlagFacts;
import dev.numlint.flags.checks.FlagHazard;
import dev.numlint.flags.checks.FlagTarget;
import dev.numlint.model.BuildContext;
import dev.numlint.model.Layer;
import dev.numlint.spi.Checks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Interprets the compiler arguments that apply to one compilation scope (a compile_commands.json entry, a CMake
 * directory or target, a Makefile) the way nvcc and GCC do: later flags override earlier ones, {@code -Xcompiler}
 * forwards to the host compiler, {@code --use_fast_math} implies {@code -prec-div=false -prec-sqrt=false -ftz=true
 * -fmad=true} unless those are given explicitly, {@code -ffp-contract=off} cancels host FMA contraction and
 * {@code -mfpmath=sse} cancels the x87 default of {@code -m32}. Records the build contexts and hands the
 * interpreted entries ({@link FlagFacts}) to the registered {@link BuildFlagCheck}s, one per rule, for the hazards.
 */
final class FlagInterpreter {
    static final class Result {
        /** Directory that relative -I paths are relative to (the compiler's working directory), or null. */
        Path base;
        /** The host compiler's program ({@code gcc}, {@code clang-19}) when the command names it, else null. */
        String compiler;

        final BuildContext cuda = BuildContext.defaults();
        final BuildContext host = BuildContext.defaults();
        final List<FlagHazard> hazards = new ArrayList<>();
        final List<FlagEntry> entries = new ArrayList<>();
    }

    /** nvcc options whose value may follow as a separate argument. */
    private static final Set<String> NVCC_VALUE_OPTS = Set.of(
            "arch",
            "gpu-architecture",
            "gencode",
            "generate-code",
            "code",
            "gpu-code",
            "Xcompiler",
            "compiler-options",
            "ftz",
            "prec-div",
            "prec-sqrt",
            "fmad",
            "ccbin",
            "compiler-bindir",
            "rdc",
            "relocatable-device-code",
            "std",
            "maxrregcount",
            "Xptxas",
            "ptxas-options",
            "Xlinker",
            "linker-options",
            "x",
            "o",
            "output-file",
            "machine",
            "default-stream",
            "optimize",
            "dopt",
            "Xnvlink",
            "Xarchive",
            "I",
            "include-path",
            "isystem",
            "L",
            "l",
            "D",
            "define-macro",
            "U",
            "include",
            "pre-include",
            "split-compile",
            "threads",
            "t",
            "m",
            "odir",
            "keep-dir",
            "use-local-env");

    private static final Set<String> NVCC_BOOL_OPTS =
            Set.of("ftz", "prec-div", "prec-sqrt", "fmad", "rdc", "relocatable-device-code");
    /** Options only nvcc knows: in an ANY-language list they go to nvcc. */
    private static final Set<String> NVCC_ONLY = Set.of(
            "use_fast_math",
            "use-fast-math",
            "ftz",
            "prec-div",
            "prec-sqrt",
            "fmad",
            "arch",
            "gpu-architecture",
            "gencode",
            "generate-code",
            "code",
            "gpu-code",
            "Xcompiler",
            "compiler-options",
            "Xptxas",
            "ptxas-options",
            "rdc",
            "relocatable-device-code",
            "lineinfo",
            "generate-line-info",
            "G",
            "device-debug",
            "extended-lambda",
            "expt-extended-lambda",
            "expt-relaxed-constexpr",
            "maxrregcount",
            "default-stream",
            "ccbin",
            "compiler-bindir",
            "dlink",
            "device-link",
            "keep",
            "cubin",
            "ptx",
            "fatbin",
            "Werror=all-warnings",
            "allow-unsupported-compiler",
            "dc",
            "device-c",
            "dw",
            "device-w");

    /**
     * nvcc's separate compilation ({@code -dc}, {@code -dw}: {@code -rdc=true} and an object file): the PTX of such a
     * unit keeps its external device functions, so the toolchain passes it on as {@code -rdc=true}.
     */
    private static final Set<String> SEPARATE_COMPILATION = Set.of("dc", "device-c", "dw", "device-w");

    /** nvcc options that no host compiler has (unlike -arch, -G, -code): in a host list they still mean nvcc. */
    private static final Set<String> NVCC_UNAMBIGUOUS = Set.of(
            "use_fast_math",
            "use-fast-math",
            "ftz",
            "prec-div",
            "prec-sqrt",
            "fmad",
            "Xcompiler",
            "compiler-options",
            "gencode",
            "generate-code",
            "gpu-architecture",
            "Xptxas",
            "ptxas-options",
            "rdc",
            "relocatable-device-code",
            "lineinfo",
            "generate-line-info",
            "extended-lambda",
            "expt-extended-lambda",
            "expt-relaxed-constexpr");

    private FlagInterpreter() {}

    static Result interpret(List<FlagTok> toks) {
        return interpret(toks, null);
    }

    /** {@code base}: the directory the compiler runs in, for relative include paths (null: left relative). */
    static Result interpret(List<FlagTok> toks, Path base) {
        return interpret(toks, base, null);
    }

    /**
     * The same for one compile command whose host compiler is {@code compiler} (its program, {@code gcc},
     * {@code clang-19}; null: not known): whether it contracts a*b+c by default depends on it.
     */
    static Result interpret(List<FlagTok> toks, Path base, String compiler) {
        Result r = new Result();
        r.base = base;
        r.compiler = compiler;
        if (compiler != null) r.host.hostCompiler(compiler);
        List<FlagEntry> es = r.entries;
        for (int i = 0; i < toks.size(); i++) {
            FlagTok t = toks.get(i);
            String s = t.text();
            // a value the build model could not know ($(?) from make, ${?} from CMake) or an unevaluated generator
            // expression is skipped; any other '$' is data (a shell substitution is never run, only audited)
            if (s.isEmpty() || s.contains("$(?)") || s.contains("${?}") || s.contains("$<") || !s.startsWith("-")) {
                continue;
            }
            // -x cu (nvcc, also spelled --x cu, --x=cu), -x cuda (clang, also -xcuda): the unit is CUDA whatever
            // its extension (a .cc built as CUDA)
            String language = (s.equals("-x") || s.equals("--x")) && i + 1 < toks.size()
                    ? toks.get(i + 1).text()
                    : s.startsWith("--x=")
                            ? s.substring(4)
                            : s.startsWith("-x=")
                                    ? s.substring(3)
                                    : s.startsWith("-x") && !s.startsWith("--") && s.length() > 2
                                            ? s.substring(2)
                                            : null;
            if (language != null && (language.equals("cu") || language.equals("cuda"))) {
                r.cuda.compiledAsCuda(true);
                r.host.compiledAsCuda(true);
            }
            // -x c++ (a .c file built as C++), -x c (a .c file a C++ driver builds as C)
            if (language != null && (language.equals("c") || language.equals("c++"))) r.host.compiledAsHost(language);
            String[] nv = nameAndValue(s);
            String name = nv[0];
            String value = nv[1];
            // a host-language list (CFLAGS of a Makefile whose CC is nvcc) may still carry nvcc's own options
            boolean nvcc = t.lang() == FlagTok.Lang.CUDA
                    || (t.lang() == FlagTok.Lang.ANY && NVCC_ONLY.contains(name))
                    || (t.lang() == FlagTok.Lang.HOST && NVCC_UNAMBIGUOUS.contains(name));
            if (!nvcc) {
                // Intel's -fp-model takes its keyword as the next argument too (-fp-model fast)
                if (name.equals("fp-model") && value == null && i + 1 < toks.size()) {
                    String next = toks.get(i + 1).text();
                    if (!next.startsWith("-")) {
                        value = next;
                        s = s + " " + next;
                        i++;
                    }
                }
                // GCC's preprocessor options take their value as the next argument too (-isystem DIR, -D NAME, the
                // form CMake writes for an imported target's include directories in a host compile command)
                if (value == null && HOST_VALUE_OPTS.contains(name) && i + 1 < toks.size()) {
                    String next = toks.get(i + 1).text();
                    if (!next.startsWith("-")) {
                        value = next;
                        s = s + " " + next;
                        i++;
                    }
                }
                // host compiler: -march=native etc. (value joined with '=' in GCC syntax)
                es.add(new FlagEntry(FlagTarget.HOST, s, name, value, t, t.loc()));
                if (t.lang() == FlagTok.Lang.ANY && preprocessorFlag(name)) {
                    // add_compile_definitions, include_directories, COMMONFLAGS: both compilers get them
                    es.add(new FlagEntry(FlagTarget.DEVICE, s, name, value, t, t.loc()));
                }
                continue;
            }
            // nvcc: a value may follow as the next argument
            if (value == null && NVCC_VALUE_OPTS.contains(name) && i + 1 < toks.size()) {
                String next = toks.get(i + 1).text();
                boolean take = NVCC_BOOL_OPTS.contains(name)
                        ? (next.equals("true") || next.equals("false"))
                        : !next.startsWith("-") || name.equals("Xcompiler") || name.equals("compiler-options");
                if (take) {
                    value = next;
                    i++;
                    if (name.equals("Xcompiler") || name.equals("compiler-options")) {
                        forward(es, toks.get(i), value, 0);
                        continue;
                    }
                }
            } else if (value != null && (name.equals("Xcompiler") || name.equals("compiler-options"))) {
                forward(es, t, value, s.indexOf('=') + 1);
                continue;
            }
            if (name.equals("m32")
                    || name.equals("m64")
                    || (name.equals("machine") && value != null)
                    || (name.equals("m") && value != null)) {
                boolean is32 = name.equals("m32") || "32".equals(value);
                es.add(new FlagEntry(FlagTarget.CU_HOST, s, is32 ? "m32" : "m64", null, t, t.loc()));
                continue;
            }
            if (!NVCC_ONLY.contains(name) && isHostOnly(name)) {
                // a host-compiler flag handed to nvcc directly: it can only concern the host part
                es.add(new FlagEntry(FlagTarget.CU_HOST, s, name, value, t, t.loc()));
                continue;
            }
            es.add(new FlagEntry(
                    FlagTarget.DEVICE,
                    value != null && s.indexOf('=') < 0 ? s + " " + value : s,
                    name,
                    value,
                    t,
                    t.loc()));
        }
        evaluate(r);
        return r;
    }

    /** GCC options whose value may be the next argument: include directories, macros, forced includes. */
    private static final Set<String> HOST_VALUE_OPTS =
            Set.of("I", "isystem", "idirafter", "iquote", "D", "U", "include", "imacros");

    private static boolean preprocessorFlag(String name) {
        return name.length() > 1 && (name.startsWith("D") || name.startsWith("I") || name.startsWith("U"))
                || name.startsWith("isystem");
    }

    private static boolean isHostOnly(String name) {
        return name.startsWith("march")
                || name.startsWith("mfpmath")
                || name.startsWith("ffp-contract")
                || name.equals("ffast-math")
                || name.equals("Ofast")
                || name.equals("funsafe-math-optimizations")
                || name.equals("freciprocal-math")
                || name.equals("fassociative-math")
                || name.equals("fno-associative-math")
                || name.equals("mfma")
                || name.equals("mno-fma");
    }

    /** One host-compiler flag of an {@code -Xcompiler} value: separated by commas, or by blanks. */
    private static final java.util.regex.Pattern FORWARDED = java.util.regex.Pattern.compile("[^,\\s]+");

    /**
     * -Xcompiler VALUE: host-compiler flags separated by commas ({@code -Xcompiler -O3,-march=native}) or by blanks
     * ({@code -Xcompiler "-fopenmp -Ofast"}: nvcc puts the value into the host compiler's command line as it is, so
     * the host compiler gets two flags; {@code nvcc -dryrun} shows {@code -Ofast} there).
     */
    private static void forward(List<FlagEntry> es, FlagTok t, String value, int offset) {
        java.util.regex.Matcher m = FORWARDED.matcher(value);
        List<int[]> spans = new ArrayList<>();
        while (m.find()) spans.add(new int[] {m.start(), m.end()});
        for (int k = 0; k < spans.size(); k++) {
            int at = spans.get(k)[0];
            String p = value.substring(at, spans.get(k)[1]);
            if (!p.startsWith("-")) continue;
            String[] nv = nameAndValue(p);
            if (FORWARDED_WITH_VALUE.contains(nv[0]) && k + 1 < spans.size()) {
                // -Xcompiler "-I ../common": the directory is the next word of the value
                String next = value.substring(spans.get(k + 1)[0], spans.get(k + 1)[1]);
                if (!next.startsWith("-")) {
                    p = p + " " + next;
                    nv = new String[] {nv[0], next};
                    k++;
                }
            }
            // nvcc preprocesses a .cu with the host compiler for the device pass too ('nvcc -dryrun': the gcc -E with
            // -D__CUDA_ARCH__ gets the -Xcompiler value's -D and -I): a preprocessor flag there applies to the whole
            // unit, device code included, as if given to nvcc itself (session 41's evaluation: a build whose only
            // -I to its shared headers was inside --compiler-options)
            FlagTarget target = preprocessorFlag(nv[0]) || FORWARDED_WITH_VALUE.contains(nv[0])
                    ? FlagTarget.DEVICE
                    : FlagTarget.CU_HOST;
            es.add(new FlagEntry(target, p, nv[0], nv[1], t, t.at(offset + at)));
        }
    }

    /** Preprocessor flags whose value may be the next word of an {@code -Xcompiler} value. */
    private static final Set<String> FORWARDED_WITH_VALUE = Set.of("I", "D", "U", "isystem", "include");

    /** A flag's canonical name and its {@code =value} (null without one): {@code --fmad=false} is fmad, false. */
    private static String[] nameAndValue(String flag) {
        String name = canonical(flag);
        int eq = name.indexOf('=');
        return eq < 0 ? new String[] {name, null} : new String[] {name.substring(0, eq), name.substring(eq + 1)};
    }

    static String canonical(String flag) {
        int i = 0;
        while (i < flag.length() && i < 2 && flag.charAt(i) == '-') i++;
        return flag.substring(i);
    }

    /** The registered checks of the build-flags layer, one per rule (loaded once). */
    static final List<BuildFlagCheck> CHECKS = Checks.load(BuildFlagCheck.class, Layer.BUILD_FLAGS);

    /** Records the settings that always apply into the build contexts; then every check reads the entries. */
    private static void evaluate(Result r) {
        for (FlagEntry e : r.entries) {
            apply(r, e);
        }
        FlagFacts facts = new FlagFacts(r.entries, r.compiler);
        Map<FlagEntry, Integer> index = new IdentityHashMap<>();
        for (int i = 0; i < r.entries.size(); i++) index.put(r.entries.get(i), i);
        List<FlagHazard> hs = new ArrayList<>();
        for (BuildFlagCheck c : CHECKS) c.check(facts, hs::add);
        // in the order the flags are written, and per flag in rule order (checks are loaded by rule id)
        hs.sort(java.util.Comparator.comparingInt(h -> index.getOrDefault(h.entry(), Integer.MAX_VALUE)));
        r.hazards.addAll(hs);
    }

    /** One entry's effect on the build context of its target (nothing when it is under a condition). */
    private static void apply(Result r, FlagEntry e) {
        if (e.conditional()) return;
        String n = e.name();
        String v = e.value();
        FlagTarget tg = e.target();
        BuildContext ctx = tg == FlagTarget.HOST ? r.host : r.cuda;
        if (tg == FlagTarget.DEVICE) {
            switch (n) {
                case "use_fast_math", "use-fast-math" -> ctx.fastMath(true);
                case "prec-div" -> {
                    if (FlagFacts.isFalse(v)) ctx.precDiv(false);
                    else if (FlagFacts.isTrue(v)) ctx.precDiv(true);
                }
                case "prec-sqrt" -> {
                    if (FlagFacts.isFalse(v)) ctx.precSqrt(false);
                    else if (FlagFacts.isTrue(v)) ctx.precSqrt(true);
                }
                case "ftz" -> {
                    if (FlagFacts.isTrue(v)) ctx.ftz(true);
                    else if (FlagFacts.isFalse(v)) ctx.ftz(false);
                }
                case "fmad" -> {
                    if (FlagFacts.isTrue(v)) ctx.fmad(true);
                    else if (FlagFacts.isFalse(v)) ctx.fmad(false);
                }
                case "G", "device-debug" -> {
                    // device code unoptimised: no contraction (BuildContext.deviceDebug); passed on as a code-gen flag
                    ctx.deviceDebug(true);
                    ctx.addNvccFlag(normalized(e));
                    return;
                }
                case "arch", "gpu-architecture", "gencode", "generate-code" -> {
                    String arch = v == null ? null : archOf(v);
                    if (arch != null) ctx.cudaArch(arch);
                }
                default -> {
                    preprocessor(ctx, e, r.base);
                    if (codeGenFlag(n)) {
                        String inc = includeOf(e);
                        // an -I with shell syntax (`...`, $(...)) is passed on as written, not as a resolved path,
                        // so the nvcc runner's refusal names the flag the user wrote
                        String pre = preIncludeOf(e);
                        ctx.addNvccFlag(
                                inc != null && r.base != null && !inc.isEmpty() && !shellSyntax(inc)
                                        ? (n.startsWith("isystem") || n.equals("system-include") ? "-isystem=" : "-I")
                                                + resolve(r.base, inc)
                                        : pre != null && r.base != null && !pre.isEmpty() && !shellSyntax(pre)
                                                ? "-include=" + forced(r.base, pre)
                                                : normalized(e));
                    }
                    return;
                }
            }
            record(ctx, e);
            return;
        }
        // host compiler (HOST: .c/.cpp; CU_HOST: host part of .cu through nvcc)
        if (tg == FlagTarget.HOST) preprocessor(ctx, e, r.base);
        // a host unit's forced include (gcc -include config.h, CMake's -include cmake_pch.h): read before the first
        // line by Clang and the hand-written preprocessor (BuildContext.forcedIncludes), as for a .cu unit; a file
        // outside the tree is refused there, with a notice
        String forced = tg == FlagTarget.HOST ? preIncludeOf(e) : null;
        if (forced != null && !forced.isEmpty()) {
            ctx.addNvccFlag(
                    r.base != null && !shellSyntax(forced)
                            ? "-include=" + forced(r.base, forced)
                            : "-include=" + forced);
            return;
        }
        // a flag that sets the host compiler's predefined macros (-fopenmp: _OPENMP): the front end defines them as
        // the compiler does; nvcc hands an -Xcompiler value to the host preprocessing of the device pass too
        // ('nvcc -dryrun -Xcompiler -fopenmp': both gcc -E lines carry it), so it holds for the whole .cu unit
        if (dev.numlint.knowledge.HostMacros.sets(n, v)) ctx.addHostMacroFlag(e.flag());
        // the language standard of a host unit (-std=c99, -std=c++20): Clang parses the unit, and a header no unit
        // includes, with it (ClangFrontEnd.arguments reads -std from the same list as a CUDA unit's)
        if (tg == FlagTarget.HOST && n.equals("std") && v != null && !v.isBlank()) {
            ctx.addNvccFlag("-std=" + v);
            // GCC does not contract a*b+c in ISO C (-std=c99): BuildContext.hostContracts reads it
            ctx.hostStd(v);
            return;
        }
        if (n.equals("march") && v != null) {
            ctx.hostArch(v);
        } else if (n.equals("ffp-contract") && v != null) {
            ctx.hostFpContractOff(v.equals("off"));
        } else if (n.equals("ffast-math")) {
            ctx.hostFastMath(true);
        } else if (n.equals("Ofast") || n.matches("O[0-3sgz]?")) {
            // the last -O is the one in effect: -Ofast's fast math and contraction go with a later -O0 (session 85)
            ctx.hostOptLevel(n.substring(1));
            if (!n.equals("Ofast")) return;
        } else if (n.equals("fassociative-math") || n.equals("funsafe-math-optimizations")) {
            // the compiler may reorder float sums (a sum's note says so: HostOnlyScans)
            ctx.hostReassociation(true);
        } else if (n.equals("fno-associative-math") || n.equals("fno-unsafe-math-optimizations")) {
            ctx.hostReassociation(false);
            return;
        } else if (n.equals("m32")) {
            ctx.m32(true);
        } else if (n.equals("m64")) {
            ctx.m32(false);
            return;
        } else if (n.equals("mfpmath") && v != null) {
            ctx.mfpmath387(v.contains("387") || v.equals("both"));
        } else if (!(n.equals("mfma") || n.equals("funsafe-math-optimizations") || n.equals("freciprocal-math"))) {
            return;
        }
        record(ctx, e);
    }

    /** -D, -U, -I, -isystem of an entry into the context's preprocessor state. */
    private static void preprocessor(BuildContext ctx, FlagEntry e, Path base) {
        String d = defineOf(e);
        if (d != null && !d.isEmpty() && !d.startsWith("=")) {
            ctx.addDefine(d);
            return;
        }
        String n = e.name();
        if ((n.equals("U") || n.equals("undefine-macro")) && e.value() != null) {
            ctx.addUndefine(e.value());
        } else if (n.startsWith("U") && n.length() > 1 && e.value() == null) {
            ctx.addUndefine(n.substring(1));
        }
        String inc = includeOf(e);
        if (inc != null && !inc.isEmpty()) {
            try {
                ctx.addIncludePath(resolve(base, inc));
            } catch (RuntimeException bad) {
                // not a path (a NUL character): ignored
            }
        }
    }

    private static boolean shellSyntax(String s) {
        return s.indexOf('`') >= 0 || s.indexOf('$') >= 0;
    }

    /**
     * A forced include's file: against the directory the compiler runs in where it is there, else as written (GCC
     * then searches the include path, as for {@code #include "f"}: {@code -include thrust/sort.h}, session 63 round
     * F, was looked for in the build directory only and dropped).
     */
    private static String forced(Path base, String f) {
        try {
            Path r = resolve(base, f);
            return Path.of(f).isAbsolute() || java.nio.file.Files.exists(r) ? r.toString() : f;
        } catch (RuntimeException bad) {
            return f;
        }
    }

    private static Path resolve(Path base, String inc) {
        Path p = Path.of(inc);
        return (base == null || p.isAbsolute() ? p : base.resolve(p))
                .toAbsolutePath()
                .normalize();
    }

    /** NAME or NAME=VALUE of a -D / --define-macro entry, else null. */
    static String defineOf(FlagEntry e) {
        String n = e.name();
        String v = e.value();
        if (n.equals("D") || n.equals("define-macro")) return v;
        if (n.startsWith("D") && n.length() > 1) return n.substring(1) + (v != null ? "=" + v : "");
        return null;
    }

    /** The file of an -include / --pre-include entry, else null. */
    static String preIncludeOf(FlagEntry e) {
        String n = e.name();
        if (n.equals("include") || n.equals("pre-include")) return e.value();
        return null;
    }

    /** The directory of a -I / -isystem / --include-path entry, else null. */
    static String includeOf(FlagEntry e) {
        return nvccUnquoted(e, written(e));
    }

    private static String written(FlagEntry e) {
        String n = e.name();
        String v = e.value();
        if (n.equals("I")
                || n.equals("include-path")
                || n.equals("isystem")
                || n.equals("system-include")
                || n.equals("idirafter")
                || n.equals("iquote")) return v;
        if (n.startsWith("isystem") && n.length() > 7) return n.substring(7) + (v != null ? "=" + v : "");
        if (n.startsWith("I") && n.length() > 1) return n.substring(1) + (v != null ? "=" + v : "");
        return null;
    }

    /**
     * A path nvcc reads in double quotes inside its argument ({@code -I"/abs/include"}, as a CMake custom command
     * passes it: session 80 round G, an SVD code whose 14 units lost their include directories): nvcc strips the
     * quotes; a host compiler does not, and the path stays as written.
     */
    private static String nvccUnquoted(FlagEntry e, String v) {
        boolean nvcc = e.origin() != null && e.origin().lang() == FlagTok.Lang.CUDA;
        return nvcc && v != null && v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")
                ? v.substring(1, v.length() - 1)
                : v;
    }

    private static void record(BuildContext ctx, FlagEntry e) {
        ctx.addOrigin(e.flag(), e.loc());
        if (e.target() == FlagTarget.DEVICE) ctx.addNvccFlag(normalized(e));
        else if (e.target() == FlagTarget.CU_HOST) ctx.addNvccFlag("-Xcompiler=" + e.flag());
    }

    /**
     * The flag as one argument: "-arch sm_90" (a value written as the next argument) becomes "-arch=sm_90". A single
     * argument that holds a space itself ({@code -D'Q=1 2'}) stays as written: the toolchain's flag policy refuses it
     * with a notice rather than nvcc getting a rewritten {@code -DQ=1=2}.
     */
    private static String normalized(FlagEntry e) {
        String f = e.flag();
        int sp = f.indexOf(' ');
        if (sp > 0 && (e.origin() == null || e.origin().text().indexOf(' ') < 0)) {
            String head = f.substring(0, sp);
            String val = f.substring(sp + 1);
            return head.equals("-D") || head.equals("-I") ? head + val : head + "=" + val;
        }
        return f;
    }

    private static boolean codeGenFlag(String n) {
        return n.startsWith("O")
                || n.equals("G")
                || n.equals("device-debug")
                || n.equals("lineinfo")
                || n.equals("generate-line-info")
                || n.equals("rdc")
                || n.equals("relocatable-device-code")
                || SEPARATE_COMPILATION.contains(n)
                || n.startsWith("expt-")
                || n.equals("extended-lambda")
                || n.startsWith("D")
                || n.equals("std")
                || n.startsWith("std=")
                || n.equals("define-macro")
                || n.equals("maxrregcount")
                || n.startsWith("I")
                || n.equals("include-path")
                // CMake gives an imported target's include directories (MPI, Eigen3, CUDA::cudart) as -isystem
                || n.startsWith("isystem")
                || n.equals("system-include")
                || n.equals("include")
                || n.equals("pre-include");
    }

    /** compute_XX / sm_XX from an -arch or -gencode value. */
    static String archOf(String v) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?:arch=)?((?:compute|sm|lto)_\\d+[a-z]?)")
                .matcher(v);
        return m.find() ? m.group(1) : null;
    }
}
