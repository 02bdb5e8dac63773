package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.model.BuildContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ClangLiterals}: literal values read from the text are the values libclang's evaluation gives, and only large
 * tables of integers go uncopied.
 */
class ClangLiteralsTest {
    @TempDir
    Path dir;

    private static Double value(int kind, String text) {
        byte[] b = ("x = " + text + ";").getBytes(StandardCharsets.ISO_8859_1);
        return ClangLiterals.value(kind, b, 4, 4 + text.length());
    }

    @Test
    void integerLiteralsAsLibclangWidensThem() {
        assertThat(value(CXCursor_IntegerLiteral, "42")).isEqualTo(42.0);
        assertThat(value(CXCursor_IntegerLiteral, "0x2Au")).isEqualTo(42.0);
        assertThat(value(CXCursor_IntegerLiteral, "052")).isEqualTo(42.0);
        assertThat(value(CXCursor_IntegerLiteral, "0b101010")).isEqualTo(42.0);
        assertThat(value(CXCursor_IntegerLiteral, "1'000ull")).isEqualTo(1000.0);
        assertThat(value(CXCursor_IntegerLiteral, "0")).isEqualTo(0.0);
        // the 64 bits as a signed long, as the evaluation's unsigned result is read into Java
        assertThat(value(CXCursor_IntegerLiteral, "18446744073709551615ull")).isEqualTo(-1.0);
        // not a literal this reads: a macro's name, an invalid octal digit, a floating form, a user-defined suffix
        assertThat(value(CXCursor_IntegerLiteral, "N")).isNull();
        assertThat(value(CXCursor_IntegerLiteral, "09")).isNull();
        assertThat(value(CXCursor_IntegerLiteral, "1e5")).isNull();
        assertThat(value(CXCursor_IntegerLiteral, "12_km")).isNull();
    }

    @Test
    void floatingLiteralsWithTheirTypesRounding() {
        assertThat(value(CXCursor_FloatingLiteral, "0.1f")).isEqualTo((double) 0.1f);
        assertThat(value(CXCursor_FloatingLiteral, "0.1")).isEqualTo(0.1);
        assertThat(value(CXCursor_FloatingLiteral, "1e-3")).isEqualTo(1e-3);
        assertThat(value(CXCursor_FloatingLiteral, ".5F")).isEqualTo(0.5);
        assertThat(value(CXCursor_FloatingLiteral, "1.")).isEqualTo(1.0);
        assertThat(value(CXCursor_FloatingLiteral, "0x1.8p1")).isEqualTo(3.0);
        assertThat(value(CXCursor_FloatingLiteral, "0x1p-2f")).isEqualTo(0.25);
        // long double and half literals, and macros, are left to libclang
        assertThat(value(CXCursor_FloatingLiteral, "1.0L")).isNull();
        assertThat(value(CXCursor_FloatingLiteral, "2.0f16")).isNull();
        assertThat(value(CXCursor_FloatingLiteral, "M_PI")).isNull();
        assertThat(value(CXCursor_FloatingLiteral, "E1")).isNull();
    }

    @Test
    void onlyLargeTablesOfNumbersOutsideFunctionsAreNotCopied() throws Exception {
        assertThat(Libclang.get())
                .as("libclang loads: %s", Libclang.unavailable())
                .isNotNull();
        StringBuilder codes = new StringBuilder();
        StringBuilder small = new StringBuilder();
        StringBuilder floats = new StringBuilder();
        StringBuilder named = new StringBuilder();
        StringBuilder doubles = new StringBuilder();
        StringBuilder rows = new StringBuilder();
        StringBuilder filters = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            filters.append("{ /* tap set */ {")
                    .append(i)
                    .append(", -")
                    .append(i)
                    .append("} },\n");
            doubles.append(-i).append(".25e-3, ");
            rows.append("{{0, ").append(i).append("}, -411.602870, {168.48, .5}},\n");
            codes.append(String.format("0x%012xUL, /* %d */%n", 0x9e3779b97f4aL * i, i));
            floats.append(i).append(".5f, ");
            named.append(i % 7 == 0 ? "K" : Integer.toString(i)).append(", ");
        }
        for (int i = 0; i < 100; i++) small.append(i).append(", ");
        String src = "#include <stdint.h>\n#define K 7\n"
                + "static const uint64_t codes[] = {\n" + codes + "};\n"
                + "static const int nested[][2] = {" + "{1, -2}, ".repeat(2000) + "};\n"
                + "static const int small[] = {" + small + "};\n"
                + "static const float weights[] = {" + floats + "};\n"
                + "static const int named[] = {" + named + "};\n"
                + "static const double series[] = {" + doubles + "};\n"
                + "struct term { int m[2]; double a; double b[2]; };\n"
                + "static const struct term terms[] = {\n" + rows + "};\n"
                + "struct filter { short taps[2]; };\n"
                + "struct filter_set { struct filter f[3000]; };\n"
                + "static const struct filter_set set44 = {\n{\n" + filters + "}\n};\n"
                + "float f(int i) { return weights[i] * (float)(codes[i] & 0xffu) + small[3] + 0.5f; }\n"
                + "double g(int i) { static const double local[] = {" + doubles + "}; return local[i]; }\n";
        Path f = dir.resolve("t.c");
        byte[] text = src.getBytes(StandardCharsets.UTF_8);
        Files.write(f, text);
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        ClangUnit u = ClangParser.parse(f, fe.arguments(f, ClangFrontEnd.Language.C, BuildContext.defaults()), text);
        assertThat(u.failure()).isNull();
        List<String> lists = new ArrayList<>();
        for (ClangNode top : u.top()) {
            if (top.kind != CXCursor_VarDecl) continue;
            for (ClangNode c : top.children())
                if (c.kind == CXCursor_InitListExpr)
                    lists.add(top.spelling + "=" + c.children().size());
        }
        // the 64-bit codes (48 KiB of text), the 2-D int table, a table of double literals, one of structures of
        // numbers and a structure of integer arrays (an HRTF filter set) are data; a small table, one of float
        // literals and one that names a macro are copied whole
        assertThat(lists)
                .containsExactly(
                        "codes=0",
                        "nested=0",
                        "small=100",
                        "weights=3000",
                        "named=3000",
                        "series=0",
                        "terms=0",
                        "set44=0");
        // a table inside a function is copied whole
        int[] local = {-1};
        for (ClangNode top : u.top())
            if (top.spelling.equals("g"))
                top.forEach(n -> {
                    if (n.kind == CXCursor_InitListExpr) local[0] = n.children().size();
                });
        assertThat(local[0]).isEqualTo(3000);
        List<Double> values = new ArrayList<>();
        for (ClangNode top : u.top())
            if (top.spelling.equals("f"))
                top.forEach(n -> {
                    if (n.kind == CXCursor_IntegerLiteral || n.kind == CXCursor_FloatingLiteral) values.add(n.value);
                });
        assertThat(values).containsExactly(255.0, 3.0, 0.5);
    }
}
