package dev.numlint.toolchain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The nvcc search never picks a program of the scanned tree (session 84's hostile-tree check: a CI step that puts the
 * checkout's own directory first on PATH made a planted {@code nvcc} run); it passes over it, says so, and goes on.
 */
class NvccSearchTest {
    @TempDir
    Path tmp;

    private Path script(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path p = Files.writeString(dir.resolve("nvcc"), "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    @Test
    void anNvccInsideTheTreeIsPassedOverForTheNextOnPath() throws IOException {
        Path tree = tmp.resolve("tree");
        Path planted = script(tree.resolve("bin"));
        Path toolkit = script(tmp.resolve("toolkit/bin"));
        String path = tree.resolve("bin") + File.pathSeparator + tmp.resolve("toolkit/bin");
        List<Path> skipped = new ArrayList<>();
        Optional<Path> found = Nvcc.find(null, path, List.of(tree), skipped);
        assertThat(found).contains(toolkit.toAbsolutePath().normalize());
        assertThat(skipped).containsExactly(planted.toAbsolutePath().normalize());
        // without the tree named, the first on PATH (the old search)
        assertThat(Nvcc.find(null, path)).contains(planted.toAbsolutePath().normalize());
    }

    @Test
    void aLinkOnPathToAProgramOfTheTreeIsPassedOverToo() throws IOException {
        Path tree = tmp.resolve("tree");
        Path planted = script(tree.resolve("scripts"));
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.createSymbolicLink(elsewhere.resolve("nvcc"), planted);
        List<Path> skipped = new ArrayList<>();
        Optional<Path> found = Nvcc.find(null, elsewhere.toString(), List.of(tree), skipped);
        assertThat(skipped).hasSize(1);
        // the fallback /usr/local/cuda/bin/nvcc where installed: never the tree's
        assertThat(found.filter(p -> p.startsWith(tree) || p.equals(elsewhere.resolve("nvcc"))))
                .isEmpty();
    }

    @Test
    void anExplicitNvccIsTheUsersChoice() throws IOException {
        Path tree = tmp.resolve("tree");
        Path mine = script(tree.resolve("tools"));
        List<Path> skipped = new ArrayList<>();
        assertThat(Nvcc.find(mine, "", List.of(tree), skipped))
                .contains(mine.toAbsolutePath().normalize());
        assertThat(skipped).isEmpty();
    }
}
