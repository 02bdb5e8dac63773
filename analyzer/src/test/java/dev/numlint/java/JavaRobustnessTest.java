package dev.numlint.java;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Level;
import dev.numlint.testing.TestScanContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JavaRobustnessTest {
    @TempDir
    Path dir;

    @Test
    void badInputIsNotifiedNeverThrown() throws Exception {
        byte[] junk = new byte[20000];
        new Random(42).nextBytes(junk);
        Files.write(dir.resolve("Binary.java"), junk);
        Files.writeString(dir.resolve("Empty.java"), "");
        Files.writeString(
                dir.resolve("Latin1.java"),
                "class Latin1 { /* caf\u00e9 */ byte b(float v) { return (byte) v; } }",
                StandardCharsets.ISO_8859_1);
        // JDT drops the body of a method left open at the end of the file; the error is still reported
        Files.writeString(dir.resolve("Unclosed.java"), "class Unclosed { char c(double d) { return (char) d; ");
        Files.writeString(
                dir.resolve("Recovered.java"), "class Recovered { char c(double d) { int x = ; return (char) d; } }");
        TestScanContext c = new TestScanContext(dir).run(new JavaSourceAnalyzer());
        assertThat(c.notifications()).anyMatch(n -> n.file().equals("Binary.java") && n.level() == Level.WARNING);
        assertThat(c.notifications()).anyMatch(n -> n.file().equals("Unclosed.java") && n.id().equals("syntax-error"));
        assertThat(c.notifications())
                .anyMatch(n -> n.file().equals("Recovered.java") && n.id().equals("syntax-error") && n.line() == 1);
        assertThat(c.hits())
                .extracting(h -> h.file() + " " + h.ruleId())
                .containsExactlyInAnyOrder("Latin1.java NL011", "Recovered.java NL001");
    }
}
