package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.toolchain.TreeMacros;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A computed {@code #include MACRO} refuses the unit (Clang could be told to read anything) unless nothing can give
 * MACRO a file name: no file of the tree writes a definition of it and the compile command neither defines it nor
 * forces includes (issue 26: MFEM's {@code #ifdef MFEM_CONFIG_FILE / #include MFEM_CONFIG_FILE} in
 * {@code config/config.hpp}, a branch its build never enables, made Clang refuse every file).
 */
class ComputedIncludeTest {
    @TempDir
    Path tree;

    private String refusal(List<String> args) throws Exception {
        Path unit = tree.resolve("integ.cpp");
        byte[] text = "#include \"config/config.hpp\"\nint f(void) { return 1; }\n".getBytes(StandardCharsets.UTF_8);
        Files.write(unit, text);
        return ClangIncludeClosure.refusal(tree, unit, text, args);
    }

    private void config() throws Exception {
        Files.createDirectories(tree.resolve("config"));
        Files.writeString(
                tree.resolve("config/config.hpp"),
                "#ifdef PROJ_CONFIG_FILE\n#include PROJ_CONFIG_FILE\n#else\n#include \"_config.hpp\"\n#endif\n");
        Files.writeString(tree.resolve("config/_config.hpp"), "#define PROJ_USE_DOUBLE\n");
    }

    @Test
    void aComputedIncludeOfAMacroNothingDefinesIsNoReasonToRefuse() throws Exception {
        config();
        assertThat(refusal(List.of("-std=c++17"))).isNull();
    }

    @Test
    void aMacroTheTreeOrTheCommandDefinesStillRefusesTheUnit(@TempDir Path other) throws Exception {
        config();
        assertThat(refusal(List.of("-DPROJ_CONFIG_FILE=\"/etc/passwd\"")))
                .contains("through config/config.hpp")
                .contains("PROJ_CONFIG_FILE, which the compile command defines");
        assertThat(refusal(List.of("-D", "PROJ_CONFIG_FILE"))).contains("which the compile command defines");
        assertThat(refusal(List.of("-include", "pre.h"))).contains("forces includes");
        // a definition anywhere in the tree, however written (continued line, comment between), may reach the unit
        Files.writeString(tree.resolve("evil.h"), "#def\\\nine /* x */ PROJ_CONFIG_FILE \"/etc/passwd\"\n");
        TreeMacrosReset.forget();
        assertThat(TreeMacros.mayDefine(tree.toRealPath(), "PROJ_CONFIG_FILE"))
                .as(tree.toString())
                .isTrue();
        assertThat(refusal(List.of())).contains("PROJ_CONFIG_FILE, which a file of the tree may define");
    }

    /**
     * Session 70 round F: an autotools config.h defines {@code CFITSIO_H "fitsio.h"} and a header includes
     * {@code CFITSIO_H}; every definition in the tree is a plain header name, so the include is followed as that
     * written include. One definition that is anything else, or a name that leads outside the tree, refuses.
     */
    @Test
    void aMacroEveryTreeDefinitionOfWhichIsAHeaderNameIsFollowedAsThatName() throws Exception {
        Files.writeString(tree.resolve("config.h"), "/* config.h */\n#define CFITSIO_H \"fitsio.h\" // found\n");
        Files.writeString(tree.resolve("alt.h"), "#ifdef ALT\n#define CFITSIO_H <cfitsio/fitsio.h>\n#endif\n");
        Files.writeString(tree.resolve("fitsio.h"), "int fits_open(void);\n");
        Path unit = tree.resolve("cat.c");
        byte[] text = "#include \"config.h\"\n#include CFITSIO_H\nint f(void) { return fits_open(); }\n"
                .getBytes(StandardCharsets.UTF_8);
        Files.write(unit, text);
        TreeMacrosReset.forget();
        assertThat(ClangIncludeClosure.refusal(tree, unit, text, List.of())).isNull();
        // the name is followed: a tree header of that name that links outside the tree refuses the unit
        Path outside = Files.createTempFile("outside", ".h");
        try {
            Files.delete(tree.resolve("fitsio.h"));
            Files.createSymbolicLink(tree.resolve("fitsio.h"), outside);
            assertThat(ClangIncludeClosure.refusal(tree, unit, text, List.of())).contains("leads outside");
            Files.delete(tree.resolve("fitsio.h"));
        } finally {
            Files.deleteIfExists(outside);
        }
        // a definition that climbs out, is absolute, or is no header name: refused as before
        for (String bad : List.of("\"../../etc/passwd\"", "\"/etc/passwd\"", "OTHER_NAME", "\"a.h\" junk")) {
            Files.writeString(tree.resolve("evil.h"), "#define CFITSIO_H " + bad + "\n");
            TreeMacrosReset.forget();
            assertThat(ClangIncludeClosure.refusal(tree, unit, text, List.of()))
                    .as(bad)
                    .contains("CFITSIO_H, which a file of the tree may define");
        }
        Files.delete(tree.resolve("evil.h"));
        // a repository's pack, large and with the word in it, is not read: no compiler is let into .git
        Files.createDirectories(tree.resolve(".git/objects/pack"));
        byte[] pack = new byte[17 << 20];
        byte[] word = "\n#define CFITSIO_H \"/etc/passwd\"\n".getBytes(StandardCharsets.UTF_8);
        System.arraycopy(word, 0, pack, 1 << 20, word.length);
        Files.write(tree.resolve(".git/objects/pack/pack-1.pack"), pack);
        Files.writeString(tree.resolve(".git/evil.h"), "#define CFITSIO_H \"/etc/passwd\"\n");
        TreeMacrosReset.forget();
        assertThat(ClangIncludeClosure.refusal(tree, unit, text, List.of())).isNull();
        // and a written include of a file in it is refused
        byte[] sneaky = "#include \".git/evil.h\"\n#include CFITSIO_H\n".getBytes(StandardCharsets.UTF_8);
        assertThat(ClangIncludeClosure.refusal(tree, unit, sneaky, List.of())).contains("version-control");
        // the command may define it: refused, whatever the tree says
        TreeMacrosReset.forget();
        assertThat(ClangIncludeClosure.refusal(tree, unit, text, List.of("-DCFITSIO_H=\"x.h\"")))
                .contains("which the compile command defines");
    }

    @Test
    void aComputedIncludeInTheUnitItselfIsDecidedTheSameWay() throws Exception {
        Path unit = tree.resolve("u.cpp");
        byte[] text = "#ifdef OPT_HEADER\n#include OPT_HEADER\n#endif\n".getBytes(StandardCharsets.UTF_8);
        Files.write(unit, text);
        assertThat(ClangIncludeClosure.refusal(tree, unit, text, List.of())).isNull();
        byte[] reserved = "#include __FILE__\n".getBytes(StandardCharsets.UTF_8);
        assertThat(ClangIncludeClosure.refusal(tree, unit, reserved, List.of())).contains("a computed #include");
        byte[] unnamed = "#include MAKE(x)\n".getBytes(StandardCharsets.UTF_8);
        // MAKE is defined nowhere: a function-like name the tree does not define cannot name a file either
        assertThat(ClangIncludeClosure.refusal(tree, unit, unnamed, List.of())).isNull();
        // the strict check (a header read alone, without its compile command) refuses every computed include
        assertThat(ClangFrontEnd.refusal(tree, unit, text)).contains("a computed #include");
    }

    @Test
    void theUnitsOwnIncludeOfAFileItsCommandNamesIsFollowedAsAWrittenOne() throws Exception {
        // a GUI host unit compiled once per GUI with -DPLUGIN_SOURCE="gui/meter.c" (session 63 round B)
        Files.createDirectories(tree.resolve("gui"));
        Files.writeString(tree.resolve("gui/meter.c"), "int meter(void) { return 1; }\n");
        Path unit = tree.resolve("host.c");
        byte[] text = "#include PLUGIN_SOURCE\n".getBytes(StandardCharsets.UTF_8);
        Files.write(unit, text);
        String inc = "-I" + tree;
        assertThat(ClangIncludeClosure.refusal(tree, unit, text, List.of("-DPLUGIN_SOURCE=\"gui/meter.c\"", inc)))
                .isNull();
        // a name outside the tree, climbing out of it, not one string, undefined again or with forced files: refused
        for (List<String> args : List.of(
                List.of("-DPLUGIN_SOURCE=\"/etc/passwd\""),
                List.of("-DPLUGIN_SOURCE=\"../../etc/passwd\"", inc),
                List.of("-DPLUGIN_SOURCE=\"gui/meter.c\" EXTRA", inc),
                List.of("-DPLUGIN_SOURCE=NAME", inc),
                List.of("-DPLUGIN_SOURCE=\"gui/meter.c\"", "-UPLUGIN_SOURCE", inc),
                List.of("-DPLUGIN_SOURCE=\"gui/meter.c\"", "-include", "pre.h", inc)))
            assertThat(ClangIncludeClosure.refusal(tree, unit, text, args))
                    .as(args.toString())
                    .contains("computed");
        // a named file the tree links outside itself is refused as a written include of it is
        Path outside = Files.createTempFile("outside", ".c");
        try {
            Files.createSymbolicLink(tree.resolve("gui/link.c"), outside);
            assertThat(ClangIncludeClosure.refusal(tree, unit, text, List.of("-DPLUGIN_SOURCE=\"gui/link.c\"", inc)))
                    .contains("leads outside the scanned tree");
        } finally {
            Files.deleteIfExists(outside);
        }
    }

    @Test
    void aLargeFileWithoutTheWordIsNoReasonToRefuseOneWithItIs() throws Exception {
        config();
        // a pack of .git or a data set larger than a file read whole: streamed
        byte[] big = new byte[17 << 20];
        java.util.Arrays.fill(big, (byte) 'x');
        Files.write(tree.resolve("data.raw"), big);
        TreeMacrosReset.forget();
        assertThat(refusal(List.of())).isNull();
        // the word, spelled across continued lines, in the middle of the large file: every name may be defined
        byte[] spelled = "\n#d\\\n\\\r\ne??/\nfine PROJ_CONFIG_FILE \"/etc/passwd\"\n".getBytes(StandardCharsets.UTF_8);
        System.arraycopy(spelled, 0, big, 9 << 20, spelled.length);
        Files.write(tree.resolve("data.raw"), big);
        TreeMacrosReset.forget();
        assertThat(refusal(List.of())).contains("which a file of the tree may define");
    }

    @Test
    void theStreamedReadJoinsContinuedLinesAsThePreprocessorDoes() throws Exception {
        assertThat(mentions("#def\\\nine X")).isTrue();
        assertThat(mentions("#de??/\r\nfine X")).isTrue();
        assertThat(mentions("ddefine")).isTrue();
        assertThat(mentions("#def ine X")).isFalse();
        assertThat(mentions("defin\\e")).isFalse();
        assertThat(mentions("??define")).isTrue();
        assertThat(mentions("\\define")).isTrue();
    }

    private static boolean mentions(String s) throws Exception {
        return TreeMacros.mentionsDefine(new java.io.ByteArrayInputStream(s.getBytes(StandardCharsets.ISO_8859_1)));
    }

    @Test
    void aDefinitionInADocumentationCommentOrALineCommentDefinesNothing() throws Exception {
        config();
        // CImg's plugins document their use in their own comments
        Files.writeString(
                tree.resolve("plugin_doc.h"),
                "/*\n * Use:\n * #define PROJ_CONFIG_FILE <plugin_doc.h>\n */\n// #define PROJ_CONFIG_FILE \"x.h\"\n"
                        + "int plugin(void);\n");
        TreeMacrosReset.forget();
        assertThat(refusal(List.of())).isNull();
    }

    @Test
    void aDefinitionInsideABlockCommentDefinesNothingWhereNoLiteralCouldHideTheComment() throws Exception {
        // Eigen's documentation page: a code example at the start of a line inside /** ... */
        assertThat(defines("namespace N {\n/** \\page P\n#define X \"a.h\"\n*/\n}\n"))
                .isEmpty();
        assertThat(defines("// line comment\n#define X 1\n")).containsExactly("X");
        assertThat(defines("/* a */ #define X 1\n")).containsExactly("X");
        // after the comment's end the directive counts again
        assertThat(defines("/* a\n */\n#define X 1\n")).containsExactly("X");
        // a quote outside comments may open a literal that holds '/*': every definition counts
        assertThat(defines("char *s = \"/*\";\n#define X 1\n/* */\n")).containsExactly("X");
        assertThat(defines("int a = 1'0; char b = '\"'; char *c = \"/*\";\n#define X 1\n*/\n"))
                .containsExactly("X");
        // a header name may hold '/*': #include <a/*> then a definition Clang reads
        assertThat(defines("#include <x/*>\n#define X 1\n#include <*/>\n")).containsExactly("X");
        // a trigraph continues a line comment only where trigraphs are on: both readings count
        assertThat(defines("// c ??/\n#define X 1\n")).containsExactly("X");
        // a backslash continues it always: the next line is comment
        assertThat(defines("// c \\\n#define X 1\n")).isEmpty();
    }

    @Test
    void aTreeWhoseOnlyDefinitionIsInADocumentationBlockDoesNotRefuse() throws Exception {
        config();
        Files.createDirectories(tree.resolve("doc"));
        Files.writeString(
                tree.resolve("doc/Plugins.dox"),
                "namespace P {\n/** \\page Plugins\n#define PROJ_CONFIG_FILE \"addons.h\"\n*/\n}\n");
        TreeMacrosReset.forget();
        assertThat(refusal(List.of())).isNull();
        Files.writeString(tree.resolve("doc/real.h"), "/* x */\n#define PROJ_CONFIG_FILE \"/etc/passwd\"\n");
        TreeMacrosReset.forget();
        assertThat(refusal(List.of())).contains("which a file of the tree may define");
    }

    @Test
    void whatMayStartADirectiveBeforeTheWordCounts() {
        assertThat(defines("#define X 1")).containsExactly("X");
        assertThat(defines("  #  define X 1")).containsExactly("X");
        assertThat(defines("%:define X 1")).containsExactly("X");
        assertThat(defines("??=define X 1")).containsExactly("X");
        assertThat(defines("/* c */ # define X 1")).containsExactly("X");
        assertThat(defines("# /* a comment\n over lines */ define X 1")).containsExactly("X");
        assertThat(defines("\u00a0#define X 1")).containsExactly("X");
        assertThat(defines("\r#define X 1")).containsExactly("X");
        assertThat(defines(" * #define X 1")).isEmpty();
        assertThat(defines("// #define X 1")).isEmpty();
        assertThat(defines("int predefine X;")).isEmpty();
        assertThat(defines("x; #define X 1")).isEmpty();
    }

    private static java.util.Set<String> defines(String text) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        TreeMacros.names(text.getBytes(StandardCharsets.ISO_8859_1), out);
        return out;
    }

    @Test
    void anIncludeThatCanNameNoFileIsNoReasonToRefuse() throws Exception {
        Path unit = tree.resolve("load.cpp");
        // stb_image.h's documentation: "   #include ..." lines inside a block comment
        byte[] doc = "/*\n   #include ...\n   #include ...\n*/\n#include \"stb.h\"\nint f(void) { return 1; }\n"
                .getBytes(StandardCharsets.UTF_8);
        Files.writeString(tree.resolve("stb.h"), "/* Do this:\n   #include ...\n   #include 2\n*/\nint g;\n");
        Files.write(unit, doc);
        assertThat(ClangIncludeClosure.refusal(tree, unit, doc, List.of())).isNull();
        // a comment may hide a macro: still refused
        byte[] hidden = "#include /* x */ EVIL\n".getBytes(StandardCharsets.UTF_8);
        assertThat(ClangIncludeClosure.refusal(tree, unit, hidden, List.of())).contains("a computed #include");
    }
}
