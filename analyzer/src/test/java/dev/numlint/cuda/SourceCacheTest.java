package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numlint.cli.Main;
import dev.numlint.scan.Analyzers;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The CUDA source front end's per-file analysis cache (issue 26, a re-scan after one changed file): a re-scan reports
 * what the entries hold, byte for byte what a scan without the cache reports; a changed included header invalidates
 * its includer's entry; a damaged entry is a notice and the file is analyzed again.
 */
class SourceCacheTest {
    @TempDir
    Path tmp;

    Path repo;
    Path cache;

    @BeforeEach
    void setUp() throws IOException {
        repo = Files.createDirectories(tmp.resolve("repo")).toRealPath();
        cache = tmp.resolve("cache");
        Files.writeString(repo.resolve("real.h"), "#pragma once\ntypedef float real;\n");
        Files.writeString(
                repo.resolve("k.cu"),
                "#include \"real.h\"\n"
                        + "__global__ void k(const real *a, unsigned *o) {\n"
                        + "    o[threadIdx.x] = (unsigned)a[threadIdx.x];\n"
                        + "}\n");
        Files.writeString(
                repo.resolve("sum.cu"),
                "__global__ void s(const float *a, float *out, int n) {\n"
                        + "    float acc = 0.0f;\n"
                        + "    for (int i = 0; i < n; i++) acc += a[i];\n"
                        + "    atomicAdd(out, acc);\n"
                        + "}\n");
    }

    private String scan(boolean cached) {
        return scan(cached, false);
    }

    private String scan(boolean cached, boolean notes) {
        List<String> a = new ArrayList<>(List.of("scan", "--ptx", "off", "--jobs", "1", "--format", "json"));
        if (notes) a.add("--notes");
        a.addAll(List.of("--cache-dir", cache.toString(), repo.toString()));
        String before = System.getProperty("numlint.cuda.cache");
        System.setProperty("numlint.cuda.cache", String.valueOf(cached));
        try {
            CommandLine cmd = Main.commandLine(Analyzers::load);
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            cmd.setOut(new PrintWriter(out, true));
            cmd.setErr(new PrintWriter(err, true));
            int code = cmd.execute(a.toArray(String[]::new));
            assertThat(code).as(err.toString()).isLessThanOrEqualTo(1);
            return withoutDate(out.toString());
        } finally {
            if (before == null) System.clearProperty("numlint.cuda.cache");
            else System.setProperty("numlint.cuda.cache", before);
        }
    }

    /** The report without its provenance (the date of the scan). */
    private static String withoutDate(String json) {
        try {
            ObjectNode n = (ObjectNode) new ObjectMapper().readTree(json);
            n.remove("provenance");
            return n.toPrettyString();
        } catch (IOException e) {
            throw new AssertionError(json, e);
        }
    }

    private List<Path> entries() throws IOException {
        Path dir = cache.resolve("source");
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
    }

    private static List<String> rules(String report, String file) throws IOException {
        List<String> out = new ArrayList<>();
        for (JsonNode f : new ObjectMapper().readTree(report).path("findings")) {
            if (f.path("file").asText().equals(file)) out.add(f.path("ruleId").asText());
        }
        return out;
    }

    @Test
    void aRescanReportsTheStoredAnalysisByteForByteAndReadsTheEntries() throws IOException {
        String plain = scan(false);
        assertThat(entries()).isEmpty();
        assertThat(rules(plain, "k.cu")).contains("NL001");
        assertThat(rules(plain, "sum.cu")).isNotEmpty();

        String cold = scan(true);
        assertThat(entries()).hasSize(3); // k.cu, sum.cu, real.h
        String warm = scan(true);
        assertThat(cold).isEqualTo(plain);
        assertThat(warm).isEqualTo(plain);

        // the re-scan reports what the entries hold (it does not analyze the files again): an entry whose message is
        // changed shows the changed message
        for (Path e : entries()) {
            String text = Files.readString(e);
            Files.writeString(e, text.replace("\"message\":\"", "\"message\":\"(from the cache) "));
        }
        assertThat(scan(true)).contains("(from the cache) ").isNotEqualTo(plain);
        // without the cache the files are analyzed
        assertThat(scan(false)).isEqualTo(plain);
    }

    @Test
    void aChangedIncludedHeaderInvalidatesItsIncluder() throws IOException {
        scan(true);
        assertThat(entries()).hasSize(3);
        assertThat(rules(scan(true), "k.cu")).contains("NL001");
        // an integer 'real': the conversion to unsigned is no float conversion any more
        Files.writeString(repo.resolve("real.h"), "#pragma once\ntypedef int real;\n");
        String plain = scan(false);
        assertThat(rules(plain, "k.cu")).doesNotContain("NL001");
        assertThat(scan(true)).isEqualTo(plain);
        // and back: the first entry is valid again
        Files.writeString(repo.resolve("real.h"), "#pragma once\ntypedef float real;\n");
        assertThat(rules(scan(true), "k.cu")).contains("NL001");
    }

    @Test
    void aFileReachedOnlyThroughAnIncludeIsKeyedByItsIncludersMacros() throws IOException {
        Path sub = Files.createDirectories(repo.resolve("sub"));
        Files.writeString(sub.resolve("frag.inl"), "__device__ unsigned f(SCALAR x) { return (unsigned)x; }\n");
        Files.writeString(sub.resolve("user.cu"), "#define SCALAR float\n#include \"frag.inl\"\n");
        String plain = scan(false);
        assertThat(rules(plain, "sub/frag.inl")).contains("NL001");
        scan(true);
        assertThat(entries()).hasSize(5); // and sub/user.cu, sub/frag.inl
        assertThat(scan(true)).isEqualTo(plain);
        // the includer's macro changes what the fragment is: its entry is not reused
        Files.writeString(sub.resolve("user.cu"), "#define SCALAR int\n#include \"frag.inl\"\n");
        String integer = scan(false);
        assertThat(rules(integer, "sub/frag.inl")).doesNotContain("NL001");
        assertThat(scan(true)).isEqualTo(integer);
    }

    private static List<String> levels(String report, String file, String rule) throws IOException {
        List<String> out = new ArrayList<>();
        for (JsonNode f : new ObjectMapper().readTree(report).path("findings")) {
            if (f.path("file").asText().equals(file)
                    && f.path("ruleId").asText().equals(rule))
                out.add(f.path("level").asText());
        }
        return out;
    }

    @Test
    void aChangedLaunchInAnotherFileChangesAKernelsFindingsWhoseEntryIsReused() throws IOException {
        Path sub = Files.createDirectories(repo.resolve("wave"));
        Files.writeString(
                sub.resolve("source.cu"),
                "__global__ void add_source(float *p, float t, int at) {\n"
                        + "    p[at] += (1.0 - 2.0 * t * t) * expf(-t * t);\n"
                        + "}\n");
        String launch = "__global__ void add_source(float *p, float t, int at);\n"
                + "void step(float *p, float t, int at, int n) {\n"
                + "    add_source<<<%s>>>(p, t, at);\n"
                + "}\n";
        Files.writeString(sub.resolve("main.cu"), launch.formatted("1, 1"));
        String one = scan(true, true);
        assertThat(levels(one, "wave/source.cu", "NL008")).containsExactly("note");
        assertThat(one).contains("; one thread (main.cu:3)");
        assertThat(scan(true, true)).isEqualTo(one);
        // the launch over a grid: source.cu's entry is reused, its finding no longer names a one-thread launch (a
        // note still: its value decides nothing, session 42)
        Files.writeString(sub.resolve("main.cu"), launch.formatted("(n + 255) / 256, 256"));
        String grid = scan(true, true);
        assertThat(levels(grid, "wave/source.cu", "NL008")).containsExactly("note");
        assertThat(grid).doesNotContain("; one thread (main.cu:3)");
        assertThat(grid).isEqualTo(scan(false, true));
        // and back
        Files.writeString(sub.resolve("main.cu"), launch.formatted("1, 1"));
        assertThat(scan(true, true)).isEqualTo(one);
        // the kernel's file changed, the launching file's entry reused: its launch still counts
        Files.writeString(
                sub.resolve("source.cu"), "// the source wavelet\n" + Files.readString(sub.resolve("source.cu")));
        assertThat(levels(scan(true, true), "wave/source.cu", "NL008")).containsExactly("note");
    }

    @Test
    void aDamagedEntryIsANoticeAndTheFileIsAnalyzedAgain() throws IOException {
        String plain = scan(false);
        scan(true);
        List<Path> entries = entries();
        assertThat(entries).isNotEmpty();
        for (Path e : entries) Files.writeString(e, Files.readString(e).substring(0, 40));
        String damaged = scan(true);
        JsonNode report = new ObjectMapper().readTree(damaged);
        List<String> ignored = new ArrayList<>();
        for (JsonNode n : report.path("notifications")) {
            if (n.path("id").asText().equals("cache-entry-ignored"))
                ignored.add(n.path("file").asText());
        }
        assertThat(ignored).containsExactlyInAnyOrder("k.cu", "sum.cu", "real.h");
        assertThat(report.path("findings"))
                .isEqualTo(new ObjectMapper().readTree(plain).path("findings"));
        // the entries were written again: the next scan is the plain one
        assertThat(scan(true)).isEqualTo(plain);
        // an entry of another file put in the place of this one's is not used either
        List<Path> now = entries();
        Files.copy(now.get(0), now.get(1), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertThat(scan(true)).contains("it is another file's entry");
    }
}
