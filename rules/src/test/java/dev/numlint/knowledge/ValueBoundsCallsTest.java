package dev.numlint.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ValueBounds#call}: the intervals of math library calls. */
class ValueBoundsCallsTest {
    private static final double INF = Double.POSITIVE_INFINITY;

    private static double[] point(double v) {
        return new double[] {v, v};
    }

    @Test
    void boundedIncreasingFunctionsMapTheirArgumentsBounds() {
        // 4 * atan(1.0) is pi (session 75 round A), not anything in [-2pi, 2pi]
        assertThat(ValueBounds.call("atan", List.of(point(1.0)))).containsExactly(Math.PI / 4, Math.PI / 4);
        assertThat(ValueBounds.call("atanf", List.of(new double[] {-INF, INF})))
                .containsExactly(-Math.PI / 2, Math.PI / 2);
        // beyond asin's domain: its ends
        assertThat(ValueBounds.call("asin", List.of(new double[] {-3, 0.5})))
                .containsExactly(-Math.PI / 2, Math.asin(0.5));
        assertThat(ValueBounds.call("tanh", List.of(new double[] {0, INF}))).containsExactly(0.0, 1.0);
    }

    @Test
    void squareRootsWithARoundingModeAreSquareRoots() {
        for (String f : List.of("sqrt", "__fsqrt_rd", "__dsqrt_rn", "__dsqrt_rz", "__dsqrt_ru", "__dsqrt_rd")) {
            assertThat(ValueBounds.call(f, List.of(new double[] {9, INF})))
                    .as(f)
                    .containsExactly(3.0, INF);
        }
    }

    @Test
    void anEvenOrFractionalConstantPowerOfAnySignedBaseIsNotNegative() {
        double[] any = {-INF, INF};
        assertThat(ValueBounds.call("pow", List.of(any, point(2)))).containsExactly(0.0, INF);
        assertThat(ValueBounds.call("pow", List.of(any, point(2.0 / 3.0)))).containsExactly(0.0, INF);
        // an odd power keeps the base's sign; a power not known to be constant, nothing known
        assertThat(ValueBounds.call("pow", List.of(any, point(3)))).isNull();
        assertThat(ValueBounds.call("pow", List.of(any, new double[] {2, 4}))).isNull();
        // a base of at least 1 to a power that is not positive: in (0, 1]; the corners of a box of both
        assertThat(ValueBounds.call("pow", List.of(point(10), new double[] {-INF, 0})))
                .containsExactly(0.0, 1.0);
        assertThat(ValueBounds.call("pow", List.of(new double[] {2, 4}, new double[] {-1, 2})))
                .containsExactly(0.25, 16.0);
        // a base below 1 to a negative power: nothing above
        assertThat(ValueBounds.call("pow", List.of(new double[] {0.5, 4}, new double[] {-1, 0})))
                .containsExactly(0.0, INF);
    }

    @Test
    void sineAndCosineOfAnIntervalShorterThanAPeriod() {
        // a quarter period from 0 (session 75 round F: a sine table's sin(i * pi / 512), i in [0, 256])
        double[] q = ValueBounds.call("sin", List.of(new double[] {0, Math.PI / 2}));
        assertThat(q[0]).isEqualTo(0.0);
        assertThat(q[1]).isEqualTo(1.0);
        // a peak inside: 1; a trough inside: -1; a period or more, or unbounded: [-1, 1]
        assertThat(ValueBounds.call("sinf", List.of(new double[] {1, 2}))[1]).isEqualTo(1.0);
        assertThat(ValueBounds.call("sin", List.of(new double[] {4, 5}))[0]).isEqualTo(-1.0);
        assertThat(ValueBounds.call("cos", List.of(new double[] {0, 7}))).containsExactly(-1.0, 1.0);
        assertThat(ValueBounds.call("cos", List.of(new double[] {-INF, 0}))).containsExactly(-1.0, 1.0);
        // cos over [0, pi/2] is not negative
        assertThat(ValueBounds.call("cosf", List.of(new double[] {0, Math.PI / 2}))[0])
                .isGreaterThan(-1e-14);
    }

    @Test
    void aRemainderIsBelowItsDivisorsMagnitudeEvenWhenTheDivisorMayBeZero() {
        // fmod(t, n) of a uint8_t count n: NaN at n = 0, else below 255 in magnitude, of t's sign
        assertThat(ValueBounds.call("fmod", List.of(new double[] {0, INF}, new double[] {0, 255})))
                .containsExactly(0.0, 255.0);
        assertThat(ValueBounds.call("fmodf", List.of(new double[] {-INF, INF}, new double[] {-4, 2})))
                .containsExactly(-4.0, 4.0);
        assertThat(ValueBounds.call("fmod", List.of(new double[] {0, 1}, point(0))))
                .isNull();
        // an unbounded divisor: still of x's sign, and no larger than x in magnitude
        assertThat(ValueBounds.call("fmod", List.of(new double[] {0, 1}, new double[] {1, INF})))
                .containsExactly(0.0, 1.0);
    }

    /**
     * Session 82 round T: {@code (uint32_t)fmodf((float)firstSampleIndex, rfSampleRate)} of a size_t index and a rate
     * nothing bounds was "unguarded": the remainder has the sign of its dividend whatever the divisor.
     */
    @Test
    void aRemainderHasItsDividendsSignWhateverTheDivisor() {
        assertThat(ValueBounds.call("fmodf", List.of(new double[] {0, 1.8e19}, new double[] {-INF, INF})))
                .containsExactly(0.0, 1.8e19);
        assertThat(ValueBounds.call("fmod", List.of(new double[] {-7, -2}, new double[] {-INF, INF})))
                .containsExactly(-7.0, 0.0);
        assertThat(ValueBounds.call("fmod", List.of(new double[] {-7, 3}, new double[] {-INF, INF})))
                .isNull();
        assertThat(ValueBounds.call("fmod", List.of(new double[] {-7, 30}, new double[] {-5, 5})))
                .containsExactly(-5.0, 5.0);
    }
}
