import dev.numlint.validation.interp.*;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The arith_loop kernel of bench/validation-throughput.sh (validation/src/test/resources/kernels/bench.ptx), launched
 * REPS times in one JVM; prints each launch's rate in million interpreted PTX instructions per second, by wall-clock
 * and by the thread's CPU time. Compile against validation, ptx-inspector and rules classes (or the CLI jar):
 *   javac -cp numlint.jar -d probe Probe.java; java -XX:ActiveProcessorCount=1 -cp probe:KERNELS_DIR:numlint.jar Probe 12
 * where KERNELS_DIR holds kernels/bench.ptx.
 */
public final class Probe {
    public static void main(String[] args) throws Exception {
        String src;
        try (InputStream in = Probe.class.getResourceAsStream("/kernels/bench.ptx")) {
            src = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        PtxText.Module m = PtxModelAdapter.read(src);
        Program p = Decoder.decode(m, "arith_loop", false, false);
        int n = 4096, iters = 1000;
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        ByteBuffer xb = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) xb.putFloat(i * 1e-4f);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        StringBuilder sb = new StringBuilder();
        for (int rep = 0; rep < reps; rep++) {
            Launch l = new Launch(p);
            long x = l.alloc(xb.array()), y = l.alloc(new byte[4 * n]);
            l.param(0, x);
            l.param(1, y);
            l.param(2, n);
            l.param(3, iters);
            long c0 = mx.getCurrentThreadCpuTime(), t0 = System.nanoTime();
            l.run(new int[] {n / 256, 1, 1}, new int[] {256, 1, 1}, 0, Long.MAX_VALUE);
            long dt = System.nanoTime() - t0, dc = mx.getCurrentThreadCpuTime() - c0;
            sb.append(String.format(" %.0f/%.0f", l.executed() / (dt / 1e3), l.executed() / (dc / 1e3)));
        }
        System.out.println("wall/cpu M/s:" + sb);
    }
}
