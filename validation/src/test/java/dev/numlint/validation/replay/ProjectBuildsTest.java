package dev.numlint.validation.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.numlint.validation.CompileCommand;
import dev.numlint.validation.Nvcc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which unit of a scanned tree rebuilds a recorded kernel. */
class ProjectBuildsTest {
    @TempDir
    Path dir;

    @Test
    void aUnitItsBuildCompilesIsPreferredToOneWhoseCommandIsGuessed() throws IOException {
        assumeTrue(Nvcc.find(null, "compute_90").isPresent(), "nvcc not found");
        // a tree of many programs (cuda-samples): two define a kernel of the same name; only b has a build file
        String kernel = "__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }\n";
        Path a = Files.createDirectories(dir.resolve("a")).resolve("a.cu");
        Path b = Files.createDirectories(dir.resolve("b")).resolve("b.cu");
        Files.writeString(a, kernel);
        Files.writeString(b, kernel);
        List<ProjectBuilds.Unit> units = List.of(
                new ProjectBuilds.Unit(a, "a/a.cu", new CompileCommand(List.of(), "compute_90", null)),
                new ProjectBuilds.Unit(
                        b,
                        "b/b.cu",
                        new CompileCommand(List.of("-O3"), "compute_90", "compile_commands.json entry (b/build)")));
        ProjectBuilds p = new ProjectBuilds(units, arch -> Nvcc.find(null, arch));
        Object found = p.of("_Z5scalePf", null);
        assertThat(found).isInstanceOf(ProjectBuilds.Found.class);
        assertThat(((ProjectBuilds.Found) found).unit().shown()).isEqualTo("b/b.cu");
    }

    @Test
    void aKernelDefinedInAHeaderTheUnitIncludesIsFound() throws IOException {
        assumeTrue(Nvcc.find(null, "compute_90").isPresent(), "nvcc not found");
        // cuda-samples keep kernels in a _kernel.cuh that the unit includes
        Path d = Files.createDirectories(dir.resolve("s"));
        Files.writeString(
                d.resolve("scale_kernel.cuh"), "__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }\n");
        Path u = d.resolve("main.cu");
        Files.writeString(u, "#include \"scale_kernel.cuh\"\nint main() { return 0; }\n");
        // a header outside the unit's directory is not read
        Path o = Files.createDirectories(dir.resolve("o")).resolve("other.cu");
        Files.writeString(o, "#include \"../s/scale_kernel.cuh\"\n");
        ProjectBuilds p = new ProjectBuilds(
                List.of(
                        new ProjectBuilds.Unit(o, "o/other.cu", new CompileCommand(List.of(), "compute_90", "db")),
                        new ProjectBuilds.Unit(u, "s/main.cu", new CompileCommand(List.of(), "compute_90", "db"))),
                arch -> Nvcc.find(null, arch));
        Object found = p.of("_Z5scalePf", null);
        assertThat(found).isInstanceOf(ProjectBuilds.Found.class);
        ProjectBuilds.Found f = (ProjectBuilds.Found) found;
        assertThat(f.unit().shown()).isEqualTo("s/main.cu");
        assertThat(f.how()).contains("includes scale_kernel.cuh");
    }

    @Test
    void aCommandForANewerGpuIsBuiltForTheRecordingGpu() throws IOException {
        assertThat(ProjectBuilds.capped("compute_120", "compute_90")).isEqualTo("compute_90");
        assertThat(ProjectBuilds.capped("compute_75", "compute_90")).isEqualTo("compute_75");
        assertThat(ProjectBuilds.capped("compute_90a", null)).isEqualTo("compute_90a");
        assumeTrue(Nvcc.find(null, "compute_90").isPresent(), "nvcc not found");
        Path u = Files.createDirectories(dir.resolve("n")).resolve("k.cu");
        Files.writeString(u, "__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }\n");
        List<String> archs = new java.util.ArrayList<>();
        ProjectBuilds p = new ProjectBuilds(
                List.of(new ProjectBuilds.Unit(u, "n/k.cu", new CompileCommand(List.of(), "compute_120", "db"))),
                arch -> {
                    archs.add(arch);
                    return Nvcc.find(null, arch);
                });
        ProjectBuilds.Found f = (ProjectBuilds.Found) p.of("_Z5scalePf", null, "compute_90");
        assertThat(archs).containsOnly("compute_90");
        assertThat(f.command()).contains("-arch=compute_90");
        assertThat(f.notes()).anyMatch(n -> n.contains("built for compute_90"));
    }
}
