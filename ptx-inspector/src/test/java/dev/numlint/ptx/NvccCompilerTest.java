package dev.numlint.ptx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.ptx.nvcc.NvccCompiler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NvccCompilerTest {
    @TempDir
    Path root;

    @Test
    void onlyCodeGenerationFlagsAreKept() {
        NvccCompiler.FilteredFlags f = NvccCompiler.filterFlags(List.of("--use_fast_math", "-ftz=true",
                "--prec-div=false", "-prec-sqrt", "false", "-fmad=false", "-DN=4", "-D", "USE_X", "-UFOO", "-Iinc",
                "-I", "/etc", "-I../outside", "-std=c++17", "-O3", "-G", "-lineinfo", "-rdc=true",
                "--expt-relaxed-constexpr", "--expt-extended-lambda", "-arch=sm_80", "-gencode",
                "arch=compute_80,code=sm_80", "-ccbin", "-Xcompiler", "-Xptxas", "--compiler-bindir=/x", "-include",
                "-Xlinker", "--weird", "-D$(rm -rf /)"), root);
        assertThat(f.kept()).containsExactly("--use_fast_math", "-ftz=true", "-prec-div=false", "-prec-sqrt=false",
                "-fmad=false", "-DN=4", "-DUSE_X", "-UFOO", "-I" + root.resolve("inc"), "-std=c++17", "-O3", "-G",
                "-lineinfo", "-rdc=true", "--expt-relaxed-constexpr", "--expt-extended-lambda");
        assertThat(f.dropped()).anyMatch(s -> s.contains("/etc")).anyMatch(s -> s.contains("../outside"))
                .contains("-ccbin", "-Xcompiler", "-Xptxas", "--compiler-bindir=/x", "-include", "-Xlinker",
                        "--weird", "-D$(rm -rf /)");
    }

    @Test
    void buildContextSettingsBecomeFlags() {
        dev.numlint.model.BuildContext bc = dev.numlint.model.BuildContext.defaults().fastMath(true).fmad(false)
                .addNvccFlag("-ftz=false");
        assertThat(PtxAnalyzer.nvccFlags(bc)).containsExactly("-ftz=false", "--use_fast_math", "-fmad=false");
        assertThat(PtxAnalyzer.nvccFlags(dev.numlint.model.BuildContext.defaults())).isEmpty();
    }

    @Test
    void virtualArchitecture() {
        assertThat(NvccCompiler.virtualArch("sm_80")).isEqualTo("compute_80");
        assertThat(NvccCompiler.virtualArch("compute_90a")).isEqualTo("compute_90a");
        assertThat(NvccCompiler.virtualArch(null)).isEqualTo("compute_90");
        assertThat(NvccCompiler.virtualArch("75")).isEqualTo("compute_75");
    }

    @Test
    void compilesOnceAndCaches() throws IOException {
        Optional<Path> nvcc = Nvcc.find();
        Assumptions.assumeTrue(nvcc.isPresent(), "nvcc not found: skipping the compile test");
        Path cu = root.resolve("k.cu");
        Files.writeString(cu, "#include \"h.cuh\"\n__global__ void k(float* a) { a[0] = twice(a[1]); }\n");
        Files.writeString(root.resolve("h.cuh"), "__device__ float twice(float x) { return x + x; }\n");
        NvccCompiler c = new NvccCompiler(nvcc.get(), root.resolve("cache"), root, Duration.ofSeconds(120));
        NvccCompiler.Result r1 = c.compile(cu, "sm_80", List.of("-O3"), "k.cu");
        assertThat(r1.ok()).isTrue();
        assertThat(r1.cached()).isFalse();
        assertThat(r1.ptx()).contains(".target sm_80").contains(".loc");
        NvccCompiler.Result r2 = c.compile(cu, "sm_80", List.of("-O3"), "k.cu");
        assertThat(r2.cached()).isTrue();
        Files.writeString(root.resolve("h.cuh"), "__device__ float twice(float x) { return 2.0f * x; }\n");
        assertThat(c.compile(cu, "sm_80", List.of("-O3"), "k.cu").cached()).isFalse();
    }
}
