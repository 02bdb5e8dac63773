package dev.numlint.validation.gpu;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Test access to the child's job loop inside the test JVM (the control case of FaultIsolationTest). */
public final class GpuChildControl {
    private GpuChildControl() {}

    /** Runs kernel "bad" and then "good" of {@code ptx} through one executor process (this one). */
    public static List<String> runBothInOneProcess(String ptx, String executor, Path dir) throws Exception {
        Files.writeString(dir.resolve("k.ptx"), ptx);
        Files.write(dir.resolve("in.bin"), new byte[64 * 4]);
        List<String> out = new ArrayList<>();
        try {
            for (String kernel : List.of("bad", "good")) {
                GpuJob job = new GpuJob();
                job.executor = executor;
                job.kernel = kernel;
                GpuJob.Launch l = new GpuJob.Launch();
                l.variant = "as-built";
                l.ptxFile = "k.ptx";
                l.grid = new int[] {1, 1, 1};
                l.block = new int[] {64, 1, 1};
                l.paramSizes = new int[] {8, 8, 4};
                for (String kind : List.of("buffer", "buffer", "scalar")) {
                    GpuJob.Arg a = new GpuJob.Arg();
                    a.kind = kind;
                    if (kind.equals("buffer")) a.file = "in.bin";
                    else a.value = 64L;
                    l.args.add(a);
                }
                job.launches.add(l);
                GpuJobResult r = new GpuJobResult();
                GpuChild.run(job, dir, r, x -> {});
                GpuJobResult.Outcome o = r.launches.get(0);
                out.add(kernel + " " + o.status + (o.error != null ? ": " + o.error : ""));
            }
        } finally {
            TestGpuProviders.stickyError = null;
        }
        return out;
    }
}
