package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
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
 * Session 35: a unit the compilation database compiles more than once with different defines (a lattice-QCD
 * mini-app's double build and its {@code -DUSE_FLOAT} float build) is analyzed again in each variant whose differing
 * defines it uses ({@link BuildVariants}); one that differs only in a name the unit never uses is not.
 */
class BuildVariantsSelectionTest {
    private static BuildContext ctx(String... defines) {
        BuildContext c = BuildContext.defaults();
        for (String d : defines) c.addDefine(d);
        return c;
    }

    @Test
    void theDifferenceNamesTheMacrosAndTheFlags() {
        BuildVariants.Difference d = BuildVariants.difference(ctx("NDEBUG"), ctx("NDEBUG", "USE_FLOAT"));
        assertThat(d.names()).containsExactly("USE_FLOAT");
        assertThat(d.flags()).isEqualTo("-DUSE_FLOAT");
        // -DNAME is NAME=1: no difference
        assertThat(BuildVariants.difference(ctx("SINGLE"), ctx("SINGLE=1")).names())
                .isEmpty();
        d = BuildVariants.difference(ctx("PRECISION=1", "REAL=float"), ctx("REAL=double"));
        assertThat(d.names()).containsExactlyInAnyOrder("PRECISION", "REAL");
        assertThat(d.flags()).contains("-DREAL=double").contains("without -DPRECISION=1");
        assertThat(BuildVariants.difference(ctx(), ctx().addUndefine("NDEBUG")).flags())
                .isEqualTo("-UNDEBUG");
    }

    @Test
    void onlyTheNamesTheUnitOrItsHeadersUseMatter(@TempDir Path dir) throws Exception {
        Path unit = dir.resolve("dslash.c");
        Path header = dir.resolve("precision.h");
        Files.writeString(unit, "#include \"precision.h\"\nreal s; int USE_FLOATX; /* lib_EXPORTSY */\n");
        Files.writeString(header, "#ifdef USE_FLOAT\ntypedef float real;\n#else\ntypedef double real;\n#endif\n");
        List<Path> texts = List.of(unit, header);
        BuildContext first = ctx();
        // tested in the header's #ifdef
        assertThat(BuildVariants.used(BuildVariants.difference(first, ctx("USE_FLOAT")), first, texts, 1 << 20))
                .containsExactly("USE_FLOAT");
        // the unit alone does not test it: the header does
        assertThat(BuildVariants.used(BuildVariants.difference(first, ctx("USE_FLOAT")), first, List.of(unit), 1 << 20))
                .isEmpty();
        // a shared library's export macro that nothing uses (a longer identifier holding it does not count)
        assertThat(BuildVariants.used(BuildVariants.difference(first, ctx("lib_EXPORTS")), first, texts, 1 << 20))
                .isEmpty();
        // a differing name used through another define's value: -DREAL_T=PREC with PREC differing, REAL_T used
        Files.writeString(unit, "REAL_T s;\n");
        BuildContext d = ctx("REAL_T=PREC", "PREC=double");
        assertThat(BuildVariants.used(BuildVariants.difference(d, ctx("REAL_T=PREC", "PREC=float")), d, texts, 1 << 20))
                .containsExactly("PREC");
    }

    @Test
    void theNoticeNamesTheVariantsAnalyzedAndWhyOthersWereNot() {
        String n = BuildVariants.notice(
                ctx("MODEL=1"),
                List.of("-DMODEL=2 (b:3)", "-DMODEL=3 (b:4)", "-DMODEL=4 (b:5)"),
                List.of("-Dm_EXPORTS (b:6)"),
                List.of("-DMODEL=5 (b:7)"));
        assertThat(n)
                .startsWith("the compilation database compiles this file in 6 variants with different defines;"
                        + " analyzed in its first entry's (-DMODEL=1) and again in -DMODEL=2 (b:3), -DMODEL=3 (b:4),"
                        + " -DMODEL=4 (b:5); not analyzed again, what the file compiles does not depend on the defines they"
                        + " change: -Dm_EXPORTS"
                        + " (b:6); not analyzed, over the limit of 3 extra variants per file: -DMODEL=5 (b:7);")
                .endsWith("its headers are analyzed once, in the first variant, and the PTX layer compiles only that");
    }

    /**
     * A shared library's objects beside the static ones ({@code -Dlib_EXPORTS}), a define no file uses: one notice
     * for every file alike, that counts and names them (session 54: 88 notices in one tree).
     */
    @Test
    void variantsThatChangeNothingAreOneNoticeForAllFiles(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        StringBuilder db = new StringBuilder("[");
        for (String name : List.of("d.c", "c.c", "b.c", "a.c")) {
            Files.writeString(src.resolve(name), "double f_" + name.charAt(0) + "(double x) { return x * 2; }\n");
            for (String flags : List.of("", "-Dlib_EXPORTS")) {
                if (db.length() > 1) db.append(",\n");
                String entry = CompileDatabases.of(src, flags, name);
                db.append(entry, 1, entry.length() - 1);
            }
        }
        Files.writeString(src.resolve("compile_commands.json"), db.append("]").toString());
        ScanResult r = Scanner.scan(ScanOptions.builder(src)
                .analyzers(Analyzers.load())
                .cacheDir(dir.resolve("cache"))
                .build());
        assertThat(r.notifications().stream().filter(n -> n.id().equals("build-variants")))
                .singleElement()
                .satisfies(n -> {
                    assertThat(n.file()).isNull();
                    assertThat(n.message())
                            .startsWith("4 files: the compilation database compiles each in 2 variants")
                            .contains("-Dlib_EXPORTS")
                            .endsWith("(a.c, b.c, c.c and 1 more)");
                });
    }

    /** One object per model, five models: three more analyses of the unit, the fifth model's named as capped. */
    @Test
    void atMostThreeMoreVariantsPerUnit(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                src.resolve("model.c"),
                "#if MODEL >= 2\ntypedef float real;\n#else\ntypedef double real;\n#endif\n"
                        + "unsigned bin(real x) { return (unsigned)(x * MODEL); }\n");
        StringBuilder db = new StringBuilder("[");
        for (int m = 1; m <= 5; m++) {
            if (m > 1) db.append(",\n");
            String entry = CompileDatabases.of(src, "-DMODEL=" + m, "model.c");
            db.append(entry, 1, entry.length() - 1);
        }
        Files.writeString(src.resolve("compile_commands.json"), db.append("]").toString());
        ScanResult r = Scanner.scan(ScanOptions.builder(src)
                .analyzers(Analyzers.load())
                .cacheDir(dir.resolve("cache"))
                .build());
        assertThat(r.notifications().stream().filter(n -> n.id().equals("build-variants")))
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .contains("in 5 variants")
                        .contains("analyzed in its first entry's (-DMODEL=1) and again in -DMODEL=2 (")
                        .contains("over the limit of 3 extra variants per file: -DMODEL=5 ("));
        // the float models' conversion, the double model's, as one finding of the written operation
        assertThat(r.findings()).singleElement().satisfies(f -> assertThat(f.ruleId())
                .isEqualTo("NL001"));
    }

    @Test
    void theSuffixKeepsTheMessageOneShortLine() {
        String m = "'sum += plaq[x]': serial float sum, loop at line 7: the error grows with n, order-dependent";
        assertThat(BuildVariants.suffixed(m, "-DUSE_FLOAT")).isEqualTo(m + "; in the build variant -DUSE_FLOAT");
        String longer = "'" + "a".repeat(120) + "': serial float sum, loop at line 7: the error grows with n";
        String s = BuildVariants.suffixed(longer, "-DUSE_FLOAT");
        assertThat(s).contains("; in the build variant -DUSE_FLOAT");
        assertThat(s.length()).isLessThanOrEqualTo(dev.numlint.rules.Quote.MESSAGE);
    }

    private static final Path FIXTURE = Path.of("src/test/resources/fixtures/build-flags/db-precision-variants");

    @Test
    void theFloatBuildIsAnalyzedAndItsOwnFindingsTagged(@TempDir Path cache) {
        for (int pass = 0; pass < 2; pass++) { // the second from the analysis cache: each variant keyed apart
            ScanResult r = Scanner.scan(ScanOptions.builder(FIXTURE)
                    .analyzers(Analyzers.load())
                    .cacheDir(cache)
                    .build());
            List<Finding> tagged = r.findings().stream()
                    .filter(f -> f.properties().containsKey("buildVariant"))
                    .toList();
            assertThat(tagged).singleElement().satisfies(f -> {
                assertThat(f.ruleId()).isEqualTo("NL004");
                assertThat(f.location().startLine()).isEqualTo(9);
                assertThat(f.properties()).containsEntry("buildVariant", "-DUSE_FLOAT");
                assertThat(f.message()).contains("serial float sum").contains("; in the build variant -DUSE_FLOAT");
            });
            // a hazard of both builds once, untagged; the library source analyzed once
            assertThat(r.findings().stream()
                            .filter(f -> f.location().file().endsWith("dslash.c")
                                    && f.location().startLine() == 17))
                    .singleElement()
                    .satisfies(f -> assertThat(f.message()).doesNotContain("build variant"));
            // one written operation, double in one build and float in the other: one finding, which names the other
            assertThat(r.findings().stream()
                            .filter(f -> f.location().file().endsWith("dslash.c")
                                    && f.location().startLine() == 23))
                    .singleElement()
                    .satisfies(f -> assertThat(f.related()).anySatisfy(l -> assertThat(l.message())
                            .startsWith("the same operation in the build variant -DUSE_FLOAT: ")));
            assertThat(r.findings().stream().filter(f -> f.location().file().endsWith("lattice_io.c")))
                    .hasSize(1);
            List<String> notes = r.notifications().stream()
                    .filter(n -> n.id().equals("build-variants"))
                    .map(n -> n.file() + ": " + n.message())
                    .toList();
            assertThat(notes).hasSize(2);
            assertThat(notes).anySatisfy(n -> assertThat(n)
                    .startsWith("src/dslash.c: ")
                    .contains("analyzed in its first entry's (no defines) and again in -DUSE_FLOAT")
                    .contains("headers are analyzed once"));
            assertThat(notes)
                    .anySatisfy(
                            n -> assertThat(n)
                                    .startsWith("src/lattice_io.c: ")
                                    .contains(
                                            "not analyzed again, what the file compiles does not depend on the defines they change: -Dlib_EXPORTS"));
            assertThat(r.notifications().stream().map(Notification::message))
                    .noneMatch(m -> m.contains("build variant") && !m.contains("variants with different defines"));
        }
    }
}
