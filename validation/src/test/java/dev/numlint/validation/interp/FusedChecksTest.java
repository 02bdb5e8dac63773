package dev.numlint.validation.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.validation.fp.Approx;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * A build counting floating-point exceptions fuses the check with the commonest f32 instructions after it
 * ({@link Superinstructions#fuseChecks}); the fused instructions count exactly what the separate check counts and
 * compute what the instructions compute, on every combination of special values (zeros, subnormals, the edges of
 * the normal range, infinities, NaN, values outside the s32 range), and count as the two instructions they stand for.
 */
class FusedChecksTest {
    private static final float[] VALUES = {
        0f,
        -0f,
        1f,
        -1.5f,
        3f,
        Float.MIN_VALUE,
        -0x1.8p-130f,
        Float.MIN_NORMAL,
        -0x1.000002p-126f,
        0x1.fffffep-126f,
        0x1p-125f,
        0x1.fffffep126f,
        -0x1p127f,
        Float.MAX_VALUE,
        Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY,
        Float.NaN,
        0x1p30f,
        -0x1.fffffep29f,
        3e9f,
        0x1p64f,
        0x1p-64f,
        0x1.8p63f,
        -0x1p-63f
    };

    private static final String KERNEL = InterpreterTest.HEAD
            + ".visible .entry t(.param .u64 in, .param .u64 out) {\n"
            + ".reg .b32 %r<10>; .reg .f32 %f<20>; .reg .b64 %rd<10>;\n"
            + "ld.param.u64 %rd1, [in]; cvta.to.global.u64 %rd2, %rd1;\n"
            + "ld.param.u64 %rd3, [out]; cvta.to.global.u64 %rd4, %rd3;\n"
            + "mov.u32 %r1, %tid.x; mov.u32 %r5, %ctaid.x; mov.u32 %r6, %ntid.x; mad.lo.s32 %r1, %r5, %r6, %r1;\n"
            + "mul.wide.u32 %rd5, %r1, 12; add.s64 %rd6, %rd2, %rd5;\n"
            + "ld.global.f32 %f1, [%rd6]; ld.global.f32 %f2, [%rd6+4]; ld.global.f32 %f3, [%rd6+8];\n"
            + "add.rn.ftz.f32 %f4, %f1, %f2;\n"
            + "sub.ftz.f32 %f5, %f1, %f2;\n"
            + "mul.ftz.f32 %f6, %f1, %f2;\n"
            + "fma.rn.ftz.f32 %f7, %f1, %f2, %f3;\n"
            + "add.rn.f32 %f8, %f1, %f2;\n"
            + "sub.rn.f32 %f9, %f1, %f2;\n"
            + "mul.rn.f32 %f10, %f1, %f2;\n"
            + "fma.rn.f32 %f11, %f1, %f2, %f3;\n"
            + "div.approx.ftz.f32 %f12, %f1, %f2;\n"
            + "div.approx.f32 %f13, %f1, %f2;\n"
            + "cvt.rzi.ftz.s32.f32 %r2, %f1;\n"
            + "cvt.rzi.s32.f32 %r3, %f2;\n"
            + "add.ftz.f32 %f1, %f1, %f3;\n" // the destination is an operand
            + "mul.wide.u32 %rd7, %r1, 56; add.s64 %rd8, %rd4, %rd7;\n"
            + "st.global.f32 [%rd8], %f4; st.global.f32 [%rd8+4], %f5; st.global.f32 [%rd8+8], %f6;\n"
            + "st.global.f32 [%rd8+12], %f7; st.global.f32 [%rd8+16], %f8; st.global.f32 [%rd8+20], %f9;\n"
            + "st.global.f32 [%rd8+24], %f10; st.global.f32 [%rd8+28], %f11; st.global.f32 [%rd8+32], %f12;\n"
            + "st.global.f32 [%rd8+36], %f13; st.global.u32 [%rd8+40], %r2; st.global.u32 [%rd8+44], %r3;\n"
            + "st.global.f32 [%rd8+48], %f1;\n"
            + "ret;\n}\n";

    @Test
    void fusedChecksCountWhatTheSeparateCheckCounts() throws Exception {
        int n = VALUES.length, threads = n * n * n; // 13,824: 216 blocks of 64
        ByteBuffer in = ByteBuffer.allocate(12 * threads).order(ByteOrder.LITTLE_ENDIAN);
        for (int t = 0; t < threads; t++)
            in.putFloat(VALUES[t % n]).putFloat(VALUES[(t / n) % n]).putFloat(VALUES[t / (n * n)]);
        PtxText.Module m = PtxModelAdapter.read(KERNEL);
        Program fused = Decoder.decode(m, "t", new Decoder.Options().exceptions(true));
        assertThat(fused.op)
                .contains(
                        Op.ADD_F32_FTZ_X,
                        Op.SUB_F32_FTZ_X,
                        Op.MUL_F32_FTZ_X,
                        Op.FMA_F32_FTZ_X,
                        Op.ADD_F32_X,
                        Op.SUB_F32_X,
                        Op.MUL_F32_X,
                        Op.FMA_F32_X,
                        Op.DIV_APPROX_F32_X)
                .doesNotContain(Op.FPX);
        assertThat(count(fused.op, Op.CVT_S32_F32_X)).isEqualTo(2);
        // the same build with every check run separately before its instruction, as before the fusion
        Program separate = Decoder.decode(m, "t", new Decoder.Options().exceptions(true));
        for (int i = 0; i < separate.n; i++)
            if (separate.op[i] >= Op.ADD_F32_FTZ_X && separate.op[i] <= Op.DIV_APPROX_F32_X) {
                separate.op[i] = Op.FPX;
                separate.opGuarded[i] = separate.g[i] != 0 ? Op.FPX | Program.GUARDED : Op.FPX;
            }
        Program plain = Decoder.decode(m, "t", new Decoder.Options());
        Result f = run(fused, in.array(), threads),
                s = run(separate, in.array(), threads),
                q = run(plain, in.array(), threads);
        assertThat(f.out).isEqualTo(s.out).isEqualTo(q.out);
        // div.approx{.ftz}.f32 runs as DIV_APPROX_F32 (inline in the loop), computing Approx.divApprox
        assertThat(plain.op).contains(Op.DIV_APPROX_F32).doesNotContain(Op.F32_APPROX);
        ByteBuffer out = ByteBuffer.wrap(q.out).order(ByteOrder.LITTLE_ENDIAN);
        for (int t = 0; t < threads; t++) {
            float a = VALUES[t % n], b = VALUES[(t / n) % n];
            assertThat(out.getInt(56 * t + 32)).isEqualTo((int) Interpreter.fb(Approx.divApprox(a, b, true)));
            assertThat(out.getInt(56 * t + 36)).isEqualTo((int) Interpreter.fb(Approx.divApprox(a, b, false)));
        }
        assertThat(f.executed).isEqualTo(s.executed);
        assertThat(fused.exceptions).isDeepEqualTo(separate.exceptions);
        // the values raise every kind of exception somewhere, so the comparison covers the slow path
        long[] total = new long[Program.EXCEPTION_NAMES.size()];
        for (long[] row : fused.exceptions) for (int k = 0; k < row.length; k++) total[k] += row[k];
        assertThat(total).doesNotContain(0L);
    }

    private static int count(int[] ops, int op) {
        int c = 0;
        for (int o : ops) if (o == op) c++;
        return c;
    }

    private record Result(byte[] out, long executed) {}

    private static Result run(Program p, byte[] in, int threads) throws KernelFault {
        Launch l = new Launch(p);
        long inp = l.alloc(in.clone());
        long out = l.alloc(new byte[56 * threads]);
        l.param(0, inp);
        l.param(1, out);
        l.run(new int[] {threads / 64, 1, 1}, new int[] {64, 1, 1}, 0, 100_000_000L);
        return new Result(l.read(out, 56 * threads), l.executed());
    }
}
