package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
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
 * {@code --scope build} (issue 26, speed: "same files" as clang-tidy on the compilation database): the units the
 * build compiles and the project headers they include are analyzed; a source outside the build and a header nothing
 * compiled includes are named in a note each and not counted as analyzed.
 */
class BuildScopeTest {
    private static final String CAST = "static inline unsigned int bin_of(float x, float w)\n"
            + "{\n"
            + "    return (unsigned int)(x / w);\n"
            + "}\n";

    private static ScanResult scan(Path dir, Path cache, String scope) {
        ScanOptions.Builder b =
                ScanOptions.builder(dir).analyzers(Analyzers.load()).cacheDir(cache);
        if (scope != null) b.setting("scope", scope);
        return Scanner.scan(b.build());
    }

    private static List<String> hits(ScanResult r) {
        return r.findings().stream()
                .filter(f -> !f.suppressed())
                .map(f -> f.location().file() + ":" + f.location().startLine() + " " + f.ruleId())
                .sorted()
                .toList();
    }

    private static List<String> outside(ScanResult r) {
        return r.notifications().stream()
                .filter(n -> BuildScope.NOTICE.equals(n.id()))
                .map(n -> n.file() + ": " + n.message())
                .toList();
    }

    @Test
    void onlyTheBuildsUnitsAndTheHeadersTheyIncludeAreAnalyzed(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(src.resolve("bins.h"), "#ifndef BINS_H\n#define BINS_H\n" + CAST + "#endif\n");
        Files.writeString(
                src.resolve("a.c"), "#include \"bins.h\"\nunsigned int a(float x) { return bin_of(x, 0.5f); }\n");
        // an example the build does not compile, and a header no compiled unit includes
        Files.writeString(src.resolve("example.c"), CAST);
        Files.writeString(src.resolve("unused.h"), CAST);
        Files.writeString(src.resolve("compile_commands.json"), CompileDatabases.of(src, "-std=c99", "a.c"));

        ScanResult tree = scan(src, dir.resolve("cache-tree"), null);
        assertThat(hits(tree)).containsExactly("bins.h:5 NL001", "example.c:3 NL001", "unused.h:3 NL001");
        assertThat(outside(tree)).isEmpty();

        ScanResult build = scan(src, dir.resolve("cache-build"), "build");
        assertThat(hits(build)).containsExactly("bins.h:5 NL001");
        assertThat(outside(build))
                .containsExactly("example.c: " + BuildScope.NOT_COMPILED, "unused.h: " + BuildScope.NOT_INCLUDED);
        assertThat(build.notifications().stream()
                        .filter(n -> BuildScope.NOTICE.equals(n.id()))
                        .map(Notification::level))
                .containsOnly(Level.NOTE);
        // a.c and bins.h analyzed (and the compilation database, a build file); the two left out are not counted
        assertThat(build.filesAnalyzed()).isEqualTo(tree.filesAnalyzed() - 2);
        assertThat(build.filesNotAnalyzed()).isZero();
    }
}
