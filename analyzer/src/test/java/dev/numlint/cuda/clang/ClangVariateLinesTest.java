package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.numlint.model.BuildContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ClangVariateLines} on the cases of the hand-written lines' test ({@code RandomDrawsTest}): the same lines,
 * but where the two differ (said at the case).
 */
class ClangVariateLinesTest {
    @TempDir
    Path dir;

    private ClangUnit parse(String source) throws Exception {
        assertThat(Libclang.get())
                .as("libclang loads: %s", Libclang.unavailable())
                .isNotNull();
        assumeTrue(Files.isRegularFile(Path.of("/usr/local/cuda/include/cuda_runtime.h")), "a CUDA toolkit");
        Path f = dir.resolve("v.cu");
        byte[] text = source.getBytes(StandardCharsets.UTF_8);
        Files.write(f, text);
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        ClangUnit u = ClangParser.parse(f, fe.arguments(f, ClangFrontEnd.Language.CUDA, BuildContext.defaults()), text);
        assertThat(u.failure()).isNull();
        return u;
    }

    private static Set<Integer> lines(ClangUnit u, String function) {
        for (ClangUnit.Function f : u.functions()) if (f.name().equals(function)) return u.variateLines(f);
        throw new AssertionError("no function " + function);
    }

    @Test
    void linesWhoseArithmeticComputesRandomVariates() throws Exception {
        ClangUnit u = parse(
                """
                __device__ float rand_uniform01(unsigned int *state);
                __global__ void k(float *out, int *cell, const float *tab, float *sum, unsigned int *states,
                                  const float *a, const float *b, float n1, float im, float e, float f, int i, int n)
                {
                    unsigned int s = states[i];
                    float c = rand_uniform01(&s);
                    float re = n1 * c;
                    float r = (re - im) / (re + im);
                    float d = (a[i] - b[i]) / (a[i] + b[i]);
                    float w = (e - f > 0.f) ? c : 0.5f;
                    float v = c + (int)(e * f);
                    float h = c - (int)c;
                    float o = atomicAdd(sum, c * e + f);
                    if (e * f + c > 0.5f) n++;
                    float g = c * sqrtf(e * e + f);
                    float k = c * tab[2 * i + 1];
                    out[2 * i] = r + e * f;
                    float m = c * e
                              + f;
                    cell[i] = (int)floorf(r * 8.0f);
                    float t = c + static_cast<int>(e * f);
                    states[i] = s;
                }
                __host__ float onTheHost(float x) { return x * (float)rand() / 2147483647.0f; }
                """);
        // 7, 8: computed from the draw; 9: data; 10: a variate chosen by a comparison of data; 11: data converted to
        // an integer; 12: the variate converted; 13: an atomic's order is the run's; 14: a test, no definition; 15: a
        // function of data; 16: index arithmetic; 17: an element defined from the variate; 18, 19: one definition
        // over two lines (each operator's own line, as the hand-written lines count tokens); 20: an element of an
        // integer array (discrete); 21: data converted by a static_cast. Here the two differ: the hand-written front
        // end reads no static_cast as a cast (a keyword, not a name it can call) and counts line 21
        // (VariateLinesDifferentialTest.theHandWrittenLinesOnTheCasesClangsPortReadsFromItsTree). Clang is right:
        // the integer the cast makes of data is the same in every draw, so what it decides is not statistical, as
        // for the C cast at line 11
        assertThat(lines(u, "k")).containsExactly(7, 8, 12, 16, 17, 18, 19);
        assertThat(lines(u, "onTheHost")).isEmpty(); // host code: the PTX layer reads no line of it
    }

    /**
     * A member of a member ({@code photon.position.x}) is keyed by the variable's own member, as the hand-written
     * front end keys it: a photon moved by a random step is read through its position's components (a ray tracer's
     * kernel of rte-rrtmgp-cpp had 6 of its 20 hand-written lines missing without it).
     */
    @Test
    void membersOfMembersCarryTheirVariates() throws Exception {
        ClangUnit u = parse(
                """
                __device__ float rand_uniform01(unsigned int *state);
                struct Vec { float x, y; };
                struct Photon { Vec position; Vec direction; };
                __global__ void move(float *out, unsigned int *st, float h)
                {
                    unsigned int s = st[0];
                    Photon photon;
                    photon.position.x = 0.f;
                    photon.direction.x = rand_uniform01(&s);
                    for (int k = 0; k < 4; k++) {
                        const float dx = photon.direction.x * h;
                        photon.position.x = photon.position.x + dx;
                    }
                    out[0] = photon.position.x * 2.0f;
                    st[0] = s;
                }
                """);
        // 11: the random direction times a step; 12: the position moved by it; 14: the position read after the loop
        assertThat(lines(u, "move")).containsExactly(11, 12, 14);
    }

    @Test
    void aVariateReadOnlyThroughAnIntegerIsDiscrete() throws Exception {
        ClangUnit u = parse(
                """
                __device__ float rand_uniform01(unsigned int *state);
                __global__ void q(float *out, float x, float code, unsigned int *st)
                {
                    unsigned int s = st[0];
                    int cellx = floorf(x + rand_uniform01(&s));
                    float rp = code * (1.f / 255.f) + cellx;
                    float q = code * (1.f / 255.f) + x * rand_uniform01(&s);
                    float fx = floorf(x + rand_uniform01(&s));
                    float y = fx * 0.5f;
                    x += q * 2.0f;
                    out[0] = rp + y + x;
                }
                """);
        // 5: an integer's definition; 6: an offset in the voxel a photon landed in (read through the integer cellx);
        // 7, 8, 9: continuous; 10: a compound assignment's own operator lies in no definition's value (as in the
        // hand-written lines: the line is left out); 11: x, updated by the variate q at 10, holds one
        assertThat(lines(u, "q")).containsExactly(7, 8, 9, 11);
    }

    /**
     * A function whose returns are read for a draw, with a value updated from itself many times: while a function's
     * returns are being read, each node's answer is kept for that reading, so the walk through every update is not
     * exponential in the depth (session 85 round AK: a plotting program's scan ran 16 minutes here and never ended;
     * 30 s with the answers kept). Fails by its time-out before the change.
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void aReturnReadThroughManySelfUpdatesEndsAndDrawsNothing() throws Exception {
        StringBuilder b = new StringBuilder();
        b.append("__device__ float rand_uniform01(unsigned int *state);\n");
        b.append("__device__ float walk(float h) {\n    float s = h;\n");
        for (int i = 0; i < 600; i++)
            b.append("    s += s * ").append(i % 7 + 1).append(".0f;\n");
        b.append("    return s;\n}\n");
        b.append("__global__ void k(float *out, float h, unsigned int *st) {\n");
        b.append("    unsigned int z = st[0];\n");
        b.append("    float v = walk(h);\n");
        b.append("    float r = walk(h) * rand_uniform01(&z);\n");
        b.append("    out[0] = v * 2.0f + r;\n}\n");
        ClangUnit u = parse(b.toString());
        int line = 3 + 600 + 2 + 1; // __global__ k's first line
        // r is a variate (line + 3); v is not (walk draws nothing), nor out[0]'s v half; out[0] reads r (line + 4)
        assertThat(lines(u, "k")).containsExactly(line + 3, line + 4);
    }
}
