package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Session 36: a shared and a static library compile the same sources, the shared one with CMake's
 * {@code -Dfoo_EXPORTS}; a header tests it only where no Linux unit compiles the branch, or with the same text either
 * way. Such a variant cannot change what the front end reads: it is not parsed again (it doubled the parses of a
 * filter library's sources).
 */
class DefineUsesTest {
    private static final Set<String> EXPORTS = Set.of("iir_EXPORTS");

    private static Set<String> uses(String text) {
        return DefineUses.uses(text, EXPORTS, DefineUses.undefinedPlatforms(List.of(text), EXPORTS));
    }

    @Test
    void aConditionThatAnotherPlatformsTestDecidesDoesNotUseTheName() {
        assertThat(uses("#if defined(_WIN32) && defined(iir_EXPORTS)\n#define IIR_EXPORT __declspec(dllexport)\n"
                        + "#elif defined(_WIN32)\n#define IIR_EXPORT __declspec(dllimport)\n#else\n#define IIR_EXPORT\n"
                        + "#endif\n"))
                .isEmpty();
        // nested under #ifdef _WIN32 / #ifdef _MSC_VER, and #if 0
        assertThat(uses("#ifdef _WIN32\n#  ifdef iir_EXPORTS\n#    define API 1\n#  endif\n#endif\n"))
                .isEmpty();
        assertThat(uses("#if _MSC_VER >= 1900\nint iir_EXPORTS;\n#endif\n")).isEmpty();
        assertThat(uses("#if 0\nint x = iir_EXPORTS;\n#endif\n")).isEmpty();
        // after an always-taken branch, an #else is never compiled
        assertThat(uses("#ifndef _WIN32\nint a;\n#else\nint b = iir_EXPORTS;\n#endif\n"))
                .isEmpty();
        // comments and strings
        assertThat(uses("/* iir_EXPORTS */ const char *s = \"iir_EXPORTS\"; // iir_EXPORTS\n"))
                .isEmpty();
    }

    @Test
    void aNameTestedAloneWithBranchesOfTheSameTextIsNotUsed() {
        // CMake's GenerateExportHeader on Linux
        assertThat(uses("#ifndef IIR_EXPORT\n#  ifdef iir_EXPORTS\n     /* We are building this library */\n"
                        + "#    define IIR_EXPORT __attribute__((visibility(\"default\")))\n#  else\n"
                        + "     /* We are using this library */\n"
                        + "#    define IIR_EXPORT __attribute__((visibility(\"default\")))\n#  endif\n#endif\n"))
                .isEmpty();
        // branches that differ: used
        assertThat(uses("#ifdef iir_EXPORTS\ntypedef float real;\n#else\ntypedef double real;\n#endif\n"))
                .containsExactly("iir_EXPORTS");
        // no #else: the branch against nothing
        assertThat(uses("#ifdef iir_EXPORTS\nint x;\n#endif\n")).containsExactly("iir_EXPORTS");
        // an #elif chain is not one name's two sides
        assertThat(uses("#if defined(iir_EXPORTS)\nint x;\n#elif defined(B)\nint x;\n#else\nint x;\n#endif\n"))
                .containsExactly("iir_EXPORTS");
    }

    @Test
    void everywhereElseTheNameCounts() {
        assertThat(uses("int x = iir_EXPORTS;\n")).containsExactly("iir_EXPORTS");
        assertThat(uses("#define API_ON iir_EXPORTS\n")).containsExactly("iir_EXPORTS");
        // a condition the platform test does not decide
        assertThat(uses("#if defined(_WIN32) || defined(iir_EXPORTS)\nint x;\n#endif\n"))
                .containsExactly("iir_EXPORTS");
        assertThat(uses("#if !defined(_WIN32) && defined(iir_EXPORTS)\nint x;\n#endif\n"))
                .containsExactly("iir_EXPORTS");
        // a name of another platform that the project defines itself is not known to be undefined
        assertThat(uses("#define _WIN32 1\n#if defined(_WIN32) && defined(iir_EXPORTS)\nint x;\n#endif\n"))
                .containsExactly("iir_EXPORTS");
        // continued lines and a comment inside the directive
        assertThat(uses("#if defined(_WIN32) \\\n  && defined(iir_EXPORTS)\nint x;\n#endif\n"))
                .isEmpty();
        assertThat(uses("#if defined(B) /* a\n comment */ && defined(iir_EXPORTS)\nint x;\n#endif\n"))
                .containsExactly("iir_EXPORTS");
        // unbalanced conditionals: read as the plain text search reads them
        assertThat(uses("#if 0\nint x = iir_EXPORTS;\n")).containsExactly("iir_EXPORTS");
        // a digit separator is no character literal
        assertThat(uses("int n = 1'000; int m = iir_EXPORTS; char c = 'x';\n")).containsExactly("iir_EXPORTS");
    }

    @Test
    void conditionsInThreeValues() {
        Set<String> undefined = Set.of("_WIN32", "_MSC_VER");
        assertThat(new DefineUses.Condition("defined(_WIN32) && X", undefined).value())
                .isEqualTo(DefineUses.Value.FALSE);
        assertThat(new DefineUses.Condition("!(defined _WIN32) || X > 3", undefined).value())
                .isEqualTo(DefineUses.Value.TRUE);
        assertThat(new DefineUses.Condition("_MSC_VER < 1900", undefined).value())
                .isEqualTo(DefineUses.Value.TRUE);
        assertThat(new DefineUses.Condition("0x10 && defined(Y)", undefined).value())
                .isEqualTo(DefineUses.Value.UNKNOWN);
        assertThat(new DefineUses.Condition("defined(_WIN32) + 1", undefined).value())
                .isEqualTo(DefineUses.Value.UNKNOWN);
        assertThat(new DefineUses.Condition("(0 || X) && 0", undefined).value()).isEqualTo(DefineUses.Value.FALSE);
    }
}
