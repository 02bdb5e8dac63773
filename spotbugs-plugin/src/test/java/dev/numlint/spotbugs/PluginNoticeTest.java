package dev.numlint.spotbugs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Layer;
import dev.numlint.rules.Rule;
import dev.numlint.rules.RuleCatalog;
import edu.umd.cs.findbugs.BugCollectionBugReporter;
import edu.umd.cs.findbugs.Project;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The plugin reports itself once when SpotBugs constructs its detectors (issue 30: a plugin loaded nowhere). */
class PluginNoticeTest {

    @Test
    void theLineNamesThePluginItsVersionAndEveryRuleOfItsDetectors() {
        List<String> bytecodeRules = RuleCatalog.get().all().stream()
                .filter(r -> r.appliesTo(Layer.JAVA_BYTECODE))
                .map(Rule::id)
                .toList();
        assertThat(BugPatterns.rules()).containsExactlyElementsOf(bytecodeRules);
        assertThat(BugPatterns.pluginVersion()).isNotBlank().doesNotContain("unknown");
        assertThat(PluginNotice.text())
                .startsWith("numlint SpotBugs plugin " + BugPatterns.pluginVersion() + " loaded: rules NL001, ")
                .contains(String.join(", ", bytecodeRules));
    }

    @Test
    void constructingADetectorPrintsTheLineOncePerJvm() {
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PluginNotice.reset();
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            BugCollectionBugReporter reporter = new BugCollectionBugReporter(new Project());
            new MathLibraryDetector(reporter);
            new FloatConversionDetector(reporter);
            new SharedFloatSumDetector(reporter);
        } finally {
            System.setErr(saved);
        }
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo(PluginNotice.text() + System.lineSeparator());
    }
}
