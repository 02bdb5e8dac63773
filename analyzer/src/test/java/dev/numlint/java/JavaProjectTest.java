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
}
