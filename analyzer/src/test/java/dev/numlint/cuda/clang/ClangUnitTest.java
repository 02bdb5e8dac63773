package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.numlint.model.BuildContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Clang front end's named analyses on small sources (libclang's natives are on the test class path). */
class ClangUnitTest {
    @TempDir
    Path dir;

    private ClangUnit parse(String name, String source, ClangFrontEnd.Language lang) throws Exception {
        return parse(dir, name, source, lang);
    }

    /** {@code source} written to {@code dir/name} and parsed by libclang in this JVM, with the default flags. */
    static ClangUnit parse(Path dir, String name, String source, ClangFrontEnd.Language lang) throws Exception {
        Libclang lib = Libclang.get();
        assertThat(lib).as("libclang loads: %s", Libclang.unavailable()).isNotNull();
        if (lang == ClangFrontEnd.Language.CUDA) {
            assumeTrue(Files.isRegularFile(Path.of("/usr/local/cuda/include/cuda_runtime.h")), "a CUDA toolkit");
        }
        Path f = dir.resolve(name);
        byte[] text = source.getBytes(StandardCharsets.UTF_8);
        Files.write(f, text);
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        ClangUnit u = ClangParser.parse(f, fe.arguments(f, lang, BuildContext.defaults()), text);
        assertThat(u.failure()).isNull();
        return u;
    }

    /**
     * A file the parse is given as text but that no {@code #include} of the unit reaches (included only under a macro
     * the unit does not define) is not read from that parse: its unit fails as not included, for a target and for a
     * header read from the same parse, instead of an empty unit with no functions (session 78: the findings of an
     * {@code .inl} vanished with no notice).
     */
    @Test
    void aFileTheUnitDoesNotIncludeIsNotReadFromItsParse() throws Exception {
        Libclang lib = Libclang.get();
        assertThat(lib).as("libclang loads: %s", Libclang.unavailable()).isNotNull();
        Path impl = dir.resolve("impl.inl");
        byte[] implText =
                "unsigned char b(double v) { return (unsigned char)(v * 255.0); }\n".getBytes(StandardCharsets.UTF_8);
        Files.write(impl, implText);
        Path header = dir.resolve("extra.h");
        byte[] headerText = "static inline float half(float x) { return x / 2; }\n".getBytes(StandardCharsets.UTF_8);
        Files.write(header, headerText);
        Path unit = dir.resolve("bind.cpp");
        byte[] unitText =
                """
                #ifdef LIB_IMPLEMENTATION
                #include "impl.inl"
                #include "extra.h"
                #endif
                int f(int x) { return x + 1; }
                """
                        .getBytes(StandardCharsets.UTF_8);
        Files.write(unit, unitText);
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        List<String> args = fe.arguments(unit, ClangFrontEnd.Language.CXX, BuildContext.defaults());

        ClangUnit target = ClangParser.parse(unit, args, unitText, null, impl, implText);
        assertThat(ClangIncludes.notIncluded(target)).as(target.failure()).isTrue();

        ClangUnit parsed =
                ClangParser.parse(unit, args, unitText, null, null, null, java.util.Map.of(header, headerText), dir);
        assertThat(parsed.failure()).isNull();
        assertThat(ClangIncludes.notIncluded(ClangIncludes.of(parsed).get(header)))
                .as(String.valueOf(ClangIncludes.of(parsed).get(header).failure()))
                .isTrue();

        List<String> defined = new java.util.ArrayList<>(args);
        defined.add("-DLIB_IMPLEMENTATION");
        ClangUnit read = ClangParser.parse(unit, defined, unitText, null, impl, implText);
        assertThat(read.failure()).isNull();
        assertThat(read.functions()).hasSize(1);
    }

    /** nvcc's {@code __CUDACC__} is 1: a header that tests {@code #if !__CUDACC__} reads as nvcc reads it. */
    @Test
    void aTestOfCudaccHasNvccsValue() throws Exception {
        ClangUnit u = parse(
                "guarded.cu",
                """
                #if !__CUDACC__
                #error host only
                #endif
                #if __CUDACC__
                __global__ void k(float *o) { o[0] = o[1] / o[2]; }
                #endif
                """,
                ClangFrontEnd.Language.CUDA);
        assertThat(u.errors()).isZero();
    }

    /**
     * Host code of a .cu file calls {@code min}/{@code max} as nvcc's math_functions.hpp lets it; Clang's CUDA wrapper
     * declares them for device code only (session 42: "no matching function for call to 'min'" in 18 units of an
     * unseen code nvcc compiles). The device and host-device uses still resolve.
     */
    @Test
    void hostCodeCallsMinAndMaxAsUnderNvcc() throws Exception {
        ClangUnit u = parse(
                "host_min.cu",
                """
                int pick(int a, int b) { return min(a, b) + max(a, b); }
                float pickf(float a, float b) { return min(a, b); }
                unsigned long widest(unsigned long a, long b) { return max(a, b); }
                __host__ __device__ int both(int a, int b) { return min(a, b); }
                __global__ void k(float *o, int n) { o[0] = min(o[1], 1.0f) + both(n, 2) + max(n, 4); }
                """,
                ClangFrontEnd.Language.CUDA);
        assertThat(u.errors()).isZero();
    }

    /**
     * A definition without an execution space after a {@code __host__ __device__} declaration: nvcc compiles it with
     * the declaration's space; Clang's "cannot overload" is no error of the code (no clang-error notice for it).
     */
    @Test
    void aDefinitionThatInheritsItsDeclarationsSpaceIsNoError() throws Exception {
        ClangUnit u = parse(
                "spaces.cu",
                """
                __host__ __device__ static double ratio(double a, double b);
                static double ratio(double a, double b) { return a / b; }
                __global__ void k(double *o) { o[0] = ratio(o[1], o[2]); }
                """,
                ClangFrontEnd.Language.CUDA);
        assertThat(u.errors()).isZero();
        assertThat(ClangDiagnostics.nvccAccepts(
                        "__host__ function 'ratio' cannot overload __host__ __device__ function 'ratio'"))
                .isTrue();
        assertThat(ClangDiagnostics.nvccAccepts(
                        "__host__ function 'ratio' cannot overload __host__ __device__ function 'other'"))
                .isFalse();
    }

    /**
     * A file compiled through an include ({@code #include "deposit.cu"}), and a header read from its unit's parse, whose
     * first declaration is {@code typedef struct S {...} s;}: libclang visits the struct, then the typedef, which starts
     * before it. That is not a second inclusion of the file: the functions after it are the file's (every one was
     * lost, and with them the float atomics and casts of a photon-transport code's deposit kernel).
     */
    @Test
    void aTypedefdStructBeforeTheFunctionsOfAnIncludedFileIsNoSecondInclusion() throws Exception {
        Libclang lib = Libclang.get();
        assertThat(lib).as("libclang loads: %s", Libclang.unavailable()).isNotNull();
        byte[] deposit =
                """
                typedef struct PhotonState { float pos[3]; unsigned int elem; float weight; } photon;
                void deposit(float *energy, photon *r, unsigned int *bin) { *bin = (unsigned int)(r->weight * 8); }
                typedef struct { int n; } counter;
                void count(counter *c) { c->n++; }
                """
                        .getBytes(StandardCharsets.UTF_8);
        byte[] header = "typedef struct P { float w; } pw;\nstatic float weightOf(const pw *p) { return p->w; }\n"
                .getBytes(StandardCharsets.UTF_8);
        byte[] model =
                "#include \"w.h\"\n#include \"deposit.c\"\n#include \"deposit.c\"\n".getBytes(StandardCharsets.UTF_8);
        Files.write(dir.resolve("deposit.c"), deposit);
        Files.write(dir.resolve("w.h"), header);
        Path unit = dir.resolve("model.c");
        Files.write(unit, model);
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        List<String> args = fe.arguments(unit, ClangFrontEnd.Language.C, BuildContext.defaults());
        ClangUnit target = ClangParser.parse(unit, args, model, null, dir.resolve("deposit.c"), deposit);
        assertThat(target.functions()).extracting(ClangUnit.Function::name).containsExactly("deposit", "count");
        ClangUnit u = ClangParser.parse(
                unit, args, model, null, null, null, java.util.Map.of(dir.resolve("w.h"), header), dir);
        assertThat(ClangIncludes.of(u).get(dir.resolve("w.h")).functions())
                .extracting(ClangUnit.Function::name)
                .containsExactly("weightOf");
    }

    @Test
    void templatedAndTypedefdAtomicsAndCastsHaveTheirCanonicalTypes() throws Exception {
        ClangUnit u = parse(
                "t.cu",
                """
                typedef float real_t;
                __global__ void typedefAtomic(real_t *sum, const real_t *x) { atomicAdd(sum, x[threadIdx.x]); }
                template <typename REAL>
                __global__ void splat(REAL *grid, const REAL *w, unsigned *idx, REAL half)
                {
                    int i = threadIdx.x;
                    atomicAdd(&grid[i], w[i]);
                    idx[i] = (unsigned int)ceil(w[i] - half);
                    grid[i] = __fdividef(w[i], half);
                }
                void launch(float *g, const float *w, unsigned *idx) { splat<<<1, 32>>>(g, w, idx, 0.5f); }
                __global__ void counts(int *n, float *c) { atomicAdd(n, 1); atomicAdd(c, 1.0f); }
                """,
                ClangFrontEnd.Language.CUDA);
        assertThat(u.functions())
                .extracting(ClangUnit.Function::name)
                .containsExactly("typedefAtomic", "splat", "launch", "counts");
        assertThat(u.functions().get(1).template()).isTrue();
        assertThat(u.functions().get(1).instantiations()).containsExactly(List.of("float"));
        assertThat(u.atomics())
                .extracting(a -> a.node().line + ":" + a.type() + ":" + a.viaTemplate() + ":" + a.addend())
                .containsExactly("2:float:false:null", "7:float:true:null", "12:float:false:1.0");
        assertThat(u.conversions())
                .filteredOn(ClangUnit.Conversion::explicit)
                .extracting(c -> c.node().line + ":" + c.from() + "->" + c.to())
                .containsExactly("8:float->unsigned int");
        assertThat(u.intrinsics())
                .extracting(c -> c.node().line + ":" + c.name())
                .containsExactly("9:__fdividef");
    }

    /**
     * Session 25's defect 9 (LightGBM's histogram kernels): a kernel template launched with explicit arguments from a
     * chain of launcher templates whose first is called with {@code <float, ...>} and {@code <double, ...>}: the
     * atomic add is float and double, each from its line, not "a type not known here".
     */
    @Test
    void aKernelLaunchedThroughAChainOfTemplatesWithExplicitArgumentsHasTheirTypes() throws Exception {
        ClangUnit u = parse(
                "chain.cu",
                """
                template <typename BIN, typename HIST, int N>
                __global__ void build(const BIN *bins, const float *g, HIST *hist, int n)
                {
                    int i = threadIdx.x;
                    if (i < n) atomicAdd(hist + bins[i], g[i]);
                }
                struct Ctor {
                    template <typename HIST, int N> void inner(int n);
                    template <typename HIST, int N, typename BIN> void inner0(int n);
                    void launch(int n, bool dp);
                };
                void Ctor::launch(int n, bool dp)
                {
                    if (dp) inner<double, 64>(n);
                    else inner<float, 128>(n);
                }
                template <typename HIST, int N> void Ctor::inner(int n) { inner0<HIST, N, unsigned char>(n); }
                template <typename HIST, int N, typename BIN> void Ctor::inner0(int n)
                {
                    build<BIN, HIST, N><<<1, 32>>>(nullptr, nullptr, nullptr, n);
                }
                template <typename T> __global__ void alone(T *h, const T *v) { atomicAdd(h, v[threadIdx.x]); }
                """,
                ClangFrontEnd.Language.CUDA);
        // the template `alone`, which nothing instantiates, adds a T not known here (floating false: said as a note)
        assertThat(u.atomics())
                .extracting(a -> a.node().line + ":" + a.type() + ":" + a.instantiatedAt() + ":" + a.floating())
                .containsExactly("5:double:14:true", "5:float:15:true", "22:T:null:false");
    }

    /**
     * Session 31's defect 6: a kernel template launched without template arguments from a host template whose only
     * instantiations are explicit ones; the atomic adds a member of the instantiated vector type.
     */
    @Test
    void aLaunchInAnExplicitlyInstantiatedTemplateDeducesTheKernelsMemberTypes() throws Exception {
        ClangUnit u = parse(
                "deduced.cu",
                """
                template <class T> __global__ void scatter(T *out, const T *in, int n) {
                  int i = blockIdx.x * blockDim.x + threadIdx.x;
                  if (i < n) atomicAdd(&(out[i / 32].x), in[i].x);
                }
                template <class T> void run(T *out, const T *in, int n) { scatter<<<(n + 255) / 256, 256>>>(out, in, n); }
                template void run<float2>(float2 *, const float2 *, int);
                template void run(int2 *, const int2 *, int);
                """,
                ClangFrontEnd.Language.CUDA);
        assertThat(u.functions().get(0).instantiations()).containsExactly(List.of("float2"), List.of("int2"));
        assertThat(u.atomics())
                .extracting(a -> a.node().line + ":" + a.type() + ":" + a.instantiatedAt() + ":" + a.with())
                .containsExactly("3:float:6:member x of T = float2");
        // int2's member x is an integer: that instantiation adds nothing floating
        assertThat(u.atomicCalls())
                .extracting(ClangAtomicCalls.AtomicCall::integral)
                .containsExactly(false);
    }

    /**
     * Issue 25: types that no file read defines (a configured header not generated) are named with the places that
     * use them, and the worker's wire format carries them.
     */
    @Test
    void typesDefinedInNoFileReadAreNamedWithThePlacesThatUseThem() throws Exception {
        ClangUnit u = parse(
                "u.cu",
                """
                __global__ void splat(DType2 *grid, const float *w) {
                    DType2 v = grid[threadIdx.x];
                    atomicAdd(&grid[threadIdx.x].x, w[0]);
                }
                __global__ void fft(CufftType *a) { a[0] = a[1]; }
                Vec<float> g;
                __global__ void fine(float *a) { a[0] = 1.0f; }
                """,
                ClangFrontEnd.Language.CUDA);
        assertThat(u.undefinedTypes())
                .containsExactly(
                        java.util.Map.entry("CufftType", 1),
                        java.util.Map.entry("DType2", 1),
                        java.util.Map.entry("Vec", 1));
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        ClangWire.writeUnit(new java.io.DataOutputStream(bytes), u);
        ClangUnit back = ClangWire.readAnswer(
                new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray())),
                u.file(),
                new byte[0]);
        assertThat(back.undefinedTypes()).isEqualTo(u.undefinedTypes());
    }

    @Test
    void c99ComplexCompoundLiteralsTypeofAndExtensionAreRead() throws Exception {
        ClangUnit u = parse(
                "c99.c",
                """
                #include <complex.h>
                struct opt { int n; float w; };
                static unsigned bucket(float complex z, struct opt o)
                {
                    __typeof(o.w) w = o.w;
                    __extension__ long long big = 1;
                    struct opt d = (struct opt){ .n = 3, .w = 0.5f };
                    return (unsigned)(crealf(z) * w * d.w) + (unsigned)big;
                }
                """,
                ClangFrontEnd.Language.C);
        assertThat(u.errors()).isZero();
        assertThat(u.functions()).extracting(ClangUnit.Function::name).containsExactly("bucket");
        assertThat(u.conversions())
                .filteredOn(ClangUnit.Conversion::explicit)
                .extracting(c -> c.node().line + ":" + c.from() + "->" + c.to())
                .containsExactly("8:float->unsigned int");
    }

    @Test
    void anAccumulatorResetInTheCitedLoopIsCarriedOnlyByTheLoopsInsideTheReset() throws Exception {
        ClangUnit u = parse(
                "m.c",
                """
                #include <string.h>
                void matmul3(const float *a, const float *b, float *c, int count)
                {
                    float m[3][3];
                    for (int t = 0; t < count; t++) {
                        memset(&m, 0, sizeof(m));
                        for (int i = 0; i < 3; i++)
                            for (int j = 0; j < 3; j++)
                                for (int k = 0; k < 3; k++)
                                    m[i][j] += a[t * 9 + i * 3 + k] * b[k * 3 + j];
                        c[t] = m[0][0];
                    }
                }
                float sometimes(const float *x, const int *restart, int n, int count)
                {
                    float s = 0;
                    for (int t = 0; t < count; t++) {
                        if (restart[t]) s = 0;
                        for (int k = 0; k < n; k++) s += x[k];
                    }
                    return s;
                }
                """,
                ClangFrontEnd.Language.C);
        ClangLoops.Carried c = u.carriedBy(10, 0, "m[i][j]");
        assertThat(c).isNotNull();
        assertThat(c.resetLine()).isEqualTo(6);
        assertThat(c.carrying()).containsExactly(9);
        assertThat(c.trip()).isEqualTo(3);
        // a reset on one path only ends nothing
        assertThat(u.carriedBy(19, 0, "s").resetLine()).isZero();
    }

    /** Code a project macro expands to is the main file's code at the macro's use; a system macro's is not. */
    @Test
    void codeExpandedFromAProjectMacroIsRead() throws Exception {
        ClangUnit u = parse(
                "c.cpp",
                """
                #include <assert.h>
                struct Config { unsigned int nphoton; unsigned int nthread; };
                #define TO_COUNT(x) ((unsigned int)(x))
                void counts(Config *cfg, const double *v)
                {
                    cfg->nphoton = TO_COUNT(v[0]);
                    cfg->nthread = (unsigned int)(v[1]);
                    assert(v[2] > 0);
                }
                """,
                ClangFrontEnd.Language.CXX);
        assertThat(u.conversions().stream()
                        .map(c -> c.node().line + " " + u.text(c.node()))
                        .toList())
                .containsExactly("6 TO_COUNT(v[0])", "7 (unsigned int)(v[1])");
    }

    /** A running max/min or a clamp selects between the values it compares: continuous, not a decision. */
    @Test
    void aRunningMaximumOrAClampIsASelectionNotAComparison() throws Exception {
        ClangUnit u = parse(
                "m.c",
                """
                float f(const float *g, float mean, int n, float lim, int *hits)
                {
                    float best = -1e30f, lo = 1e30f;
                    for (int k = 0; k < n; k++) {
                        float v = g[k] * g[k] + mean;
                        if (v > best) best = v;
                        float w = g[k] * mean + g[k + 1];
                        lo = w < lo ? w : lo;
                        float d = g[k] * lim + mean;
                        if (d > lim) hits[k] = 1; else hits[k] = 0;
                    }
                    return best + lo;
                }
                """,
                ClangFrontEnd.Language.C);
        java.util.Map<Integer, List<dev.numlint.cuda.facts.ValueUse.Kind>> kinds = new java.util.TreeMap<>();
        for (ClangSites.Contraction c : u.contractions()) {
            kinds.put(
                    c.node().line,
                    u.uses(c.node(), c.in()).stream()
                            .map(dev.numlint.cuda.facts.ValueUse::kind)
                            .toList());
        }
        assertThat(kinds.get(5))
                .contains(dev.numlint.cuda.facts.ValueUse.Kind.SELECTION)
                .doesNotContain(dev.numlint.cuda.facts.ValueUse.Kind.COMPARISON);
        assertThat(kinds.get(7))
                .contains(dev.numlint.cuda.facts.ValueUse.Kind.SELECTION)
                .doesNotContain(dev.numlint.cuda.facts.ValueUse.Kind.COMPARISON);
        // a comparison whose branches do other work decides something
        assertThat(kinds.get(9)).contains(dev.numlint.cuda.facts.ValueUse.Kind.COMPARISON);
    }

    /** Intervals by construction on the Clang path (what NL001/NL011 take as guarded), as the hand-written ones. */
    @Test
    void conversionOperandsAreBoundedByTheirConstruction() throws Exception {
        ClangUnit u = parse(
                "i.c",
                """
                #include <math.h>
                void shade(unsigned char *rgb, const float *in, unsigned char c, float t)
                {
                    float x = in[0];
                    rgb[0] = (unsigned char)(255.f * (0.5f + 0.5f * sinf(x)));
                    rgb[1] = (unsigned char)(fminf(fmaxf(x, 0.0f), 1.0f) * 255.0f);
                    rgb[2] = (unsigned char)(c * 0.8f);
                    float s = 0.5f + 0.5f * cosf(x);
                    rgb[3] = (unsigned char)(s * 255.0f);
                    float r = 0.5f + 0.5f * cosf(x);
                    float *alias = &r;
                    *alias = t;
                    rgb[4] = (unsigned char)(r * 255.0f);
                    rgb[5] = (unsigned char)(x * 255.0f);
                    float u = in[1];
                    u = 0.5f + 0.5f * cosf(x);
                    rgb[6] = (unsigned char)(u * 255.0f);
                    static float kept = 0.5f;
                    rgb[7] = (unsigned char)(kept * 100.0f);
                    kept = in[2];
                    float both;
                    if (in[3] > 0.f) both = cosf(x) + 1.0f;
                    else both = 0.5f;
                    rgb[8] = (unsigned char)(both * 100.0f);
                    float once = in[4];
                    do { once = 0.5f + 0.5f * sinf(x); } while (in[5] > once);
                    rgb[9] = (unsigned char)(once * 255.0f);
                    float half = in[6];
                    if (in[7] > 0.f) half = cosf(x) + 1.0f;
                    rgb[10] = (unsigned char)(half * 100.0f);
                }
                """,
                ClangFrontEnd.Language.C);
        java.util.Map<Integer, String> ranges = new java.util.TreeMap<>();
        for (ClangUnit.Conversion c : u.conversions()) {
            double[] r = u.interval(c.operand(), c.in());
            ranges.put(c.node().line, (float) r[0] + ".." + (float) r[1]);
        }
        assertThat(ranges)
                .containsEntry(5, "0.0..255.0")
                .containsEntry(6, "0.0..255.0")
                .containsEntry(7, "0.0..204.0")
                .containsEntry(9, "0.0..255.0")
                .containsEntry(13, "-Infinity..Infinity")
                .containsEntry(14, "-Infinity..Infinity")
                .containsEntry(17, "0.0..255.0")
                .containsEntry(19, "-Infinity..Infinity")
                .containsEntry(24, "0.0..200.0")
                .containsEntry(27, "0.0..255.0")
                .containsEntry(30, "-Infinity..Infinity");
    }

    /**
     * A conditional clamp {@code if (x > m) x = m;} bounds x by the value its test names, a variable as well as a
     * constant; a one-sided clamp's guard says which side stays open, clamps of both sides name both; a branch that
     * sets another unknown value is no clamp.
     */
    @Test
    void conditionalClampsNameTheSidesTheyBound() throws Exception {
        ClangUnit u = parse(
                "k.c",
                """
                unsigned char upper(float c, float m) {
                    if (c > m) c = m;
                    return (unsigned char)(255.0f * c / m);
                }
                unsigned char lower(float c) {
                    if (c < 0.0f) c = 0.0f;
                    return (unsigned char)c;
                }
                unsigned char both(float c, float m) {
                    if (c < 0.0f) c = 0.0f;
                    if (m < c) c = m;
                    return (unsigned char)c;
                }
                unsigned char other(float c, float m, float k) {
                    if (c > m) c = k;
                    return (unsigned char)c;
                }
                unsigned char divisor(float r, float m) {
                    if (m < 1.0f) m = 1.0f;
                    return (unsigned char)(r / m * 255.0f);
                }
                """,
                ClangFrontEnd.Language.C);
        java.util.Map<Integer, String> guards = new java.util.TreeMap<>();
        for (ClangUnit.Conversion c : u.conversions()) guards.put(c.node().line, c.guarded() ? c.guard() : "none");
        assertThat(guards)
                .containsEntry(3, "the test 'c > m' (line 2), an upper bound only: the negative side is unguarded")
                .containsEntry(7, "the test 'c < 0.0f' (line 6), a lower bound only: large values are unguarded")
                .containsEntry(12, "the clamps 'c < 0.0f' (line 10) and 'm < c' (line 11)")
                .containsEntry(16, "none")
                // the divisor's lower bound limits no side of the quotient (session 57: a ray tracer's colours)
                .containsEntry(20, "the test 'm < 1.0f' (line 19) on the divisor");
    }

    /**
     * An early exit for one side and a clamp or another exit for the other, before any other write, bound both sides
     * (session 73: a renderer's fog factor, "an upper bound only" under 'if (f <= 0) return').
     */
    @Test
    void anEarlyExitAndAClampTogetherBoundBothSides() throws Exception {
        ClangUnit u = parse(
                "e.c",
                """
                unsigned char exit_clamp(float f) {
                    if (f <= 0.0f) return 0;
                    if (f > 1.0f) f = 1.0f;
                    return (unsigned char)(f * 200.0f);
                }
                unsigned char two_exits(float f) {
                    if (f <= 0.0f) return 0;
                    if (f > 1.0f) return 1;
                    return (unsigned char)(f * 200.0f);
                }
                unsigned char rewritten(float f, float g) {
                    if (f <= 0.0f) return 0;
                    f = f * g;
                    if (f > 1.0f) f = 1.0f;
                    return (unsigned char)(f * 200.0f);
                }
                """,
                ClangFrontEnd.Language.C);
        java.util.Map<Integer, String> guards = new java.util.TreeMap<>();
        for (ClangUnit.Conversion c : u.conversions()) guards.put(c.node().line, c.guarded() ? c.guard() : "none");
        assertThat(guards)
                .containsEntry(
                        4,
                        "the bounds of the early 'return' under 'f <= 0.0f' (line 2) and the test 'f > 1.0f'"
                                + " (line 3)")
                .containsEntry(
                        9,
                        "the bounds of the early 'return' under 'f <= 0.0f' (line 7) and the early 'return'"
                                + " under 'f > 1.0f' (line 8)")
                // a write between the two: the exit's bound is gone
                .containsEntry(
                        15, "the test 'f > 1.0f' (line 14), an upper bound only: the negative side is unguarded");
    }

    /** A min or max call bounds one side unless an argument is bounded too (session 61: "limited by min()"). */
    @Test
    void minAndMaxCallsNameTheSideTheyLeaveOpen() throws Exception {
        ClangUnit u = parse(
                "m.c",
                """
                #include <math.h>
                unsigned char upper(float x) { return (unsigned char)(fminf(1.0f, x) * 255.0f); }
                unsigned char lower(float x) { return (unsigned char)(fmaxf(x, 0.0f) * 255.0f); }
                unsigned char both(float x, float m) { return (unsigned char)(fminf(m, fmaxf(x, 0.0f))); }
                unsigned char tested(float x, float m) {
                    if (x < 0.0f) return 0;
                    return (unsigned char)(fminf(m, x));
                }
                """,
                ClangFrontEnd.Language.C);
        java.util.Map<Integer, String> guards = new java.util.TreeMap<>();
        for (ClangUnit.Conversion c : u.conversions()) guards.put(c.node().line, c.guarded() ? c.guard() : "none");
        assertThat(guards)
                .containsEntry(2, "fminf(), an upper bound only: the negative side is unguarded")
                .containsEntry(3, "fmaxf(), a lower bound only: large values are unguarded")
                .containsEntry(4, "fminf()")
                .containsEntry(7, "fminf()");
    }

    /**
     * A test's guard says which side it leaves open where it came out as it did: the branch where {@code t >= 60.}
     * held bounds from below, the other from above; an early exit past {@code t < 0} from below; both sides, none
     * (session 61 round D: an else branch's notes named the test as if it bounded both sides); both sides through an
     * else-if chain.
     */
    @Test
    void testsNameTheSideTheyLeaveOpen() throws Exception {
        ClangUnit u = parse(
                "t.c",
                """
                unsigned f(double t) {
                    if (t >= 60.) return (unsigned) t;
                    else return (unsigned) (t * 2);
                }
                unsigned g(double t) {
                    if (t < 0) return 0;
                    return (unsigned) t;
                }
                unsigned h(double t) {
                    if (t >= 0 && t < 60) return (unsigned) t;
                    return 0;
                }
                unsigned char k(float x, float w, float s) {
                    if (x < 0)
                        return 0;
                    else if (x >= w)
                        return 255;
                    else
                        return (unsigned char)(x * s);
                }
                """,
                ClangFrontEnd.Language.C);
        java.util.Map<Integer, String> guards = new java.util.TreeMap<>();
        for (ClangUnit.Conversion c : u.conversions()) guards.put(c.node().line, c.guarded() ? c.guard() : "none");
        assertThat(guards)
                .containsEntry(2, "the test 't >= 60.' (line 2), a lower bound only: large values are unguarded")
                .containsEntry(3, "the test 't >= 60.' (line 2), an upper bound only: the negative side is unguarded")
                .containsEntry(
                        7, "the early 'return' under 't < 0' (line 6), a lower bound only: large values are unguarded")
                .containsEntry(10, "the test 't >= 0 && t < 60' (line 10)")
                // an else-if chain: the inner test bounds one side, the outer the other (session 68 round B)
                .containsEntry(19, "the test 'x >= w' (line 16) and the test 'x < 0' (line 14)");
    }

    /** NL014 on the Clang path: a local initialised with a round literal and used only as a floor is a tolerance. */
    @Test
    void aLocalUsedOnlyAsAFloorIsATolerance() throws Exception {
        ClangUnit u = parse(
                "t.c",
                """
                double floored(double v, double num, double den)
                {
                    const double floor_v = 1e-10f;
                    if (v < floor_v) {
                        v = floor_v;
                    }
                    double q = num / (den + 1e-10f);
                    return v + q;
                }
                """,
                ClangFrontEnd.Language.C);
        assertThat(u.widenedLiterals().stream()
                        .map(w -> w.node().line + " "
                                + dev.numlint.cuda.checks.FloatLiteralInDouble.tolerance(
                                        new dev.numlint.cuda.facts.FunctionFacts.WidenedLiteral(
                                                null,
                                                w.literal(),
                                                u.text(w.node()),
                                                w.target(),
                                                u.text(w.in().node()))))
                        .toList())
                .containsExactly("3 a threshold in a comparison (as 'floor_v')", "7 a guard in a denominator");
    }

    /** NL014's fact on the Clang path: a float literal widened to double that reaches a double target. */
    @Test
    void floatLiteralsWidenedToADoubleTargetAreFound() throws Exception {
        ClangUnit u = parse(
                "w.c",
                """
                double scale(double x, float y, float *out)
                {
                    double d = 0.1f;
                    double e = x * -0.7f;
                    d *= 0.3f;
                    out[0] = y * 0.1f;
                    out[1] = (float)(x * 0.1f);
                    double h = x * 0.5f;
                    return d + e + h + (double)0.2f;
                }
                """,
                ClangFrontEnd.Language.C);
        assertThat(u.widenedLiterals().stream()
                        .map(w -> w.node().line + " " + w.literal() + " " + w.target())
                        .toList())
                .containsExactly(
                        "3 0.1f initialization of 'd'",
                        "4 -0.7f initialization of 'e'",
                        "5 0.3f assignment to 'd'",
                        "9 0.2f the returned value");
    }

    /**
     * Session 12 evaluation (a false NL003 "one ulp can flip 'psurfx == FLT_MAX'"): an equality test against the
     * sentinel a value starts from is no comparison an ulp decides, on the Clang path as on the hand-written one.
     */
    @Test
    void anEqualityTestAgainstASentinelIsNoComparisonUse() throws Exception {
        ClangUnit u = parse(
                "s.c",
                """
                #include <float.h>
                float nearest(const float *a, const float *b, const float *c, float lim)
                {
                    float d = a[0] * b[0] + c[0];
                    if (d == FLT_MAX) return -1.0f;
                    float e = a[1] * b[1] + c[1];
                    if (e == lim) return 1.0f;
                    float g = a[2] * b[2] + c[2];
                    if (g != -FLT_MAX) return 2.0f;
                    float h = a[3] * b[3] + c[3];
                    if (FLT_MAX == h) return 3.0f;
                    return 0.0f;
                }
                """,
                ClangFrontEnd.Language.C);
        java.util.Map<Integer, List<dev.numlint.cuda.facts.ValueUse.Kind>> kinds = new java.util.TreeMap<>();
        for (ClangSites.Contraction c : u.contractions()) {
            kinds.put(
                    c.node().line,
                    u.uses(c.node(), c.in()).stream()
                            .map(dev.numlint.cuda.facts.ValueUse::kind)
                            .toList());
        }
        assertThat(kinds).containsOnlyKeys(4, 6, 8, 10);
        assertThat(kinds.get(4)).doesNotContain(dev.numlint.cuda.facts.ValueUse.Kind.COMPARISON);
        assertThat(kinds.get(6)).contains(dev.numlint.cuda.facts.ValueUse.Kind.COMPARISON);
        assertThat(kinds.get(8)).doesNotContain(dev.numlint.cuda.facts.ValueUse.Kind.COMPARISON);
        assertThat(kinds.get(10)).doesNotContain(dev.numlint.cuda.facts.ValueUse.Kind.COMPARISON);
    }

    /**
     * Session 10 evaluation (niftyreg's regularisation gradients): in a template pattern Clang evaluates nothing but
     * literals, so a loop from -1 to 1 had an unknown trip count and a 9-term sum, reset by memset, still "grew with
     * n". Negated literals in loop bounds are read without Clang's evaluation.
     */
    @Test
    void loopBoundsInATemplatePatternAreReadFromTheirLiterals() throws Exception {
        ClangUnit u = parse(
                "g.cpp",
                """
                #include <string.h>
                template <class T>
                void gradient(const T *w, T *out, int count)
                {
                    T g[3];
                    for (int t = 0; t < count; t++) {
                        memset(g, 0, sizeof(g));
                        for (int a = -1; a < 2; ++a)
                            for (int b = -1; b <= +1; ++b)
                                g[0] += w[t + a * 3 + b];
                        out[t] = g[0];
                    }
                }
                template void gradient<float>(const float *, float *, int);
                """,
                ClangFrontEnd.Language.CXX);
        ClangLoops.Carried c = u.carriedBy(10, 0, "g[0]");
        assertThat(c).isNotNull();
        assertThat(c.resetLine()).isEqualTo(7);
        assertThat(c.trip()).isEqualTo(9);
    }

    @Test
    void aFileWithErrorsIsAnalyzedInWhatClangRecoveredAndNamesTheFirstError() throws Exception {
        ClangUnit u = parse(
                "broken.cpp",
                """
                #include "missing_header.h"
                unsigned f(float x) { return (unsigned)x; }
                int g() { return 1 +; }
                unsigned h(double y) { return (unsigned short)y; }
                """,
                ClangFrontEnd.Language.CXX);
        assertThat(u.errors()).isPositive();
        assertThat(u.firstError()).startsWith("line 1: ").contains("missing_header.h");
        assertThat(u.conversions())
                .filteredOn(ClangUnit.Conversion::explicit)
                .extracting(c -> c.node().line)
                .containsExactly(2, 4);
    }

    @Test
    void includesThatLeaveTheTreeAreRefused() throws Exception {
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, null, null);
        Path f = dir.resolve("a.c");
        assertThat(fe.refusal(f, "#include \"/etc/passwd\"\n".getBytes(StandardCharsets.UTF_8)))
                .contains("absolute path");
        assertThat(fe.refusal(f, "#include \"../../x.h\"\n".getBytes(StandardCharsets.UTF_8)))
                .contains("climbs out");
        assertThat(fe.refusal(f, "#define H \"/etc/passwd\"\n#include H\n".getBytes(StandardCharsets.UTF_8)))
                .contains("computed");
        assertThat(fe.refusal(f, "#include <stdio.h>\n#include \"local.h\"\n".getBytes(StandardCharsets.UTF_8)))
                .isNull();
        // an absolute path inside the tree (CMake's configure_file writes @CMAKE_SOURCE_DIR@ into generated units)
        Files.writeString(dir.resolve("inside.h"), "typedef float real;\n");
        String inside = "#include \"" + dir.resolve("inside.h").toAbsolutePath().normalize() + "\"\n";
        assertThat(fe.refusal(f, inside.getBytes(StandardCharsets.UTF_8))).isNull();
        assertThat(fe.refusal(
                        f,
                        ("#include \"" + dir.resolve("sub/../../x.h").toAbsolutePath() + "\"\n")
                                .getBytes(StandardCharsets.UTF_8)))
                .contains("absolute path outside the scanned tree");
    }

    @Test
    void aCastOfFloatingMathInATemplateNotInstantiatedHereIsFloating() throws Exception {
        // MOQUI mqi_beamsource.hpp:138: the message named "type-parameter-0-0 (template)"
        ClangUnit u = parse(
                "beam.cpp",
                """
                #include <cmath>
                #include <cstddef>
                template <typename R>
                struct source {
                    size_t row(R ratio, R h0) const { return (size_t)std::floor((1.0 - ratio) * h0); }
                };
                """,
                ClangFrontEnd.Language.CXX);
        assertThat(u.conversions())
                .filteredOn(ClangUnit.Conversion::explicit)
                .extracting(c -> c.node().line + ":" + c.from() + ":" + c.to())
                .containsExactly("5:floating (template):unsigned long");
    }

    @Test
    void anIncludeDirectoryTheUserNamesIsTrustedAsForNvccOneTheTreeNamesIsNot() throws Exception {
        // maos (session 43): --nvcc-flags "-I<cuSPARSE headers>" reached nvcc, not Clang, whose types were then unknown
        Path root = Files.createDirectories(dir.resolve("tree"));
        Path pkg = Files.createDirectories(dir.resolve("pkg/include"));
        Files.writeString(pkg.resolve("cusparse.h"), "typedef struct S *cusparseHandle_t;\n");
        ClangFrontEnd fe = ClangFrontEnd.forTest(root, null, null);
        Path f = root.resolve("k.cu");
        BuildContext bc = BuildContext.defaults().addNvccFlag("-I" + pkg);
        assertThat(fe.arguments(f, ClangFrontEnd.Language.CUDA, bc)).doesNotContain("-I" + pkg.toRealPath());
        fe.userIncludeDirs(List.of("-I", pkg.toString()));
        assertThat(fe.arguments(f, ClangFrontEnd.Language.CUDA, bc))
                .contains("-I" + pkg.toAbsolutePath().normalize());
        // a header found there is the compiler's: not followed, not refused
        byte[] text = "#include <cusparse.h>\n".getBytes(StandardCharsets.UTF_8);
        assertThat(ClangIncludeClosure.refusal(root, f, text, fe.arguments(f, ClangFrontEnd.Language.CUDA, bc)))
                .isNull();
    }

    @Test
    void theProjectRootAboveTheScannedTreeIsAnIncludeDirectoryThatReachesOnlyTheTree() throws Exception {
        // MOQUI: the build's -I<project root> finds <moqui/base/x.hpp>; the scan's root is moqui/ below it
        Path project = Files.createDirectories(dir.resolve("proj"));
        Path root = Files.createDirectories(project.resolve("moqui"));
        Files.createDirectories(project.resolve("other"));
        Files.writeString(root.resolve("common.hpp"), "#define DEV __device__\n");
        Files.writeString(project.resolve("other/secret.h"), "int secret;\n");
        ClangFrontEnd fe = ClangFrontEnd.forTest(root, null, null);
        Path f = root.resolve("k.hpp");
        List<String> args = fe.arguments(
                f, ClangFrontEnd.Language.CXX, BuildContext.defaults().addIncludePath(project));
        assertThat(args).contains("-I" + project);
        byte[] ok = "#include <moqui/common.hpp>\n".getBytes(StandardCharsets.UTF_8);
        assertThat(ClangIncludeClosure.refusal(root, f, ok, args)).isNull();
        byte[] out = "#include <moqui/common.hpp>\n#include <other/secret.h>\n".getBytes(StandardCharsets.UTF_8);
        assertThat(ClangIncludeClosure.refusal(root, f, out, args)).contains("leads outside the scanned tree");
        // the file system's root is never an include directory of the tree
        assertThat(ClangFrontEnd.aboveRoot(root, Path.of("/"))).isFalse();
    }

    @Test
    void localsEveryStoreKeepsNonNegativeAreNeverNegative() throws Exception {
        ClangUnit u = parse(
                "signs.c",
                """
                float f(int n, const float *x, float c) {
                    float s = 0, big = 0, d, a, t = 0, m = 0, q = 0;
                    int k = 0;
                    for (int i = 0; i < n; ++i) {
                        a = fabsf(x[i]);
                        if (a > big) { d = big / a; s = 1 + s * (d * d); big = a; }
                        else { d = a / big; s += d * d; }
                        t += x[i];
                        m = fmaxf(m, x[i]);
                        q -= a;
                        k++;
                    }
                    float r = 0;
                    g(&r);
                    return s + t + m + q + r + k;
                }
                """,
                ClangFrontEnd.Language.C);
        assertThat(u.neverNegative(6, "s")).isTrue(); // 0, 1 + s*(d*d), += d*d with d a quotient of |x| values
        assertThat(u.neverNegative(6, "d")).isTrue();
        assertThat(u.neverNegative(6, "big")).isTrue();
        assertThat(u.neverNegative(8, "t")).isFalse(); // += x[i]: either sign
        assertThat(u.neverNegative(9, "m")).isTrue(); // fmaxf of a non-negative value
        assertThat(u.neverNegative(10, "q")).isFalse(); // -= subtracts
        assertThat(u.neverNegative(11, "k")).isTrue(); // 0 and ++
        assertThat(u.neverNegative(14, "r")).isFalse(); // its address is taken
        assertThat(u.neverNegative(6, "x")).isFalse(); // a parameter
    }

    @Test
    void aHostUnitsIncludeDirectoryInTheToolkitReachesClang() throws Exception {
        // a host .cpp of a CUDA project includes <cuda.h> (the driver API: CUdeviceptr, CUfunction) through its
        // compile command's -I of the toolkit: the toolkit's headers are the compiler's own
        Path include = Path.of("/usr/local/cuda/targets/x86_64-linux/include");
        assumeTrue(Files.isRegularFile(include.resolve("cuda.h")));
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        List<String> args = fe.arguments(
                dir.resolve("host.cpp"),
                ClangFrontEnd.Language.CXX,
                BuildContext.defaults().addIncludePath(include));
        assertThat(args).contains("-I" + include.toAbsolutePath().normalize());
        // without a toolkit, the same directory is outside the tree and not given
        List<String> none = ClangFrontEnd.forTest(dir, null, null)
                .arguments(
                        dir.resolve("host.cpp"),
                        ClangFrontEnd.Language.CXX,
                        BuildContext.defaults().addIncludePath(include));
        assertThat(none).doesNotContain("-I" + include.toAbsolutePath().normalize());
    }

    @Test
    void aBuildsPackageIncludeDirectoryReachesClangAndOtherOutsideDirectoriesDoNot() throws Exception {
        Path mpi = Path.of("/usr/lib/x86_64-linux-gnu/openmpi/include");
        assumeTrue(Files.isDirectory(mpi), "needs libopenmpi-dev");
        Path f = dir.resolve("m.cu");
        Files.writeString(f, "__global__ void k() {}\n");
        Path outside = Files.createDirectories(dir.getParent().resolve(dir.getFileName() + "-outside"));
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        BuildContext bc = BuildContext.defaults()
                .addNvccFlag("-I" + mpi)
                .addNvccFlag("-I" + outside)
                .addNvccFlag("-I/etc");
        List<String> args = fe.arguments(f, ClangFrontEnd.Language.CUDA, bc);
        assertThat(args).contains("-I" + mpi).doesNotContain("-I" + outside, "-I/etc");
        // a subdirectory of /usr/include (HDF5's serial headers) is the system's header tree too
        Path hdf5 = Path.of("/usr/include/hdf5/serial");
        if (Files.isDirectory(hdf5)) {
            assertThat(fe.arguments(
                            f,
                            ClangFrontEnd.Language.CUDA,
                            BuildContext.defaults().addNvccFlag("-I" + hdf5)))
                    .contains("-I" + hdf5);
        }
    }

    /**
     * A forced include of the tree (specfem2d's {@code -include src/gpu/mesh_constants_cuda.h} for {@code realw})
     * reaches Clang in both forms: {@code -include FILE} as written, and {@code -include=FILE}, the one token the
     * build's flag interpreter writes when it resolves the path (before, that form was dropped and every unit lacked
     * the prelude's types).
     */
    @Test
    void aForcedIncludeReachesClangInBothForms() throws Exception {
        Path prelude = dir.resolve("prelude.h");
        Files.writeString(prelude, "typedef float realw;\n");
        Path f = dir.resolve("k.cu");
        Files.writeString(f, "__global__ void k(realw *a, unsigned *o) { o[0] = (unsigned)a[0]; }\n");
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        for (BuildContext bc : List.of(
                BuildContext.defaults().addNvccFlag("-include=" + prelude),
                BuildContext.defaults().addNvccFlag("-include").addNvccFlag(prelude.toString()))) {
            List<String> args = fe.arguments(f, ClangFrontEnd.Language.CUDA, bc);
            assertThat(args).containsSubsequence("-include", prelude.toString());
        }
    }

    /**
     * Session 26's defect 9: for every accumulation site, every loop around it and every name in each integral step
     * of that loop, the grid-stride test walked the whole function again (hypre's scan sat in it). A loop of 300
     * sums and 300 integral steps now takes well under the per-file budget; the answer is the same.
     */
    @Test
    void theGridStrideTestOfManySumsInOneLoopIsNotQuadratic() throws Exception {
        StringBuilder b = new StringBuilder("__global__ void k(const float *a, float *o, int n, int w) {\n"
                + "  int g = blockDim.x * gridDim.x; int i = threadIdx.x; float s = 0.0f;\n  while (i < n) {\n");
        int m = 300;
        for (int j = 0; j < m; j++)
            b.append("    int q").append(j).append(" = w + ").append(j).append(";\n");
        for (int j = 0; j < m; j++) b.append("    s += a[i + ").append(j).append("];\n");
        for (int j = 0; j < m; j++) b.append("    i += q").append(j).append(";\n");
        b.append("    i += g;\n  }\n  o[0] = s;\n}\n");
        ClangUnit u = parse("stride.cu", b.toString(), ClangFrontEnd.Language.CUDA);
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long t0 = mx.getCurrentThreadCpuTime();
        List<ClangSites.Sum> sums = u.sums();
        long ms = (mx.getCurrentThreadCpuTime() - t0) / 1_000_000L;
        assertThat(sums).hasSize(m).allMatch(ClangSites.Sum::gridStride);
        assertThat(ms).as("CPU ms of the sums").isLessThan(3_000);
    }

    /**
     * Session 26's defect 2: nvcc defines {@code __CUDACC_RELAXED_CONSTEXPR__} and {@code __CUDACC_EXTENDED_LAMBDA__}
     * for {@code --expt-relaxed-constexpr} and {@code --extended-lambda}; Clang was given the flags' command without
     * them, so TNL's {@code #if !defined(__CUDACC_EXTENDED_LAMBDA__) #error} stopped every CUDA unit.
     */
    @Test
    void nvccsFeatureFlagsReachClangAsTheMacrosNvccDefines() throws Exception {
        Path f = dir.resolve("k.cu");
        Files.writeString(
                f,
                """
                #if !defined(__CUDACC_RELAXED_CONSTEXPR__) || !defined(__CUDACC_EXTENDED_LAMBDA__)
                #error "requires --expt-relaxed-constexpr --extended-lambda"
                #endif
                __global__ void k(float *a) { auto l = [] __device__ (float x) { return x * 2.0f; }; a[0] = l(a[0]); }
                """);
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        for (List<String> flags : List.of(
                List.of("--expt-relaxed-constexpr", "--extended-lambda"),
                List.of("-expt-relaxed-constexpr", "--expt-extended-lambda"),
                List.of("--expt-relaxed-constexpr", "-extended-lambda"))) {
            BuildContext bc = BuildContext.defaults();
            for (String fl : flags) bc = bc.addNvccFlag(fl);
            List<String> args = fe.arguments(f, ClangFrontEnd.Language.CUDA, bc);
            assertThat(args).contains("-D__CUDACC_RELAXED_CONSTEXPR__", "-D__CUDACC_EXTENDED_LAMBDA__");
            ClangUnit u = ClangParser.parse(f, args, Files.readAllBytes(f));
            assertThat(u.errors())
                    .as("Clang's errors, the first: %s", u.firstError())
                    .isZero();
        }
        // without the flags, nvcc defines neither
        assertThat(fe.arguments(f, ClangFrontEnd.Language.CUDA, BuildContext.defaults()))
                .doesNotContain("-D__CUDACC_RELAXED_CONSTEXPR__", "-D__CUDACC_EXTENDED_LAMBDA__");
    }

    @Test
    void cudaLibrariesOfTheToolkitParseUnderNvccsMacros() throws Exception {
        // -D__NVCC__ makes CCCL (cooperative groups, Thrust, CUB) read nvcc's version macros: without them it took
        // the compiler for a CUDA below 12 and stopped at its #error
        assumeTrue(Files.isDirectory(Path.of("/usr/local/cuda/include/cccl/cuda/std")), "a toolkit with CCCL");
        // what is tested is Clang's reading, not its speed: the per-file wall budget (20 s) ran out on a loaded machine
        String budget = System.getProperty("numlint.clang.fileBudgetMs");
        System.setProperty("numlint.clang.fileBudgetMs", "600000");
        ClangUnit u;
        try {
            u = parse(
                    "cg.cu",
                    """
                #include <cooperative_groups.h>
                #include <thrust/device_vector.h>
                #include <thrust/reduce.h>
                namespace cg = cooperative_groups;
                __global__ void k(float *x) { cg::this_thread_block().sync(); x[0] = 1.0f; }
                float total(thrust::device_vector<float> &v) { return thrust::reduce(v.begin(), v.end()); }
                """,
                    ClangFrontEnd.Language.CUDA);
        } finally {
            if (budget == null) System.clearProperty("numlint.clang.fileBudgetMs");
            else System.setProperty("numlint.clang.fileBudgetMs", budget);
        }
        assertThat(u.errors())
                .as("Clang's errors, the first: %s", u.firstError())
                .isZero();
    }

    @Test
    void aCallFromAMacroArgumentIsQuotedWithTheLineThatInvokesTheMacro() throws Exception {
        // mumax3's reductions: the atomic's extent runs from the argument 'atomicAdd' to the invocation's ')'
        ClangUnit u = parse(
                "reduce.cu",
                """
                #define reduce(atomicOp) \\
                    if (threadIdx.x == 0) { atomicOp(dst, part[0]); }
                __global__ void sum(float *dst, const float *part) {
                    reduce(atomicAdd);
                }
                __global__ void plain(float *dst, const float *part) { atomicAdd(dst, part[1]); }
                """,
                ClangFrontEnd.Language.CUDA);
        assertThat(u.atomics()).hasSize(2);
        assertThat(u.text(u.atomics().get(0).node())).isEqualTo("atomicAdd)");
        assertThat(u.quoted(u.atomics().get(0).node())).isEqualTo("reduce(atomicAdd)");
        assertThat(u.quoted(u.atomics().get(1).node())).isEqualTo("atomicAdd(dst, part[1])");
    }

    /**
     * A division of a pack's element in a variadic template: the instantiation's argument for the pack is no type
     * (null), which a division's floating test read as a type (session 72 round E: an internal error on a CUB header).
     */
    @Test
    void aPackArgumentIsNoFloatTypeOfADivision() throws Exception {
        ClangUnit u = parse(
                "pack.cpp",
                "template <typename... Ts> float f(Ts... xs) { float s = 0; ((s += xs / 2), ...); return s; }\n"
                        + "float g() { return f(1.0f, 2); }\n",
                ClangFrontEnd.Language.CXX);
        assertThat(u.divisions()).isNotNull();
    }

    /**
     * A clamp helper of a header built of the header's own min and max templates (x265's {@code x265_clip3(minVal,
     * maxVal, a) = x265_min(x265_max(minVal, a), maxVal)}) is summarised with its lower bound and clamped value
     * swappable: its min and max are read before it (session 75 round B, found when the rescan of x265 kept its
     * warnings while a fixture whose header was a unit of the parse passed).
     */
    @Test
    void aHeadersClampHelperOfItsOwnMinAndMaxIsSummarised() throws Exception {
        Files.createDirectories(dir.resolve("common"));
        Files.writeString(
                dir.resolve("common/common.h"),
                """
                #pragma once
                template<typename T> inline T x265_min(T a, T b) { return a < b ? a : b; }
                template<typename T> inline T x265_max(T a, T b) { return a > b ? a : b; }
                template<typename T> inline T x265_clip3(T minVal, T maxVal, T a) { return x265_min(x265_max(minVal, a), maxVal); }
                """);
        ClangUnit u = parse(
                "rc.cpp",
                "#include \"common/common.h\"\nint qp(double q) { return x265_clip3(0, 51, (int)(q + 0.5)); }\n",
                ClangFrontEnd.Language.CXX);
        assertThat(ClangHeaderHelpers.of(u)).containsEntry("x265_min", "min").containsEntry("x265_max", "max");
        assertThat(ClangHeaderHelpers.of(u).get("x265_clip3")).isEqualTo("clamp 0 1 2");
    }
}
