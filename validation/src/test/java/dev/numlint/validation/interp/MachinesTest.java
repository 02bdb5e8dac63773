package dev.numlint.validation.interp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A loop per instruction mix ({@link Machines}): each mix gets a copy of the interpreter class of its own (a hidden
 * class, so a JIT profile of its own) once its launches have run long enough, programs of one mix share it, and a
 * copy computes exactly what the shared class computes: the same outputs and the same executed-instruction count, in
 * every decoding of the warm-up's kernels (which reach every opcode).
 */
class MachinesTest {
    @Test
    void eachInstructionMixRunsOnItsOwnCopyOfTheLoop() throws Exception {
        Machines machines = new Machines(64, 0);
        Set<Class<?>> classes = new HashSet<>();
        Set<BitSet> mixes = new HashSet<>();
        for (Program p : Warmup.programs()) {
            Machine m = machines.create(p, new Space(8, p.reference), 0);
            assertThat(m.getClass()).isNotEqualTo(Interpreter.class);
            assertThat(m.getClass().isHidden()).isTrue();
            assertThat(machines.create(p, new Space(8, p.reference), 0).getClass())
                    .isEqualTo(m.getClass());
            classes.add(m.getClass());
            mixes.add(p.mix());
        }
        assertThat(classes).hasSize(mixes.size());
        assertThat(mixes.size()).isGreaterThan(1);
        assertThat(machines.copies()).isEqualTo(mixes.size());
    }

    @Test
    void aMixStaysOnTheSharedClassUntilItsLaunchesHaveRunLongEnough() throws Exception {
        List<Program> ps = Warmup.programs();
        Program p = ps.get(0);
        Machines machines = new Machines(64, 1000);
        assertThat(machines.create(p, new Space(8, false), 0)).isInstanceOf(Interpreter.class);
        machines.ran(p, 600);
        assertThat(machines.create(p, new Space(8, false), 0)).isInstanceOf(Interpreter.class);
        Program sameMix = Warmup.programs().get(0); // decoded again: another program, the same mix
        machines.ran(sameMix, 400);
        assertThat(machines.create(p, new Space(8, false), 0).getClass().isHidden())
                .isTrue();
        assertThat(machines.create(ps.get(1), new Space(8, false), 0)).isInstanceOf(Interpreter.class);
    }

    @Test
    void noMoreCopiesThanTheLimit() throws Exception {
        Machines machines = new Machines(1, 0);
        List<Program> ps = Warmup.programs();
        assertThat(machines.create(ps.get(0), new Space(8, false), 0).getClass().isHidden())
                .isTrue();
        Program other = ps.stream()
                .filter(q -> !q.mix().equals(ps.get(0).mix()))
                .findFirst()
                .orElseThrow();
        assertThat(machines.create(other, new Space(8, false), 0)).isInstanceOf(Interpreter.class);
    }

    @Test
    void aCopyComputesWhatTheSharedClassComputes() throws Exception {
        Machines machines = new Machines(64, 0);
        for (Program p : Warmup.programs()) {
            assertThat(run(p, machines)).as(p.kernel).isEqualTo(run(p, null));
            assertThat(machines.create(p, new Space(8, p.reference), 0)
                            .getClass()
                            .isHidden())
                    .isTrue();
        }
    }

    /**
     * The warm-up kernel on the special values, on what machines gives p (the shared class when null): its outputs
     * and, in the last 8 bytes, the executed count.
     */
    private static byte[] run(Program p, Machines machines) throws Exception {
        Launch l = new Launch(p);
        long in = l.alloc(Warmup.table());
        int n = 256 * Warmup.ROWS.length * 2;
        long out = l.alloc(new byte[n]);
        l.param(0, in);
        l.param(1, out);
        l.param(2, Warmup.ROWS.length);
        l.run(new int[] {1, 1, 1}, new int[] {32, 1, 1}, 0, 10_000_000L, machines);
        byte[] r = java.util.Arrays.copyOf(l.read(out, n), n + 8);
        java.nio.ByteBuffer.wrap(r).putLong(n, l.executed());
        return r;
    }
}
