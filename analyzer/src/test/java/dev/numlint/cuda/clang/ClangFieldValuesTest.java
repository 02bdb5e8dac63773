package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.BuildContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Members of local structures ({@link ClangFieldValues}) under C++11, where a structure returned by value and copied
 * into a declaration is an elidable move that libclang shows as an unnamed call (etc2comp builds with -std=c++11:
 * {@code ColorFloatRGBA frgba6 = frgba.ClampRGB().ScaleRGB(63.0f).RoundRGB();} kept three false errors after the
 * fix that removed those of the assignment form).
 */
class ClangFieldValuesTest {
    @TempDir
    Path dir;

    private static final String SOURCE =
            """
            #include <math.h>
            struct C {
              float r;
              C() { r = 0; }
              C clamp() { C c = *this; if (c.r < 0.0f) { c.r = 0.0f; } if (c.r > 1.0f) { c.r = 1.0f; } return c; }
              C scale(float s) { C c; c.r = s * r; return c; }
              C round() { C c; c.r = roundf(r); return c; }
            };
            unsigned declared(C f) { C f6 = f.clamp().scale(63.0f).round(); return (unsigned)f6.r; }
            unsigned unclamped(C f) { C f6 = f.scale(63.0f).round(); return (unsigned)f6.r; }
            """;

    @Test
    void aStructureReturnedByValueIsFollowedBeforeCxx17() throws Exception {
        for (String std : List.of("-std=c++11", "-std=c++17")) {
            ClangUnit u = parse(std);
            assertThat(castOperand(u, "declared")).as(std).containsExactly(0, 63);
            assertThat(castOperand(u, "unclamped")[0]).as(std).isEqualTo(Double.NEGATIVE_INFINITY);
        }
    }

    private ClangUnit parse(String std) throws Exception {
        Path f = dir.resolve("t" + std.replaceAll("\\W", "") + ".cpp");
        byte[] text = SOURCE.getBytes(StandardCharsets.UTF_8);
        Files.write(f, text);
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        List<String> args = new ArrayList<>(fe.arguments(f, ClangFrontEnd.Language.CXX, BuildContext.defaults()));
        args.add(std);
        ClangUnit u = ClangParser.parse(f, args, text);
        assertThat(u.failure()).isNull();
        return u;
    }

    /** The interval of the floating operand of the one explicit cast in function {@code name}. */
    private static double[] castOperand(ClangUnit u, String name) {
        for (ClangUnit.Function fn : u.functions()) {
            if (!fn.node().spelling.equals(name)) continue;
            ClangNode[] cast = new ClangNode[1];
            fn.node().forEach(n -> {
                if (n.kind == org.bytedeco.llvm.global.clang.CXCursor_CStyleCastExpr) cast[0] = n;
            });
            ClangNode x = cast[0].children.get(cast[0].children.size() - 1);
            while (!ClangSyntax.floating(x.canonKind) && !x.children.isEmpty()) x = x.children.get(0);
            return u.intervals.of(x, fn);
        }
        throw new AssertionError(name);
    }
}
