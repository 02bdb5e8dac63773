package dev.numlint.validation.interp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Every global, shared, local and parameter access is checked against its allocation; nothing is padded. */
class MemorySafetyTest {
    /** out[i] = in[i + 1] for i < n: the last thread reads one element past the input (n elements). */
    static final String ONE_PAST = ".version 8.0\n.target sm_90\n.address_size 64\n"
            + ".visible .entry shift(.param .u64 out, .param .u64 in, .param .u32 n) {\n"
            + ".reg .pred %p<2>; .reg .b32 %r<8>; .reg .f32 %f<4>; .reg .b64 %rd<12>;\n"
            + ".loc 1 3 5\n"
            + "ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [in]; ld.param.u32 %r1, [n];\n"
            + "mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x; mad.lo.s32 %r5, %r2, %r3, %r4;\n"
            + "setp.ge.u32 %p1, %r5, %r1; @%p1 bra DONE;\n"
            + "cvta.to.global.u64 %rd3, %rd2; mul.wide.u32 %rd4, %r5, 4; add.s64 %rd5, %rd3, %rd4;\n"
            + ".loc 1 7 17\n"
            + "ld.global.f32 %f1, [%rd5+4];\n"
            + "cvta.to.global.u64 %rd6, %rd1; add.s64 %rd7, %rd6, %rd4; st.global.f32 [%rd7], %f1;\n"
            + "DONE:\nret;\n}\n.file 1 \"shift.cu\"\n";

    private static Launch launch(String ptx, String kernel, int n) {
        Program p = Decoder.decode(PtxModelAdapter.read(ptx), kernel, new Decoder.Options());
        Launch l = new Launch(p);
        l.param(0, l.alloc(new byte[4 * n], "out"));
        l.param(1, l.alloc(new byte[4 * n], "in"));
        l.param(2, n);
        return l;
    }

    @Test
    void lastThreadReadingOnePastItsInputFaultsWithThreadBlockAndLines() {
        Launch l = launch(ONE_PAST, "shift", 1000);
        assertThatThrownBy(() -> l.run(new int[] {4, 1, 1}, new int[] {256, 1, 1}, 0, 1_000_000))
                .isInstanceOfSatisfying(KernelFault.class, f -> {
                    assertThat(f.outOfBounds).isTrue();
                    // thread 999 = block 3, thread 231 is the first to read in[1000]
                    assertThat(f.where.block()).containsExactly(3, 0, 0);
                    assertThat(f.where.thread()).containsExactly(231, 0, 0);
                    assertThat(f.where.ptxLine()).isEqualTo(12);
                    assertThat(f.where.source()).isEqualTo("shift.cu:7:17");
                    assertThat(f.getMessage())
                            .contains(
                                    "out-of-bounds global access of 4 bytes: 0 bytes past the end of in (4000 bytes)");
                });
    }

    @Test
    void inBoundsLaunchRuns() throws Exception {
        Launch l = launch(ONE_PAST.replace("[%rd5+4]", "[%rd5]"), "shift", 1000);
        l.run(new int[] {4, 1, 1}, new int[] {256, 1, 1}, 0, 1_000_000);
        assertThat(l.executed()).isPositive();
    }

    @Test
    void negativeIndexIsReportedAsBeforeTheBufferNotAsAnOverflowedInt() {
        Launch l = launch(ONE_PAST.replace("[%rd5+4]", "[%rd5+-8]"), "shift", 1000);
        assertThatThrownBy(() -> l.run(new int[] {1, 1, 1}, new int[] {1, 1, 1}, 0, 1_000_000))
                .isInstanceOfSatisfying(KernelFault.class, f -> {
                    assertThat(f.outOfBounds).isTrue();
                    assertThat(f.what())
                            .isEqualTo(
                                    "out-of-bounds global access of 4 bytes: 8 bytes before the start of in (4000 bytes)");
                });
    }

    @Test
    void sharedTileOverrunFaultsInsteadOfWritingIntoPadding() {
        String ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                + ".visible .entry tile(.param .u64 out) {\n.reg .b32 %r<4>; .reg .f32 %f<2>;\n"
                + ".shared .align 4 .b8 t[64];\n"
                + "mov.u32 %r1, %tid.x; shl.b32 %r2, %r1, 2; mov.u32 %r3, t; add.s32 %r3, %r3, %r2;\n"
                + "mov.f32 %f1, 0f3F800000; st.shared.f32 [%r3], %f1;\nret;\n}\n";
        Program p = Decoder.decode(PtxModelAdapter.read(ptx), "tile", new Decoder.Options());
        Launch ok = new Launch(p);
        ok.param(0, ok.alloc(new byte[4]));
        assertThatThrownBy(() -> ok.run(new int[] {1, 1, 1}, new int[] {17, 1, 1}, 0, 1_000_000))
                .isInstanceOfSatisfying(KernelFault.class, f -> {
                    assertThat(f.where.thread()).containsExactly(16, 0, 0);
                    assertThat(f.getMessage())
                            .contains(
                                    "out-of-bounds shared access of 4 bytes: 0 bytes past the end of shared memory (64 bytes)");
                });
    }

    @Test
    void localAndParamAccessesAreChecked() {
        String ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                + ".visible .entry loc(.param .u64 out) {\n.reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
                + ".local .align 4 .b8 buf[16];\n"
                + "mov.u64 %rd1, buf; mov.u32 %r1, 7; st.local.u32 [%rd1+16], %r1;\nret;\n}\n";
        Program p = Decoder.decode(PtxModelAdapter.read(ptx), "loc", new Decoder.Options());
        Launch l = new Launch(p);
        l.param(0, l.alloc(new byte[4]));
        assertThatThrownBy(() -> l.run(new int[] {1, 1, 1}, new int[] {1, 1, 1}, 0, 1_000))
                .hasMessageContaining(
                        "out-of-bounds local access of 4 bytes: 0 bytes past the end of local memory (16 bytes)");
        String par = ptx.replace("st.local.u32 [%rd1+16], %r1;", "ld.param.u32 %r2, [out+8];");
        Program q = Decoder.decode(PtxModelAdapter.read(par), "loc", new Decoder.Options());
        Launch m = new Launch(q);
        m.param(0, m.alloc(new byte[4]));
        assertThatThrownBy(() -> m.run(new int[] {1, 1, 1}, new int[] {1, 1, 1}, 0, 1_000))
                .hasMessageContaining(
                        "out-of-bounds param access of 4 bytes: 0 bytes past the end of param memory (8 bytes)");
    }
}
