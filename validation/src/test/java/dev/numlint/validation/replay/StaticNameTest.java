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

/** Static kernels of separately compiled units (cuda-samples' quasirandomGenerator under its own CMake build). */
class StaticNameTest {
    @TempDir
    Path dir;

    @Test
    void theModulePrefixOfAStaticNameIsSplitOff() {
        String k = "__nv_static_25__bac190ea_4_k_cu_d589cb60__Z4kernPf";
        assertThat(StaticName.prefix(k)).isEqualTo("__nv_static_25__bac190ea_4_k_cu_d589cb60_");
        assertThat(StaticName.base(k)).isEqualTo("_Z4kernPf");
        assertThat(StaticName.base("_Z4kernPf")).isEqualTo("_Z4kernPf");
        assertThat(StaticName.prefix("__nv_static_99__short")).isNull();
        String ptx = ".entry __nv_static_26__cc1de3ab_5_k2_cu_d589cb60__Z4kernPf(\n.entry _Z5otherv(\n";
        assertThat(StaticName.entryFor(k, ptx)).isEqualTo("__nv_static_26__cc1de3ab_5_k2_cu_d589cb60__Z4kernPf");
        assertThat(StaticName.entryFor("_Z4kernPf", ptx)).isNull();
        assertThat(StaticName.entryFor("_Z5otherv", ptx)).isEqualTo("_Z5otherv");
    }

    @Test
    void aStaticKernelRecordedUnderAnotherModuleNameIsRebuiltUnderTheRecordedName() throws IOException {
        assumeTrue(Nvcc.find(null, "compute_90").isPresent(), "nvcc not found");
        Path u = Files.createDirectories(dir.resolve("q")).resolve("quasi_kernel.cu");
        Files.writeString(
                u,
                "static __constant__ float c_Tab[4];\n"
                        + "static __global__ void quasiKernel(float *o) { o[threadIdx.x] = c_Tab[threadIdx.x & 3]; }\n"
                        + "void run(float *o) { quasiKernel<<<1, 32>>>(o); }\n");
        // as recorded from the program's own build, whose command named the file differently
        String recorded = "__nv_static_37__0badc0de_17_quasi_kernel_cu_12345678__Z11quasiKernelPf";
        ProjectBuilds p = new ProjectBuilds(
                List.of(new ProjectBuilds.Unit(
                        u, "q/quasi_kernel.cu", new CompileCommand(List.of("-rdc=true"), "compute_90", "db"))),
                arch -> Nvcc.find(null, arch));
        Object found = p.of(recorded, null, "compute_90");
        assertThat(found).isInstanceOf(ProjectBuilds.Found.class);
        ProjectBuilds.Found f = (ProjectBuilds.Found) found;
        for (ProjectBuilds.Build b : f.builds()) {
            assertThat(b.ptx()).as(b.name()).contains(".entry " + recorded + "(");
            // the unit's static __constant__ table takes the recorded module's name too
            assertThat(b.ptx()).as(b.name()).contains("__nv_static_37__0badc0de_17_quasi_kernel_cu_12345678_c_Tab");
        }
        assertThat(f.notes()).anyMatch(n -> n.contains("renamed to the recorded"));
    }
}
