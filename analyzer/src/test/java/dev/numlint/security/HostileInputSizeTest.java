package dev.numlint.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.cli.Main;
import dev.numlint.scan.Analyzers;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Hostile input sizes through the real CLI (issue 31, items 5 and 6): one huge function, a huge or deeply nested
 * PTX, and validation inputs that ask for gigabytes each cost only their own file or kernel, with a notice or a
 * "not runnable: too large" verdict, and the rest of the report stays intact. The big inputs are generated here;
 * the budgets are lowered through their system properties so that the tests stay fast.
 */
class HostileInputSizeTest {
    private static final Path SEEDS_PTX = Path.of("../validation/src/test/resources/kernels/seeds.default.ptx");

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
    }

    @AfterEach
    void clearBudgets() {
        System.clearProperty("numlint.cuda.fileBudgetMs");
        System.clearProperty("numlint.clang.factsBudgetMs");
        System.clearProperty("numlint.cuda.maxFunctionTokens");
        System.clearProperty("numlint.ptx.fileBudgetMs");
        System.clearProperty("numlint.clang.both");
    }

    private Run run(String... args) {
        CommandLine cmd = Main.commandLine(Analyzers::load);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        return new Run(cmd.execute(args), out.toString(), err.toString());
    }

    private static List<JsonNode> notifications(JsonNode report) {
        List<JsonNode> out = new ArrayList<>();
        report.path("notifications").forEach(out::add);
        return out;
    }

    /** One kernel of {@code lines} statements (a long accumulation chain, as generated code has). */
    private static String longKernel(int lines) {
        StringBuilder b = new StringBuilder("__global__ void k(float *a, int *idx, int n) {\n")
                .append("  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  float s = 0.0f;\n");
        for (int j = 0; j < lines; j++) {
            switch (j % 5) {
                case 0 -> b.append("  float v")
                        .append(j)
                        .append(" = a[i] * ")
                        .append(j)
                        .append(".5f + s;\n");
                case 1 -> b.append("  s += v").append(j - 1).append(" / (a[i+1] + 1.0f);\n");
                case 2 -> b.append("  if (s > ")
                        .append(j)
                        .append(".0f) s = s - v")
                        .append(j - 2)
                        .append(";\n");
                case 3 -> b.append("  idx[i] = (int)(s * ").append(j).append(".25f);\n");
                default -> b.append("  for (int t")
                        .append(j)
                        .append(" = 0; t")
                        .append(j)
                        .append(" < n; t")
                        .append(j)
                        .append("++) s += a[t")
                        .append(j)
                        .append("] * 0.1f;\n");
            }
        }
        return b.append("  a[i] = s;\n}\n__global__ void after(float *a) { a[0] = a[0] * a[0] + a[0]; }\n")
                .toString();
    }

    @Test
    void oneFunctionPastTheCudaBudgetIsStoppedInsideAndReported() throws IOException {
        // before: the budget was looked at only between functions, so one huge kernel ran to its end
        Files.writeString(repo.resolve("big.cu"), longKernel(3000));
        System.setProperty("numlint.cuda.fileBudgetMs", "30");
        // the hand-written front end's budget is met where it analyzes a function; by default Clang's facts decide
        // a function Clang saw whole (ClangDecides): both front ends on every function here
        System.setProperty("numlint.clang.both", "true");
        // and Clang's facts of the functions the hand-written front end left: before, no budget at all (90 s in one
        // quadratic fact for this file, session 30)
        System.setProperty("numlint.clang.factsBudgetMs", "30");
        Run r = run("scan", "--ptx", "off", "--format", "json", repo.toString());
        assertThat(r.code()).as(r.err()).isIn(0, 1);
        List<JsonNode> over = notifications(r.json()).stream()
                .filter(n -> n.path("id").asText().equals("over-budget"))
                .toList();
        assertThat(over).as(r.out()).hasSize(2);
        assertThat(over).allSatisfy(n -> assertThat(n.path("file").asText()).isEqualTo("big.cu"));
        List<String> messages =
                over.stream().map(n -> n.path("message").asText()).sorted().toList();
        assertThat(messages.get(1))
                .contains("function 'k' (line 1) not fully analyzed and 1 function not analyzed")
                .contains("per-file budget of 30 ms");
        assertThat(messages.get(0))
                // two budgets of 30 ms: one more for each 100 KB of the file's text (this one has some 115 KB)
                .contains("Clang's facts of the file took longer than their per-file budget of 60 ms")
                .contains("2 functions that only Clang read not analyzed ('k' (line 1), 'after' (line 3006))");
        // stopped inside the function: the notice says so (no wall-clock assertion: this machine's load decides
        // those; bench/hostile-sizes.sh times it)
    }

    @Test
    void aFunctionPastTheTokenLimitIsANoticeAndTheRestOfTheFileIsAnalyzed() throws IOException {
        // before: any function was parsed whole, its parse tree held in memory (1.3 GB for 100,000 lines)
        Files.writeString(repo.resolve("big.cu"), longKernel(300));
        System.setProperty("numlint.cuda.maxFunctionTokens", "2000");
        // the hand-written parser's limit: both front ends on every function (by default Clang's facts decide 'k')
        System.setProperty("numlint.clang.both", "true");
        Run r = run("scan", "--ptx", "off", "--format", "json", repo.toString());
        assertThat(r.code()).as(r.err()).isIn(0, 1);
        List<JsonNode> over = notifications(r.json()).stream()
                .filter(n -> n.path("id").asText().equals("over-budget"))
                .toList();
        assertThat(over).as(r.out()).hasSize(1);
        assertThat(over.get(0).path("message").asText())
                .matches("function 'k' \\(line 1\\) not analyzed: [0-9]+ tokens, more than the CUDA front end's limit"
                        + " of 2000 per function .*; the rest of the file was analyzed");
        List<String> functions = new ArrayList<>();
        r.json().path("findings").forEach(f -> functions.add(f.path("function").asText()));
        assertThat(functions).isNotEmpty().containsOnly("after");
    }

    @Test
    void ptxNestedOneHundredThousandBracesDeepIsANoticeNotAStackOverflow() throws IOException {
        // before: StackOverflowError in the parser, an internal error, exit 3
        Files.writeString(
                repo.resolve("deep.ptx"),
                ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n" + "{".repeat(100_000)
                        + "}".repeat(100_000) + "\n");
        Files.copy(SEEDS_PTX, repo.resolve("seeds.ptx"));
        Run r = run("scan", "--format", "json", repo.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        JsonNode deep = notifications(r.json()).stream()
                .filter(n -> n.path("file").asText().equals("deep.ptx"))
                .findFirst()
                .orElseThrow();
        assertThat(deep.path("id").asText()).isEqualTo("parse-error");
        assertThat(deep.path("message").asText()).contains("nested deeper than 256");
        // the scan went on: the other PTX file has its findings
        assertThat(r.json().path("findings").toString()).contains("seeds.ptx");
    }

    @Test
    void aPtxPastItsBudgetIsReportedNotAnalyzed() throws IOException {
        // before: no budget at all for the PTX reader (a 10 MB file took minutes and gigabytes)
        StringBuilder b =
                new StringBuilder(".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
                        + ".reg .f32 %f<200000>;\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [p];\n"
                        + "cvta.to.global.u64 %rd2, %rd1;\nld.global.f32 %f0, [%rd2];\n");
        for (int j = 1; j < 60_000; j++) {
            b.append("fma.rn.f32 %f")
                    .append(j)
                    .append(", %f")
                    .append(j - 1)
                    .append(", 0f3F800000, %f")
                    .append(j - 1)
                    .append(";\n");
        }
        b.append("st.global.f32 [%rd2], %f59999;\nret;\n}\n");
        Files.writeString(repo.resolve("big.ptx"), b);
        System.setProperty("numlint.ptx.fileBudgetMs", "1");
        Run r = run("scan", "--format", "json", repo.toString());
        assertThat(r.code()).as(r.err()).isIn(0, 1);
        JsonNode over = notifications(r.json()).stream()
                .filter(n -> n.path("id").asText().equals("over-budget"))
                .findFirst()
                .orElseThrow();
        assertThat(over.path("file").asText()).isEqualTo("big.ptx");
        assertThat(over.path("message").asText()).contains("per-file budget of 1 ms");
    }

    /** seeds.ptx and host code launching square_plus with the given first allocation. */
    private void hostLaunch(String allocation) throws IOException {
        Files.copy(SEEDS_PTX, repo.resolve("seeds.ptx"));
        Files.writeString(
                repo.resolve("main.cu"),
                "__global__ void square_plus(float* a, float* b, float* c, int n);\n"
                        + "int main() {\n  float *a, *b, *c;\n  cudaMalloc(&a, " + allocation + ");\n"
                        + "  cudaMalloc(&b, 1024 * sizeof(float));\n  cudaMalloc(&c, 1024 * sizeof(float));\n"
                        + "  square_plus<<<4, 256>>>(a, b, c, 1024);\n  return 0;\n}\n");
    }

    private JsonNode kernel(JsonNode report, String name) {
        for (JsonNode k : report.path("kernels")) if (k.path("kernel").asText().equals(name)) return k;
        throw new AssertionError("no kernel " + name + " in " + report);
    }

    private Run validate() {
        return run(
                "validate",
                "--gpu",
                "off",
                "--ptx",
                "off",
                "--nvcc",
                tmp.resolve("no-nvcc").toString(),
                "--all-kernels",
                "--inputs",
                "1",
                "--format",
                "json",
                repo.toString());
    }

    @Test
    void aNegativeCudaMallocCostsOnlyItsKernelsVerdict() throws IOException {
        // before: IllegalArgumentException (capacity < 0) ended validate with exit 3 and no report at all
        hostLaunch("-4");
        Run r = validate();
        assertThat(r.code()).as(r.err()).isIn(0, 1);
        JsonNode sq = kernel(r.json(), "square_plus");
        assertThat(sq.path("verdict").asText()).isEqualTo("not-runnable");
        assertThat(sq.path("reason").asText()).startsWith("too large: ").contains("negative length");
        // the other kernels of the file are validated as before
        assertThat(kernel(r.json(), "to_ushort").path("verdict").asText()).isNotEqualTo("not-runnable");
    }

    @Test
    void aTerabyteCudaMallocIsTooLargeNotGigabytesOfHeap() throws IOException {
        // before: the buffer was clamped to 1 GiB and copied per build: 4.5 GB and minutes
        hostLaunch("1ULL << 40");
        long t0 = System.nanoTime();
        Run r = validate();
        assertThat(r.code()).as(r.err()).isIn(0, 1);
        JsonNode sq = kernel(r.json(), "square_plus");
        assertThat(sq.path("verdict").asText()).isEqualTo("not-runnable");
        assertThat(sq.path("reason").asText()).startsWith("too large: ").contains("array arguments");
        assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(20_000);
    }

    @Test
    void gigabytesOfSharedOrLocalMemoryInAPtxAreTooLarge() throws IOException {
        // before: 2 GB of .shared/.local ran for more than ten minutes with 4.8 GB
        Files.copy(SEEDS_PTX, repo.resolve("seeds.ptx"));
        String kernel = ".version 7.0\n.target sm_70\n.address_size 64\n"
                + ".visible .entry big(.param .u64 big_param_0)\n{\n.reg .b64 %rd<3>;\n.reg .f32 %f<2>;\n"
                + "SPACE\nld.param.u64 %rd1, [big_param_0];\ncvta.to.global.u64 %rd2, %rd1;\n"
                + "ld.global.f32 %f1, [%rd2];\nst.global.f32 [%rd2], %f1;\nret;\n}\n";
        Files.writeString(repo.resolve("shared.ptx"), kernel.replace("SPACE", ".shared .align 4 .b8 s[2000000000];"));
        Files.writeString(
                repo.resolve("local.ptx"),
                kernel.replace("big", "biglocal").replace("SPACE", ".local .align 4 .b8 l[2000000000];"));
        Run r = validate();
        assertThat(r.code()).as(r.err()).isIn(0, 1);
        for (String k : List.of("big", "biglocal")) {
            JsonNode big = kernel(r.json(), k);
            assertThat(big.path("verdict").asText()).isEqualTo("not-runnable");
            assertThat(big.path("reason").asText()).startsWith("too large: ");
        }
        assertThat(kernel(r.json(), "square_plus").path("verdict").asText()).isEqualTo("confirmed");
    }

    @Test
    void aBadSpecFileIsAUsageErrorNamingTheFile() throws IOException {
        // before: the YAML error escaped as an internal error, exit 3
        Files.copy(SEEDS_PTX, repo.resolve("seeds.ptx"));
        Path spec = tmp.resolve("bad-spec.yml");
        Files.writeString(spec, "kernels:\n  - kernel: square_plus\n    nonsense: [1, 2\n");
        Run r = run("validate", "--gpu", "off", "--ptx", "off", "--spec", spec.toString(), repo.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--spec: file '" + spec + "' is not a valid spec: ");
    }
}
