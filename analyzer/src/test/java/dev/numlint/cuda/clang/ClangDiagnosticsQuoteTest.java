package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.BuildContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clang's first error is quoted in notices only when it lies in a file of the scanned tree: a system header's computed
 * include of a macro the tree defines (Eigen's {@code #include EIGEN_MATRIX_PLUGIN}, set to "/etc/passwd") made Clang
 * read a file outside the tree, and its first error, "unknown type name 'root'", quoted that file's first word.
 */
class ClangDiagnosticsQuoteTest {
    @TempDir
    Path tmp;

    private ClangUnit parse(Path tree, Path sys, String name, String source) throws Exception {
        assertThat(Libclang.get())
                .as("libclang loads: %s", Libclang.unavailable())
                .isNotNull();
        Path f = tree.resolve(name);
        byte[] text = source.getBytes(StandardCharsets.UTF_8);
        Files.write(f, text);
        ClangFrontEnd fe = ClangFrontEnd.forTest(tree, Path.of("/usr/local/cuda"), tmp.resolve("cache"));
        List<String> args = new ArrayList<>(fe.arguments(f, ClangFrontEnd.Language.CXX, BuildContext.defaults()));
        args.add("-isystem");
        args.add(sys.toString());
        return ClangParser.parse(f, args, text, null, null, null, Map.of(), tree);
    }

    @Test
    void anErrorInAFileOutsideTheTreeIsNotQuotedOneInTheTreeIs() throws Exception {
        Path tree = Files.createDirectories(tmp.resolve("tree"));
        Path sys = Files.createDirectories(tmp.resolve("sys"));
        Path secret = Files.writeString(tmp.resolve("secret.txt"), "hunter2secret:x:0:0 leaked words\n");
        // a trusted library header that lets its user name a file to include (a plugin)
        Files.writeString(sys.resolve("plugin.h"), "#ifdef LIB_PLUGIN\n#include LIB_PLUGIN\n#endif\n");
        ClangUnit out = parse(
                tree,
                sys,
                "a.cpp",
                "#define LIB_PLUGIN \"" + secret + "\"\n#include <plugin.h>\nint f(void) { return 1; }\n");
        assertThat(out.errors()).isPositive();
        assertThat(out.firstError()).doesNotContain("hunter2secret").contains("outside the scanned tree");
        // the same error in a header of the tree is quoted: it helps the user and reveals nothing
        Path local = Files.writeString(tree.resolve("local.txt"), "hunter3local words\n");
        ClangUnit in = parse(tree, sys, "b.cpp", "#define LIB_PLUGIN \"" + local + "\"\n#include <plugin.h>\n");
        // named with its place in the tree (session 79 round A: "in an included file" left the user to find it)
        assertThat(in.firstError()).startsWith("in local.txt:1: ").contains("hunter3local");
    }

    @Test
    void anErrorInsideTheExpansionOfTheFilesOwnMacroIsPlacedAtItsLine() throws Exception {
        Path tree = Files.createDirectories(tmp.resolve("tree"));
        Path sys = Files.createDirectories(tmp.resolve("sys"));
        // session 75 round C: an error through a macro the file defines was said to be "in an included file"
        ClangUnit out = parse(
                tree, sys, "m.cpp", "#define BAD(x) ((x) + undefined_thing)\n\nfloat f(float y) { return BAD(y); }\n");
        assertThat(out.errors()).isEqualTo(1);
        assertThat(out.firstError()).startsWith("line 3: ").contains("undefined_thing");
    }
}
