package dev.numlint.validation.interp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * Branches and the decode-time superinstructions (guarded bra, setp.s32 + bra): results, the executed-instruction
 * count (each superinstruction counts the PTX instructions it stands for) and the per-launch instruction limit.
 */
class ControlFlowTest {
    private static final String HEAD = InterpreterTest.HEAD;

    private static Program decode(String body) throws Exception {
        String src = HEAD
                + ".visible .entry t(.param .u64 out, .param .u32 n) {\n"
                + ".reg .pred %p<8>; .reg .b32 %r<40>; .reg .b64 %rd<8>;\n"
                + "ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd2, %rd1; ld.param.u32 %r1, [n];\n"
                + body
                + "\nret;\n}\n";
        return Decoder.decode(PtxModelAdapter.read(src), "t", false, false);
    }

    private static long[] run(Program p, int n, long limit) throws Exception {
        Launch l = new Launch(p);
        long out = l.alloc(new byte[64]);
        l.param(0, out);
        l.param(1, n);
        l.run(new int[] {1, 1, 1}, new int[] {1, 1, 1}, 0, limit);
        ByteBuffer b = ByteBuffer.wrap(l.read(out, 64)).order(ByteOrder.LITTLE_ENDIAN);
        return new long[] {b.getInt(0), b.getInt(4), b.getInt(8), l.executed()};
    }

    /** A counted loop: setp.s32 directly before a guarded bra (fused), and the bra itself a jump target. */
    private static final String LOOP = String.join(
            "\n",
            "mov.u32 %r2, 0; mov.u32 %r3, 0;",
            "$L_top:",
            "add.s32 %r3, %r3, %r2; add.s32 %r2, %r2, 1;",
            "setp.lt.s32 %p1, %r2, %r1;",
            "$L_br:",
            "@%p1 bra $L_top;",
            // jumped to directly (not through the fused setp): the plain guarded bra must still work
            "setp.ge.s32 %p2, %r2, 1000;",
            "@%p2 bra $L_done;",
            "mov.u32 %r2, 1000; setp.ne.s32 %p1, %r2, 0; bra.uni $L_br;",
            "$L_done:",
            "selp.u32 %r4, 1, 0, %p1;",
            "st.global.u32 [%rd2], %r3; st.global.u32 [%rd2+4], %r2; st.global.u32 [%rd2+8], %r4;");

    @Test
    void fusedCompareAndBranchComputesAndCountsLikeThePtx() throws Exception {
        Program p = decode(LOOP);
        assertThat(p.op).contains(Op.SETP_S32_BRA, Op.BRA_T);
        long[] r = run(p, 10, 1_000_000);
        // 0 + ... + 9, then the detour through $L_br runs one more iteration with %r2 = 1000
        assertThat(r[0]).isEqualTo(1045);
        assertThat(r[1]).isEqualTo(1001);
        assertThat(r[2]).isEqualTo(0); // %p1 as the fused setp left it (1001 < 10 is false)
        // 3 (ld, cvta, ld) + 2 movs + 10 x (add, add, setp, bra) + setp.ge, bra (not taken) + mov, setp, bra.uni
        // + the bra at $L_br (taken) + one iteration (4) + setp.ge, bra (taken) + selp, 3 st + ret
        long expected = 3 + 2 + 10 * 4 + 2 + 3 + 1 + 4 + 2 + 4 + 1;
        assertThat(r[3]).isEqualTo(expected);
    }

    @Test
    void negatedGuardBranches() throws Exception {
        Program p = decode(String.join(
                "\n",
                "mov.u32 %r3, 7;",
                "setp.gt.s32 %p1, %r1, 5;",
                "@!%p1 bra $L_skip;",
                "mov.u32 %r3, 9;",
                "$L_skip:",
                "st.global.u32 [%rd2], %r3;"));
        assertThat(run(p, 3, 1000)[0]).isEqualTo(7);
        assertThat(run(p, 6, 1000)[0]).isEqualTo(9);
    }

    @Test
    void runawayLoopStopsAtTheInstructionLimit() throws Exception {
        Program p = decode("$L_spin:\nadd.s32 %r2, %r2, 1;\nsetp.ne.s32 %p1, %r1, 0;\n@%p1 bra $L_spin;");
        assertThatThrownBy(() -> run(p, 1, 100_000))
                .isInstanceOf(KernelFault.class)
                .hasMessageContaining("instruction limit of 100000");
        Program q = decode("$L_spin:\nadd.s32 %r2, %r2, 1;\nbra.uni $L_spin;");
        assertThatThrownBy(() -> run(q, 1, 100_000)).hasMessageContaining("instruction limit");
    }
}
