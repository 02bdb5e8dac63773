package dev.numlint.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file made to exhaust libclang, scanned through the real CLI in a process of its own: libclang runs in guarded
 * worker processes (address-space limit, per-file budget), so the file costs only itself (a notice naming the
 * reason), the next file is read by Clang in a fresh worker, the report is complete, and the scan's own process
 * never maps libclang and stays small.
 */
class ClangWorkerHostileTest {
    @TempDir
    Path tmp;

    /**
     * The scans' cache directory, the class's: Clang's precompiled CUDA wrapper headers and the stand-in headers are
     * built by the first scan and found by the others, as by a user's next scan (about 3 s of CPU each, session 27).
     * No file analysis is shared: the analysis cache's key holds the file's absolute path, and each test has a tree
     * of its own, so every test's files are parsed by its own Clang workers.
     */
    @TempDir
    static Path shared;

    /**
     * Memoized instantiations of a three-parameter class template with {@code members} members each: within Clang's
     * template depth, but 80^3 instantiations take gigabytes (with 300 members, fast; without, slowly). The hand-written front end does not instantiate templates.
     */
    static String templateBomb(int n, int members) {
        StringBuilder fields = new StringBuilder();
        for (int i = 0; i < members; i++) fields.append("float f").append(i).append("; ");
        return """
                template <int A, int B, int C> struct G {
                    %s
                    static constexpr unsigned long v = G<A - 1, B, C>::v + G<A, B - 1, C>::v + G<A, B, C - 1>::v;
                };
                template <int B, int C> struct G<0, B, C> { static constexpr unsigned long v = 1; };
                template <int A, int C> struct G<A, 0, C> { static constexpr unsigned long v = 1; };
                template <int A, int B> struct G<A, B, 0> { static constexpr unsigned long v = 1; };
                template <int C> struct G<0, 0, C> { static constexpr unsigned long v = 1; };
                template <int B> struct G<0, B, 0> { static constexpr unsigned long v = 1; };
                template <int A> struct G<A, 0, 0> { static constexpr unsigned long v = 1; };
                template <> struct G<0, 0, 0> { static constexpr unsigned long v = 1; };
                unsigned long total() { return G<%d, %d, %d>::v; }
                __global__ void bombed(unsigned *o, const float *x) { o[threadIdx.x] = (unsigned)x[threadIdx.x]; }
                """
                .formatted(fields, n, n, n);
    }

    /** After a declaration the hand-written parser cannot read, only Clang sees the cast (clang_templates.cu). */
    static final String CLANG_ONLY =
            """
            template <int DIMS, typename T> struct point { T x[DIMS]; };
            template <int DIMS, typename T> static struct point<DIMS, T> moved(struct point<DIMS, T> p, T d);
            __global__ void afterTheDeclaration(unsigned *cell, const float *pos, float half)
            {
                int i = threadIdx.x;
                cell[i] = (unsigned int)ceil(pos[i] - half);
            }
            """;

    record Scan(JsonNode report, long peakRssKb, boolean mappedLibclang, String err) {}

    /** Runs the CLI in a JVM of its own (-j 1: the files in order) and samples its memory and mappings until it ends. */
    private Scan scan(Path repo, String... props) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.add("-Xmx256m");
        cmd.addAll(List.of(props));
        cmd.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                "dev.numlint.cli.Main",
                "scan",
                "--ptx",
                "off",
                "-j",
                "1",
                "--cache-dir",
                shared.resolve("cache").toString(),
                "--format",
                "json",
                "--output",
                tmp.resolve("report.json").toString(),
                repo.toString()));
        Path err = tmp.resolve("stderr.txt");
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(err.toFile())
                .start();
        long peak = 0;
        boolean libclang = false;
        Path status = Path.of("/proc", Long.toString(p.pid()), "status");
        Path maps = Path.of("/proc", Long.toString(p.pid()), "maps");
        while (!p.waitFor(200, TimeUnit.MILLISECONDS)) {
            try {
                for (String l : Files.readAllLines(status)) {
                    if (l.startsWith("VmHWM:")) peak = Math.max(peak, Long.parseLong(l.replaceAll("[^0-9]", "")));
                }
                libclang |= Files.readString(maps).contains("libclang");
            } catch (IOException | RuntimeException ended) {
                // the process ended between the wait and the read
            }
        }
        String log = Files.readString(err);
        assertThat(p.exitValue()).as(log).isIn(0, 1);
        return new Scan(new ObjectMapper().readTree(tmp.resolve("report.json").toFile()), peak, libclang, log);
    }

    private static List<String> notices(JsonNode report, String id) {
        List<String> out = new ArrayList<>();
        for (JsonNode n : report.path("notifications")) {
            if (n.path("id").asText().equals(id))
                out.add(n.path("file").asText() + ": " + n.path("message").asText());
        }
        return out;
    }

    private static List<String> findings(JsonNode report) {
        List<String> out = new ArrayList<>();
        for (JsonNode f : report.path("findings")) {
            out.add(f.path("ruleId").asText() + " " + f.path("file").asText() + ":"
                    + f.path("line").asInt());
        }
        return out;
    }

    @Test
    void aFileThatExhaustsLibclangsMemoryCostsOnlyItselfAndTheScanStaysSmall() throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        Files.writeString(repo.resolve("a_bomb.cu"), templateBomb(80, 300));
        Files.writeString(repo.resolve("b_after.cu"), CLANG_ONLY);
        Scan s = scan(repo, "-Dnumlint.clang.workerMemoryMb=2000", "-Dnumlint.clang.fileBudgetMs=120000");
        assertThat(notices(s.report(), "clang-not-parsed"))
                .as(s.err())
                .containsExactly("a_bomb.cu: not analyzed by Clang: out of memory (the Clang worker is limited to 2000"
                        + " MB of address space, -Dnumlint.clang.workerMemoryMb); left out: Clang's findings of this"
                        + " file (analyzed by the fallback front end, which guesses)");
        // the report is complete: the bombed file's cast (the fallback front end) and the next file's, which only
        // Clang reads (a fresh worker)
        assertThat(findings(s.report())).contains("NL001 a_bomb.cu:13", "NL001 b_after.cu:6");
        assertThat(s.mappedLibclang())
                .as("the scan's own process mapped libclang")
                .isFalse();
        assertThat(s.peakRssKb())
                .as("peak resident memory of the scan's process, KB")
                .isLessThan(600_000);
    }

    /**
     * A header of the tree that includes a FIFO outside it, or one inside it: Clang would open it (and wait for a
     * writer until the file's budget ran out) or read outside the tree. The unit is refused for Clang by its
     * includes' closure, at once, and the fallback front end analyzes it; the next file is Clang's as before.
     */
    @Test
    void aHeaderThatIncludesAFifoIsNotFollowedByClang() throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        Path outside = tmp.resolve("outside.h");
        Process mk = new ProcessBuilder(
                        "mkfifo", outside.toString(), repo.resolve("pipe.h").toString())
                .start();
        org.junit.jupiter.api.Assumptions.assumeTrue(mk.waitFor() == 0, "mkfifo not available");
        Files.createDirectories(repo.resolve("inc"));
        Files.writeString(repo.resolve("inc/out.cuh"), "#pragma once\n#include \"" + outside + "\"\n");
        Files.writeString(repo.resolve("inc/in.cuh"), "#pragma once\n#include \"../pipe.h\"\n");
        String kernel =
                "__global__ void k(unsigned *o, const float *x) { o[threadIdx.x] = (unsigned)x[threadIdx.x]; }\n";
        Files.writeString(repo.resolve("a_out.cu"), "#include \"inc/out.cuh\"\n" + kernel);
        Files.writeString(repo.resolve("a_in.cu"), "#include \"inc/in.cuh\"\n" + kernel);
        Files.writeString(repo.resolve("b_after.cu"), CLANG_ONLY);
        // a budget far below the stall: a file that waited on the FIFO would say "over the per-file budget"
        Scan s = scan(repo, "-Dnumlint.clang.fileBudgetMs=30000");
        assertThat(notices(s.report(), "clang-not-parsed"))
                .as(s.err())
                .containsExactlyInAnyOrder(
                        "a_in.cu: not analyzed by Clang: refused: through inc/in.cuh: #include \"../pipe.h\" is not a"
                                + " regular file; left out: Clang's findings of this file (analyzed by the fallback"
                                + " front end, which guesses)",
                        "a_out.cu: not analyzed by Clang: refused: through inc/out.cuh: #include \"" + outside
                                + "\" names an absolute path outside the scanned tree; left out: Clang's findings of"
                                + " this file (analyzed by"
                                + " the fallback front end, which guesses)");
        assertThat(findings(s.report())).contains("NL001 a_in.cu:2", "NL001 a_out.cu:2", "NL001 b_after.cu:6");
    }

    @Test
    void aFileOverThePerFileBudgetCostsOnlyItself() throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        Files.writeString(repo.resolve("a_bomb.cu"), templateBomb(80, 0));
        Files.writeString(repo.resolve("b_after.cu"), CLANG_ONLY);
        Scan s = scan(repo, "-Dnumlint.clang.fileBudgetMs=8000");
        assertThat(notices(s.report(), "clang-not-parsed"))
                .as(s.err())
                .containsExactly("a_bomb.cu: not analyzed by Clang: over the per-file budget of 8000 ms of CPU time"
                        + " (raise it with JAVA_TOOL_OPTIONS=-Dnumlint.clang.fileBudgetMs=24000 ./numlint scan ...);"
                        + " left out: Clang's"
                        + " findings of this file (analyzed by the fallback front end, which guesses)");
        assertThat(findings(s.report())).contains("NL001 a_bomb.cu:13", "NL001 b_after.cu:6");
        assertThat(s.mappedLibclang()).isFalse();
    }

    @Test
    void aCxx20CudaFileWithTheStandardLibraryIsReadByClang() throws Exception {
        // built with -std=c++20: with the precompiled wrapper headers, <memory> crashed libclang in the worker
        // (SIGSEGV, "the Clang worker ended (exit code 1)"; cornerstone-octree's 41 files)
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        Files.writeString(repo.resolve("a.cu"), "#include <memory>\n" + CLANG_ONLY);
        Files.writeString(
                repo.resolve("compile_commands.json"),
                "[{\"directory\": \"" + repo + "\", \"command\": \"nvcc -std=c++20 -c a.cu -o a.o\","
                        + " \"file\": \"a.cu\"}]");
        Scan s = scan(repo, "-Dnumlint.clang.fileBudgetMs=120000");
        assertThat(notices(s.report(), "clang-not-parsed")).as(s.err()).isEmpty();
        // the cast after the declaration the hand-written parser cannot read: Clang's
        assertThat(findings(s.report())).contains("NL001 a.cu:7");
    }
}
