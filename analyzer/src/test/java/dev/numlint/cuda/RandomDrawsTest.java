package dev.numlint.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RandomDrawsTest {
    @Test
    void libraryGenerators() {
        for (String n : List.of(
                "curand",
                "curand_uniform",
                "curand_normal2_double",
                "curand_log_normal",
                "curand_poisson",
                "hiprand_uniform",
                "rand",
                "std::rand",
                "random",
                "rand_r",
                "drand48",
                "erand48",
                "lrand48")) {
            assertTrue(RandomDraws.isGenerator(n), n);
        }
    }

    @Test
    void projectGeneratorsByNameComponent() {
        for (String n :
                List.of("rand_uniform01", "rand_next_scatlen", "randUniform", "nextRandom", "getRNG", "RNGNext")) {
            assertTrue(RandomDraws.isGenerator(n), n);
        }
        assertTrue(RandomDraws.isGeneratorMember("rng", "next"));
        assertTrue(RandomDraws.isGeneratorMember("gen", "randomFloat"));
    }

    @Test
    void substringsAndSetUpAreNotDraws() {
        for (String n : List.of(
                "operand",
                "brand",
                "grandTotal",
                "strand",
                "randomize",
                "curand_init",
                "srand",
                "rng_seed",
                "curandCreateGenerator",
                "curandGenerateUniform",
                "hiprand_init",
                "rand_need_more")) {
            assertFalse(RandomDraws.isGenerator(n), n);
        }
        assertFalse(RandomDraws.isGeneratorMember("rng", "seed"));
        assertFalse(RandomDraws.isGeneratorMember("operand", "next"));
    }

    @Test
    void cxxRandomTypes() {
        for (String n : List.of(
                "std::uniform_real_distribution",
                "normal_distribution",
                "std::mt19937",
                "std::default_random_engine",
                "std::minstd_rand")) {
            assertTrue(RandomDraws.isGeneratorType(n), n);
        }
        assertFalse(RandomDraws.isGeneratorType("std::vector"));
        assertFalse(RandomDraws.isGeneratorType("Operand"));
    }

    @Test
    void components() {
        assertEquals(List.of("rand", "next", "scatlen"), RandomDraws.components("rand_next_scatlen"));
        assertEquals(List.of("xor", "shift", "rng"), RandomDraws.components("XorShiftRNG"));
        assertEquals(List.of("drand", "48"), RandomDraws.components("drand48"));
    }

    /** The lines of {@code body} (a function body, braces included) whose arithmetic computes random variates. */
    private static java.util.Set<Integer> variateLines(String body, String... integers) {
        List<PToken> t = FastLexer.lex(body);
        int close = t.size() - 1;
        while (t.get(close).getType() != dev.numlint.cuda.parser.CudaLexer.RBRACE) close--;
        return new RandomVariates(t, 0, close, null, List.of(), new FileScope(), java.util.Set.of())
                .variateLines(java.util.Set.of(integers));
    }

    @Test
    void linesWhoseArithmeticComputesRandomVariates() {
        java.util.Set<Integer> lines = variateLines(String.join(
                "\n",
                "{", // 1
                "    float c = rand_uniform01(&s);", // 2
                "    float re = n1 * c;", // 3
                "    float r = (re - im) / (re + im);", // 4: computed from the draw
                "    float d = (a[i] - b[i]) / (a[i] + b[i]);", // 5: data
                "    float w = (e - f > 0.f) ? c : 0.5f;", // 6: a variate, chosen by a comparison of data
                "    float v = c + (int)(e * f);", // 7: data converted to an integer
                "    float h = c - (int)c;", // 8: the variate converted
                "    float o = atomicAdd(&sum, c * e + f);", // 9: an atomic's order is the run's
                "    if (e * f + c > 0.5f) n++;", // 10: no definition: a test of the draw, not a variate defined
                "    float g = c * sqrtf(e * e + f);", // 11: a function of data
                "    float k = c * tab[2 * i + 1];", // 12: index arithmetic
                "    cell[2 * i] = r + e * f;", // 13: an element defined from the variate
                "}"));
        assertEquals(java.util.Set.of(3, 4, 8, 12, 13), lines);
    }

    @Test
    void aVariateReadOnlyThroughAnIntegerIsDiscrete() {
        String body = String.join(
                "\n",
                "{", // 1
                "    cellx = floorf(x + rand_uniform01(&s));", // 2: when cellx is an integer, a discrete variate
                "    float rp = code * (1.f / 255.f) + cellx;", // 3: an offset in the voxel a photon landed in
                "    float q = code * (1.f / 255.f) + x * rand_uniform01(&s);", // 4
                "}");
        assertEquals(java.util.Set.of(2, 3, 4), variateLines(body));
        assertEquals(java.util.Set.of(4), variateLines(body, "cellx"));
    }
}
