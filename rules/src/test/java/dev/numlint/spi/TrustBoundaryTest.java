package dev.numlint.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrustBoundaryTest {
    @TempDir
    Path tmp;

    @Test
    void readsOnlyRegularFilesWhoseRealPathIsInsideAScannedPath() throws IOException {
        Path repo = Files.createDirectories(tmp.resolve("repo/src")).getParent().toRealPath();
        Path outside = Files.writeString(
                Files.createDirectories(tmp.resolve("outside")).resolve("s.h"), "x");
        Path inSrc = Files.writeString(repo.resolve("src/k.cu"), "x");
        Path besideSrc = Files.writeString(repo.resolve("top.h"), "x");
        Path link = Files.createSymbolicLink(repo.resolve("src/link.h"), outside);
        TrustBoundary b = TrustBoundary.of(List.of(repo.resolve("src")));
        assertThat(b.roots()).containsExactly(repo.resolve("src"));
        assertThat(b.readable(inSrc)).isEqualTo(inSrc);
        assertThat(b.refusal(besideSrc)).isEqualTo("it lies outside the scanned tree");
        assertThat(b.refusal(link)).isEqualTo("it is a symbolic link that leads outside the scanned tree");
        assertThat(b.refusal(repo.resolve("src/missing.h"))).contains("does not exist");
        assertThat(b.refusal(repo.resolve("src"))).isEqualTo("it is not a regular file");
        // a file PATH: its directory
        assertThat(TrustBoundary.of(List.of(inSrc)).roots()).containsExactly(repo.resolve("src"));
    }

    @Test
    void versionControlDirectoriesAndPseudoFileSystemsAreNeverRead() throws IOException {
        Path repo = tmp.toRealPath();
        Path config =
                Files.writeString(Files.createDirectories(repo.resolve(".git")).resolve("config"), "token");
        Path hg = Files.writeString(
                Files.createDirectories(repo.resolve("sub/.hg")).resolve("hgrc"), "x");
        TrustBoundary b = TrustBoundary.of(List.of(repo));
        assertThat(b.refusal(config)).contains("version-control directory (.git)");
        assertThat(b.refusal(hg)).contains("version-control directory (.hg)");
        TrustBoundary fromRoot = TrustBoundary.of(List.of(Path.of("/")));
        assertThat(fromRoot.contains(Path.of("/proc/self/environ"))).isFalse();
        assertThat(fromRoot.contains(Path.of("/sys/kernel/x"))).isFalse();
        assertThat(fromRoot.contains(Path.of("/dev/zero"))).isFalse();
        assertThat(fromRoot.contains(config)).isFalse();
        assertThat(fromRoot.contains(repo.resolve("k.cu"))).isTrue();
        assertThat(TrustBoundary.within(List.of(repo), Path.of("relative/k.cu")))
                .isFalse();
    }
}
