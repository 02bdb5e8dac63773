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
}
