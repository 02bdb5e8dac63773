package dev.numlint.flags;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How a flag finding's condition is shortened to fit its message (FlagReporter.Condition). */
class FlagConditionTextTest {
    @Test
    void aConditionTooLongIsCutAtAWordsEndAndKeepsItsVerdict() {
        FlagReporter.Condition c = FlagReporter.Condition.of("Makefile.old, which Makefile does not include");
        assertThat(c.text(100)).isEqualTo("Makefile.old, which Makefile does not include");
        // session 75 round C: "only under Makefile.old, which Makefile does no..."
        assertThat(c.text(40)).isEqualTo("Makefile.old, which Makefile does not...");
        assertThat(c.text(39)).isEqualTo("Makefile.old, which Makefile does...");
        assertThat(c.text(20)).isEqualTo("Makefile.old...");
        FlagReporter.Condition v = FlagReporter.Condition.of(
                "if(ENABLE_FAST_MATH AND NOT WIN32), which is false in the default configuration");
        assertThat(v.text(24)).isEqualTo("if(ENABLE_FAST_MATH... (false by default)");
    }
}
