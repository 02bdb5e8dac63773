package dev.numlint.validation.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Verdict;
import dev.numlint.validation.gpu.GpuProcess;
import dev.numlint.validation.report.Attribution;
import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.ValidationReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replay on the GPU through the real child-process path (job and result files, the guarded runner) with a stand-in
 * GPU (TestGpuProviders: the interpreter behind the executor interface), on the committed DBT recording: the GPU's
 * as-built run is compared with the recorded outputs bit for bit, the builds with the hazards switched off run from
 * the recorded PTX with the switches written into it, and a launch the interpreter cannot finish gets its verdict
 * from the GPU.
 */
class GpuReplayTest {
    @TempDir
    Path tmp;

    /** Shared by the tests that read the same replay (see {@link #gpuAloneReplay}). */
    @TempDir
    static Path shared;

    private static ValidationReport gpuAlone;

    /** The DBT recording with its module given as PTX text (the stand-in GPU loads PTX only). */
    Path ptxRecording() throws IOException {
        return ptxRecording(tmp);
    }

    static Path ptxRecording(Path tmp) throws IOException {
        Path src = Path.of("..", "examples", "recordings", "dbt"),
                dst = tmp.resolve("rec").resolve("dbt");
        try (Stream<Path> s = Files.walk(src)) {
            for (Path p : s.toList()) {
                Path q = dst.resolve(src.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(q);
                else Files.copy(p, q);
            }
        }
        Files.move(dst.resolve("modules/module-0.fatbin.ptx.txt"), dst.resolve("modules/module-0.ptx"));
        Files.delete(dst.resolve("modules/module-0.fatbin"));
        Files.writeString(
                dst.resolve("modules.jsonl"),
                "{\"id\":0,\"file\":\"modules/module-0.ptx\",\"kind\":\"ptx\",\"complete\":true}\n");
        return dst;
    }

    GpuProcess.Settings gpu() throws IOException {
        return gpu(tmp);
    }

    static GpuProcess.Settings gpu(Path tmp) throws IOException {
        Path t = Files.createDirectories(tmp.resolve("gpu-tmp"));
        return new GpuProcess.Settings("test-sticky", 0, Duration.ofSeconds(120), t);
    }

    /**
     * The replay with an instruction limit the interpreter cannot finish in (1,000), on the stand-in GPU: run once
     * and read by the two tests below that need exactly this replay (each of its runs starts the GPU's child JVMs).
     */
    static synchronized ValidationReport gpuAloneReplay() throws IOException {
        if (gpuAlone == null) gpuAlone = new Replayer(1_000L, gpu(shared), 1).replay(ptxRecording(shared));
        return gpuAlone;
    }

    @AfterAll
    static void forgetSharedReplay() {
        gpuAlone = null; // its files went with the shared directory
    }

    @Test
    void asBuiltOnTheGpuReproducesTheRecordingAndTheSwitchesAttribute() throws IOException {
        ValidationReport r = new Replayer(500_000_000L, gpu(), 2).replay(ptxRecording());
        assertThat(r.kernels).hasSize(2);
        KernelResult fp = r.kernels.get(0), exact = r.kernels.get(1);
        for (KernelResult k : r.kernels) {
            assertThat(k.gpu).as(k.kernel).isNotNull();
            assertThat(k.gpu.reason).as(k.kernel).isNull();
            assertThat(k.gpu.recordedAgreement.elementsCompared).isEqualTo(143360);
            assertThat(k.gpu.recordedAgreement.elementsDiffering).isZero();
            assertThat(k.launch.get("gpuAsBuiltReproduced")).startsWith("yes: all 143360 elements");
            assertThat(k.gpu.asBuiltAgreement.elementsDiffering).isZero();
            assertThat(k.gpu.strictAgreement.elementsDiffering).isZero();
            assertThat(k.gpu.repeatable).isTrue();
            assertThat(k.variants).allSatisfy(v -> assertThat(v.gpuKernelMillis).isNotNull());
        }
        assertThat(fp.gpu.verdict).isEqualTo(Verdict.CONFIRMED);
        assertThat(fp.gpu.elementsDiffering).isEqualTo(4096);
        assertThat(fp.gpu.attribution)
                .extracting(Attribution::toString, a -> a.rule + " " + a.elementsDiffering)
                .anySatisfy(t -> assertThat(t.toList().get(1)).isEqualTo("NL003 4096"));
        assertThat(exact.gpu.verdict).isEqualTo(Verdict.NOT_OBSERVED);
        assertThat(fp.verdict).isEqualTo(Verdict.CONFIRMED);
        assertThat(dev.numlint.validation.report.TextReportRenderer.render(r))
                .contains("    gpu: as-built reproduces the recorded outputs: yes, all 143360 elements bit for bit;"
                        + " repeats identical\n");
    }

    @Test
    void aGpuWhoseRepeatsDifferAmongThemselvesConfirmsNothing() throws IOException {
        // H200, session 15: simpleAtomicIntrinsics' as-built repeats differed, and 2 of its 11 outputs differing
        // between as-built and strict on the GPU were reported as a confirmed hazard
        Path t = Files.createDirectories(tmp.resolve("gpu-tmp-order"));
        GpuProcess.Settings order = new GpuProcess.Settings("test-order", 0, Duration.ofSeconds(120), t);
        Path rec = ptxRecording();
        ValidationReport r = new Replayer(500_000_000L, order, 2).replay(rec);
        KernelResult fp = r.kernels.get(0), exact = r.kernels.get(1);
        assertThat(exact.gpu.repeatable).isFalse();
        assertThat(exact.gpu.elementsDiffering).isPositive(); // the stand-in's order flip, not a hazard
        assertThat(exact.gpu.verdict).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(exact.gpu.reason).contains("repeats of the as-built launch differ among themselves");
        assertThat(exact.gpu.attribution).isEmpty();
        assertThat(exact.verdict).isEqualTo(Verdict.NOT_OBSERVED); // the interpreter's, which runs one order
        assertThat(exact.reason).contains("on the GPU: the GPU's own repeats");
        assertThat(fp.verdict).isEqualTo(Verdict.CONFIRMED);
        // without the interpreter, nothing is left to decide with
        ValidationReport g = new Replayer(1_000L, order, 1).replay(rec);
        assertThat(g.kernels.get(0).verdict).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(g.kernels.get(0).findings).isEmpty();
    }

    @Test
    void theBenchTableCountsVerdictsAndBitExactLaunches() throws IOException {
        ValidationReport r = gpuAloneReplay();
        Path json =
                Files.writeString(tmp.resolve("dbt.json"), dev.numlint.validation.report.JsonReportWriter.toJson(r));
        String table = ReplaySummary.table(
                java.util.List.of(json, tmp.resolve("missing.json")),
                java.util.Map.of("dbt", new String[] {"dbt", "403", "920"}));
        assertThat(table)
                .containsPattern(
                        "(?m)^dbt\\s+2\\s+2\\s+2\\s+1\\s+0\\s+2/2\\s+0/0\\s+2/2\\s+0\\.0100\\s+\\d+\\s+403\\s+920$")
                .contains("verdicts: 2 of 2 launches (100%), 2 of them from the GPU alone; GPU as-built bit for bit"
                        + " with the recording: 2 of 2; interpreter: 0 of 0")
                .contains("NL003 unfuse-fma=4096")
                .containsPattern("missing\\s+1  report unreadable");
    }

    @Test
    void aLaunchTheInterpreterCannotFinishGetsItsVerdictFromTheGpu() throws IOException {
        ValidationReport r = gpuAloneReplay();
        KernelResult fp = r.kernels.get(0);
        assertThat(fp.notes).anySatisfy(n -> assertThat(n).startsWith("the interpreter cannot replay this launch"));
        assertThat(fp.executor).isEqualTo(Replayer.GPU_EXECUTOR);
        assertThat(fp.verdict).isEqualTo(Verdict.CONFIRMED);
        assertThat(fp.reason).endsWith("on the recorded inputs on the GPU");
        assertThat(fp.findings).anySatisfy(f -> {
            assertThat(f.rule).isEqualTo("NL003");
            assertThat(f.verdict).isEqualTo(Verdict.CONFIRMED);
            assertThat(f.elementsDiffering).isEqualTo(4096L);
        });
    }

    @Test
    void anImageTheGpuCannotLoadIsNamedAndTheInterpreterStillReplays() throws IOException {
        // the committed recording's module is a fatbinary, which the stand-in GPU cannot load
        ValidationReport r =
                new Replayer(500_000_000L, gpu(), 1).replay(Path.of("..", "examples", "recordings", "dbt"));
        KernelResult fp = r.kernels.get(0);
        assertThat(fp.verdict).isEqualTo(Verdict.CONFIRMED);
        assertThat(fp.gpu.verdict).isEqualTo(Verdict.NOT_RUNNABLE);
        assertThat(fp.gpu.reason).contains("build as-built").contains("no loadable image defines");
    }
}
