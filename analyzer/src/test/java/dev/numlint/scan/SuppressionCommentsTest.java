package dev.numlint.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Notification;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Placement, comment syntax per file type, and the hints of in-source suppressions (issues 14 and 17). */
class SuppressionCommentsTest {
    @TempDir
    Path dir;

    private void write(String rel, String... lines) throws IOException {
        Path p = dir.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, String.join("\n", lines) + "\n");
    }

    private ScanResult scan() {
        return Scanner.scan(ScanOptions.builder(dir)
                .analyzers(List.of(new MarkerAnalyzer()))
                .cacheDir(dir.resolve(".cache"))
                .build());
    }

    private static List<String> hits(ScanResult r) {
        return r.findings().stream()
                .map(f -> f.location().file() + ":" + f.location().startLine() + " " + f.ruleId()
                        + (f.suppressed() ? " suppressed" : ""))
                .collect(Collectors.toList());
    }

    @Test
    void endOfLineCommentAppliesToItsOwnLineOnly() throws IOException {
        write(
                "k.cu",
                "a = HAZARD(NL003); // numlint: ignore NL003 -- reviewed",
                "b = HAZARD(NL003);",
                "// numlint: ignore NL003 -- alone on its line",
                "c = HAZARD(NL003);",
                "d = HAZARD(NL003);",
                "// numlint: ignore NL003 -- stacks with the comment below",
                "// another comment",
                "e = HAZARD(NL003);",
                "/* numlint: ignore NL003 -- a block comment",
                "   spanning lines */",
                "f = HAZARD(NL003);");
        assertThat(hits(scan()))
                .containsExactly(
                        "k.cu:1 NL003 suppressed",
                        "k.cu:2 NL003",
                        "k.cu:4 NL003 suppressed",
                        "k.cu:5 NL003",
                        "k.cu:8 NL003 suppressed",
                        "k.cu:11 NL003 suppressed");
    }

    @Test
    void aStringLiteralIsNotASuppression() throws IOException {
        write(
                "k.cu",
                "const char *s = \"// numlint: ignore NL003 -- not a comment\"; x = HAZARD(NL003);",
                "puts(\"numlint: ignore NL003 -- in a string\"); y = HAZARD(NL003);",
                "char q = '\"'; z = HAZARD(NL003); // numlint: ignore NL003 -- after a quote character",
                "const char *t = \"a \\\" /* numlint: ignore NL001 -- still in the string \";",
                "w = HAZARD(NL001);");
        write(
                "A.java",
                "String s = \"// numlint: ignore NL001 -- text\"; HAZARD(NL001)",
                "String t = \"\"\"",
                "    // numlint: ignore NL001 -- inside a text block",
                "    \"\"\";",
                "HAZARD(NL001)");
        ScanResult r = scan();
        assertThat(hits(r))
                .containsExactly(
                        "A.java:1 NL001",
                        "A.java:5 NL001",
                        "k.cu:1 NL003",
                        "k.cu:2 NL003",
                        "k.cu:3 NL003 suppressed",
                        "k.cu:5 NL001");
        assertThat(r.notifications()).isEmpty();
    }

    @Test
    void commentSyntaxFollowsTheFileType() throws IOException {
        write(
                "CMakeLists.txt",
                "# numlint: ignore NL007 -- denormals cannot occur",
                "set(F HAZARD(NL007))",
                "set(G \"# numlint: ignore NL007 -- quoted\" HAZARD(NL007))",
                "// numlint: ignore NL007 -- not a CMake comment",
                "set(H HAZARD(NL007))");
        write("k.cu", "# numlint: ignore NL003 -- not a C comment", "x = HAZARD(NL003);");
        assertThat(hits(scan()))
                .containsExactly(
                        "CMakeLists.txt:2 NL007 suppressed",
                        "CMakeLists.txt:3 NL007",
                        "CMakeLists.txt:5 NL007",
                        "k.cu:2 NL003");
    }

    @Test
    void blockAndFileSuppressionsInEveryCommentSyntax() throws IOException {
        // before: only the line form existed; ignore-begin/-end/-file were malformed suppressions (issue 30)
        write(
                "k.cu",
                "a = HAZARD(NL003);",
                "// numlint: ignore-begin NL003 -- generated table, values checked offline",
                "b = HAZARD(NL003);",
                "c = HAZARD(NL001);",
                "/* numlint: ignore-begin NL001 -- nested block */",
                "d = HAZARD(NL001) + HAZARD(NL003);",
                "// numlint: ignore-end NL001",
                "e = HAZARD(NL001);",
                "// numlint: ignore-end",
                "f = HAZARD(NL003);");
        write(
                "CMakeLists.txt",
                "# numlint: ignore-file NL007 -- the target hardware has no denormals",
                "set(F HAZARD(NL007))",
                "set(G HAZARD(NL003))");
        write(
                "Makefile",
                "x := HAZARD(NL007)",
                "# numlint: ignore-begin NL007 -- legacy flags, tracked in issue 12",
                "y := HAZARD(NL007)",
                "# numlint: ignore-end",
                "z := HAZARD(NL007)");
        write("A.java", "HAZARD(NL001)", "// numlint: ignore-file NL001 -- inputs are clamped by Clamp.of");
        ScanResult r = scan();
        assertThat(hits(r))
                .containsExactlyInAnyOrder(
                        "A.java:1 NL001 suppressed",
                        "CMakeLists.txt:2 NL007 suppressed",
                        "CMakeLists.txt:3 NL003",
                        "Makefile:1 NL007",
                        "Makefile:3 NL007 suppressed",
                        "Makefile:5 NL007",
                        "k.cu:1 NL003",
                        "k.cu:3 NL003 suppressed",
                        "k.cu:4 NL001",
                        "k.cu:6 NL001 suppressed",
                        "k.cu:6 NL003 suppressed",
                        "k.cu:8 NL001",
                        "k.cu:10 NL003");
        assertThat(r.notifications()).isEmpty();
        // the suppression names the comment that made it, with its justification
        assertThat(r.findings().stream()
                        .filter(f -> f.suppressed() && f.location().file().equals("k.cu"))
                        .map(f -> f.suppression().justification()))
                .contains("generated table, values checked offline", "nested block");
    }

    @Test
    void blockSuppressionsNeedAnEndAndAReason() throws IOException {
        write(
                "k.cu",
                "// numlint: ignore-begin NL003",
                "a = HAZARD(NL003);",
                "// numlint: ignore-end",
                "// numlint: ignore-begin NL001 -- never closed",
                "b = HAZARD(NL001);",
                "// numlint: ignore-file NL003",
                "// numlint: ignore-end stray words");
        ScanResult r = scan();
        assertThat(hits(r)).containsExactly("k.cu:2 NL003", "k.cu:5 NL001");
        assertThat(r.notifications())
                .extracting(n -> n.line() + " " + n.id())
                .containsExactlyInAnyOrder(
                        "1 unjustified-suppression",
                        "4 malformed-suppression",
                        "6 unjustified-suppression",
                        "7 malformed-suppression");
        assertThat(r.notifications().stream().map(Notification::message))
                .anyMatch(m -> m.contains("'// numlint: ignore-begin NL003 -- reason'"))
                .anyMatch(m -> m.contains("has no matching '// numlint: ignore-end'"))
                .anyMatch(m -> m.contains("'// numlint: ignore-file NL003 -- reason'"));
    }

    @Test
    void ignoreAllSuppressesEveryRule() throws IOException {
        write(
                "k.cu",
                "x = HAZARD(NL003) + HAZARD(NL001); // numlint: ignore all -- reviewed",
                "// numlint: ignore all -- reviewed",
                "y = HAZARD(NL002);",
                "z = HAZARD(NL002); // numlint: ignore all");
        ScanResult r = scan();
        assertThat(hits(r))
                .containsExactly(
                        "k.cu:1 NL003 suppressed",
                        "k.cu:1 NL001 suppressed",
                        "k.cu:3 NL002 suppressed",
                        "k.cu:4 NL002");
        assertThat(r.notifications()).extracting(Notification::id).containsExactly("unjustified-suppression");
        assertThat(r.notifications().get(0).message()).contains("'// numlint: ignore all -- reason'");
    }

    @Test
    void malformedJustificationNamesTheIdFoundAndTheFilesCommentSyntax() throws IOException {
        write("k.cu", "y = HAZARD(NL001); // numlint: ignore NL001 because clamped");
        write("CMakeLists.txt", "set(F HAZARD(NL007)) # numlint: ignore NL007 fast math is wanted");
        write("Makefile", "# numlint: ignore", "CFLAGS = HAZARD(NL007)");
        ScanResult r = scan();
        assertThat(hits(r)).containsExactly("CMakeLists.txt:1 NL007", "Makefile:2 NL007", "k.cu:1 NL001");
        List<Notification> n = r.notifications();
        assertThat(n)
                .extracting(x -> x.file() + ":" + x.line() + " " + x.id())
                .containsExactly(
                        "CMakeLists.txt:1 malformed-suppression",
                        "Makefile:1 malformed-suppression",
                        "k.cu:1 malformed-suppression");
        assertThat(n.get(0).message())
                .contains("NL007")
                .contains("'# numlint: ignore NL007 -- fast math is wanted'")
                .doesNotContain("//")
                .doesNotContain("NL003");
        assertThat(n.get(1).message()).contains("names no rule id").contains("'# numlint: ignore NLxxx -- reason'");
        assertThat(n.get(2).message())
                .contains("suppression of NL001 is malformed")
                .contains("'// numlint: ignore NL001 -- because clamped'")
                .doesNotContain("NL003");
        // the location is printed once, by the output, not repeated inside the message
        for (Notification x : n) assertThat(x.message()).doesNotContain(x.file() + ":");
    }

    @Test
    void syntaxByFileName() {
        assertThat(SuppressionComments.syntax("a/CMakeLists.txt")).isEqualTo(SuppressionComments.Syntax.CMAKE);
        assertThat(SuppressionComments.syntax("cmake/cuda.cmake")).isEqualTo(SuppressionComments.Syntax.CMAKE);
        assertThat(SuppressionComments.syntax("GNUmakefile")).isEqualTo(SuppressionComments.Syntax.MAKE);
        assertThat(SuppressionComments.syntax("build/rules.mk")).isEqualTo(SuppressionComments.Syntax.MAKE);
        assertThat(SuppressionComments.syntax("k.cu")).isEqualTo(SuppressionComments.Syntax.C_LIKE);
        assertThat(SuppressionComments.syntax("A.java")).isEqualTo(SuppressionComments.Syntax.C_LIKE);
    }
}
