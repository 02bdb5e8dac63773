package dev.numlint.bench;

import dev.numlint.model.Finding;
import dev.numlint.model.Notification;
import dev.numlint.ptx.PtxAnalyzer;
import dev.numlint.testing.TestScanContext;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * End-to-end PTX scan of a directory through the analyzer SPI ({@link TestScanContext}: all rules on, 2 worker
 * threads). Prints wall time, files, findings per rule and notifications. With "-v", prints every finding.
 * Usage: PtxScanBench DIR [-v]
 */
public final class PtxScanBench {
    private PtxScanBench() {}

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        boolean verbose = args.length > 1 && args[1].equals("-v");
        long t0 = System.nanoTime();
        TestScanContext ctx = new TestScanContext(dir);
        long files =
                ctx.files().stream().filter(f -> f.toString().endsWith(".ptx")).count();
        ctx.run(new PtxAnalyzer());
        double s = (System.nanoTime() - t0) / 1e9;
        Map<String, Integer> perRule = new TreeMap<>();
        for (Finding f : ctx.findings()) perRule.merge(f.ruleId(), 1, Integer::sum);
        if (verbose) {
            ctx.findings().stream()
                    .sorted((a, b) ->
                            a.location().shortText().compareTo(b.location().shortText()))
                    .forEach(f ->
                            System.out.println(f.ruleId() + " " + f.location().shortText() + " [" + f.function()
                                    + "] " + f.message() + " || "
                                    + f.evidence().stream()
                                            .filter(e -> e.kind().equals("source"))
                                            .map(e -> e.text())
                                            .findFirst()
                                            .orElse("")));
        }
        for (Notification n : ctx.notifications()) System.out.println("NOTE " + n);
        System.out.printf("%-28s %10s%n", "metric", "value");
        System.out.printf("%-28s %10d%n", "ptx files", files);
        System.out.printf("%-28s %10.2f%n", "wall seconds (2 threads)", s);
        System.out.printf("%-28s %10d%n", "notifications", ctx.notifications().size());
        for (Map.Entry<String, Integer> e : perRule.entrySet())
            System.out.printf("%-28s %10d%n", e.getKey(), e.getValue());
        System.out.printf("%-28s %10d%n", "findings", ctx.findings().size());
    }
}
