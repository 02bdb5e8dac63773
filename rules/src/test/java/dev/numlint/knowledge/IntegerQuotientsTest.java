package dev.numlint.knowledge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class IntegerQuotientsTest {
    @Test
    void constantsThatAreNotExactLoseTheFraction() {
        IntegerQuotients.Loss l = IntegerQuotients.loss(1.0, 24.0, null, false, false);
        assertTrue(l.certain());
        assertEquals("1 / 24 is 0, not 0.0416667", l.consequence());
        assertEquals(
                "-7 / 2 is -3, not -3.5",
                IntegerQuotients.loss(-7.0, 2.0, null, false, false).consequence());
        assertNull(IntegerQuotients.loss(64.0, 2.0, null, false, false), "exact");
        // every digit of a large quotient's whole part (six significant digits gave "not 268435000")
        assertEquals(
                "2147483647 / 8 is 268435455, not 268435455.875",
                IntegerQuotients.loss(2147483647.0, 8.0, null, false, false).consequence());
        assertNull(IntegerQuotients.loss(0.0, null, null, false, false), "0 / n");
        assertNull(IntegerQuotients.loss(null, 1.0, null, false, false), "n / 1");
        assertNull(IntegerQuotients.loss(null, -1.0, null, false, false), "n / -1");
    }

    /** (double)(INT64_MAX / 2) is 2^62 whether or not the half is dropped: no loss a conversion keeps. */
    @Test
    void aQuotientPastDoublesResolutionLosesNothing() {
        assertNull(IntegerQuotients.loss((double) Long.MAX_VALUE, 2.0, null, false, false));
        assertTrue(IntegerQuotients.loss(2147483647.0, 8.0, null, false, false).certain());
    }

    @Test
    void roundingsCompareTheExactQuotientsRounding() {
        assertEquals(
                "7 / 2 is 3, not 3.5, so ceil() gives 3, not 4",
                IntegerQuotients.loss(7.0, 2.0, "ceil", false, false).consequence());
        assertNull(IntegerQuotients.loss(7.0, 2.0, "floorf", false, false), "floor(3.5) is 3 too");
        assertEquals(
                "-7 / 2 is -3, not -3.5, so floor() gives -3, not -4",
                IntegerQuotients.loss(-7.0, 2.0, "floor", false, false).consequence());
        assertNull(IntegerQuotients.loss(7.0, 2.0, "truncf", false, false), "trunc is the division's own rounding");
        assertNull(IntegerQuotients.loss(null, null, "trunc", false, false));
        assertTrue(IntegerQuotients.loss(null, null, "ceill", false, false).certain());
        assertTrue(IntegerQuotients.loss(null, null, "llroundf", false, false).certain());
        assertFalse(IntegerQuotients.loss(null, null, "floor", false, false).certain());
        assertNull(IntegerQuotients.loss(null, null, "floor", false, true), "non-negative: truncation is floor");
    }

    @Test
    void variablesAreANoteUnlessAReciprocalOrIndexArithmetic() {
        assertTrue(IntegerQuotients.loss(1.0, null, null, false, false).certain());
        assertTrue(IntegerQuotients.loss(-1.0, null, null, true, false).certain());
        assertFalse(IntegerQuotients.loss(null, null, null, false, false).certain());
        assertFalse(IntegerQuotients.loss(2.0, null, null, false, false).certain());
        assertNull(IntegerQuotients.loss(null, 2.0, null, true, false), "(float)(i - n / 2)");
    }
}
