package dev.numlint.validation.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.toolchain.GuardedProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GpuProcessTest {
    @Test
    void onlyTheDriverDirectoriesOfTheLibraryPathArePassed(@TempDir Path dir) throws Exception {
        Path driver = Files.createDirectories(dir.resolve("nvidia/lib64"));
        Files.writeString(driver.resolve("libcuda.so.1"), "");
        Path other = Files.createDirectories(dir.resolve("other/lib"));
        Map<String, String> env = GpuProcess.driverEnvironment(Map.of(
                "LD_LIBRARY_PATH", other + ":" + driver + "::relative/lib:" + driver,
                "CUDA_VISIBLE_DEVICES", "1",
                "GITHUB_TOKEN", "ghp_secret",
                "LD_PRELOAD", "/tmp/evil.so"));
        assertThat(env)
                .containsExactly(
                        Map.entry("LD_LIBRARY_PATH", driver.toString()), Map.entry("CUDA_VISIBLE_DEVICES", "1"));
        assertThat(GpuProcess.driverEnvironment(Map.of("LD_LIBRARY_PATH", other.toString())))
                .isEmpty();
        assertThat(GpuProcess.driverEnvironment(Map.of("CUDA_VISIBLE_DEVICES", "0;rm -rf /")))
                .isEmpty();
    }

    @Test
    void theChildIsThisJavaOnThisClassPathWithoutAnAddressSpaceLimit() {
        GuardedProcess.Spec spec = GpuProcess.spec(
                new GpuProcess.Settings("jcuda", 2, Duration.ofSeconds(42), null), Duration.ofSeconds(42));
        assertThat(spec.program()).isEqualTo(Path.of(System.getProperty("java.home"), "bin", "java"));
        int cp = spec.args().indexOf("-cp");
        assertThat(cp).isGreaterThanOrEqualTo(0);
        for (String e : spec.args().get(cp + 1).split(java.io.File.pathSeparator))
            assertThat(Path.of(e)).isAbsolute();
        assertThat(spec.args().subList(cp + 2, spec.args().size()))
                .containsExactly(GpuChild.class.getName(), "job.json", "result.json");
    }

    @Test
    void theDynamicLoadersReasonIsTakenFromJCudasLoadFailure() {
        String jcuda = "Error while loading native library \"JCudaDriver-12.6.0-linux-x86_64\"\n"
                + "Operating system name: Linux\n---(start of nested stack traces)---\n"
                + "Stack trace from the attempt to load the library as a file:\n"
                + "java.lang.UnsatisfiedLinkError: no JCudaDriver-12.6.0-linux-x86_64 in java.library.path: /usr/lib\n"
                + "\tat java.base/java.lang.ClassLoader.loadLibrary(ClassLoader.java:2434)\n"
                + "Stack trace from the attempt to load the library as a resource:\n"
                + "java.lang.UnsatisfiedLinkError: /tmp/x/.tmp/libJCudaDriver-12.6.0-linux-x86_64.so: libcuda.so.1: "
                + "cannot open shared object file: No such file or directory\n"
                + "\tat java.base/jdk.internal.loader.NativeLibraries.load(Native Method)\n";
        assertThat(JCudaLauncher.linkFailure(jcuda))
                .isEqualTo("Error while loading native library \"JCudaDriver-12.6.0-linux-x86_64\": libcuda.so.1: "
                        + "cannot open shared object file: No such file or directory");
        assertThat(JCudaLauncher.linkFailure("just one line")).isEqualTo("just one line");
    }

    /**
     * End to end through the real child and JCuda: a stand-in libcuda.so.1 (built with gcc; cuInit reports no
     * device) in a directory named by the parent's LD_LIBRARY_PATH is what the child loads, so that directory, and
     * only it, was passed on. Runs on hosts without a CUDA driver (elsewhere the real one would be found first).
     */
    @Test
    void theChildLoadsTheDriverFromTheDirectoryPassedOn(@TempDir Path dir) throws Exception {
        Path gcc = Path.of("/usr/bin/gcc");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(gcc), "gcc is needed for the stand-in driver");
        GpuProcess.Probe plain = GpuProcess.probe(
                new GpuProcess.Settings("jcuda", 0, Duration.ofSeconds(60), dir.resolve("t"), Map.of()));
        org.junit.jupiter.api.Assumptions.assumeTrue(
                plain.unavailable() != null && plain.unavailable().contains("libcuda.so.1"),
                () -> "this host has a CUDA driver: " + plain);
        Path lib = Files.createDirectories(dir.resolve("driver"));
        Files.writeString(
                lib.resolve("cuda.c"),
                "int cuInit(unsigned int f) { return 100; }\nint cuDriverGetVersion(int *v) { *v = 13000; return 0; }\n");
        Process p = new ProcessBuilder(
                        gcc.toString(),
                        "-shared",
                        "-fPIC",
                        "-Wl,-soname,libcuda.so.1",
                        "-o",
                        lib.resolve("libcuda.so.1").toString(),
                        lib.resolve("cuda.c").toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        org.junit.jupiter.api.Assumptions.assumeTrue(p.waitFor() == 0, () -> "gcc failed: " + out);
        GpuProcess.Probe probe = GpuProcess.probe(new GpuProcess.Settings(
                "jcuda",
                0,
                Duration.ofSeconds(60),
                dir.resolve("t"),
                Map.of("LD_LIBRARY_PATH", dir.resolve("elsewhere") + ":" + lib, "HOME", "/root")));
        assertThat(probe.available()).isFalse();
        assertThat(probe.unavailable()).isEqualTo("the CUDA driver failed to initialize: CUDA_ERROR_NO_DEVICE");
    }
}
