package dev.numlint.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FixturesTest {
    @TempDir
    Path root;

    @Test
    void nestedFixturesAreTheirOwnAndLeftOutOfTheirParent() throws IOException {
        Files.createDirectories(root.resolve("cuda/fastmath"));
        Files.writeString(root.resolve("cuda/a.cu"), "// ruleid: NL002\nx = a / b;\n");
        Files.writeString(root.resolve("cuda/fastmath/fixture.properties"), "nvcc-flags=--use_fast_math\n");
        Files.writeString(root.resolve("cuda/fastmath/b.cu"), "// ruleid: NL006\ny = sinf(x);\n");
        List<Fixtures.Fixture> all = Fixtures.discover(root);
        assertThat(all).extracting(Fixtures.Fixture::name).containsExactly("cuda", "cuda/fastmath");
        Fixtures.Fixture cuda = all.get(0);
        assertThat(cuda.nested()).containsExactly("fastmath");
        assertThat(all.get(1).get("nvcc-flags", "")).isEqualTo("--use_fast_math");
        // the parent compares only its own expectations
        assertThat(Fixtures.compare(cuda, List.of(finding("a.cu", 2, "NL002", "'a / b' is approximate"))))
                .isEmpty();
        assertThat(Fixtures.compare(cuda, List.of())).contains("missed:     a.cu:2 NL002");
    }

    @Test
    void aMisspeltSettingFailsTheFixtureAndAnOverlongMessageIsReported() throws IOException {
        Files.createDirectories(root.resolve("f"));
        Files.writeString(root.resolve("f/fixture.properties"), "nvccFlags=--use_fast_math\n");
        assertThatThrownBy(() -> Fixtures.discover(root))
                .hasMessageContaining("fixture.properties")
                .hasMessageContaining("unknown key 'nvccFlags'");
        Files.writeString(root.resolve("f/fixture.properties"), "nvcc-flags=\n");
        Files.writeString(root.resolve("f/k.cu"), "// ruleid: NL002\nx = a / b;\n");
        Fixtures.Fixture f = Fixtures.discover(root).get(0);
        String tooLong = "x".repeat(Fixtures.MAX_MESSAGE + 1);
        assertThat(Fixtures.compare(f, List.of(finding("k.cu", 2, "NL002", tooLong))))
                .contains("message:    k.cu:2 NL002 has 161 characters");
        assertThat(Fixtures.compare(f, List.of(finding("k.cu", 2, "NL002", "two\nlines"))))
                .contains("one line");
    }

    private static Finding finding(String file, int line, String rule, String message) {
        return Finding.builder(rule)
                .location(Location.line(file, line))
                .message(message)
                .layer(Layer.CUDA_SOURCE)
                .level(Level.WARNING)
                .build();
    }
}
