package dev.numlint.flags;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Interprets the compiler arguments that apply to one compilation scope (a compile_commands.json entry, a CMake
 * directory or target, a Makefile) the way nvcc and GCC do: later flags override earlier ones, {@code -Xcompiler}
 * forwards to the host compiler, {@code --use_fast_math} implies {@code -prec-div=false -prec-sqrt=false -ftz=true
 * -fmad=true} unless those are given explicitly, {@code -ffp-contract=off} cancels host FMA contraction and
 * {@code -mfpmath=sse} cancels the x87 default of {@code -m32}. Produces the hazards and the build contexts.
 */
final class FlagInterpreter {
    /** Where a single flag takes effect. */
    enum Target {
        /** nvcc device code generation. */
        DEVICE,
        /** the host compiler that nvcc runs for the host part of .cu files (-Xcompiler, -m32). */
        CU_HOST,
        /** the host C/C++ compiler for .c/.cpp files. */
        HOST
    }

    /** One flag after -Xcompiler unpacking, with its canonical name (leading dashes removed) and value. */
    record Entry(Target target, String flag, String name, String value, FlagTok origin, Location loc) {
        boolean conditional() {
            return origin.condition() != null;
        }
    }

    /** A hazardous flag setting to report. {@code level} null means the rule's configured level. */
    record Hazard(String ruleId, Level level, Entry entry, String message) {
    }

    static final class Result {
        /** Directory that relative -I paths are relative to (the compiler's working directory), or null. */
        Path base;
        final BuildContext cuda = BuildContext.defaults();
        final BuildContext host = BuildContext.defaults();
        final List<Hazard> hazards = new ArrayList<>();
        final List<Entry> entries = new ArrayList<>();
    }

    /** nvcc options whose value may follow as a separate argument. */
    private static final Set<String> NVCC_VALUE_OPTS = Set.of("arch", "gpu-architecture", "gencode", "generate-code",
            "code", "gpu-code", "Xcompiler", "compiler-options", "ftz", "prec-div", "prec-sqrt", "fmad", "ccbin",
            "compiler-bindir", "rdc", "relocatable-device-code", "std", "maxrregcount", "Xptxas", "ptxas-options",
            "Xlinker", "linker-options", "x", "o", "output-file", "machine", "default-stream", "optimize",
            "dopt", "Xnvlink", "Xarchive", "I", "include-path", "isystem", "L", "l", "D", "define-macro",
            "U", "include", "split-compile", "threads", "t", "m", "odir", "keep-dir", "use-local-env");
    private static final Set<String> NVCC_BOOL_OPTS = Set.of("ftz", "prec-div", "prec-sqrt", "fmad", "rdc",
            "relocatable-device-code");
    /** Options only nvcc knows: in an ANY-language list they go to nvcc. */
    private static final Set<String> NVCC_ONLY = Set.of("use_fast_math", "use-fast-math", "ftz", "prec-div",
            "prec-sqrt", "fmad", "arch", "gpu-architecture", "gencode", "generate-code", "code", "gpu-code",
            "Xcompiler", "compiler-options", "Xptxas", "ptxas-options", "rdc", "relocatable-device-code", "lineinfo",
            "generate-line-info", "G", "device-debug", "extended-lambda", "expt-extended-lambda",
            "expt-relaxed-constexpr", "maxrregcount", "default-stream", "ccbin", "compiler-bindir", "dlink",
            "device-link", "keep", "cubin", "ptx", "fatbin", "Werror=all-warnings", "allow-unsupported-compiler");

    /** nvcc options that no host compiler has (unlike -arch, -G, -code): in a host list they still mean nvcc. */
    private static final Set<String> NVCC_UNAMBIGUOUS = Set.of("use_fast_math", "use-fast-math", "ftz", "prec-div",
            "prec-sqrt", "fmad", "Xcompiler", "compiler-options", "gencode", "generate-code", "gpu-architecture",
            "Xptxas", "ptxas-options", "rdc", "relocatable-device-code", "lineinfo", "generate-line-info",
            "extended-lambda", "expt-extended-lambda", "expt-relaxed-constexpr");

    private FlagInterpreter() {
    }

    static Result interpret(List<FlagTok> toks) {
        return interpret(toks, null);
    }

    /** {@code base}: the directory the compiler runs in, for relative include paths (null: left relative). */
    static Result interpret(List<FlagTok> toks, Path base) {
        Result r = new Result();
        r.base = base;
        List<Entry> es = r.entries;
        for (int i = 0; i < toks.size(); i++) {
            FlagTok t = toks.get(i);
            String s = t.text();
            // a value the build model could not know ($(?) from make, ${?} from CMake) or an unevaluated generator
            // expression is skipped; any other '$' is data (a shell substitution is never run, only audited)
            if (s.isEmpty() || s.contains("$(?)") || s.contains("${?}") || s.contains("$<") || !s.startsWith("-")) {
                continue;
            }
            String name = canonical(s);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            // a host-language list (CFLAGS of a Makefile whose CC is nvcc) may still carry nvcc's own options
            boolean nvcc = t.lang() == FlagTok.Lang.CUDA || (t.lang() == FlagTok.Lang.ANY && NVCC_ONLY.contains(name))
                    || (t.lang() == FlagTok.Lang.HOST && NVCC_UNAMBIGUOUS.contains(name));
            if (!nvcc) {
                // host compiler: -march=native etc. (value joined with '=' in GCC syntax)
                es.add(new Entry(Target.HOST, s, name, value, t, t.loc()));
                if (t.lang() == FlagTok.Lang.ANY && preprocessorFlag(name)) {
                    // add_compile_definitions, include_directories, COMMONFLAGS: both compilers get them
                    es.add(new Entry(Target.DEVICE, s, name, value, t, t.loc()));
                }
                continue;
            }
            // nvcc: a value may follow as the next argument
            if (value == null && NVCC_VALUE_OPTS.contains(name) && i + 1 < toks.size()) {
                String next = toks.get(i + 1).text();
                boolean take = NVCC_BOOL_OPTS.contains(name) ? (next.equals("true") || next.equals("false"))
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
            if (name.equals("m32") || name.equals("m64") || (name.equals("machine") && value != null)
                    || (name.equals("m") && value != null)) {
                boolean is32 = name.equals("m32") || "32".equals(value);
                es.add(new Entry(Target.CU_HOST, s, is32 ? "m32" : "m64", null, t, t.loc()));
                continue;
            }
            if (!NVCC_ONLY.contains(name) && isHostOnly(name)) {
                // a host-compiler flag handed to nvcc directly: it can only concern the host part
                es.add(new Entry(Target.CU_HOST, s, name, value, t, t.loc()));
                continue;
            }
            es.add(new Entry(Target.DEVICE, value != null && s.indexOf('=') < 0 ? s + " " + value : s, name, value,
                    t, t.loc()));
        }
        evaluate(r);
        return r;
    }

    private static boolean preprocessorFlag(String name) {
        return name.length() > 1 && (name.startsWith("D") || name.startsWith("I") || name.startsWith("U"))
                || name.startsWith("isystem");
    }

    private static boolean isHostOnly(String name) {
        return name.startsWith("march") || name.startsWith("mfpmath") || name.startsWith("ffp-contract")
                || name.equals("ffast-math") || name.equals("Ofast") || name.equals("funsafe-math-optimizations")
                || name.equals("freciprocal-math") || name.equals("mfma") || name.equals("mno-fma");
    }

    /** -Xcompiler VALUE: a comma-separated list of host-compiler flags. */
    private static void forward(List<Entry> es, FlagTok t, String value, int offset) {
        int pos = 0;
        for (String part : value.split(",", -1)) {
            String p = part.trim();
            if (p.startsWith("-")) {
                String name = canonical(p);
                String v = null;
                int eq = name.indexOf('=');
                if (eq >= 0) {
                    v = name.substring(eq + 1);
                    name = name.substring(0, eq);
                }
                es.add(new Entry(Target.CU_HOST, p, name, v, t, t.at(offset + pos + part.indexOf(p))));
            }
            pos += part.length() + 1;
        }
    }

    static String canonical(String flag) {
        int i = 0;
        while (i < flag.length() && i < 2 && flag.charAt(i) == '-') i++;
        return flag.substring(i);
    }

    private static boolean isTrue(String v) {
        return v != null && v.toLowerCase(Locale.ROOT).equals("true");
    }

    private static boolean isFalse(String v) {
        return v != null && v.toLowerCase(Locale.ROOT).equals("false");
    }

    /** A later entry {@code over} overrides {@code e} when it always applies or applies under the same condition. */
    private static boolean overrides(Entry over, Entry e) {
        return over.origin().condition() == null || Objects.equals(over.origin().condition(), e.origin().condition());
    }

    /** Whether some entry of {@code target} after index {@code from} (or anywhere, when {@code anywhere}) matches. */
    private static boolean cancelled(List<Entry> es, int idx, Target target, boolean anywhere,
                                     java.util.function.Predicate<Entry> canceller) {
        Entry e = es.get(idx);
        for (int j = anywhere ? 0 : idx + 1; j < es.size(); j++) {
            Entry o = es.get(j);
            if (j != idx && o.target() == target && canceller.test(o) && overrides(o, e)) return true;
        }
        return false;
    }

    private static void evaluate(Result r) {
        List<Entry> es = r.entries;
        for (int i = 0; i < es.size(); i++) {
            Entry e = es.get(i);
            String n = e.name();
            String v = e.value();
            Target tg = e.target();
            boolean record = !e.conditional();
            BuildContext ctx = tg == Target.HOST ? r.host : r.cuda;
            if (tg == Target.DEVICE) {
                switch (n) {
                    case "use_fast_math", "use-fast-math" -> {
                        if (record) ctx.fastMath(true);
                        // an explicit -prec-div=true wins over the implication, wherever it is written
                        if (!cancelled(es, i, tg, true, o -> o.name().equals("prec-div") && isTrue(o.value()))) {
                            r.hazards.add(new Hazard("NL002", null, e, e.flag() + " (nvcc, CUDA device code) implies "
                                    + "-prec-div=false: every single-precision '/' in device code becomes an approximate "
                                    + "division (__fdividef, div.approx.f32: up to 2 ulp, and 0 when the divisor's "
                                    + "magnitude exceeds 2^126)"));
                        }
                        r.hazards.add(new Hazard("NL006", null, e, e.flag() + " (nvcc, CUDA device code) turns sinf, "
                                + "cosf, tanf, expf, exp10f, logf, log2f, log10f and powf into the hardware intrinsics "
                                + "__sinf, __cosf, ... whose error is bounded in absolute terms and grows outside a narrow "
                                + "argument range, and implies -prec-sqrt=false (approximate sqrtf)"));
                        if (!cancelled(es, i, tg, true, o -> o.name().equals("ftz") && isFalse(o.value()))) {
                            r.hazards.add(new Hazard("NL007", null, e, e.flag() + " (nvcc, CUDA device code) implies "
                                    + "-ftz=true: single-precision subnormal inputs and results (magnitude below 2^-126, "
                                    + "about 1.18e-38) are flushed to zero"));
                        }
                        record(ctx, e, record);
                    }
                    case "prec-div" -> {
                        if (isFalse(v)) {
                            if (record) ctx.precDiv(false);
                            if (!cancelled(es, i, tg, false, o -> o.name().equals("prec-div") && isTrue(o.value()))) {
                                r.hazards.add(new Hazard("NL002", null, e, e.flag() + " (nvcc, CUDA device code): "
                                        + "single-precision '/' and reciprocals are no longer IEEE round-to-nearest "
                                        + "(div.rn.f32) but approximate (div.full.f32, up to 2 ulp)"));
                            }
                        } else if (isTrue(v) && record) {
                            ctx.precDiv(true);
                        }
                        record(ctx, e, record);
                    }
                    case "prec-sqrt" -> {
                        if (isFalse(v)) {
                            if (record) ctx.precSqrt(false);
                            if (!cancelled(es, i, tg, false, o -> o.name().equals("prec-sqrt") && isTrue(o.value()))) {
                                r.hazards.add(new Hazard("NL006", null, e, e.flag() + " (nvcc, CUDA device code): "
                                        + "sqrtf is no longer the IEEE round-to-nearest sqrt.rn.f32 but the approximate "
                                        + "sqrt.approx.f32"));
                            }
                        } else if (isTrue(v) && record) {
                            ctx.precSqrt(true);
                        }
                        record(ctx, e, record);
                    }
                    case "ftz" -> {
                        if (isTrue(v)) {
                            if (record) ctx.ftz(true);
                            if (!cancelled(es, i, tg, false, o -> o.name().equals("ftz") && isFalse(o.value()))) {
                                r.hazards.add(new Hazard("NL007", null, e, e.flag() + " (nvcc, CUDA device code): "
                                        + "single-precision subnormal inputs and results (magnitude below 2^-126, about "
                                        + "1.18e-38) are flushed to zero, so gradual underflow is lost and x - y == 0 no "
                                        + "longer implies x == y"));
                            }
                        } else if (isFalse(v) && record) {
                            ctx.ftz(false);
                        }
                        record(ctx, e, record);
                    }
                    case "fmad" -> {
                        if (isTrue(v)) {
                            if (record) ctx.fmad(true);
                            if (!cancelled(es, i, tg, false, o -> o.name().equals("fmad") && isFalse(o.value()))) {
                                r.hazards.add(new Hazard("NL003", Level.NOTE, e, e.flag() + " (nvcc, CUDA device code; "
                                        + "the default, set explicitly here): a*b+c in device code may be contracted into "
                                        + "one fused multiply-add (fma.rn.f32) that rounds once instead of twice, so "
                                        + "results differ from host code that rounds the product"));
                            }
                        } else if (isFalse(v) && record) {
                            ctx.fmad(false);
                        }
                        record(ctx, e, record);
                    }
                    case "arch", "gpu-architecture", "gencode", "generate-code" -> {
                        if (record && v != null) {
                            String arch = archOf(v);
                            if (arch != null) ctx.cudaArch(arch);
                        }
                        record(ctx, e, record);
                    }
                    default -> {
                        if (record) preprocessor(ctx, e, r.base);
                        if (record && codeGenFlag(n)) {
                            String inc = includeOf(e);
                            ctx.addNvccFlag(inc != null && r.base != null && !inc.isEmpty()
                                    ? "-I" + resolve(r.base, inc) : normalized(e));
                        }
                    }
                }
                continue;
            }
            // host compiler (HOST: .c/.cpp; CU_HOST: host part of .cu through nvcc)
            if (record && tg == Target.HOST) preprocessor(ctx, e, r.base);
            String where = tg == Target.HOST ? "host C/C++ code" : "host code of .cu files, via nvcc";
            if (n.equals("march") && v != null) {
                if (record) ctx.hostArch(v);
                record(ctx, e, record);
                if (BuildContext.archHasFma(v)
                        && !cancelled(es, i, tg, true, o -> o.name().equals("ffp-contract") && "off".equals(o.value()))
                        && !cancelled(es, i, tg, false, o -> o.name().equals("march") && !BuildContext.archHasFma(
                                o.value() == null ? "" : o.value()))) {
                    r.hazards.add(new Hazard("NL003", null, e, e.flag() + " (" + where + ") "
                            + (v.equals("native") ? "enables FMA instructions on any FMA-capable build machine (Haswell "
                            + "and later, Zen)" : "enables FMA instructions") + ", and GCC contracts a*b+c into one "
                            + "fused multiply-add (vfmadd) by default (-ffp-contract=fast), rounding once where the source "
                            + "rounds twice: CPU reference results change with the build machine and no longer match a "
                            + "build without FMA; add -ffp-contract=off"));
                }
            } else if (n.equals("mfma")) {
                record(ctx, e, record);
                if (!cancelled(es, i, tg, true, o -> o.name().equals("ffp-contract") && "off".equals(o.value()))
                        && !cancelled(es, i, tg, false, o -> o.name().equals("mno-fma"))) {
                    r.hazards.add(new Hazard("NL003", null, e, e.flag() + " (" + where + ") enables FMA instructions, "
                            + "and GCC contracts a*b+c into one fused multiply-add (vfmadd) by default "
                            + "(-ffp-contract=fast), rounding once where the source rounds twice; add -ffp-contract=off"));
                }
            } else if (n.equals("ffp-contract") && v != null) {
                if (record) ctx.hostFpContractOff(v.equals("off"));
                record(ctx, e, record);
            } else if (n.equals("ffast-math") || n.equals("Ofast")) {
                if (record) ctx.hostFastMath(true);
                record(ctx, e, record);
                if (!cancelled(es, i, tg, false, o -> o.name().equals("fno-fast-math"))) {
                    r.hazards.add(new Hazard("NL002", null, e, e.flag() + " (" + where + ") enables "
                            + "-freciprocal-math: x/y may be computed as x*(1/y), which is not correctly rounded"));
                    r.hazards.add(new Hazard("NL006", null, e, e.flag() + " (" + where + ") lets GCC replace math "
                            + "functions by faster, less accurate forms (on x86 1.0f/sqrtf(x) becomes RSQRTSS plus one "
                            + "Newton step; vectorized loops call libmvec variants) and assumes that no value is NaN or "
                            + "infinite (-ffinite-math-only)"));
                    r.hazards.add(new Hazard("NL007", null, e, e.flag() + " (" + where + "): linking with it adds "
                            + "crtfastmath.o, which sets the FTZ and DAZ bits of the x86 MXCSR register for the whole "
                            + "process, so subnormal floats and doubles become 0"));
                }
            } else if (n.equals("funsafe-math-optimizations") || n.equals("freciprocal-math")) {
                record(ctx, e, record);
                r.hazards.add(new Hazard("NL002", null, e, e.flag() + " (" + where + "): x/y may be computed as "
                        + "x*(1/y), which is not correctly rounded"));
                if (n.equals("funsafe-math-optimizations")) {
                    r.hazards.add(new Hazard("NL007", null, e, e.flag() + " (" + where + "): linking with it adds "
                            + "crtfastmath.o, which sets the FTZ and DAZ bits of the x86 MXCSR register, so subnormal "
                            + "floats and doubles become 0"));
                }
            } else if (n.equals("m32")) {
                if (record) ctx.m32(true);
                record(ctx, e, record);
                if (!cancelled(es, i, tg, false, o -> o.name().equals("m64"))
                        && !cancelled(es, i, tg, true, o -> o.name().equals("mfpmath") && "sse".equals(o.value()))) {
                    r.hazards.add(new Hazard("NL005", null, e, e.flag() + " (" + where + ") builds 32-bit x86 code, "
                            + "where GCC's default -mfpmath=387 evaluates float and double arithmetic on the x87 FPU "
                            + "with 80-bit registers: intermediate results keep extra precision and are rounded "
                            + "differently from SSE and GPU code, which round every operation to 32 or 64 bits; add "
                            + "-msse2 -mfpmath=sse"));
                }
            } else if (n.equals("m64")) {
                if (record) ctx.m32(false);
            } else if (n.equals("mfpmath") && v != null) {
                boolean x87 = v.contains("387") || v.equals("both");
                if (record) ctx.mfpmath387(x87);
                record(ctx, e, record);
                if (x87 && !cancelled(es, i, tg, false, o -> o.name().equals("mfpmath") && "sse".equals(o.value()))) {
                    r.hazards.add(new Hazard("NL005", null, e, e.flag() + " (" + where + ") evaluates float and double "
                            + "arithmetic on the x87 FPU with 80-bit registers: intermediate results keep extra precision "
                            + "and are rounded differently from SSE and GPU code, which round every operation to 32 or "
                            + "64 bits"));
                }
            }
        }
    }

    /** -D, -U, -I, -isystem of an entry into the context's preprocessor state. */
    private static void preprocessor(BuildContext ctx, Entry e, Path base) {
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

    private static Path resolve(Path base, String inc) {
        Path p = Path.of(inc);
        return (base == null || p.isAbsolute() ? p : base.resolve(p)).toAbsolutePath().normalize();
    }

    /** NAME or NAME=VALUE of a -D / --define-macro entry, else null. */
    static String defineOf(Entry e) {
        String n = e.name();
        String v = e.value();
        if (n.equals("D") || n.equals("define-macro")) return v;
        if (n.startsWith("D") && n.length() > 1) return n.substring(1) + (v != null ? "=" + v : "");
        return null;
    }

    /** The directory of a -I / -isystem / --include-path entry, else null. */
    static String includeOf(Entry e) {
        String n = e.name();
        String v = e.value();
        if (n.equals("I") || n.equals("include-path") || n.equals("isystem") || n.equals("system-include")) return v;
        if (n.startsWith("isystem") && n.length() > 7) return n.substring(7) + (v != null ? "=" + v : "");
        if (n.startsWith("I") && n.length() > 1) return n.substring(1) + (v != null ? "=" + v : "");
        return null;
    }

    private static void record(BuildContext ctx, Entry e, boolean record) {
        if (!record) return;
        ctx.addOrigin(e.flag(), e.loc());
        if (e.target() == Target.DEVICE) ctx.addNvccFlag(normalized(e));
        else if (e.target() == Target.CU_HOST) ctx.addNvccFlag("-Xcompiler=" + e.flag());
    }

    /** The flag as one argument: "-arch sm_90" becomes "-arch=sm_90". */
    private static String normalized(Entry e) {
        String f = e.flag();
        int sp = f.indexOf(' ');
        if (sp > 0) {
            String head = f.substring(0, sp);
            String val = f.substring(sp + 1);
            return head.equals("-D") || head.equals("-I") ? head + val : head + "=" + val;
        }
        return f;
    }

    private static boolean codeGenFlag(String n) {
        return n.startsWith("O") || n.equals("G") || n.equals("device-debug") || n.equals("lineinfo")
                || n.equals("generate-line-info") || n.equals("rdc") || n.equals("relocatable-device-code")
                || n.startsWith("expt-") || n.equals("extended-lambda") || n.startsWith("D") || n.equals("std")
                || n.startsWith("std=") || n.equals("define-macro") || n.equals("maxrregcount")
                || n.startsWith("I") || n.equals("include-path");
    }

    /** compute_XX / sm_XX from an -arch or -gencode value. */
    static String archOf(String v) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?:arch=)?((?:compute|sm|lto)_\\d+[a-z]?)")
                .matcher(v);
        return m.find() ? m.group(1) : null;
    }
}
