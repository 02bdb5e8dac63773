package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.BuildContext;
import dev.numlint.testing.InlineExpectations;
import dev.numlint.testing.TestScanContext;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Modern C++ (issue 14 item 5): the fixture's functions all parse and the rules see the code inside them. */
class ModernCxxTest {
    @Test
    void modernConstructsParseAndAreAnalyzed() throws Exception {
        Path dir =
                Path.of(ModernCxxTest.class.getResource("/fixtures/cuda/modern").toURI());
        CudaSourceAnalyzer a = new CudaSourceAnalyzer();
        // the hand-written parser's reading of modern C++: both front ends on every function (by default Clang's
        // facts decide the functions Clang saw whole, ClangDecides, and the parser never meets them)
        TestScanContext ctx;
        System.setProperty("numlint.clang.both", "true");
        try {
            ctx = new TestScanContext(dir)
                    .projectContext(BuildContext.defaults())
                    .run(a);
        } finally {
            System.clearProperty("numlint.clang.both");
        }
        // the Clang front end's notes (its first error in a file whose macros this tree does not define) are not
        // the hand-written parser's
        assertThat(ctx.notifications().stream().filter(n -> !n.id().startsWith("clang-")))
                .as("notifications")
                .isEmpty();
        assertThat(a.stats().failed.get()).isZero();
        assertThat(a.stats().functions.get()).isGreaterThanOrEqualTo(10);
        InlineExpectations exp = InlineExpectations.read(dir);
        String details = ctx.findings().stream()
                .map(f -> f.location().shortText() + " " + f.ruleId())
                .collect(Collectors.joining("\n"));
        assertThat(exp.compare(ctx.hits())).as(details).isEmpty();
    }
}
