package dev.numlint.model;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The compiler settings that apply to one source file, as found by the build model (compile_commands.json, else
 * the Makefile or CMake project evaluated for its default configuration) or given with {@code --nvcc-flags}.
 * A {@code null} setting means "not set": the compiler default applies. Every floating-point setting remembers
 * where it was set ({@link FlagOrigin}) so findings can cite it.
 *
 * <p>For the front ends: {@link #defines()} and {@link #includePaths()} are the preprocessor state the build gives
 * the file (to drive {@code #if}/{@code #ifdef} and to find headers); {@link #nvccFlags()} are the flags for an
 * nvcc {@code -ptx} compile (defines and include paths included, include paths absolute); {@link #compiledVia()}
 * names the translation unit that really compiles the file when the build never compiles it on its own (a kernel
 * {@code .cu} that another {@code .cu} {@code #include}s); {@link #configuration()} says where the context came
 * from. Values are data from the scanned tree: they may contain shell metacharacters and must never be handed to a
 * shell; the nvcc runner filters them.
 */
public final class BuildContext {
    /** A flag as written, and where. */
    public record FlagOrigin(String flag, Location location) {}

    /** Device (nvcc) settings. Defaults of nvcc: fmad=true, prec-div=true, prec-sqrt=true, ftz=false. */
    private Boolean fastMath;

    private Boolean precDiv;
    private Boolean precSqrt;
    private Boolean ftz;
    private Boolean fmad;
    /**
     * nvcc's {@code -G} ({@code --device-debug}): device code without optimisation; NVVM writes no fma for a*b+c and
     * ptxas keeps FMUL and FADD apart (sm_80 SASS, session 42), so nothing is contracted.
     */
    private Boolean deviceDebug;
    /** Host compiler settings. */
    private String hostArch; // value of -march=, e.g. "native", "haswell"

    private Boolean hostFpContractOff; // -ffp-contract=off
    private Boolean hostFastMath; // -ffast-math
    private String hostOptLevel; // the last -O of the host command: "0", "2", "fast", "" for a bare -O; null: none
    private Boolean hostReassociation; // -fassociative-math, -funsafe-math-optimizations; false: -fno-... of either
    private String hostStd; // value of the host compiler's -std=, e.g. "c99", "gnu11", "c++17"
    private String hostCompiler; // the program of the host compile command (gcc, clang-19), null when not known
    private Boolean m32; // -m32
    private Boolean mfpmath387; // -mfpmath=387
    private String cudaArch; // e.g. compute_90 / sm_80
    private final List<String> nvccFlags = new ArrayList<>(); // code-generation flags for nvcc -ptx, as written
    private final List<FlagOrigin> origins = new ArrayList<>();
    private final List<String> defines = new ArrayList<>(); // NAME or NAME=VALUE, in command-line order
    private final List<String> undefines = new ArrayList<>(); // -U NAME
    private final List<String> hostMacroFlags = new ArrayList<>(); // -fopenmp, -ffast-math, -mavx2: HostMacros
    private final List<Path> includePaths = new ArrayList<>(); // absolute, in search order
    private Path compiledVia;
    private Path writtenFrom; // a .ptx the build writes (nvcc -ptx ... -o this) from that source
    private String writtenBy; // the compile command that writes it, as "compile_commands.json:LINE"
    private Boolean compiledAsCuda; // -x cu / -x cuda: a CUDA unit whatever the file's extension
    private String compiledAsHost; // -x c / -x c++: the host language the command names, whatever the extension
    private Boolean compiled; // the build compiles it: a command of its own, or through an includer that has one
    private String notCompiledReason; // why the configured build does not compile it (with compiled == FALSE)
    private String configuration;
    private final List<String> summary = new ArrayList<>();
    private final List<BuildContext> variants = new ArrayList<>();

    public static BuildContext defaults() {
        return new BuildContext();
    }

    public BuildContext copy() {
        BuildContext c = new BuildContext();
        c.merge(this);
        return c;
    }

    /** Later settings win: applies every setting {@code other} has over this one. */
    public BuildContext merge(BuildContext other) {
        if (other.fastMath != null) fastMath = other.fastMath;
        if (other.precDiv != null) precDiv = other.precDiv;
        if (other.precSqrt != null) precSqrt = other.precSqrt;
        if (other.ftz != null) ftz = other.ftz;
        if (other.fmad != null) fmad = other.fmad;
        if (other.deviceDebug != null) deviceDebug = other.deviceDebug;
        if (other.hostArch != null) hostArch = other.hostArch;
        if (other.hostFpContractOff != null) hostFpContractOff = other.hostFpContractOff;
        if (other.hostFastMath != null) hostFastMath = other.hostFastMath;
        if (other.hostOptLevel != null) hostOptLevel = other.hostOptLevel;
        if (other.hostReassociation != null) hostReassociation = other.hostReassociation;
        if (other.hostStd != null) hostStd = other.hostStd;
        if (other.hostCompiler != null) hostCompiler = other.hostCompiler;
        if (other.m32 != null) m32 = other.m32;
        if (other.mfpmath387 != null) mfpmath387 = other.mfpmath387;
        if (other.cudaArch != null) cudaArch = other.cudaArch;
        if (other.compiledAsCuda != null) compiledAsCuda = other.compiledAsCuda;
        if (other.compiledAsHost != null) compiledAsHost = other.compiledAsHost;
        if (other.compiled != null) {
            compiled = other.compiled;
            notCompiledReason = other.notCompiledReason;
        }
        for (String f : other.nvccFlags) {
            if (!nvccFlags.contains(f)) nvccFlags.add(f);
        }
        origins.addAll(other.origins);
        for (String d : other.defines) addDefine(d);
        for (String u : other.undefines) addUndefine(u);
        other.hostMacroFlags.forEach(this::addHostMacroFlag);
        for (Path p : other.includePaths) addIncludePath(p);
        if (other.compiledVia != null) compiledVia = other.compiledVia;
        if (other.writtenFrom != null) {
            writtenFrom = other.writtenFrom;
            writtenBy = other.writtenBy;
        }
        if (other.configuration != null) configuration = other.configuration;
        for (String l : other.summary) {
            if (!summary.contains(l)) summary.add(l);
        }
        for (BuildContext v : other.variants) addVariant(v);
        return this;
    }

    // Effective device semantics (fast math implies the three relaxed settings unless overridden explicitly).
    public boolean effectiveFastMath() {
        return Boolean.TRUE.equals(fastMath);
    }

    public boolean effectivePrecDiv() {
        return precDiv != null ? precDiv : !effectiveFastMath();
    }

    public boolean effectivePrecSqrt() {
        return precSqrt != null ? precSqrt : !effectiveFastMath();
    }

    public boolean effectiveFtz() {
        return ftz != null ? ftz : effectiveFastMath();
    }

    /** Whether device code may be contracted: -fmad=true (nvcc's default), and not a -G build. */
    public boolean effectiveFmad() {
        return (fmad == null || fmad) && !Boolean.TRUE.equals(deviceDebug);
    }
    /**
     * Host contraction: where the target ISA has FMA, GCC contracts a*b+c into one by default, except for C in an ISO
     * mode ({@code -std=c99}: {@code -ffp-contract=off} by default, {@link
     * dev.numlint.knowledge.HostContraction}); an explicit {@code -ffp-contract=}, {@code -ffast-math} or {@code
     * -Ofast} decides instead. GCC at a last {@code -O0}, {@code -O1} or {@code -Og} contracts nothing.
     */
    public boolean hostContracts() {
        if (hostArch == null || !archHasFma(hostArch)) return false;
        // GCC forms an fma only from -O2 on, whatever -ffp-contract says (HostContraction.optimizes)
        if (!dev.numlint.knowledge.HostContraction.optimizes(hostCompiler, hostOptLevel)) return false;
        if (hostFpContractOff != null) return !hostFpContractOff;
        if (Boolean.TRUE.equals(hostFastMath())) return true;
        return !dev.numlint.knowledge.HostContraction.offByDefault(hostCompiler, hostStd);
    }

    public boolean hostX87() {
        return Boolean.TRUE.equals(m32) || Boolean.TRUE.equals(mfpmath387);
    }

    /** Whether {@code -march=VALUE} enables FMA instructions (x86: Haswell and later, znver*, native). */
    public static boolean archHasFma(String arch) {
        String a = arch.toLowerCase(java.util.Locale.ROOT);
        return a.equals("native")
                || a.startsWith("haswell")
                || a.startsWith("broadwell")
                || a.startsWith("skylake")
                || a.startsWith("cascadelake")
                || a.startsWith("cooperlake")
                || a.startsWith("icelake")
                || a.startsWith("tigerlake")
                || a.startsWith("alderlake")
                || a.startsWith("raptorlake")
                || a.startsWith("meteorlake")
                || a.startsWith("sapphirerapids")
                || a.startsWith("emeraldrapids")
                || a.startsWith("graniterapids")
                || a.startsWith("rocketlake")
                || a.startsWith("cannonlake")
                || a.startsWith("znver")
                || a.startsWith("bdver")
                || a.startsWith("x86-64-v3")
                || a.startsWith("x86-64-v4")
                || a.startsWith("arrowlake")
                || a.startsWith("lunarlake")
                || a.startsWith("sierraforest")
                || a.startsWith("grandridge")
                || a.startsWith("diamondrapids");
    }

    public Boolean fastMath() {
        return fastMath;
    }

    public Boolean precDiv() {
        return precDiv;
    }

    public Boolean precSqrt() {
        return precSqrt;
    }

    public Boolean ftz() {
        return ftz;
    }

    public Boolean fmad() {
        return fmad;
    }

    /** nvcc's -G, or null when the build does not say. */
    public Boolean deviceDebug() {
        return deviceDebug;
    }

    public String hostArch() {
        return hostArch;
    }

    public Boolean hostFpContractOff() {
        return hostFpContractOff;
    }

    /**
     * {@code -ffast-math}, or {@code -Ofast} as the last {@code -O} of the command: GCC's manual, "If you use multiple
     * -O options ... the last such option is the one that is effective", so {@code -Ofast ... -O0} has no fast math
     * (gcc 12: no {@code __FAST_MATH__}; session 85 round AH, a particle visualiser's Makefile appends {@code -O0 -g}).
     */
    public Boolean hostFastMath() {
        if ("fast".equals(hostOptLevel)) return Boolean.TRUE;
        return hostFastMath;
    }

    /** The host compiler's reassociation switch as written ({@code -fassociative-math}: true), or null. */
    public Boolean hostReassociation() {
        return hostReassociation;
    }

    /**
     * Whether the host compiler may reorder float sums: {@code -fassociative-math} or {@code
     * -funsafe-math-optimizations}, or {@code -ffast-math}/{@code -Ofast} not followed by a switch that turns it off.
     */
    public boolean hostReassociates() {
        return Boolean.TRUE.equals(hostReassociation)
                || Boolean.TRUE.equals(hostFastMath()) && !Boolean.FALSE.equals(hostReassociation);
    }

    /** The host compiler's {@code -std=} value, or null when the command sets none. */
    public String hostStd() {
        return hostStd;
    }

    /** The program of the host compile command ({@code gcc}, {@code clang-19}), or null when not known. */
    public String hostCompiler() {
        return hostCompiler;
    }

    public Boolean m32() {
        return m32;
    }

    public Boolean mfpmath387() {
        return mfpmath387;
    }

    public String cudaArch() {
        return cudaArch;
    }

    public List<String> nvccFlags() {
        return Collections.unmodifiableList(nvccFlags);
    }

    /**
     * The files the compile command includes before the source's first line, as written ({@code -include F},
     * {@code --pre-include F}, and the resolved {@code -include=F} the build's flag interpreter writes): what Clang
     * and the hand-written preprocessor read first (SPECFEM3D's kernels get every type from {@code -include
     * src/gpu/mesh_constants_gpu.h}; CMake's precompiled headers come as {@code -include cmake_pch.hxx}).
     */
    public List<String> forcedIncludes() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < nvccFlags.size(); i++) {
            String fl = nvccFlags.get(i).strip();
            String v = null;
            if ((fl.equals("-include") || fl.equals("--pre-include")) && i + 1 < nvccFlags.size()) {
                v = nvccFlags.get(++i).strip();
            } else if (fl.startsWith("-include=") || fl.startsWith("--pre-include=")) {
                v = fl.substring(fl.indexOf('=') + 1);
            }
            if (v != null && !v.isEmpty() && !out.contains(v)) out.add(v);
        }
        return out;
    }

    public List<FlagOrigin> origins() {
        return Collections.unmodifiableList(origins);
    }

    /**
     * The macros the build defines for this file ({@code -DNAME} is {@code "NAME"}, {@code -DNAME=V} is
     * {@code "NAME=V"}), in command-line order; a later definition of the same name replaces the earlier one.
     * Macros the build undefines ({@link #undefines()}) are not in this list.
     */
    public List<String> defines() {
        return Collections.unmodifiableList(defines);
    }

    /**
     * The host compiler's flags that set predefined macros ({@code -fopenmp}, {@code -ffast-math}, {@code -mavx2}:
     * {@link dev.numlint.knowledge.HostMacros}), in command-line order.
     */
    public List<String> hostMacroFlags() {
        return Collections.unmodifiableList(hostMacroFlags);
    }

    /** The macros {@link #hostMacroFlags()} define, {@code NAME=VALUE}. */
    public List<String> impliedDefines() {
        return dev.numlint.knowledge.HostMacros.defines(hostMacroFlags, hostCompiler);
    }

    /** The macros the build undefines with {@code -UNAME}. */
    public List<String> undefines() {
        return Collections.unmodifiableList(undefines);
    }

    /**
     * The include directories of this file ({@code -I}, {@code -isystem}, {@code include_directories}, ...), as
     * absolute normalized paths in search order. They may lie outside the scanned tree; readers must check.
     */
    public List<Path> includePaths() {
        return Collections.unmodifiableList(includePaths);
    }

    /**
     * The source file that really compiles this one, when the build never compiles it on its own but another
     * compiled file {@code #include}s it (a kernel {@code .cu} included by a {@code .cu} the build compiles);
     * null otherwise. Its PTX comes from compiling that file with that file's context.
     */
    public Path compiledVia() {
        return compiledVia;
    }

    /**
     * The source a build output was compiled from: a {@code .ptx} file of the tree that a compile command of the
     * build writes ({@code nvcc -ptx src.cu -o this.ptx}); null for every other file. {@link #writtenBy()} names the
     * command.
     */
    public Path writtenFrom() {
        return writtenFrom;
    }

    /** Where the command that writes this build output is ({@code build/compile_commands.json:12}), or null. */
    public String writtenBy() {
        return writtenBy;
    }

    /**
     * Where this context came from, e.g. {@code "Makefile goal all -> fermi -> mcx_core.o (src/Makefile)"},
     * {@code "compile_commands.json entry (build/compile_commands.json)"}, {@code "CMake target app
     * (CMakeLists.txt; USE_HIP=OFF)"}; null when no build file gave one.
     */
    public String configuration() {
        return configuration;
    }

    /**
     * Only on the project-wide context ({@code ScanContext.buildContext(null)}): one line per directory that says
     * which build context its files were analyzed with, for the text, SARIF and JSON reports.
     */
    public List<String> summary() {
        return Collections.unmodifiableList(summary);
    }

    /**
     * The other build variants of a compiled unit: the contexts of its other compile commands with different defines
     * (a {@code -DPRECISION=1} float build beside the double one), each as the front ends would get it from
     * {@link dev.numlint.spi.ScanContext#buildContext} for that command alone, its {@link #configuration()} naming the
     * entry ({@code compile_commands.json entry (build/compile_commands.json:12)}); this context is the unit's first
     * (or CUDA) variant. Empty for every file but a compilation-database unit compiled more than once.
     *
     * <p>Kept on the context rather than behind a new SPI method: the variants are a property of the file's build
     * like its defines, they travel with it through {@link #copy()}, {@link #merge} and the scan's per-file store,
     * and every front end that reads a context can see them without a new call. A front end that ignores them
     * analyzes the first variant only, as before. A variant's own {@code variants()} is empty.
     */
    public List<BuildContext> variants() {
        return Collections.unmodifiableList(variants);
    }

    /** Adds a build variant ({@link #variants()}), a copy; one with the same defines and undefines is not added twice. */
    public BuildContext addVariant(BuildContext v) {
        for (BuildContext had : variants) {
            if (sameDefines(had, v)) return this;
        }
        BuildContext c = v.copy();
        c.variants.clear();
        variants.add(c);
        return this;
    }

    /** Whether two contexts define and undefine the same macros (as sets). */
    public static boolean sameDefines(BuildContext a, BuildContext b) {
        return new java.util.HashSet<>(a.defines).equals(new java.util.HashSet<>(b.defines))
                && new java.util.HashSet<>(a.undefines).equals(new java.util.HashSet<>(b.undefines));
    }

    /** The origin of the first recorded flag satisfying the predicate (for evidence in findings). */
    public Optional<FlagOrigin> originOf(java.util.function.Predicate<String> flag) {
        return origins.stream().filter(o -> flag.test(o.flag())).findFirst();
    }

    /**
     * The build compiles this file: an entry of the compilation database, a Makefile rule or a CMake target of its
     * own, or a compiled file that includes it ({@link #compiledVia()}); not a file whose flags come from its
     * directory or are guessed.
     */
    public BuildContext compiled(Boolean v) {
        compiled = v;
        return this;
    }

    /** Whether the build compiles this file ({@link #compiled(Boolean)}); false when nothing says so. */
    public boolean compiled() {
        return Boolean.TRUE.equals(compiled);
    }

    /**
     * The configured build is known not to compile this file: its compilation database lists the units of this
     * configuration and none is this one, nor one that includes it. {@code why} says so for a report.
     */
    public BuildContext notCompiled(String why) {
        compiled = Boolean.FALSE;
        notCompiledReason = why;
        return this;
    }

    /** Why the configured build is known not to compile this file ({@link #notCompiled(String)}), or null. */
    public String notCompiledReason() {
        return Boolean.FALSE.equals(compiled) ? notCompiledReason : null;
    }

    /** The compile command names the language CUDA ({@code -x cu}, {@code -x cuda}), whatever the extension. */
    public BuildContext compiledAsCuda(Boolean v) {
        compiledAsCuda = v;
        return this;
    }

    /** Whether the compile command compiles the file as CUDA ({@code -x cu}); false when it does not say. */
    public boolean compiledAsCuda() {
        return Boolean.TRUE.equals(compiledAsCuda);
    }

    /** The host language the compile command names ({@code -x c}, {@code -x c++}): "c" or "c++". */
    public BuildContext compiledAsHost(String v) {
        compiledAsHost = v;
        return this;
    }

    /** The host language the compile command names ("c", "c++"), or null when it names none. */
    public String compiledAsHost() {
        return compiledAsHost;
    }

    /**
     * Whether the compile command compiles a {@code .c} file as C++: it says so ({@code -x c++}), or its compiler is a
     * C++ driver that does so by default ({@code g++}, {@code c++}, {@code clang++}, with a target prefix or a version
     * suffix; Intel's {@code icpx}/{@code icpc}, MPI's {@code mpicxx}/{@code mpic++}, NVIDIA HPC's {@code nvc++}),
     * unless it names C ({@code -x c}). GCC's manual: "g++ ... treats .c, .h and .i files as C++ source files".
     */
    public boolean cFileCompiledAsCxx() {
        if (compiledAsHost != null) return compiledAsHost.equals("c++");
        return hostCompiler != null && CXX_DRIVER.matcher(hostCompiler).matches();
    }

    private static final java.util.regex.Pattern CXX_DRIVER = java.util.regex.Pattern.compile(
            "(?:.*-)?(?:g\\+\\+|c\\+\\+|clang\\+\\+)(?:-[0-9.]+)?|icpx|icpc|mpicxx|mpic\\+\\+|mpiCC|nvc\\+\\+|pgc\\+\\+");

    public BuildContext fastMath(Boolean v) {
        fastMath = v;
        return this;
    }

    public BuildContext precDiv(Boolean v) {
        precDiv = v;
        return this;
    }

    public BuildContext precSqrt(Boolean v) {
        precSqrt = v;
        return this;
    }

    public BuildContext ftz(Boolean v) {
        ftz = v;
        return this;
    }

    public BuildContext fmad(Boolean v) {
        fmad = v;
        return this;
    }

    public BuildContext deviceDebug(Boolean v) {
        deviceDebug = v;
        return this;
    }

    public BuildContext hostArch(String v) {
        hostArch = v;
        return this;
    }

    public BuildContext hostFpContractOff(Boolean v) {
        hostFpContractOff = v;
        return this;
    }

    public BuildContext hostFastMath(Boolean v) {
        hostFastMath = v;
        return this;
    }

    /** The last {@code -O} of the host command, without the {@code O} ({@code "0"}, {@code "fast"}); null: none. */
    public String hostOptLevel() {
        return hostOptLevel;
    }

    public BuildContext hostOptLevel(String v) {
        hostOptLevel = v;
        return this;
    }

    public BuildContext hostReassociation(Boolean v) {
        hostReassociation = v;
        return this;
    }

    public BuildContext hostStd(String v) {
        hostStd = v;
        return this;
    }

    public BuildContext hostCompiler(String v) {
        hostCompiler = v;
        return this;
    }

    public BuildContext m32(Boolean v) {
        m32 = v;
        return this;
    }

    public BuildContext mfpmath387(Boolean v) {
        mfpmath387 = v;
        return this;
    }

    public BuildContext cudaArch(String v) {
        cudaArch = v;
        return this;
    }

    public BuildContext addNvccFlag(String f) {
        if (!nvccFlags.contains(f)) nvccFlags.add(f);
        return this;
    }

    public BuildContext addOrigin(String flag, Location where) {
        origins.add(new FlagOrigin(flag, where));
        return this;
    }

    /** Adds {@code NAME} or {@code NAME=VALUE}; replaces an earlier definition of the same name. */
    public BuildContext addDefine(String d) {
        String name = macroName(d);
        defines.removeIf(x -> macroName(x).equals(name));
        undefines.remove(name);
        defines.add(d);
        return this;
    }

    /** A host compiler flag that sets predefined macros, as written ({@code -fopenmp}); kept in order. */
    public BuildContext addHostMacroFlag(String flag) {
        if (hostMacroFlags.isEmpty()
                || !hostMacroFlags.get(hostMacroFlags.size() - 1).equals(flag)) hostMacroFlags.add(flag);
        return this;
    }

    /** {@code -UNAME}: removes an earlier definition. */
    public BuildContext addUndefine(String name) {
        defines.removeIf(x -> macroName(x).equals(name));
        if (!undefines.contains(name)) undefines.add(name);
        return this;
    }

    public BuildContext addIncludePath(Path p) {
        Path n = p.toAbsolutePath().normalize();
        if (!includePaths.contains(n)) includePaths.add(n);
        return this;
    }

    public BuildContext compiledVia(Path p) {
        compiledVia = p;
        return this;
    }

    public BuildContext writtenFrom(Path source, String command) {
        writtenFrom = source;
        writtenBy = command;
        return this;
    }

    public BuildContext configuration(String c) {
        configuration = c;
        return this;
    }

    public BuildContext addSummary(String line) {
        if (!summary.contains(line)) summary.add(line);
        return this;
    }

    private static String macroName(String d) {
        int eq = d.indexOf('=');
        return eq < 0 ? d : d.substring(0, eq);
    }

    @Override
    public String toString() {
        return "BuildContext{fastMath=" + fastMath + ", precDiv=" + precDiv + ", precSqrt=" + precSqrt + ", ftz=" + ftz
                + ", fmad=" + fmad + ", deviceDebug=" + deviceDebug + ", hostArch=" + hostArch + ", hostFpContractOff="
                + hostFpContractOff
                + ", hostFastMath=" + hostFastMath + ", hostOptLevel=" + hostOptLevel + ", hostReassociation="
                + hostReassociation + ", hostStd=" + hostStd
                + ", hostCompiler=" + hostCompiler
                + ", m32=" + m32 + ", mfpmath387=" + mfpmath387
                + ", cudaArch=" + cudaArch + ", nvccFlags=" + nvccFlags + ", defines=" + defines
                + ", includePaths=" + includePaths + ", compiledVia=" + compiledVia + ", writtenFrom=" + writtenFrom
                + ", configuration="
                + configuration + "}";
    }
}
