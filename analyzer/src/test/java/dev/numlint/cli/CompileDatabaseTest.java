package dev.numlint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.scan.Analyzers;
import dev.numlint.testing.RecordingNvcc;
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

/** The build's own compilation database, through the CLI: auto-detection, borrowed entries, host defines. */
class CompileDatabaseTest {
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

    private Run run(String... args) {
        CommandLine cmd = Main.commandLine(Analyzers::load);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        return new Run(cmd.execute(args), out.toString(), err.toString());
    }

    private Run scan(String format, String... extra) {
        List<String> a = new ArrayList<>(List.of("scan", "--ptx", "off", "--format", format));
        a.addAll(List.of(extra));
        a.add(repo.toString());
        return run(a.toArray(String[]::new));
    }

    private static List<String> rules(JsonNode report, String file) {
        List<String> out = new ArrayList<>();
        for (JsonNode f : report.path("findings")) {
            if (f.path("file").asText().equals(file)) out.add(f.path("ruleId").asText());
        }
        return out;
    }

    private static String db(Path dir, String file, String command) {
        return "[{\"directory\": \"" + dir + "\", \"file\": \"" + file + "\", \"command\": \"" + command + "\"}]\n";
    }

    private static final String SSE_CPP =
            """
            #if USE_SSE
            float total(const float *v, int n);
            #else
            long double wideTotal(const double *v, int n)
            {
                long double t = 0;
                for (int i = 0; i < n; ++i) {
                    t += v[i];
                }
                return t;
            }
            #endif
            """;

    @Test
    void definesOfTheBuildDecideIfInCppFiles() throws IOException {
        Files.writeString(repo.resolve("a.cpp"), SSE_CPP);
        Run before = scan("json");
        assertThat(rules(before.json(), "a.cpp")).contains("NL005");
        Path build = Files.createDirectories(repo.resolve("build"));
        Files.writeString(
                build.resolve("compile_commands.json"), db(repo, "a.cpp", "/usr/bin/g++ -DUSE_SSE -O2 -c a.cpp"));
        Run after = scan("json");
        assertThat(rules(after.json(), "a.cpp")).isEmpty();
    }

    /**
     * g++ compiles a .c file as C++ (session 77 round C: a solver's .c files include C++ headers); read as C, Clang
     * stopped at the first C++ construct and the file was left to the fallback front end. {@code -x c} keeps it C.
     */
    @Test
    void aCFileThatGxxCompilesIsReadAsCxx() throws IOException {
        Files.writeString(
                repo.resolve("vis.c"),
                """
                namespace vis {
                inline double scaled(const double &v) { return v * 255.0; }
                }
                unsigned char shade(double v) { return (unsigned char)vis::scaled(v); }
                """);
        Path build = Files.createDirectories(repo.resolve("build"));
        Files.writeString(build.resolve("compile_commands.json"), db(repo, "vis.c", "/usr/bin/g++ -O2 -c vis.c"));
        JsonNode asCxx = scan("json").json();
        assertThat(asCxx.path("notifications").toString()).doesNotContain("clang-error");
        assertThat(rules(asCxx, "vis.c")).contains("NL001");
        Files.writeString(build.resolve("compile_commands.json"), db(repo, "vis.c", "/usr/bin/g++ -x c -O2 -c vis.c"));
        assertThat(scan("json").json().path("notifications").toString()).contains("clang-error");
    }

    @Test
    void theDatabaseOfTheBuildDirectoryIsFoundAndNamed() throws IOException {
        Files.writeString(repo.resolve("a.cpp"), SSE_CPP);
        Path out = Files.createDirectories(repo.resolve("out"));
        Files.writeString(out.resolve("compile_commands.json"), db(repo, "a.cpp", "g++ -DUSE_SSE -c a.cpp"));
        Path ide = Files.createDirectories(repo.resolve("cmake-build-debug"));
        Files.writeString(ide.resolve("compile_commands.json"), db(repo, "a.cpp", "g++ -DOTHER -c a.cpp"));
        Run text = scan("text");
        assertThat(text.out())
                .contains("compilation database: out/compile_commands.json (found automatically")
                .doesNotContain("-DOTHER");
        Run json = scan("json");
        assertThat(json.out()).contains("compilation database: out/compile_commands.json");
        assertThat(json.json().path("notifications").toString())
                .contains("compilation database not used: out/compile_commands.json was found first");
        assertThat(scan("sarif").out()).contains("compilation database: out/compile_commands.json");
        Path html = tmp.resolve("db.html");
        scan("html", "--output", html.toString());
        assertThat(Files.readString(html))
                .contains("<th>Compilation database</th><td>out/compile_commands.json (found automatically");

        // build/ comes before out/
        Path build = Files.createDirectories(repo.resolve("build"));
        Files.writeString(build.resolve("compile_commands.json"), db(repo, "a.cpp", "g++ -DFROM_BUILD -c a.cpp"));
        assertThat(scan("text").out()).contains("compilation database: build/compile_commands.json (found");
        assertThat(rules(scan("json").json(), "a.cpp")).contains("NL005");
    }

    @Test
    void theReportsSayHowManyCuFilesCompiledAndWhyTheOthersDidNot() throws IOException {
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake"))
                .failWhenSourceContains("util.h", "bad.cu(1): fatal error: util.h: No such file or directory");
        Files.createDirectories(repo.resolve("include"));
        Files.writeString(repo.resolve("include/util.h"), "#pragma once\n");
        Files.writeString(repo.resolve("good.cu"), "__global__ void k(float *a) { a[0] = a[0] * a[0] + a[0]; }\n");
        Files.writeString(repo.resolve("bad.cu"), "#include \"util.h\"\n__global__ void b(float *a) { a[0] = 1; }\n");
        String[] common = {
            "--ptx",
            "auto",
            "--nvcc",
            fake.nvcc().toString(),
            "--cache-dir",
            tmp.resolve("c").toString()
        };
        String expected = "PTX layer: 1 of 2 .cu files compiled to PTX; 1 did not compile: header not found, though the"
                + " scanned tree holds it (1); missing headers: util.h (1); next step: configure the project and pass"
                + " -p build";

        Run text = run(concat(new String[] {"scan", "--format", "text"}, common, repo.toString()));
        String[] lines = text.out().strip().split("\n");
        assertThat(lines[lines.length - 1]).as(text.err()).startsWith(expected);

        Run sarif = run(concat(new String[] {"scan", "--format", "sarif"}, common, repo.toString()));
        JsonNode notes =
                sarif.json().path("runs").path(0).path("invocations").path(0).path("toolExecutionNotifications");
        assertThat(notes.toString()).contains(expected);

        Path html = tmp.resolve("r.html");
        run(concat(new String[] {"scan", "--format", "html", "--output", html.toString()}, common, repo.toString()));
        assertThat(Files.readString(html)).contains("<th>Compiler layer</th><td>" + expected);

        // every unit compiles: the line says so
        Files.delete(repo.resolve("bad.cu"));
        Run all = run(concat(new String[] {"scan", "--format", "text"}, common, repo.toString()));
        assertThat(all.out().strip()).endsWith("PTX layer: 1 of 1 .cu file compiled to PTX");
    }

    @Test
    void aBrokenNvccTurnsThePtxLayerOffAndTheReportSaysSo() throws IOException {
        Path notExecutable = Files.writeString(tmp.resolve("nvcc"), "#!/bin/sh\nexit 1\n");
        Files.setPosixFilePermissions(
                notExecutable, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        Files.writeString(repo.resolve("good.cu"), "__global__ void k(float *a) { a[0] = a[0] * a[0] + a[0]; }\n");
        Run text = run(
                "scan",
                "--ptx",
                "auto",
                "--nvcc",
                notExecutable.toString(),
                "--cache-dir",
                tmp.resolve("c").toString(),
                "--format",
                "text",
                repo.toString());
        String[] lines = text.out().strip().split("\n");
        assertThat(lines[lines.length - 1]).as(text.err()).startsWith("PTX layer off: ");
    }

    @Test
    void cudaArchWinsOverTheBuildsArchitectureAndANoteSaysSo() throws IOException {
        // before: --cuda-arch 80 was silently replaced by CMAKE_CUDA_ARCHITECTURES (issue 30)
        Files.writeString(
                repo.resolve("CMakeLists.txt"),
                "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CUDA)\n"
                        + "set(CMAKE_CUDA_ARCHITECTURES 75)\nadd_executable(app k.cu)\n");
        Files.writeString(repo.resolve("k.cu"), "__global__ void k(float *a) { a[0] = a[0] * a[0] + a[0]; }\n");
        for (String arch : new String[] {null, "80"}) {
            RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake" + arch));
            List<String> args = new ArrayList<>(List.of("scan", "--format", "json", "--ptx", "auto"));
            if (arch != null) args.addAll(List.of("--cuda-arch", arch));
            args.addAll(List.of(
                    "--nvcc",
                    fake.nvcc().toString(),
                    "--cache-dir",
                    tmp.resolve("c" + arch).toString(),
                    repo.toString()));
            Run r = run(args.toArray(String[]::new));
            assertThat(fake.compiles()).as(r.err()).singleElement().satisfies(c -> assertThat(c.args())
                    .contains(arch == null ? "-arch=compute_75" : "-arch=compute_80"));
            String notes = r.json().path("notifications").toString();
            if (arch == null) {
                assertThat(notes).doesNotContain("ptx-arch");
            } else {
                assertThat(notes)
                        .contains("PTX compiled for compute_80 as --cuda-arch asks, not for the architecture the build"
                                + " sets: compute_75 (1 file)");
            }
        }
    }

    /**
     * Session 14 evaluation (Quicksilver compiles every .cc with {@code nvcc -x cu -dc}): a C++ source its compile
     * command builds as CUDA is compiled to PTX like a .cu file (before: only .cu files were, and Quicksilver's double
     * atomics in a header's device branch were found by no layer); a C++ source built as host code is not.
     */
    @Test
    void aCppSourceTheBuildCompilesAsCudaGoesToPtxAndAHostOneDoesNot() throws IOException {
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake"));
        Files.writeString(repo.resolve("k.cc"), "__global__ void k(float *a) { a[0] = a[0] * a[0] + a[0]; }\n");
        Files.writeString(repo.resolve("h.cpp"), "float h(float a) { return a * a + a; }\n");
        Files.writeString(
                repo.resolve("compile_commands.json"),
                "[{\"directory\": \"" + repo + "\", \"file\": \"" + repo + "/k.cc\", \"command\": \"nvcc -x cu -dc -c "
                        + repo + "/k.cc\"},\n {\"directory\": \"" + repo + "\", \"file\": \"" + repo
                        + "/h.cpp\", \"command\": \"g++ -c " + repo + "/h.cpp\"}]\n");
        Run r = ptxScan(fake, repo, repo);
        assertThat(r.json().path("notifications").toString())
                .contains("PTX layer: 1 of 1 CUDA source file (1 of them C or C++ sources their compile command builds"
                        + " as CUDA) compiled to PTX")
                .doesNotContain("not valid PTX");
        assertThat(fake.compiles()).singleElement().satisfies(c -> assertThat(c.args())
                .contains("-x", "cu")
                .contains("-rdc=true") // -dc: separate compilation keeps the unit's external device functions
                .anySatisfy(a -> assertThat(a).endsWith("k.cc")));
    }

    /**
     * Session 18 evaluation (ludwig compiles every .c with {@code nvcc -x cu -dc}): a C source its compile command
     * builds as CUDA goes to PTX as a C++ one does (before: none of its units reached PTX, and no notice said so); a C
     * source built by the host compiler does not.
     */
    @Test
    void aCSourceTheBuildCompilesAsCudaGoesToPtxAndAHostOneDoesNot() throws IOException {
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake"));
        Files.writeString(repo.resolve("k.c"), "__global__ void k(float *a) { a[0] = a[0] * a[0] + a[0]; }\n");
        Files.writeString(repo.resolve("h.c"), "float h(float a) { return a * a + a; }\n");
        Files.writeString(
                repo.resolve("compile_commands.json"),
                "[{\"directory\": \"" + repo + "\", \"file\": \"" + repo + "/k.c\", \"command\": \"nvcc -x cu -dc -c "
                        + repo + "/k.c\"},\n {\"directory\": \"" + repo + "\", \"file\": \"" + repo
                        + "/h.c\", \"command\": \"gcc -c " + repo + "/h.c\"}]\n");
        Run r = ptxScan(fake, repo, repo);
        assertThat(r.json().path("notifications").toString())
                .contains("PTX layer: 1 of 1 CUDA source file (1 of them C or C++ sources their compile command builds"
                        + " as CUDA) compiled to PTX");
        assertThat(fake.compiles()).singleElement().satisfies(c -> assertThat(c.args())
                .contains("-x", "cu")
                .anySatisfy(a -> assertThat(a).endsWith("k.c")));
    }

    /**
     * Session 18 evaluation (beagle-lib: kernels4.cu includes "libhmsbeagle/GPU/kernels/kernelsAll.cu" through the
     * root's -I; the database also holds host entries): a .cu file a database unit includes is compiled through it,
     * not given a borrowed host entry and compiled alone (before: a borrowed entry, an nvcc failure on the macro the
     * includer defines, and a source-alone notice).
     */
    @Test
    void aCudaFileADatabaseUnitIncludesThroughItsIncludePathBorrowsNoHostEntry() throws IOException {
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake"));
        Path kernels = Files.createDirectories(repo.resolve("lib/gpu/kernels"));
        Files.writeString(
                kernels.resolve("shared.cu"),
                "__global__ void k(float *a, unsigned *o) { o[0] = (unsigned)(a[0] * WIDTH); }\n");
        Files.writeString(kernels.resolve("k4.cu"), "#define WIDTH 4\n    #include \"lib/gpu/kernels/shared.cu\"\n");
        Files.writeString(repo.resolve("lib/gpu/plugin.cpp"), "float h(float a) { return a * a + a; }\n");
        Files.writeString(
                repo.resolve("compile_commands.json"),
                "[{\"directory\": \"" + kernels + "\", \"file\": \"" + kernels + "/k4.cu\", \"arguments\": [\"nvcc\","
                        + " \"-ptx\", \"./k4.cu\", \"-I" + repo + "\"]},\n {\"directory\": \"" + repo
                        + "/lib/gpu\", \"file\": \"" + repo + "/lib/gpu/plugin.cpp\", \"arguments\": [\"c++\", \"-c\","
                        + " \"plugin.cpp\", \"-I" + repo + "\"]}]\n");
        Run r = ptxScan(fake, repo, repo);
        String notices = r.json().path("notifications").toString();
        assertThat(notices).doesNotContain("borrowed-build-entry").doesNotContain("source-alone");
        assertThat(fake.compiles()).singleElement().satisfies(c -> assertThat(c.args())
                .anySatisfy(a -> assertThat(a).endsWith("k4.cu")));
    }

    /**
     * Session 51 (a wave solver built by make under bear): solver.cu includes solver_kernel.cu, which includes
     * solver_kernel_math.cu; the database also holds host entries. The second level is compiled through the unit too:
     * no borrowed host entry, no "not compiled" note, one nvcc call (before: the math file was borrowed, read alone
     * with Clang errors, and its findings were notes "not compiled by this build configuration").
     */
    @Test
    void aCudaFileIncludedTwoLevelsDownIsCompiledThroughTheUnit() throws IOException {
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake"));
        Path cuda = Files.createDirectories(repo.resolve("cuda"));
        Files.writeString(cuda.resolve("solver.h"), "typedef float Number_t;\n");
        Files.writeString(cuda.resolve("solver.cu"), "#include \"solver.h\"\n#include \"solver_kernel.cu\"\n");
        Files.writeString(
                cuda.resolve("solver_kernel.cu"),
                "__constant__ Number_t kc[4];\n\n#include \"solver_kernel_math.cu\"\n");
        Files.writeString(
                cuda.resolve("solver_kernel_math.cu"),
                "__device__ unsigned quant(Number_t x) { return (unsigned) (x * 255.0f); }\n");
        Files.writeString(repo.resolve("main.cpp"), "int main() { return 0; }\n");
        Files.writeString(
                repo.resolve("compile_commands.json"),
                "[{\"directory\": \"" + repo + "\", \"file\": \"" + cuda + "/solver.cu\", \"arguments\": [\"nvcc\","
                        + " \"-c\", \"cuda/solver.cu\"]},\n {\"directory\": \"" + repo + "\", \"file\": \"" + repo
                        + "/main.cpp\", \"arguments\": [\"/usr/bin/gcc\", \"-c\", \"-x\", \"c++\", \"main.cpp\"]}]\n");
        Run r = ptxScan(fake, repo, repo);
        String notices = r.json().path("notifications").toString();
        assertThat(notices)
                .doesNotContain("borrowed-build-entry")
                .doesNotContain("source-alone")
                .doesNotContain("not-compiled-units");
        assertThat(fake.compiles()).singleElement().satisfies(c -> assertThat(c.args())
                .anySatisfy(a -> assertThat(a).endsWith("solver.cu")));
    }

    @Test
    void aConfiguredHeaderInTheBuildTreeIsFoundThroughTheDatabaseGivenWithMinusP() throws IOException {
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake"));
        Path gen = Files.createDirectories(repo.resolve("build/gen"));
        Files.writeString(gen.resolve("config.h"), "#define USE_WIDE 1\n");
        Files.createDirectories(repo.resolve("src"));
        Files.writeString(
                repo.resolve("src/k.cu"),
                "#include \"config.h\"\n__global__ void k(float *a) { a[0] = a[0] * a[0] + a[0]; }\n");
        Files.writeString(
                repo.resolve("build/compile_commands.json"),
                db(repo.resolve("build"), repo + "/src/k.cu", "nvcc -Igen -c " + repo + "/src/k.cu"));
        Run r = run(concat(
                new String[] {
                    "scan", "--format", "json", "-p", repo.resolve("build").toString()
                },
                new String[] {
                    "--ptx",
                    "auto",
                    "--nvcc",
                    fake.nvcc().toString(),
                    "--cache-dir",
                    tmp.resolve("c").toString()
                },
                repo.toString()));
        JsonNode notes = r.json().path("notifications");
        assertThat(notes.toString())
                .contains("PTX layer: 1 of 1 .cu file compiled to PTX")
                .doesNotContain("include-by-name")
                .doesNotContain("include-not-read");
        assertThat(fake.compiles()).singleElement().satisfies(c -> assertThat(c.args())
                .contains("-I" + gen));
        assertThat(r.out()).contains("compilation database: build/compile_commands.json (given with -p)");
    }

    /**
     * Issue 25: scanning src/ with -p build, a sibling: the configured header in build/gen is read and its -I reaches
     * nvcc (before: "the directory lies outside the scanned tree", the unit failed and its NL001 was not seen).
     */
    @Test
    void theBuildDirectoryGivenWithMinusPIsTrustedBesideTheScannedPath() throws IOException {
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake"));
        Path gen = Files.createDirectories(repo.resolve("build/gen"));
        Files.writeString(gen.resolve("config.h"), "#define SCALE 2.0f\n");
        Files.createDirectories(repo.resolve("src"));
        Files.writeString(
                repo.resolve("src/k.cu"),
                "#include \"config.h\"\n__global__ void k(float *a, unsigned *o) {"
                        + " o[threadIdx.x] = (unsigned)(a[threadIdx.x] * SCALE); }\n");
        Files.writeString(
                repo.resolve("build/compile_commands.json"),
                db(repo.resolve("build"), repo + "/src/k.cu", "nvcc -Igen -c " + repo + "/src/k.cu"));
        Run r = ptxScan(fake, repo.resolve("build"), repo.resolve("src"));
        assertThat(r.json().path("notifications").toString())
                .contains("PTX layer: 1 of 1 .cu file compiled to PTX")
                .doesNotContain("include-not-read")
                .doesNotContain("nvcc-flag-dropped");
        assertThat(fake.compiles()).singleElement().satisfies(c -> assertThat(c.args())
                .contains("-I" + gen.toRealPath()));
    }

    /** Issue 25: an entry's -include (a configured prelude) and -std reach nvcc; before, -include was dropped. */
    @Test
    void anEntrysPreIncludeAndStandardReachNvcc() throws IOException {
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake"));
        Path gen = Files.createDirectories(repo.resolve("build/gen"));
        Files.writeString(gen.resolve("prelude.h"), "#define SCALE 2.0f\n");
        Files.createDirectories(repo.resolve("src"));
        Files.writeString(repo.resolve("src/k.cu"), "__global__ void k(float *a) { a[0] = a[0] * SCALE + a[0]; }\n");
        Files.writeString(
                repo.resolve("build/compile_commands.json"),
                db(
                        repo.resolve("build"),
                        repo + "/src/k.cu",
                        "nvcc -std=c++14 -include gen/prelude.h -c " + repo + "/src/k.cu"));
        Run r = run(
                "scan",
                "--format",
                "json",
                "--ptx",
                "auto",
                "--nvcc",
                fake.nvcc().toString(),
                "--cache-dir",
                tmp.resolve("c").toString(),
                repo.toString());
        assertThat(r.json().path("notifications").toString()).doesNotContain("nvcc-flag-dropped");
        assertThat(fake.compiles()).singleElement().satisfies(c -> assertThat(c.args())
                .contains("-std=c++14")
                .containsSequence(
                        "-include", gen.resolve("prelude.h").toRealPath().toString()));
    }

    /**
     * A host unit's forced include (gcc -include cfg.h): its types reach Clang, so the cast of a float typedef is
     * seen; before, the flag was dropped for .c/.cpp units and Clang read 'real' as unknown. One outside the scanned
     * tree is refused with a notice naming the flag (before: dropped with none).
     */
    @Test
    void aHostUnitsForcedIncludeIsReadAndOneOutsideTheTreeIsNamed() throws IOException {
        Path outside = Files.writeString(tmp.resolve("outside.h"), "typedef float real;\n");
        Files.writeString(repo.resolve("cfg.h"), "typedef float real;\n");
        String body = "unsigned f(real x) { return (unsigned)(x * 2); }\n";
        Files.writeString(repo.resolve("a.c"), body);
        Files.writeString(repo.resolve("b.c"), body);
        Files.writeString(
                repo.resolve("compile_commands.json"),
                "[" + db(repo, "a.c", "cc -include cfg.h -c a.c").strip().replaceAll("^\\[|\\]$", "") + ","
                        + db(repo, "b.c", "cc -include " + outside + " -c b.c")
                                .strip()
                                .replaceAll("^\\[|\\]$", "")
                        + "]");
        Run r = run("scan", "--ptx", "off", "--format", "json", "-p", repo.toString(), repo.toString());
        assertThat(r.json().path("findings").toString()).contains("a.c").contains("NL001");
        assertThat(r.json().path("notifications").toString())
                .contains("the compile command's -include " + outside + " not read and not analyzed")
                .doesNotContain(Files.readString(outside).strip());
    }

    @Test
    void theBuildDirectoryOfAScannedPathBelowTheWorkingDirectoryIsFoundToo() throws IOException {
        // the scan root is then the working directory; the database is looked for in the scanned directory too
        Path proj = Files.createDirectories(Path.of("target", "b25b-autodetect", "proj"))
                .toAbsolutePath()
                .normalize();
        Files.writeString(proj.resolve("a.cpp"), SSE_CPP);
        Path build = Files.createDirectories(proj.resolve("build"));
        Files.writeString(build.resolve("compile_commands.json"), db(proj, "a.cpp", "g++ -DUSE_SSE -c a.cpp"));
        Run text = run("scan", "--ptx", "off", "--format", "text", proj.toString());
        assertThat(text.out()).contains("compilation database: ").contains("proj/build/compile_commands.json (found");
    }

    private static String[] concat(String[] head, String[] mid, String last) {
        List<String> a = new ArrayList<>(List.of(head));
        a.addAll(List.of(mid));
        a.add(last);
        return a.toArray(String[]::new);
    }

    /** A JSON scan of {@code tree} with the compilation database of {@code db}, PTX on through the recording nvcc. */
    private Run ptxScan(RecordingNvcc fake, Path db, Path tree) {
        return run(
                "scan",
                "--format",
                "json",
                "-p",
                db.toString(),
                "--ptx",
                "auto",
                "--nvcc",
                fake.nvcc().toString(),
                "--cache-dir",
                tmp.resolve("c").toString(),
                tree.toString());
    }

    /**
     * A flag a CMake module sets (cmake/Modules/dspTargetProperties.cmake, included through CMAKE_MODULE_PATH) is
     * reported where the module writes it, with the database as evidence: the module runs in its includer's
     * directory, so its own directory, which holds no compiled file, does not make it another project's (session 51:
     * a DSP library's -march=native was reported at the generated database's line).
     */
    @Test
    void aFlagACMakeModuleSetsIsReportedInTheModule() throws IOException {
        Files.createDirectories(repo.resolve("cmake/Modules"));
        Files.createDirectories(repo.resolve("build"));
        Files.writeString(
                repo.resolve("CMakeLists.txt"),
                """
                cmake_minimum_required(VERSION 3.16)
                project(dsp C)
                list(APPEND CMAKE_MODULE_PATH ${CMAKE_CURRENT_SOURCE_DIR}/cmake/Modules)
                include(dspTargetProperties)
                add_library(dsp src/mix.c)
                target_compile_options(dsp PRIVATE ${dsp_release_options})
                """);
        Files.writeString(
                repo.resolve("cmake/Modules/dspTargetProperties.cmake"),
                "set(dsp_release_options -fomit-frame-pointer -march=native)\n");
        Files.createDirectories(repo.resolve("src"));
        Files.writeString(repo.resolve("src/mix.c"), "float mix(float a, float b, float t) { return a * t + b; }\n");
        Files.writeString(
                repo.resolve("build/compile_commands.json"),
                db(
                        repo.resolve("build"),
                        repo.resolve("src/mix.c").toString(),
                        "/usr/bin/cc -O3 -fomit-frame-pointer -march=native -o CMakeFiles/dsp.dir/src/mix.c.o -c "
                                + repo.resolve("src/mix.c")));
        JsonNode report = scan("json", "-p", repo.resolve("build").toString()).json();
        List<String> at = new ArrayList<>();
        for (JsonNode f : report.path("findings")) {
            if (f.path("ruleId").asText().equals("NL003")
                    && f.path("message").asText().startsWith("-march"))
                at.add(f.path("file").asText() + " " + f.path("level").asText());
        }
        // (a note since session 70: -march=native only changes how host code rounds, and mix.c tests no NaN)
        assertThat(at).containsExactly("cmake/Modules/dspTargetProperties.cmake note");
    }

    /**
     * Session 51 (a texture decompressor's Makefile: {@code OPTCFLAGS += -Ofast -ffast-math}, built under bear): the
     * two flags of one line are one NL002 and one NL006 finding, at the Makefile, and none at the database's line
     * (before: two of each at the Makefile; with a first attempt, one at the Makefile and one at the database).
     */
    @Test
    void twoFastMathFlagsOnOneMakefileLineAreOneFindingPerRule() throws IOException {
        Files.writeString(
                repo.resolve("Makefile"),
                "CFLAGS = -O2\nCFLAGS += -Ofast -ffast-math\nall: d.o\nd.o: d.c\n\tgcc $(CFLAGS) -c d.c -o d.o\n");
        Files.writeString(repo.resolve("d.c"), "float inv(float a, float b) { return a / b; }\n");
        Files.writeString(
                repo.resolve("compile_commands.json"),
                db(repo, repo.resolve("d.c").toString(), "gcc -O2 -Ofast -ffast-math -c d.c -o d.o"));
        JsonNode report = scan("json", "-p", repo.toString()).json();
        List<String> at = new ArrayList<>();
        for (JsonNode f : report.path("findings")) {
            String rule = f.path("ruleId").asText();
            // every level: since session 70 host fast-math is a note where no NaN test folds (FlagHazard)
            if (rule.equals("NL002") || rule.equals("NL006"))
                at.add(rule + " " + f.path("file").asText() + ":"
                        + f.path("line").asInt());
        }
        assertThat(at).containsExactlyInAnyOrder("NL002 Makefile:2", "NL006 Makefile:2");
    }
}
