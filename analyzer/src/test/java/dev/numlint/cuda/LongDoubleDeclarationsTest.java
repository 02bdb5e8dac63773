package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.testing.TestScanContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NL005: the variables of one declaration at file scope are one choice of long double, one warning (session 54: a
 * cache of four long doubles declared on one line of an astronomy library gave four warnings).
 */
class LongDoubleDeclarationsTest {
    @Test
    void oneDeclarationOfSeveralVariablesIsOneWarning(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("cache.c"),
                """
                static long double c_day = 0.0, c_longitude = 0.0, c_obliquity = 0.0;
                static long double c_other = 0.0;
                double cached(double day) { c_day = day; return (double)(c_longitude + c_obliquity + c_other); }
                """);
        TestScanContext ctx = new TestScanContext(dir).run(new CudaSourceAnalyzer());
        List<Finding> line1 = ctx.findings().stream()
                .filter(f -> f.ruleId().equals("NL005") && f.location().startLine() == 1)
                .toList();
        assertThat(line1).hasSize(3);
        assertThat(line1.stream().filter(f -> f.level() == Level.WARNING)).hasSize(1);
        assertThat(line1.stream().filter(f -> f.level() == Level.NOTE))
                .allMatch(f -> f.impact().consequence().contains("one warning per declaration"));
        // another declaration is another choice
        assertThat(ctx.findings().stream()
                        .filter(f -> f.ruleId().equals("NL005") && f.location().startLine() == 2))
                .extracting(Finding::level)
                .containsExactly(Level.WARNING);
    }
}
