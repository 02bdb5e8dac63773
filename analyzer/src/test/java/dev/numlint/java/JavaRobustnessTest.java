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

    @Test
    void aCompilerFailureCostsOnlyItsOwnFileItsTypesAndIsNamed() throws Exception {
        for (String n : new String[] {"A", "B", "C", "D", "E"}) {
            Files.writeString(dir.resolve(n + ".java"), "class " + n + " { byte b(float v) { return (byte) v; } }");
        }
        JavaSourceAnalyzer.compilerFailureForTests = f -> f.endsWith("C.java");
        TestScanContext c;
        try {
            c = new TestScanContext(dir).run(new JavaSourceAnalyzer());
        } finally {
            JavaSourceAnalyzer.compilerFailureForTests = f -> false;
        }
        assertThat(c.notifications())
                .filteredOn(n -> n.id().equals("java-bindings-failed"))
                .singleElement()
                .satisfies(n -> {
                    assertThat(n.file()).isEqualTo("C.java");
                    assertThat(n.message())
                            .contains("1 file (")
                            .contains("simulated compiler failure")
                            .contains("C.java")
                            .doesNotContain("A.java")
                            .doesNotContain("E.java");
                });
        // every file is still analyzed, the failing one with types guessed from the source
        assertThat(c.hits())
                .extracting(h -> h.file() + " " + h.ruleId())
                .containsExactlyInAnyOrder(
                        "A.java NL011", "B.java NL011", "C.java NL011", "D.java NL011", "E.java NL011");
    }

    @Test
    void unresolvedTypesAreNotedAlsoWithAnIncompleteClassPathNamingThePackages() throws Exception {
        Files.writeString(
                dir.resolve("A.java"), "import org.missing.Volume;\nimport net.other.io.*;\nclass A { Volume v; }");
        Files.writeString(dir.resolve("B.java"), "import org.missing.Volume;\nclass B { Volume v; }");
        Files.writeString(dir.resolve("C.java"), "class C { java.util.List<String> l; }");
        Path lib = Files.createDirectories(dir.resolve("lib-classes"));
        TestScanContext c = new TestScanContext(dir).classpathEntry(lib).run(new JavaSourceAnalyzer());
        assertThat(c.notifications())
                .filteredOn(n -> n.id().equals("java-types-unresolved"))
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .contains("types used by 2 Java files")
                        .contains("missing packages: org.missing (2 files), net.other.io (1 file)")
                        .contains("the --classpath given lacks them"));
    }

    @Test
    void theMissingPackageOfAnImportIsItsLowerCasePrefix() {
        assertThat(JavaSourceAnalyzer.UnresolvedTypes.packageOf("org.scijava.plugin.Plugin"))
                .isEqualTo("org.scijava.plugin");
        assertThat(JavaSourceAnalyzer.UnresolvedTypes.packageOf("org.scijava.plugin"))
                .isEqualTo("org.scijava.plugin");
        assertThat(JavaSourceAnalyzer.UnresolvedTypes.packageOf("net.imglib2.Cursor.Inner"))
                .isEqualTo("net.imglib2");
    }
}
