package dev.numlint.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Verdict;
import dev.numlint.validation.gpu.GpuChildControl;
import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.ValidationReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GPU fault in one kernel is reported on that kernel only, and the kernel after it is still validated: each
 * kernel's GPU work runs in a child JVM of its own (GpuProcess, started through GuardedProcess). The stand-in GPUs
 * (gpu.TestGpuProviders, selected by name in the job file) run on the interpreter and misbehave on the kernel
 * "bad": a CUDA error that is sticky for the whole process, a real SIGSEGV of the JVM, an abrupt exit, a hang.
 * These tests run the real child processes; no GPU is needed.
 */
class FaultIsolationTest {
    static final String KERNEL = ".visible .entry NAME(.param .u64 out, .param .u64 in, .param .u32 n) {\n"
            + ".reg .pred %p<2>; .reg .b32 %r<8>; .reg .f32 %f<4>; .reg .b64 %rd<12>;\n"
            + "ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [in]; ld.param.u32 %r1, [n];\n"
            + "mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x; mad.lo.s32 %r5, %r2, %r3, %r4;\n"
            + "setp.ge.u32 %p1, %r5, %r1; @%p1 bra DONE_NAME;\n"
            + "cvta.to.global.u64 %rd3, %rd2; mul.wide.u32 %rd4, %r5, 4; add.s64 %rd5, %rd3, %rd4;\n"
            + "ld.global.f32 %f1, [%rd5]; fma.rn.f32 %f2, %f1, %f1, %f1;\n"
            + "cvta.to.global.u64 %rd6, %rd1; add.s64 %rd7, %rd6, %rd4; st.global.f32 [%rd7], %f2;\n"
            + "DONE_NAME:\nret;\n}\n";

    static final String PTX = ".version 8.0\n.target sm_90\n.address_size 64\n" + KERNEL.replace("NAME", "bad")
            + KERNEL.replace("NAME", "good");

    private static ValidationReport run(Path dir, String executor, int timeoutSeconds) throws Exception {
        Path ptx = dir.resolve("two.ptx");
        Files.writeString(ptx, PTX);
        ValidationOptions o = new ValidationOptions();
        o.gpu = ValidationOptions.GpuMode.REQUIRE;
        o.gpuExecutor = executor;
        o.gpuTimeoutSeconds = timeoutSeconds;
        o.allKernels = true;
        o.inputs = 2;
        o.elements = 256;
        o.gpuRepeats = 1;
        return Validator.validate(List.of(ptx), o);
    }

    private static KernelResult kernel(ValidationReport r, String name) {
        return r.kernels.stream().filter(k -> k.kernel.equals(name)).findFirst().orElseThrow();
    }

    /** The kernel after the faulting one ran on the (stand-in) GPU, in full, and agreed with the interpreter. */
    private static void goodKernelValidated(ValidationReport r) {
        KernelResult good = kernel(r, "good");
        assertThat(good.gpu.fault).isNull();
        assertThat(good.executor).isEqualTo(Validator.GPU_EXECUTOR);
        assertThat(good.verdict).isEqualTo(Verdict.CONFIRMED); // the fma on the interpreter, as before
        assertThat(good.gpu.asBuiltAgreement.elementsCompared).isEqualTo(2 * 256);
        assertThat(good.gpu.asBuiltAgreement.elementsDiffering).isZero();
        assertThat(good.gpu.reason).doesNotContain("bad").doesNotContain("lost").doesNotContain("crashed");
    }

    @Test
    void aStickyCudaErrorStaysWithItsKernel(@TempDir Path dir) throws Exception {
        ValidationReport r = run(dir, "test-sticky", 120);
        KernelResult bad = kernel(r, "bad");
        assertThat(bad.gpu.verdict).isEqualTo(Verdict.NOT_RUNNABLE);
        assertThat(bad.gpu.fault).contains("kernel bad", "build as-built, input set 0", "CUDA_ERROR_ILLEGAL_ADDRESS");
        // the second input set was not launched on the lost context, and says why
        assertThat(bad.gpu.reason).contains("GPU launch failed (build as-built, input set 0)");
        assertThat(bad.executor).isEqualTo(Validator.EXECUTOR); // the CPU verdict stands on its own
        assertThat(bad.verdict).isEqualTo(Verdict.CONFIRMED);
        goodKernelValidated(r);
        assertThat(r.environment.get("gpuIsolation")).contains("one child process per kernel");
        assertThat(r.environment.get("device")).contains("test GPU");
        String text = dev.numlint.validation.report.TextReportRenderer.render(r);
        assertThat(text)
                .contains("gpu: not runnable: GPU fault in kernel bad (build as-built, input set 0)")
                .contains("1 kernel not runnable on the GPU")
                .doesNotContain("0 of 0 elements"); // a .ptx input: no strict build on the GPU to compare with
    }

    @Test
    void inOneProcessTheStickyErrorWouldSpreadToTheGoodKernel(@TempDir Path dir) throws Exception {
        // the control: the same stand-in GPU, both kernels in one process (as before this change): the good kernel
        // fails too, so the test above can only pass through the process boundary
        List<String> outcomes = GpuChildControl.runBothInOneProcess(PTX, "test-sticky", dir);
        assertThat(outcomes.get(0)).startsWith("bad failed").contains("CUDA_ERROR_ILLEGAL_ADDRESS");
        assertThat(outcomes.get(1)).startsWith("good failed").contains("sticky");
    }

    @Test
    void aJvmCrashWithSigsegvStaysWithItsKernel(@TempDir Path dir) throws Exception {
        ValidationReport r = run(dir, "test-sigsegv", 120);
        KernelResult bad = kernel(r, "bad");
        assertThat(bad.gpu.verdict).isEqualTo(Verdict.NOT_RUNNABLE);
        assertThat(bad.gpu.fault)
                .contains("GPU child process of kernel bad crashed", "SIGSEGV", "during build as-built, input set 0");
        goodKernelValidated(r);
    }

    @Test
    void anAbruptExitWithASignalCodeStaysWithItsKernel(@TempDir Path dir) throws Exception {
        ValidationReport r = run(dir, "test-halt", 120);
        KernelResult bad = kernel(r, "bad");
        assertThat(bad.gpu.fault)
                .contains(
                        "kernel bad crashed (exit code 139, killed by SIGSEGV)", "during build as-built, input set 0");
        goodKernelValidated(r);
    }

    @Test
    void aHangIsKilledAtTheTimeoutAndTheNextKernelRuns(@TempDir Path dir) throws Exception {
        long t0 = System.nanoTime();
        ValidationReport r = run(dir, "test-hang", 15);
        KernelResult bad = kernel(r, "bad");
        assertThat(bad.gpu.verdict).isEqualTo(Verdict.NOT_RUNNABLE);
        assertThat(bad.gpu.fault)
                .contains("kernel bad exceeded its time limit of 15 s", "killed", "during build as-built, input set 0");
        goodKernelValidated(r);
        assertThat(System.nanoTime() - t0)
                .isLessThan(java.time.Duration.ofSeconds(100).toNanos());
    }

    @Test
    void noGpuWithGpuRequireMakesEveryFileNotRunnable(@TempDir Path dir) throws Exception {
        ValidationReport r = run(dir, "test-absent", 60);
        assertThat(r.environment.get("gpu")).isEqualTo("not used: the CUDA driver reports no GPU (test)");
        assertThat(r.kernels).singleElement().satisfies(k -> {
            assertThat(k.verdict).isEqualTo(Verdict.NOT_RUNNABLE);
            assertThat(k.reason).contains("--gpu require", "reports no GPU");
        });
    }
}
