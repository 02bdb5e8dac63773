package dev.numlint.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class RandomGeneratorsTest {
    /** The plain definition the one-pass prefilters must agree with: {@code w} occurs in {@code s}, in any case. */
    private static boolean contains(String s, String w) {
        for (int i = 0; i + w.length() <= s.length(); i++) if (s.regionMatches(true, i, w, 0, w.length())) return true;
        return false;
    }

    @Test
    void prefiltersAgreeWithACaseBlindSearchForTheWords() {
        // letters of the words in both cases, characters that equal some of them ignoring case (dotless i, long s),
        // and others
        String alphabet = "rRaAnNdDgGeEiIsStTbBuUoOx_1\u0131\u0130\u017f";
        Random r = new Random(7);
        for (int k = 0; k < 200_000; k++) {
            StringBuilder sb = new StringBuilder();
            int len = 1 + r.nextInt(14);
            for (int i = 0; i < len; i++) sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
            String s = sb.toString();
            boolean gen = contains(s, "rand") || contains(s, "rng");
            assertThat(RandomGenerators.mayBeGenerator(s)).as(s).isEqualTo(gen);
            assertThat(RandomGenerators.mayBeGeneratorType(s))
                    .as(s)
                    .isEqualTo(gen || contains(s, "distribution") || contains(s, "engine"));
        }
        assertThat(RandomGenerators.mayBeGeneratorType("D\u0131STRIBUTION")).isTrue();
        assertThat(RandomGenerators.mayBeGeneratorType("xENGINE")).isTrue();
        assertThat(RandomGenerators.mayBeGenerator("myRNG")).isTrue();
        assertThat(RandomGenerators.mayBeGenerator("operand")).isTrue(); // split later: not a generator
        assertThat(RandomGenerators.mayBeGenerator("threadIdx")).isFalse();
    }

    @Test
    void generatorsByNameTypeAndMember() {
        assertThat(RandomGenerators.isGenerator("curand_uniform")).isTrue();
        assertThat(RandomGenerators.isGenerator("randUniform")).isTrue();
        assertThat(RandomGenerators.isGenerator("operand")).isFalse();
        assertThat(RandomGenerators.isGenerator("curand_init")).isFalse();
        assertThat(RandomGenerators.isGeneratorType("std::normal_distribution")).isTrue();
        assertThat(RandomGenerators.isGeneratorType("std::default_random_engine"))
                .isTrue();
        assertThat(RandomGenerators.isGeneratorType("mt19937")).isTrue();
        assertThat(RandomGenerators.isGeneratorType("float3")).isFalse();
        assertThat(RandomGenerators.isGeneratorMember("rng", "next")).isTrue();
        assertThat(RandomGenerators.isGeneratorMember("gen", "uniformRand")).isTrue();
        assertThat(RandomGenerators.isGeneratorMember("rng", "seed")).isFalse();
        assertThat(RandomGenerators.isGeneratorMember("rng", "setSeed")).isFalse();
        assertThat(RandomGenerators.isGeneratorMember("gen", "uniform")).isFalse();
        assertThat(RandomGenerators.isGeneratorMember(null, "rand")).isFalse();
    }
}
