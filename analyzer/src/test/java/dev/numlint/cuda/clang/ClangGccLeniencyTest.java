package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.BuildContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * C that GCC before 14 builds with warnings and Clang 16 and later rejects (function pointers of other parameter
 * types, calls of undeclared functions, pointers stored into integers) is read as the build's compiler read it: no
 * error, and the function's body is Clang's (session 73 round B, a software rasteriser).
 */
class ClangGccLeniencyTest {
    @TempDir
    Path tmp;

    private static final String SOURCE =
            """
            typedef void (*shade_fn)(const float *in, float *out);
            static void shade(float *in, float *out) { out[0] = in[0] * 2.0f; }
            struct pipe { shade_fn fn; };
            unsigned char tone(float *px, float gain)
            {
                struct pipe p;
                p.fn = shade;
                float o[1];
                p.fn(px, o);
                int k = helper_not_declared(3);
                int addr = px;
                return (unsigned char)(o[0] * gain + k + addr);
            }
            """;

    private ClangUnit parse(ClangFrontEnd.Language lang, String name) throws Exception {
        assertThat(Libclang.get())
                .as("libclang loads: %s", Libclang.unavailable())
                .isNotNull();
        Path tree = Files.createDirectories(tmp.resolve("tree"));
        Path f = tree.resolve(name);
        byte[] text = SOURCE.getBytes(StandardCharsets.UTF_8);
        Files.write(f, text);
        ClangFrontEnd fe = ClangFrontEnd.forTest(tree, Path.of("/usr/local/cuda"), tmp.resolve("cache"));
        List<String> args = fe.arguments(f, lang, BuildContext.defaults());
        return ClangParser.parse(f, args, text, null, null, null, Map.of(), tree);
    }

    @Test
    void cThatGccBuildsWithWarningsHasNoClangError() throws Exception {
        ClangUnit c = parse(ClangFrontEnd.Language.C, "r.c");
        assertThat(c.errors()).as("first error: %s", c.firstError()).isZero();
        assertThat(c.conversions()).isNotEmpty();
    }

    @Test
    void cxxKeepsItsErrors() throws Exception {
        // C++ never allowed these: the leniency is C's only
        assertThat(parse(ClangFrontEnd.Language.CXX, "r.cpp").errors()).isPositive();
    }
}
