package dev.numlint.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RuleMessageTest {
    private final Rule rule = new Rule(
            "NL001",
            "float-to-unsigned-conversion",
            Level.ERROR,
            "conversion",
            List.of(),
            "s",
            "d",
            List.of(Layer.CUDA_SOURCE),
            List.of(),
            "md",
            Map.of("cast", "({type}) {expr}: negative values become 0 on the GPU, {wrap} on x86"));

    @Test
    void placeholdersAreFilled() {
        assertThat(rule.message("cast", "type", "unsigned short", "expr", "v", "wrap", "65467"))
                .isEqualTo("(unsigned short) v: negative values become 0 on the GPU, 65467 on x86");
    }

    @Test
    void unknownKeysAndMissingValuesAreBugs() {
        assertThatThrownBy(() -> rule.message("nope")).hasMessageContaining("no message 'nope'");
        assertThatThrownBy(() -> rule.message("cast", "type", "t")).hasMessageContaining("needs 'expr'");
    }
}
