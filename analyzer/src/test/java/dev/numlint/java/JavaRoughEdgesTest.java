package dev.numlint.java;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Finding;
import dev.numlint.testing.TestScanContext;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 17 items of the Java front end. */
class JavaRoughEdgesTest {
    @TempDir
    Path dir;

    @Test
    void aByteOrderMarkDoesNotShiftTheSnippet() throws Exception {
        String src = "class Bom {\n    char c(double d) {\n        return (char) d;\n    }\n}\n";
        byte[] body = src.getBytes(StandardCharsets.UTF_8);
        byte[] withBom = new byte[body.length + 3];
        withBom[0] = (byte) 0xEF;
        withBom[1] = (byte) 0xBB;
        withBom[2] = (byte) 0xBF;
        System.arraycopy(body, 0, withBom, 3, body.length);
        Files.write(dir.resolve("Bom.java"), withBom);
        for (boolean bindings : new boolean[] {true, false}) {
            TestScanContext c = new TestScanContext(dir).run(new JavaSourceAnalyzer(bindings));
            Finding f = c.findings().stream()
                    .filter(x -> x.ruleId().equals("NL001"))
                    .findFirst()
                    .orElseThrow();
            assertThat(f.evidence().get(0).text()).as("bindings " + bindings).isEqualTo("(char) d");
            assertThat(f.location().startLine()).isEqualTo(3);
            assertThat(f.location().startColumn()).isEqualTo(16);
        }
    }

    @Test
    void suppressFbWarningsSilencesTheSourceAnalyzerToo() throws Exception {
        Files.writeString(
                dir.resolve("Fb.java"),
                """
                import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
                class Fb {
                    @SuppressFBWarnings(value = "NL001", justification = "values are clamped by the caller")
                    char byId(float f) { return (char) f; }
                    @SuppressFBWarnings(value = "NL011_FLOAT", justification = "prefix of the pattern type")
                    byte byPrefix(float f) { return (byte) f; }
                    @SuppressFBWarnings("NUMLINT") // the whole category
                    char byCategory(double d) { return (char) d; }
                    @SuppressFBWarnings("NL011")
                    byte unjustified(float f) { return (byte) f; }
                }
                """);
        TestScanContext c = new TestScanContext(dir).run(new JavaSourceAnalyzer());
        assertThat(c.findings())
                .filteredOn(Finding::suppressed)
                .extracting(f -> f.suppression().justification())
                .containsExactlyInAnyOrder(
                        "values are clamped by the caller", "prefix of the pattern type", "the whole category");
        assertThat(c.hits()).extracting(h -> h.ruleId() + "@" + h.line()).containsExactly("NL011@10");
        assertThat(c.notifications()).anyMatch(n -> n.id().equals("unjustified-suppression") && n.line() == 9);
    }

    @Test
    @SuppressWarnings("try") // the resource only silences JDT's stderr while the block runs
    void jdtInternalMessagesDoNotReachStderr() {
        PrintStream saved = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try (JdtNoise quiet = JdtNoise.silence()) {
            System.err.println("The method m(Missing) is wrongly tagged as containing missing types");
            System.err.println("something else");
        } finally {
            System.setErr(saved);
        }
        assertThat(captured.toString(StandardCharsets.UTF_8)).isEqualTo("something else" + System.lineSeparator());
    }

    @Test
    void aFileOverTheBudgetIsReportedNotAnalyzedAndTheScanGoesOn() throws Exception {
        StringBuilder big = new StringBuilder("class Big {\n");
        for (int i = 0; i < 400; i++) {
            big.append("  char c").append(i).append("(double d) { return (char) d; }\n");
        }
        Files.writeString(dir.resolve("Big.java"), big.append("}\n").toString());
        Files.writeString(dir.resolve("Small.java"), "class Small { char c(double d) { return (char) d; } }\n");
        String old = System.getProperty("numlint.java.fileBudgetMs");
        System.setProperty("numlint.java.fileBudgetMs", "0");
        try {
            TestScanContext c = new TestScanContext(dir).run(new JavaSourceAnalyzer());
            assertThat(c.notifications())
                    .anyMatch(n -> n.file().equals("Big.java")
                            && n.id().equals("not-analyzed")
                            && n.message().startsWith("not analyzed: "));
            assertThat(c.findings()).noneMatch(f -> f.location().file().equals("Big.java"));
            // every file gets its own budget and its own notice: the scan went on after Big.java
            assertThat(c.notifications()).anyMatch(n -> n.file().equals("Small.java") && n.id().equals("not-analyzed"));
        } finally {
            if (old == null) System.clearProperty("numlint.java.fileBudgetMs");
            else System.setProperty("numlint.java.fileBudgetMs", old);
        }
    }
}
