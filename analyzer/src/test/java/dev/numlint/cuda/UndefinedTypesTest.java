package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 25: one project-level notice names the types no file read defines, most used first. */
class UndefinedTypesTest {
    @Test
    void noUndefinedTypeNoNotice() {
        UndefinedTypes t = new UndefinedTypes();
        t.add(Map.of());
        assertThat(t.summary(false)).isNull();
    }

    @Test
    void namesTheMostUsedTypesAndTheNextStep() {
        UndefinedTypes t = new UndefinedTypes();
        t.add(Map.of("DType2", 30, "CufftType", 2));
        t.add(Map.of("DType2", 10, "A", 1, "B", 1, "C", 1));
        Notification n = t.summary(false);
        assertThat(n.file()).isNull();
        assertThat(n.level()).isEqualTo(Level.WARNING);
        assertThat(n.id()).isEqualTo("types-undefined");
        assertThat(n.message())
                .startsWith("5 C/C++/CUDA types used at 45 places (functions) in 2 files are defined in no file read:"
                        + " DType2 (40), CufftType (2), A (1), B (1) and 1 more;")
                .contains("pass -p build");
        // with -p given, the next step is not "pass -p build" (a subdirectory scan of a configured project)
        assertThat(t.summary(true).message())
                .doesNotContain("pass -p build")
                .contains("the compile commands given with -p reach no definition");
    }

    /**
     * Session 74 round D (a JPEG codec): prose read as code gave "On, must, To" in "1 file" without saying which;
     * up to three files are named, more are counted.
     */
    @Test
    void aFewFilesAreNamed() {
        UndefinedTypes t = new UndefinedTypes();
        t.add("doc/notes.c", Map.of("On", 1, "must", 1));
        assertThat(t.summary(true).message()).contains("in 1 file (doc/notes.c) are defined in no file read");
        for (int i = 0; i < 3; i++) t.add("src/f" + i + ".c", Map.of("Grid", 1));
        assertThat(t.summary(true).message()).contains("in 4 files are defined").doesNotContain("(doc/notes.c");
    }

    /**
     * Session 74 round C (a diffusion solver written for CUDA 11): texture references are types no include directory
     * can give, since CUDA 12 removed them; the notice says so instead of only asking for a directory.
     */
    @Test
    void textureReferencesAreNamedAsRemovedFromCuda12() {
        UndefinedTypes t = new UndefinedTypes();
        t.add(Map.of("texture", 5, "Grid", 1));
        assertThat(t.summary(true).message())
                .contains("texture (5), Grid (1) (texture: texture and surface references, removed in CUDA 12;");
        UndefinedTypes u = new UndefinedTypes();
        u.add(Map.of("Grid", 1));
        assertThat(u.summary(true).message()).doesNotContain("removed in CUDA 12");
    }

    /**
     * Session 75 round D (an HDR library's NEON sources read on x86): ARM vector types are named as a target's, which
     * no include directory gives.
     */
    @Test
    void armVectorTypesAreNamedAsAnArmTargets() {
        UndefinedTypes t = new UndefinedTypes();
        t.add(Map.of("uint8x16x2_t", 3, "float32x4_t", 2, "svfloat32_t", 1, "Grid", 1));
        assertThat(t.summary(true).message())
                .contains("(uint8x16x2_t, float32x4_t, svfloat32_t: ARM NEON or SVE types, defined only when compiling"
                        + " for an ARM target)");
        UndefinedTypes u = new UndefinedTypes();
        u.add(Map.of("Grid", 1, "int8_tx", 1));
        assertThat(u.summary(true).message()).doesNotContain("ARM");
    }

    /**
     * eval26d (ecos): a header parsed on its own uses pfloat and idxint, which another header of the tree defines and
     * its includers include first. They are defined in a file read: not named, and the file is not counted.
     */
    @Test
    void aTypeAnotherFileOfTheScanDefinesIsNotNamed() {
        UndefinedTypes t = new UndefinedTypes();
        t.add(Map.of("pfloat", 1, "idxint", 1));
        t.add(Map.of("DType2", 3));
        t.defined(java.util.List.of("pfloat", "idxint", "other"));
        assertThat(t.summary(false).message())
                .startsWith("1 C/C++/CUDA type used at 3 places (functions) in 1 file are defined in no file read:"
                        + " DType2 (3);");
        t.defined(java.util.List.of("DType2"));
        assertThat(t.summary(false)).isNull();
        // what the compiler and the toolkit define (a header parsed alone as host C++ shows them as unknown)
        UndefinedTypes k = new UndefinedTypes();
        k.add(Map.of("__global__", 2, "float2", 1, "int64_t", 1));
        assertThat(k.summary(false)).isNull();
    }

    /**
     * Session 51 (a templated lattice-Boltzmann framework): a C++20 header read as C++17 gives "unknown type name
     * 'requires'", and a header read without its includers' {@code #include <vector>} "no template named 'vector'".
     * The language and its library define them: not named; a project's own type still is.
     */
    @Test
    void keywordsOfALaterStandardAndTheStandardLibrarysNamesAreNotNamed() {
        UndefinedTypes t = new UndefinedTypes();
        t.add(Map.of("requires", 2, "vector", 4, "timestep", 20));
        assertThat(t.summary(false).message())
                .startsWith("1 C/C++/CUDA type used at 20 places (functions) in 1 file are defined in no file read:"
                        + " timestep (20);");
    }

    /**
     * Session 59 (filter_audio): a C++ header that no C unit includes, read as C, shows {@code namespace} as an unknown
     * type name. The language defines it: not named, and no notice for it alone.
     */
    @Test
    void cppKeywordsOfAHeaderReadAsCAreNotNamed() {
        UndefinedTypes t = new UndefinedTypes();
        t.add(Map.of("namespace", 2, "class", 1));
        assertThat(t.summary(true)).isNull();
    }

    /**
     * Session 71 round B (a GNSS receiver in C): a radio's header that nothing of the build includes, read as C without
     * the {@code <stdbool.h>} its includers bring, shows {@code bool} as an unknown type name. An integer type of the
     * language: not named, and no notice for it alone.
     */
    @Test
    void boolOfACHeaderReadAloneIsNotNamed() {
        UndefinedTypes t = new UndefinedTypes();
        t.add(Map.of("bool", 3));
        assertThat(t.summary(true)).isNull();
    }
}
