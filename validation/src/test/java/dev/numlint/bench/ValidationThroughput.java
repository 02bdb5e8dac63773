package dev.numlint.bench;

import dev.numlint.validation.ValidationOptions;
import dev.numlint.validation.Validator;
import dev.numlint.validation.interp.Decoder;
import dev.numlint.validation.interp.Launch;
import dev.numlint.validation.interp.Program;
import dev.numlint.validation.interp.PtxModelAdapter;
import dev.numlint.validation.interp.PtxText;
import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.ValidationReport;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Benchmarks of the CPU interpreter (single thread): (1) interpreted PTX instructions per second on an
 * arithmetic kernel (a loop of f32 multiply-adds), (2) wall time of validating one flagged kernel with 3 builds
 * (as-built, strict, one single-switch variant) plus the reference run, on 16 input sets of 2^16 elements.
 */
public final class ValidationThroughput {
    private ValidationThroughput() {}

    static String resource(String name) throws Exception {
        try (InputStream in = ValidationThroughput.class.getResourceAsStream("/kernels/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    public static void main(String[] args) throws Exception {
        PtxText.Module m = PtxModelAdapter.read(resource("bench.ptx"));
        Program p = Decoder.decode(m, "arith_loop", false, false);
        // -Dnumlint.bench.smoke=true (bench/validation-throughput.sh without NUMLINT_CORPORA): shows that it runs
        boolean smoke = Boolean.getBoolean("numlint.bench.smoke");
        int n = 4096, iters = smoke ? 5 : 1000;
        ByteBuffer xb = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) xb.putFloat(i * 1e-4f);
        double[] rates = new double[7];
        long instr = 0;
        for (int rep = 0; rep < rates.length + 3; rep++) {
            Launch l = new Launch(p);
            long x = l.alloc(xb.array()), y = l.alloc(new byte[4 * n]);
            l.param(0, x);
            l.param(1, y);
            l.param(2, n);
            l.param(3, iters);
            long t0 = System.nanoTime();
            l.run(new int[] {n / 256, 1, 1}, new int[] {256, 1, 1}, 0, Long.MAX_VALUE);
            long dt = System.nanoTime() - t0;
            instr = l.executed();
            if (rep >= 3) rates[rep - 3] = instr / (dt / 1e9);
        }
        Arrays.sort(rates);
        System.out.println("| benchmark | value | unit |");
        System.out.println("|---|---|---|");
        System.out.printf(
                "| arith_loop: instructions per launch (%d threads x %d iterations) | %d | instructions |%n",
                n, iters, instr);
        System.out.printf(
                "| arith_loop: interpreted PTX instructions/s, one core (median of 7) | %.1f | million/s |%n",
                rates[rates.length / 2] / 1e6);
        System.out.printf(
                "| arith_loop: interpreted PTX instructions/s, one core (best of 7) | %.1f | million/s |%n",
                rates[rates.length - 1] / 1e6);

        Path dir = Files.createTempDirectory("numlint-bench");
        Path ptx = dir.resolve("axpb.ptx");
        // only the flagged axpb kernel: drop arith_loop so exactly one kernel is validated
        String src = resource("bench.ptx");
        int cut = src.indexOf(".visible .entry arith_loop");
        int end = src.indexOf(".visible .entry axpb");
        Files.writeString(ptx, src.substring(0, cut) + src.substring(end));
        ValidationOptions o = new ValidationOptions();
        o.inputs = smoke ? 2 : 16;
        o.elements = smoke ? 1 << 10 : 1 << 16;
        double[] secs = new double[3];
        KernelResult k = null;
        for (int rep = 0; rep < 4; rep++) {
            long t0 = System.nanoTime();
            ValidationReport r = Validator.validate(List.of(ptx), o);
            if (rep > 0) secs[rep - 1] = (System.nanoTime() - t0) / 1e9;
            k = r.kernels.get(0);
        }
        Arrays.sort(secs);
        System.out.printf(
                "| validate axpb: %d builds (%s) + reference, %d input sets x %d elements (median of 3) | %.2f | s |%n",
                k.variants.size(),
                String.join(", ", k.variants.stream().map(v -> v.variant).toArray(String[]::new)),
                o.inputs,
                o.elements,
                secs[1]);
        System.out.printf(
                "| validate axpb: verdict %s, %d of %d elements differ, max %d ulp | | |%n",
                k.verdict.text(), k.elementsDiffering, k.elementsCompared, k.maxUlp);
        Files.deleteIfExists(ptx);
        Files.deleteIfExists(dir);
    }
}
