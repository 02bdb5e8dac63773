package dev.numlint.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.ValidationReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GPU fault in one kernel is reported on that kernel only: each kernel gets its own executor (CUDA context).
 * The fake executor behaves like CUDA after CUDA_ERROR_ILLEGAL_ADDRESS: the error is sticky for its context.
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

    /** A fake GPU: launching "bad" faults, and the fault is sticky for the executor (context) that saw it. */
    static final class FakeGpu implements GpuExecutor {
        static int opened;
        String sticky;

        FakeGpu() {
            opened++;
        }

        @Override
        public String name() {
            return "fake";
        }

        @Override
        public Map<String, String> facts() {
            return Map.of("device", "fake GPU");
        }

        @Override
        public Result run(
                String ptx,
                String kernel,
                int[] grid,
                int[] block,
                int sharedBytes,
                List<Object> args,
                int[] paramSizes,
                int timedRepeats) {
            if (sticky != null) throw new IllegalStateException(sticky + " (sticky: reported again)");
            if (kernel.equals("bad")) {
                sticky = "CUDA_ERROR_ILLEGAL_ADDRESS";
                throw new IllegalStateException(sticky);
            }
            Map<Integer, byte[]> out = new LinkedHashMap<>();
            for (int i = 0; i < args.size(); i++) {
                if (args.get(i) instanceof byte[] b) out.put(i, b.clone());
            }
            return new Result(out, 0.01, new float[] {0.01f});
        }

        @Override
        public void close() {}
    }

    private static ValidationReport run(Path dir, Supplier<GpuExecutor> factory) throws Exception {
        Path ptx = dir.resolve("two.ptx");
        Files.writeString(
                ptx,
                ".version 8.0\n.target sm_90\n.address_size 64\n" + KERNEL.replace("NAME", "bad")
                        + KERNEL.replace("NAME", "good"));
        ValidationOptions o = new ValidationOptions();
        o.allKernels = true;
        o.inputs = 2;
        o.elements = 256;
        o.gpuRepeats = 1;
        return Validator.validate(List.of(ptx), o, factory);
    }

    private static KernelResult kernel(ValidationReport r, String name) {
        return r.kernels.stream().filter(k -> k.kernel.equals(name)).findFirst().orElseThrow();
    }

    @Test
    void aFaultingKernelFollowedByAGoodOneFaultsAlone(@TempDir Path dir) throws Exception {
        FakeGpu.opened = 0;
        ValidationReport r = run(dir, FakeGpu::new);
        KernelResult bad = kernel(r, "bad"), good = kernel(r, "good");
        assertThat(bad.gpu.reason).contains("CUDA_ERROR_ILLEGAL_ADDRESS");
        assertThat(bad.executor).isEqualTo(Validator.EXECUTOR);
        // (a .ptx input has only its as-built build on the GPU; the strict one is an interpreter-only switch)
        assertThat(good.gpu.reason).doesNotContain("ILLEGAL_ADDRESS").doesNotContain("lost");
        assertThat(good.executor).isEqualTo(Validator.GPU_EXECUTOR);
        assertThat(good.gpu.asBuiltAgreement).isNotNull();
        assertThat(FakeGpu.opened).isGreaterThanOrEqualTo(3); // facts, then one per kernel
        assertThat(r.environment.get("gpuIsolation")).contains("per kernel");
    }

    @Test
    void withOneSharedContextTheFaultWouldSpreadToTheGoodKernel(@TempDir Path dir) throws Exception {
        // the situation the per-kernel executors prevent: the same (sticky) context for every kernel
        FakeGpu shared = new FakeGpu();
        List<String> seen = new ArrayList<>();
        ValidationReport r = run(dir, () -> {
            seen.add("get");
            return shared;
        });
        assertThat(kernel(r, "good").gpu.reason).contains("sticky");
        assertThat(seen).hasSizeGreaterThanOrEqualTo(2);
    }
}
