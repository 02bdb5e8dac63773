package dev.numlint.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Level;
import org.junit.jupiter.api.Test;

class RuleCatalogTest {
    @Test
    void catalogHasItsRulesInOrder() {
        RuleCatalog c = RuleCatalog.get();
        assertThat(c.ids())
                .containsExactly(
                        "NL001", "NL002", "NL003", "NL004", "NL005", "NL006", "NL007", "NL008", "NL009", "NL010",
                        "NL011", "NL012");
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
