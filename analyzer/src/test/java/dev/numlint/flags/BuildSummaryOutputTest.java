package dev.numlint.flags;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.output.JsonReport;
import dev.numlint.output.SarifReport;
import dev.numlint.output.TextReport;
import dev.numlint.scan.ScanOptions;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.Scanner;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.BuildOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The build context each file was analyzed with is visible in the text, JSON and SARIF reports. */
class BuildSummaryOutputTest {
    private static final Path MAKE =
            Path.of("src/test/resources/build-model/make-goal").toAbsolutePath();

    private static ScanResult scan(BuildOptions o) {
        List<Analyzer> as = List.of(new BuildFlagAnalyzer());
        return Scanner.scan(ScanOptions.builder(MAKE)
                .analyzers(as)
                .buildOptions(o)
                .threads(1)
                .build());
    }

    @Test
    void textJsonAndSarifListTheBuildContextPerDirectory() throws Exception {
        ScanResult r = scan(BuildOptions.DEFAULT);
        List<String> lines = r.buildContext(null).summary();
        assertThat(lines)
                .contains("kern.cu: Makefile goal all -> release -> app -> kern.o (Makefile): "
                        + "-use_fast_math -DMODE_FAST -DFAST_PATH -DCOMMON_DEF=1");
        assertThat(lines)
                .anySatisfy(l -> assertThat(l).startsWith("rng.cu: compiled through kern.cu: Makefile goal all"));
        assertThat(lines).anySatisfy(l -> assertThat(l)
                .isEqualTo("tool.cu: Makefile goal all, flag variables " + "(Makefile): -DCOMMON_DEF=1 -DMODE_FAST"));

        StringWriter text = new StringWriter();
        TextReport.write(r, dev.numlint.output.ReportOptions.defaults(), new PrintWriter(text), false, true);
        assertThat(text.toString())
                .contains("build contexts:\n  kern.cu: Makefile goal all -> release")
                .contains("\n  inc/params.cuh: compiled through kern.cu");
        // by default one line (issue 30: a large tree ended with 40 long lines and "... 410 more")
        StringWriter brief = new StringWriter();
        TextReport.write(r, new PrintWriter(brief));
        assertThat(brief.toString())
                .contains("build contexts: "
                        + lines.stream()
                                .filter(l -> !l.startsWith("compilation database: "))
                                .count()
                        + " (")
                .contains("--verbose lists them, JSON and HTML contain them)")
                .doesNotContain("  kern.cu: Makefile goal");

        StringWriter json = new StringWriter();
        JsonReport.write(r, json);
        JsonNode j = new ObjectMapper().readTree(json.toString());
        assertThat(j.get("buildContexts")).hasSize(lines.size());
        assertThat(j.get("buildContexts").get(0).asText()).isEqualTo(lines.get(0));

        StringWriter sarif = new StringWriter();
        SarifReport.write(r, sarif);
        JsonNode s = new ObjectMapper().readTree(sarif.toString());
        JsonNode props = s.get("runs").get(0).get("invocations").get(0).get("properties");
        assertThat(props.get("buildContexts")).hasSize(lines.size());
    }

    @Test
    void anotherGoalGivesAnotherSummary() {
        ScanResult r = scan(new BuildOptions(null, "debug", Map.of(), null));
        assertThat(r.buildContext(null).summary()).anySatisfy(l -> assertThat(l)
                .startsWith("kern.cu: Makefile goal debug -> app -> kern.o (Makefile): -prec-div=false -DMODE_FAST "
                        + "-DDEBUG_PATH"));
    }
}
