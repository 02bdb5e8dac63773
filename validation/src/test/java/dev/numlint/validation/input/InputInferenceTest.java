package dev.numlint.validation.input;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.validation.interp.PtxModelAdapter;
import dev.numlint.validation.interp.PtxText;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class InputInferenceTest {
    static PtxText.Module seeds() throws Exception {
        try (InputStream in = InputInferenceTest.class.getResourceAsStream("/kernels/seeds.default.ptx")) {
            return PtxModelAdapter.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void pointerParametersBecomeArraysAndTheComparedScalarTheLength() throws Exception {
        KernelSpec k = InputInference.infer(seeds().func("square_plus"));
        assertThat(k.params)
                .extracting(p -> p.kind + ":" + p.type + ":" + (p.isArray() ? p.direction : String.valueOf(p.value)))
                .containsExactly(
                        "array:f32:in",
                        "array:f32:in",
                        "array:f32:out",
                        "scalar:u32:null"); // int params are .u32 in PTX
        KernelSpec c = InputInference.infer(seeds().func("to_ushort"));
        assertThat(c.params.get(1).type).isEqualTo("u16"); // st.global.u16
        assertThat(c.params.get(1).direction).isEqualTo("out");
        KernelSpec m = InputInference.infer(seeds().func("matmul_serial"));
        // hA and wB are compared with thread indices (lengths); wA bounds the k loop
        assertThat(m.params.get(3).value).isNull();
        assertThat(m.params.get(4).value).isEqualTo((double) InputInference.DEFAULT_INT_SCALAR);
        assertThat(k.block).containsExactly(256, 1, 1);
    }

    @Test
    void mixedMagnitudesSumToZeroAsInTheGlobalSummationBenchmark() {
        Distribution d = Distribution.of("mixed");
        d.k = 6;
        double[] v = d.sample(10000, false, new SplittableRandom(7));
        java.math.BigDecimal sum = java.math.BigDecimal.ZERO;
        int small = 0, large = 0;
        for (double x : v) {
            sum = sum.add(new java.math.BigDecimal(x));
            double a = Math.abs(x);
            if (a > 1e-6 && a < 1e-6 + 1) small++;
            if (a > 1e6 && a < 1e6 + 1) large++;
        }
        assertThat(sum.signum()).isZero(); // the exact sum is 0
        assertThat(small).isEqualTo(5000);
        assertThat(large).isEqualTo(5000);
        // the same seed gives the same values
        assertThat(d.sample(100, false, new SplittableRandom(7)))
                .containsExactly(d.sample(100, false, new SplittableRandom(7)));
    }

    @Test
    void conversionRangesIncludeNegativesAndOutOfRangeValues() {
        Distribution d = Distribution.of("conversion");
        double[] v = d.sample(1000, false, new SplittableRandom(1));
        assertThat(java.util.Arrays.stream(v).anyMatch(x -> x < 0 && x > -100)).isTrue();
        assertThat(java.util.Arrays.stream(v).anyMatch(x -> x > 65536)).isTrue();
        assertThat(java.util.Arrays.stream(v).anyMatch(x -> x >= 0 && x < 65536))
                .isTrue();
        double[] s = Distribution.of("subnormal").sample(1000, false, new SplittableRandom(1));
        assertThat(java.util.Arrays.stream(s).anyMatch(x -> x != 0 && Math.abs(x) < Float.MIN_NORMAL))
                .isTrue();
    }
}
