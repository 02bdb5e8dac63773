package dev.numlint.ptx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.ptx.model.BasicBlock;
import dev.numlint.ptx.model.DebugLoc;
import dev.numlint.ptx.model.DefUse;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Loop;
import dev.numlint.ptx.model.PtxFunction;
import dev.numlint.ptx.model.SourcePos;
import dev.numlint.ptx.parser.PtxReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** CFG, loops, reaching definitions and debug-line mapping. */
class PtxModelTest {
    private static final String HEAD = ".version 8.0\n.target sm_80\n.address_size 64\n";

    private static PtxFunction fn(String body) {
        PtxReader.Result r = PtxReader.read(HEAD + ".visible .entry f(.param .u32 f_param_0)\n{\n"
                + " .reg .pred %p<5>; .reg .f32 %f<20>; .reg .b32 %r<20>;\n" + body + "\n}\n");
        assertThat(r.problems()).isEmpty();
        return r.module().function("f");
    }

    private static Instruction at(PtxFunction f, String textStart) {
        return f.instructions().stream()
                .filter(i -> i.text().startsWith(textStart))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void cfgOfIfElse() {
        PtxFunction f = fn(
                """
                 ld.param.u32 %r1, [f_param_0];
                 setp.lt.s32 %p1, %r1, 10;
                 @%p1 bra $L__else;
                 mov.f32 %f1, 0f3F800000;
                 bra.uni $L__join;
                $L__else:
                 mov.f32 %f1, 0f40000000;
                $L__join:
                 add.f32 %f2, %f1, %f1;
                 ret;
                """);
        List<BasicBlock> b = f.blocks();
        assertThat(b).hasSize(4);
        assertThat(b.get(0).successors()).containsExactlyInAnyOrder(1, 2);
        assertThat(b.get(1).successors()).containsExactly(3);
        assertThat(b.get(2).successors()).containsExactly(3);
        assertThat(b.get(3).predecessors()).containsExactlyInAnyOrder(1, 2);
        assertThat(b.get(2).label()).isEqualTo("$L__else");
        assertThat(f.dominates(0, 3)).isTrue();
        assertThat(f.dominates(1, 3)).isFalse();
        assertThat(f.immediateDominators()[3]).isEqualTo(0);
        // both definitions of %f1 reach the add
        Instruction add = at(f, "add.f32");
        int[] defs = f.defUse().reachingDefs(add.index(), "%f1");
        assertThat(Arrays.stream(defs).mapToObj(d -> f.instruction(d).text()).toList())
                .containsExactlyInAnyOrder("mov.f32 %f1, 0f3F800000;", "mov.f32 %f1, 0f40000000;");
        assertThat(f.loops()).isEmpty();
    }

    @Test
    void guardedDefinitionDoesNotKill() {
        PtxFunction f = fn(
                """
                 mov.f32 %f1, 0f00000000;
                 setp.lt.f32 %p1, %f1, %f2;
                 @%p1 mov.f32 %f1, 0f3F800000;
                 add.f32 %f3, %f1, %f1;
                 ret;
                """);
        DefUse du = f.defUse();
        assertThat(du.reachingDefs(3, "%f1")).containsExactlyInAnyOrder(0, 2);
        assertThat(du.users(0)).contains(1, 3);
        assertThat(du.uniqueDef(1, "%f1")).isEqualTo(0);
        assertThat(du.reachingDefs(1, "%f2")).isEmpty();
    }

    /**
     * Session 26's defect 8: a generated kernel of long straight-line arithmetic is one block of thousands of
     * instructions, and every reaching-definition query walked back over the block to the register's definition:
     * quadratic in the block's size (gkylzero's dg_bin_ops_cu.cu went over the PTX budget). The queries of a block of
     * 40,000 instructions that all read one register defined first take well under a second of CPU time now (tens
     * of seconds before), with the same answers.
     */
    @Test
    void reachingDefinitionsInOneHugeBlockAreNotAWalkOverTheBlock() {
        int n = 40_000;
        StringBuilder body = new StringBuilder(" mov.f32 %f1, 0f3F800000;\n");
        for (int i = 0; i < n; i++) body.append(" add.f32 %f").append(2 + i % 2).append(", %f1, %f1;\n");
        body.append(" ret;");
        PtxFunction f = fn(body.toString());
        DefUse du = f.defUse();
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long t0 = mx.getCurrentThreadCpuTime();
        int i = 1;
        for (; i <= n && mx.getCurrentThreadCpuTime() - t0 < 3_000_000_000L; i++) {
            assertThat(du.uniqueDef(i, "%f1")).isEqualTo(0);
        }
        assertThat(i - 1).as("queries answered within 3 s of CPU time").isEqualTo(n);
        assertThat(du.reachingDefs(n, "%f2")).containsExactly(n - 1);
    }

    @Test
    void loopWithConstantTripCountAndLoopCarriedDefinitions() {
        PtxFunction f = fn(
                """
                 mov.u32 %r1, 0;
                 mov.f32 %f1, 0f00000000;
                $L__loop:
                 add.f32 %f1, %f1, %f2;
                 add.s32 %r1, %r1, 4;
                 setp.ne.s32 %p1, %r1, 400;
                 @%p1 bra $L__loop;
                 ret;
                """);
        assertThat(f.loops()).hasSize(1);
        Loop l = f.loops().get(0);
        assertThat(l.tripCount()).isEqualTo(100);
        assertThat(l.tripCountBound()).isFalse();
        assertThat(l.inductionReg()).isEqualTo("%r1");
        assertThat(l.header()).isEqualTo(1);
        assertThat(l.latches()).containsExactly(1);
        Instruction acc = at(f, "add.f32");
        // the accumulator sees its own previous value around the back edge and the initial value
        assertThat(f.defUse().reachingDefs(acc.index(), "%f1")).containsExactlyInAnyOrder(1, acc.index());
        assertThat(f.innermostLoop(acc.block())).isSameAs(l);
    }

    @Test
    void loopTripCountUnknownAndBounded() {
        PtxFunction unknown = fn(
                """
                 ld.param.u32 %r2, [f_param_0];
                 mov.u32 %r1, 0;
                $L__loop:
                 add.s32 %r1, %r1, 1;
                 setp.lt.s32 %p1, %r1, %r2;
                 @%p1 bra $L__loop;
                 ret;
                """);
        assertThat(unknown.loops().get(0).tripCountKnown()).isFalse();
        PtxFunction bounded = fn(
                """
                 ld.param.u32 %r2, [f_param_0];
                 and.b32 %r1, %r2, 3;
                $L__loop:
                 add.s32 %r1, %r1, -1;
                 setp.ne.s32 %p1, %r1, 0;
                 @%p1 bra $L__loop;
                 ret;
                """);
        Loop l = bounded.loops().get(0);
        assertThat(l.tripCount()).isEqualTo(3);
        assertThat(l.tripCountBound()).isTrue();
    }

    @Test
    void nestedLoops() {
        PtxFunction f = fn(
                """
                 mov.u32 %r1, 0;
                $L__outer:
                 mov.u32 %r2, 0;
                $L__inner:
                 add.s32 %r2, %r2, 1;
                 setp.lt.s32 %p1, %r2, 8;
                 @%p1 bra $L__inner;
                 add.s32 %r1, %r1, 1;
                 setp.lt.s32 %p2, %r1, 1000;
                 @%p2 bra $L__outer;
                 ret;
                """);
        assertThat(f.loops()).hasSize(2);
        Loop outer = f.loops().get(0);
        Loop inner = f.loops().get(1);
        assertThat(outer.body().cardinality()).isGreaterThan(inner.body().cardinality());
        assertThat(outer.tripCount()).isEqualTo(1000);
        assertThat(inner.tripCount()).isEqualTo(8);
        assertThat(outer.body().get(inner.header())).isTrue();
    }

    @Test
    void inlinedAtChainMapsToTheKernelLine() throws IOException {
        String text;
        try (InputStream in = getClass().getResourceAsStream("/parser/constructs.ptx")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        PtxFunction k = PtxReader.read(text).module().function("kernel");
        Instruction mov = at(k, "mov.f32 %f1");
        DebugLoc loc = mov.loc();
        assertThat(loc.pos()).isEqualTo(new SourcePos(2, "/src/helpers.cuh", 30, 9));
        assertThat(loc.functionName()).isEqualTo("$L__info_string1");
        assertThat(loc.inlinedAt())
                .containsExactly(new SourcePos(2, "/src/helpers.cuh", 12, 7), new SourcePos(1, "/src/kernel.cu", 9, 5));
        assertThat(loc.userPos()).isEqualTo(new SourcePos(1, "/src/kernel.cu", 9, 5));
        Instruction tid = at(k, "mov.u32 %r2");
        assertThat(tid.loc().inlined()).isFalse();
        assertThat(tid.loc().userPos().line()).isEqualTo(7);
        assertThat(k.firstLoc().pos().line()).isEqualTo(5);
        assertThat(at(k, "ret").loc().pos().line()).isEqualTo(20);
    }
}
