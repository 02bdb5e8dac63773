package dev.numlint.ptx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Finding;
import dev.numlint.testing.TestScanContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NL001 in PTX on a constant operand (SUPRA's clampCast&lt;float&gt; of a uint8_t input, session 24's evaluation):
 * {@code static_cast<InputType>(LimitProxy<float>::min())} converts -FLT_MAX to uint8_t, which nvcc emits as a
 * {@code mov.f32} of the constant and a {@code cvt.rzi.u32.f32}. The message names the constant and what the GPU makes
 * of it, not a guard it does not have ("upper bound guarded only") and an example value it never takes.
 */
class ConstantConversionTest {
    private static final String HEAD = ".version 8.0\n.target sm_80\n.address_size 64\n";

    @TempDir
    Path dir;

    private Finding conversion(String operand) throws IOException {
        Files.writeString(
                dir.resolve("k.cu"),
                "// clamp\n__global__ void k(unsigned char* out, const unsigned char* in, float x)\n{\n"
                        + "    out[0] = (unsigned char)(-3.4e38f) + (unsigned char)(x);\n}\n");
        // the shape nvcc 13.0 -ptx -lineinfo --use_fast_math emits (SUPRA FilterSradCuda.cu, transform_kernel)
        Files.writeString(
                dir.resolve("k.ptx"),
                HEAD + ".visible .entry _Z1kPhPKhf(.param .u64 p0, .param .u64 p1, .param .f32 p2)\n{\n"
                        + " .reg .f32 %f<4>; .reg .b32 %r<4>; .reg .b64 %rd<3>;\n"
                        + " .loc 1 2 0\n ld.param.u64 %rd1, [p0];\n ld.param.f32 %f1, [p2];\n"
                        + " cvta.to.global.u64 %rd2, %rd1;\n"
                        + " .loc 1 4 5\n min.ftz.f32 %f2, %f1, 0f437F0000;\n mov.f32 %f3, " + operand + ";\n"
                        + " cvt.rzi.ftz.u32.f32 %r1, %f3;\n and.b32 %r2, %r1, 255;\n"
                        + " st.global.u8 [%rd2], %r2;\n"
                        + " .loc 1 5 1\n ret;\n}\n"
                        + " .file 1 \"k.cu\"\n");
        TestScanContext ctx = new TestScanContext(dir).run(new PtxAnalyzer());
        return ctx.findings().stream()
                .filter(f -> f.ruleId().equals("NL001"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aConstantOutOfRangeIsNamedNotCalledGuarded() throws IOException {
        Finding f = conversion("0fFF7FFFFF");
        assertThat(f.message())
                .isEqualTo("`cvt.rzi.ftz.u32.f32 %r1, %f3`: unguarded conversion to an unsigned integer: the constant"
                        + " -3.4028235E38: 0 on the GPU, undefined in C/C++")
                .doesNotContain("guarded only");
        assertThat(conversion("0f7F7FFFFF").message())
                .endsWith("the constant 3.4028235E38: 4294967295 on the GPU," + " undefined in C/C++");
    }

    @Test
    void aVariableUnderAnUpperGuardOnlyIsStillOneSided() throws IOException {
        // min(x, 255.f) without a lower guard: nvcc keeps a max the source writes, so this PTX has none
        Finding f = conversion("%f2");
        assertThat(f.message()).contains("(upper bound guarded only)");
    }
}
