package dev.numlint.cuda.checks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.cuda.CudaSourceAnalyzer;
import dev.numlint.model.Finding;
import dev.numlint.testing.TestScanContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** NL008's consequence when the promoted expression rounds its own value to an integral one. */
class DoublePromotionTest {

    /**
     * {@code pow(2.0, ceil(log2(n)))} is an exact power of two: rounding it to float changes nothing, so "rounded to
     * 'n': one ulp can change the int" named the wrong step. What one ulp of log2() against log2f() can change is
     * ceil(), where n lies just above a power of two (session 31's evaluation, defect 4).
     */
    @Test
    void aRoundingInsideThePromotedExpressionIsItsConsequence(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("p.c"),
                String.join(
                        "\n",
                        "#include <math.h>",
                        "struct S { int ndft; };",
                        "void init(struct S *s, float fs, float bw) {",
                        "    float n = fs / bw;",
                        "    n = pow(2.0, ceil(log2(n)));",
                        "    s->ndft = n;",
                        "}",
                        "int bins(float x) {",
                        "    float c = ceil(log2(x));",
                        "    return (int)c;",
                        "}",
                        "int half(float x) {",
                        "    float h = floor(x * 0.1);",
                        "    return (int)h;",
                        "}",
                        "int scaled(float x) {",
                        "    float y = x * 0.1;",
                        "    return (int)y;",
                        "}",
                        "float wrapped(float p) {",
                        "    p -= 6.283185307 * floorf(p / 6.283185307 + 0.5);",
                        "    return p;",
                        "}",
                        ""));
        // the hand-written facts' consequence (Clang's facts say "the int", not the rounding inside: both front ends
        // on every function, -Dnumlint.clang.both=true, hold the finer one; fixes-session34.md lists the gap)
        List<Finding> all;
        System.setProperty("numlint.clang.both", "true");
        try {
            all = new TestScanContext(dir).run(new CudaSourceAnalyzer()).findings();
        } finally {
            System.clearProperty("numlint.clang.both");
        }
        List<Finding> f = all.stream()
                .filter(x -> x.ruleId().equals("NL008"))
                .sorted(java.util.Comparator.comparingInt(x -> x.location().startLine()))
                .toList();
        assertThat(f).extracting(x -> x.location().startLine()).containsExactly(5, 9, 13, 17, 21);
        assertThat(f.get(0).message())
                .contains("one ulp can change ceil() at line 5")
                .doesNotContain("the int");
        assertThat(f.get(1).message()).contains("one ulp can change ceil() at line 9");
        assertThat(f.get(2).message()).contains("one ulp can change floor() at line 13");
        // no rounding inside: the conversion after it stays the consequence
        assertThat(f.get(3).message()).contains("one ulp can change the int at line 18");
        // a wrap, x - P * floorf(x / P + 0.5): a step of the floor is taken back by the subtraction (its value
        // moves by P); the rounding is not the consequence, the value's uses are (here: only returned)
        assertThat(f.get(4).message()).doesNotContain("floorf()").contains("about an ulp");
    }
}
