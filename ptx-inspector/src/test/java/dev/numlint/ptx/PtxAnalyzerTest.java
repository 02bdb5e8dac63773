package dev.numlint.ptx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.rules.Rule;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.spi.PtxMode;
import dev.numlint.testing.TestScanContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Contract of the PTX analyzer: rules implemented, bad input, source mapping, options, nvcc failures. */
class PtxAnalyzerTest {
    private static final String HEAD = ".version 8.0\n.target sm_80\n.address_size 64\n";

    @TempDir
    Path dir;

    /** Session 83: host code including omp.h under #ifdef _OPENMP failed nvcc -ptx without the host's -fopenmp. */
    @Test
    void theHostCompilersOpenMpReachesNvcc() {
        BuildContext bc = BuildContext.defaults().addNvccFlag("-O3").addHostMacroFlag("-fopenmp");
        assertThat(PtxAnalyzer.nvccFlags(bc)).containsExactly("-O3", "-Xcompiler=-fopenmp");
        assertThat(PtxAnalyzer.nvccFlags(BuildContext.defaults().addHostMacroFlag("-mavx2")))
                .isEmpty();
    }

    @Test
    void implementedRulesMatchTheCatalog() {
        Set<String> ptx = RuleCatalog.get().all().stream()
                .filter(r -> r.appliesTo(Layer.PTX))
                .map(Rule::id)
                .collect(Collectors.toSet());
        assertThat(new PtxAnalyzer().implementedRules()).isEqualTo(ptx);
        assertThat(new PtxAnalyzer().accepts(Path.of("a/b.ptx"))).isTrue();
        assertThat(new PtxAnalyzer().accepts(Path.of("a/b.cu"))).isTrue();
        assertThat(new PtxAnalyzer().accepts(Path.of("a/b.cuh"))).isFalse();
    }

    @Test
    void unparsableFileIsAnErrorNamingLineAndToken() throws IOException {
        Files.writeString(dir.resolve("bad.ptx"), "hello world ]]]\n");
        TestScanContext ctx = new TestScanContext(dir).run(new PtxAnalyzer());
        assertThat(ctx.findings()).isEmpty();
        Notification n = ctx.notifications().get(0);
        assertThat(n.level()).isEqualTo(Level.ERROR);
        assertThat(n.id()).isEqualTo("parse-error");
        assertThat(n.file()).isEqualTo("bad.ptx");
        assertThat(n.line()).isEqualTo(1);
        assertThat(n.message()).contains("'hello'");
    }

    /**
     * A kernel parameter that nvcc loads again in each iteration ({@code ld.param} inside the loop) is the same value
     * every time: {@code t += dt} is a constant step, a note, as the CUDA source layer calls it (session 76 round F: a
     * shallow-water solver's time loop was a PTX warning). A call's return parameter read in the loop is no such step.
     */
    @Test
    void aKernelParameterReloadedInTheLoopIsAConstantStep() throws IOException {
        String loop = " .reg .pred %p<3>; .reg .f32 %f<9>; .reg .b64 %rd<3>;\n"
                + " ld.param.u64 %rd1, [k_param_0];\n ld.param.f32 %f2, [k_param_2];\n mov.f32 %f5, 0f00000000;\n"
                + "$L__BB0_1:\n ld.param.f32 %f1, [k_param_1];\n add.f32 %f5, %f5, %f1;\n"
                + " setp.lt.f32 %p1, %f5, %f2;\n @%p1 bra $L__BB0_1;\n"
                + " cvta.to.global.u64 %rd2, %rd1;\n st.global.f32 [%rd2], %f5;\n ret;\n}\n";
        Files.writeString(
                dir.resolve("steps.ptx"),
                HEAD + ".visible .entry k(.param .u64 k_param_0, .param .f32 k_param_1, .param .f32 k_param_2)\n{\n"
                        + loop);
        TestScanContext ctx = new TestScanContext(dir).run(new PtxAnalyzer());
        assertThat(ctx.findings())
                .filteredOn(f -> f.ruleId().equals("NL004"))
                .singleElement()
                .satisfies(f -> assertThat(f.level()).isEqualTo(Level.NOTE));
    }

    @Test
    void brokenFunctionIsSkippedWithAWarningAndTheRestAnalyzed() throws IOException {
        Files.writeString(
                dir.resolve("part.ptx"),
                HEAD
                        + ".entry broken() {\n .reg .f32 %f<3>;\n div.full.f32 %f1, %f2, ;\n ret;\n}\n"
                        + ".entry fine(.param .u64 p) {\n .reg .f32 %f<3>; .reg .b64 %rd<2>;\n"
                        + " ld.param.u64 %rd1, [p];\n ld.global.f32 %f2, [%rd1];\n div.full.f32 %f1, %f2, %f2;\n"
                        + " st.global.f32 [%rd1], %f1;\n ret;\n}\n");
        TestScanContext ctx = new TestScanContext(dir).run(new PtxAnalyzer());
        assertThat(ctx.notifications()).hasSize(1);
        Notification n = ctx.notifications().get(0);
        assertThat(n.level()).isEqualTo(Level.WARNING);
        assertThat(n.line()).isEqualTo(6);
        assertThat(n.message()).contains("';'").contains("broken");
        assertThat(ctx.hits()).extracting(h -> h.ruleId() + "@" + h.line()).containsExactly("NL002@13");
        Finding f = ctx.findings().get(0);
        assertThat(f.function()).isEqualTo("fine");
        assertThat(f.layer()).isEqualTo(Layer.PTX);
        assertThat(f.evidence().get(0).text()).isEqualTo("div.full.f32 %f1, %f2, %f2;");
    }

    @Test
    void binaryFileIsNotAnalyzed() throws IOException {
        Files.write(dir.resolve("blob.ptx"), new byte[] {0x7f, 'E', 'L', 'F', 0, 0, 1});
        TestScanContext ctx = new TestScanContext(dir).run(new PtxAnalyzer());
        assertThat(ctx.notifications()).extracting(Notification::id).containsExactly("binary-file");
    }

    @Test
    void cuFilesAreIgnoredWithoutPtxAuto() throws IOException {
        Files.writeString(dir.resolve("k.cu"), "__global__ void k(float* a) { a[0] = a[1] / a[2]; }\n");
        TestScanContext ctx = new TestScanContext(dir).run(new PtxAnalyzer());
        assertThat(ctx.findings()).isEmpty();
        assertThat(ctx.notifications()).isEmpty();
    }

    @Test
    void aProductAddedToAConstantInfinityIsNoContraction() throws IOException {
        Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                dir.resolve("src/k.cu"), "// kernel\n__global__ void k(double* a)\n{\n    a[0] = a[1] * a[2];\n}\n");
        String body = " .reg .f64 %fd<8>; .reg .b64 %rd<2>;\n .loc 1 3 0\n ld.param.u64 %rd1, [p];\n"
                + " ld.global.f64 %fd1, [%rd1+8];\n ld.global.f64 %fd2, [%rd1+16];\n .loc 1 4 5\n"
                + " mul.f64 %fd3, %fd1, %fd2;\n";
        Files.writeString(
                dir.resolve("inf.ptx"),
                HEAD + ".visible .entry _Z1kPd(.param .u64 p) {\n" + body
                        + " add.f64 %fd4, %fd3, 0d7FF0000000000000;\n st.global.f64 [%rd1], %fd4;\n ret;\n}\n"
                        + " .file 1 \"src/k.cu\"\n");
        TestScanContext inf = new TestScanContext(dir).run(new PtxAnalyzer());
        assertThat(inf.hits()).noneMatch(h -> h.ruleId().equals("NL003"));
        Files.delete(dir.resolve("inf.ptx"));
        Files.writeString(
                dir.resolve("fin.ptx"),
                HEAD + ".visible .entry _Z1kPd(.param .u64 p) {\n" + body
                        + " add.f64 %fd4, %fd3, 0d3FF8000000000000;\n st.global.f64 [%rd1], %fd4;\n ret;\n}\n"
                        + " .file 1 \"src/k.cu\"\n");
        TestScanContext fin = new TestScanContext(dir).run(new PtxAnalyzer());
        assertThat(fin.hits()).anyMatch(h -> h.ruleId().equals("NL003"));
    }

    /**
     * A consequence in another file (the test of a header function inlined into the kernel) names that file: "at
     * line 7" alone reads as a line of the kernel's file (session 21's evaluation, nest-gpu and microhh).
     */
    @Test
    void aConsequenceInAnotherFileNamesTheFile() throws IOException {
        Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                dir.resolve("src/h.cuh"),
                "// helper\n__device__ inline int positive(float v)\n{\n    int r = 0;\n    // a test\n"
                        + "    // in the header\n    if (v > 0.0f) r = 1;\n    return r;\n}\n");
        Files.writeString(
                dir.resolve("src/k.cu"),
                "#include \"h.cuh\"\n__global__ void k(float* a, int* out)\n{\n"
                        + "    float v = a[0] * a[1] + a[2];\n    out[0] = positive(v);\n}\n");
        // nvcc 13.0 -ptx -lineinfo -arch=sm_90, the .file paths made relative
        Files.writeString(
                dir.resolve("k.ptx"),
                HEAD + ".visible .entry _Z1kPfPi(.param .u64 p0, .param .u64 p1)\n{\n"
                        + " .reg .pred %p<2>; .reg .f32 %f<5>; .reg .b32 %r<2>; .reg .b64 %rd<5>;\n"
                        + " .loc 1 2 0\n ld.param.u64 %rd1, [p0];\n ld.param.u64 %rd2, [p1];\n"
                        + " .loc 1 4 5\n cvta.to.global.u64 %rd3, %rd2;\n cvta.to.global.u64 %rd4, %rd1;\n"
                        + " ld.global.f32 %f1, [%rd4];\n ld.global.f32 %f2, [%rd4+4];\n"
                        + " ld.global.f32 %f3, [%rd4+8];\n fma.rn.f32 %f4, %f1, %f2, %f3;\n"
                        + " .loc 2 7 5, function_name $L__info_string0, inlined_at 1 5 5\n"
                        + " setp.gt.f32 %p1, %f4, 0f00000000;\n selp.u32 %r1, 1, 0, %p1;\n"
                        + " .loc 1 5 5\n st.global.u32 [%rd3], %r1;\n .loc 1 6 1\n ret;\n}\n"
                        + " .file 1 \"src/k.cu\"\n .file 2 \"src/h.cuh\"\n"
                        + " .section .debug_str\n {\n$L__info_string0:\n"
                        + ".b8 95,90,56,112,111,115,105,116,105,118,101,102,0\n }\n");
        TestScanContext ctx = new TestScanContext(dir).run(new PtxAnalyzer());
        Finding f = ctx.findings().stream()
                .filter(x -> x.ruleId().equals("NL003"))
                .findFirst()
                .orElseThrow();
        assertThat(f.location().file()).isEqualTo("src/k.cu");
        assertThat(f.location().startLine()).isEqualTo(4);
        assertThat(f.message()).contains("compared in a condition at line 7 of h.cuh");
    }

    /**
     * A double difference of products compared itself keeps its judgement-free warning (its cancellation meets the
     * threshold undiluted); the same difference added to another term before the comparison is judged
     * DOUBLE_ROUNDING: 2^-53 of a product against that sum, a tie. The first as an fma of a negated product, the
     * second as nvcc 13 writes it (two mul and a sub that ptxas may fuse).
     */
    @Test
    void aDoubleDifferenceComparedAfterAnAddedTermIsJudgedInDouble() throws IOException {
        Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                dir.resolve("src/d.cu"),
                "// kernel\n__global__ void k(double* a, int* n)\n{\n    double d = a[1] * a[2] - a[3] * a[4];\n"
                        + "    if (d > 0.0) n[0] = 1;\n    double e = a[5] * a[6] - a[7] * a[8];\n"
                        + "    if (a[9] + e < 1e-14) n[1] = 1;\n}\n");
        Files.writeString(
                dir.resolve("d.ptx"),
                HEAD + ".visible .entry _Z1kPdPi(.param .u64 p0, .param .u64 p1) {\n"
                        + " .reg .pred %p<3>; .reg .f64 %fd<20>; .reg .b32 %r<3>; .reg .b64 %rd<3>;\n"
                        + " .loc 1 3 0\n ld.param.u64 %rd1, [p0];\n ld.param.u64 %rd2, [p1];\n"
                        + " .loc 1 4 5\n ld.global.f64 %fd1, [%rd1+8];\n ld.global.f64 %fd2, [%rd1+16];\n"
                        + " ld.global.f64 %fd3, [%rd1+24];\n ld.global.f64 %fd4, [%rd1+32];\n"
                        + " mul.f64 %fd5, %fd3, %fd4;\n neg.f64 %fd6, %fd5;\n fma.rn.f64 %fd7, %fd1, %fd2, %fd6;\n"
                        + " .loc 1 5 5\n setp.gt.f64 %p1, %fd7, 0d0000000000000000;\n"
                        + " .loc 1 6 5\n ld.global.f64 %fd8, [%rd1+40];\n ld.global.f64 %fd9, [%rd1+48];\n"
                        + " ld.global.f64 %fd10, [%rd1+56];\n ld.global.f64 %fd11, [%rd1+64];\n"
                        + " mul.f64 %fd12, %fd10, %fd11;\n mul.f64 %fd13, %fd8, %fd9;\n"
                        + " sub.f64 %fd14, %fd13, %fd12;\n"
                        + " .loc 1 7 5\n ld.global.f64 %fd15, [%rd1+72];\n add.f64 %fd16, %fd15, %fd14;\n"
                        + " setp.lt.f64 %p2, %fd16, 0d3D06849B86A12B9B;\n ret;\n}\n"
                        + " .file 1 \"src/d.cu\"\n");
        TestScanContext ctx = new TestScanContext(dir).run(new PtxAnalyzer());
        Finding itself = ctx.findings().stream()
                .filter(x -> x.ruleId().equals("NL003") && x.location().startLine() == 4)
                .findFirst()
                .orElseThrow();
        assertThat(itself.impact().reach()).isEqualTo(dev.numlint.model.Impact.Reach.DECISION);
        assertThat(itself.identity().judgement()).isNull();
        Finding diluted = ctx.findings().stream()
                .filter(x -> x.ruleId().equals("NL003") && x.location().startLine() == 6)
                .findFirst()
                .orElseThrow();
        assertThat(diluted.impact().reach()).isEqualTo(dev.numlint.model.Impact.Reach.DECISION);
        assertThat(diluted.identity().judgement()).isEqualTo(dev.numlint.model.Identity.Judgement.DOUBLE_ROUNDING);
    }

    /**
     * Float data combined with a double the code declares is deliberate FP64 (NL008): bounded, a note, also where its
     * float result is compared afterwards; the code decides as written and no float computation it did not write is
     * the reference (session 40's evaluation: every sampled such warning was deliberate precision).
     */
    @Test
    void aDeliberateDoubleThatDecidesAComparisonStaysBounded() throws IOException {
        Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                dir.resolve("src/w.cu"),
                "// kernel\n__global__ void k(const float* s, const double* w, int* n)\n{\n"
                        + "    float st = s[0] * w[0];\n    if (st > 1.0f) n[0] = 1;\n}\n");
        Files.writeString(
                dir.resolve("w.ptx"),
                HEAD + ".visible .entry _Z1kPKfPKdPi(.param .u64 p0, .param .u64 p1, .param .u64 p2) {\n"
                        + " .reg .pred %p<2>; .reg .f32 %f<3>; .reg .f64 %fd<4>; .reg .b32 %r<2>; .reg .b64 %rd<4>;\n"
                        + " .loc 1 3 0\n ld.param.u64 %rd1, [p0];\n ld.param.u64 %rd2, [p1];\n"
                        + " ld.param.u64 %rd3, [p2];\n"
                        + " .loc 1 4 5\n ld.global.f32 %f1, [%rd1];\n cvt.f64.f32 %fd1, %f1;\n"
                        + " ld.global.f64 %fd2, [%rd2];\n mul.f64 %fd3, %fd1, %fd2;\n cvt.rn.f32.f64 %f2, %fd3;\n"
                        + " .loc 1 5 5\n setp.gt.f32 %p1, %f2, 0f3F800000;\n @%p1 st.global.u32 [%rd3], 1;\n"
                        + " ret;\n}\n .file 1 \"src/w.cu\"\n");
        TestScanContext ctx = new TestScanContext(dir).run(new PtxAnalyzer());
        Finding f = ctx.findings().stream()
                .filter(x -> x.ruleId().equals("NL008"))
                .findFirst()
                .orElseThrow();
        assertThat(f.impact().kind()).isEqualTo(dev.numlint.model.Impact.Kind.BOUNDED);
        assertThat(f.level()).isEqualTo(dev.numlint.model.Level.NOTE);
    }

    /**
     * A mul that feeds an add written on another line (a product inlined from the caller into a helper's addition)
     * is reported at the addition, whose line holds no product: the message names the product's line.
     */
    @Test
    void aProductWrittenOnAnotherLineIsNamedByItsLine() throws IOException {
        Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                dir.resolve("src/m.cu"),
                "__device__ double addv(double x, double y) { return x + y; }\n"
                        + "__global__ void k(double* a, int* n)\n{\n    double p = a[1] * a[2];\n"
                        + "    a[3] = p;\n    n[0] = (int)addv(p, a[4]);\n}\n");
        Files.writeString(
                dir.resolve("m.ptx"),
                HEAD + ".visible .entry _Z1kPdPi(.param .u64 p0, .param .u64 p1) {\n"
                        + " .reg .f64 %fd<8>; .reg .b32 %r<2>; .reg .b64 %rd<3>;\n"
                        + " .loc 1 3 0\n ld.param.u64 %rd1, [p0];\n ld.param.u64 %rd2, [p1];\n"
                        + " .loc 1 4 5\n ld.global.f64 %fd1, [%rd1+8];\n ld.global.f64 %fd2, [%rd1+16];\n"
                        + " mul.f64 %fd3, %fd1, %fd2;\n"
                        + " .loc 1 5 5\n st.global.f64 [%rd1+24], %fd3;\n"
                        + " .loc 1 6 5\n ld.global.f64 %fd4, [%rd1+32];\n"
                        + " .loc 1 1 53\n add.f64 %fd5, %fd3, %fd4;\n"
                        + " .loc 1 6 5\n cvt.rzi.s32.f64 %r1, %fd5;\n st.global.u32 [%rd2], %r1;\n ret;\n}\n"
                        + " .file 1 \"src/m.cu\"\n");
        TestScanContext ctx = new TestScanContext(dir).run(new PtxAnalyzer());
        Finding f = ctx.findings().stream()
                .filter(x -> x.ruleId().equals("NL003"))
                .findFirst()
                .orElseThrow();
        assertThat(f.location().startLine()).isEqualTo(1);
        assertThat(f.message()).contains("may fuse them (the product: line 4)");
    }

    /**
     * A float's bits moved through integer registers (a float3 member copied with mov.b32 into a mov.b64 pack and
     * cvt.u32.u64 out of it, session 57: a particle simulator's position update) are no conversion of the value: the
     * contraction decides nothing there. The same contraction truncated by cvt.rzi.s32.f32 is converted.
     */
    @Test
    void aFloatsBitsMovedThroughIntegerRegistersAreNoConversion() throws IOException {
        Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                dir.resolve("src/b.cu"),
                "// kernel\n__global__ void k(float* x, int* n, float dt)\n{\n    x[2] += dt * x[1];\n"
                        + "    x[4] += dt * x[3];\n    n[0] = (int)x[4];\n}\n");
        Files.writeString(
                dir.resolve("b.ptx"),
                HEAD + ".visible .entry _Z1kPfPif(.param .u64 p0, .param .u64 p1, .param .f32 p2) {\n"
                        + " .reg .f32 %f<10>; .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
                        + " .loc 1 3 0\n ld.param.u64 %rd1, [p0];\n ld.param.u64 %rd2, [p1];\n"
                        + " ld.param.f32 %f1, [p2];\n"
                        + " .loc 1 4 5\n ld.global.f32 %f2, [%rd1+4];\n ld.global.f32 %f3, [%rd1+8];\n"
                        + " fma.rn.f32 %f4, %f1, %f2, %f3;\n mov.b32 %r1, %f4;\n mov.b64 %rd3, {%r1, %r1};\n"
                        + " cvt.u32.u64 %r2, %rd3;\n mov.b32 %f5, %r2;\n st.global.f32 [%rd1+8], %f5;\n"
                        + " .loc 1 5 5\n ld.global.f32 %f6, [%rd1+12];\n ld.global.f32 %f7, [%rd1+16];\n"
                        + " fma.rn.f32 %f8, %f1, %f6, %f7;\n st.global.f32 [%rd1+16], %f8;\n"
                        + " .loc 1 6 5\n cvt.rzi.s32.f32 %r3, %f8;\n st.global.u32 [%rd2], %r3;\n ret;\n}\n"
                        + " .file 1 \"src/b.cu\"\n");
        TestScanContext ctx = new TestScanContext(dir).run(new PtxAnalyzer());
        java.util.Map<Integer, Finding> byLine = new java.util.TreeMap<>();
        for (Finding f : ctx.findings())
            if (f.ruleId().equals("NL003")) byLine.put(f.location().startLine(), f);
        assertThat(byLine).containsKeys(4, 5);
        assertThat(byLine.get(4).message()).doesNotContain("converted to an integer");
        assertThat(byLine.get(4).impact().reach()).isNotEqualTo(dev.numlint.model.Impact.Reach.CONVERSION);
        assertThat(byLine.get(5).message()).contains("converted to an integer at line 6");
    }

    /**
     * A value compared first and converted to an integer after is followed on to the integer: the graver outcome is
     * the one named and typed ({@code Impact.Reach}); one only compared reaches a decision. A .ptx file of its own
     * has no build context: its approximate division is nobody's chosen flag (no judgement).
     */
    @Test
    void aComparedValueIsFollowedOnToTheIntegerItBecomes() throws IOException {
        Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                dir.resolve("src/k.cu"),
                "// kernel\n__global__ void k(float* a, int* n)\n{\n    float q = a[1] / a[2];\n"
                        + "    if (q > 1.0f) a[0] = 1.0f;\n    n[0] = (int)q;\n    float r = a[3] / a[4];\n"
                        + "    if (r > 1.0f) a[5] = 1.0f;\n}\n");
        Files.writeString(
                dir.resolve("k.ptx"),
                HEAD + ".visible .entry _Z1kPfPi(.param .u64 p0, .param .u64 p1) {\n"
                        + " .reg .pred %p<3>; .reg .f32 %f<9>; .reg .b32 %r<2>; .reg .b64 %rd<3>;\n"
                        + " .loc 1 3 0\n ld.param.u64 %rd1, [p0];\n ld.param.u64 %rd2, [p1];\n"
                        + " .loc 1 4 5\n ld.global.f32 %f1, [%rd1+4];\n ld.global.f32 %f2, [%rd1+8];\n"
                        + " div.approx.f32 %f3, %f1, %f2;\n"
                        + " .loc 1 5 5\n setp.gt.f32 %p1, %f3, 0f3F800000;\n"
                        + " .loc 1 6 5\n cvt.rzi.s32.f32 %r1, %f3;\n st.global.u32 [%rd2], %r1;\n"
                        + " .loc 1 7 5\n ld.global.f32 %f4, [%rd1+12];\n ld.global.f32 %f5, [%rd1+16];\n"
                        + " div.approx.f32 %f6, %f4, %f5;\n"
                        + " .loc 1 8 5\n setp.gt.f32 %p2, %f6, 0f3F800000;\n ret;\n}\n"
                        + " .file 1 \"src/k.cu\"\n");
        TestScanContext ctx = new TestScanContext(dir).run(new PtxAnalyzer());
        Finding counted = ctx.findings().stream()
                .filter(x -> x.ruleId().equals("NL002") && x.location().startLine() == 4)
                .findFirst()
                .orElseThrow();
        assertThat(counted.impact().reach()).isEqualTo(dev.numlint.model.Impact.Reach.CONVERSION);
        assertThat(counted.message()).contains("converted to an integer at line 6");
        assertThat(counted.identity().judgement()).isNull();
        Finding compared = ctx.findings().stream()
                .filter(x -> x.ruleId().equals("NL002") && x.location().startLine() == 7)
                .findFirst()
                .orElseThrow();
        assertThat(compared.impact().reach()).isEqualTo(dev.numlint.model.Impact.Reach.DECISION);
        assertThat(compared.message()).contains("compared in a condition at line 8");
    }

    @Test
    void findingsMapToTheCudaSourceLineWithThePtxAsRelatedLocation() throws IOException {
        Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                dir.resolve("src/k.cu"),
                "// kernel\n__global__ void k(float* a)\n{\n" + "    a[0] = __fdividef(a[1], a[2]);\n}\n");
        Files.writeString(
                dir.resolve("k.ptx"),
                HEAD + ".visible .entry _Z1kPf(.param .u64 p) {\n"
                        + " .reg .f32 %f<4>; .reg .b64 %rd<2>;\n .loc 1 3 0\n ld.param.u64 %rd1, [p];\n"
                        + " .loc 1 4 5\n div.approx.f32 %f1, %f2, %f3;\n ret;\n}\n .file 1 \"src/k.cu\"\n");
        TestScanContext ctx = new TestScanContext(dir).run(new PtxAnalyzer());
        assertThat(ctx.hits())
                .extracting(h -> h.file() + ":" + h.line() + " " + h.ruleId())
                .containsExactly("src/k.cu:4 NL002");
        Finding f = ctx.findings().get(0);
        assertThat(f.function()).isEqualTo("k");
        assertThat(f.properties()).containsEntry("mangledName", "_Z1kPf");
        assertThat(f.related())
                .anyMatch(r -> r.location().file().equals("k.ptx")
                        && r.location().startLine() == 9
                        && r.message().contains("div.approx.f32"));
        assertThat(f.evidence())
                .anyMatch(e -> e.kind().equals("source") && e.text().contains("__fdividef"));
        assertThat(f.fingerprintKey()).doesNotContain("4:").contains("__fdividef");
    }

    @Test
    void aFileEntryNamingAFileOutsideTheTreeIsNeverRead() throws IOException {
        Path repo = Files.createDirectories(dir.resolve("repo"));
        Path secret = Files.writeString(
                Files.createDirectories(dir.resolve("outside")).resolve("secret.cu"),
                "line one\nline two\nline three\nTHE-SECRET-LINE\n");
        Files.createSymbolicLink(repo.resolve("link.cu"), secret);
        for (String named : new String[] {secret.toString(), "../outside/secret.cu", "link.cu"}) {
            Files.writeString(
                    repo.resolve("k.ptx"),
                    HEAD + ".visible .entry _Z1kPf(.param .u64 p) {\n"
                            + " .reg .f32 %f<4>; .reg .b64 %rd<2>;\n .loc 1 3 0\n ld.param.u64 %rd1, [p];\n"
                            + " .loc 1 4 5\n div.approx.f32 %f1, %f2, %f3;\n ret;\n}\n .file 1 \"" + named + "\"\n");
            TestScanContext ctx = new TestScanContext(repo).run(new PtxAnalyzer());
            assertThat(ctx.findings()).as(named).singleElement().satisfies(f -> {
                assertThat(f.location().file()).isEqualTo("k.ptx");
                assertThat(f.toString())
                        .doesNotContain("THE-SECRET-LINE")
                        .doesNotContain(secret.toString())
                        .doesNotContain("outside");
            });
        }
    }

    @Test
    void systemPathsAreRecognizedInLinearTime() {
        assertThat(LibraryCode.isSystemPath("/usr/local/cuda-13.0/include/cuda_fp16.hpp"))
                .isTrue();
        assertThat(LibraryCode.isSystemPath("/opt/cuda/include/x.h")).isTrue();
        assertThat(LibraryCode.isSystemPath("/home/u/cuda_proj/src/k.cu")).isFalse();
        assertThat(LibraryCode.isSystemPath("/home/u/cudainclude/k.cu")).isFalse();
        String hostile = "/cuda".repeat(200_000) + "x";
        // a hang guard: a backtracking match of 1.2 million characters would take hours, a linear one milliseconds
        assertThat(org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                        java.time.Duration.ofSeconds(60), () -> LibraryCode.isSystemPath(hostile)))
                .isFalse();
    }

    @Test
    void aFileOverItsTimeBudgetIsReportedAndTheScanGoesOn() throws IOException {
        Files.writeString(
                dir.resolve("a.ptx"),
                HEAD + ".entry one(.param .u64 p) {\n .reg .f32 %f<3>;\n"
                        + " div.full.f32 %f1, %f2, %f2;\n ret;\n}\n.entry two() {\n ret;\n}\n");
        System.setProperty("numlint.ptx.fileBudgetMs", "0");
        try {
            TestScanContext ctx = new TestScanContext(dir).run(new PtxAnalyzer());
            assertThat(ctx.notifications()).singleElement().satisfies(n -> {
                assertThat(n.id()).isEqualTo("ptx-budget");
                assertThat(n.level()).isEqualTo(Level.WARNING);
                assertThat(n.message())
                        .isEqualTo("not fully analyzed: the PTX layer's budget of 0 ms per file was "
                                + "used up after 0 of 2 functions; the rest (from one) was skipped");
            });
        } finally {
            System.clearProperty("numlint.ptx.fileBudgetMs");
        }
        assertThat(new TestScanContext(dir).run(new PtxAnalyzer()).hits()).hasSize(1);
    }

    @Test
    void aCheckedInPtxThatNoLongerMatchesItsSourceIsReportedWhateverTheFileTimes() throws IOException {
        String kernel = "__global__ void k(float* a)\n{\n" + "    a[0] = __fdividef(a[1], a[2]);\n}\n";
        Path cu = Files.writeString(dir.resolve("k.cu"), "// kernel\n" + kernel);
        Path ptx = Files.writeString(
                dir.resolve("k.ptx"),
                HEAD + ".visible .entry _Z1kPf(.param .u64 p) {\n"
                        + " .reg .f32 %f<4>; .reg .b64 %rd<2>;\n .loc 1 4 5\n div.approx.f32 %f1, %f2, %f3;\n ret;\n}\n"
                        + " .file 1 \"k.cu\"\n");
        // a source newer than its .ptx (a fresh clone, a branch switch) that still matches it: nothing to say
        long now = System.currentTimeMillis();
        Files.setLastModifiedTime(ptx, java.nio.file.attribute.FileTime.fromMillis(now - 3_600_000));
        Files.setLastModifiedTime(cu, java.nio.file.attribute.FileTime.fromMillis(now));
        TestScanContext fresh = new TestScanContext(dir).run(new PtxAnalyzer());
        assertThat(fresh.notifications()).isEmpty();
        assertThat(fresh.hits())
                .extracting(h -> h.file() + ":" + h.line() + " " + h.ruleId())
                .containsExactly("k.cu:4 NL002");
        // a line inserted above the kernel: .loc 1 4 5 now points at the blank indentation of line 4
        Files.writeString(cu, "// kernel\n// a new comment line\n" + kernel);
        Files.setLastModifiedTime(cu, java.nio.file.attribute.FileTime.fromMillis(now - 7_200_000));
        TestScanContext shifted = new TestScanContext(dir).run(new PtxAnalyzer());
        assertThat(shifted.notifications()).singleElement().satisfies(n -> {
            assertThat(n.id()).isEqualTo("ptx-stale");
            assertThat(n.file()).isEqualTo("k.ptx");
            assertThat(n.message())
                    .isEqualTo("k.ptx does not match k.cu (nothing at line 4, column 5): not analyzed; regenerate it"
                            + " or delete it");
        });
        // only the notice: the division is on line 5 now, and line 4 is a comment
        assertThat(shifted.hits()).isEmpty();
        // the kernel cut short: the .loc line is past the end of the file
        Files.writeString(cu, "__global__ void k(float* a);\n");
        TestScanContext cut = new TestScanContext(dir).run(new PtxAnalyzer());
        assertThat(cut.notifications()).singleElement().satisfies(n -> assertThat(n.message())
                .contains("(line 4 is past its end)"));
        assertThat(cut.hits()).isEmpty();
    }

    @Test
    void inlinedHelperIsReportedWhereTheOperationIsWrittenWithTheCallSiteRelated() throws IOException {
        Files.writeString(
                dir.resolve("help.cuh"),
                "__device__ float mad3(float a, float b, float c)\n" + "{\n    return a * b + c;\n}\n");
        Files.writeString(
                dir.resolve("k.cu"),
                "#include \"help.cuh\"\n__global__ void k(float* a)\n{\n" + "    a[0] = mad3(a[1], a[2], a[3]);\n}\n");
        Files.writeString(
                dir.resolve("k.ptx"),
                HEAD + ".visible .entry _Z1kPf(.param .u64 p) {\n"
                        + " .reg .f32 %f<5>; .reg .b64 %rd<2>;\n .loc 1 3 0\n ld.param.u64 %rd1, [p];\n"
                        + " .loc 1 4 5\n .loc 2 3 14, function_name $L__info_string0, inlined_at 1 4 12\n"
                        + " fma.rn.f32 %f1, %f2, %f3, %f4;\n ret;\n}\n .file 1 \"k.cu\"\n .file 2 \"help.cuh\"\n");
        TestScanContext ctx = new TestScanContext(dir).run(new PtxAnalyzer());
        assertThat(ctx.hits())
                .extracting(h -> h.file() + ":" + h.line() + " " + h.ruleId())
                .containsExactly("help.cuh:3 NL003");
        Finding f = ctx.findings().get(0);
        assertThat(f.location().startColumn()).isEqualTo(14);
        assertThat(f.related())
                .anyMatch(r -> r.location().file().equals("k.cu")
                        && r.location().startLine() == 4
                        && r.message().contains("inlined here"));
        assertThat(f.related())
                .anyMatch(
                        r -> r.location().file().equals("k.ptx") && r.location().startLine() == 10);
    }

    /**
     * A float constant nvcc folded into an inlined callee ({@code excess(npv, 0.05f)}) is shown at the callee's line,
     * which writes a name in capitals but no literal: the finding is at the line of the call that writes the literal
     * (the last line of a call over two), the callee's line related (session 33's evaluation, FinanceBench's yield
     * solvers).
     */
    @Test
    void aFoldedFloatConstantIsReportedWhereTheCallWritesIt() throws IOException {
        Files.writeString(
                dir.resolve("k.cu"),
                "__device__ double excess(double NPV, double g)\n{\n    return (g - NPV);\n}\n"
                        + "__global__ void k(double* a)\n{\n    a[0] = excess(a[1],\n                  0.05f);\n}\n");
        Files.writeString(
                dir.resolve("k.ptx"),
                HEAD + ".visible .entry _Z1kPd(.param .u64 p) {\n"
                        + " .reg .f64 %fd<4>; .reg .b64 %rd<2>;\n .loc 1 6 0\n ld.param.u64 %rd1, [p];\n"
                        + " .loc 1 7 12\n ld.global.f64 %fd1, [%rd1+8];\n"
                        + " .loc 1 3 5, function_name $L__info_string0, inlined_at 1 7 12\n"
                        + " sub.f64 %fd2, 0d3FA99999A0000000, %fd1;\n"
                        + " .loc 1 7 5\n st.global.f64 [%rd1], %fd2;\n ret;\n}\n .file 1 \"k.cu\"\n");
        TestScanContext ctx = new TestScanContext(dir).run(new PtxAnalyzer());
        assertThat(ctx.hits())
                .filteredOn(h -> h.ruleId().equals("NL014"))
                .extracting(h -> h.file() + ":" + h.line())
                .containsExactly("k.cu:8");
        Finding f = ctx.findings().stream()
                .filter(x -> x.ruleId().equals("NL014"))
                .findFirst()
                .orElseThrow();
        assertThat(f.related()).anyMatch(r -> r.location().startLine() == 3);
    }

    @Test
    void minTripCountOptionIsHonoured() throws IOException {
        String loop = HEAD + ".entry acc(.param .u64 p) {\n .reg .pred %p<2>; .reg .f32 %f<4>; .reg .b32 %r<3>;"
                + " .reg .b64 %rd<2>;\n ld.param.u64 %rd1, [p];\n mov.u32 %r1, 0;\n mov.f32 %f1, 0f00000000;\n"
                + "$L__loop:\n ld.global.f32 %f2, [%rd1];\n add.f32 %f1, %f1, %f2;\n add.s32 %r1, %r1, 1;\n"
                + " setp.lt.s32 %p1, %r1, 20;\n @%p1 bra $L__loop;\n st.global.f32 [%rd1], %f1;\n ret;\n}\n";
        Files.writeString(dir.resolve("acc.ptx"), loop);
        assertThat(new TestScanContext(dir).run(new PtxAnalyzer()).hits())
                .extracting(h -> h.ruleId())
                .containsExactly("NL004");
        assertThat(new TestScanContext(dir)
                        .option("NL004", "min-trip-count", "32")
                        .run(new PtxAnalyzer())
                        .hits())
                .isEmpty();
        assertThat(new TestScanContext(dir)
                        .disable("NL004")
                        .run(new PtxAnalyzer())
                        .hits())
                .isEmpty();
    }

    @Test
    void ftzIsReportedOncePerFunction() throws IOException {
        Files.writeString(
                dir.resolve("ftz.ptx"),
                HEAD + ".entry z() {\n .reg .f32 %f<6>;\n"
                        + " add.ftz.f32 %f1, %f2, %f3;\n mul.ftz.f32 %f4, %f1, %f1;\n neg.ftz.f32 %f5, %f4;\n ret;\n}\n");
        TestScanContext ctx = new TestScanContext(dir).run(new PtxAnalyzer());
        assertThat(ctx.findings()).hasSize(1);
        assertThat(ctx.findings().get(0).message()).startsWith("3 instructions").contains("add.ftz.f32");
        assertThat(ctx.findings().get(0).location().startLine()).isEqualTo(6);
    }

    @Test
    void includedCudaFilesAreAnalyzedThroughTheirIncluder() throws IOException {
        Files.writeString(dir.resolve("main.cu"), "#include \"kernel.cu\"\nint main() { return 0; }\n");
        Files.writeString(dir.resolve("kernel.cu"), "__global__ void k(float* a) { a[0] = a[1]; }\n");
        assertThat(PtxAnalyzer.includedCudaFiles(List.of(dir.resolve("main.cu"), dir.resolve("kernel.cu"))))
                .containsEntry(dir.resolve("kernel.cu").toAbsolutePath().normalize(), dir.resolve("main.cu"))
                .hasSize(1);
    }

    @Test
    void aUnitTheBuildCompilesOnItsOwnIsNotLeftToAFileThatIncludesIt() throws IOException {
        Path main = dir.resolve("main.cu");
        Path kernel = dir.resolve("kernel.cu");
        Files.writeString(main, "#include \"kernel.cu\"\nint main() { return 0; }\n");
        Files.writeString(kernel, "__global__ void k(float* a) { a[0] = a[1]; }\n");
        Map<Path, Path> includedBy = PtxAnalyzer.includedCudaFiles(List.of(main, kernel));
        assertThat(PtxAnalyzer.includer(BuildContext.defaults(), kernel, includedBy))
                .isEqualTo(main);
        assertThat(PtxAnalyzer.includer(BuildContext.defaults().compiled(true), kernel, includedBy))
                .isNull();
        assertThat(PtxAnalyzer.includer(BuildContext.defaults().compiled(true).compiledVia(main), kernel, includedBy))
                .isEqualTo(main);
    }

    @Test
    void nvccFailureIsAWarningWithTheCompilerError() throws IOException {
        Optional<Path> nvcc = Nvcc.find();
        Assumptions.assumeTrue(nvcc.isPresent(), "nvcc not found: skipping the nvcc failure test");
        Files.writeString(dir.resolve("broken.cu"), "__global__ void k(float* a) { a[0] = undefined_thing; }\n");
        BuildContext bc = BuildContext.defaults().addNvccFlag("-Xcompiler").addNvccFlag("-ccbin=/tmp/x");
        TestScanContext ctx = new TestScanContext(dir)
                .projectContext(bc)
                .ptx(PtxMode.AUTO, nvcc.get())
                .run(new PtxAnalyzer());
        List<Notification> ns = ctx.notifications();
        assertThat(ns)
                .anyMatch(n -> n.id().equals("nvcc-failed")
                        && n.level() == Level.WARNING
                        && n.message().contains("undefined_thing")
                        && n.line() == 1);
        assertThat(ns)
                .anyMatch(n -> n.id().equals("nvcc-flag-dropped")
                        && n.level() == Level.NOTE
                        && n.message().contains("-Xcompiler"));
        assertThat(ns)
                .anyMatch(n -> n.id().equals("nvcc-flag-dropped") && n.message().contains("-ccbin"));
        assertThat(ctx.findings()).isEmpty();
    }

    /**
     * Session 26's defect 8: a .cu file whose PTX went over its budget was an error ("not analyzed"), which counted
     * all its functions out although the source layer analyzed them; and the budget was 5 s for any size of PTX.
     * Now the PTX layer alone is said to be incomplete (a warning) and the budget grows with the PTX's size.
     */
    @Test
    void aCuFileWhosePtxGoesOverItsBudgetIsAnIncompletePtxLayerNotAFileNotAnalyzed() throws IOException {
        StringBuilder src = new StringBuilder("__global__ void k(const double* a, double* o) {\n  double x = a[0];\n");
        for (int i = 0; i < 400; i++)
            src.append("  x = x * a[").append(i % 13 + 1).append("] + 0.5;\n");
        src.append("  o[0] = x;\n}\n");
        System.setProperty("numlint.ptx.fileBudgetMs", "1");
        List<Notification> ns;
        try {
            ns = compileAndAnalyze(src.toString()).notifications();
        } finally {
            System.clearProperty("numlint.ptx.fileBudgetMs");
        }
        assertThat(ns).noneMatch(n -> n.level() == Level.ERROR);
        assertThat(ns)
                .anyMatch(n -> n.id().equals("ptx-budget")
                        && n.level() == Level.WARNING
                        && n.message().contains("the source layer analyzed the file's functions"));
        // one budget per 250 KB of PTX begun, at most 8
        System.setProperty("numlint.ptx.fileBudgetMs", "1000");
        try {
            assertThat(PtxAnalyzer.fileBudgetNanos(0)).isEqualTo(1_000_000_000L);
            assertThat(PtxAnalyzer.fileBudgetNanos(660_000)).isEqualTo(3_000_000_000L);
            assertThat(PtxAnalyzer.fileBudgetNanos(50_000_000)).isEqualTo(8_000_000_000L);
        } finally {
            System.clearProperty("numlint.ptx.fileBudgetMs");
        }
    }

    /** Compiles {@code source} as k.cu with nvcc and runs the PTX analyzer on it (skipped without nvcc). */
    private TestScanContext compileAndAnalyze(String source) throws IOException {
        Optional<Path> nvcc = Nvcc.find();
        Assumptions.assumeTrue(nvcc.isPresent(), "nvcc not found: skipping");
        Files.writeString(dir.resolve("k.cu"), source);
        return new TestScanContext(dir).ptx(PtxMode.AUTO, nvcc.get()).run(new PtxAnalyzer());
    }

    @Test
    void twoApproximateIntrinsicsOnOneLineAreTwoFindingsEachWithItsInstruction() throws IOException {
        TestScanContext ctx = compileAndAnalyze("__global__ void k(const float* a, const float* b, float* o) {\n"
                + "    o[0] = __expf(a[0]) * __cosf(b[0]);\n}\n");
        List<Finding> nl006 =
                ctx.findings().stream().filter(f -> f.ruleId().equals("NL006")).toList();
        assertThat(nl006).hasSize(2).allMatch(f -> f.location().startLine() == 2);
        assertThat(nl006)
                .extracting(f -> f.properties().get("ptxInstruction").toString().split("\\.")[0])
                .containsExactlyInAnyOrder("ex2", "cos");
    }

    @Test
    void atomicsIntoTwoArraysOnOneLineAreTwoFindings() throws IOException {
        TestScanContext ctx = compileAndAnalyze("__global__ void k(const float* e, float* t, float* v) {\n"
                + "    atomicAdd(t, e[0]); atomicAdd(&v[threadIdx.x], e[1]);\n}\n");
        List<Finding> nl009 =
                ctx.findings().stream().filter(f -> f.ruleId().equals("NL009")).toList();
        assertThat(nl009).hasSize(2).allMatch(f -> f.location().startLine() == 2);
        assertThat(nl009)
                .extracting(Finding::message)
                .anyMatch(m -> m.contains("parameter #1"))
                .anyMatch(m -> m.contains("parameter #2"));
    }

    /** cuSZ's shape (issue 26): one atomicAdd written in a helper, inlined into several targets, is one finding. */
    @Test
    void anAtomicInAHelperInlinedIntoSeveralTargetsIsOneFinding() throws IOException {
        TestScanContext ctx = compileAndAnalyze("__device__ __forceinline__ void acc(float* p, float v) {\n"
                + "    atomicAdd(p, v);\n}\n"
                + "__global__ void k(const float* e, float* s, float* t, float* u) {\n"
                + "    __shared__ float sh;\n"
                + "    acc(s, e[0]);\n    acc(t, e[1]);\n    acc(u, e[2]);\n    acc(&sh, e[3]);\n"
                + "    __syncthreads();\n    s[1] = sh;\n}\n");
        List<Finding> nl009 =
                ctx.findings().stream().filter(f -> f.ruleId().equals("NL009")).toList();
        assertThat(nl009).singleElement().satisfies(f -> {
            assertThat(f.location().startLine()).isEqualTo(2);
            assertThat(f.properties()).containsEntry("instances", 4);
            assertThat(f.related())
                    .filteredOn(r -> r.message().contains("inlined here"))
                    .extracting(r -> r.location().startLine())
                    .containsExactlyInAnyOrder(6, 7, 8, 9);
        });
    }

    @Test
    void anInlinedHelperIsOneFindingWithItsCallSitesAndTheMostSevereConsequence() throws IOException {
        TestScanContext ctx = compileAndAnalyze("__device__ __forceinline__ float mad3(float a, float b, float c) {\n"
                + "    return a * b + c;\n}\n"
                + "__global__ void k(const float* x, float* o, int* idx) {\n"
                + "    o[0] = mad3(x[0], x[1], x[2]);\n"
                + "    idx[0] = (int) mad3(x[3], x[4], x[5]);\n}\n");
        List<Finding> nl003 =
                ctx.findings().stream().filter(f -> f.ruleId().equals("NL003")).toList();
        assertThat(nl003).hasSize(1);
        Finding f = nl003.get(0);
        assertThat(f.location().startLine()).isEqualTo(2);
        assertThat(f.related())
                .filteredOn(r -> r.message().contains("inlined here"))
                .extracting(r -> r.location().startLine())
                .containsExactlyInAnyOrder(5, 6);
        assertThat(f.impact().kind()).isEqualTo(dev.numlint.model.Impact.Kind.AMPLIFIED);
        assertThat(f.level()).isEqualTo(Level.WARNING);
        assertThat(f.message()).contains("converted to an integer at line 6");
    }

    /**
     * A line that subtracts one written product from a product computed on another line is not "a difference of
     * products on this line": the message names the other product's line (InfiniTAM's colour_obs - 255 * known).
     */
    @Test
    void aDifferenceWithAProductOfAnotherLineNamesThatLine() throws IOException {
        TestScanContext ctx = compileAndAnalyze("__global__ void k(const float* x, float* o) {\n"
                + "    float obs = x[0] * x[1];\n"
                + "    o[0] = obs - x[2] * x[3];\n"
                + "    o[1] = x[4] * x[5] - x[6] * x[7];\n}\n");
        List<Finding> nl003 =
                ctx.findings().stream().filter(f -> f.ruleId().equals("NL003")).toList();
        assertThat(nl003)
                .filteredOn(f -> f.location().startLine() == 3)
                .isNotEmpty()
                .allSatisfy(f -> assertThat(f.message())
                        .contains("then cancels against a product of line 2")
                        .doesNotContain("a difference of products"));
        assertThat(nl003)
                .filteredOn(f -> f.location().startLine() == 4)
                .isNotEmpty()
                .allSatisfy(f -> assertThat(f.message()).contains("a difference of products (cancellation)"));
    }

    @Test
    void fmaStepsOfAnInlinedMathRoutineAreNotTheUsersContraction() throws IOException {
        TestScanContext ctx = compileAndAnalyze("__global__ void k(const float* x, float* o) {\n"
                + "    o[0] = asinf(x[0]) + sinhf(x[1]) * 2.0f;\n}\n");
        assertThat(ctx.findings()).noneMatch(f -> f.ruleId().equals("NL003"));
    }

    @Test
    void anAccumulatorUpdatedInSeveralBranchesIsOneFindingNamingTheLoopsSourceLine() throws IOException {
        TestScanContext ctx = compileAndAnalyze("__global__ void k(const float* v, const float* w, float* o, int n) {\n"
                + "    float sum = 0.0f;\n"
                + "    #pragma unroll 1\n"
                + "    for (int j = 0; j < n; j++) {\n"
                + "        if (v[j] > w[j]) sum -= v[j];\n"
                + "        else if (v[j] < 0.0f) sum += w[j];\n"
                + "        else sum += v[j] * w[j + n];\n"
                + "    }\n"
                + "    o[0] = sum;\n}\n");
        List<Finding> nl004 =
                ctx.findings().stream().filter(f -> f.ruleId().equals("NL004")).toList();
        assertThat(nl004).hasSize(1);
        Finding f = nl004.get(0);
        assertThat(f.location().startLine()).isEqualTo(5);
        assertThat(f.related())
                .filteredOn(r -> r.message().contains("also updated here"))
                .extracting(r -> r.location().startLine())
                .containsExactlyInAnyOrder(6, 7);
        assertThat(f.message()).contains("(loop at line 4)").doesNotContain("PTX loop");
    }

    @Test
    void codeHoistedIntoALibrarysLoopIsReportedInTheUsersFunctorNotAtTheLibraryLine() throws IOException {
        // session 26's defect 11: a project header outside the scanned PATHs runs the user's functors in a
        // grid-stride loop; nvcc hoists a functor's invariant double arithmetic out of the loop (line 0), and the
        // finding landed on the library's loop line (it shows a '*'), where every functor's merged
        Optional<Path> nvcc = Nvcc.find();
        Assumptions.assumeTrue(nvcc.isPresent(), "nvcc not found: skipping");
        Files.createDirectories(dir.resolve("lib"));
        Files.writeString(
                dir.resolve("lib/parallel_for.cuh"),
                "template <typename F>\n"
                        + "__global__ void parallelFor(int n, F f)\n"
                        + "{\n"
                        + "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)\n"
                        + "        f(i);\n"
                        + "}\n");
        Files.writeString(
                dir.resolve("k.cu"),
                "#include \"lib/parallel_for.cuh\"\n"
                        + "struct Step {\n"
                        + "    float *u; float tau; float rate;\n"
                        + "    __device__ void operator()(int i) const {\n"
                        + "        float dt = 0.1 * tau * rate;\n"
                        + "        u[i] = u[i] + dt * u[i];\n"
                        + "    }\n"
                        + "};\n"
                        + "void run(float *u, int n, float tau, float rate) {\n"
                        + "    parallelFor<<<1, 32>>>(n, Step{u, tau, rate});\n"
                        + "}\n");
        TestScanContext ctx = new TestScanContext(dir)
                .outsideScan(p -> p.startsWith("lib"))
                .ptx(PtxMode.AUTO, nvcc.get())
                .run(new PtxAnalyzer());
        List<Finding> nl008 =
                ctx.findings().stream().filter(f -> f.ruleId().equals("NL008")).toList();
        assertThat(nl008).isNotEmpty().allSatisfy(f -> assertThat(f.location().file())
                .isEqualTo("k.cu"));
        assertThat(nl008).allSatisfy(f -> assertThat(f.location().startLine()).isBetween(5, 6));
    }

    @Test
    void aDoubleFromAReductionsLiteralIdentityIsNamedAsTheLiteralNotADeclaration() throws IOException {
        // session 26's defect 15: "declared double (a double variable, parameter or return type): deliberat..."
        TestScanContext ctx = compileAndAnalyze("template <typename T>\n"
                + "__device__ T sumAbs(const float *u, int n, T identity) {\n"
                + "    T r = identity;\n"
                + "    for (int i = 0; i < n; i++) r = r + fabsf(u[i]);\n"
                + "    return r;\n}\n"
                + "__global__ void residue(const float *u, float *out, float tau, int n) {\n"
                + "    float res = sumAbs(u, n, 0.0)\n"
                + "                / (tau * n);\n"
                + "    out[0] = res;\n}\n");
        List<Finding> nl008 =
                ctx.findings().stream().filter(f -> f.ruleId().equals("NL008")).toList();
        assertThat(nl008).extracting(f -> f.location().startLine()).contains(4, 9);
        assertThat(nl008).allSatisfy(f -> assertThat(f.message())
                .contains("a double literal (0.0)")
                .doesNotContain("declared"));
    }

    @Test
    void aValueRecomputedFromTheAccumulatorIsNotTheSum() throws IOException {
        // session 26's defect 12: 'tau = stop - time' lies on the cycle of 'time = time + tau' and comes first in the
        // PTX; the sum is the update that carries itself
        TestScanContext ctx = compileAndAnalyze("__global__ void k(float* o, float stop, float tau0, int n) {\n"
                + "    float time = 0.0f, tau = tau0;\n"
                + "    #pragma unroll 1\n"
                + "    for (int s = 0; s < n; s++) {\n"
                + "        if (time + tau0 > stop) tau = stop - time;\n"
                + "        else tau = tau0;\n"
                + "        time = time + tau;\n"
                + "        o[s] = time;\n"
                + "    }\n}\n");
        List<Finding> nl004 =
                ctx.findings().stream().filter(f -> f.ruleId().equals("NL004")).toList();
        assertThat(nl004).isNotEmpty().allMatch(f -> f.location().startLine() == 7, "at the time update");
    }

    @Test
    void aLoopWhoseBranchIsAnIfBreakIsNotCitedAtThatLine() throws IOException {
        // session 26's defect 12: "(loop at ODESolver.hpp:163)" named an 'if (...) break;'
        TestScanContext ctx = compileAndAnalyze("__global__ void k(const float* v, float* o, float lim) {\n"
                + "    float s = 0.0f;\n"
                + "    int j = 0;\n"
                + "    while (true) {\n"
                + "        s += v[j];\n"
                + "        j++;\n"
                + "        if (s > lim) break;\n"
                + "    }\n"
                + "    o[0] = s;\n}\n");
        List<Finding> nl004 =
                ctx.findings().stream().filter(f -> f.ruleId().equals("NL004")).toList();
        assertThat(nl004).hasSize(1);
        assertThat(nl004.get(0).message())
                .satisfiesAnyOf(m -> assertThat(m).contains("(loop at line 4)"), m -> assertThat(m)
                        .contains("(a loop in the PTX)"))
                .doesNotContain("loop at line 7");
    }

    @Test
    void theLoopOfASumInAnInlinedHelperIsWhereTheLoopIsWrittenNotTheHelper() throws IOException {
        Files.writeString(
                dir.resolve("acc.cuh"), "__device__ __forceinline__ void acc(float& s, float x) {\n    s += x;\n}\n");
        TestScanContext ctx = compileAndAnalyze("#include \"acc.cuh\"\n"
                + "__global__ void k(const float* v, float* o, float dt, int n) {\n"
                + "    float s = 0.0f, t = 0.0f;\n"
                + "    #pragma unroll 1\n"
                + "    for (int j = 0; j < n; j++) {\n"
                + "        acc(s, v[j]);\n"
                + "        acc(t, dt);\n"
                + "    }\n"
                + "    o[0] = s + t;\n}\n");
        List<Finding> nl004 =
                ctx.findings().stream().filter(f -> f.ruleId().equals("NL004")).toList();
        assertThat(nl004).extracting(f -> f.location().file()).allMatch(file -> file.endsWith("acc.cuh"));
        // both inlined copies are written at one helper line: one finding (one thread's serial loop: a note)
        assertThat(nl004).hasSize(1).allMatch(f -> f.message().contains("(loop at k.cu:5)"));
        assertThat(nl004.get(0).level()).isEqualTo(Level.NOTE);
    }
}
