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

    @Test
    void templatesAndResourcesAreSkippedWithOneNotice() throws Exception {
        Path arch = Files.createDirectories(dir.resolve("src/main/resources/archetype-resources/src/main/java"));
        Files.writeString(
                arch.resolve("App.java"),
                "package ${package};\n#set( $symbol_dollar = '$' )\nclass App { byte b(float v) { return (byte) v; } }");
        Path gen = Files.createDirectories(dir.resolve("gen"));
        Files.writeString(
                gen.resolve("Template.java"),
                "class Template {\n#if ($wide)\n  double x;\n#end\n  byte b(float v) { return (byte) v; } }");
        Files.writeString(dir.resolve("Real.java"), "class Real { byte b(float v) { return (byte) v; } }");
        TestScanContext c = new TestScanContext(dir).run(new JavaSourceAnalyzer());
        assertThat(c.hits()).extracting(h -> h.file() + " " + h.ruleId()).containsExactly("Real.java NL011");
        assertThat(c.notifications()).noneMatch(n -> n.id().equals("syntax-error"));
        assertThat(c.notifications())
                .filteredOn(n -> n.id().equals("java-templates-skipped"))
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .startsWith("2 .java files are not analyzed")
                        .contains("first: gen/Template.java"));
    }

    @Test
    void validModernJavaHasNoSyntaxErrorsAlsoWhenItsTypesAreMissing() throws Exception {
        // an exhaustive switch expression over an enum of a missing dependency: JDT cannot see its constants
        Files.writeString(
                dir.resolve("Enum.java"),
                "import org.missing.Colour;\nclass Enum { static int code(Colour c) {"
                        + " return switch (c) { case RED -> 1; case GREEN -> 2; }; } }");
        Path p21 = Files.createDirectories(dir.resolve("p21"));
        Files.writeString(
                p21.resolve("pom.xml"),
                "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId>"
                        + "<version>1</version><properties><maven.compiler.release>21</maven.compiler.release>"
                        + "</properties></project>");
        Files.writeString(
                p21.resolve("Shapes.java"),
                "sealed interface Shape permits Circle, Square {}\n"
                        + "record Circle(double r) implements Shape {}\n"
                        + "record Square(double s) implements Shape {}\n"
                        + "class Shapes {\n"
                        + "  static double area(Shape s) { return switch (s) {\n"
                        + "    case Circle c -> Math.PI * c.r() * c.r();\n"
                        + "    case Square q -> q.s() * q.s(); }; }\n"
                        + "  static double r(Object o) { if (o instanceof Circle(double r)) return r; return 0; }\n"
                        + "}\n");
        TestScanContext c = new TestScanContext(dir).run(new JavaSourceAnalyzer());
        assertThat(c.notifications()).noneMatch(n -> n.id().equals("syntax-error"));
    }
}
