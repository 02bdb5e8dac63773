package dev.numlint.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ./numlint launcher, run on a copy of itself in a miniature tree with a recording stand-in for mvn and java: two
 * concurrent first runs build once, its own failures never exit with 1, the build's ANSI noise stays out.
 */
class LauncherTest {
    static final Path LAUNCHER = Path.of("../numlint");

    @TempDir
    Path tree;

    record Result(int code, String out, String err) {}

    private Path bin;
    /** The launcher's class-data archives (NUMLINT_CDS_DIR): the user's cache directory, not the tree. */
    private Path cdsDir;

    private String pathOverride;

    private void setUp(String mvnBody) throws IOException {
        assumeTrue(Files.isRegularFile(LAUNCHER) && Files.isExecutable(Path.of("/bin/bash")));
        Files.copy(LAUNCHER, tree.resolve("numlint"), StandardCopyOption.COPY_ATTRIBUTES);
        Files.writeString(
                tree.resolve("pom.xml"),
                "<project>\n  <parent><artifactId>x</artifactId></parent>\n"
                        + "  <artifactId>numlint-parent</artifactId>\n  <version>9.9</version>\n"
                        + "  <modules><module>analyzer</module></modules>\n</project>\n");
        Files.createDirectories(tree.resolve("analyzer/src/main"));
        Files.writeString(tree.resolve("analyzer/pom.xml"), "<project/>\n");
        Files.writeString(tree.resolve("analyzer/src/main/A.java"), "class A {}\n");
        bin = Files.createDirectories(tree.resolve("bin"));
        cdsDir = tree.resolve("home/.cache/numlint/cds");
        script(bin.resolve("mvn"), mvnBody);
        // java: creates the class-data archive it is asked for, else prints its arguments
        script(
                bin.resolve("java"),
                """
                for a in "$@"; do case "$a" in -XX:ArchiveClassesAtExit=*) : > "${a#*=}"; exit 0;; esac; done
                echo "java $*"
                """);
    }

    /** PATH becomes the stand-ins plus the launcher's tools (with or without flock) and nothing else. */
    private void onlyBin(boolean withFlock) throws IOException {
        for (String tool : List.of(
                "sed",
                "find",
                "cksum",
                "cut",
                "readlink",
                "dirname",
                "basename",
                "head",
                "cat",
                "mkdir",
                "rm",
                "mv",
                "touch",
                "flock",
                "sleep",
                "env",
                "bash")) {
            if (tool.equals("flock") && !withFlock) {
                continue;
            }
            for (String d : List.of("/usr/bin", "/bin")) {
                Path t = Path.of(d, tool);
                if (Files.isExecutable(t) && !Files.exists(bin.resolve(tool))) {
                    Files.createSymbolicLink(bin.resolve(tool), t);
                }
            }
        }
        pathOverride = bin.toString();
    }

    private static void script(Path p, String body) throws IOException {
        Files.writeString(p, "#!/usr/bin/env bash\nset -e\n" + body, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private Process start(String... args) throws IOException {
        List<String> cmd =
                new ArrayList<>(List.of("bash", tree.resolve("numlint").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tree.toFile());
        pb.environment().put("PATH", pathOverride != null ? pathOverride : bin + ":/usr/bin:/bin");
        pb.environment().put("JAVA", bin.resolve("java").toString());
        pb.environment().remove("NUMLINT_MVN_ARGS");
        pb.environment().put("NUMLINT_CDS_DIR", cdsDir.toString());
        return pb.start();
    }

    private static Result finish(Process p) throws Exception {
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Result(
                p.exitValue(),
                new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /** mvn stand-in: counts its runs, takes a while, prints Maven 3.8's stray ANSI resets, writes the jar. */
    static final String SLOW_BUILD =
            """
            echo run >> "$PWD/mvn-runs"
            [ -e "$PWD/building" ] && { echo "two builds at once" >&2; exit 1; }
            : > "$PWD/building"
            sleep 2
            mkdir -p analyzer/target && : > analyzer/target/numlint-analyzer-9.9-cli.jar
            rm -f "$PWD/building"
            printf '\\033[0m\\033[0m'
            """;

    @Test
    void concurrentFirstRunsBuildOnce() throws Exception {
        setUp(SLOW_BUILD);
        Process a = start("rules");
        Process b = start("rules");
        Result ra = finish(a);
        Result rb = finish(b);
        assertThat(ra.code()).as(ra.err()).isZero();
        assertThat(rb.code()).as(rb.err()).isZero();
        assertThat(ra.out()).contains("-jar").endsWith("numlint-analyzer-9.9-cli.jar rules\n");
        assertThat(rb.out()).contains("-jar");
        assertThat(Files.readAllLines(tree.resolve("mvn-runs"))).hasSize(1);
        // a later run with nothing changed does not build
        Result again = finish(start("rules"));
        assertThat(again.code()).isZero();
        assertThat(again.err()).isEmpty();
        assertThat(Files.readAllLines(tree.resolve("mvn-runs"))).hasSize(1);
    }

    @Test
    void aScanRunsWithTheSerialCollectorAndValidationWithTheDefaultOne() throws Exception {
        // issue 31: G1, the JVM's default, sizes its heap by the machine; on a 16-core host a 10 MB .ptx took 718 MB
        setUp(SLOW_BUILD);
        Result scan = finish(start("scan", "."));
        assertThat(scan.code()).as(scan.err()).isZero();
        assertThat(scan.out()).contains("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx512m");
        Result validate = finish(start("validate", "."));
        assertThat(validate.code()).as(validate.err()).isZero();
        assertThat(validate.out())
                .contains("-Xmx2g")
                .doesNotContain("UseSerialGC")
                .doesNotContain("TieredStopAtLevel");
        Result both = finish(start("scan", "--validate", "."));
        assertThat(both.out()).doesNotContain("UseSerialGC");
        // the release zip's launchers pass the same options (ReleaseIT runs them)
        Path release = Path.of("src/release/bin");
        assertThat(Files.readString(release.resolve("numlint"))).contains("-XX:+UseSerialGC");
        assertThat(Files.readString(release.resolve("numlint.cmd"))).contains("-XX:+UseSerialGC");
    }

    @Test
    void theClassDataArchiveIsMadeInTheUsersCacheAndNotInTheInstall() throws Exception {
        setUp(SLOW_BUILD);
        Result scan = finish(start("scan", "."));
        assertThat(scan.code()).as(scan.err()).isZero();
        List<Path> archives;
        try (var s = Files.list(cdsDir)) {
            archives = s.toList();
        }
        assertThat(archives).hasSize(1);
        assertThat(archives.get(0).getFileName().toString()).startsWith("scan-").endsWith(".jsa");
        assertThat(scan.out()).contains("-XX:SharedArchiveFile=" + archives.get(0));
        try (var s = Files.walk(tree.resolve("analyzer"))) {
            assertThat(s.filter(p -> p.toString().endsWith(".jsa")).toList()).isEmpty();
        }
        // a cache directory that cannot be made: numlint runs without an archive, and says nothing
        Files.writeString(tree.resolve("home/file"), "");
        cdsDir = tree.resolve("home/file/cds");
        Result without = finish(start("scan", "."));
        assertThat(without.code()).as(without.err()).isZero();
        assertThat(without.err()).isEmpty();
        assertThat(without.out()).contains("-jar").doesNotContain("SharedArchiveFile");
    }

    @Test
    void withoutFlockAMkdirLockSerializesTheBuilds() throws Exception {
        setUp(SLOW_BUILD);
        onlyBin(false);
        List<Process> ps = List.of(start("rules"), start("rules"), start("rules"));
        for (Process p : ps) {
            Result r = finish(p);
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out()).contains("-jar");
        }
        assertThat(Files.readAllLines(tree.resolve("mvn-runs"))).hasSize(1);
        assertThat(tree.resolve("analyzer/target/.numlint-build.lockdir")).doesNotExist();
    }

    @Test
    void aFailedBuildExitsWithThreeNotOne() throws Exception {
        setUp("echo 'BUILD FAILURE' >&2\nexit 1\n");
        Result r = finish(start("scan", "."));
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err()).contains("numlint: error: building numlint-analyzer-9.9-cli.jar failed");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void missingMavenExitsWithThree() throws Exception {
        setUp("exit 0\n");
        Files.delete(bin.resolve("mvn"));
        onlyBin(true);
        Result r = finish(start("rules"));
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err()).contains("Maven (mvn) is not on PATH");
    }

    @Test
    void theRealBuildIsToldNotToPrintAnsiResets() throws IOException {
        // the stand-in cannot show Maven's console library; the launcher passes its switch, and the project's
        // .mvn/jvm.config sets it for every Maven run in the tree (mvn -q verify included)
        assertThat(Files.readString(LAUNCHER)).contains("-Djansi.noreset=true").contains("-Dstyle.color=never");
        assertThat(Files.readString(Path.of("../.mvn/jvm.config"))).contains("-Djansi.noreset=true");
    }
}
