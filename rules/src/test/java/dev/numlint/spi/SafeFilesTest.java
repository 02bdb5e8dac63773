package dev.numlint.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SafeFilesTest {
    @TempDir
    Path tmp;

    @Test
    void linksAtTheTargetOrAboveItInsideTheTreeAreNamed() throws IOException {
        Path tree = Files.createDirectories(tmp.resolve("tree"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.createSymbolicLink(tree.resolve("r.sarif"), outside.resolve("victim"));
        Files.createSymbolicLink(tree.resolve("out"), outside);
        assertThat(SafeFiles.linkOnPath(tree.resolve("r.sarif"), List.of(tree))).contains("is a symbolic link");
        assertThat(SafeFiles.linkOnPath(tree.resolve("out/r.sarif"), List.of(tree)))
                .contains("inside the scanned tree");
        assertThat(SafeFiles.linkOnPath(tree.resolve("plain.sarif"), List.of(tree)))
                .isNull();
        // a link above the tree is the user's
        Path above = Files.createSymbolicLink(tmp.resolve("via"), tree);
        assertThat(SafeFiles.linkOnPath(above.resolve("plain.sarif"), List.of(above)))
                .isNull();
    }

    @Test
    void writeReplacesALinkAndNeverFollowsIt() throws IOException {
        Path victim = Files.writeString(tmp.resolve("victim"), "precious");
        Path link = Files.createSymbolicLink(tmp.resolve("r.sarif"), victim);
        SafeFiles.write(link, out -> out.write("report".getBytes(StandardCharsets.UTF_8)));
        assertThat(victim).hasContent("precious");
        assertThat(Files.isSymbolicLink(link)).isFalse();
        assertThat(link).hasContent("report");
        try (var l = Files.list(tmp)) {
            assertThat(l.map(p -> p.getFileName().toString()).toList()).containsExactlyInAnyOrder("victim", "r.sarif");
        }
    }

    @Test
    void aFailedWriteLeavesTheOldFileAndNoTemporaryFile() throws IOException {
        Path target = Files.writeString(tmp.resolve("r.sarif"), "old");
        assertThatThrownBy(() -> SafeFiles.write(target, out -> {
                    out.write("partial".getBytes(StandardCharsets.UTF_8));
                    throw new IOException("interrupted");
                }))
                .hasMessage("interrupted");
        assertThat(target).hasContent("old");
        try (var l = Files.list(tmp)) {
            assertThat(l.toList()).containsExactly(target);
        }
    }

    @Test
    void directoryRefusesALink() throws IOException {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Path link = Files.createSymbolicLink(tmp.resolve("ptx"), outside);
        assertThatThrownBy(() -> SafeFiles.directory(link)).hasMessageContaining("is a symbolic link");
        assertThat(SafeFiles.directory(tmp.resolve("a/b"))).isDirectory();
    }
}
