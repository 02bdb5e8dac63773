package dev.numlint.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.model.Suppression;
import dev.numlint.scan.MarkerAnalyzer;
import dev.numlint.scan.ScanOptions;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.Scanner;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SARIF that GitHub accepts and shows well: portable fingerprints, related locations, run limits (issues 11, 17). */
class SarifEdgesTest {
    @TempDir
    Path dir;

    static JsonNode sarif(ScanResult r) throws IOException {
        StringWriter w = new StringWriter();
        SarifReport.write(r, w);
        return new ObjectMapper().readTree(w.toString());
    }

    private static Finding.Builder finding(String rule, String file, int line) {
        return Finding.builder(rule)
                .location(new Location(file, line, 5, line, 9))
                .layer(Layer.CUDA_SOURCE)
                .level(Level.WARNING)
                .message("m " + rule + " a[i]")
                .fingerprint("f".repeat(32));
    }

    @Test
    void fingerprintsDoNotDependOnWhereNumlintIsStarted() throws IOException {
        Path ex1 = Files.createDirectories(dir.resolve("ex1/src"));
        Files.writeString(ex1.resolve("k.cu"), "x = HAZARD(NL003,k);\ny = HAZARD(NL001,k);\n");
        Files.writeString(dir.resolve("ex1/K.java"), "HAZARD(NL011)\n");
        // `scan ex1` from the parent (paths in the report are relative to the parent) ...
        ScanResult fromParent = Scanner.scan(ScanOptions.builder(dir)
                .path(dir.resolve("ex1"))
                .analyzers(List.of(new MarkerAnalyzer()))
                .build());
        // ... and `scan .` inside ex1
        ScanResult inside = Scanner.scan(ScanOptions.builder(dir.resolve("ex1"))
                .path(dir.resolve("ex1"))
                .analyzers(List.of(new MarkerAnalyzer()))
                .build());
        assertThat(fromParent.findings()).hasSize(3);
        assertThat(fromParent.findings().get(0).location().file()).startsWith("ex1/");
        assertThat(inside.findings().stream().map(Finding::fingerprint).sorted().toList())
                .isEqualTo(fromParent.findings().stream()
                        .map(Finding::fingerprint)
                        .sorted()
                        .toList());
    }

    @Test
    void relatedLocationsStayInTheTreeAreUniqueAndLinkedFromTheMessage() throws IOException {
        Finding f = finding("NL002", "src/k.cu", 5)
                .evidence(new Evidence("ptx", "div.approx.f32 %f1, %f2, %f3;", new Location("src/k.ptx", 12, 0, 12, 0)))
                // the same region twice (evidence and related location): one related location
                .related(new Location("src/k.ptx", 12, 0, 12, 0), "PTX line 12")
                // into the CUDA toolkit: never written as an artifact
                .evidence(new Evidence("ptx", "rcp.approx.f32", Location.line("/usr/local/cuda-13.0/include/x.h", 7)))
                // the command line is not a file
                .evidence(new Evidence("build-flag", "--use_fast_math", Location.of("--nvcc-flags", 1, 1)))
                .related(Location.of("--nvcc-flags", 1, 1), "set here: --use_fast_math")
                // the finding's own region adds nothing
                .evidence(new Evidence("source", "q = a / b;", new Location("src/k.cu", 5, 5, 5, 9)))
                .related(Location.line("src/host.cpp", 40), "launched from host.cpp:40")
                .build();
        ScanResult r = new ScanResult(dir, List.of(f), List.of(), 1, 0, true);
        JsonNode res = sarif(r).at("/runs/0/results/0");
        JsonNode rel = res.get("relatedLocations");
        List<String> uris = new ArrayList<>();
        for (JsonNode l : rel) {
            String uri = l.at("/physicalLocation/artifactLocation/uri").asText(null);
            if (uri != null) {
                uris.add(uri);
                assertThat(l.at("/physicalLocation/artifactLocation/uriBaseId").asText())
                        .isEqualTo("%SRCROOT%");
            }
        }
        assertThat(uris).containsExactly("src/k.ptx", "src/host.cpp");
        assertThat(rel.toString())
                .doesNotContain("/usr/local/cuda")
                .doesNotContain("file:")
                .contains("in a file outside the scanned tree, line 7: ptx: rcp.approx.f32")
                .contains("command line (--nvcc-flags): build-flag: --use_fast_math; set here: --use_fast_math")
                .contains("ptx: div.approx.f32 %f1, %f2, %f3;; PTX line 12");
        assertThat(rel.size()).isEqualTo(4);
        assertThat(res.at("/message/text").asText())
                .isEqualTo("m NL002 a\\[i\\] (see [ptx: div.approx.f32 %f1, %f2, %f3;](1), "
                        + "[launched from host.cpp:40](4))");
        assertThat(rel.get(0).get("id").asInt()).isEqualTo(1);
        assertThat(rel.get(3).get("id").asInt()).isEqualTo(4);
    }

    @Test
    void thirtyThousandFindingsStayWithinGitHubsLimitsKeepingTheMostImportant() throws IOException {
        List<Finding> all = new ArrayList<>();
        for (int i = 0; i < 30_000; i++) {
            Level level = i % 3 == 0 ? Level.NOTE : i % 3 == 1 ? Level.WARNING : Level.ERROR;
            Finding.Builder b =
                    finding("NL003", "src/f" + (i / 100) + ".cu", i % 100 + 1).level(level);
            if (i % 10 == 2) {
                b.suppression(new Suppression("inSource", "reviewed", null));
            }
            all.add(b.build());
        }
        ScanResult r = new ScanResult(dir, List.copyOf(all), List.of(), 300, 0, true);
        ScanResult fitted = SarifReport.fitToLimits(r, SarifReport.Limits.GITHUB);
        assertThat(fitted.findings()).hasSize(25_000);
        // 27,000 unsuppressed: every unsuppressed error and warning is kept (9,000 each), then 7,000 of 9,000 notes
        long errors = fitted.findings().stream()
                .filter(f -> f.level() == Level.ERROR && !f.suppressed())
                .count();
        long warnings = fitted.findings().stream()
                .filter(f -> f.level() == Level.WARNING)
                .count();
        assertThat(errors).isEqualTo(9_000);
        assertThat(warnings).isEqualTo(9_000);
        assertThat(fitted.findings().stream().filter(Finding::suppressed).count())
                .isZero();
        // stable: the kept findings are in the report's order
        java.util.Map<Finding, Integer> index = new java.util.IdentityHashMap<>();
        for (int i = 0; i < all.size(); i++) {
            index.put(all.get(i), i);
        }
        assertThat(fitted.findings()).isSortedAccordingTo(java.util.Comparator.comparingInt(index::get));
        Notification n = fitted.notifications().get(0);
        assertThat(n.id()).isEqualTo(SarifReport.LIMIT_NOTIFICATION);
        assertThat(n.message())
                .contains("25000 of 30000 results; 5000 left out")
                .contains("--format json");
        JsonNode doc = sarif(fitted);
        assertThat(doc.at("/runs/0/results").size()).isEqualTo(25_000);
        assertThat(doc.at("/runs/0/invocations/0/toolExecutionNotifications/0/message/text")
                        .asText())
                .contains("5000 left out");
        assertThat(SarifReport.gzipSize(fitted)).isLessThan(10_000_000);
        // under the limits nothing changes
        ScanResult small = new ScanResult(dir, all.subList(0, 10), List.of(), 1, 0, true);
        assertThat(SarifReport.fitToLimits(small, SarifReport.Limits.GITHUB)).isSameAs(small);
    }

    @Test
    void gzippedSizeLimitDropsTheLeastImportantResults() {
        List<Finding> all = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            all.add(finding("NL003", "src/f" + i + ".cu", 1)
                    .level(i < 50 ? Level.ERROR : Level.NOTE)
                    .message("distinct message " + i + " " + Integer.toHexString(i * 7919))
                    .build());
        }
        ScanResult r = new ScanResult(dir, all, List.of(), 1, 0, true);
        long full = SarifReport.gzipSize(r);
        long empty = SarifReport.gzipSize(new ScanResult(dir, List.of(), List.of(), 1, 0, true));
        long limit = empty + (full - empty) / 2;
        ScanResult fitted = SarifReport.fitToLimits(r, new SarifReport.Limits(25_000, 1_000, limit));
        assertThat(SarifReport.gzipSize(fitted)).isLessThanOrEqualTo(limit);
        assertThat(fitted.findings().size()).isBetween(50, 399);
        assertThat(fitted.findings().stream()
                        .filter(f -> f.level() == Level.ERROR)
                        .count())
                .isEqualTo(50);
    }

    @Test
    void relatedLocationsPerResultAreCapped() throws IOException {
        Finding.Builder b = finding("NL004", "src/k.cu", 1);
        for (int i = 0; i < 1_200; i++) {
            b.related(Location.line("src/h" + i + ".cu", 1), "site " + i);
        }
        JsonNode res = sarif(new ScanResult(dir, List.of(b.build()), List.of(), 1, 0, true))
                .at("/runs/0/results/0");
        assertThat(res.get("relatedLocations").size()).isEqualTo(1_000);
        assertThat(res.at("/properties/relatedLocationsOmitted").asInt()).isEqualTo(200);
    }
}
