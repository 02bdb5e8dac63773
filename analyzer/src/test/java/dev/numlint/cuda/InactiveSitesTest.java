package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.testing.TestScanContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sites numlint reports where they are compiled (casts of floating values to unsigned types, atomicAdd, approximate
 * intrinsics) in preprocessor branches the configuration does not compile: one notice per file says they were not
 * analyzed, and where (issue 26: every site grep finds is reported "or the report records why not"; session 53: an
 * audio synthesizer's JACK, LADSPA and profiling branches, a WebP codec's MIPS32 branch).
 */
class InactiveSitesTest {
    private static List<Notification> notices(Path dir, String file) throws Exception {
        TestScanContext ctx = new TestScanContext(dir).run(new CudaSourceAnalyzer());
        return ctx.notifications().stream()
                .filter(n -> file.equals(n.file()) && n.id().equals("inactive-sites"))
                .collect(Collectors.toList());
    }

    @Test
    void inactiveBranchesWithSitesAreNamed(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("driver.c"),
                """
                #include <stdio.h>
                #if JACK_SUPPORT
                static unsigned long rate_of(double sample_rate)
                {
                    return (unsigned long)sample_rate;
                }
                static unsigned long rounded(double sample_rate)
                {
                    return (unsigned long)(sample_rate + 0.5);
                }
                #endif
                #ifdef WITH_PROFILING
                void report(char *buf, double reverb, int voice)
                {
                    snprintf(buf, 20, "%d", (unsigned int)((100.0 - reverb) / voice));
                    snprintf(buf, 20, "%u", (unsigned int)voice);
                }
                #endif
                int active(float x) { return (int)x; }
                """);
        List<Notification> n = notices(dir, "driver.c");
        assertThat(n).as(n.toString()).hasSize(1);
        assertThat(n.get(0).level()).isEqualTo(Level.NOTE);
        assertThat(n.get(0).line()).isEqualTo(5);
        assertThat(n.get(0).message())
                .isEqualTo("not analyzed: 3 casts of floating values to unsigned types in preprocessor branches this"
                        + " build does not compile ('JACK_SUPPORT', 'defined(WITH_PROFILING)'), at lines 5, 9, 15;"
                        + " --all-configurations analyzes them");
    }

    @Test
    void functionalCastsAreNamedToo(@TempDir Path dir) throws Exception {
        // session 79 round F: an image library's NEON kernels under an #if for ARM, uint8_t(clamp(...)) of a float
        Files.writeString(
                dir.resolve("resize.cpp"),
                """
                #include <cstdint>
                #if defined(LIB_CPU_ARM) && defined(LIB_HAVE_NEON)
                uint8_t pixel(float v)
                {
                    return uint8_t(v < 0.0f ? 0.0f : v > 255.0f ? 255.0f : v + 0.5f);
                }
                uint8_t index(int k)
                {
                    return uint8_t(k & 255);
                }
                uint8_t (*convert)(float) = pixel;
                #endif
                int active(float x) { return (int)x; }
                """);
        List<Notification> n = notices(dir, "resize.cpp");
        assertThat(n).as(n.toString()).hasSize(1);
        assertThat(n.get(0).message())
                .startsWith("not analyzed: 1 cast of floating values to unsigned types in preprocessor branches")
                .contains("at line 5;");
    }

    @Test
    void deviceSitesAndNothingWithoutThem(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("kernel.cu"),
                """
                #ifdef USE_FAST
                __global__ void fast(float *sum, const float *x)
                {
                    atomicAdd(sum, __expf(x[threadIdx.x]));
                }
                #else
                __global__ void slow(float *sum, const float *x)
                {
                    atomicAdd(sum, expf(x[threadIdx.x]));
                }
                #endif
                #ifdef _WIN32
                static unsigned count(int n) { return (unsigned)n; }
                #endif
                """);
        List<Notification> n = notices(dir, "kernel.cu");
        assertThat(n).as(n.toString()).hasSize(1);
        assertThat(n.get(0).message())
                .startsWith("not analyzed: 1 atomicAdd call, 1 approximate intrinsic in preprocessor branches")
                .contains("at line 4;");
        Files.writeString(
                dir.resolve("kernel.cu"), "#ifdef _WIN32\nstatic unsigned c(int n) { return (unsigned)n; }\n#endif\n");
        assertThat(notices(dir, "kernel.cu")).isEmpty();
    }

    /**
     * The project's own type names and upper-case math macros (session 66: an audio library's sound-file reader,
     * compiled with its {@code #ifdef HAVE_SNDFILE} off, held six casts no notice named).
     */
    @Test
    void projectTypeNamesAndMacros(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("types.h"),
                """
                typedef float smpl_t;
                typedef unsigned int uint_t;
                #define FLOOR floorf
                #define ROUND(x) FLOOR(x + .5)
                """);
        // another unit includes the header too: Clang's walk of it may belong to that unit's parse
        Files.writeString(dir.resolve("another.c"), "#include \"types.h\"\nsmpl_t half(smpl_t x) { return x / 2; }\n");
        Files.writeString(
                dir.resolve("reader.c"),
                """
                #include <math.h>
                #include "types.h"
                #ifdef HAVE_SNDFILE
                struct reader { smpl_t ratio; uint_t hop; };
                uint_t seek(struct reader *s, uint_t pos, uint_t frames)
                {
                    uint_t at = (uint_t)ROUND(pos / s->ratio);
                    s->hop = (uint_t)FLOOR(s->hop * s->ratio);
                    return at + (uint_t)(frames / s->ratio);
                }
                uint_t copy(uint_t n) { return (uint_t)n; }
                #endif
                int active(void) { return 0; }
                """);
        List<Notification> n = notices(dir, "reader.c");
        assertThat(n).as(n.toString()).hasSize(1);
        assertThat(n.get(0).message())
                .startsWith("not analyzed: 3 casts of floating values to unsigned types in preprocessor branches")
                .contains("at lines 7, 8, 9;");
    }

    /** A qualified math call is a floating operand too: {@code (uint32_t)std::round(x)} in an {@code #if 0} branch. */
    @Test
    void qualifiedMathCallsAreFloatingOperands(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("codec.cpp"),
                """
                #include <cmath>
                #include <cstdint>
                uint32_t pack(float lo)
                {
                #if 0
                    return (uint32_t)std::round(lo);
                #else
                    return lo > 0 ? 1u : 0u;
                #endif
                }
                """);
        List<Notification> n = notices(dir, "codec.cpp");
        assertThat(n).as(n.toString()).hasSize(1);
        assertThat(n.get(0).message())
                .startsWith("not analyzed: 1 cast of floating values to unsigned types")
                .contains("at line 6;");
    }

    /**
     * Every declarator of a list is declared floating: {@code FLOAT_T delay, vol;} then {@code (uint8)vol} (session 81
     * round J: a synthesizer's voice velocity under an inactive {@code #ifndef}); a parameter list's next type is not.
     */
    @Test
    void everyDeclaratorOfAListIsDeclared(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("voice.c"),
                """
                typedef double FLOAT_T;
                typedef unsigned char uint8;
                typedef int count_t;
                #define USE_EFFECTS 1
                #ifndef USE_EFFECTS
                uint8 velocity(FLOAT_T level)
                {
                    FLOAT_T delay = 0.5 * (level + 1.0), *spare, vol;
                    vol = level * delay;
                    return (uint8)vol;
                }
                uint8 counted(double scale, count_t n)
                {
                    return (uint8)n;
                }
                #endif
                int active(void) { return 0; }
                """);
        List<Notification> n = notices(dir, "voice.c");
        assertThat(n).as(n.toString()).hasSize(1);
        assertThat(n.get(0).message())
                .startsWith("not analyzed: 1 cast of floating values to unsigned types")
                .contains("at line 10;");
    }

    /**
     * A call of a member function the build declares with a floating result is a floating operand: {@code
     * static_cast<uint64_t>(sim.duration() / sim.step())} in an {@code #if !defined(USE_GPU)} branch of a GPU build
     * (session 81 round I, a simulator), while a call of an integer one is not.
     */
    @Test
    void callsOfFloatingMemberFunctionsAreFloatingOperands(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("sim.h"),
                """
                #include <cstdint>
                typedef float real_t;
                class Sim {
                public:
                    real_t duration() const { return d; }
                    real_t step() const { return s; }
                    int count() const { return n; }
                private:
                    real_t d, s;
                    int n;
                };
                """);
        Files.writeString(
                dir.resolve("vertices.cpp"),
                """
                #include "sim.h"
                #define USE_GPU 1
                #if !defined(USE_GPU)
                uint64_t lastStep(const Sim &sim, uint64_t now)
                {
                    return now + static_cast<uint64_t>(sim.duration() / sim.step());
                }
                uint64_t counted(const Sim &sim) { return static_cast<uint64_t>(sim.count()); }
                #endif
                int active(void) { return 0; }
                """);
        List<Notification> n = notices(dir, "vertices.cpp");
        assertThat(n).as(n.toString()).hasSize(1);
        assertThat(n.get(0).message())
                .startsWith("not analyzed: 1 cast of floating values to unsigned types")
                .contains("at line 6;");
    }
}
