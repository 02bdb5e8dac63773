package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Notification;
import dev.numlint.scan.Analyzers;
import dev.numlint.scan.ScanOptions;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.Scanner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Code that the build compiles only through an {@code #include} (issue 26, {@link IncludedSources}): analyzed in its
 * includer's context when the build says which source includes it; otherwise on its own, and a notice names it.
 */
class IncludedSourcesTest {
    private static final String PROTO = "METER(_s) * METER(_create)(unsigned int n)\n"
            + "{\n"
            + "    METER(_s) *q = (METER(_s) *)malloc(sizeof(METER(_s)));\n"
            + "    q->gain = 1.0f / (T)n;\n"
            + "    return q;\n"
            + "}\n"
            + "unsigned int METER(_bin)(METER(_s) * q, T x)\n"
            + "{\n"
            + "    return (unsigned int)(x * q->gain);\n"
            + "}\n";

    private static final String INCLUDER = "#include <stdlib.h>\n"
            + "typedef struct { float gain; } meter_f_s;\n"
            + "#define METER(name) meter_f##name\n"
            + "#define T float\n"
            + "#include \"meter.proto.c\"\n";

    private static final String HEADER = "#ifndef TINY_H\n#define TINY_H\nunsigned char tiny_byte(float v);\n#endif\n"
            + "#ifdef TINY_IMPLEMENTATION\n"
            + "unsigned char tiny_byte(float v)\n"
            + "{\n"
            + "    return (unsigned char)(v * 255.0f);\n"
            + "}\n"
            + "#endif\n";

    private static String db(Path dir, String... files) {
        return CompileDatabases.of(dir, "-O2", files);
    }

    private static ScanResult scan(Path dir) {
        return Scanner.scan(ScanOptions.builder(dir)
                .analyzers(Analyzers.load())
                .cacheDir(dir.resolve(".cache"))
                .build());
    }

    private static List<String> hits(ScanResult r) {
        return r.findings().stream()
                .filter(f -> !f.suppressed())
                .map(f -> f.location().file() + ":" + f.location().startLine() + " " + f.ruleId())
                .toList();
    }

    private static List<Notification> notices(ScanResult r, String id) {
        return r.notifications().stream().filter(n -> n.id().equals(id)).toList();
    }

    @Test
    void aSourceCompiledOnlyThroughAnIncludeIsAnalyzedAsItsIncluderCompilesItOnce(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("meter.proto.c"), PROTO);
        Files.writeString(dir.resolve("meter_a.c"), INCLUDER);
        Files.writeString(dir.resolve("meter_b.c"), INCLUDER.replace("T float", "T double"));
        Files.writeString(dir.resolve("compile_commands.json"), db(dir, "meter_a.c", "meter_b.c"));
        ScanResult r = scan(dir);
        // alone, METER(_bin) is no function either front end reads and the cast was silent; through meter_a.c (the
        // first includer) it is meter_f_bin, reported once although two sources include it
        assertThat(hits(r)).containsExactly("meter.proto.c:9 NL001");
        assertThat(r.findings().get(0).function()).isEqualTo("meter_f_bin");
        assertThat(notices(r, "source-alone")).isEmpty();
        assertThat(r.notifications())
                .noneMatch(n -> n.file() != null && n.file().equals("meter.proto.c"));
    }

    @Test
    void aSourceThatNoCompiledSourceIncludesIsAnalyzedAloneAndANoticeSaysSo(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("meter.proto.c"), PROTO);
        Files.writeString(dir.resolve("meter_a.c"), INCLUDER);
        // no build file: the includer relation is the preprocessor's guess, the file is analyzed on its own as before
        // (its cast stays unreported: neither front end reads METER(_bin) without the includer's macros)
        ScanResult r = scan(dir);
        assertThat(notices(r, "source-alone")).singleElement().satisfies(n -> assertThat(n.message())
                .startsWith("1 source file(s) that a scanned source #includes were analyzed on their own")
                .endsWith(": 1 that no compile command of the build compiles through an include (meter.proto.c)"));
        // a compile database that compiles another source, not the includer: the same
        Files.writeString(dir.resolve("other.c"), "int other(void) { return 0; }\n");
        Files.writeString(dir.resolve("compile_commands.json"), db(dir, "other.c"));
        assertThat(notices(scan(dir), "source-alone")).singleElement().satisfies(n -> assertThat(n.message())
                .endsWith("compiles through an include (meter.proto.c)"));
    }

    @Test
    void anIncludedSourceTheBuildAlsoCompilesOnItsOwnIsNamedSo(@TempDir Path dir) throws Exception {
        // main.cu includes src/network.cu, which has an entry of its own (session 64 round A): the notice does not say
        // that no command compiles it through an include
        Files.writeString(dir.resolve("meter.proto.c"), PROTO);
        Files.writeString(dir.resolve("meter_a.c"), INCLUDER);
        Files.writeString(dir.resolve("compile_commands.json"), db(dir, "meter_a.c", "meter.proto.c"));
        assertThat(notices(scan(dir), "source-alone")).singleElement().satisfies(x -> assertThat(x.message())
                .doesNotContain("through an include")
                .endsWith("also compiles as units of their own, analyzed with their own commands (meter.proto.c)"));
    }

    @Test
    void aHeaderImplementationThatOnlyAnIncluderEnablesIsAnalyzedOnceAtTheHeadersLines(@TempDir Path dir)
            throws Exception {
        Files.writeString(dir.resolve("tiny.h"), HEADER);
        Files.writeString(dir.resolve("user.c"), "#include \"tiny.h\"\nint f(float v) { return tiny_byte(v); }\n");
        Files.writeString(dir.resolve("impl.c"), "#define TINY_IMPLEMENTATION\n#include \"tiny.h\"\n");
        Files.writeString(dir.resolve("impl2.c"), "#define TINY_IMPLEMENTATION\n#include \"tiny.h\"\n");
        Files.writeString(dir.resolve("compile_commands.json"), db(dir, "user.c", "impl.c", "impl2.c"));
        ScanResult r = scan(dir);
        assertThat(hits(r)).containsExactly("tiny.h:8 NL001");
        // analyzed again (a second scan with the same cache): the same, from the cache
        assertThat(hits(scan(dir))).containsExactly("tiny.h:8 NL001");
    }
}
