package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which occurrences of a template pattern's name are uses ({@link UnreachableCode#words}). */
class UnreachableCodeTest {
    private static int uses(String code, String name) {
        Map<String, Integer> out = new HashMap<>();
        UnreachableCode.words(code.getBytes(StandardCharsets.ISO_8859_1), Set.of(name), out);
        return out.getOrDefault(name, 0);
    }

    @Test
    void declarationsAreNoUses() {
        assertThat(uses("  void writePpm(FILE *f) const;", "writePpm")).isZero();
        assertThat(uses("template <class T>\nvoid CTensor<T>::writePpm(FILE *f) const {}", "writePpm"))
                .isZero();
        assertThat(uses("template <class T> inline T &CTensor<T>::at(int i) { return d[i]; }", "at"))
                .isZero();
        assertThat(uses("std::vector<float> Grid<T, N>::hist() const;", "hist")).isZero();
        assertThat(uses("__host__ __device__ static float *ns::Box<T>::data();", "data"))
                .isZero();
    }

    @Test
    void theDeclaratorsOfADeclarationListAreNoUses() {
        String list = "extern void\tsave_tab(int *t),\n\t\twrite_body(int *p, long n),\n\t\t*names(void);";
        assertThat(uses(list, "write_body")).isZero();
        assertThat(uses(list, "names")).isZero();
        assertThat(uses("#ifdef __cplusplus\nextern \"C\" {\n#endif\n" + list, "write_body"))
                .isZero();
        // a comma inside a body or an argument list separates operands
        assertThat(uses("void f(int *p) { g(p), write_body(p, 2); }", "write_body"))
                .isEqualTo(1);
        assertThat(uses("int x = h(g(1), write_body(p, 2));", "write_body")).isEqualTo(1);
    }

    @Test
    void callsReferencesAndQualifiedCallsAreUses() {
        assertThat(uses("image.writePpm(f);", "writePpm")).isEqualTo(1);
        assertThat(uses("p->writePpm(f);", "writePpm")).isEqualTo(1);
        assertThat(uses("auto m = &Tensor<float>::scaled;", "scaled")).isEqualTo(1);
        assertThat(uses("return Tensor<float>::make(3) + 1;", "make")).isEqualTo(1);
        assertThat(uses("x = this->template cast<float>(v);", "cast")).isEqualTo(1);
        assertThat(uses("if (a > norm(v)) b = (float)norm(w);", "norm")).isEqualTo(2);
        assertThat(uses("s = a * scale(x);", "scale")).isEqualTo(1);
        assertThat(uses("if (i % 100 == 0 && i > 0 && Converged(i)) break;", "Converged"))
                .isEqualTo(1);
        assertThat(uses("if (a < b && c > Converged(i)) x = 2 * Converged(j);", "Converged"))
                .isEqualTo(2);
        assertThat(uses("y = mask & Converged(i);", "Converged")).isEqualTo(1);
        // a call under a conditional directive: the macro's name is no return type (libpng's png_read_start_row)
        assertThat(uses("   x = 0;\n#ifdef PNG_READ_TRANSFORMS_SUPPORTED\n   png_init(png_ptr);\n#endif\n", "png_init"))
                .isEqualTo(1);
        assertThat(uses("{\n#if defined(A) && \\\n    B\n  png_init(p);\n}", "png_init"))
                .isEqualTo(1);
        assertThat(uses("#endif\nstatic void png_init(int p)\n{\n}", "png_init"))
                .isZero();
    }

    @Test
    void aStringThatIsTheNameLooksItUp() {
        assertThat(uses("cuModuleGetFunction(&k, module, \"scaleKernel\");", "scaleKernel"))
                .isEqualTo(1);
        assertThat(uses("template void pack<float>(const float *, int);", "pack"))
                .isZero();
    }

    @Test
    void commentsAndLiteralsAreNoUses() {
        assertThat(uses("// writePpm writes the image\n/* then writePpm */ s = \"writePpm the image\";", "writePpm"))
                .isZero();
        assertThat(uses("n = 1'000; c = 'x'; t.writePpm(f);", "writePpm")).isEqualTo(1);
        assertThat(uses("int writePpm2 = 1e5writePpm;", "writePpm")).isZero();
    }
}
