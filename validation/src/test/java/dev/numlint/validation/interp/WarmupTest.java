package dev.numlint.validation.interp;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The interpreter's warm-up ({@link Warmup}) decodes in every decoding the replay uses, runs without a fault, and
 * reaches every opcode the decoder emits, so that the JIT's profile of the loop has seen each case before it
 * compiles it (a case it has not seen is compiled as a trap, and the first build to execute it throws the compiled
 * loop away). An opcode added to the interpreter without a warm-up instruction fails here.
 */
class WarmupTest {
    /** Opcodes the warm-up leaves out: never emitted by the decoder, ending the launch (trap), or needing a texture. */
    private static final Set<String> LEFT_OUT = Set.of("NOP", "SET_I", "SET_F32", "SET_F64", "TRAP", "TEX");

    @Test
    void warmUpRunsEveryOpcodeInEveryDecoding() throws Exception {
        Warmup.run(1);
        List<Program> ps = Warmup.programs();
        assertThat(ps).hasSize(Warmup.decodings().size() * Warmup.KERNELS.size());
        Set<Integer> seen = new TreeSet<>();
        for (Program p : ps) for (int i = 0; i < p.n; i++) seen.add(p.op[i]);
        List<String> missing = new ArrayList<>();
        for (Field f : Op.class.getDeclaredFields()) {
            String n = f.getName();
            if (f.getType() != int.class || !Modifier.isStatic(f.getModifiers()) || n.matches("(G|A|SP|K)_.*"))
                continue;
            if (!seen.contains(f.getInt(null)) && !LEFT_OUT.contains(n)) missing.add(n);
        }
        assertThat(missing).isEmpty();
    }

    @Test
    void everyDecodingRunsWithoutFaultOnTheSpecialValues() throws Exception {
        for (Program p : Warmup.programs()) {
            Launch l = new Launch(p);
            long in = l.alloc(Warmup.table());
            long out = l.alloc(new byte[256 * Warmup.ROWS.length * 2]);
            l.param(0, in);
            l.param(1, out);
            l.param(2, Warmup.ROWS.length);
            l.run(new int[] {1, 1, 1}, new int[] {32, 1, 1}, 0, 10_000_000L);
            assertThat(l.executed()).as(p.kernel).isGreaterThan(32L * 20);
        }
    }
}
