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
}
