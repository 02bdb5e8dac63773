package dev.numlint.validation.interp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The interpreter's first calls return after a short slice of instructions and are called again at once (so that
 * the JIT compiles the loop whole before it compiles it by on-stack replacement): a thread run in slices computes,
 * counts and stops at the instruction limit exactly as one run in a single call, with and without barriers.
 */
class SlicesTest {
    private static final String HEAD = InterpreterTest.HEAD;

    /** Each thread loops 5 + 3 * tid times (backward branches in every slice) and stores what it accumulated. */
    static final String LOOP = HEAD
            + ".visible .entry t(.param .u64 out) {\n"
            + ".reg .pred %p<4>; .reg .b32 %r<20>; .reg .b64 %rd<8>;\n"
            + "ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd2, %rd1;\n"
            + "mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mad.lo.s32 %r4, %r2, %r3, %r1;\n"
            + "mad.lo.s32 %r5, %r4, 3, 5; mov.u32 %r6, 0; mov.u32 %r7, 1;\n"
            + "$L_top:\n"
            + "mad.lo.s32 %r7, %r7, 3, %r6; xor.b32 %r7, %r7, %r4; add.s32 %r6, %r6, 1;\n"
            + "setp.lt.s32 %p1, %r6, %r5;\n"
            + "@%p1 bra $L_top;\n"
            + "mul.wide.u32 %rd3, %r4, 4; add.s64 %rd4, %rd2, %rd3; st.global.u32 [%rd4], %r7;\n"
            + "ret;\n}\n";

    /** Threads write shared memory, meet at a barrier, read a neighbour's word and loop on it. */
    private static final String BARRIER = HEAD
            + ".visible .entry t(.param .u64 out) {\n"
            + ".reg .pred %p<4>; .reg .b32 %r<20>; .reg .b64 %rd<8>;\n"
            + ".shared .align 4 .b32 sh[64];\n"
            + "ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd2, %rd1;\n"
            + "mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mad.lo.s32 %r4, %r2, %r3, %r1;\n"
            + "mul.lo.s32 %r5, %r4, %r4; mov.u32 %r8, sh; shl.b32 %r9, %r1, 2; add.s32 %r10, %r8, %r9;\n"
            + "st.shared.u32 [%r10], %r5;\n"
            + "bar.sync 0;\n"
            + "add.s32 %r11, %r1, 1; rem.u32 %r11, %r11, %r3; shl.b32 %r12, %r11, 2; add.s32 %r13, %r8, %r12;\n"
            + "ld.shared.u32 %r6, [%r13]; and.b32 %r14, %r6, 31; mov.u32 %r15, 0;\n"
            + "$L_top:\n"
            + "add.s32 %r6, %r6, %r15; add.s32 %r15, %r15, 1;\n"
            + "setp.le.s32 %p1, %r15, %r14;\n"
            + "@%p1 bra $L_top;\n"
            + "bar.sync 0;\n"
            + "mul.wide.u32 %rd3, %r4, 4; add.s64 %rd4, %rd2, %rd3; st.global.u32 [%rd4], %r6;\n"
            + "ret;\n}\n";

    private static final int THREADS = 64;

    private record Result(byte[] out, long executed) {}

    private static Result run(String src, boolean slices, long limit) throws Exception {
        Interpreter.youngCalls = slices ? Integer.MAX_VALUE : 0;
        Program p = Decoder.decode(PtxModelAdapter.read(src), "t", false, false);
        Launch l = new Launch(p);
        long out = l.alloc(new byte[4 * THREADS]);
        l.param(0, out);
        try {
            l.run(new int[] {2, 1, 1}, new int[] {THREADS / 2, 1, 1}, 0, limit);
        } catch (KernelFault f) {
            return new Result(f.getMessage().getBytes(java.nio.charset.StandardCharsets.UTF_8), l.executed());
        }
        return new Result(l.read(out, 4 * THREADS), l.executed());
    }

    @AfterEach
    void restore() {
        Interpreter.youngCalls = 0;
    }

    @Test
    void slicedThreadsComputeAndCountAsWholeOnes() throws Exception {
        for (String src : new String[] {LOOP, BARRIER}) {
            Result whole = run(src, false, 10_000_000), sliced = run(src, true, 10_000_000);
            assertThat(sliced.out()).isEqualTo(whole.out());
            assertThat(sliced.executed()).isEqualTo(whole.executed());
            // each thread ran well past one slice
            assertThat(whole.executed()).isGreaterThan(THREADS * (long) Interpreter.SLICE * 2);
        }
        // a value the loop computes, to show the kernel ran: thread 0 loops 5 times from 1
        Result r = run(LOOP, true, 10_000_000);
        int acc = 1;
        for (int i = 0; i < 5; i++) acc = acc * 3 + i;
        assertThat(java.nio.ByteBuffer.wrap(r.out())
                        .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                        .getInt(0))
                .isEqualTo(acc);
    }

    @Test
    void slicedThreadsStopAtTheSameInstructionLimit() throws Exception {
        for (long limit : new long[] {100, 1_001, 5_000}) {
            Result whole = run(LOOP, false, limit), sliced = run(LOOP, true, limit);
            assertThat(new String(sliced.out(), java.nio.charset.StandardCharsets.UTF_8))
                    .contains("instruction limit of " + limit)
                    .isEqualTo(new String(whole.out(), java.nio.charset.StandardCharsets.UTF_8));
            assertThat(sliced.executed()).isEqualTo(whole.executed());
        }
        assertThatThrownBy(() -> {
                    Interpreter.youngCalls = Integer.MAX_VALUE;
                    Program p = Decoder.decode(PtxModelAdapter.read(LOOP), "t", false, false);
                    Launch l = new Launch(p);
                    l.param(0, l.alloc(new byte[4 * THREADS]));
                    l.run(new int[] {2, 1, 1}, new int[] {THREADS / 2, 1, 1}, 0, 300);
                })
                .isInstanceOf(KernelFault.class);
    }
}
