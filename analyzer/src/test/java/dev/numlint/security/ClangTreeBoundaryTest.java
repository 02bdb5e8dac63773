package dev.numlint.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Finding;
import dev.numlint.scan.Analyzers;
import dev.numlint.scan.ScanOptions;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.Scanner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clang reads only below the scanned PATH, not below the scan root: a PATH inside a project (the scan root is the
 * project's directory, above it) whose file includes {@code ../outside/key.h} made Clang read that file, and the
 * {@code clang-error} notice quoted its first word. The hand-written front end and nvcc refused the include already.
 */
class ClangTreeBoundaryTest {
    @TempDir
    Path tmp;

    @Test
    void aFileBesideTheScannedPathIsNotReadByClangWhenTheScanRootIsAbove() throws Exception {
        Path project = Files.createDirectories(tmp.resolve("project"));
        Path scanned = Files.createDirectories(project.resolve("src"));
        Path outside = Files.createDirectories(project.resolve("outside"));
        Files.writeString(outside.resolve("key.h"), "MARKER_OUTSIDE_4711 value;\n");
        Files.writeString(
                scanned.resolve("k.cu"),
                "#include \"../outside/key.h\"\n"
                        + "__global__ void k(float *a, unsigned *o) { int i = threadIdx.x; o[i] = (unsigned)(a[i]"
                        + " * 3.5f); }\n");
        ScanOptions.Builder b = ScanOptions.builder(project)
                .paths(List.of(scanned))
                .analyzers(Analyzers.load())
                .cacheDir(tmp.resolve("cache"));
        b.setting("frontend", "auto");
        ScanResult r = Scanner.scan(b.build());
        StringBuilder all = new StringBuilder();
        r.notifications().forEach(n -> all.append(n).append('\n'));
        for (Finding f : r.findings()) all.append(f.message()).append('\n');
        assertThat(all.toString()).doesNotContain("MARKER_OUTSIDE_4711");
        // the kernel itself is still analyzed (the hand-written front end, Clang refused)
        assertThat(r.findings()).anyMatch(f -> f.ruleId().equals("NL001"));
    }
}
