package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Clang worker decides what Clang may read by the scan's boundary roots, not by the directory that holds them all
 * (session 45: with a scanned PATH and a compilation database's directory beside it, the worker was given their
 * common directory; a computed include was refused because that directory held gigabytes of other trees, and a file
 * beside the two roots would have been inside its boundary).
 */
class ClangWorkerRootsTest {
    @TempDir
    Path common;

    private Path src;
    private Path build;

    @BeforeEach
    void tree() throws Exception {
        common = common.toRealPath();
        src = Files.createDirectories(common.resolve("src"));
        build = Files.createDirectories(common.resolve("build"));
        Files.createDirectories(common.resolve("other"));
        TreeMacrosReset.forget();
    }

    private static ClangUnit serve(ClangWire.Request r) throws Exception {
        ByteArrayOutputStream req = new ByteArrayOutputStream();
        try (DataOutputStream o = new DataOutputStream(req)) {
            ClangWire.writeRequest(o, r);
            ClangWire.writeQuit(o);
        }
        ByteArrayOutputStream ans = new ByteArrayOutputStream();
        try (DataOutputStream o = new DataOutputStream(ans)) {
            ClangWorkerMain.serve(new DataInputStream(new ByteArrayInputStream(req.toByteArray())), o);
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(ans.toByteArray()));
        assertThat(ClangWire.readHello(in)).isNull();
        return ClangWire.readAnswer(in, r.unitFile(), r.unitText());
    }

    private ClangWire.Request request(Path unit, String text, List<Path> roots) throws Exception {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        Files.write(unit, b);
        return new ClangWire.Request(unit, common, null, List.of("-x", "c++"), b, null, null, Map.of(), roots);
    }

    @Test
    void aComputedIncludeIsJudgedByTheRootsNotByTheirCommonDirectory() throws Exception {
        // a definition beside the roots: inside the common directory, outside the scan
        // (no plain header name: the tree's definitions of a plain name are followed as that include, session 70)
        Files.writeString(common.resolve("other/plugin.h"), "#define PROJ_PLUGIN \"../x.h\"\n");
        Files.writeString(src.resolve("inject.h"), "#ifdef PROJ_PLUGIN\n#include PROJ_PLUGIN\n#endif\n");
        String text = "#include \"inject.h\"\nint f(void) { return 1; }\n";
        ClangUnit withRoots = serve(request(src.resolve("a.cpp"), text, List.of(src, build)));
        assertThat(withRoots.failure()).isNull();
        TreeMacrosReset.forget();
        ClangUnit commonOnly = serve(request(src.resolve("a.cpp"), text, List.of()));
        assertThat(commonOnly.failure()).contains("refused").contains("PROJ_PLUGIN");
    }

    @Test
    void theWorkerItselfRefusesAFileBesideTheRoots() throws Exception {
        Files.writeString(common.resolve("other/secret.h"), "SECRETKEYMATERIAL_abc123\n");
        String text = "#include \"../other/secret.h\"\nint f(void) { return 1; }\n";
        ClangUnit u = serve(request(src.resolve("b.cpp"), text, List.of(src, build)));
        assertThat(u.failure()).startsWith("refused");
        assertThat(u.failure()).doesNotContain("SECRETKEYMATERIAL");
    }
}
