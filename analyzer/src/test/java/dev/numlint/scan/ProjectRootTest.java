package dev.numlint.scan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Issue 25: a file or subdirectory scanned inside a project gets the project's build context and fingerprints. */
class ProjectRootTest {
    @TempDir
    Path tmp;

    private static JsonNode scan(Path cache, Path... paths) throws IOException {
        List<String> args =
                new ArrayList<>(List.of("scan", "--ptx", "off", "--cache-dir", cache.toString(), "--format", "json"));
        for (Path p : paths) args.add(p.toString());
        CommandLine cmd = Main.commandLine(Analyzers::load);
        StringWriter out = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(new StringWriter(), true));
        cmd.execute(args.toArray(String[]::new));
        return new ObjectMapper().readTree(out.toString());
    }

    /** rule, file, message and fingerprint of each finding in {@code file}. */
    private static List<String> findings(JsonNode report, String file) {
        List<String> out = new ArrayList<>();
        for (JsonNode f : report.path("findings")) {
            String at = f.path("file").asText();
            if (!at.equals(file)) continue;
            out.add(f.path("ruleId").asText() + " " + at + " "
                    + f.path("message").asText() + " " + f.path("fingerprint").asText());
        }
        return out;
    }

    private Path project() throws IOException {
        Path proj = tmp.resolve("proj").toRealPath(); // (created below)
        Files.createDirectories(proj.resolve(".git"));
        Files.createDirectories(proj.resolve("include"));
        Files.createDirectories(proj.resolve("src/deep"));
        Files.writeString(
                proj.resolve("Makefile"),
                """
                NVCCFLAGS := -O3
                here = $(realpath $(dir $(lastword $(MAKEFILE_LIST))))
                NVCCFLAGS += -I$(here)/include -DUSE_FAST
                all: src/deep/k.o
                src/deep/k.o: src/deep/k.cu
                \tnvcc $(NVCCFLAGS) -c $< -o $@
                """);
        Files.writeString(proj.resolve("include/real.h"), "#define REAL float\n");
        Files.writeString(
                proj.resolve("src/deep/k.cu"),
                """
                #include "real.h"
                __global__ void dot(const REAL *a, const REAL *b, REAL *out, int n) {
                    REAL sum = 0;
                #ifdef USE_FAST
                    for (int k = 0; k < n; ++k) {
                        sum += a[k] * b[k];
                    }
                #endif
                    out[threadIdx.x] = sum;
                }
                """);
        return proj;
    }

    @Test
    void aFileOrSubdirectoryScannedInsideAProjectGetsItsBuildContextAndFingerprints() throws IOException {
        Files.createDirectories(tmp.resolve("proj"));
        Path proj = project();
        Path cache = tmp.resolve("cache");
        List<String> whole = findings(scan(cache, proj), "src/deep/k.cu");
        assertThat(whole).as("the define of the Makefile opens the #ifdef").isNotEmpty();
        JsonNode one = scan(cache, proj.resolve("src/deep/k.cu"));
        assertThat(findings(one, "src/deep/k.cu")).isEqualTo(whole);
        assertThat(one.path("notifications").toString())
                .contains("project-build-files")
                .contains("scanned inside the project at " + proj);
        assertThat(findings(scan(cache, proj.resolve("src")), "src/deep/k.cu")).isEqualTo(whole);
    }

    @Test
    void aFileInTheProjectsOwnDirectoryGetsItsBuildFilesToo() throws IOException {
        Path proj = Files.createDirectories(tmp.resolve("flat")).toRealPath();
        Files.writeString(proj.resolve("CMakeLists.txt"), "add_definitions(-DUSE_FAST)\nadd_library(k k.cu)\n");
        Files.writeString(
                proj.resolve("k.cu"),
                """
                __global__ void dot(const float *a, const float *b, float *out, int n) {
                    float sum = 0;
                #ifdef USE_FAST
                    for (int k = 0; k < n; ++k) sum += a[k] * b[k];
                #endif
                    out[threadIdx.x] = sum;
                }
                """);
        Path cache = tmp.resolve("cache");
        List<String> whole = findings(scan(cache, proj), "k.cu");
        assertThat(whole).isNotEmpty();
        assertThat(findings(scan(cache, proj.resolve("k.cu")), "k.cu")).isEqualTo(whole);
        assertThat(ProjectRoot.find(List.of(proj))).isNull();
        assertThat(ProjectRoot.find(List.of(proj.resolve("k.cu")))).isEqualTo(proj);
    }

    @Test
    void theSearchStopsAtARepositoryRootAndAtDirectoriesOthersMayWrite() throws IOException {
        Path outer = Files.createDirectories(tmp.resolve("outer")).toRealPath();
        Files.writeString(outer.resolve("Makefile"), "NVCCFLAGS += -DOUTER\n");
        Path repo = Files.createDirectories(outer.resolve("repo/src"));
        Files.createDirectories(outer.resolve("repo/.git"));
        assertThat(ProjectRoot.find(repo)).as("not above the repository root").isNull();
        Files.writeString(outer.resolve("repo/CMakeLists.txt"), "project(p)\n");
        assertThat(ProjectRoot.find(repo)).isEqualTo(outer.resolve("repo"));

        Path shared = Files.createDirectories(tmp.resolve("shared")).toRealPath();
        Files.writeString(shared.resolve("Makefile"), "NVCCFLAGS += -DPLANTED\n");
        Path mine = Files.createDirectories(shared.resolve("mine/src"));
        assertThat(ProjectRoot.find(mine)).isEqualTo(shared);
        Files.setPosixFilePermissions(shared, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThat(ProjectRoot.find(mine))
                .as("a world-writable directory is never climbed into")
                .isNull();
    }

    @Test
    void aCMakeSubdirectoryBelongsToTheTopOfItsChainOfListFiles() throws IOException {
        Path p = Files.createDirectories(tmp.resolve("cm")).toRealPath();
        Files.createDirectories(p.resolve(".git"));
        Files.createDirectories(p.resolve("cuda/kernels"));
        Files.writeString(p.resolve("CMakeLists.txt"), "add_subdirectory(cuda)\n");
        Files.writeString(p.resolve("cuda/CMakeLists.txt"), "add_library(k kernels/k.cu)\n");
        assertThat(ProjectRoot.find(p.resolve("cuda/kernels"))).isEqualTo(p);
        assertThat(ProjectRoot.find(p.resolve("cuda"))).isEqualTo(p);
        assertThat(ProjectRoot.find(p))
                .as("the scanned directory is the project")
                .isNull();
        // a list file two levels up that adds the directory by its path
        Files.createDirectories(p.resolve("src/lib/kernels"));
        Files.writeString(p.resolve("src/lib/CMakeLists.txt"), "cuda_add_library(l kernels/k.cu)\n");
        assertThat(ProjectRoot.find(p.resolve("src/lib/kernels"))).isEqualTo(p.resolve("src/lib"));
        Files.writeString(p.resolve("CMakeLists.txt"), "add_subdirectory(${PROJECT_SOURCE_DIR}/src/lib)\n");
        assertThat(ProjectRoot.find(p.resolve("src/lib/kernels"))).isEqualTo(p);
    }
}
