package dev.numlint.validation.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.validation.fp.Cvt;
import dev.numlint.validation.fp.Fp32;
import dev.numlint.validation.fp.Rounding;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * The opcodes {@link Superinstructions#specialise} gives the commonest general forms (add/sub/mul/fma.rn.ftz.f32,
 * the strict builds' unfused multiply-adds, cvt.rn.f32.s32, cvt.rzi{.ftz}.s32.f32) compute bit for bit what the
 * general forms compute ({@link Fp32}, {@link Cvt}), on every pair of special values: zeros, subnormals, normals
 * around 1, the largest floats, infinities, NaN and values outside the s32 range.
 */
class SpecialisedOpsTest {
    private static final float[] VALUES = {
        0f,
        -0f,
        1f,
        -1f,
        1.5f,
        -2.5f,
        2.5f,
        Float.MIN_VALUE,
        -Float.MIN_VALUE,
        0x1p-127f,
        -0x1.8p-130f,
        Float.MIN_NORMAL,
        -Float.MIN_NORMAL,
        0x1.000002p-126f,
        Float.MAX_VALUE,
        -Float.MAX_VALUE,
        Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY,
        Float.NaN,
        3e9f,
        -3e9f,
        2147483520f,
        1e-40f,
        0x1.fffffep23f
    };
    private static final int[] INTS = {
        0, 1, -1, 16777216, 16777217, -16777217, 33554435, Integer.MAX_VALUE, Integer.MIN_VALUE, 123456789
    };

    private static final String KERNEL = InterpreterTest.HEAD
            + ".visible .entry t(.param .u64 in, .param .u64 out) {\n"
            + ".reg .b32 %r<10>; .reg .f32 %f<12>; .reg .b64 %rd<10>;\n"
            + "ld.param.u64 %rd1, [in]; cvta.to.global.u64 %rd2, %rd1;\n"
            + "ld.param.u64 %rd3, [out]; cvta.to.global.u64 %rd4, %rd3;\n"
            + "mov.u32 %r1, %tid.x;\n"
            + "mul.wide.u32 %rd5, %r1, 16; add.s64 %rd6, %rd2, %rd5;\n"
            + "ld.global.f32 %f1, [%rd6]; ld.global.f32 %f2, [%rd6+4]; ld.global.f32 %f3, [%rd6+8];\n"
            + "ld.global.u32 %r2, [%rd6+12];\n"
            + "add.rn.ftz.f32 %f4, %f1, %f2;\n"
            + "sub.ftz.f32 %f5, %f1, %f2;\n"
            + "mul.ftz.f32 %f6, %f1, %f2;\n"
            + "fma.rn.ftz.f32 %f7, %f1, %f2, %f3;\n"
            + "cvt.rn.f32.s32 %f8, %r2;\n"
            + "cvt.rzi.ftz.s32.f32 %r3, %f1;\n"
            + "cvt.rzi.s32.f32 %r4, %f2;\n"
            + "fma.rn.f32 %f9, %f1, %f2, %f3;\n"
            + "mul.wide.u32 %rd7, %r1, 32; add.s64 %rd8, %rd4, %rd7;\n"
            + "st.global.f32 [%rd8], %f4; st.global.f32 [%rd8+4], %f5; st.global.f32 [%rd8+8], %f6;\n"
            + "st.global.f32 [%rd8+12], %f7; st.global.f32 [%rd8+16], %f8; st.global.u32 [%rd8+20], %r3;\n"
            + "st.global.u32 [%rd8+24], %r4; st.global.f32 [%rd8+28], %f9;\n"
            + "ret;\n}\n";

    @Test
    void specialisedOpcodesComputeWhatTheGeneralFormsCompute() throws Exception {
        // unfuseFma: the fma.rn.f32 becomes an unfused mul and add (F32_G without .ftz), run as MUL_F32/ADD_F32
        Program p = Decoder.decode(PtxModelAdapter.read(KERNEL), "t", new Decoder.Options().unfuseFma(true));
        assertThat(p.op)
                .contains(
                        Op.ADD_F32_FTZ,
                        Op.SUB_F32_FTZ,
                        Op.MUL_F32_FTZ,
                        Op.CVT_F32_S32,
                        Op.CVT_S32_F32,
                        Op.MUL_F32,
                        Op.ADD_F32)
                .doesNotContain(Op.F32_G, Op.CVT);
        Program fused = Decoder.decode(PtxModelAdapter.read(KERNEL), "t", new Decoder.Options());
        assertThat(fused.op).contains(Op.FMA_F32_FTZ, Op.FMA_F32);

        int n = VALUES.length * VALUES.length;
        ByteBuffer in = ByteBuffer.allocate(16 * n).order(ByteOrder.LITTLE_ENDIAN);
        for (int k = 0; k < n; k++) {
            in.putFloat(VALUES[k / VALUES.length]).putFloat(VALUES[k % VALUES.length]);
            in.putFloat(VALUES[(k * 7 + 3) % VALUES.length]).putInt(INTS[k % INTS.length]);
        }
        for (boolean unfused : new boolean[] {true, false}) {
            Launch l = new Launch(unfused ? p : fused);
            long inAddr = l.alloc(in.array().clone()), outAddr = l.alloc(new byte[32 * n]);
            l.param(0, inAddr);
            l.param(1, outAddr);
            l.run(new int[] {1, 1, 1}, new int[] {n, 1, 1}, 0, 1_000_000);
            ByteBuffer out = ByteBuffer.wrap(l.read(outAddr, 32 * n)).order(ByteOrder.LITTLE_ENDIAN);
            for (int k = 0; k < n; k++) {
                float a = VALUES[k / VALUES.length],
                        b = VALUES[k % VALUES.length],
                        c = VALUES[(k * 7 + 3) % VALUES.length];
                int s = INTS[k % INTS.length];
                String at = "a=" + a + " b=" + b + " c=" + c + " s=" + s;
                int o = 32 * k;
                assertThat(out.getInt(o)).as("add.rn.ftz " + at).isEqualTo(bits(Fp32.add(a, b, Rounding.RN, true)));
                assertThat(out.getInt(o + 4)).as("sub.ftz " + at).isEqualTo(bits(Fp32.sub(a, b, Rounding.RN, true)));
                assertThat(out.getInt(o + 8)).as("mul.ftz " + at).isEqualTo(bits(Fp32.mul(a, b, Rounding.RN, true)));
                float fz = unfused
                        ? Fp32.add(Fp32.mul(a, b, Rounding.RN, true), c, Rounding.RN, true)
                        : Fp32.fma(a, b, c, Rounding.RN, true);
                assertThat(out.getInt(o + 12))
                        .as("fma.rn.ftz (unfused: " + unfused + ") " + at)
                        .isEqualTo(bits(fz));
                assertThat(out.getInt(o + 16))
                        .as("cvt.rn.f32.s32 " + at)
                        .isEqualTo(bits(Cvt.intToFloat(s, false, Rounding.RN)));
                assertThat(out.getInt(o + 20)).as("cvt.rzi.ftz.s32.f32 " + at).isEqualTo((int)
                        Cvt.floatToInt(Fp32.ftz(a), Rounding.RZ, 32, true));
                assertThat(out.getInt(o + 24)).as("cvt.rzi.s32.f32 " + at).isEqualTo((int)
                        Cvt.floatToInt(b, Rounding.RZ, 32, true));
                float f = unfused
                        ? Fp32.add(Fp32.mul(a, b, Rounding.RN, false), c, Rounding.RN, false)
                        : Fp32.fma(a, b, c, Rounding.RN, false);
                assertThat(out.getInt(o + 28))
                        .as("fma.rn (unfused: " + unfused + ") " + at)
                        .isEqualTo(bits(f));
            }
        }
    }

    /** The bits the interpreter writes for an f32 result (NaN canonical). */
    private static int bits(float v) {
        return (int) Interpreter.fb(v);
    }
}
