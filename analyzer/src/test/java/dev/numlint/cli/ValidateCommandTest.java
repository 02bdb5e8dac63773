package dev.numlint.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.scan.Analyzers;
import dev.numlint.validation.GpuExecutors;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code numlint validate} and {@code scan --validate} end to end with the real analyzers, on PTX that nvcc 13 made
 * from the validation module's seed kernels (no nvcc needed: a .ptx is its own as-built variant).
 */
class ValidateCommandTest {
    private static final Path SEEDS_PTX = Path.of("../validation/src/test/resources/kernels/seeds.default.ptx");

    @TempDir
    Path dir;

    Path ptx;

    record Run(int code, String out, String err) {}

    @BeforeEach
    void copyKernels() throws IOException {
        ptx = dir.resolve("seeds.ptx");
        Files.copy(SEEDS_PTX, ptx);
    }

    Run run(String... args) {
        CommandLine cmd = Main.commandLine(Analyzers::load);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        return new Run(cmd.execute(args), out.toString(), err.toString());
    }

    @Test
    void confirmsTheWhitePaperContractionAndExitsWithOne() throws IOException {
        Run r = run("validate", "--gpu", "off", "--ptx", "off", "--inputs", "2", "--format", "json", ptx.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        JsonNode report = new ObjectMapper().readTree(r.out());
        assertThat(report.path("environment").path("gpuMode").asText()).isEqualTo("off");
        JsonNode kernels = report.get("kernels");
        List<String> names = new ArrayList<>();
        kernels.forEach(k -> names.add(k.get("kernel").asText()));
        assertThat(names).contains("square_plus");
        for (JsonNode k : kernels) {
            assertThat(k.get("file").asText()).isEqualTo("seeds.ptx");
            for (String field : List.of(
                    "executor",
                    "verdict",
                    "inputs",
                    "elementsCompared",
                    "elementsDiffering",
                    "maxUlp",
                    "meanUlp",
                    "closerToReference",
                    "attribution")) {
                assertThat(k.has(field)).as(field + " in " + k).isTrue();
            }
            if (k.get("kernel").asText().equals("square_plus")) {
                assertThat(k.get("verdict").asText()).isEqualTo("confirmed");
                assertThat(k.get("elementsDiffering").asLong()).isPositive();
                assertThat(k.get("attribution").toString()).contains("NL003");
            }
        }
    }

    @Test
    void writesTheJsonReportToAFile() throws IOException {
        Path out = dir.resolve("reports/validation.json");
        Run r = run(
                "validate",
                "--gpu",
                "off",
                "--ptx",
                "off",
                "--inputs",
                "1",
                "--format",
                "json",
                "--output",
                out.toString(),
                ptx.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        assertThat(new ObjectMapper().readTree(out.toFile()).get("kernels").size())
                .isPositive();
    }

    @Test
    void textReportSummarizesTheVerdicts() {
        Run r = run("validate", "--gpu", "off", "--ptx", "off", "--inputs", "1", ptx.toString());
        assertThat(r.out()).contains("square_plus: confirmed").contains("kernels:");
    }

    @Test
    void scanWithValidateAddsVerdictsToFindings() throws IOException {
        Run r = run(
                "scan",
                "--validate",
                "--gpu",
                "off",
                "--ptx",
                "off",
                "--inputs",
                "1",
                "--fail-on",
                "none",
                "--format",
                "json",
                ptx.toString());
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode findings = new ObjectMapper().readTree(r.out()).get("findings");
        boolean validated = false;
        for (JsonNode f : findings) {
            JsonNode v = f.path("properties").path("validation");
            if (!v.isMissingNode() && "square_plus".equals(f.path("function").asText())) {
                validated = true;
                assertThat(v.get("verdict").asText()).isIn("confirmed", "not-observed");
                assertThat(v.get("kernel").asText()).isEqualTo("square_plus");
            }
        }
        assertThat(validated).as("a square_plus finding carries its verdict").isTrue();
    }

    @Test
    void sarifOfValidatedScanRanksConfirmedResults() throws IOException {
        Run r = run("validate", "--gpu", "off", "--ptx", "off", "--inputs", "1", "--format", "sarif", ptx.toString());
        JsonNode results =
                new ObjectMapper().readTree(r.out()).get("runs").get(0).get("results");
        boolean ranked = false, exceptionsCounted = false, histogram = false;
        for (JsonNode res : results) {
            JsonNode v = res.path("properties").path("validation");
            if ("confirmed".equals(v.path("verdict").asText())) {
                assertThat(res.get("rank").asDouble()).isEqualTo(95.0);
                ranked = true;
                // what the HTML report shows is in the SARIF result too: the attribution table, the command
                assertThat(v.path("attribution").isArray()).as(v.toString()).isTrue();
                assertThat(v.path("build").asText()).contains("PTX file as given");
            }
            if ("NL003".equals(res.path("ruleId").asText())
                    && "confirmed".equals(v.path("verdict").asText())) {
                assertThat(v.path("attribution").toString()).contains("NL003", "unfuse-fma");
                histogram |= v.path("ulpHistogram").isObject()
                        && v.path("ulpHistogram").size() > 0;
            }
            // the floating-point exceptions the as-built run raised on the finding's line (an object, maybe empty)
            if (v.path("floatingPointExceptions").isObject()) exceptionsCounted = true;
        }
        assertThat(ranked).as("a confirmed result is ranked").isTrue();
        assertThat(histogram)
                .as("a confirmed NL003 result carries its ULP histogram")
                .isTrue();
        assertThat(exceptionsCounted)
                .as("validated results carry their exception counts")
                .isTrue();
    }

    @Test
    void gpuRequireWithoutGpuIsAUsageError() {
        assumeTrue(GpuExecutors.find().isEmpty(), "a GPU is present: --gpu require is satisfiable here");
        Run r = run("validate", "--gpu", "require", ptx.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--gpu require");
    }

    @Test
    void badOptionsAreUsageErrors() {
        assertThat(run("validate", "--inputs", "0", ptx.toString()).code()).isEqualTo(2);
        assertThat(run("validate", "--spec", dir.resolve("missing.yml").toString(), ptx.toString())
                        .code())
                .isEqualTo(2);
        assertThat(run("validate", dir.resolve("nope").toString()).code()).isEqualTo(2);
    }

    @Test
    void eachKernelTakesTheLaunchWrittenInItsOwnFile() throws IOException {
        assumeTrue(
                dev.numlint.toolchain.Nvcc.find(null, System.getenv("PATH")).isPresent(),
                "nvcc not found: the .cu files cannot be compiled");
        Path src = Files.createDirectories(dir.resolve("two"));
        String kernel = "__global__ void scale(float *o, float s) { o[threadIdx.x] = o[threadIdx.x] * s + 1.0f; }\n";
        Files.writeString(src.resolve("a.cu"), kernel + "void runA(float *d) { scale<<<1, 32>>>(d, 2.0f); }\n");
        Files.writeString(src.resolve("b.cu"), kernel + "void runB(float *d) { scale<<<1, 64>>>(d, 3.0f); }\n");
        Run r = run("validate", "--gpu", "off", "--inputs", "1", "--format", "json", src.toString());
        JsonNode kernels = new ObjectMapper().readTree(r.out()).path("kernels");
        List<String> seen = new ArrayList<>();
        for (JsonNode k : kernels) {
            String file = k.path("file").asText();
            String source = k.path("launch").path("source").asText();
            seen.add(Path.of(file).getFileName() + " <- " + source);
        }
        assertThat(seen)
                .as(r.out())
                .containsExactlyInAnyOrder(
                        "a.cu <- host code: launch at a.cu:2", "b.cu <- host code: launch at b.cu:2");
    }

    @Test
    void validationCompilesWithTheBuildsCommandsAFindCudaCuBorrowsTheCppEntry() throws IOException {
        assumeTrue(
                dev.numlint.toolchain.Nvcc.find(null, System.getenv("PATH")).isPresent(),
                "nvcc not found: the .cu files cannot be compiled");
        Path src = Files.createDirectories(dir.resolve("proj/src"));
        Path inc = Files.createDirectories(dir.resolve("proj/build/generated"));
        Files.writeString(inc.resolve("cfg.h"), "#define SCALE 2.0f\n");
        Files.writeString(
                src.resolve("k.cu"),
                "#include \"cfg.h\"\n__global__ void scale(float *o) { o[threadIdx.x] = o[threadIdx.x] * SCALE + 1.0f;"
                        + " }\nvoid run(float *d) { scale<<<1, 32>>>(d); }\n");
        Files.writeString(src.resolve("host.cpp"), "int host() { return 0; }\n");
        // FindCUDA's export: only the target's .cpp file, with the configured headers' directory
        Files.writeString(
                dir.resolve("proj/build/compile_commands.json"),
                """
                [{"directory": "%s", "file": "../src/host.cpp",
                  "command": "/usr/bin/c++ -Igenerated -c ../src/host.cpp"}]
                """
                        .formatted(dir.resolve("proj/build").toString().replace("\\", "/")));
        Run r = run(
                "validate",
                "--gpu",
                "off",
                "--all-kernels",
                "--inputs",
                "1",
                "--format",
                "json",
                dir.resolve("proj").toString());
        JsonNode kernels = new ObjectMapper().readTree(r.out()).path("kernels");
        List<String> names = new ArrayList<>();
        for (JsonNode k : kernels)
            names.add(k.path("kernel").asText() + " " + k.path("verdict").asText());
        assertThat(names)
                .as(r.out() + r.err())
                .anySatisfy(n -> assertThat(n).contains("scale").doesNotContain("not-runnable"));
    }

    @Test
    void generatedInputValidationBuildsEveryVariantFromTheUnitsOwnCompileCommand() throws IOException {
        assumeTrue(
                dev.numlint.toolchain.Nvcc.find(null, System.getenv("PATH")).isPresent(),
                "nvcc not found: the .cu files cannot be compiled");
        Path src = Files.createDirectories(dir.resolve("proj/src"));
        Path inc = Files.createDirectories(dir.resolve("proj/include"));
        Files.createDirectories(dir.resolve("proj/build"));
        Files.writeString(inc.resolve("scale.h"), "#ifndef SCALE\n#error SCALE is set by the build\n#endif\n");
        Files.writeString(
                src.resolve("k.cu"),
                "#include \"scale.h\"\n__global__ void scale(float *o, const float *a, const float *b) {\n"
                        + "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  o[i] = a[i] * b[i] + SCALE;\n}\n"
                        + "void run(float *o, const float *a, const float *b) { scale<<<16, 256>>>(o, a, b); }\n");
        // the build's own command: a define the code needs, its include directory, fast math and an architecture
        Files.writeString(
                dir.resolve("proj/build/compile_commands.json"),
                """
                [{"directory": "%s", "file": "../src/k.cu",
                  "command": "/usr/local/cuda/bin/nvcc -DSCALE=3.0f -I../include -I%s -std=c++17 --use_fast_math -arch=sm_80 -c ../src/k.cu -o k.o"}]
                """
                        .formatted(
                                dir.resolve("proj/build").toString().replace("\\", "/"),
                                Files.createDirectories(dir.resolve("outside"))
                                        .toString()
                                        .replace("\\", "/")));
        Run r = run(
                "validate",
                "--gpu",
                "off",
                "--all-kernels",
                "--inputs",
                "1",
                "--format",
                "json",
                dir.resolve("proj").toString());
        JsonNode kernel = null;
        for (JsonNode k : new ObjectMapper().readTree(r.out()).path("kernels"))
            if (k.path("kernel").asText().contains("scale")) kernel = k;
        assertThat(kernel).as(r.out() + r.err()).isNotNull();
        assertThat(kernel.path("verdict").asText()).as(kernel.toString()).isNotEqualTo("not-runnable");
        // the report names the command and where it came from
        assertThat(kernel.path("build").asText())
                .as(kernel.toString())
                .contains("-arch=compute_80", "-DSCALE=3.0f", "--use_fast_math", "-std=c++17", "k.cu")
                .contains("compile_commands.json")
                .doesNotContain("sm_80");
        Map<String, List<String>> flags = new java.util.LinkedHashMap<>();
        for (JsonNode v : kernel.path("variants")) {
            List<String> f = new ArrayList<>();
            v.path("flags").forEach(x -> f.add(x.asText()));
            flags.put(v.path("variant").asText(), f);
        }
        // as-built is the build's command; each variant changes only its own flag
        assertThat(flags.get("as-built"))
                .as(flags.toString())
                .contains("-DSCALE=3.0f", "--use_fast_math", "-std=c++17");
        assertThat(flags.get("strict"))
                .contains(
                        "-DSCALE=3.0f", "-std=c++17", "-fmad=false", "-prec-div=true", "-prec-sqrt=true", "-ftz=false");
        assertThat(flags.get("ftz=false")).as(flags.toString()).isNotNull();
        List<String> onlyFtz = new ArrayList<>(flags.get("ftz=false"));
        onlyFtz.remove("-ftz=false");
        assertThat(onlyFtz).isEqualTo(flags.get("as-built"));
        // the database's paths are validated like every flag: an include directory outside the tree is not passed
        assertThat(kernel.path("notes").toString()).contains("/outside").contains("was not passed to nvcc");
    }
}
