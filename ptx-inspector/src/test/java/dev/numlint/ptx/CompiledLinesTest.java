package dev.numlint.ptx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.testing.TestScanContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The source lines the PTX holds code for, and those with FP64 instructions (ScanContext#addCompiledLines). */
class CompiledLinesTest {
    private static final String HEAD = ".version 8.0\n.target sm_80\n.address_size 64\n";

    @TempDir
    Path dir;

    @Test
    void linesWithCodeAndLinesWithFp64IncludingInlinedAndHoistedCode() throws IOException {
        Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                dir.resolve("src/h.cuh"),
                "// helper\n__device__ inline float half(float v)\n{\n" + "    return 0.5 * v;\n}\n");
        Files.writeString(
                dir.resolve("src/k.cu"),
                "#include \"h.cuh\"\n__global__ void k(float* a, float s)\n{\n"
                        + "    a[0] = 0.25 * a[1];\n" // 4: narrowed to mul.f32
                        + "    a[1] = a[2] * 0.1;\n" // 5: mul.f64
                        + "    a[2] = half(a[3]);\n" // 6: the helper's line 4 inlined here, mul.f32
                        + "    for (int i = 0; i < 8; i++)\n" // 7
                        + "        a[i] += s * 0.1;\n" // 8: the double product hoisted out of the loop, line 0
                        + "}\n");
        // the shape nvcc 13.0 -ptx -lineinfo emits, the loop left out
        Files.writeString(
                dir.resolve("k.ptx"),
                HEAD + ".visible .entry _Z1kPff(.param .u64 p0, .param .f32 p1)\n{\n"
                        + " .reg .f32 %f<12>; .reg .f64 %fd<8>; .reg .b64 %rd<3>;\n"
                        + " .loc 1 2 0\n ld.param.u64 %rd1, [p0];\n ld.param.f32 %f9, [p1];\n"
                        + " cvta.to.global.u64 %rd2, %rd1;\n"
                        + " .loc 1 4 5\n ld.global.f32 %f1, [%rd2+4];\n mul.f32 %f2, %f1, 0f3E800000;\n"
                        + " st.global.f32 [%rd2], %f2;\n"
                        + " .loc 1 5 5\n ld.global.f32 %f3, [%rd2+8];\n cvt.f64.f32 %fd1, %f3;\n"
                        + " mul.f64 %fd2, %fd1, 0d3FB999999999999A;\n cvt.rn.f32.f64 %f4, %fd2;\n"
                        + " st.global.f32 [%rd2+4], %f4;\n"
                        + " .loc 1 6 5\n ld.global.f32 %f5, [%rd2+12];\n"
                        + " .loc 2 4 5, function_name $L__info_string0, inlined_at 1 6 5\n"
                        + " mul.f32 %f6, %f5, 0f3F000000;\n"
                        + " .loc 1 6 5\n st.global.f32 [%rd2+8], %f6;\n"
                        + " .loc 1 0 0\n cvt.f64.f32 %fd3, %f9;\n mul.f64 %fd4, %fd3, 0d3FB999999999999A;\n"
                        + " cvt.rn.f32.f64 %f7, %fd4;\n"
                        + " .loc 1 8 9\n ld.global.f32 %f8, [%rd2];\n add.f32 %f10, %f8, %f7;\n"
                        + " st.global.f32 [%rd2], %f10;\n"
                        + " .loc 1 9 1\n ret;\n}\n"
                        + " .file 1 \"src/k.cu\"\n .file 2 \"src/h.cuh\"\n"
                        + " .section .debug_str\n {\n$L__info_string0:\n.b8 95,90,52,104,97,108,102,102,0\n }\n");
        TestScanContext ctx = new TestScanContext(dir).run(new PtxAnalyzer());
        assertThat(ctx.notifications()).isEmpty();
        assertThat(ctx.codeLines()).isEqualTo(Map.of("src/k.cu", Set.of(2, 4, 5, 6, 8, 9), "src/h.cuh", Set.of(4)));
        // 4 and the helper's line were narrowed to float; 8 uses the double product hoisted without a line
        assertThat(ctx.fp64Lines()).isEqualTo(Map.of("src/k.cu", Set.of(5, 8), "src/h.cuh", Set.of()));
    }
}
