package dev.numlint.validation.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JCudaLauncherTest {
    /** A hand-written kernel: out[i] = a[i] * a[i] + b[i], contracted to fma.rn by hand. */
    static final String PTX =
            """
            .version 8.0
            .target sm_50
            .address_size 64
            .visible .entry axpb(.param .u64 pa, .param .u64 pb, .param .u64 pout, .param .u32 n)
            {
              .reg .pred %p<2>; .reg .b32 %r<6>; .reg .f32 %f<5>; .reg .b64 %rd<11>;
              ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [pb]; ld.param.u64 %rd3, [pout]; ld.param.u32 %r1, [n];
              mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x; mad.lo.s32 %r5, %r2, %r3, %r4;
              setp.ge.s32 %p1, %r5, %r1; @%p1 bra DONE;
              cvta.to.global.u64 %rd4, %rd1; cvta.to.global.u64 %rd5, %rd2; cvta.to.global.u64 %rd6, %rd3;
              mul.wide.s32 %rd7, %r5, 4; add.s64 %rd8, %rd4, %rd7; add.s64 %rd9, %rd5, %rd7; add.s64 %rd10, %rd6, %rd7;
              ld.global.f32 %f1, [%rd8]; ld.global.f32 %f2, [%rd9]; fma.rn.f32 %f3, %f1, %f1, %f2; st.global.f32 [%rd10], %f3;
            DONE:
              ret;
            }
            """;

    @Test
    void reportsWhyNoGpuCanBeUsedOrRunsTheWhitePaperExample() {
        Optional<String> why = JCudaLauncher.unavailableReason();
        if (why.isPresent()) {
            assertThat(why.get()).isNotBlank();
        }
        assumeTrue(why.isEmpty(), () -> "GPU tests skipped: " + why.orElse(""));
        try (JCudaLauncher gpu = JCudaLauncher.open(0)) {
            assertThat(gpu.info().name()).isNotBlank();
            byte[] a = floats(Float.intBitsToFloat(0x3F800001));
            byte[] b = floats(Float.intBitsToFloat(0xBF800002));
            JCudaLauncher.LaunchResult r = gpu.launch(
                    PTX,
                    "axpb",
                    List.of(
                            new JCudaLauncher.Buffer(a),
                            new JCudaLauncher.Buffer(b),
                            new JCudaLauncher.Buffer(new byte[4]),
                            new JCudaLauncher.Scalar(ByteBuffer.allocate(4)
                                    .order(ByteOrder.LITTLE_ENDIAN)
                                    .putInt(1)
                                    .array())),
                    new int[] {1, 1, 1},
                    new int[] {32, 1, 1},
                    0,
                    2);
            float out = ByteBuffer.wrap(r.buffers().get(2))
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .getFloat();
            assertThat(out).isEqualTo(1.4210855e-14f);
            assertThat(r.kernelMillis()).hasSize(2);
        }
    }

    private static byte[] floats(float... v) {
        ByteBuffer bb = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) {
            bb.putFloat(f);
        }
        return bb.array();
    }
}
