package dev.numlint.bench;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.Notification;
import dev.numlint.ptx.PtxAnalyzer;
import dev.numlint.spi.FindingSink;
import dev.numlint.testing.TestScanContext;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * PTX front-end benchmarks (not a test).
 *
 * <pre>
 * PtxThroughputBench throughput DIR [iterations]   parse + analysis of every .ptx under DIR on one thread
 * PtxThroughputBench generate DIR OUT LINES         concatenate the PTX under DIR (functions renamed) to OUT
 * PtxThroughputBench heap FILE                      analyze one (large) file, report heap (run with -Xmx1g)
 * </pre>
 * Throughput is measured through {@link PtxAnalyzer#analyzeText} (parse, model, CFG, def-use, loops, all rules,
 * source mapping) with a sink that counts findings; it reports wall time and the thread's CPU time, since the
 * machine may be shared.
 */
public final class PtxThroughputBench {
    private PtxThroughputBench() {}

    public static void main(String[] args) throws IOException {
        switch (args[0]) {
            case "throughput" -> throughput(Path.of(args[1]), args.length > 2 ? Integer.parseInt(args[2]) : 10);
            case "generate" -> generate(Path.of(args[1]), Path.of(args[2]), Long.parseLong(args[3]));
            case "heap" -> heap(Path.of(args[1]));
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    private static final class CountingSink implements FindingSink {
        final AtomicLong findings = new AtomicLong();
        final AtomicLong notes = new AtomicLong();

        @Override
        public void report(Finding.Builder finding) {
            findings.incrementAndGet();
        }

        @Override
        public void notify(Notification notification) {
            notes.incrementAndGet();
        }
    }

    private static List<Path> ptxFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".ptx")).sorted().toList();
        }
    }

    static void throughput(Path dir, int iterations) throws IOException {
        List<Path> files = ptxFiles(dir);
        List<String> texts = new ArrayList<>();
        long lines = 0;
        for (Path p : files) {
            String t = Files.readString(p, StandardCharsets.UTF_8);
            texts.add(t);
            lines += t.chars().filter(c -> c == '\n').count();
        }
        TestScanContext ctx = new TestScanContext(dir);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        double[] wall = new double[iterations];
        double[] cpu = new double[iterations];
        long found = 0;
        System.out.printf("files %d, lines %d%n", files.size(), lines);
        System.out.printf("%-6s %10s %10s %14s %14s%n", "iter", "wall s", "cpu s", "lines/s wall", "lines/s cpu");
        for (int it = 0; it < iterations; it++) {
            CountingSink sink = new CountingSink();
            PtxAnalyzer.SourceCache sources = new PtxAnalyzer.SourceCache(ctx.boundary());
            long w0 = System.nanoTime();
            long c0 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < texts.size(); i++) {
                PtxAnalyzer.analyzeText(ctx, sink, texts.get(i), files.get(i), null, BuildContext.defaults(), sources);
            }
            wall[it] = (System.nanoTime() - w0) / 1e9;
            cpu[it] = (mx.getCurrentThreadCpuTime() - c0) / 1e9;
            found = sink.findings.get();
            System.out.printf(
                    "%-6d %10.2f %10.2f %14.0f %14.0f%n", it, wall[it], cpu[it], lines / wall[it], lines / cpu[it]);
        }
        int warm = iterations / 2;
        double[] w = Arrays.copyOfRange(wall, warm, iterations);
        double[] c = Arrays.copyOfRange(cpu, warm, iterations);
        Arrays.sort(w);
        Arrays.sort(c);
        System.out.printf(
                "%nwarm iterations %d..%d: median %.0f lines/s (wall), %.0f lines/s (thread cpu); best %.0f "
                        + "(wall), %.0f (cpu); findings per iteration %d%n",
                warm,
                iterations - 1,
                lines / w[w.length / 2],
                lines / c[c.length / 2],
                lines / w[0],
                lines / c[0],
                found);
    }

    private static final Pattern DEF = Pattern.compile("\\.(?:entry|func)\\s+(?:\\([^)]*\\)\\s*)?([A-Za-z_$][\\w$]*)");

    static void generate(Path dir, Path out, long targetLines) throws IOException {
        List<Path> files = ptxFiles(dir);
        StringBuilder sb = new StringBuilder();
        long lines = 0;
        int copy = 0;
        while (lines < targetLines) {
            for (Path p : files) {
                String t = Files.readString(p, StandardCharsets.UTF_8);
                Set<String> names = new LinkedHashSet<>();
                Matcher m = DEF.matcher(t);
                while (m.find()) names.add(m.group(1));
                String suffix = "_c" + copy++;
                if (!names.isEmpty()) {
                    Pattern ref = Pattern.compile("(?<![\\w$])("
                            + String.join(
                                    "|", names.stream().map(Pattern::quote).toList()) + ")(?![\\w$])");
                    t = ref.matcher(t).replaceAll(r -> Matcher.quoteReplacement(r.group(1) + suffix));
                }
                sb.append(t).append('\n');
                lines += t.chars().filter(c -> c == '\n').count() + 1;
                if (lines >= targetLines) break;
            }
        }
        Files.writeString(out, sb.toString(), StandardCharsets.UTF_8);
        System.out.printf("wrote %s: %d lines, %d bytes%n", out, lines, sb.length());
    }

    static void heap(Path file) throws IOException {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) pool.resetPeakUsage();
        long w0 = System.nanoTime();
        String text = Files.readString(file, StandardCharsets.UTF_8);
        long lines = text.chars().filter(c -> c == '\n').count();
        TestScanContext ctx = new TestScanContext(file.toAbsolutePath().getParent());
        CountingSink sink = new CountingSink();
        PtxAnalyzer.analyzeText(
                ctx, sink, text, file, null, BuildContext.defaults(), new PtxAnalyzer.SourceCache(ctx.boundary()));
        double s = (System.nanoTime() - w0) / 1e9;
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) peak += pool.getPeakUsage().getUsed();
        }
        System.gc();
        long after = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        System.out.printf("%-32s %12s%n", "metric", "value");
        System.out.printf("%-32s %12d%n", "PTX lines", lines);
        System.out.printf("%-32s %12.1f%n", "file MB", text.length() / 1e6);
        System.out.printf("%-32s %12.2f%n", "seconds", s);
        System.out.printf("%-32s %12d%n", "findings", sink.findings.get());
        System.out.printf("%-32s %12d%n", "notifications", sink.notes.get());
        System.out.printf(
                "%-32s %12.0f%n", "max heap MB (-Xmx)", Runtime.getRuntime().maxMemory() / 1e6);
        System.out.printf("%-32s %12.0f%n", "peak heap used MB (pools sum)", peak / 1e6);
        System.out.printf("%-32s %12.0f%n", "heap after GC MB", after / 1e6);
    }
}
