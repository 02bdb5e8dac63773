package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** How {@link ClangOpenMp} reads a loop directive and its reduction clauses. */
class ClangOpenMpTest {
    @Test
    void aPlusOrMinusReductionOfALoopDirectiveListsTheRootName() {
        assertThat(ClangOpenMp.lists("parallel for reduction(+:a[0:n], b)", "a"))
                .isTrue();
        assertThat(ClangOpenMp.lists("parallel for reduction(task, -: b)", "b")).isTrue();
        assertThat(ClangOpenMp.lists("target teams distribute parallel for reduction(+:s)", "s"))
                .isTrue();
        assertThat(ClangOpenMp.lists("simd reduction(+:s)", "s")).isTrue();
        // a parallel region alone is no loop; a scan is no reordered sum; another name or operator is not this sum
        assertThat(ClangOpenMp.lists("parallel reduction(+:a)", "a")).isFalse();
        assertThat(ClangOpenMp.lists("simd reduction(inscan, +:a)", "a")).isFalse();
        assertThat(ClangOpenMp.lists("for reduction(+:ab)", "a")).isFalse();
        assertThat(ClangOpenMp.lists("for reduction(*:a)", "a")).isFalse();
    }

    @Test
    void theDirectiveIsTheLineBeforeTheLoopPastCommentsAndEndifs() {
        String src = "  #pragma omp parallel for \\\n    reduction(+:s)\n#endif\n  // the sum\n\n  for (;;) {}\n";
        byte[] b = src.getBytes(StandardCharsets.UTF_8);
        ClangOpenMp.Directive d = ClangOpenMp.directiveBefore(b, src.indexOf("for (;;)"));
        assertThat(d).isNotNull();
        assertThat(d.text()).isEqualTo("parallel for reduction(+:s)");
        assertThat(d.linesBefore()).isEqualTo(5);
        // a statement between the directive and the loop: the directive is another statement's
        String other = "#pragma omp parallel for reduction(+:s)\n  x = 0;\n  for (;;) {}\n";
        assertThat(ClangOpenMp.directiveBefore(other.getBytes(StandardCharsets.UTF_8), other.indexOf("for (;;)")))
                .isNull();
    }
}
