package dev.numlint.cuda.checks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The least value NL001's message gives as its example, and when it gives none. */
class UnguardedUnsignedCastTest {
    /**
     * A least value at -1 or lower and above an int's own range is the example, as x86 converts it (truncated toward
     * zero, kept modulo the type's range); -2^31 is an int's range, no bound (session 66 round G: "as low as
     * -2147483648" of a product of counts), and a value above -1 truncates to 0 everywhere.
     */
    @Test
    void theLeastValueIsTheExampleOnlyWhereSomethingBoundsIt() {
        assertThat(UnguardedUnsignedCast.lowest(-1, 4)).isEqualTo("4294967295");
        assertThat(UnguardedUnsignedCast.lowest(-100, 2)).isEqualTo("65436");
        assertThat(UnguardedUnsignedCast.lowest(-69.235, 8)).isEqualTo("18446744073709551547");
        assertThat(UnguardedUnsignedCast.lowest(-0x1p31, 4)).isNull();
        assertThat(UnguardedUnsignedCast.lowest(Double.NEGATIVE_INFINITY, 4)).isNull();
        assertThat(UnguardedUnsignedCast.lowest(-0.5, 4)).isNull();
    }
}
