package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Which headers are guarded against a second inclusion, as compilers find it ({@link IncludeGuards}). */
class IncludeGuardsTest {
    private static final Path H = Path.of("/tree/h.hpp");

    @Test
    void guards() {
        assertThat(IncludeGuards.find(
                        H,
                        "// c\n#ifndef GLM_SETUP\n#define GLM_SETUP\nint a;\n#ifdef X\nint b;\n#endif\n"
                                + "#endif // GLM_SETUP\n\n"))
                .isEqualTo("GLM_SETUP");
        assertThat(IncludeGuards.find(H, "/* #if 0 */\n#if !defined(CORE_H)\n#define CORE_H 1\nint a;\n#endif\n"))
                .isEqualTo("CORE_H");
        assertThat(IncludeGuards.find(H, "/// doc\n#pragma once\n#include \"a.hpp\"\n"))
                .isEqualTo(IncludeGuards.ONCE + H);
    }

    @Test
    void notGuards() {
        // code after the group, an #else of the guard, a #define of another name, a first directive of another kind
        assertThat(IncludeGuards.find(H, "#ifndef A\n#define A\n#endif\nint twice;\n"))
                .isEmpty();
        assertThat(IncludeGuards.find(H, "#ifndef A\n#define A\nint a;\n#else\nint b;\n#endif\n"))
                .isEmpty();
        assertThat(IncludeGuards.find(H, "#ifndef A\n#define B\nint a;\n#endif\n"))
                .isEmpty();
        assertThat(IncludeGuards.find(H, "#include \"x.h\"\n#ifndef A\n#define A\n#endif\n"))
                .isEmpty();
        assertThat(IncludeGuards.find(H, "#ifndef A\n#define A\n#endif\n#ifdef B\nint b;\n#endif\n"))
                .isEmpty();
        assertThat(IncludeGuards.find(H, "int x;\n")).isEmpty();
    }
}
