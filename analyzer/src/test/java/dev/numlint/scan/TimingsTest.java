package dev.numlint.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.cuda.CudaSourceAnalyzer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code -Dnumlint.timings=true}: one line per phase of a scan on standard error, nothing without it. */
class TimingsTest {
    @TempDir
    Path dir;

    private String scanWithTimings(String value) throws Exception {
        Files.writeString(dir.resolve("a.cu"), "__device__ unsigned f(float v) { return (unsigned)v; }\n");
        PrintStream err = System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        String before = System.getProperty("numlint.timings");
        System.setProperty("numlint.timings", value);
        System.setProperty("numlint.frontend", "legacy");
        try {
            System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
            Scanner.scan(ScanOptions.builder(dir)
                    .analyzers(List.of(new CudaSourceAnalyzer()))
                    .cacheDir(dir.resolve(".cache"))
                    .build());
        } finally {
            System.setErr(err);
            System.clearProperty("numlint.frontend");
            if (before == null) System.clearProperty("numlint.timings");
            else System.setProperty("numlint.timings", before);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void eachPhaseIsTimedWhenAskedAndNothingIsPrintedOtherwise() throws Exception {
        String on = scanWithTimings("true");
        assertThat(on).contains("numlint timings: discovery ");
        assertThat(on).containsPattern("numlint timings: analyzer cuda-source \\(1 files\\) \\d+ ms \\(at \\d+ ms\\)");
        assertThat(on).contains("numlint timings: cuda-source files=1 ");
        assertThat(on).contains("numlint timings: merge ");
        assertThat(scanWithTimings("false")).doesNotContain("numlint timings");
    }
}
