package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Notification;
import dev.numlint.scan.Analyzers;
import dev.numlint.scan.ScanOptions;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.Scanner;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Code the project's compiler accepts with a warning is not a Clang error (issue 26: AWP-ODC's kernel.cu had 101
 * Clang errors from its first line, "ISO C++17 does not allow 'register' storage class specifier", which nvcc and GCC
 * only warn about; SUPRA's braced initialisers narrow a double to float, which nvcc accepts).
 */
class CompilerLeniencyTest {
    private static ScanResult scan(Path dir) {
        return Scanner.scan(ScanOptions.builder(dir)
                .analyzers(Analyzers.load())
                .cacheDir(dir.resolve(".cache"))
                .build());
    }

    private static long clangErrors(ScanResult r, String file) {
        return r.notifications().stream()
                .filter(n -> file.equals(n.file()))
                .map(Notification::id)
                .filter(id -> id.equals("clang-error") || id.equals("clang-not-parsed"))
                .count();
    }

    @Test
    void aLaunchWithSpacedChevronsIsReadAsNvccReadsIt(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("delay.cu"),
                """
                __global__ void bin(unsigned *o, const float *x) { o[threadIdx.x] = (unsigned)x[threadIdx.x]; }
                void run(unsigned *o, const float *x, int n)
                {
                    dim3 grid(n / 64), block(64);
                    bin<< <grid, block>> >(o, x);
                }
                """);
        ScanResult r = scan(dir);
        assertThat(clangErrors(r, "delay.cu")).as(r.notifications().toString()).isZero();
    }

    @Test
    void aLiteralGluedToAMacroNameAndSurfaceFunctionsAreReadAsNvccReadsThem(@TempDir Path dir) throws Exception {
        // GVDB (session 28): `__FILE__"("S__LINE__"): "` was Clang's error "invalid suffix on literal" (GCC warns), and
        // surf3Dread/surf3Dwrite were undeclared under Clang's CUDA wrapper; 25 of its 46 files had Clang errors
        Files.copy(
                Path.of("src/test/resources/fixtures/cuda/clangonly/clang_surface_objects.cu"),
                dir.resolve("volume.cu"));
        ScanResult r = scan(dir);
        assertThat(clangErrors(r, "volume.cu")).as(r.notifications().toString()).isZero();
        assertThat(r.notifications())
                .filteredOn(n -> n.file().equals("volume.cu"))
                .allMatch(n -> n.level() == dev.numlint.model.Level.NOTE);
        // the value read from the surface is float data: its conversion is found only when Clang reads the call
        assertThat(r.findings())
                .filteredOn(f -> f.ruleId().equals("NL001") && f.level() == dev.numlint.model.Level.ERROR)
                .extracting(f -> f.location().startLine())
                .contains(32, 35);
    }

    @Test
    void hostCodeThatCallsClockWithoutItsHeaderIsReadAsNvccReadsIt(@TempDir Path dir) throws Exception {
        // a seismic code (session 35): six host programs call clock() and include neither <time.h> nor <ctime>;
        // nvcc's runtime headers include <time.h>, Clang's CUDA wrapper declares only the device clock()
        Files.writeString(
                dir.resolve("timing.cu"),
                """
                #include <stdio.h>
                __global__ void scale(float *x, float s, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) x[i] *= s;
                }
                double run(float *x, float s, int n)
                {
                    clock_t t0 = clock();
                    scale<<<(n + 255) / 256, 256>>>(x, s, n);
                    cudaDeviceSynchronize();
                    time_t wall = time(NULL);
                    return (double)(clock() - t0) / CLOCKS_PER_SEC + 0.0 * (double)wall;
                }
                __global__ void ticks(long long *t) { t[threadIdx.x] = clock(); }
                """);
        ScanResult r = scan(dir);
        assertThat(clangErrors(r, "timing.cu")).as(r.notifications().toString()).isZero();
    }

    @Test
    void registerAndNarrowingAreWarningsAsForTheProjectsCompiler(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("stencil.cu"),
                """
                __global__ void step(unsigned *cell, const float *u, double h)
                {
                    register int i = threadIdx.x;
                    float w[2] = {h, 2 * h};
                    cell[i] = (unsigned)(u[i] * w[0]);
                }
                """);
        Files.writeString(
                dir.resolve("host.cpp"),
                """
                unsigned bucket(float x)
                {
                    register float t = x * 4.0f;
                    return (unsigned)t;
                }
                """);
        Files.writeString(
                dir.resolve("compile_commands.json"),
                "[{\"directory\": \"" + dir + "\", \"file\": \"" + dir.resolve("stencil.cu")
                        + "\", \"command\": \"nvcc -std=c++17 -c " + dir.resolve("stencil.cu") + "\"},\n"
                        + "{\"directory\": \"" + dir + "\", \"file\": \"" + dir.resolve("host.cpp")
                        + "\", \"command\": \"c++ -std=c++17 -c " + dir.resolve("host.cpp") + "\"}]");
        ScanResult r = scan(dir);
        assertThat(clangErrors(r, "stencil.cu"))
                .as(r.notifications().toString())
                .isZero();
        assertThat(clangErrors(r, "host.cpp")).as(r.notifications().toString()).isZero();
        assertThat(r.findings())
                .filteredOn(f -> f.ruleId().equals("NL001"))
                .extracting(f -> f.location().file() + ":" + f.location().startLine())
                .contains("stencil.cu:5", "host.cpp:4");
    }
}
