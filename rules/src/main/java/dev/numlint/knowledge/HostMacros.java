package dev.numlint.knowledge;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The macros a host compiler predefines because of flags of its command line, which a front end that reads the
 * command's {@code -D} and {@code -I} alone would miss: {@code -fopenmp} defines {@code _OPENMP}, {@code -ffast-math}
 * and {@code -Ofast} define {@code __FAST_MATH__} and {@code __FINITE_MATH_ONLY__}, {@code -pthread} defines
 * {@code _REENTRANT}, {@code -funsigned-char} makes {@code char} unsigned, and x86 ISA flags ({@code -mavx2},
 * {@code -march=haswell}) define {@code __AVX2__}, {@code __FMA__} and the rest (GCC 13's {@code -dM -E}). Without
 * them Clang read the {@code #else} of {@code #ifdef _OPENMP} where the build compiles the OpenMP branch (session
 * 51's evaluation: a bilateral filter's OpenMP build), and a function under {@code #ifdef __FAST_MATH__} not at all.
 */
public final class HostMacros {
    private HostMacros() {}

    /** GCC's {@code _OPENMP} (OpenMP 4.5, GCC 6 to 14); Clang's is OpenMP 5.1's. */
    private static final String GCC_OPENMP = "201511";

    private static final String CLANG_OPENMP = "202011";

    /**
     * x86 instruction-set extensions of {@code -mNAME} / {@code -mno-NAME}, each with the extensions it turns on (GCC
     * 13: {@code -mavx2} defines {@code __AVX__} to {@code __SSE__}, {@code -msse4.2} also {@code __POPCNT__},
     * {@code -mfma} also {@code __AVX__}).
     */
    private static final Map<String, List<String>> X86_ISA = Map.ofEntries(
            Map.entry("sse", List.of()),
            Map.entry("sse2", List.of("sse")),
            Map.entry("sse3", List.of("sse2")),
            Map.entry("ssse3", List.of("sse3")),
            Map.entry("sse4.1", List.of("ssse3")),
            Map.entry("sse4.2", List.of("sse4.1", "popcnt")),
            Map.entry("sse4", List.of("sse4.2")),
            Map.entry("popcnt", List.of()),
            Map.entry("avx", List.of("sse4.2")),
            Map.entry("avx2", List.of("avx")),
            Map.entry("fma", List.of("avx")),
            Map.entry("f16c", List.of("avx")),
            Map.entry("bmi", List.of()),
            Map.entry("bmi2", List.of()),
            Map.entry("avx512f", List.of("avx2")),
            Map.entry("avx512cd", List.of("avx512f")),
            Map.entry("avx512bw", List.of("avx512f")),
            Map.entry("avx512dq", List.of("avx512f")),
            Map.entry("avx512vl", List.of("avx512f")));

    private static final List<String> V2 = List.of("sse4.2");
    private static final List<String> V3 = List.of("avx2", "fma", "bmi", "bmi2", "f16c");
    private static final List<String> V4 =
            List.of("avx2", "fma", "bmi", "bmi2", "f16c", "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl");

    /**
     * {@code -march} values (GCC's names, which Clang knows for x86) with their extensions; {@code native} is the
     * building machine's, unknown here, and left out.
     */
    private static final Map<String, List<String>> X86_CPUS = Map.ofEntries(
            Map.entry("x86-64", List.of("sse2")),
            Map.entry("core2", List.of("ssse3")),
            Map.entry("x86-64-v2", V2),
            Map.entry("nehalem", V2),
            Map.entry("westmere", V2),
            Map.entry("sandybridge", List.of("avx")),
            Map.entry("ivybridge", List.of("avx", "f16c")),
            Map.entry("x86-64-v3", V3),
            Map.entry("haswell", V3),
            Map.entry("broadwell", V3),
            Map.entry("skylake", V3),
            Map.entry("alderlake", V3),
            Map.entry("raptorlake", V3),
            Map.entry("znver1", V3),
            Map.entry("znver2", V3),
            Map.entry("znver3", V3),
            Map.entry("x86-64-v4", V4),
            Map.entry("skylake-avx512", V4),
            Map.entry("cascadelake", V4),
            Map.entry("cooperlake", V4),
            Map.entry("cannonlake", V4),
            Map.entry("icelake-client", V4),
            Map.entry("icelake-server", V4),
            Map.entry("tigerlake", V4),
            Map.entry("rocketlake", V4),
            Map.entry("sapphirerapids", V4),
            Map.entry("emeraldrapids", V4),
            Map.entry("graniterapids", V4),
            Map.entry("znver4", V4),
            Map.entry("znver5", V4),
            // GCC's older names of the same CPUs, which Clang accepts too (session 79 round F: an image library
            // built with -march=core-avx2 had its AVX2 kernels read as an inactive #if, silently), and the other
            // 64-bit x86 CPUs both know, each with the extensions its -march enables
            Map.entry("corei7", V2),
            Map.entry("corei7-avx", List.of("avx")),
            Map.entry("core-avx-i", List.of("avx", "f16c")),
            Map.entry("core-avx2", V3),
            Map.entry("nocona", List.of("sse3")),
            Map.entry("k8", List.of("sse2")),
            Map.entry("opteron", List.of("sse2")),
            Map.entry("athlon64", List.of("sse2")),
            Map.entry("athlon-fx", List.of("sse2")),
            Map.entry("k8-sse3", List.of("sse3")),
            Map.entry("amdfam10", List.of("sse3", "popcnt")),
            Map.entry("barcelona", List.of("sse3", "popcnt")),
            Map.entry("bonnell", List.of("ssse3")),
            Map.entry("atom", List.of("ssse3")),
            Map.entry("silvermont", V2),
            Map.entry("slm", V2),
            Map.entry("goldmont", V2),
            Map.entry("goldmont-plus", V2),
            Map.entry("tremont", V2),
            Map.entry("btver2", List.of("avx", "f16c", "bmi")),
            Map.entry("bdver1", List.of("avx")),
            Map.entry("bdver2", List.of("avx", "fma", "f16c", "bmi")),
            Map.entry("bdver3", List.of("avx", "fma", "f16c", "bmi")),
            Map.entry("bdver4", V3),
            Map.entry("meteorlake", V3),
            Map.entry("arrowlake", V3),
            Map.entry("arrowlake-s", V3),
            Map.entry("lunarlake", V3),
            Map.entry("pantherlake", V3),
            Map.entry("gracemont", V3),
            Map.entry("sierraforest", V3),
            Map.entry("grandridge", V3),
            Map.entry("clearwaterforest", V3),
            Map.entry("graniterapids-d", V4),
            Map.entry("knl", List.of("avx2", "fma", "bmi", "bmi2", "f16c", "avx512f", "avx512cd")),
            Map.entry("knm", List.of("avx2", "fma", "bmi", "bmi2", "f16c", "avx512f", "avx512cd")));

    /**
     * Whether a host compiler flag ({@code name} without its dashes, {@code value} after its {@code =}, or null) sets
     * predefined macros that {@link #defines} or {@link #targetFlags} give a front end.
     */
    public static boolean sets(String name, String value) {
        if (name == null) return false;
        return switch (name) {
            case "fopenmp",
                    "fno-openmp",
                    "qopenmp",
                    "fiopenmp",
                    "ffast-math",
                    "fno-fast-math",
                    "Ofast",
                    "ffinite-math-only",
                    "fno-finite-math-only",
                    "pthread",
                    "funsigned-char",
                    "fsigned-char",
                    "fno-signed-char",
                    "fno-unsigned-char" -> true;
            case "march" -> value != null && X86_CPUS.containsKey(value.toLowerCase(Locale.ROOT));
            default -> isa(name) != null;
        };
    }

    /** The instruction-set extension of {@code -mNAME} / {@code -mno-NAME} (x86 only), else null. */
    private static String isa(String name) {
        if (!name.startsWith("m")) return null;
        String n = name.startsWith("mno-") ? name.substring(4) : name.substring(1);
        return X86_ISA.containsKey(n) ? n : null;
    }

    /**
     * The macros the flags define, {@code NAME=VALUE}, in the state the whole command line leaves: a later
     * {@code -fno-fast-math} (or {@code -fno-finite-math-only}, which GCC takes as no longer fast math) undoes an
     * earlier {@code -ffast-math}. {@code hostCompiler} (the command's program, or null) picks the value of
     * {@code _OPENMP}.
     */
    public static List<String> defines(List<String> flags, String hostCompiler) {
        boolean openmp = false, fast = false, finite = false, reentrant = false;
        Boolean unsignedChar = null;
        Set<String> isa = new TreeSet<>();
        for (String f : flags) {
            String n = name(f);
            int eq = n.indexOf('=');
            String key = eq < 0 ? n : n.substring(0, eq);
            if (key.equals("march")) {
                List<String> cpu = X86_CPUS.get(n.substring(eq + 1).toLowerCase(Locale.ROOT));
                if (cpu != null) cpu.forEach(x -> enable(isa, x));
                continue;
            }
            String ext = isa(key);
            if (ext != null) {
                if (key.startsWith("mno-")) disable(isa, ext);
                else enable(isa, ext);
                continue;
            }
            switch (key) {
                case "fopenmp", "qopenmp", "fiopenmp" -> openmp = true;
                case "fno-openmp" -> openmp = false;
                case "ffast-math", "Ofast" -> fast = finite = true;
                case "fno-fast-math" -> fast = finite = false;
                case "ffinite-math-only" -> finite = true;
                case "fno-finite-math-only" -> fast = finite = false;
                case "pthread" -> reentrant = true;
                case "funsigned-char", "fno-signed-char" -> unsignedChar = true;
                case "fsigned-char", "fno-unsigned-char" -> unsignedChar = false;
                default -> {
                    // not a macro of its own
                }
            }
        }
        List<String> d = new ArrayList<>();
        if (openmp) {
            boolean clang = hostCompiler != null
                    && (hostCompiler.contains("clang")
                            || hostCompiler.startsWith("icx")
                            || hostCompiler.startsWith("icpx"));
            d.add("_OPENMP=" + (clang ? CLANG_OPENMP : GCC_OPENMP));
        }
        if (fast) d.add("__FAST_MATH__=1");
        if (finite) d.add("__FINITE_MATH_ONLY__=1");
        if (reentrant) d.add("_REENTRANT=1");
        if (Boolean.TRUE.equals(unsignedChar)) d.add("__CHAR_UNSIGNED__=1");
        // "sse4" is GCC's flag for SSE4.2, no macro of its own
        isa.remove("sse4");
        for (String x : isa) d.add("__" + x.toUpperCase(Locale.ROOT).replace('.', '_') + "__=1");
        return d;
    }

    /** Turns on {@code ext} and what it implies. */
    private static void enable(Set<String> on, String ext) {
        if (!on.add(ext)) return;
        for (String p : X86_ISA.getOrDefault(ext, List.of())) enable(on, p);
    }

    /** Turns off {@code ext} and every extension that implies it ({@code -mno-avx} also turns off AVX2 and FMA). */
    private static void disable(Set<String> on, String ext) {
        on.remove(ext);
        for (Map.Entry<String, List<String>> e : X86_ISA.entrySet()) {
            if (e.getValue().contains(ext) && on.contains(e.getKey())) disable(on, e.getKey());
        }
    }

    /**
     * The flags a Clang front end should be given as written, because they change more than a macro: the signedness
     * of {@code char}, and on an x86 host the instruction set ({@code -mavx2}, {@code -march=haswell}: Clang then
     * defines {@code __AVX2__} and the macros the set implies, and accepts the intrinsics the code calls under them).
     * An instruction-set flag is left out on another host, where Clang would stop at it.
     */
    public static List<String> targetFlags(List<String> flags, boolean x86Host) {
        List<String> out = new ArrayList<>();
        for (String f : flags) {
            String n = name(f);
            if (n.equals("funsigned-char")
                    || n.equals("fsigned-char")
                    || n.equals("fno-signed-char")
                    || n.equals("fno-unsigned-char")) out.add("-" + n);
            else if (x86Host && isa(n) != null) out.add("-" + n);
            else if (x86Host
                    && n.startsWith("march=")
                    && X86_CPUS.containsKey(n.substring(6).toLowerCase(Locale.ROOT)))
                out.add("-" + n.toLowerCase(Locale.ROOT));
        }
        return out;
    }

    /** Whether this machine is x86-64 (a Clang parse in process targets it). */
    public static boolean x86Host() {
        String a = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return a.equals("amd64") || a.equals("x86_64");
    }

    private static String name(String flag) {
        String f = flag.strip();
        int i = 0;
        while (i < f.length() && i < 2 && f.charAt(i) == '-') i++;
        return f.substring(i);
    }
}
