package dev.numlint.validation.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.validation.interp.Decoder;
import dev.numlint.validation.interp.Launch;
import dev.numlint.validation.interp.Program;
import dev.numlint.validation.interp.PtxModelAdapter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** The switches as PTX text for the GPU: the same program the interpreter runs with the switch. */
class PtxSwitchesTest {
    static final String PTX = ".version 8.0\n.target sm_90\n.address_size 64\n"
            + ".visible .entry k(.param .u64 out, .param .u64 in) {\n"
            + "\t.reg .pred %p<2>; .reg .f32 %f<20>; .reg .f64 %fd<6>; .reg .b32 %r<4>; .reg .b64 %rd<8>;\n"
            + "\tld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd2, %rd1;\n"
            + "\tld.param.u64 %rd3, [in]; cvta.to.global.u64 %rd4, %rd3;\n"
            + "\tmov.u32 %r1, %tid.x; mul.wide.u32 %rd5, %r1, 16; add.s64 %rd6, %rd4, %rd5; add.s64 %rd7, %rd2, %rd5;\n"
            + "\tld.global.f32 %f1, [%rd6];\n"
            + "\tld.global.f32 %f2, [%rd6+4];\n"
            + "\tld.global.f32 %f3, [%rd6+8];\n"
            + "\tsetp.gt.f32 %p1, %f1, 0f00000000;\n"
            + "\t@%p1 fma.rn.ftz.f32 %f4, %f1, %f2, %f3; // explicit\n"
            + "\tmul.f32 %f5, %f1, %f2;\n"
            + "\tadd.f32 %f6, %f5, %f3;\n"
            + "\tdiv.full.ftz.f32 %f7, %f6, %f2;\n"
            + "\tsqrt.approx.ftz.f32 %f8, %f2;\n"
            + "\tmul.ftz.f32 %f9, %f1, 0f00800000;\n"
            + "\tadd.f32 %f10, %f4, %f7;\n"
            + "\tadd.f32 %f11, %f10, %f8;\n"
            + "\tst.global.f32 [%rd7], %f11;\n"
            + "\tst.global.f32 [%rd7+4], %f9;\n"
            + "\tst.global.f32 [%rd7+8], %f6;\n"
            + "\tret;\n}\n";

    @Test
    void rewritesTheInstructionsOfEachSwitch() {
        Decoder.Options all = new Decoder.Options()
                .unfuseFma(true)
                .exactDiv(true)
                .exactSqrt(true)
                .noFtz(true);
        String s = PtxSwitches.apply(PTX, all);
        assertThat(s)
                .contains("\t{ .reg .f32 %nl_unfused; @%p1 mul.rn.f32 %nl_unfused, %f1, %f2; @%p1 add.rn.f32 %f4,"
                        + " %nl_unfused, %f3; } // explicit\n")
                .contains("\tmul.rn.f32 %f5, %f1, %f2;\n")
                .contains("\tdiv.rn.f32 %f7, %f6, %f2;\n")
                .contains("\tsqrt.rn.f32 %f8, %f2;\n")
                .contains("\tmul.rn.f32 %f9, %f1, 0f00800000;\n")
                .contains("mul.wide.u32 %rd5, %r1, 16;")
                .doesNotContain("ftz");
        assertThat(PtxSwitches.apply(PTX, new Decoder.Options().noFtz(true)))
                .contains("\tdiv.full.f32 %f7, %f6, %f2;\n")
                .contains("\tmul.f32 %f5, %f1, %f2;\n")
                .contains("\t@%p1 fma.rn.f32 %f4, %f1, %f2, %f3; // explicit\n");
        assertThat(PtxSwitches.apply(PTX, new Decoder.Options().contract(true))).isEqualTo(PTX);
        // PTX has no rcp.approx.f64 without .ftz: the driver would refuse the module
        assertThat(PtxSwitches.line("\trcp.approx.ftz.f64 %fd2, %fd1;", new Decoder.Options().noFtz(true)))
                .isEqualTo("\trcp.approx.ftz.f64 %fd2, %fd1;");
    }

    static byte[] run(String ptx, Decoder.Options o, byte[] input) throws Exception {
        Program p = Decoder.decode(PtxModelAdapter.read(ptx), "k", o);
        Launch l = new Launch(p);
        long out = l.alloc(new byte[input.length]);
        long in = l.alloc(input.clone());
        l.param(0, out);
        l.param(1, in);
        l.run(new int[] {1, 1, 1}, new int[] {64, 1, 1}, 0, 1_000_000);
        return l.read(out, input.length);
    }

    @Test
    void theRewrittenTextRunsAsTheSwitchedDecoder() throws Exception {
        ByteBuffer in = ByteBuffer.allocate(64 * 16).order(ByteOrder.LITTLE_ENDIAN);
        java.util.Random r = new java.util.Random(7);
        for (int i = 0; i < 64 * 4; i++) {
            float v = (float) ((r.nextDouble() * 2 - 1) * Math.pow(2, r.nextInt(60) - 30));
            if (i % 17 == 3) v = Float.MIN_NORMAL * (i % 5); // subnormal products and flushes
            in.putFloat(v);
        }
        byte[] input = in.array();
        Decoder.Options[] switches = {
            new Decoder.Options().unfuseFma(true),
            new Decoder.Options().contract(true).exactDiv(true),
            new Decoder.Options().contract(true).exactSqrt(true),
            new Decoder.Options().contract(true).noFtz(true),
            new Decoder.Options().unfuseFma(true).exactDiv(true).exactSqrt(true).noFtz(true)
        };
        byte[] asBuilt = run(PTX, new Decoder.Options().contract(true), input);
        for (Decoder.Options o : switches) {
            byte[] byDecoder = run(PTX, o, input);
            // the text is decoded as the GPU would see a build: ptxas contracts what it may
            byte[] byText = run(PtxSwitches.apply(PTX, o), new Decoder.Options().contract(true), input);
            assertThat(byText).as("switches %s", describe(o)).isEqualTo(byDecoder);
            if (!o.exactSqrt || o.unfuseFma) // the interpreter's sqrt.approx is exact on these inputs
            assertThat(byDecoder).as("switch %s changes something", describe(o)).isNotEqualTo(asBuilt);
        }
    }

    static String describe(Decoder.Options o) {
        return (o.unfuseFma ? "unfuse " : "")
                + (o.exactDiv ? "div " : "")
                + (o.exactSqrt ? "sqrt " : "")
                + (o.noFtz ? "noftz" : "");
    }
}
