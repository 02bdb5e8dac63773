package dev.numlint.toolchain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GuardedProcessTest {
    @TempDir
    Path tmp;

    private Path script(String name, String body) throws IOException {
        Path p = tmp.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    @Test
    void theChildGetsAReducedEnvironmentAndAPrivateDirectory() throws IOException {
        assumeTrue(System.getenv("NUMLINT_TEST_SECRET") != null, "the build sets NUMLINT_TEST_SECRET for tests");
        Path env = script("showenv", "pwd; env");
        GuardedProcess.Result r = GuardedProcess.run(GuardedProcess.builder(env)
                .tempParent(tmp.resolve("cache"))
                .binDir(Path.of("/opt/toolkit/bin"))
                .timeout(Duration.ofSeconds(20)));
        assertThat(r.ok()).isTrue();
        List<String> lines = r.output().lines().toList();
        String cwd = lines.get(0);
        assertThat(cwd).startsWith(tmp.resolve("cache").toString() + "/numlint-run-");
        Set<String> names = lines.stream()
                .skip(1)
                .filter(l -> l.contains("="))
                .map(l -> l.substring(0, l.indexOf('=')))
                .collect(Collectors.toSet());
        assertThat(names).doesNotContain("NUMLINT_TEST_SECRET", "JAVA_HOME", "MAVEN_OPTS", "USER", "GITHUB_TOKEN");
        assertThat(names).isSubsetOf("PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "PWD", "OLDPWD", "SHLVL", "_");
        assertThat(r.output()).doesNotContain(System.getenv("NUMLINT_TEST_SECRET"));
        assertThat(r.output())
                .contains(
                        "PATH=/opt/toolkit/bin:/usr/bin:/bin",
                        "HOME=" + cwd + "/.home",
                        "TMPDIR=" + cwd + "/.tmp",
                        "LANG=C");
        // the private directory is gone afterwards
        assertThat(Files.exists(Path.of(cwd))).isFalse();
    }

    @Test
    void argumentsArePassedLiterallyNeverToAShell() throws IOException {
        Path echo = script("args", "for a in \"$@\"; do printf '[%s]\\n' \"$a\"; done");
        Path marker = tmp.resolve("ran");
        List<String> hostile =
                List.of("`touch " + marker + "`", "$(touch " + marker + ")", "; touch " + marker, "a'b\"c", "x\ny");
        GuardedProcess.Result r =
                GuardedProcess.run(GuardedProcess.builder(echo).args(hostile).timeout(Duration.ofSeconds(20)));
        assertThat(r.output())
                .isEqualTo("[`touch " + marker + "`]\n[$(touch " + marker + ")]\n[; touch " + marker
                        + "]\n[a'b\"c]\n[x\ny]\n");
        assertThat(marker).doesNotExist();
    }

    @Test
    void theWholeTreeIsKilledOnTimeout() throws IOException, InterruptedException {
        Path pidFile = tmp.resolve("child.pid");
        Path hang = script("hang", "sleep 300 & echo $! > '" + pidFile + "'; wait");
        long t0 = System.nanoTime();
        GuardedProcess.Result r =
                GuardedProcess.run(GuardedProcess.builder(hang).timeout(Duration.ofSeconds(1)));
        assertThat(r.timedOut()).isTrue();
        assertThat(r.ok()).isFalse();
        assertThat(System.nanoTime() - t0).isLessThan(Duration.ofSeconds(60).toNanos());
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        for (int i = 0;
                i < 50 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
                i++) {
            Thread.sleep(100);
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .as("sleep child")
                .isFalse();
    }

    @Test
    void interruptionKillsTheTreeAndRemovesTheTemporaryDirectory() throws Exception {
        Path pidFile = tmp.resolve("child.pid");
        Path hang = script("hang2", "echo $$ > '" + pidFile + "'; touch partial.ptx; sleep 300");
        Path cache = tmp.resolve("cache");
        java.util.concurrent.atomic.AtomicReference<Throwable> thrown =
                new java.util.concurrent.atomic.AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                GuardedProcess.run(
                        GuardedProcess.builder(hang).tempParent(cache).timeout(Duration.ofSeconds(120)));
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        for (int i = 0; i < 100 && !Files.exists(pidFile); i++) Thread.sleep(100);
        t.interrupt();
        t.join(20_000);
        assertThat(t.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(IOException.class).hasMessageContaining("interrupted");
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        for (int i = 0;
                i < 50 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
                i++) {
            Thread.sleep(100);
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .isFalse();
        try (var s = Files.list(cache)) {
            assertThat(s.toList()).as("temporary directories left").isEmpty();
        }
    }

    @Test
    void outputBeyondTheCapStopsTheProcess() throws IOException {
        Path yes = script("yes", "while :; do echo yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy; done");
        GuardedProcess.Result r =
                GuardedProcess.run(GuardedProcess.builder(yes).maxOutput(10_000).timeout(Duration.ofSeconds(30)));
        assertThat(r.outputTruncated()).isTrue();
        assertThat(r.timedOut()).isFalse();
        assertThat(r.output().length()).isLessThanOrEqualTo(10_000);
    }

    @Test
    void anInteractiveChildTalksOverItsPipesUnderTheSameLimitsAndIsKilledAtItsDeadline() throws Exception {
        // echoes each line with its limits and environment; stderr goes to a private file, read back on request
        // (written before the answer on stdout, so it is there once the answer has been read)
        Path talk = script(
                "talk",
                "while read l; do echo \"err $l\" >&2; "
                        + "echo \"$l $(ulimit -v) $(ulimit -t) ${MALLOC_ARENA_MAX:-none} ${USER:-nouser}\"; done");
        GuardedProcess.Interactive p = GuardedProcess.start(GuardedProcess.builder(talk)
                .addressSpace(1L << 30)
                .cpuSeconds(55)
                .env("MALLOC_ARENA_MAX", "2")
                .timeout(Duration.ofSeconds(60)));
        Path dir;
        try (p) {
            dir = Path.of("/proc", Long.toString(p.pid()), "cwd").toRealPath();
            var out = new java.io.BufferedReader(new java.io.InputStreamReader(p.stdout()));
            p.stdin().write("one\n".getBytes());
            p.stdin().flush();
            assertThat(out.readLine()).isEqualTo("one " + (1L << 30) / 1024 + " 55 2 nouser");
            p.stdin().write("two\n".getBytes());
            p.stdin().flush();
            assertThat(out.readLine()).startsWith("two ");
            assertThat(p.errorTail(100)).isEqualTo("err one\nerr two\n");
            // a file the child wrote into its private directory (a JVM's crash report), read from its start
            Files.writeString(dir.resolve("report.log"), "head of the report\nrest");
            assertThat(p.fileHead("report.log", 18)).isEqualTo("head of the report");
            assertThat(p.fileHead("none.log", 100)).isEmpty();
            assertThat(p.fileHead("../report.log", 100)).isEmpty();
            // an exchange past its deadline: the child is killed and the caller learns why
            var deadline = p.killAfter(200);
            assertThat(out.readLine()).isNull();
            // the pipe closes while the watchdog may still be killing the tree and before the child is reaped
            deadline.get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(p.killedByDeadline()).isTrue();
            assertThat(p.exitCode(10_000)).as("the child ended").isNotNull();
            assertThat(p.alive()).isFalse();
        }
        // closed: the private directory is gone
        assertThat(Files.exists(dir)).isFalse();
    }

    @Test
    void anExchangeIsBoundedByTheChildsCpuTimeWithAWallCap() throws Exception {
        // a child that spins on each line: it spends CPU, so the CPU bound ends it, however long that takes in wall
        // time on a loaded machine (the wall cap is far away)
        Path spin = script("spinner", "while read l; do while :; do :; done; done");
        try (GuardedProcess.Interactive p = GuardedProcess.start(
                GuardedProcess.builder(spin).cpuSeconds(100).timeout(Duration.ofSeconds(300)))) {
            p.killAfterCpu(300, 240_000);
            long t0 = System.nanoTime();
            p.stdin().write("go\n".getBytes());
            p.stdin().flush();
            assertThat(p.stdout().read()).isEqualTo(-1);
            assertThat(p.exitCode(10_000)).as("the child ended").isNotNull();
            assertThat(p.killedByDeadline()).isTrue();
            assertThat(p.killedByWallCap()).as("ended by its CPU time").isFalse();
            assertThat(System.nanoTime() - t0)
                    .isLessThan(Duration.ofSeconds(200).toNanos());
        }
        // a child that waits without using CPU: the CPU bound never comes, the wall cap ends it
        Path idle = script("idler", "while read l; do sleep 100; done");
        try (GuardedProcess.Interactive p = GuardedProcess.start(
                GuardedProcess.builder(idle).cpuSeconds(100).timeout(Duration.ofSeconds(300)))) {
            p.killAfterCpu(300, 500);
            p.stdin().write("go\n".getBytes());
            p.stdin().flush();
            assertThat(p.stdout().read()).isEqualTo(-1);
            assertThat(p.exitCode(10_000)).as("the child ended").isNotNull();
            assertThat(p.killedByDeadline()).isTrue();
            assertThat(p.killedByWallCap()).as("ended by the wall cap").isTrue();
        }
        // an exchange that ends in time: cancelling the bound leaves the child alive
        Path echo = script("echoer", "while read l; do echo \"$l\"; done");
        try (GuardedProcess.Interactive p = GuardedProcess.start(
                GuardedProcess.builder(echo).cpuSeconds(100).timeout(Duration.ofSeconds(300)))) {
            var deadline = p.killAfterCpu(5_000, 40_000);
            var out = new java.io.BufferedReader(new java.io.InputStreamReader(p.stdout()));
            p.stdin().write("one\n".getBytes());
            p.stdin().flush();
            assertThat(out.readLine()).isEqualTo("one");
            deadline.cancel(false);
            assertThat(p.alive()).isTrue();
            assertThat(p.killedByDeadline()).isFalse();
        }
    }

    @Test
    void cpuTimeAndAddressSpaceAreLimited() throws IOException {
        Path spin = script("spin", "while :; do :; done");
        long t0 = System.nanoTime();
        // one CPU second can take many wall-clock seconds on a loaded machine: the wall-clock limit is generous, the
        // CPU limit is what must end it
        GuardedProcess.Result r =
                GuardedProcess.run(GuardedProcess.builder(spin).cpuSeconds(1).timeout(Duration.ofSeconds(240)));
        assertThat(r.timedOut()).isFalse();
        assertThat(r.exitCode()).isNotZero();
        assertThat(System.nanoTime() - t0).isLessThan(Duration.ofSeconds(240).toNanos());
        Path limits = script("limits", "ulimit -v; ulimit -t");
        GuardedProcess.Result l = GuardedProcess.run(GuardedProcess.builder(limits)
                .addressSpace(2L << 30)
                .cpuSeconds(77)
                .timeout(Duration.ofSeconds(20)));
        assertThat(l.output().lines().toList()).containsExactly(Long.toString((2L << 30) / 1024), "77");
    }

    @Test
    void theAddressSpaceLimitCanBeLiftedPerSpecOnly() throws IOException {
        Path limits = script("vlimit", "ulimit -v");
        GuardedProcess.Result lifted = GuardedProcess.run(
                GuardedProcess.builder(limits).noAddressSpaceLimit().timeout(Duration.ofSeconds(20)));
        GuardedProcess.Result dflt =
                GuardedProcess.run(GuardedProcess.builder(limits).timeout(Duration.ofSeconds(20)));
        // lifted: whatever numlint itself runs under (unlimited unless its own shell limited it); never the default
        assertThat(lifted.output().strip()).isNotEqualTo(Long.toString(16L * 1024 * 1024));
        assertThat(dflt.output().strip()).isEqualTo(Long.toString(16L * 1024 * 1024));
        assertThat(GuardedProcess.command(GuardedProcess.builder(limits).noAddressSpaceLimit())
                        .get(GuardedProcess.command(GuardedProcess.builder(limits))
                                        .indexOf("-c")
                                + 1))
                .doesNotContain("ulimit -v")
                .contains("ulimit -t", "ulimit -f");
    }

    @Test
    void explicitVariablesAndPreparedFilesReachTheChild() throws IOException {
        Path show = script("show", "cat job.txt; echo \"lib=$LD_LIBRARY_PATH\"; echo done > result.txt");
        String seen = GuardedProcess.run(
                GuardedProcess.builder(show)
                        .env("LD_LIBRARY_PATH", "/opt/driver/lib")
                        .timeout(Duration.ofSeconds(20)),
                dir -> Files.writeString(dir.resolve("job.txt"), "job-1\n"),
                (dir, r) -> r.output() + Files.readString(dir.resolve("result.txt")));
        assertThat(seen).isEqualTo("job-1\nlib=/opt/driver/lib\ndone\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> GuardedProcess.builder(show).env("PATH", "/evil"))
                .isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> GuardedProcess.builder(show).env("A=B", "x"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
