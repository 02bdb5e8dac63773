package dev.numlint.java;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** pom.xml reading: the Java release, with a parser that no pom.xml from a stranger can hang or misuse. */
class JavaProjectTest {
    @Test
    void releaseFromPropertiesCompilerPluginAndParent(@TempDir Path dir) throws IOException {
        Files.writeString(
                dir.resolve("pom.xml"),
                """
                <project><modelVersion>4.0.0</modelVersion>
                  <properties><java.version> 11 </java.version></properties>
                </project>
                """);
        Path child = Files.createDirectories(dir.resolve("child"));
        Files.writeString(
                child.resolve("pom.xml"),
                """
                <project>
                  <parent><artifactId>p</artifactId></parent>
                  <!-- <properties><maven.compiler.release>8</maven.compiler.release></properties> -->
                  <build><plugins><plugin>
                    <artifactId>maven-compiler-plugin</artifactId>
                    <configuration><release>${java.version}</release></configuration>
                  </plugin></plugins></build>
                </project>
                """);
        assertThat(JavaProject.release(child)).isEqualTo(11);
        Files.writeString(
                dir.resolve("pom.xml"),
                """
                <project><properties><maven.compiler.source>1.8</maven.compiler.source></properties></project>
                """);
        assertThat(JavaProject.release(dir)).isEqualTo(8);
    }

    @Test
    void regexHostilePomFinishesWithinSeconds(@TempDir Path dir) throws IOException {
        // 20 KB of whitespace inside a property: cubic for the former backtracking pattern (hours)
        String ws = " \t\n".repeat(7000);
        Files.writeString(
                dir.resolve("pom.xml"),
                "<project><properties><maven.compiler.release>" + ws + "21"
                        + ws + "</maven.compiler.release><a>" + ws + "<b>" + ws + "</properties>"
                        + "<build><plugins><plugin><artifactId>" + ws + "maven-compiler-plugin" + ws);
        int release = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> JavaProject.release(dir));
        assertThat(release).as("not well-formed: the default").isEqualTo(JavaProject.DEFAULT_RELEASE);
        Files.writeString(
                dir.resolve("pom.xml"),
                "<project><properties><maven.compiler.release>" + ws + "21" + ws
                        + "</maven.compiler.release></properties></project>");
        assertThat(assertTimeoutPreemptively(Duration.ofSeconds(10), () -> JavaProject.release(dir)))
                .isEqualTo(21);
    }

    @Test
    void entitiesAndDoctypesAreRefused(@TempDir Path dir) throws IOException {
        Path secret = dir.resolve("secret.txt");
        Files.writeString(secret, "11");
        Path proj = Files.createDirectories(dir.resolve("p"));
        Files.writeString(
                proj.resolve("pom.xml"),
                """
                <?xml version="1.0"?>
                <!DOCTYPE project [<!ENTITY x SYSTEM "file://%s">]>
                <project><properties><maven.compiler.release>&x;</maven.compiler.release></properties></project>
                """
                        .formatted(secret));
        assertThat(JavaProject.release(proj)).isEqualTo(JavaProject.DEFAULT_RELEASE);
        StringBuilder lol = new StringBuilder("<?xml version=\"1.0\"?><!DOCTYPE l [<!ENTITY l0 \"ha\">");
        for (int i = 1; i < 30; i++) {
            lol.append("<!ENTITY l")
                    .append(i)
                    .append(" \"&l")
                    .append(i - 1)
                    .append(";&l")
                    .append(i - 1)
                    .append(";\">");
        }
        lol.append("]><project><name>&l29;</name></project>");
        Files.writeString(proj.resolve("pom.xml"), lol.toString());
        assertThat(assertTimeoutPreemptively(Duration.ofSeconds(10), () -> JavaProject.release(proj)))
                .isEqualTo(JavaProject.DEFAULT_RELEASE);
    }

    @Test
    void packageNameIsFoundOutsideComments() {
        assertThat(JavaProject.packageName("/* package a.b; */\n// package c;\n  package  d.e.f ;\nclass X {}"))
                .isEqualTo("d.e.f");
        assertThat(JavaProject.packageName("import x.y;\nclass A {}")).isNull();
        assertThat(JavaProject.packageName("@Deprecated\npackage q;")).isEqualTo("q");
        assertThat(JavaProject.packageName("/*".repeat(100_000))).isNull();
    }

    @Test
    void releaseFromGradleToolchainReleaseAndSourceCompatibility(@TempDir Path dir) throws IOException {
        Path a = Files.createDirectories(dir.resolve("a"));
        Files.writeString(
                a.resolve("build.gradle"),
                """
                // sourceCompatibility = 11
                java { toolchain { languageVersion = JavaLanguageVersion.of(21) } }
                sourceCompatibility = '1.8'
                """);
        assertThat(JavaProject.releaseOf(a, null, null)).isEqualTo(new JavaProject.Release(21, true, null));
        Path b = Files.createDirectories(dir.resolve("b"));
        Files.writeString(
                b.resolve("build.gradle.kts"),
                "java {\n  sourceCompatibility = JavaVersion.VERSION_1_8\n}\ntasks.withType<JavaCompile> {"
                        + " options.release.set(11) }\n");
        assertThat(JavaProject.releaseOf(b, null, null).release()).isEqualTo(11);
        // a subproject without a setting takes the root build's (subprojects { ... }) up to settings.gradle
        Path root = Files.createDirectories(dir.resolve("root"));
        Files.writeString(root.resolve("settings.gradle"), "include 'core'");
        Files.writeString(
                root.resolve("build.gradle"), "subprojects { sourceCompatibility = JavaVersion.VERSION_1_8 }");
        Path core = Files.createDirectories(root.resolve("core"));
        Files.writeString(core.resolve("build.gradle"), "dependencies { }");
        assertThat(JavaProject.releaseOf(core, null, null).release()).isEqualTo(8);
        Path none = Files.createDirectories(dir.resolve("none"));
        Files.writeString(none.resolve("build.gradle"), "apply plugin: 'java'");
        Files.writeString(none.resolve("settings.gradle"), "");
        assertThat(JavaProject.releaseOf(none, null, null)).isEqualTo(new JavaProject.Release(17, false, null));
    }

    @Test
    void aParentPomOutsideTheTreeIsReadOnlyFromTheLocalRepositoryGiven(@TempDir Path dir) throws IOException {
        Path tree = Files.createDirectories(dir.resolve("tree"));
        Files.writeString(
                tree.resolve("pom.xml"),
                "<project><parent><groupId>org.example</groupId><artifactId>pom-base</artifactId>"
                        + "<version>1.2</version></parent><artifactId>child</artifactId></project>");
        // a parent reachable by the default relativePath but outside the scanned tree is not read
        Files.writeString(
                dir.resolve("pom.xml"),
                "<project><properties><maven.compiler.release>11</maven.compiler.release></properties></project>");
        Path repo = Files.createDirectories(dir.resolve("m2/repository"));
        Path base = Files.createDirectories(repo.resolve("org/example/pom-base/1.2"));
        Files.writeString(
                base.resolve("pom-base-1.2.pom"),
                "<project><properties><maven.compiler.source>1.8</maven.compiler.source></properties></project>");
        dev.numlint.spi.TrustBoundary boundary = dev.numlint.spi.TrustBoundary.of(java.util.List.of(tree));
        assertThat(JavaProject.releaseOf(tree, boundary, null))
                .isEqualTo(new JavaProject.Release(17, false, "org.example:pom-base:1.2"));
        assertThat(JavaProject.releaseOf(tree, boundary, repo)).isEqualTo(new JavaProject.Release(8, true, null));
        // coordinates that would climb out of the repository are refused
        Files.writeString(
                tree.resolve("pom.xml"),
                "<project><parent><groupId>..</groupId><artifactId>..</artifactId><version>..</version></parent>"
                        + "</project>");
        assertThat(JavaProject.releaseOf(tree, boundary, repo).known()).isFalse();
    }

    @Test
    void theScanNamesAParentPomItCouldNotReadAndJavaReleaseOverridesIt(@TempDir Path dir) throws IOException {
        Files.writeString(
                dir.resolve("pom.xml"),
                "<project><parent><groupId>org.scijava</groupId><artifactId>pom-scijava</artifactId>"
                        + "<version>40.0.0</version><relativePath/></parent><artifactId>x</artifactId></project>");
        Path src = Files.createDirectories(dir.resolve("src/main/java/x"));
        Files.writeString(src.resolve("A.java"), "package x; class A { float f(float a, float b) { return a * b; } }");
        dev.numlint.testing.TestScanContext c =
                new dev.numlint.testing.TestScanContext(dir).run(new JavaSourceAnalyzer());
        assertThat(c.notifications())
                .filteredOn(n -> n.id().equals("java-release-assumed"))
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .contains("assumed 17 for 1 file")
                        .contains("org.scijava:pom-scijava:40.0.0")
                        .contains("--java-release")
                        .contains("--maven-repo"));
        dev.numlint.testing.TestScanContext forced = new dev.numlint.testing.TestScanContext(dir)
                .setting("java-release", "8")
                .run(new JavaSourceAnalyzer());
        assertThat(forced.notifications()).noneMatch(n -> n.id().equals("java-release-assumed"));
        // Java 8 class files evaluate float in non-strictfp methods as the platform may: NL005 applies
        assertThat(forced.hits()).anyMatch(h -> h.ruleId().equals("NL005"));
        assertThat(c.hits()).noneMatch(h -> h.ruleId().equals("NL005"));
    }
}
