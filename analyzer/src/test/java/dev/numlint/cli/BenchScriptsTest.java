package dev.numlint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The benchmarks run from a fresh clone: no offline Maven, sibling modules from the reactor, a smoke input when no
 * corpus is given, and .ci/run smoke-runs every one of them (the smoke run itself is the end-to-end check).
 */
class BenchScriptsTest {
    static final Path BENCH = Path.of("../bench");

    private static List<Path> scripts() throws IOException {
        try (Stream<Path> s = Files.list(BENCH)) {
            return s.filter(p -> p.toString().endsWith(".sh"))
                    .filter(p -> !p.endsWith("lib.sh"))
                    .sorted()
                    .toList();
        }
    }

    @Test
    void scriptsRunFromAFreshClone() throws IOException {
        List<String> problems = new ArrayList<>();
        Pattern mvn = Pattern.compile("(?m)^[^#\\n]*\\bmvn\\b[^\\n]*$");
        for (Path p : scripts()) {
            String s = Files.readString(p);
            String name = p.getFileName().toString();
            Matcher m = mvn.matcher(s);
            while (m.find()) {
                String line = m.group();
                if (line.matches(".*\\s-o(\\s.*|$)") || line.contains("--offline") || line.contains(":--o}")) {
                    problems.add(name + ": offline Maven: " + line.strip());
                }
                if (line.contains("-pl ") && !line.contains("-am")) {
                    problems.add(name + ": -pl without -am: " + line.strip());
                }
            }
            if (!s.contains(". \"$(dirname \"$0\")/lib.sh\"")) {
                problems.add(name + ": does not source bench/lib.sh (smoke mode, Maven settings)");
            }
            if (s.contains(":?")) {
                problems.add(name + ": fails without arguments instead of running on the smoke input");
            }
        }
        assertThat(problems).isEmpty();
        String lib = Files.readString(BENCH.resolve("lib.sh"));
        assertThat(lib).contains("-pl \"$m\" -am").doesNotContainPattern("\\s-o\\s");
    }

    @Test
    void ciSmokeRunsEveryBenchmark() throws IOException {
        String ci = Files.readString(Path.of("../.ci/run"));
        assertThat(ci)
                .contains("for b in bench/*.sh; do")
                .contains("NUMLINT_BENCH_PREBUILT=1 bash \"$b\"")
                .contains("dependency:build-classpath -Dmdep.outputFile=target/bench.cp");
        assertThat(scripts()).hasSizeGreaterThanOrEqualTo(7);
    }
}
