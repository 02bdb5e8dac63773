package dev.numlint.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.scan.ScanResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The baseline read with the SARIF model that writes it, and compared with what SARIF holds: a result's
 * {@code message.text} against {@link SarifReport#messageText} of the finding, never a message recovered by parsing.
 */
class BaselineReadTest {
    @TempDir
    Path tmp;

    private static Finding finding(String message, Evidence... evidence) {
        Finding.Builder b = Finding.builder("NL003")
                .level(Level.WARNING)
                .location(Location.line("src/k.cu", 3))
                .message(message)
                .layer(Layer.CUDA_SOURCE)
                .fingerprint("00112233445566778899aabbccddeeff");
        for (Evidence e : evidence) {
            b.evidence(e);
        }
        return b.build();
    }

    private Baseline baselineOf(Finding... results) throws IOException {
        Path f = tmp.resolve("base.sarif");
        try (var w = Files.newBufferedWriter(f)) {
            SarifReport.write(new ScanResult(tmp, List.of(results), List.of(), 1, 0, true), w);
        }
        return Baseline.load(f);
    }

    @Test
    void aMessageThatEndsLikeEmbeddedLinksStaysUnchanged() throws IOException {
        // a related place outside the scanned tree gets no link, so SARIF holds the message as it is; its end reads
        // like the links SARIF appends elsewhere, which a parse of the text would have cut off ("updated")
        Finding f = finding(
                "'a[i] * b (see [x](1))' may become one fma",
                new Evidence("ptx", "fma.rn.f32 %f1, %f2, %f3, %f4;", Location.line("/usr/local/cuda/x.h", 10)));
        Finding g = finding(
                "'a[i] * b' may become one fma (see [x](1))",
                new Evidence("ptx", "fma.rn.f32 %f1, %f2, %f3, %f4;", Location.line("/usr/local/cuda/x.h", 10)));
        assertThat(SarifReport.messageText(g)).isEqualTo(g.message());
        Baseline b = baselineOf(g);
        assertThat(b.compare(List.of(g)).state(g)).isEqualTo(Baseline.State.UNCHANGED);
        assertThat(b.compare(List.of(f)).state(f)).isEqualTo(Baseline.State.UPDATED);
    }

    @Test
    void aMessageWithLinksToRelatedLocationsComparesAsWritten() throws IOException {
        Finding f = finding(
                "'a[i]*b+c' may become one fma",
                new Evidence("source", "x = a[i]*b+c;", Location.line("src/other.cu", 7)));
        assertThat(SarifReport.messageText(f))
                .startsWith("'a\\[i\\]*b+c' may become one fma (see [")
                .endsWith("](1))");
        Baseline b = baselineOf(f);
        assertThat(b.compare(List.of(f)).state(f)).isEqualTo(Baseline.State.UNCHANGED);
        assertThat(b.results()).singleElement().satisfies(r -> assertThat(r.message())
                .as("an absent result shows the finding's own message")
                .isEqualTo(f.message()));
        Finding moved = finding(
                "'a[i]*b+c' may become one fma",
                new Evidence("source", "x = a[i]*b+c;", Location.line("src/other.cu", 8)));
        assertThat(b.compare(List.of(moved)).state(moved)).isEqualTo(Baseline.State.UNCHANGED);
        Finding changed = finding(
                "'a[i]*b+c' may become one fma: one ulp",
                new Evidence("source", "x = a[i]*b+c;", Location.line("src/other.cu", 7)));
        assertThat(b.compare(List.of(changed)).state(changed)).isEqualTo(Baseline.State.UPDATED);
    }

    @Test
    void otherToolsPropertiesAreSkippedAndABrokenFileIsNamedWithThePlace() throws IOException {
        Path ok = tmp.resolve("ok.sarif");
        Files.writeString(
                ok,
                "{\"version\":\"2.1.0\",\"x-other\":1,\"runs\":[{\"tool\":{\"driver\":{\"name\":\"numlint\","
                        + "\"x-vendor\":true}},\"results\":[{\"ruleId\":\"NL001\",\"level\":\"error\","
                        + "\"message\":{\"text\":\"m\"},\"partialFingerprints\":{\"numlint/v1\":\"ab\"},"
                        + "\"properties\":{\"layer\":\"ptx\",\"function\":\"k\"}}]}]}");
        assertThat(Baseline.load(ok).results()).singleElement().satisfies(f -> {
            assertThat(f.level()).isEqualTo(Level.ERROR);
            assertThat(f.layer()).isEqualTo(Layer.PTX);
            assertThat(f.function()).isEqualTo("k");
        });
        Path oldVersion = tmp.resolve("v2.sarif");
        Files.writeString(oldVersion, "{\"version\":\"2.0.0\",\"runs\":[]}");
        assertThatThrownBy(() -> Baseline.load(oldVersion))
                .hasMessageContaining("is not a readable numlint SARIF file: SARIF version '2.0.0', expected 2.1.0");
        Path resultsNotAList = tmp.resolve("r.sarif");
        Files.writeString(
                resultsNotAList,
                "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"numlint\"}},\"results\":{}}]}");
        assertThatThrownBy(() -> Baseline.load(resultsNotAList))
                .hasMessageContaining(resultsNotAList + "' is not a readable numlint SARIF file: not SARIF 2.1.0 at "
                        + "/runs/0/results");
    }
}
