package dev.numlint.cuda.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How a message quotes an explicit conversion: as written, its operand in the parentheses the cast's form needs. */
class CastQuoteTest {
    @Test
    void aCStyleCastMayPrecedeACall() {
        assertEquals("(unsigned)floor(x)", Consequences.cast("(unsigned)", "floor(x)"));
        assertEquals("(unsigned)(x + 0.5f)", Consequences.cast("(unsigned)", "x + 0.5f"));
    }

    @Test
    void functionalAndStaticCastsHoldTheirOperandInParentheses() {
        // session 67 round F: 'Tstd::sin(...' for T(std::sin((1.0 * i) * PIDiv180))
        assertEquals("T(std::sin(x))", Consequences.cast("T", "std::sin(x)"));
        assertEquals("static_cast<size_t>(std::floor(x))", Consequences.cast("static_cast<size_t>", "std::floor(x)"));
        assertEquals("unsigned(x)", Consequences.cast("unsigned", "x"));
        assertEquals("T(a + b)", Consequences.cast("T", "(a + b)"));
    }

    @Test
    void aMemberConversionFollowsItsObject() {
        assertEquals("v.cast<unsigned int>()", Consequences.cast(".cast<unsigned int>()", "v"));
        assertEquals("(a + b).cast<unsigned int>()", Consequences.cast(".cast<unsigned int>()", "a + b"));
    }
}
