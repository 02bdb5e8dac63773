package dev.numlint.ptx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.ptx.model.PtxModule;
import dev.numlint.ptx.parser.PtxReader;
import org.junit.jupiter.api.Test;

/** Whether a unit's PTX computes in single precision: the fact a device fast-math flag is judged by. */
class UnitFloatOpsTest {
    private static final String HEAD = ".version 8.0\n.target sm_80\n.address_size 64\n";

    private static PtxModule module(String body) {
        return PtxReader.read(HEAD + ".visible .entry k(.param .u64 p0)\n{\n"
                        + " .reg .f32 %f<9>; .reg .f64 %fd<9>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n"
                        + " ld.param.u64 %rd1, [p0];\n cvta.to.global.u64 %rd2, %rd1;\n" + body + " ret;\n}\n")
                .module();
    }

    @Test
    void aDoubleOnlyKernelHasNoSinglePrecisionOperation() {
        PtxModule m = module(" ld.global.f64 %fd1, [%rd2];\n div.rn.f64 %fd2, %fd1, %fd1;\n"
                + " sqrt.rn.f64 %fd3, %fd2;\n setp.lt.f64 %p1, %fd3, 0d0000000000000000;\n"
                + " st.global.f64 [%rd2], %fd3;\n");
        assertThat(UnitFloatOps.first(m)).isNull();
    }

    @Test
    void floatsOnlyMovedChangeNothingButFloatArithmeticCounts() {
        // a float copied from one place to another: no flag changes a load, a store or a move
        assertThat(UnitFloatOps.first(module(
                        " ld.global.f32 %f1, [%rd2];\n mov.f32 %f2, %f1;\n" + " st.global.f32 [%rd2+4], %f2;\n")))
                .isNull();
        assertThat(UnitFloatOps.first(module(" ld.global.f32 %f1, [%rd2];\n div.approx.f32 %f2, %f1, %f1;\n"
                                + " st.global.f32 [%rd2], %f2;\n"))
                        .opcode())
                .isEqualTo("div");
        // a float converted to double: -ftz=true flushes its subnormals (cvt.ftz.f64.f32)
        assertThat(UnitFloatOps.first(module(" ld.global.f32 %f1, [%rd2];\n cvt.f64.f32 %fd1, %f1;\n"
                                + " st.global.f64 [%rd2], %fd1;\n"))
                        .opcode())
                .isEqualTo("cvt");
    }
}
