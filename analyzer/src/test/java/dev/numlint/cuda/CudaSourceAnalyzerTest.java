package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.testing.InlineExpectations;
import dev.numlint.testing.TestScanContext;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CudaSourceAnalyzerTest {
    private static Path fixtures(String sub) throws URISyntaxException {
        return Path.of(CudaSourceAnalyzerTest.class
                .getResource("/fixtures/cuda/" + sub)
                .toURI());
    }

    private static TestScanContext scan(String sub, BuildContext bc) throws URISyntaxException {
        return new TestScanContext(fixtures(sub)).projectContext(bc).run(new CudaSourceAnalyzer());
    }

    /**
     * A scan of the named files of the default fixture tree, copied into {@code dir}: the message tests read one or two
     * files, and a scan of the whole tree (about 270 files) cost 30 s of the build; FixtureTest scans the tree.
     */
    private static TestScanContext scanDefault(Path dir, String... names) throws Exception {
        for (String name : names) {
            Files.copy(fixtures("default").resolve(name), dir.resolve(name));
        }
        return new TestScanContext(dir).projectContext(BuildContext.defaults()).run(new CudaSourceAnalyzer());
    }

    // The fixtures' inline expectations are checked by the one fixture runner, dev.numlint.fixtures.FixtureTest;
    // the tests here check what expectations cannot say (messages, related locations, notifications, API).

    @Test
    void aConsequenceWithoutDecisionIsStatedInTheIdentity(@TempDir Path dir) throws Exception {
        // the scan replaces what the producer states, never a phrase it finds in the message (LayerMerge)
        java.nio.file.Files.writeString(
                dir.resolve("k.cu"),
                String.join(
                        "\n",
                        "__global__ void k(float* out, const float* a, const float* b, int* idx) {",
                        "  out[0] = __fdividef(a[0], b[0]);",
                        "  idx[0] = (int)__fdividef(a[1], b[1]);",
                        "  out[1] = a[2] / b[2];",
                        "}",
                        ""));
        BuildContext bc =
                BuildContext.defaults().fastMath(true).addOrigin("--use_fast_math", Location.line("CMakeLists.txt", 1));
        TestScanContext ctx = new TestScanContext(dir).projectContext(bc).run(new CudaSourceAnalyzer());
        java.util.Map<Integer, Finding> byLine = ctx.findings().stream()
                .filter(f -> f.ruleId().equals("NL002"))
                .collect(Collectors.toMap(f -> f.location().startLine(), f -> f, (x, y) -> x));
        // the intrinsic written by name, only stored: a note whose consequence the PTX layer may still replace
        String chosen = dev.numlint.rules.RuleCatalog.get().phrase("chosen-by-name", "message", "only stored (line 2)");
        assertThat(byLine.get(2).identity().consequence()).isEqualTo(chosen);
        assertThat(byLine.get(2).message()).contains(chosen);
        assertThat(byLine.get(2).level()).isEqualTo(dev.numlint.model.Level.NOTE);
        // a consequence that is a decision (the int conversion) is not replaceable
        assertThat(byLine.get(3).identity().consequence()).isNull();
        String stored = dev.numlint.rules.RuleCatalog.get().phrase("use-stored", "line", 4);
        assertThat(byLine.get(4).identity().consequence()).isEqualTo(stored);
        assertThat(byLine.get(4).message()).contains(stored);
    }

    /** A cast of a call in a macro's body is quoted as the body reads, not by the macro's name (session 62). */
    @Test
    void aCastOfACallInAMacrosBodyIsQuotedAsTheBodyReads(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("m.c"),
                String.join(
                        "\n",
                        "#include <math.h>",
                        "#define SLOT(ANG) { const float h1 = (ANG) * 256.f; n = (unsigned int)floorf(h1) & 255u; }",
                        "unsigned slot(float ang) {",
                        "    unsigned n;",
                        "    SLOT(ang);",
                        "    return n;",
                        "}",
                        ""));
        TestScanContext ctx =
                new TestScanContext(dir).projectContext(BuildContext.defaults()).run(new CudaSourceAnalyzer());
        assertThat(ctx.findings())
                .filteredOn(f -> f.ruleId().equals("NL001"))
                .extracting(Finding::message)
                .singleElement()
                .asString()
                .startsWith("'(unsigned int)floorf(h1)'");
    }

    /**
     * A cast inside another macro's argument whose operand is a macro's use is quoted as written, and so is the test in
     * that macro's body that bounds it (session 65: libtiff's {@code REPEAT(stride, wp[0] = (uint16_t)CLAMP(ip[0]))}
     * was quoted {@code '(uint16_t)()'}, "limited by the test ''": libclang maps the ends of the inner macro's code to
     * its name, {@link dev.numlint.cuda.clang.ClangNestedMacros}).
     */
    @Test
    void aCastInsideAnotherMacrosArgumentIsQuotedAsWritten(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("n.c"),
                String.join(
                        "\n",
                        "#define REPEAT(n, op) { int i_ = n; do { i_--; op; } while (i_ > 0); }",
                        "#define CLAMP(v) ((v) < 0.f ? 0.f : (v))",
                        "#define SCALE(v) ((v) * 2.0f)",
                        "void conv(unsigned short *wp, const float *ip, int stride) {",
                        "    REPEAT(stride, wp[0] = (unsigned short)CLAMP(ip[0]); wp++; ip++)",
                        "    REPEAT(stride, wp[0] = (unsigned short)SCALE(ip[0]); wp++; ip++)",
                        "}",
                        ""));
        TestScanContext ctx =
                new TestScanContext(dir).projectContext(BuildContext.defaults()).run(new CudaSourceAnalyzer());
        java.util.Map<Integer, String> byLine = ctx.findings().stream()
                .filter(f -> f.ruleId().equals("NL001"))
                .collect(Collectors.toMap(f -> f.location().startLine(), Finding::message));
        assertThat(byLine.get(5))
                .startsWith("'(unsigned short)CLAMP(ip[0])'")
                .contains("the test '(ip[0]) < 0.0' in 'CLAMP(ip[0])' (line 5)");
        assertThat(byLine.get(6)).startsWith("'(unsigned short)SCALE(ip[0])'");
    }

    /**
     * An unguarded conversion names the terms nothing bounds from below, not only the example value (session 63: four
     * reviewers read "-69.235 gives ..." next to a sample rate as a claim that the rate can be negative); a term a macro
     * body holds is not named (its text is the invocation's), and a term bounded below is left out.
     */
    @Test
    void anUnguardedConversionNamesTheTermsNothingBoundsFromBelow(@TempDir Path dir) throws Exception {
        java.util.Map<Integer, String> byLine = nl001ByLine(
                dir,
                "o.c",
                "#include <math.h>",
                "struct S { double rate; };",
                "unsigned int f(double rate) { return (unsigned int)(rate * 2.0); }",
                "unsigned int g(const struct S *s, double k) { return (unsigned int)(s->rate * fabs(k)); }",
                "",
                "#define SCALED (gain * 2.0)",
                "unsigned int h(double gain) { return (unsigned int)SCALED; }",
                "unsigned int p(unsigned hz, float ppm) { return (unsigned int)((float)hz * (1.0f - ppm / 1e6f)); }",
                "unsigned int q(float base, float off) { return (unsigned int)(base - off * 2.0f); }",
                "unsigned int r(float base, float off) { return (unsigned int)(base + off * -2.0f); }",
                "");
        // a term that enters negated makes the operand negative when it is large, not when it is low (session 75
        // round D: "nothing bounds 'ppm' below" of a frequency correction)
        assertThat(byLine.get(8)).doesNotContain("'ppm'").contains("-69.235 gives 4294967227");
        assertThat(byLine.get(9)).contains("nothing bounds 'base' below:").doesNotContain("'off'");
        assertThat(byLine.get(10)).contains("nothing bounds 'base' below:").doesNotContain("'off'");
        assertThat(byLine.get(3))
                .contains("nothing bounds 'rate' below: e.g. -69.235 gives 4294967227 on x86, 0 on AArch64");
        assertThat(byLine.get(4)).contains("nothing bounds 's->rate' below:").doesNotContain("'k'");
        assertThat(byLine.get(7)).doesNotContain("nothing bounds").contains("-69.235 gives 4294967227");
    }

    /**
     * A factor that the operand only squares is not named (session 71 round D: an audio plugin's {@code
     * (age*age*(float)RAND_MAX)/10 + click * 0.02 * RAND_MAX} said "nothing bounds 'age' and 'click' below").
     */
    @Test
    void aSquaredFactorIsNotATermNothingBoundsFromBelow(@TempDir Path dir) throws Exception {
        java.util.Map<Integer, String> byLine = nl001ByLine(
                dir,
                "v.c",
                "unsigned int p(float year, float click) {",
                "    const float age = (2000 - year) * 0.01f;",
                "    return (age * age * 32767.0f) / 10 + click * 0.02 * 32767;",
                "}",
                "");
        assertThat(byLine.get(3)).contains("nothing bounds 'click' below").doesNotContain("'age'");
    }

    /**
     * An operand bounded below at -1 or lower is not one "nothing bounds": its least value is the example (session 66
     * round D: {@code float N = n - 1.0} of an unsigned {@code n} was "nothing bounds 'N' below: -69.235 gives ...");
     * an int's own range is no bound, and a term of one is still named.
     */
    @Test
    void anOperandBoundedBelowGivesItsLeastValueAsTheExample(@TempDir Path dir) throws Exception {
        java.util.Map<Integer, String> byLine = nl001ByLine(
                dir,
                "w.c",
                "void chebyshev(unsigned n, float *dest) {",
                "    float N = n - 1.0;",
                "    dest[(unsigned)N] = 1.0f;",
                "}",
                "unsigned short half(unsigned char c) { float x = c - 100.0f; return (unsigned short)x; }",
                "unsigned scaled(int k) { float x = k; return (unsigned)(x * 2.0f); }",
                "");
        assertThat(byLine.get(3))
                .contains("as low as -1: -1 gives 4294967295 on x86, 0 on AArch64")
                .doesNotContain("nothing bounds");
        assertThat(byLine.get(5)).contains("as low as -100: -100 gives 65436 on x86");
        // x holds an int: whole numbers, so the example is -1, not a fraction (session 85)
        assertThat(byLine.get(6)).contains("nothing bounds 'x' below: e.g. -1 gives 4294967295 on x86");
    }

    /**
     * Integer data held in a floating local gets a whole example (session 84 round AD: {@code double numPixels = rows
     * * cols * channels} converted to {@code size_t} was "-69.235 gives ...", a value it never takes); a fraction of it
     * keeps -69.235.
     */
    @Test
    void integerDataInADoubleGetsMinusOneAsTheExample(@TempDir Path dir) throws Exception {
        java.util.Map<Integer, String> byLine = nl001ByLine(
                dir,
                "h.c",
                "unsigned long count(int rows, int cols, int channels) {",
                "    double numPixels = rows * cols * channels;",
                "    return (unsigned long)numPixels;",
                "}",
                "unsigned char half(float v) { double h = v * 0.5; return (unsigned char)h; }",
                "");
        assertThat(byLine.get(3)).contains("-1 gives 18446744073709551615 on x86, 0 on AArch64");
        assertThat(byLine.get(5)).contains("-69.235 gives 187 on x86");
    }

    /** The NL001 messages by line of the C file {@code name} holding {@code lines}, scanned with the default context. */
    private static java.util.Map<Integer, String> nl001ByLine(Path dir, String name, String... lines) throws Exception {
        Files.writeString(dir.resolve(name), String.join("\n", lines));
        TestScanContext ctx =
                new TestScanContext(dir).projectContext(BuildContext.defaults()).run(new CudaSourceAnalyzer());
        java.util.Map<Integer, String> byLine = new java.util.HashMap<>();
        ctx.findings().stream()
                .filter(f -> f.ruleId().equals("NL001"))
                .forEach(f -> byLine.put(f.location().startLine(), f.message()));
        return byLine;
    }

    /**
     * Two products whose signs agree as products of the same variables' signs ({@code k * sqrtf(..)} times
     * {@code fabsf(..)}) cannot cancel: the contraction warning names the rounding it decides, not a cancellation;
     * products of unrelated signs still may cancel (session 64 round A: a splat's bounding box).
     */
    @Test
    void productsOfAgreeingSignsAreNotSaidToCancel(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("box.cu"),
                String.join(
                        "\n",
                        "__global__ void box(const float *lam, const float *c, int *out, int cx, float k, float m)",
                        "{",
                        "    int i = threadIdx.x;",
                        "    float r1 = k * sqrtf(fmaxf(lam[2 * i], 0.0f));",
                        "    float r2 = k * sqrtf(fmaxf(lam[2 * i + 1], 0.0f));",
                        "    float ac = fabsf(c[2 * i]), as = fabsf(c[2 * i + 1]);",
                        "    float dx = r1 * ac + r2 * as;",
                        "    float dy = r1 * ac + m * as;",
                        "    out[i] = (int)floorf(cx - dx) + (int)floorf(cx - dy);",
                        "}",
                        ""));
        TestScanContext ctx =
                new TestScanContext(dir).projectContext(BuildContext.defaults()).run(new CudaSourceAnalyzer());
        java.util.Map<Integer, String> byLine = new java.util.HashMap<>();
        ctx.findings().stream()
                .filter(f -> f.ruleId().equals("NL003"))
                .forEach(f -> byLine.put(f.location().startLine(), f.message()));
        assertThat(byLine.get(7)).as(byLine.toString()).contains("floorf()").doesNotContain("may cancel");
        assertThat(byLine.get(8)).as(byLine.toString()).contains("its products may cancel");
    }

    /**
     * A function with a conditional branch Clang's configuration does not compile ({@code #if __CUDA_ARCH__ >= 700}):
     * Clang decides the lines it compiled (its quotes, its types through typedefs), the hand-written front end only
     * the branch Clang left out (session 62; before, it read the whole function).
     */
    @Test
    void clangDecidesAFunctionButForTheBranchItDidNotCompile(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("arch.cu"),
                String.join(
                        "\n",
                        "typedef float real;",
                        "__global__ void k(const real *in, unsigned *out, float *acc, int n) {",
                        "    int i = blockIdx.x * blockDim.x + threadIdx.x;",
                        "    if (i >= n) return;",
                        "    real v = in[i];",
                        "#if __CUDA_ARCH__ >= 700",
                        "    atomicAdd(acc, v);",
                        "#else",
                        "    out[i] = (unsigned) v;",
                        "#endif",
                        "    out[i] += (unsigned) (v * 2);",
                        "}",
                        ""));
        TestScanContext ctx =
                new TestScanContext(dir).projectContext(BuildContext.defaults()).run(new CudaSourceAnalyzer());
        java.util.Map<Integer, String> byLine = ctx.findings().stream()
                .collect(Collectors.toMap(
                        f -> f.location().startLine(), f -> f.ruleId() + " " + f.message(), (x, y) -> x));
        assertThat(byLine.get(7)).startsWith("NL009"); // the branch Clang did not compile: the hand-written reading
        assertThat(byLine.get(9)).startsWith("NL001 '(unsigned int)(v)'").contains("float to unsigned int");
        assertThat(byLine.get(11)).startsWith("NL001 '(unsigned int)(v * 2)'");
    }

    /**
     * Clang reads a CUDA file as nvcc compiles it, with {@code __NVCC__} defined (session 18's evaluation: a C99
     * code's portability header picked its CPU branch under Clang, and 165 files had Clang errors).
     */
    @Test
    void clangReadsCudaFilesWithNvccsOwnMacro(@TempDir Path dir) throws Exception {
        java.nio.file.Files.writeString(
                dir.resolve("port.h"),
                String.join(
                        "\n",
                        "#if defined(__NVCC__)",
                        "#define KERNEL __global__",
                        "#else",
                        "#define KERNEL",
                        "typedef struct cpu_uint3 { unsigned int x, y, z; } uint3;",
                        "#endif",
                        ""));
        java.nio.file.Files.writeString(
                dir.resolve("k.cu"),
                String.join(
                        "\n",
                        "#include \"port.h\"",
                        "KERNEL void scale(float *a, unsigned *o, float s, int n) {",
                        "  for (int i = 0; i < n; i++) o[i] = (unsigned)(a[i] * s);",
                        "}",
                        ""));
        TestScanContext ctx =
                new TestScanContext(dir).projectContext(BuildContext.defaults()).run(new CudaSourceAnalyzer());
        assertThat(ctx.notifications()).noneMatch(n -> n.id().equals("clang-error"));
        assertThat(ctx.findings()).anyMatch(f -> f.ruleId().equals("NL001"));
    }

    /**
     * Session 25's defect 5 (opus): a header parsed alone (here: included by no file of the tree) uses a macro that
     * another header of the tree defines under {@code #if} branches; Clang shows it as an unknown type name. A name defined as
     * a macro in a file read is no type "defined in no file read".
     */
    @Test
    void aMacroDefinedInAFileReadIsNoUndefinedType(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("defs.h"),
                String.join(
                        "\n",
                        "#ifndef DEFS_H",
                        "#define DEFS_H",
                        "#if defined(OLD_COMPILER)",
                        "# define MY_INLINE __inline",
                        "#else",
                        "# define MY_INLINE inline",
                        "#endif",
                        "#endif",
                        ""));
        Files.writeString(
                dir.resolve("mix.h"),
                String.join(
                        "\n", "static MY_INLINE float mix(float a, float b, float t) { return a + (b - a) * t; }", ""));
        Files.writeString(
                dir.resolve("user.c"),
                String.join(
                        "\n",
                        "#include \"defs.h\"",
                        "static MY_INLINE float twice(float a) { return 2 * a; }",
                        "float run(float a) { return twice(a); }",
                        ""));
        TestScanContext ctx =
                new TestScanContext(dir).projectContext(BuildContext.defaults()).run(new CudaSourceAnalyzer());
        // the header parsed alone: Clang does not know MY_INLINE (the reason the notice was given)
        assertThat(ctx.notifications())
                .anyMatch(n -> n.id().equals("clang-error") && n.message().contains("MY_INLINE"));
        assertThat(ctx.notifications())
                .noneMatch(n -> n.id().equals("types-undefined") && n.message().contains("MY_INLINE"));
    }

    /**
     * A never-negative sum (ClangSigns) tested against 0 and against a variable: the test against 0 cannot flip, so
     * the message cites the other one (session 14, cminpack's enorm: "one ulp can flip 's2 != 0.'" where the test
     * 's2 >= x3max' two lines on is the one that can).
     */
    @Test
    void aNeverNegativeSumCitesTheTestThatCanFlipNotItsTestAgainstZero(@TempDir Path dir) throws Exception {
        java.nio.file.Files.writeString(
                dir.resolve("n.c"),
                String.join(
                        "\n",
                        "float pick(int n, const float *v, float limit) {",
                        "  float e = 0.0f;",
                        "  for (int i = 0; i < n; ++i) e += v[i] * v[i];",
                        "  if (e != 0.0f && e >= limit) return e;",
                        "  return 0.0f;",
                        "}",
                        ""));
        List<Finding> f = new TestScanContext(dir)
                .projectContext(BuildContext.defaults()).run(new CudaSourceAnalyzer()).findings().stream()
                        .filter(x -> x.ruleId().equals("NL004"))
                        .toList();
        assertThat(f).hasSize(1);
        assertThat(f.get(0).message()).contains("one ulp can flip 'e >= limit'").doesNotContain("e != 0.0f");
    }

    /**
     * -Dnumlint.clang.alone=true (the measure of retiring the hand-written front end): a file Clang read gets Clang's
     * facts only. A cuBLAS tensor-op mode is a fact only the hand-written front end computes (so far: the page
     * clang-alone-session16.md lists the others); the float atomic and the host long double Clang finds too.
     */
    @Test
    void withClangAloneTheHandWrittenFrontEndAnalyzesNoFunctionOfAFileClangRead(@TempDir Path dir) throws Exception {
        java.nio.file.Files.writeString(
                dir.resolve("k.cu"),
                String.join(
                        "\n",
                        "__global__ void k(float* sum, const float* x) {",
                        "  atomicAdd(sum, x[threadIdx.x]);",
                        "}",
                        "double host(const double* x) {",
                        "  long double s = x[0];",
                        "  return (double)s;",
                        "}",
                        "void gemm(cublasHandle_t h) {",
                        "  cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);",
                        "}",
                        ""));
        java.util.function.Supplier<List<String>> rules = () -> {
            try {
                return new TestScanContext(dir)
                        .projectContext(BuildContext.defaults()).run(new CudaSourceAnalyzer()).findings().stream()
                                .map(f -> f.ruleId() + ":" + f.location().startLine())
                                .sorted()
                                .toList();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        assertThat(rules.get()).containsExactly("NL005:5", "NL009:2", "NL012:9");
        System.setProperty("numlint.clang.alone", "true");
        try {
            assertThat(rules.get()).containsExactly("NL005:5", "NL009:2");
        } finally {
            System.clearProperty("numlint.clang.alone");
        }
    }

    /**
     * Session 14 evaluation (Quicksilver, cminpack): a .cc its compile command builds as CUDA (-x cu) is read as nvcc
     * reads it (__CUDACC__ defined); a .c file never sees __CUDA_ARCH__ (the host compiler does not define it), so a
     * header's "device or CUDA" branch is not taken there.
     */
    @Test
    void theCompileCommandsLanguageAndTheHostCompilersMacrosDecideTheBranches(@TempDir Path dir) throws Exception {
        String header = String.join(
                "\n",
                "#if defined(__CUDA_ARCH__) || defined(__CUDACC__)",
                "#define real float",
                "#else",
                "#define real double",
                "#endif",
                "");
        java.nio.file.Files.writeString(dir.resolve("real.h"), header);
        String body = "#include \"real.h\"\nreal sum(const real *x, int n) { real s = 0; "
                + "for (int i = 0; i < n; ++i) s += x[i]; return s; }\n";
        java.nio.file.Files.writeString(dir.resolve("b.c"), body);
        java.nio.file.Files.writeString(dir.resolve("k.cc"), body);
        java.util.function.Function<BuildContext, java.util.Map<String, Level>> levels = bc -> {
            try {
                return new TestScanContext(dir)
                        .projectContext(bc).run(new CudaSourceAnalyzer()).findings().stream()
                                .filter(f -> f.ruleId().equals("NL004"))
                                .collect(Collectors.toMap(f -> f.location().file(), Finding::level, (x, y) -> x));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        // host compilers: double sums (a note)
        assertThat(levels.apply(BuildContext.defaults()))
                .containsEntry("b.c", Level.NOTE)
                .containsEntry("k.cc", Level.NOTE);
        // built with -x cu: nvcc's view, a float sum
        assertThat(levels.apply(BuildContext.defaults().compiledAsCuda(true))).containsEntry("k.cc", Level.WARNING);
    }

    @Test
    void malformedFunctionLosesOnlyItself(@TempDir Path dir) throws Exception {
        TestScanContext ctx = scanDefault(dir, "malformed.cu");
        // the hand-written parser's parse error is folded into Clang's one notice of the file (ClangErrorNoticeTest)
        List<Notification> malformed = ctx.notifications().stream()
                .filter(n -> "malformed.cu".equals(n.file()))
                .collect(Collectors.toList());
        assertThat(malformed).as(malformed.toString()).hasSize(1);
        Notification n = malformed.get(0);
        assertThat(n.id()).isEqualTo("clang-error");
        assertThat(n.level()).isEqualTo(Level.WARNING);
        assertThat(n.line()).isEqualTo(4);
        assertThat(n.message())
                .contains("'broken' (line 2: construct not understood near ')' at line 4; Clang's first");
        assertThat(ctx.notifications()).noneMatch(x -> x.id().equals("parse-error"));
        assertThat(ctx.hits()).contains(new InlineExpectations.Hit("malformed.cu", 10, "NL002"));
    }

    @Test
    void fastMathBuild() throws Exception {
        BuildContext bc = BuildContext.defaults()
                .fastMath(true)
                .addOrigin("--use_fast_math", Location.line("CMakeLists.txt", 12));
        TestScanContext ctx = scan("fastmath", bc);
        Finding div = ctx.findings().stream()
                .filter(f -> f.ruleId().equals("NL002"))
                .findFirst()
                .orElseThrow();
        // the message names the flag; where it was set is the related location (and flag evidence)
        assertThat(div.message()).contains("--use_fast_math").doesNotContain("CMakeLists");
        assertThat(div.related()).extracting(r -> r.location().shortText()).containsExactly("CMakeLists.txt:12");
    }

    @Test
    void hostContractionCitesTheFlag() throws Exception {
        TestScanContext ctx = scan(
                "hostfma",
                BuildContext.defaults().hostArch("haswell").addOrigin("-march=haswell", Location.line("Makefile", 3)));
        Finding f = ctx.findings().stream()
                .filter(x -> x.ruleId().equals("NL003"))
                .findFirst()
                .orElseThrow();
        assertThat(f.message()).contains("host compiler").contains("-march=haswell");
        assertThat(f.related()).extracting(r -> r.location().shortText()).contains("Makefile:3");
    }

    /**
     * An index's guard {@code k < 0 || k >= n} on a {@code size_t} k: {@code k < 0} is always false, so it is not the
     * test one ulp can flip (session 30's evaluation, defect 1): by the default run, the hand-written front end alone and
     * Clang's facts alone.
     */
    @Test
    void anUnsignedTestedAgainstZeroIsNotTheTestAnUlpFlips(@TempDir Path dir) throws Exception {
        java.nio.file.Files.writeString(
                dir.resolve("cells.c"),
                String.join(
                        "\n",
                        "#include <stddef.h>",
                        "extern int nx;",
                        "extern double x0, dx, table[];",
                        "double cell_value(double x)",
                        "{",
                        "    double u = (x * 2.5 - x0) / dx;",
                        "    size_t k = (size_t)u;",
                        "    double w = u - k;",
                        "    if (k < 0 || k >= nx - 1) return 0.0;",
                        "    return table[k] * (1.0 - w) + table[k + 1] * w;",
                        "}",
                        ""));
        for (String frontend : List.of("auto", "legacy", "clang-alone")) {
            BuildContext bc = BuildContext.defaults().hostArch("haswell");
            if (frontend.equals("clang-alone")) System.setProperty("numlint.clang.alone", "true");
            TestScanContext ctx;
            try {
                ctx = new TestScanContext(dir)
                        .projectContext(bc)
                        .setting("frontend", frontend.equals("legacy") ? "legacy" : "auto")
                        .run(new CudaSourceAnalyzer());
            } finally {
                System.clearProperty("numlint.clang.alone");
            }
            Finding f = ctx.findings().stream()
                    .filter(x -> x.ruleId().equals("NL003") && x.location().startLine() == 6)
                    .findFirst()
                    .orElseThrow();
            assertThat(f.message()).as(frontend).doesNotContain("k<0").doesNotContain("k < 0");
        }
    }

    @Test
    void messagesNameExpressionAndConsequence(@TempDir Path dir) throws Exception {
        TestScanContext ctx = scanDefault(dir, "conversions.cu", "promotion.cu");
        Finding cast = ctx.findings().stream()
                .filter(f -> f.ruleId().equals("NL001")
                        && f.location().file().equals("conversions.cu")
                        && f.location().startLine() == 16)
                .findFirst()
                .orElseThrow();
        // the expression quoted shortened (the whole of it is the evidence), the values for this target type; as the
        // front end that decides writes it (Clang: the source's spaces, "temp * 655...")
        assertThat(cast.message().replace(" ", ""))
                .startsWith("'(unsignedshort)(temp*")
                .contains("...'");
        assertThat(cast.message())
                .contains("-69.235 gives 65467 on x86, 0 on the GPU")
                .doesNotContain("saturate");
        assertThat(cast.evidence()).anyMatch(e -> e.text().replace(" ", "").contains("temp*65535.0f"));
        assertThat(cast.location().startColumn()).isPositive();
        assertThat(cast.function()).isEqualTo("reconstruct");
        assertThat(cast.fingerprintKey()).doesNotContain("16");
        Finding promo = ctx.findings().stream()
                .filter(f -> f.ruleId().equals("NL008")
                        && f.location().file().equals("promotion.cu")
                        && f.location().startLine() == 6)
                .findFirst()
                .orElseThrow();
        assertThat(promo.message().replace(" ", "")).contains("4.0/(1.0+x*x)").contains("1.0");
    }

    @Test
    void aValueProvenNonNegativeIsReportedWithAnAboveRangeExample(@TempDir Path dir) throws Exception {
        TestScanContext ctx = scanDefault(dir, "range_by_construction.cu");
        java.util.Map<String, String> byExpr = new java.util.HashMap<>();
        ctx.findings().stream()
                .filter(f -> f.ruleId().equals("NL001") && f.location().file().equals("range_by_construction.cu"))
                .forEach(f -> byExpr.put(
                        f.message()
                                .substring(0, f.message().indexOf('\'', 1) + 1)
                                .replace(" ", ""),
                        f.message()));
        // (the expressions as quoted, spaces left out: Clang's text keeps the source's)
        // no negative example for a value that cannot be negative: what x86 and the GPU give above the range
        // >= 0 into 32 bits leaves the range only above 4e9: a note that says so
        assertThat(byExpr.get("'(unsignedint)(sqrtf(x))'"))
                .endsWith("not negative: out of range only above 4294967295");
        assertThat(byExpr.get("'rr'")) // static_cast<unsigned short>(rr), too long a quote: its operand
                .contains("bounded below only: 70000 wraps to 4464 on x86 and the GPU")
                .doesNotContain("-69.235");
        // a value that can be negative keeps the negative example
        assertThat(byExpr.get("'(unsignedchar)(x*255.0f)'")).contains("-69.235 gives 187 on x86, 0 on the GPU");
        // the casts proven in range are notes that say why (an implicit conversion would be exact: dropped)
        assertThat(ctx.findings())
                .filteredOn(f -> f.location().file().equals("range_by_construction.cu")
                        && f.location().startLine() < 36)
                .isNotEmpty()
                .allMatch(f -> f.ruleId().equals("NL001") && f.level() == Level.NOTE);
    }

    @Test
    void exactDoubleFunctionsCostOnlySpeed(@TempDir Path dir) throws Exception {
        TestScanContext ctx = scanDefault(dir, "exact_functions.cu");
        java.util.function.IntFunction<String> at = line -> ctx.findings().stream()
                .filter(f -> f.ruleId().equals("NL008")
                        && f.location().file().equals("exact_functions.cu")
                        && f.location().startLine() == line)
                .findFirst()
                .orElseThrow()
                .message();
        // copysign(1.0, u)*a gives float's result: the FP64 cost stays, not the rounding
        assertThat(at.apply(25)).contains("only speed").doesNotContain("unlike float");
        // frexp(float, int*) and ldexp(float, int) are the float overloads in CUDA: no double, no finding
        for (int line : new int[] {15, 27}) {
            assertThat(ctx.findings().stream()
                            .filter(f -> f.ruleId().equals("NL008")
                                    && f.location().file().equals("exact_functions.cu")
                                    && f.location().startLine() == line))
                    .isEmpty();
        }
        // times 0.1 the result is rounded in double: unlike float
        assertThat(at.apply(29)).contains("rounded unlike float");
    }

    @Test
    void exactDoubleRoundingAndConstantStepsSaySo(@TempDir Path dir) throws Exception {
        TestScanContext ctx = scanDefault(dir, "exactness.cu", "sums_steps.cu");
        java.util.function.BiFunction<String, Integer, Finding> at = (rule, line) -> ctx.findings().stream()
                .filter(f -> f.ruleId().equals(rule)
                        && f.location().file().equals(rule.equals("NL008") ? "exactness.cu" : "sums_steps.cu")
                        && f.location().startLine() == line)
                .findFirst()
                .orElseThrow();
        // h*0.5 and 1.0/e rounded to float give the float result: only the speed is at stake
        assertThat(at.apply("NL008", 34).message()).contains("only speed").doesNotContain("unlike float");
        assertThat(at.apply("NL008", 38).message()).contains("only speed").doesNotContain("unlike float");
        // h*0.1 is not: 0.1 and 0.1f differ
        assertThat(at.apply("NL008", 40).message()).contains("rounded unlike float");
        // sqrt of a value float holds rounds as sqrtf does; of a difference computed in double it does not
        assertThat(at.apply("NL008", 42).message())
                .contains("rounded unlike float")
                .doesNotContain("only speed");
        // a loop-invariant step is a stepping, with the reason in the impact
        Finding step = at.apply("NL004", 14);
        assertThat(step.message()).contains("constant step");
        assertThat(step.impact().kind()).isEqualTo(dev.numlint.model.Impact.Kind.BOUNDED);
        assertThat(step.impact().consequence()).contains("constant step");
        // the element reset in every iteration of the i loop leaves the k loop carrying the sum
        assertThat(at.apply("NL004", 43).message()).contains("loop at line 40:");
    }

    /**
     * An accumulator reset by a sweep ({@code for (i...) a[i] = 0}) in the branch that holds the sum, before it
     * (levmar's J^T e): NL004 cites the loop over the terms, not the outer iteration loop; a reset in the other branch
     * leaves the outer loop carrying the sum.
     */
    @Test
    void sweepResetInTheSumsBranchMovesTheCitedLoop(@TempDir Path dir) throws Exception {
        java.util.function.IntFunction<String> at = serialSumMessages(dir, "branch_sweeps_cited.c");
        assertThat(at.apply(13)).contains("loop at line 9:");
        assertThat(at.apply(51)).contains("loop at line 43:");
    }

    /**
     * An element that the inner loops move to another element in every iteration (a row-major index from the
     * counters) is summed only by the loop around them that repeats it: NL004 cites that loop (the frames, the rows
     * that overlap), or the loop that meets an element twice in a convolution.
     */
    @Test
    void elementUpdatesCiteTheLoopThatRepeatsTheElement(@TempDir Path dir) throws Exception {
        java.util.function.IntFunction<String> at = serialSumMessages(dir, "element_updates.c");
        assertThat(at.apply(51)).contains("loop at line 46:");
        assertThat(at.apply(65)).contains("loop at line 61:");
        assertThat(at.apply(120)).contains("loop at line 117:");
    }

    /**
     * A macro that names its argument twice ({@code min(a, b)}) expands the argument's code twice; Clang's two copies
     * are located at the argument's text, so they are the one site the hand-written front end reads: one finding each,
     * at the cast's own column (the fixture runner counts one finding per rule and line and cannot see a twin).
     */
    @Test
    void codeOfAMacroArgumentIsOneSiteAtItsText(@TempDir Path dir) throws Exception {
        String name = "macro_arguments.c";
        Files.copy(Path.of("src/test/resources/fixtures/cuda/default/" + name), dir.resolve(name));
        TestScanContext ctx = new TestScanContext(dir).run(new CudaSourceAnalyzer());
        assertThat(ctx.findings())
                .filteredOn(f -> f.ruleId().equals("NL001"))
                .extracting(f -> f.location().startLine() + ":" + f.location().startColumn())
                .containsExactly("14:33", "21:12", "27:16");
    }

    /** The NL004 message at a line of the default fixture {@code name}, scanned alone. */
    private static java.util.function.IntFunction<String> serialSumMessages(Path dir, String name) throws Exception {
        Files.copy(Path.of("src/test/resources/fixtures/cuda/default/" + name), dir.resolve(name));
        TestScanContext ctx = new TestScanContext(dir).run(new CudaSourceAnalyzer());
        return line -> ctx.findings().stream()
                .filter(f -> f.ruleId().equals("NL004") && f.location().startLine() == line)
                .findFirst()
                .orElseThrow()
                .message();
    }

    /**
     * A sum declared in the body of a grid-stride loop is restarted by it: a convolution window's sum inside is one
     * thread's serial sum, not its share of a grid-stride sum (session 60), which an accumulator declared before the
     * grid-stride loop is.
     */
    @Test
    void aSumDeclaredInAGridStrideLoopIsNoShareOfIt(@TempDir Path dir) throws Exception {
        TestScanContext ctx = scanned(
                dir,
                "conv.cu",
                "__global__ void conv(const float *src, const float *mat, float *dst, unsigned w, unsigned m) {",
                "  for (unsigned p = blockIdx.x * blockDim.x + threadIdx.x; p < w; p += gridDim.x * blockDim.x) {",
                "    float sum = 0.f;",
                "    for (unsigned j = 0; j < m; ++j) sum += src[p + j] * mat[j];",
                "    dst[p] = sum;",
                "  }",
                "}",
                "__global__ void share(const float *x, float *out, int n) {",
                "  float s = 0.f;",
                "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += x[i];",
                "  out[blockIdx.x * blockDim.x + threadIdx.x] = s;",
                "}");
        assertThat(ctx.findings())
                .filteredOn(f -> f.ruleId().equals("NL004") && f.location().startLine() == 4)
                .singleElement()
                .satisfies(f ->
                        assertThat(f.message()).contains("one thread's sum").doesNotContain("grid-stride"));
        assertThat(ctx.findings())
                .filteredOn(f -> f.ruleId().equals("NL004") && f.location().startLine() == 10)
                .singleElement()
                .satisfies(f -> assertThat(f.message()).contains("grid-stride share"));
    }

    /** A cast to a C99 complex type or a pointer to one ({@code (float complex*) malloc(...)}) is a cast. */
    @Test
    void castsToC99ComplexTypesAreRead(@TempDir Path dir) throws Exception {
        TestScanContext ctx = scanned(
                dir,
                "cx.c",
                "#include <complex.h>",
                "#include <stdlib.h>",
                "unsigned f(int n, float g) {",
                "  float complex *b = (float complex*) malloc(n * sizeof(float complex));",
                "  double ar = (double) creal( *((double _Complex*)b) );",
                "  b[0] = (float complex) ar;",
                "  free(b);",
                "  return (unsigned)(g * ar);",
                "}");
        assertThat(ctx.notifications()).noneMatch(n -> n.id().equals("parse-error"));
        assertThat(ctx.findings()).filteredOn(f -> f.ruleId().equals("NL001")).hasSize(1);
    }

    /**
     * C++'s alternative tokens ({@code and}, {@code or}, {@code not}) are the operators they spell (a hydro code's
     * {@code if (i > 1 and i < n - 2)}): the function is read, not left to Clang's facts alone.
     */
    @Test
    void alternativeTokensAreOperators(@TempDir Path dir) throws Exception {
        TestScanContext ctx = scanned(
                dir,
                "alt.cpp",
                "unsigned cell(float x, float lo, int i, int n) {",
                "  if (i > 1 and i < n - 2 or not (x > lo)) return 0;",
                "  return (unsigned)(x - lo);",
                "}");
        assertThat(ctx.notifications()).noneMatch(n -> n.id().equals("parse-error"));
        assertThat(ctx.findings()).filteredOn(f -> f.ruleId().equals("NL001")).hasSize(1);
    }

    /**
     * A C++14 variable template in an expression ({@code rho * cp<TF> / ra}, an atmospheric model's constants): a type
     * cannot be an operand of {@code <}, so {@code cp<TF>} is a template-id whatever follows it.
     */
    @Test
    void variableTemplatesInExpressionsAreRead(@TempDir Path dir) throws Exception {
        TestScanContext ctx = scanned(
                dir,
                "constants.cpp",
                "template <typename TF> constexpr TF cp = 1005.;",
                "template <typename TF> constexpr TF Lv = 2.5e6;",
                "template <typename TF>",
                "TF heat(const TF rho, const TF ra, const TF ql) {",
                "  return rho * cp<TF> / ra + Lv<TF> * ql;",
                "}",
                "unsigned cell(float x, float lo) { return (unsigned)(x - heat<float>(x, lo, x)); }");
        assertThat(ctx.notifications()).noneMatch(n -> n.id().equals("parse-error"));
    }

    /** A lambda's trailing return type of a qualified template ({@code -> std::complex<double>}) is a type. */
    @Test
    void lambdaTrailingReturnTypesAreRead(@TempDir Path dir) throws Exception {
        TestScanContext ctx = scanned(
                dir,
                "lam.cpp",
                "#include <complex>",
                "template <typename T> std::complex<double> inner(const T* p, const T* q, unsigned long n) {",
                "  auto f = [](unsigned long i,",
                "              const T* a, const T* b) -> std::complex<double> {",
                "    return std::complex<double>(a[i] * b[i], 0.0);",
                "  };",
                "  std::complex<double> s = 0;",
                "  for (unsigned long i = 0; i < n; ++i) s += f(i, p, q);",
                "  return s;",
                "}");
        assertThat(ctx.notifications()).noneMatch(n -> n.id().equals("parse-error"));
    }

    /** GCC's other spellings {@code __attribute((...))} and {@code __typeof(x)} (a C math library's inline macro). */
    @Test
    void gnuAttributeAndTypeofWithoutTrailingUnderscoresAreRead(@TempDir Path dir) throws Exception {
        TestScanContext ctx = scanned(
                dir,
                "a.c",
                "#define MY_INLINE static inline __attribute((always_inline))",
                "#define MY_ALIGN(X) __attribute((aligned(X)))",
                "typedef MY_ALIGN(16) float vec4[4];",
                "MY_INLINE unsigned quant(vec4 v, float s) {",
                "  __typeof(s) t = s * v[0];",
                "  return (unsigned)(t - 1.0f);",
                "}");
        assertThat(ctx.notifications()).noneMatch(n -> n.id().equals("parse-error"));
        assertThat(ctx.findings()).filteredOn(f -> f.ruleId().equals("NL001")).hasSize(1);
    }

    /** An operator function called by name as a member: {@code p->operator[](i)}, {@code it.operator->()}. */
    @Test
    void operatorFunctionsCalledAsMembersAreRead(@TempDir Path dir) throws Exception {
        TestScanContext ctx = scanned(
                dir,
                "op.cpp",
                "struct Buf { float *d; float &operator[](int i) { return d[i]; } Buf *operator->() { return this; } };",
                "unsigned level(Buf *p, Buf b, int i) {",
                "  float v = p->operator[](i) - b.operator->()->operator[](0);",
                "  return (unsigned)v;",
                "}");
        assertThat(ctx.notifications()).noneMatch(n -> n.id().equals("parse-error"));
    }

    /**
     * An overloaded name leaves the parameter an argument binds to to overload resolution: {@code print(energy, 8)}
     * calls {@code print(double, int, unsigned = 8)}, not the two-parameter {@code print(unsigned, int)} its argument
     * count matches, and {@code wrap(p.x[0], p.y[0], b)} the {@code (double&, double&, unsigned)} overload of two
     * of the same arity (session 17's evaluation: false NL001 errors from such overloads).
     */
    @Test
    void argumentsOfAnOverloadedCallAreNotBoundByTheirCount(@TempDir Path dir) throws Exception {
        TestScanContext ctx = scanned(
                dir,
                "box.cpp",
                "struct Box {",
                "  void print(double v, int width, unsigned precision = 8) const;",
                "  void print(unsigned v, int width) const;",
                "  void show(double energy) const { print(energy, 8); }",
                "};",
                "void put(unsigned v);",
                "void shown(double energy) { put(energy); }",
                "struct P { double *x, *y; };",
                "void wrap(P &p, unsigned start, unsigned stop);",
                "void wrap(double &x, double &y, unsigned b);",
                "void all(P &p, unsigned b) { wrap(p.x[0], p.y[0], b); }");
        // the call of the one put() still converts its argument
        assertThat(ctx.findings())
                .filteredOn(f -> f.ruleId().equals("NL001"))
                .extracting(f -> f.location().startLine())
                .containsExactly(7);
    }

    /** A scan of one file written from {@code lines}. */
    private static TestScanContext scanned(Path dir, String name, String... lines) throws java.io.IOException {
        Files.writeString(dir.resolve(name), String.join("\n", lines) + "\n");
        return new TestScanContext(dir).run(new CudaSourceAnalyzer());
    }

    @Test
    void hostSourcesAndHeadersAnalyzedOnceEach() throws Exception {
        TestScanContext ctx = scan("host", BuildContext.defaults().addNvccFlag("-DUSE_WIDE_REFERENCE"));
        // grid.h is included from kernels.cu and reference.cpp and scanned itself: each of its findings (a sum, and
        // a guarded cast's note) comes once
        assertThat(ctx.findings().stream().filter(f -> f.location().file().equals("grid.h")))
                .hasSize(2)
                .extracting(Finding::ruleId)
                .containsExactlyInAnyOrder("NL004", "NL001");
        assertThat(ctx.notifications()).noneMatch(n -> n.id().equals("parse-error"));
        for (String f : List.of("a.c", "b.cc", "c.cpp", "d.cxx", "e.h", "f.hpp", "g.cu", "h.cuh")) {
            assertThat(new CudaSourceAnalyzer().accepts(Path.of(f))).as(f).isTrue();
        }
        assertThat(new CudaSourceAnalyzer().accepts(Path.of("x.java"))).isFalse();
        assertThat(SourceKinds.dialect(Path.of("x.c"))).isEqualTo(Preprocessor.Dialect.HOST_C);
        assertThat(SourceKinds.dialect(Path.of("x.cpp"))).isEqualTo(Preprocessor.Dialect.HOST_CXX);
        assertThat(SourceKinds.dialect(Path.of("x.h"))).isEqualTo(Preprocessor.Dialect.CUDA);
    }

    @Test
    void defineAndIncludeFlagsOfTheBuildContext(@TempDir Path dir, @TempDir Path outside) throws Exception {
        Path inc = Files.createDirectories(dir.resolve("src/include"));
        Files.writeString(inc.resolve("narrow.h"), "typedef unsigned short pixel_t;\n");
        Files.writeString(outside.resolve("wide.h"), "typedef unsigned int wide_t;\n");
        Files.writeString(
                dir.resolve("src/k.cu"),
                String.join(
                        "\n",
                        "#include \"narrow.h\"",
                        "#include \"wide.h\"",
                        "__global__ void k(float *in, pixel_t *out, wide_t *w) {",
                        "#if defined(WITH_PIXELS) && SCALE == 3",
                        "  out[0] = (pixel_t)(in[0] * 2.0f);",
                        "#endif",
                        "  w[0] = (wide_t)(in[1] * 2.0f);",
                        "}",
                        ""));
        BuildContext bc = BuildContext.defaults()
                .addNvccFlag("-D")
                .addNvccFlag("WITH_PIXELS")
                .addNvccFlag("-DSCALE=3")
                .addNvccFlag("-I")
                .addNvccFlag("include")
                .addNvccFlag("-I" + outside)
                .addOrigin("-I include", Location.line("src/CMakeLists.txt", 4));
        TestScanContext ctx = new TestScanContext(dir).projectContext(bc).run(new CudaSourceAnalyzer());
        // pixel_t comes from the -I directory (relative to the build file) and the #if branch is taken
        assertThat(ctx.hits()).contains(new InlineExpectations.Hit("src/k.cu", 5, "NL001"));
        // wide_t would come from an -I directory outside the scan root, which is not read: unknown type, no finding
        assertThat(ctx.hits()).doesNotContain(new InlineExpectations.Hit("src/k.cu", 7, "NL001"));
        TestScanContext plain = new TestScanContext(dir).run(new CudaSourceAnalyzer());
        assertThat(plain.hits()).doesNotContain(new InlineExpectations.Hit("src/k.cu", 5, "NL001"));
    }

    /**
     * The clean-up loops of fixture {@code default/clean_up_loops.c} are notes with the hand-written front end alone
     * ({@code --frontend legacy}), as with Clang (the fixture runner checks the default front end): every NL004 the
     * fixture marks {@code level=note} is a note, every one marked {@code level=warning} a warning.
     */
    @Test
    void cleanUpLoopsAreNotesWithTheHandWrittenFrontEndToo(@TempDir Path dir) throws Exception {
        Path src = fixtures("default").resolve("clean_up_loops.c");
        Files.copy(src, dir.resolve("clean_up_loops.c"));
        java.util.Map<Integer, String> expected = new java.util.TreeMap<>();
        List<String> lines = Files.readAllLines(src);
        java.util.regex.Pattern mark = java.util.regex.Pattern.compile("ruleid: NL004 level=(\\w+)");
        for (int i = 0; i < lines.size(); i++) {
            java.util.regex.Matcher m = mark.matcher(lines.get(i));
            if (m.find()) expected.put(i + 2, m.group(1));
        }
        assertThat(expected).hasSize(18);
        TestScanContext ctx =
                new TestScanContext(dir).setting("frontend", "legacy").run(new CudaSourceAnalyzer());
        java.util.Map<Integer, String> got = new java.util.TreeMap<>();
        ctx.levels().forEach((h, level) -> {
            if (h.ruleId().equals("NL004")) got.put(h.line(), level);
        });
        assertThat(got).isEqualTo(expected);
    }

    /**
     * Fixture {@code default/nested_resets.c} holds with the hand-written front end alone ({@code --frontend legacy},
     * what reports a function Clang does not read): a reset in the branch that holds the update, before the inner
     * loop, ends the sum there (PKDGRAV3 {@code group/groupstats.cxx:561}, {@code r2 = 0.0} per particle, then a
     * 3-term sum over j, was a warning against the particle loop); a reset in another branch does not.
     */
    @Test
    void aResetInTheBranchOfTheUpdateEndsTheSumWithTheHandWrittenFrontEndToo(@TempDir Path dir) throws Exception {
        Path src = fixtures("default").resolve("nested_resets.c");
        Files.copy(src, dir.resolve("nested_resets.c"));
        java.util.Map<Integer, String> expected = new java.util.TreeMap<>();
        List<String> lines = Files.readAllLines(src);
        java.util.regex.Pattern mark = java.util.regex.Pattern.compile("ruleid: NL004 level=(\\w+)");
        for (int i = 0; i < lines.size(); i++) {
            java.util.regex.Matcher m = mark.matcher(lines.get(i));
            if (m.find()) expected.put(i + 2, m.group(1));
        }
        assertThat(expected).hasSize(1);
        TestScanContext ctx =
                new TestScanContext(dir).setting("frontend", "legacy").run(new CudaSourceAnalyzer());
        java.util.Map<Integer, String> got = new java.util.TreeMap<>();
        ctx.levels().forEach((h, level) -> {
            if (h.ruleId().equals("NL004")) got.put(h.line(), level);
        });
        assertThat(got).isEqualTo(expected);
    }

    /**
     * A shift is no test: the lexer reads {@code >>} as two {@code >} (template brackets), and session 21's
     * evaluation saw pocketfft's notes print {@code ((tmp=(n>>1))<<1)==n} as "limited by the test 'n > >'".
     */
    @Test
    void aShiftIsNotATestThatLimitsItsOperand(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("f.c"),
                String.join(
                        "\n",
                        "#include <math.h>",
                        "unsigned halve_then_root(unsigned n, unsigned m) {",
                        "  unsigned t;",
                        "  while (((t = (n >> 1)) << 1) == n) n = t;",
                        "  m >>= 2;",
                        "  unsigned a = (unsigned)sqrt(n + 0.01);",
                        "  if (n > 1) a += 1;",
                        "  return a + (unsigned)sqrt(m + 0.5);",
                        "}",
                        "unsigned clipped(double r) {",
                        "  if (r > 0 && r < 100) return (unsigned)r;",
                        "  return 0;",
                        "}",
                        ""));
        TestScanContext ctx = new TestScanContext(dir).run(new CudaSourceAnalyzer());
        List<Finding> nl001 =
                ctx.findings().stream().filter(f -> f.ruleId().equals("NL001")).toList();
        // lines 6 and 8: notes for their own reason (integers and constants), not "the test 'n > >'" or 'm > >=',
        // nor the test 'n > 1' written after the cast
        assertThat(nl001)
                .filteredOn(f -> f.location().startLine() == 6 || f.location().startLine() == 8)
                .hasSize(2)
                .allMatch(f -> f.level() == Level.NOTE)
                .noneMatch(f -> f.message().contains("> >") || f.message().contains("limited by the test"));
        // a real comparison still limits
        assertThat(nl001)
                .filteredOn(f -> f.location().startLine() == 11)
                .hasSize(1)
                .allMatch(f ->
                        f.level() == Level.NOTE && f.message().replace(" ", "").contains("r>0&&r<100"));
    }

    @Test
    void implementedRulesAreTheCatalogsCudaSourceLayer() {
        var expected = RuleCatalog.get().all().stream()
                .filter(r -> r.appliesTo(dev.numlint.model.Layer.CUDA_SOURCE))
                .map(r -> r.id())
                .collect(Collectors.toSet());
        assertThat(new CudaSourceAnalyzer().implementedRules()).isEqualTo(expected);
    }

    @Test
    void badInputNeverThrows(@TempDir Path dir) throws Exception {
        Files.write(dir.resolve("bin.cu"), new byte[] {1, 0, 2, 3});
        Files.writeString(dir.resolve("braces.cu"), "}}} __global__ void k( { {{ ((( \n#if\n#endif\n#endif\n");
        Files.writeString(
                dir.resolve("deep.cu"), "void f() { int x = " + "(".repeat(5000) + "1" + ")".repeat(5000) + "; }");
        TestScanContext ctx = new TestScanContext(dir).run(new CudaSourceAnalyzer());
        assertThat(ctx.notifications()).anyMatch(n -> n.file().equals("bin.cu") && n.level() == Level.ERROR);
        assertThat(ctx.notifications())
                .anyMatch(n -> n.file().equals("deep.cu") && n.message().contains("nested deeper"));
        assertThat(ctx.findings()).isEmpty();
    }

    @Test
    void theFunctionBudgetGrowsWithTheFileUpToSixteenBudgets() {
        long one = FrontEndBudgets.fileBudgetNanos(0);
        assertThat(one).isEqualTo(5_000_000_000L);
        assertThat(FrontEndBudgets.fileBudgetNanos(200_000)).isEqualTo(one);
        // CImg.h, 3,093,888 bytes: 13 budgets
        assertThat(FrontEndBudgets.fileBudgetNanos(3_093_888)).isEqualTo(13 * one);
        assertThat(FrontEndBudgets.fileBudgetNanos(1L << 40)).isEqualTo(16 * one);
    }
}
