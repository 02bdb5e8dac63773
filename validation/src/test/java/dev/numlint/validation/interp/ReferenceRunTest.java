package dev.numlint.validation.interp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The high-precision reference run against values computed by hand (issue 30: pi's reference). */
class ReferenceRunTest {
    static final String HEAD = ".version 8.0\n.target sm_80\n.address_size 64\n";

    /** The piTerms kernel of examples/pi as nvcc 13.0 writes it with -ftz=true (hand-copied, 4/(1+x*x)). */
    static final String PI_TERMS = HEAD
            + ".visible .entry t(.param .u64 p0, .param .f32 p1, .param .u64 p2) {\n"
            + ".reg .pred %p<2>; .reg .f32 %f<5>; .reg .b32 %r<4>; .reg .f64 %fd<9>; .reg .b64 %rd<9>;\n"
            + "ld.param.u64 %rd2, [p0]; ld.param.f32 %f1, [p1]; ld.param.u64 %rd3, [p2];\n"
            + "mov.u32 %r1, %ctaid.x; mov.u32 %r2, %ntid.x; mul.wide.u32 %rd4, %r1, %r2; mov.u32 %r3, %tid.x;\n"
            + "cvt.u64.u32 %rd5, %r3; add.s64 %rd1, %rd4, %rd5; setp.ge.s64 %p1, %rd1, %rd3; @%p1 bra DONE;\n"
            + "cvta.to.global.u64 %rd6, %rd2; cvt.rn.f64.s64 %fd1, %rd1; add.f64 %fd2, %fd1, 0d3FE0000000000000;\n"
            + "cvt.ftz.f64.f32 %fd3, %f1; mul.f64 %fd4, %fd2, %fd3; cvt.rn.ftz.f32.f64 %f2, %fd4;\n"
            + "mul.ftz.f32 %f3, %f2, %f2; cvt.ftz.f64.f32 %fd5, %f3; add.f64 %fd6, %fd5, 0d3FF0000000000000;\n"
            + "mov.f64 %fd7, 0d4010000000000000; div.rn.f64 %fd8, %fd7, %fd6; cvt.rn.ftz.f32.f64 %f4, %fd8;\n"
            + "shl.b64 %rd7, %rd1, 2; add.s64 %rd8, %rd6, %rd7; st.global.f32 [%rd8], %f4;\n"
            + "DONE:\nret;\n}\n";

    @Test
    void referenceOfPiTermsIsFourOverOnePlusXSquared() throws Exception {
        int n = 64;
        float step = 1.0f / n;
        Program ref = Decoder.decode(PtxModelAdapter.read(PI_TERMS), "t", true, false);
        Launch l = new Launch(ref);
        long out = l.alloc(new byte[4 * n]);
        l.param(0, out);
        l.param(1, Float.floatToRawIntBits(step));
        l.param(2, n);
        l.run(new int[] {1, 1, 1}, new int[] {n, 1, 1}, 0, 1_000_000);
        double[] r = l.readReferenceF32(out, n);
        for (int i = 0; i < n; i++) {
            double x = (i + 0.5) * step;
            // the reference carries the float x and its square in high precision: within a float ulp of 4/(1+x^2)
            assertThat(r[i])
                    .as("element %d", i)
                    .isCloseTo(4.0 / (1.0 + x * x), org.assertj.core.data.Offset.offset(1e-6));
        }
    }
}
