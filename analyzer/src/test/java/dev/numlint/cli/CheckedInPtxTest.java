package dev.numlint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.scan.Analyzers;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A checked-in .ptx scanned through the command line (issue #30): its findings land in the source file its debug
 * lines name, so an excluded directory and a stale .ptx decide what is reported. No nvcc runs ({@code --ptx off}
 * compiles nothing; checked-in PTX is still read).
 */
class CheckedInPtxTest {
    /** The kernel at dbt/k.cu: the conversion is written at line 4, column 5. */
    private static final String KERNEL =
            "// reconstruction\n__global__ void k(float* a, unsigned* o)\n{\n" + "    o[0] = (unsigned) a[0];\n}\n";

    private static final String PTX = ".version 8.0\n.target sm_80\n.address_size 64\n"
            + ".visible .entry _Z1kPfPj(.param .u64 p, .param .u64 q) {\n"
            + " .reg .f32 %f<2>; .reg .b32 %r<2>; .reg .b64 %rd<3>;\n .loc 1 3 0\n ld.param.u64 %rd1, [p];\n"
            + " ld.param.u64 %rd2, [q];\n .loc 1 4 5\n ld.global.f32 %f1, [%rd1];\n cvt.rzi.u32.f32 %r1, %f1;\n"
            + " st.global.u32 [%rd2], %r1;\n ret;\n}\n .file 1 \"dbt/k.cu\"\n";

    @TempDir
    Path tmp;

    Path repo;

    record Run(int code, String out, String err) {
        JsonNode json() throws IOException {
            return new ObjectMapper().readTree(out);
        }
    }

    @BeforeEach
    void setUp() throws IOException {
        repo = Files.createDirectories(tmp.resolve("repo")).toRealPath();
        Files.createDirectories(repo.resolve("dbt"));
        Files.createDirectories(repo.resolve("build"));
        Files.writeString(repo.resolve("dbt/k.cu"), KERNEL);
        Files.writeString(repo.resolve("build/k.ptx"), PTX);
    }

    private Run scan(String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "scan", "--ptx", "off", "--cache-dir", tmp.resolve("cache").toString(), "--format", "json"));
        args.addAll(List.of(extra));
        args.add(repo.toString());
        CommandLine cmd = Main.commandLine(Analyzers::load);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        return new Run(cmd.execute(args.toArray(String[]::new)), out.toString(), err.toString());
    }

    private static List<String> findings(JsonNode report) {
        List<String> out = new ArrayList<>();
        for (JsonNode f : report.path("findings")) {
            out.add(f.path("ruleId").asText() + " " + f.path("file").asText() + ":"
                    + f.path("line").asText());
        }
        return out;
    }

    private static List<String> notices(JsonNode report, String id) {
        List<String> out = new ArrayList<>();
        for (JsonNode n : report.path("notifications")) {
            if (n.path("id").asText().equals(id)) {
                out.add(n.path("file").asText() + ": " + n.path("message").asText());
            }
        }
        return out;
    }

    @Test
    void findingsThePtxMapsIntoAnExcludedDirectoryAreDropped() throws IOException {
        Run all = scan();
        assertThat(findings(all.json())).as(all.out()).contains("NL001 dbt/k.cu:4");

        Run excluded = scan("--exclude", "dbt/**");
        assertThat(findings(excluded.json())).as(excluded.out()).isEmpty();
        assertThat(excluded.code()).as(excluded.err()).isZero();
        // a name glob (any depth) excludes the directory too
        Run byName = scan("--exclude", "dbt");
        assertThat(findings(byName.json())).as(byName.out()).isEmpty();
    }

    @Test
    void anExcludeRelativeToTheFirstOfTwoScannedPathsDropsTheFindingsOfAnIncludedHeader() throws IOException {
        // a second scanned path moves the scan root above the first (session 57: a reviewer added a directory of stub
        // headers, and a vendored header's findings, reported through the unit that includes it, came back)
        Files.createDirectories(repo.resolve("common"));
        Files.writeString(
                repo.resolve("common/conv.h"), "static inline unsigned toBin(float x) { return (unsigned) x; }\n");
        Files.writeString(
                repo.resolve("main.c"), "#include \"common/conv.h\"\nunsigned bin(float v) { return toBin(v); }\n");
        Files.delete(repo.resolve("build/k.ptx"));
        Files.delete(repo.resolve("dbt/k.cu"));
        Path stubs = Files.createDirectories(tmp.resolve("stubs"));
        Files.writeString(stubs.resolve("stub.h"), "#define STUB 1\n");
        assertThat(findings(scan().json()))
                .as("the header's conversion is reported when nothing is excluded")
                .contains("NL001 common/conv.h:1");
        List<String> args = new ArrayList<>(List.of(
                "scan", "--ptx", "off", "--cache-dir", tmp.resolve("cache2").toString(), "--format", "json"));
        args.addAll(List.of("--exclude", "common/**", repo.toString(), stubs.toString()));
        CommandLine cmd = Main.commandLine(Analyzers::load);
        StringWriter out = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(new StringWriter(), true));
        cmd.execute(args.toArray(String[]::new));
        JsonNode report = new ObjectMapper().readTree(out.toString());
        assertThat(report.path("provenance").path("root").asText())
                .isEqualTo(tmp.toRealPath().toString());
        assertThat(findings(report)).as(out.toString()).noneMatch(f -> f.contains("conv.h"));
    }

    @Test
    void aStalePtxGivesOnlyItsNotice() throws IOException {
        assertThat(scan().code()).isEqualTo(1); // the unguarded conversion is an error
        // the cast replaced by the saturating intrinsic and a line inserted above: .loc 1 4 5 is past the end of
        // line 4 ("{") now, and the PTX still holds the old cast
        Files.writeString(
                repo.resolve("dbt/k.cu"), "// a\n" + KERNEL.replace("(unsigned) a[0]", "__float2uint_rn(a[0])"));
        Run stale = scan();
        assertThat(notices(stale.json(), "ptx-stale")).singleElement().satisfies(n -> assertThat(n)
                .startsWith("build/k.ptx: build/k.ptx does not match dbt/k.cu"));
        // nothing from the stale PTX (its cast at the old line 4); the source layer's note on the intrinsic (session
        // 36: a saturating conversion, NL001 at note level)
        assertThat(findings(stale.json())).as(stale.out()).containsExactly("NL001 dbt/k.cu:5");
        assertThat(stale.json().path("findings").get(0).path("layer").asText()).isEqualTo("cuda-source");
        assertThat(stale.json().path("findings").get(0).path("level").asText()).isEqualTo("note");
        assertThat(stale.code()).as(stale.err()).isZero();
    }

    @Test
    void aPtxTheBuildWritesWithoutLineInformationStandsForItsSource() throws IOException {
        // mumax3's Makefile: nvcc -ptx kernel.cu -o kernel_80.ptx, no -lineinfo; the source's findings already say
        // what that PTX would, at lines the PTX cannot name
        String noLines = PTX.replaceAll(" \\.loc [0-9 ]+\n", "").replace(" .file 1 \"dbt/k.cu\"\n", "");
        Files.writeString(repo.resolve("build/k_80.ptx"), noLines);
        Files.writeString(repo.resolve("build/other.ptx"), noLines.replace("_Z1kPfPj", "_Z1jPfPj"));
        Files.delete(repo.resolve("build/k.ptx"));
        Files.writeString(
                repo.resolve("build/compile_commands.json"),
                "[{\"directory\": \"" + repo.resolve("build") + "\", \"file\": \"../dbt/k.cu\", \"arguments\": "
                        + "[\"nvcc\", \"-ptx\", \"-arch=compute_80\", \"../dbt/k.cu\", \"-o\", \"k_80.ptx\"]}]\n");
        Run run = scan("-p", repo.resolve("build").toString());
        // the source's conversion once; the PTX no command writes is still read on its own
        assertThat(findings(run.json()))
                .as(run.out())
                .containsExactlyInAnyOrder("NL001 dbt/k.cu:4", "NL001 build/other.ptx:9");
        assertThat(notices(run.json(), "ptx-build-output")).singleElement().satisfies(n -> assertThat(n)
                .startsWith("build/k_80.ptx: not analyzed on its own: the build writes it from dbt/k.cu "
                        + "(build/compile_commands.json:1)"));
        // with its line information it joins the source's finding: read as before
        Files.writeString(repo.resolve("build/k_80.ptx"), PTX);
        Run withLines = scan("-p", repo.resolve("build").toString());
        assertThat(notices(withLines.json(), "ptx-build-output")).isEmpty();
        assertThat(findings(withLines.json())).as(withLines.out()).contains("NL001 dbt/k.cu:4");
    }
}
