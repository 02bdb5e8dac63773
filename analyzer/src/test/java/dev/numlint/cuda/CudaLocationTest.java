package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Finding;
import dev.numlint.model.Location;
import dev.numlint.testing.TestScanContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exact line and column (1-based, UTF-16 code units as SARIF's columnKind utf16CodeUnits declares) of CUDA source
 * findings after line continuations, CRLF line ends, tabs and multi-line macros.
 */
class CudaLocationTest {
    private static List<Location> locations(Path dir, String file, String text, String rule) throws Exception {
        Files.write(dir.resolve(file), text.getBytes(StandardCharsets.UTF_8));
        TestScanContext ctx = new TestScanContext(dir).run(new CudaSourceAnalyzer());
        return ctx.findings().stream()
                .filter(f -> f.ruleId().equals(rule))
                .map(Finding::location)
                .collect(Collectors.toList());
    }

    private static final String KERNEL_CAST = "__global__ void k(float *in, unsigned short *out) {\n"
            + "  out[0] = (unsigned short)(in[0] * 2.0f);\n"
            + "}\n";

    @Test
    void columnOfAPlainFinding(@TempDir Path dir) throws Exception {
        List<Location> l = locations(dir, "k.cu", KERNEL_CAST, "NL001");
        assertThat(l).hasSize(1);
        assertThat(l.get(0).startLine()).isEqualTo(2);
        // the cast starts at "(unsigned short)": column 12; it ends after "2.0f)" (exclusive end column)
        assertThat(l.get(0).startColumn()).isEqualTo(12);
        assertThat(l.get(0).endLine()).isEqualTo(2);
        assertThat(l.get(0).endColumn()).isEqualTo(42);
    }

    @Test
    void stringLiteralContinuedWithBackslashNewlineInACFile(@TempDir Path dir) throws Exception {
        String src = "const char *usage = \"first line \\\n"
                + "second line \\\n"
                + "third line\";\n"
                + "long double wide(void) { return 1.0L; }\n";
        List<Location> l = locations(dir, "u.c", src, "NL005");
        assertThat(l).extracting(Location::startLine).containsExactly(4);
        assertThat(l.get(0).startColumn()).isEqualTo(13); // the function name
    }

    @Test
    void backslashCrlfContinuationInsideAString(@TempDir Path dir) throws Exception {
        String src = "const char *usage = \"first line \\\r\nsecond line\";\r\n" + KERNEL_CAST.replace("\n", "\r\n");
        List<Location> l = locations(dir, "k.cu", src, "NL001");
        assertThat(l).hasSize(1);
        assertThat(l.get(0).startLine()).isEqualTo(4);
        assertThat(l.get(0).startColumn()).isEqualTo(12);
    }

    @Test
    void crlfLineEnds(@TempDir Path dir) throws Exception {
        List<Location> l = locations(dir, "k.cu", "// header\r\n\r\n" + KERNEL_CAST.replace("\n", "\r\n"), "NL001");
        assertThat(l).hasSize(1);
        assertThat(l.get(0).startLine()).isEqualTo(4);
        assertThat(l.get(0).startColumn()).isEqualTo(12);
        assertThat(l.get(0).endColumn()).isEqualTo(42);
    }

    @Test
    void tabsCountAsOneCodeUnit(@TempDir Path dir) throws Exception {
        List<Location> l = locations(dir, "k.cu", KERNEL_CAST.replace("  out", "\t\tout"), "NL001");
        assertThat(l).hasSize(1);
        assertThat(l.get(0).startColumn()).isEqualTo(12);
    }

    @Test
    void columnsCountUtf16CodeUnits(@TempDir Path dir) throws Exception {
        // "\u00e9" is one UTF-16 unit (two UTF-8 bytes), "\ud835\udc65" (a math x) is two units
        String src = KERNEL_CAST.replace("  out[0]", "/*\u00e9\ud835\udc65*/out[0]");
        List<Location> l = locations(dir, "k.cu", src, "NL001");
        assertThat(l).hasSize(1);
        assertThat(l.get(0).startColumn()).isEqualTo(17); // 7 for the comment + "out[0] = " 9 = column 17
    }

    @Test
    void multiLineMacroDefinitionsAndInvocations(@TempDir Path dir) throws Exception {
        String src = "#define TO_SHORT(x) \\\n"
                + "    ((unsigned short) \\\n"
                + "     (x))\n"
                + "#define TWICE(v) \\\n"
                + "    ((v) * 2.0f)\n"
                + "__global__ void k(float *in, unsigned short *out) {\n"
                + "  out[0] = TO_SHORT(in[0]);\n"
                + "  out[1] = TO_SHORT(TWICE(\n"
                + "      in[1]));\n"
                + "  out[2] = (unsigned short)(in[2]);\n"
                + "}\n";
        List<Location> l = locations(dir, "k.cu", src, "NL001");
        // findings from a macro are reported at the invocation; the code after the multi-line invocation and the
        // multi-line definitions keeps its own line and column
        assertThat(l).extracting(Location::startLine).containsExactly(7, 8, 10);
        assertThat(l).extracting(Location::startColumn).containsExactly(12, 12, 12);
        assertThat(l.get(2).endColumn()).isEqualTo(35);
    }

    @Test
    void checksOfOtherRulesReportTheSiteRegion(@TempDir Path dir) throws Exception {
        // every check reports through a Site that carries the expression's start and (exclusive) end column
        String src = "__global__ void k(float *a, float x, float y, float z) {\n"
                + "  a[0] = x * y + z;\n"
                + "}\n"
                + "long double wide(long double v) { return (long double) v * 2; }\n";
        List<Location> fma = locations(dir, "k.cu", src, "NL003");
        assertThat(fma).hasSize(1);
        assertThat(fma.get(0).startLine()).isEqualTo(2);
        assertThat(fma.get(0).startColumn()).isEqualTo(10); // "x * y + z"
        assertThat(fma.get(0).endColumn()).isEqualTo(19);
        List<Location> ld = locations(dir, "k.cu", src, "NL005");
        assertThat(ld).extracting(Location::startLine).containsOnly(4);
        assertThat(ld).extracting(Location::startColumn).doesNotContain(0);
    }
}
