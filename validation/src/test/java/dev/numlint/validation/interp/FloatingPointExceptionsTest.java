package dev.numlint.validation.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.validation.report.ExceptionCount;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Floating-point exceptions per PTX instruction, counted on operands chosen by hand (one thread per input row). */
class FloatingPointExceptionsTest {
    static final String PTX = ".version 8.0\n.target sm_90\n.address_size 64\n"
            + ".file 1 \"k.cu\"\n"
            + ".visible .entry k(.param .u64 out, .param .u64 in) {\n"
            + ".reg .f32 %f<16>; .reg .b32 %r<8>; .reg .b64 %rd<8>;\n"
            + "ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd2, %rd1;\n"
            + "ld.param.u64 %rd3, [in]; cvta.to.global.u64 %rd4, %rd3;\n"
            + "mov.u32 %r1, %tid.x; mul.wide.u32 %rd5, %r1, 8; add.s64 %rd6, %rd4, %rd5;\n"
            + "ld.global.f32 %f1, [%rd6]; ld.global.f32 %f2, [%rd6+4];\n"
            + ".loc 1 10 5\n"
            + "div.rn.f32 %f3, %f1, %f2;\n" // line 10: x / y
            + ".loc 1 11 5\n"
            + "mul.rn.f32 %f4, %f1, %f1;\n" // line 11: x * x
            + ".loc 1 12 5\n"
            + "add.ftz.f32 %f5, %f1, %f2;\n" // line 12: x + y, flushed
            + ".loc 1 13 5\n"
            + "cvt.rzi.s32.f32 %r2, %f1;\n" // line 13: (int) x
            + ".loc 1 14 5\n"
            + "sqrt.rn.f32 %f6, %f2;\n" // line 14: sqrtf(y)
            + "add.s64 %rd7, %rd2, %rd5; st.global.f32 [%rd7], %f3;\n"
            + "ret;\n}\n";

    @Test
    void eachInstructionCountsWhatItsOperandsRaise() throws Exception {
        // rows (x, y): (1, 0) divides by zero (inf); (3e20, 2) overflows x*x and the int conversion;
        // (1e-39, 0) has a subnormal x that add.ftz flushes and divides by zero again (inf);
        // (2, -1) takes the square root of -1; (inf, 1) raises nothing new from finite operands except the cvt
        float[][] rows = {{1, 0}, {3e20f, 2}, {1e-39f, 0}, {2, -1}, {Float.POSITIVE_INFINITY, 1}};
        ByteBuffer in = ByteBuffer.allocate(8 * rows.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float[] r : rows) in.putFloat(r[0]).putFloat(r[1]);
        Program p = Decoder.decode(PtxModelAdapter.read(PTX), "k", new Decoder.Options().exceptions(true));
        Launch l = new Launch(p);
        long out = l.alloc(new byte[8 * rows.length]);
        long inp = l.alloc(in.array());
        l.param(0, out);
        l.param(1, inp);
        l.run(new int[] {1, 1, 1}, new int[] {rows.length, 1, 1}, 0, 100_000);
        List<ExceptionCount> e = ExceptionCount.of(p);
        assertThat(ExceptionCount.at(e, "k.cu", 10, null)).isEqualTo(Map.of("infFromFinite", 2L, "divisionByZero", 2L));
        assertThat(ExceptionCount.at(e, "k.cu", 11, null)).isEqualTo(Map.of("infFromFinite", 1L));
        assertThat(ExceptionCount.at(e, "k.cu", 12, null)).isEqualTo(Map.of("ftzFlushed", 1L));
        // 3e20 and infinity do not fit an int
        assertThat(ExceptionCount.at(e, "k.cu", 13, null)).isEqualTo(Map.of("conversionOverflow", 2L));
        assertThat(ExceptionCount.at(e, "k.cu", 14, null)).isEqualTo(Map.of("nanFromFinite", 1L));
        assertThat(e).hasSize(5);
        assertThat(e.get(0).instruction).isEqualTo("div.rn.f32 %f3, %f1, %f2;");
        // the checks change no result
        Program plain = Decoder.decode(PtxModelAdapter.read(PTX), "k", new Decoder.Options());
        Launch l2 = new Launch(plain);
        long out2 = l2.alloc(new byte[8 * rows.length]);
        long in2 = l2.alloc(in.array());
        l2.param(0, out2);
        l2.param(1, in2);
        l2.run(new int[] {1, 1, 1}, new int[] {rows.length, 1, 1}, 0, 100_000);
        assertThat(l2.read(out2, 8 * rows.length)).isEqualTo(l.read(out, 8 * rows.length));
        assertThat(plain.exceptionSites).isEmpty();
    }
}
