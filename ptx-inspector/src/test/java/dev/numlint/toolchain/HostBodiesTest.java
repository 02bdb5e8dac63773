package dev.numlint.toolchain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HostBodiesTest {
    private static final String FILE = String.join(
            "\n",
            "#include \"a.h\"",
            "#define HD __host__ __device__",
            "namespace gpu {",
            "struct __align__(16) Info { int clock; };",
            "// a comment with a brace {",
            "__global__ void kern(float* a) { if (a) { a[0] = 1; } }",
            "static int query(Info* out) {",
            "    cudaDeviceProp dp; out->clock = dp.clockRate; const char* s = \"}\";",
            "    return 0;",
            "}",
            "HD float both(float x) {",
            "    return x * 2;",
            "}",
            "float table[2] = {1, 2};",
            "DEFINE_HELPER(name) {",
            "    return 1;",
            "}",
            "}",
            "extern \"C\" {",
            "void report(int n) const noexcept {",
            "    printf(\"%d\\n\", n);",
            "}",
            "}",
            "");

    @Test
    void findsFunctionBodiesWithTheirExecutionSpace() {
        List<HostBodies.Body> bodies = HostBodies.of(FILE, HostBodies.deviceMacros(List.of(FILE)));
        assertThat(bodies)
                .extracting(HostBodies.Body::name, HostBodies.Body::firstLine, HostBodies.Body::device)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("kern", 6, true),
                        org.assertj.core.groups.Tuple.tuple("query", 7, false),
                        org.assertj.core.groups.Tuple.tuple("both", 11, true),
                        org.assertj.core.groups.Tuple.tuple("", 15, false),
                        org.assertj.core.groups.Tuple.tuple("report", 20, false));
    }

    @Test
    void emptiesOnlyHostBodiesHoldingEveryError() {
        Set<String> macros = HostBodies.deviceMacros(List.of(FILE));
        List<HostBodies.Body> chosen = HostBodies.holding(FILE, Set.of(8), macros);
        assertThat(chosen).extracting(HostBodies.Body::name).containsExactly("query");
        String emptied = HostBodies.emptied(FILE, chosen);
        assertThat(emptied.lines().count()).isEqualTo(FILE.lines().count());
        assertThat(emptied)
                .doesNotContain("clockRate")
                .contains("static int query(Info* out) {")
                .contains("kern");
        // an error in device code, in a macro-qualified function, in a body whose declaration a macro writes, or
        // outside any body: nothing is emptied
        assertThat(HostBodies.holding(FILE, Set.of(6), macros)).isNull();
        assertThat(HostBodies.holding(FILE, Set.of(12), macros)).isNull();
        assertThat(HostBodies.holding(FILE, Set.of(16), macros)).isNull();
        assertThat(HostBodies.holding(FILE, Set.of(8, 14), macros)).isNull();
        assertThat(HostBodies.holding(FILE, Set.of(8, 21), macros))
                .extracting(HostBodies.Body::name)
                .containsExactly("query", "report");
    }

    @Test
    void aMacroDefinedEmptyForTheHostPassIsStillDevice() {
        String header = "#ifndef __CUDA_ARCH__\n#define DEV\n#else\n#define DEV __device__\n#endif\n";
        String cu = "DEV float f(float x) {\n  return x * broken;\n}\n";
        assertThat(HostBodies.holding(cu, Set.of(2), HostBodies.deviceMacros(List.of(cu, header))))
                .isNull();
    }

    @Test
    void unbalancedTextGivesNothing() {
        assertThat(HostBodies.of("void f() { if (x) {\n")).isEmpty();
        assertThat(HostBodies.holding("void f() { }\n}\n", Set.of(1), Set.of())).isNull();
    }
}
