package dev.numlint.bench;

import dev.numlint.java.JavaSourceAnalyzer;
import dev.numlint.model.Finding;
import dev.numlint.model.Notification;
import dev.numlint.testing.TestScanContext;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Java source throughput: runs the java-source analyzer over a source tree (2 worker threads, as in the scan),
 * prints files, lines, wall time, lines/s, findings per rule and peak heap. Usage:
 * {@code JavaThroughputBench <dir> [--classpath a.jar:b.jar] [--runs N] [--dump findings.txt]}.
 */
public final class JavaThroughputBench {
    private JavaThroughputBench() {}

    private static long cpuNanos() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
        }
        return 0;
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        List<Path> cp = new ArrayList<>();
        int runs = 3;
        Path dump = null;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--classpath":
                    for (String s : args[++i].split(":")) if (!s.isEmpty()) cp.add(Path.of(s));
                    break;
                case "--runs":
                    runs = Integer.parseInt(args[++i]);
                    break;
                case "--dump":
                    dump = Path.of(args[++i]);
                    break;
                default:
                    throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        long files = 0, lines = 0;
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s.filter(p -> p.toString().endsWith(".java"))::iterator) {
                files++;
                try (Stream<String> l = Files.lines(p, java.nio.charset.StandardCharsets.ISO_8859_1)) {
                    lines += l.count();
                }
            }
        }
        double best = Double.MAX_VALUE;
        double bestCpu = 0;
        java.util.Set<String> previous = null;
        TestScanContext last = null;
        for (int r = 0; r < runs; r++) {
            TestScanContext ctx = new TestScanContext(dir);
            cp.forEach(ctx::classpathEntry);
            long c0 = cpuNanos();
            long t0 = System.nanoTime();
            ctx.run(new JavaSourceAnalyzer());
            double sec = (System.nanoTime() - t0) / 1e9;
            double cpu = (cpuNanos() - c0) / 1e9;
            System.out.printf(
                    "run %d: %.2f s wall, %.2f s CPU (%.0f lines/s wall, %.0f lines per CPU-second)%n",
                    r + 1, sec, cpu, lines / sec, lines / cpu);
            java.util.Set<String> keys = new java.util.TreeSet<>();
            for (Finding f : ctx.findings())
                keys.add(f.location().shortText() + " " + f.ruleId() + " " + f.confidence());
            if (previous != null && !previous.equals(keys)) {
                java.util.Set<String> gone = new java.util.TreeSet<>(previous);
                gone.removeAll(keys);
                java.util.Set<String> added = new java.util.TreeSet<>(keys);
                added.removeAll(previous);
                System.out.println("  NOT DETERMINISTIC: missing " + gone + " new " + added + " notifications "
                        + ctx.notifications());
            }
            previous = keys;
            if (sec < best) {
                best = sec;
                bestCpu = cpu;
            }
            last = ctx;
        }
        long peak = 0;
        for (MemoryPoolMXBean m : ManagementFactory.getMemoryPoolMXBeans()) {
            if (m.getType() == MemoryType.HEAP) peak += m.getPeakUsage().getUsed();
        }
        Map<String, Integer> perRule = new TreeMap<>();
        Map<String, Integer> lowConf = new TreeMap<>();
        for (Finding f : last.findings()) {
            perRule.merge(f.ruleId() + (f.suppressed() ? " (suppressed)" : ""), 1, Integer::sum);
            if (f.confidence() == dev.numlint.model.Confidence.LOW) lowConf.merge(f.ruleId(), 1, Integer::sum);
        }
        Map<String, Integer> notes = new TreeMap<>();
        for (Notification n : last.notifications()) notes.merge(n.id(), 1, Integer::sum);
        System.out.println();
        System.out.printf("| %-34s | %s%n", "tree", dir);
        System.out.printf("| %-34s | %s%n", "classpath", cp.isEmpty() ? "(none: JRE + source folders)" : cp);
        System.out.printf("| %-34s | %d%n", "java files", files);
        System.out.printf("| %-34s | %d%n", "lines", lines);
        System.out.printf("| %-34s | %.2f%n", "best wall time (s)", best);
        System.out.printf("| %-34s | %.0f%n", "lines/s (wall)", lines / best);
        System.out.printf("| %-34s | %.2f%n", "CPU time of best run (s)", bestCpu);
        System.out.printf(
                "| %-34s | %d%n", "available processors", Runtime.getRuntime().availableProcessors());
        System.out.printf("| %-34s | %d%n", "worker threads", 2);
        System.out.printf("| %-34s | %.0f%n", "peak heap, sum of pool peaks (MiB)", peak / 1048576.0);
        System.out.printf("| %-34s | %s%n", "findings per rule", perRule);
        System.out.printf("| %-34s | %s%n", "low-confidence findings", lowConf);
        System.out.printf("| %-34s | %s%n", "notifications", notes);
        if (dump != null) {
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(dump))) {
                last.findings().stream()
                        .sorted((a, b) ->
                                a.location().shortText().compareTo(b.location().shortText()))
                        .forEach(f -> w.println(f.location().shortText() + " " + f.ruleId() + " ["
                                + f.level().id() + "," + f.confidence().id() + "] " + f.message()));
                for (Notification n : last.notifications()) w.println("NOTIFY " + n);
            }
        }
    }
}
