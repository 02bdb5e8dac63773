package samples;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;

/** Suppression: SpotBugs' own @SuppressFBWarnings works; @SuppressWarnings has source retention and cannot. */
public class Suppressed {
    @SuppressFBWarnings(value = "NL001", justification = "rule id (bug code) match")
    char byRuleId(float f) {
        // ok: NL001
        return (char) f;
    }

    @SuppressFBWarnings(value = "NL011_FLOAT_TO_SIGNED_NARROWING", justification = "full pattern type")
    byte byPatternType(float f) {
        // ok: NL011
        return (byte) f;
    }

    @SuppressFBWarnings(value = "NL011_FLOAT", justification = "prefix of the pattern type")
    short byPrefix(double d) {
        // ok: NL011
        return (short) d;
    }

    @SuppressFBWarnings(value = "NUMLINT", justification = "the whole category")
    char byCategory(double d) {
        // ok: NL001
        return (char) d;
    }

    @SuppressWarnings("numlint:NL001")
    char sourceRetentionOnly(float f) {
        // ruleid: NL001
        return (char) f;
    }
}
