package dev.numlint.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numlint.rules.Rule;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.scan.MarkerAnalyzer;
import dev.numlint.scan.ScanOptions;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.Scanner;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SARIF output of a small fixture scanned by the deterministic {@link MarkerAnalyzer} against a committed golden
 * file. Rule metadata (which carries the rule documents) is checked against the catalog rather than the golden
 * file, so editing a rule document does not break this test. Regenerate the golden file with
 * {@code mvn -pl analyzer test -Dtest=SarifReportTest -Dnumlint.updateGolden=true}.
 */
class SarifReportTest {
    static final Path SAMPLE = Path.of("src/test/resources/golden/sample");
    static final Path GOLDEN = Path.of("src/test/resources/golden/sample.sarif");

    static ScanResult scanSample() {
        return Scanner.scan(ScanOptions.builder(SAMPLE)
                .analyzers(List.of(new MarkerAnalyzer()))
                .threads(2)
                .build());
    }

    static String sarif(ScanResult r) throws IOException {
        StringWriter w = new StringWriter();
        SarifReport.write(r, w);
        return w.toString();
    }

    @Test
    void matchesTheGoldenFile() throws IOException {
        ScanResult r = scanSample();
        ObjectMapper m = new ObjectMapper();
        ObjectNode tree = (ObjectNode) m.readTree(sarif(r));
        ObjectNode driver = (ObjectNode) tree.at("/runs/0/tool/driver");
        JsonNode rules = driver.remove("rules");
        driver.put("rules", "(checked against the catalog)");
        driver.put("version", "(version)");
        driver.put("semanticVersion", "(version)");
        String actual = m.writer(JsonReport.printer()).writeValueAsString(tree) + "\n";
        // nothing machine-specific: the checkout's absolute path appears nowhere
        assertThat(actual)
                .doesNotContain(SarifReport.rootUri(r.root()))
                .doesNotContain(r.root().toString());
        if (Boolean.getBoolean("numlint.updateGolden")) {
            Files.writeString(GOLDEN, actual, StandardCharsets.UTF_8);
        }
        assertThat(actual)
                .as("SARIF differs from %s; regenerate with -Dnumlint.updateGolden=true and review the diff", GOLDEN)
                .isEqualTo(Files.readString(GOLDEN));

        assertThat(rules.size()).isEqualTo(RuleCatalog.get().all().size());
        int i = 0;
        for (Rule rule : RuleCatalog.get().all()) {
            JsonNode d = rules.get(i++);
            assertThat(d.get("id").asText()).isEqualTo(rule.id());
            assertThat(d.get("name").asText()).isEqualTo(rule.name());
            assertThat(d.at("/shortDescription/text").asText()).isEqualTo(rule.summary());
            assertThat(d.at("/fullDescription/text").asText()).isEqualTo(rule.description());
            assertThat(d.at("/help/markdown").asText()).isEqualTo(rule.markdown());
            assertThat(d.at("/help/text").asText()).isEqualTo(rule.markdown());
            assertThat(d.get("helpUri").asText()).isEqualTo(rule.helpUri());
            assertThat(d.at("/defaultConfiguration/level").asText())
                    .isEqualTo(rule.level().id());
            assertThat(d.at("/properties/tags").toString()).contains("\"" + rule.category() + "\"");
            for (int cwe : rule.cwe()) {
                assertThat(d.at("/properties/tags").toString()).contains("external/cwe/cwe-" + cwe);
            }
        }
    }

    @Test
    void sameInputGivesByteIdenticalOutput() throws IOException {
        String a = sarif(scanSample());
        String b = sarif(Scanner.scan(ScanOptions.builder(SAMPLE)
                .analyzers(List.of(new MarkerAnalyzer()))
                .threads(1)
                .build()));
        assertThat(b).isEqualTo(a);
        StringWriter ja = new StringWriter();
        StringWriter jb = new StringWriter();
        JsonReport.write(scanSample(), ja);
        JsonReport.write(scanSample(), jb);
        // the provenance date is the time of writing (to the second; SOURCE_DATE_EPOCH fixes it): two writes may
        // straddle a second
        String date = "\"date\" : \"[^\"]*\"";
        assertThat(jb.toString().replaceAll(date, "DATE"))
                .isEqualTo(ja.toString().replaceAll(date, "DATE"));
    }

    @Test
    void resultsCarryLevelsLocationsSuppressionsAndNotifications() throws IOException {
        JsonNode run = new ObjectMapper().readTree(sarif(scanSample())).at("/runs/0");
        JsonNode results = run.get("results");
        for (JsonNode res : results) {
            assertThat(res.get("level").asText()).isIn("error", "warning", "note");
            assertThat(res.at("/locations/0/physicalLocation/artifactLocation/uriBaseId")
                            .asText())
                    .isEqualTo("%SRCROOT%");
            assertThat(res.at("/partialFingerprints/numlint~1v1").asText()).matches("[0-9a-f]{32}");
            assertThat(res.get("ruleIndex").asInt())
                    .isEqualTo(RuleCatalog.get().indexOf(res.get("ruleId").asText()));
        }
        assertThat(run.at("/invocations/0/executionSuccessful").asBoolean()).isTrue();
        assertThat(run.at("/originalUriBaseIds/%SRCROOT%").has("uri")).isFalse();
        assertThat(run.at("/originalUriBaseIds/%SRCROOT%/description/text").asText())
                .isNotEmpty();
        assertThat(run.at("/invocations/0/toolExecutionNotifications").toString())
                .contains("binary-file", "src/weights.h", "unjustified-suppression");
    }

    /**
     * A relative path whose first segment holds a colon (a legal file name a hostile tree may have) is written with a
     * leading "./" so that it does not read as a URI scheme; before, SARIF wrote no report at all (an internal error).
     */
    @Test
    void aFileNameWithAColonIsARelativeUri() {
        assertThat(SarifReport.artifact("a:b.cu").getUri()).isEqualTo("./a:b.cu");
        assertThat(SarifReport.artifact("src/a:b.cu").getUri()).isEqualTo("src/a:b.cu");
        assertThat(SarifReport.artifact("src/k.cu").getUri()).isEqualTo("src/k.cu");
        assertThat(SarifReport.artifact("a b.cu").getUri()).isEqualTo("a%20b.cu");
    }
}
