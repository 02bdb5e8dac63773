package dev.numlint.java;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.spi.TrustBoundary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 31: the source folders JDT resolves types from stay inside the trust boundary. */
class JavaSourceBoundaryTest {
    @TempDir
    Path tmp;

    @Test
    void sourcesAboveTheScannedPathOrLinkedOutAreNotHandedToJdt() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("proj/src/main/java"));
        Path scanned = Files.createDirectories(root.resolve("p/sub"));
        Files.writeString(scanned.resolve("A.java"), "package p.sub; class A {}\n");
        Files.writeString(root.resolve("p/Above.java"), "package p; class Above {}\n");
        Path secret = Files.writeString(tmp.resolve("Secret.java"), "class Secret {}\n");
        Files.createSymbolicLink(scanned.resolve("Linked.java"), secret);
        List<Path[]> sources = JavaSourceAnalyzer.projectSources(List.of(root), TrustBoundary.of(List.of(scanned)));
        assertThat(sources).extracting(s -> s[1].getFileName().toString()).containsExactly("A.java");
        // the whole project scanned: the file above is a source; the link out still is not
        List<Path[]> all =
                JavaSourceAnalyzer.projectSources(List.of(root), TrustBoundary.of(List.of(tmp.resolve("proj"))));
        assertThat(all)
                .extracting(s -> s[1].getFileName().toString())
                .containsExactlyInAnyOrder("A.java", "Above.java");
    }
}
