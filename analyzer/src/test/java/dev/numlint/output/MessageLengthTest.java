package dev.numlint.output;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.scan.Analyzers;
import dev.numlint.scan.ScanOptions;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.Scanner;
import dev.numlint.spi.PtxMode;
import dev.numlint.testing.Fixtures;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12: a finding's message is one line that names the expression and its consequence; the explanation is in
 * the rule document. Scans the examples as {@code ./numlint scan examples} does (with PTX when nvcc is there) and
 * checks every message against {@link Fixtures#MAX_MESSAGE} (the fixtures are checked by the fixture runner) and
 * the 90th percentile of the text output's line length against the bound. Messages come from the catalog
 * templates, the shared phrases and the quoted code, so a template, a phrase or a quote that grows fails here.
 */
class MessageLengthTest {
    /** The bound on the 90th percentile of text-output line length for {@code scan examples}. */
    static final int P90_TEXT_LINE = 200;

    @TempDir
    Path cache;

    @Test
    void everyMessageOfTheExamplesIsOneShortLineAndTheTextOutputStaysNarrow() {
        Path root = Path.of("..").toAbsolutePath().normalize();
        ScanOptions.Builder b = ScanOptions.builder(root)
                .paths(List.of(root.resolve("examples")))
                .analyzers(Analyzers.load())
                .cacheDir(cache);
        Optional<Path> nvcc = dev.numlint.toolchain.Nvcc.find(null, System.getenv("PATH"));
        b.ptx(nvcc.isPresent() ? PtxMode.AUTO : PtxMode.OFF, nvcc.orElse(null));
        ScanResult r = Scanner.scan(b.build());
        assertThat(r.findings()).hasSizeGreaterThan(30);

        assertThat(Fixtures.messageProblems(r.findings())).isEmpty();

        StringWriter text = new StringWriter();
        TextReport.write(r, new PrintWriter(text), true);
        int[] lengths = Arrays.stream(text.toString().split("\n"))
                .filter(l -> !l.isBlank())
                .mapToInt(String::length)
                .sorted()
                .toArray();
        int p90 = lengths[(int) Math.ceil(0.9 * lengths.length) - 1];
        assertThat(p90)
                .as("90th percentile of %d text lines (longest %d)", lengths.length, lengths[lengths.length - 1])
                .isLessThan(P90_TEXT_LINE);
    }
}
