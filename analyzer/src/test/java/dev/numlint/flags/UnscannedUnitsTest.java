package dev.numlint.flags;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.spi.BuildOptions;
import dev.numlint.testing.TestScanContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link UnscannedUnits}: units the database compiles, left out of the scan, that include scanned code are named in
 * one notice (session 39: a ray tracer's kernels instantiated only by units CMake generates into build/).
 */
class UnscannedUnitsTest {
    private static void tree(Path dir) throws IOException {
        for (String d : new String[] {"src", "build/gen"}) Files.createDirectories(dir.resolve(d));
        Files.writeString(
                dir.resolve("src/field.cuh"),
                "template <int D> __global__ void field(float *f) { f[0] = 1.0f / f[1]; }\n");
        Files.writeString(dir.resolve("src/host.cpp"), "int main() { return 0; }\n");
        // configure_file writes an absolute include, as CMake's @CMAKE_SOURCE_DIR@ does
        Files.writeString(
                dir.resolve("build/gen/field_2D.cu"),
                "#include \"" + dir.resolve("src/field.cuh") + "\"\ntemplate __global__ void field<2>(float *);\n");
        Files.writeString(dir.resolve("build/gen/other.cu"), "__global__ void other(float *f) { f[0] = 0.0f; }\n");
        String b = dir.resolve("build").toString();
        Files.writeString(
                dir.resolve("build/compile_commands.json"),
                ("[{\"directory\": \"%1$s\", \"file\": \"%1$s/gen/field_2D.cu\", \"arguments\": [\"nvcc\", "
                                + "\"-c\", \"%1$s/gen/field_2D.cu\"]},\n"
                                + " {\"directory\": \"%1$s\", \"file\": \"%1$s/gen/other.cu\", \"arguments\": [\"nvcc\", "
                                + "\"-c\", \"%1$s/gen/other.cu\"]},\n"
                                + " {\"directory\": \"%1$s\", \"file\": \"%2$s/src/host.cpp\", \"arguments\": [\"c++\", "
                                + "\"-c\", \"%2$s/src/host.cpp\"]}]\n")
                        .formatted(b, dir));
    }

    @Test
    void anExcludedUnitThatIncludesScannedCodeIsNamed(@TempDir Path dir) throws IOException {
        tree(dir);
        TestScanContext ctx = new TestScanContext(dir)
                .outsideScan(p -> p.startsWith("build/gen"))
                .run(new BuildFlagAnalyzer(BuildOptions.DEFAULT));
        assertThat(ctx.notifications()).anySatisfy(n -> {
            assertThat(n.id()).isEqualTo(UnscannedUnits.NOTICE);
            assertThat(n.file()).startsWith("build/compile_commands.json");
            assertThat(n.message())
                    .startsWith("1 unit this build compiles is not scanned")
                    .contains("build/gen/field_2D.cu includes src/field.cuh")
                    .doesNotContain("other.cu") // it includes nothing scanned
                    .endsWith("scan those units too");
        });
    }

    @Test
    void scannedUnitsOrASymbolicLinkToAScannedFileAreNotLeftOut(@TempDir Path dir) throws IOException {
        tree(dir);
        TestScanContext all = new TestScanContext(dir).run(new BuildFlagAnalyzer(BuildOptions.DEFAULT));
        assertThat(all.notifications()).noneMatch(n -> n.id().equals(UnscannedUnits.NOTICE));
        // the database compiles build/gen/field_2D.cu, a link to the scanned src/field_2D.cu (madgraph4gpu's layout)
        Files.delete(dir.resolve("build/gen/field_2D.cu"));
        Files.writeString(dir.resolve("src/field_2D.cu"), "#include \"field.cuh\"\n");
        Files.createSymbolicLink(dir.resolve("build/gen/field_2D.cu"), dir.resolve("src/field_2D.cu"));
        TestScanContext linked = new TestScanContext(dir)
                .outsideScan(p -> p.startsWith("build/gen"))
                .run(new BuildFlagAnalyzer(BuildOptions.DEFAULT));
        assertThat(linked.notifications()).noneMatch(n -> n.id().equals(UnscannedUnits.NOTICE));
    }

    /**
     * A unit the database compiles through a symbolic link to a scanned file (madgraph4gpu: P1_x/X.cc -> ../X.cc,
     * session 39) is the scanned file, compiled: its entry's flags, the link's directory searched for quoted
     * includes, no not-compiled note.
     */
    @Test
    void aUnitCompiledThroughALinkIsTheScannedFileCompiled(@TempDir Path dir) throws IOException {
        for (String d : new String[] {"common", "proc"}) Files.createDirectories(dir.resolve(d));
        Files.writeString(dir.resolve("common/k.cc"), "#include \"process.h\"\nfloat f(float x) { return x; }\n");
        Files.writeString(dir.resolve("proc/process.h"), "#define NPROC 4\n");
        Files.writeString(dir.resolve("common/other.cc"), "int g() { return 0; }\n");
        Files.createSymbolicLink(dir.resolve("proc/k.cc"), Path.of("../common/k.cc"));
        String p = dir.resolve("proc").toString();
        Files.writeString(
                dir.resolve("compile_commands.json"),
                ("[{\"directory\": \"%1$s\", \"file\": \"%1$s/k.cc\", \"arguments\": [\"nvcc\", \"-x\", \"cu\", "
                                + "\"-DUSE_GPU\", \"-c\", \"k.cc\"]},\n"
                                + " {\"directory\": \"%2$s/common\", \"file\": \"other.cc\", \"arguments\": [\"c++\", "
                                + "\"-c\", \"other.cc\"]}]\n")
                        .formatted(p, dir));
        TestScanContext ctx = new TestScanContext(dir)
                .outsideScan(f -> f.startsWith("proc"))
                .run(new BuildFlagAnalyzer(BuildOptions.DEFAULT));
        var k = ctx.buildContext(dir.resolve("common/k.cc"));
        assertThat(k.notCompiledReason()).isNull();
        assertThat(k.defines()).contains("USE_GPU");
        assertThat(k.compiledAsCuda()).isTrue();
        assertThat(k.includePaths()).contains(dir.resolve("proc"));
        assertThat(ctx.notifications()).noneMatch(n -> n.id().equals("not-compiled-units"));
        assertThat(ctx.notifications()).noneMatch(n -> n.id().equals(UnscannedUnits.NOTICE));
    }
}
