package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import org.junit.jupiter.api.Test;

/**
 * The conditional directives after which the hand-written preprocessor reads code Clang may not have seen
 * ({@link Preprocessor#conditionalLines}, which give a function to both front ends): a branch it cannot decide, or any
 * branch under all-configurations; not a branch the command's macros decide, which Clang decides the same way
 * (session 53: a nearest-neighbour library's Hamming distances under {@code #ifdef __ARM_NEON__} were given to the
 * hand-written front end, which read a class-scoped {@code ResultType} as a float).
 */
class PreprocessorConditionalsTest {
    private static final String SRC =
            """
            unsigned f(const unsigned char *a, int n) {
                unsigned r = 0;
            #ifdef __ARM_NEON__
                r = 1;
            #else
                for (int i = 0; i < n; i++) r += a[i];
            #endif
            #if __CUDA_ARCH__ >= 700
                r += 2;
            #else
                r += 3;
            #endif
            #if 0
                r = 4;
            #elif defined(__GNUC__) || 1
                r += 5;
            #endif
                return r;
            }
            """;

    @Test
    void decidedBranchesAreNotConditional() {
        Preprocessor pp = new Preprocessor(new HashMap<>(), null);
        pp.run(SRC);
        // only the __CUDA_ARCH__ test, which reads both branches, and its #else
        assertThat(pp.conditionalLines.stream().boxed().toList()).containsExactly(8, 10);
    }

    @Test
    void underAllConfigurationsEveryBranchNotTakenIs() {
        Preprocessor pp = new Preprocessor(new HashMap<>(), null).allConfigurations(true);
        pp.run(SRC);
        assertThat(pp.conditionalLines.stream().boxed().toList()).containsExactly(3, 8, 10, 13);
    }
}
