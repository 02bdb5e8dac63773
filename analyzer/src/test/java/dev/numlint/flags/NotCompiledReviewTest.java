package dev.numlint.flags;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Findings of a file the configured build does not compile are notes that say so; other files keep their level. */
class NotCompiledReviewTest {
    private static Finding finding(String file, Layer layer) {
        return Finding.builder("NL001")
                .level(Level.ERROR)
                .message("(unsigned)x: negative values wrap on x86, 0 on the GPU")
                .location(new Location(file, 3, 3, 1, 10))
                .layer(layer)
                .build();
    }

    @Test
    void aFindingInAFileThisConfigurationDoesNotCompileIsANote() {
        Map<String, BuildContext> contexts = Map.of(
                "src/orphan.cu", BuildContext.defaults().notCompiled("no target of this configuration compiles it"),
                "src/k.cu", BuildContext.defaults().compiled(true));
        List<Finding> out = NotCompiledReview.review(
                List.of(
                        finding("src/orphan.cu", Layer.CUDA_SOURCE),
                        finding("src/orphan.cu", Layer.PTX),
                        finding("src/k.cu", Layer.CUDA_SOURCE),
                        finding("src/other.cu", Layer.CUDA_SOURCE)),
                contexts);
        assertThat(out.get(0).level()).isEqualTo(Level.NOTE);
        assertThat(out.get(0).message()).endsWith("; not compiled by this build configuration");
        assertThat(out.get(0).properties()).containsEntry("notCompiled", "no target of this configuration compiles it");
        assertThat(out.get(1).level()).isEqualTo(Level.NOTE);
        assertThat(out.get(2).level()).isEqualTo(Level.ERROR);
        assertThat(out.get(3).level()).isEqualTo(Level.ERROR);
    }

    @Test
    void aLaterContextThatCompilesTheFileWins() {
        BuildContext c = BuildContext.defaults()
                .notCompiled("not listed")
                .merge(BuildContext.defaults().compiled(true));
        assertThat(c.notCompiledReason()).isNull();
        List<Finding> out = NotCompiledReview.review(List.of(finding("a.cu", Layer.CUDA_SOURCE)), Map.of("a.cu", c));
        assertThat(out.get(0).level()).isEqualTo(Level.ERROR);
    }
}
