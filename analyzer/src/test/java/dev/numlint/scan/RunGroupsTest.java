package dev.numlint.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A run of one hazard on neighbouring lines of a function is one finding ({@link RunGroups}, policy group-runs). */
class RunGroupsTest {
    private static Finding cast(String rule, String function, int line, String written, Level level) {
        String expr = written + "(src[" + line + "] * 0xFF)";
        return Finding.builder(rule)
                .level(level)
                .layer(Layer.CUDA_SOURCE)
                .function(function)
                .location(Location.of("image.c", line, 9))
                .message("'" + expr + "': unguarded float to unsigned char: -69.235 gives 187 on x86, 0 on AArch64")
                .identity(Identity.NONE.withWritten(written).withExpression(expr))
                .build();
    }

    @Test
    void theChannelsOfAPixelAreOneFindingAtTheFirst() {
        List<Finding> out = RunGroups.group(List.of(
                cast("NL001", "to_bytes", 10, "(uint8_t)", Level.ERROR),
                cast("NL001", "to_bytes", 12, "(uint8_t)", Level.ERROR),
                cast("NL001", "to_bytes", 13, "(uint8_t)", Level.ERROR)));
        assertThat(out).hasSize(1);
        Finding g = out.get(0);
        assertThat(g.location().startLine()).isEqualTo(10);
        assertThat(g.level()).isEqualTo(Level.ERROR);
        assertThat(g.message()).endsWith("; 2 more like it at lines 12, 13").hasSizeLessThanOrEqualTo(160);
        assertThat(g.related()).extracting(r -> r.location().startLine()).containsExactly(12, 13);
        assertThat(g.properties().get("runLines")).isEqualTo(List.of(12, 13));
    }

    @Test
    void anotherOperationLevelFunctionOrAGapKeepsFindingsApart() {
        List<Finding> in = List.of(
                cast("NL001", "to_bytes", 10, "(uint8_t)", Level.ERROR),
                cast("NL001", "to_bytes", 11, "(uint16_t)", Level.ERROR),
                cast("NL001", "to_bytes", 12, "(uint8_t)", Level.WARNING),
                cast("NL001", "to_words", 13, "(uint8_t)", Level.ERROR),
                cast("NL001", "to_bytes", 16, "(uint8_t)", Level.ERROR),
                cast("NL001", "to_bytes", 17, "(uint8_t)", Level.NOTE),
                cast("NL001", "to_bytes", 18, "(uint8_t)", Level.NOTE));
        // 10 and 16 are 6 lines apart, the notes are not default-visible: nothing is grouped
        assertThat(RunGroups.group(in)).isEqualTo(in);
    }

    @Test
    void onlyRulesWhosePolicySaysSoAreGrouped() {
        List<Finding> in = List.of(
                cast("NL003", "to_bytes", 10, "(uint8_t)", Level.WARNING),
                cast("NL003", "to_bytes", 11, "(uint8_t)", Level.WARNING));
        assertThat(RunGroups.group(in)).isEqualTo(in);
    }

    /**
     * Session 71 round C (an edge detector's launch passing {@code 255*threshold1, 255*threshold2} to byte parameters):
     * two members on one line said "1 more like it at lines " with nothing after it.
     */
    @Test
    void membersOnTheFirstOnesLineAreSaidToBeOnTheSameLine() {
        List<Finding> out = RunGroups.group(List.of(
                cast("NL001", "to_bytes", 10, "(uint8_t)", Level.ERROR),
                cast("NL001", "to_bytes", 10, "(uint8_t)", Level.ERROR)));
        assertThat(out).hasSize(1);
        assertThat(out.get(0).message()).endsWith("; 1 more like it at the same line");
    }
}
