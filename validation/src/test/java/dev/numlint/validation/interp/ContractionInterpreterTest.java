package dev.numlint.validation.interp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * The as-built program on the CPU: the interpreter applies the contractions ptxas applies (Contraction model), so
 * mul.f32 + add.f32 without rounding modifiers give the single-rounding result the GPU's FFMA gives.
 */
class ContractionInterpreterTest {
    // out[0] = a*b + c, out[1] = -c - a*b (with .rn on neither), out[2] = a*b stored too (not fused by ptxas)
    static final String PTX = ".version 8.0\n.target sm_90\n.address_size 64\n"
            + ".visible .entry k(.param .u64 out, .param .u64 in) {\n"
            + ".reg .f32 %f<16>; .reg .b64 %rd<4>;\n"
            + "ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [in];\n"
            + "ld.global.f32 %f1, [%rd2]; ld.global.f32 %f2, [%rd2+4]; ld.global.f32 %f3, [%rd2+8];\n"
            + "mul.f32 %f4, %f1, %f2;\n"
            + "add.f32 %f5, %f4, %f3;\n"
            + "st.global.f32 [%rd1], %f5;\n"
            + "mul.f32 %f6, %f1, %f2;\n"
            + "neg.f32 %f10, %f3;\n"
            + "sub.f32 %f7, %f10, %f6;\n"
            + "st.global.f32 [%rd1+4], %f7;\n"
            + "mul.f32 %f8, %f1, %f2;\n"
            + "add.f32 %f9, %f8, %f3;\n"
            + "st.global.f32 [%rd1+8], %f9;\n"
            + "st.global.f32 [%rd1+12], %f8;\n"
            + "ret;\n}\n";

    static float[] run(boolean contract) throws Exception {
        Program p = Decoder.decode(PtxModelAdapter.read(PTX), "k", new Decoder.Options().contract(contract));
        Launch l = new Launch(p);
        ByteBuffer in = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
        // the white paper's a*a+b: a = 1 + 2^-23, c = -(1 + 2^-22): exact a*a + c = 2^-46
        in.putInt(0x3F800001).putInt(0x3F800001).putInt(0xBF800002);
        long out = l.alloc(new byte[16]);
        l.param(0, out);
        l.param(1, l.alloc(in.array()));
        l.run(new int[] {1, 1, 1}, new int[] {1, 1, 1}, 0, 1000);
        ByteBuffer o = ByteBuffer.wrap(l.read(out, 16)).order(ByteOrder.LITTLE_ENDIAN);
        return new float[] {o.getFloat(0), o.getFloat(4), o.getFloat(8)};
    }

    @Test
    void asWrittenEachOperationRoundsOnItsOwn() throws Exception {
        float[] r = run(false);
        assertThat(r[0]).isEqualTo(0f);
        assertThat(r[1]).isEqualTo(0f);
        assertThat(r[2]).isEqualTo(0f);
    }

    @Test
    void asBuiltTheProductIsFusedWhereTheModelSaysSo() throws Exception {
        float[] r = run(true);
        assertThat(r[0]).isEqualTo((float) Math.scalb(1.0, -46)); // FFMA: one rounding
        assertThat(r[1]).isEqualTo((float) -Math.scalb(1.0, -46)); // c - a*b = fma(-a, b, c)
        assertThat(r[2]).isEqualTo(0f); // the product is also stored: ptxas keeps FMUL + FADD
    }
}
