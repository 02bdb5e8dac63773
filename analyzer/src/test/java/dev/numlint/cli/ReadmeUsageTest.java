package dev.numlint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.scan.MarkerAnalyzer;
import dev.numlint.spi.Analyzer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The README's usage lists every option of every command, derived from the picocli commands themselves. */
class ReadmeUsageTest {
    @Test
    void readmeUsageListsEveryOption() throws IOException {
        String readme = Files.readString(Path.of("../README.md"));
        int start = readme.indexOf("## Usage");
        String usage = readme.substring(start, readme.indexOf("\n## ", start + 1));
        String block = usage.substring(usage.indexOf("```"), usage.indexOf("```", usage.indexOf("```") + 3));
        CommandLine cmd = Main.commandLine(() -> List.<Analyzer>of(new MarkerAnalyzer()));
        List<String> missing = new ArrayList<>();
        for (CommandLine sub : cmd.getSubcommands().values()) {
            String name = sub.getCommandName();
            int at = block.indexOf("numlint " + name + " ");
            assertThat(at).as("usage line of " + name).isNotNegative();
            int next = block.indexOf("\nnumlint ", at + 1);
            String line = block.substring(at, next < 0 ? block.length() : next);
            for (OptionSpec o : sub.getCommandSpec().options()) {
                if (o.usageHelp() || o.versionHelp()) {
                    continue;
                }
                if (!line.contains(o.longestName() + " ") && !line.contains(o.longestName() + "]")) {
                    missing.add(name + " " + o.longestName());
                }
                if (!usage.contains("| `" + o.longestName())) {
                    missing.add("table row for " + o.longestName());
                }
            }
        }
        assertThat(missing).as("README.md usage is missing options").isEmpty();
        assertThat(usage).contains("| 3 |", "| 4 |");
    }
}
