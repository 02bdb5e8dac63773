package dev.numlint.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Level;
import org.junit.jupiter.api.Test;

class RuleCatalogTest {
    @Test
    void catalogHasItsRulesInOrder() {
        RuleCatalog c = RuleCatalog.get();
        // ids are consecutive and never reused (a new rule appends the next one: this test names none of them)
        assertThat(c.ids()).hasSizeGreaterThanOrEqualTo(12);
        for (int i = 0; i < c.ids().size(); i++) assertThat(c.ids().get(i)).isEqualTo(String.format("NL%03d", i + 1));
        assertThat(c.rule("NL001").level()).isEqualTo(Level.ERROR);
        assertThat(c.rule("NL001").bugPattern()).isEqualTo("NL001_FLOAT_TO_UNSIGNED_CONVERSION");
        assertThat(c.rule("NL007").level()).isEqualTo(Level.NOTE);
        assertThat(c.indexOf("NL003")).isEqualTo(2);
        assertThat(c.rule("NL004").option("min-trip-count").defaultValue()).isEqualTo("16");
    }

    @Test
    void versionIsFilteredFromThePom() {
        assertThat(RuleCatalog.toolVersion()).doesNotStartWith("$").isNotEqualTo("0.0.0-dev");
    }
}
