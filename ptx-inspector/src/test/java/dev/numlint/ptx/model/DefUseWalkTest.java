package dev.numlint.ptx.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.ptx.parser.PtxReader;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Reaching definitions of functions too large for the bit vectors ({@link DefUse#approximate()}): the walk back over
 * the predecessors gives the bit vectors' answers (here forced with a limit of 0 bits).
 */
class DefUseWalkTest {
    private static final String HEAD = ".version 8.0\n.target sm_80\n.address_size 64\n";

    private static PtxFunction fn(String body) {
        PtxReader.Result r = PtxReader.read(HEAD + ".visible .entry f(.param .u32 f_param_0)\n{\n"
                + " .reg .pred %p<9>; .reg .f32 %f<30>; .reg .b32 %r<20>;\n" + body + "\n}\n");
        assertThat(r.problems()).isEmpty();
        return r.module().function("f");
    }

    /**
     * nvcc's shape in a path tracer's whole-frame kernel: one register holds the constant 1 of {@code 1 - c*c} and,
     * in the branches of the inlined {@code powf} after it, the result; around the loop the constant's move kills
     * the results. Flow-insensitive chains made the subtraction a sum carried around the loop.
     */
    private static final String REUSED_REGISTER =
            """
             ld.param.u32 %r1, [f_param_0];
             mov.f32 %f1, 0f3F000000;
             mov.u32 %r2, 0;
            $L__loop:
             mul.f32 %f3, %f1, %f1;
             mov.f32 %f9, 0f3F800000;
             sub.f32 %f2, %f9, %f3;
             setp.eq.f32 %p1, %f2, 0f3F800000;
             @%p1 bra $L__join;
             setp.lt.f32 %p2, %f2, 0f00000000;
             @%p2 bra $L__neg;
             add.rn.f32 %f9, %f2, 0f3F000000;
             bra.uni $L__join;
            $L__neg:
             @%p2 mov.f32 %f9, 0f7FFFFFFF;
            $L__join:
             mul.f32 %f1, %f1, %f9;
             add.f32 %f4, %f4, %f1;
             add.s32 %r2, %r2, 1;
             setp.lt.s32 %p3, %r2, %r1;
             @%p3 bra $L__loop;
             ret;
            """;

    private static final String BRANCHES_AND_GUARDS =
            """
             mov.f32 %f1, 0f00000000;
             setp.lt.f32 %p1, %f1, %f2;
             @%p1 bra $L__else;
             mov.f32 %f1, 0f3F800000;
             @%p1 mov.f32 %f5, 0f3F800000;
             bra.uni $L__end;
            $L__else:
             mov.f32 %f1, 0f40000000;
             mov.f32 %f5, 0f40000000;
            $L__end:
             add.f32 %f3, %f1, %f5;
             @%p1 mov.f32 %f3, 0f00000000;
             add.f32 %f6, %f3, %f3;
             ret;
            """;

    @Test
    void theWalkGivesTheBitVectorsAnswers() {
        for (String body : new String[] {REUSED_REGISTER, BRANCHES_AND_GUARDS}) {
            PtxFunction f = fn(body);
            DefUse dense = new DefUse(f, DefUse.MAX_BITS);
            DefUse walk = new DefUse(f, 0);
            assertThat(dense.approximate()).isFalse();
            assertThat(walk.approximate()).isTrue();
            for (Instruction in : f.instructions()) {
                for (String r : in.uses()) {
                    int[] a = dense.reachingDefs(in.index(), r);
                    int[] b = walk.reachingDefs(in.index(), r);
                    Arrays.sort(a);
                    Arrays.sort(b);
                    assertThat(b).as(in.text() + " " + r).containsExactly(a);
                }
                assertThat(walk.users(in.index())).as(in.text()).containsExactlyInAnyOrder(dense.users(in.index()));
            }
        }
    }

    @Test
    void aConstantMovedIntoAReusedRegisterKillsItsLoopCarriedValues() {
        PtxFunction f = fn(REUSED_REGISTER);
        DefUse walk = new DefUse(f, 0);
        Instruction sub = f.instructions().stream()
                .filter(i -> i.text().startsWith("sub.f32"))
                .findFirst()
                .orElseThrow();
        assertThat(walk.reachingDefs(sub.index(), "%f9")).containsExactly(sub.index() - 1);
        // the multiply after the join reads the constant, the powf-like result or the guarded NaN
        Instruction mul = f.instructions().stream()
                .filter(i -> i.text().startsWith("mul.f32 %f1"))
                .findFirst()
                .orElseThrow();
        assertThat(walk.reachingDefs(mul.index(), "%f9")).hasSize(3);
        // and the loop-carried accumulator keeps its own update
        Instruction acc = f.instructions().stream()
                .filter(i -> i.text().startsWith("add.f32 %f4"))
                .findFirst()
                .orElseThrow();
        assertThat(walk.reachingDefs(acc.index(), "%f4")).containsExactly(acc.index());
    }
}
