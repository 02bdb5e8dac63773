package dev.numlint.spotbugs.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Level;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 30: a note (NL010's Math.sin) failed SpotBugs builds at {@code <threshold>Low</threshold>} although
 * numlint's command line only shows it. The README's mapping of levels to priorities and to spotbugs-maven-plugin's
 * {@code <failThreshold>} is the generator's, and its Maven example fails on what {@code --fail-on error} fails on.
 */
class LevelMappingTest {
    private static final Path README = Path.of("README.md");
    /** spotbugs-maven-plugin's names of the priorities (index = priority); failThreshold fails on priority <= index. */
    private static final List<String> FAIL_THRESHOLD_NAMES = List.of("unknown", "High", "Medium", "Low");

    @Test
    void theDocumentedTableIsTheGeneratorsMapping() throws IOException {
        String readme = Files.readString(README);
        for (Level level : Level.values()) {
            Matcher m = Pattern.compile("\\| " + level.id() + " \\| (\\d), [^|]+\\| [^|]+\\| `" + level.id()
                            + "`[^|]*\\| `(\\w+)` \\|")
                    .matcher(readme);
            assertThat(m.find()).as("README row for " + level.id()).isTrue();
            int priority = Integer.parseInt(m.group(1));
            assertThat(priority).isEqualTo(DescriptorGenerator.priority(level));
            assertThat(FAIL_THRESHOLD_NAMES.indexOf(m.group(2)))
                    .as("failThreshold of " + level.id() + " fails on its own priority and the more severe ones only")
                    .isEqualTo(priority);
        }
    }

    @Test
    void theMavenExampleReportsNotesButFailsOnErrorsOnly() throws IOException {
        String readme = Files.readString(README);
        int start = readme.indexOf("<artifactId>spotbugs-maven-plugin</artifactId>");
        String example = readme.substring(start, readme.indexOf("</plugin>\n```", start));
        assertThat(example).contains("<threshold>Low</threshold>");
        Matcher m = Pattern.compile("<failThreshold>(\\w+)</failThreshold>").matcher(example);
        assertThat(m.find()).as("the example sets failThreshold").isTrue();
        int failsUpTo = FAIL_THRESHOLD_NAMES.indexOf(m.group(1));
        // numlint's default --fail-on error: an error fails the build, a warning and a note (NL010) do not
        assertThat(DescriptorGenerator.priority(Level.ERROR)).isLessThanOrEqualTo(failsUpTo);
        assertThat(DescriptorGenerator.priority(Level.WARNING)).isGreaterThan(failsUpTo);
        assertThat(DescriptorGenerator.priority(Level.NOTE)).isGreaterThan(failsUpTo);
    }
}
