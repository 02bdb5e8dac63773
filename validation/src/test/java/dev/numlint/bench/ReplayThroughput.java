package dev.numlint.bench;

import dev.numlint.validation.KernelHazards;
import dev.numlint.validation.Variants;
import dev.numlint.validation.interp.Decoder;
import dev.numlint.validation.interp.KernelFault;
import dev.numlint.validation.interp.Launch;
import dev.numlint.validation.interp.Program;
import dev.numlint.validation.interp.PtxModelAdapter;
import dev.numlint.validation.interp.PtxText;
import dev.numlint.validation.replay.Recording;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The CPU interpreter on recorded launches (bench/replay-throughput.sh): for every launch of every recording under
 * the given directories, every build validation replays (as-built, strict, one per hazard, and the as-built build
 * counting floating-point exceptions) is run as the replay runs it (bounds-checked memory, the recorded allocations,
 * parameters, module variables and textures). Per build: the rate of its first run (cold: no warm-up of that build,
 * only what the builds before it left in the JIT) and the median of the next runs (warm), in interpreted PTX
 * instructions per second of the thread's CPU time, and the warm rate by wall time. The first build of the JVM also
 * pays for the interpreter's once-per-JVM warm-up (Launch.warmUp, timed on its own line) and for the JIT compiling
 * the loop. Launches the interpreter cannot run are listed with the reason.
 */
public final class ReplayThroughput {
    private ReplayThroughput() {}

    /** The target of issue 27. */
    private static final double TARGET = 150;

    public static void main(String[] args) throws Exception {
        boolean smoke = Boolean.getBoolean("numlint.bench.smoke");
        int reps = smoke ? 1 : Integer.getInteger("numlint.bench.reps", 5);
        // optional extra warm-up per build (the old per-build warm-up, to compare): runs before the warm runs
        long warmNanos = smoke ? 0 : Long.getLong("numlint.bench.warmMillis", 0L) * 1_000_000L;
        long limit = Long.getLong("numlint.bench.limit", 2_000_000_000L);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        boolean cpu = mx.isCurrentThreadCpuTimeSupported();
        if (cpu) mx.setThreadCpuTimeEnabled(true);
        List<Path> recs = new ArrayList<>();
        for (String a : args) {
            Path d = Path.of(a);
            if (Files.isRegularFile(d.resolve("capture.json"), LinkOption.NOFOLLOW_LINKS)) recs.add(d);
            else if (Files.isDirectory(d))
                try (var s = Files.list(d)) {
                    s.filter(p -> Files.isRegularFile(p.resolve("capture.json"), LinkOption.NOFOLLOW_LINKS))
                            .sorted()
                            .forEach(recs::add);
                }
        }
        System.out.println(environment());
        long w0 = System.nanoTime(), c0 = cpu ? mx.getCurrentThreadCpuTime() : 0;
        Launch.warmUp();
        System.out.println(String.format(
                Locale.ROOT,
                "interpreter warm-up (once per JVM, %s): %.1f ms CPU, %.1f ms wall",
                Boolean.parseBoolean(System.getProperty("numlint.interp.warmup", "true")) ? "on" : "off",
                cpu ? (mx.getCurrentThreadCpuTime() - c0) / 1e6 : 0,
                (System.nanoTime() - w0) / 1e6));
        System.out.println("generated code (interp/Compiler): "
                + (Launch.generatedCode() == null
                        ? "off (-Dnumlint.interp.compile=false): every build runs on the interpreter loop below"
                        : "on: each build's program runs as a class of its own; a program it cannot translate runs"
                                + " on the interpreter loop below"));
        System.out.println(
                "interpreter loop compiled in the foreground (ForegroundCompile): " + Launch.foregroundCompile());
        System.out.println(
                String.format(
                        Locale.ROOT,
                        "interpreter loop: %s",
                        !Boolean.parseBoolean(System.getProperty("numlint.interp.copies", "true"))
                                ? "one shared loop for every build (-Dnumlint.interp.copies=false)"
                                : "a copy per instruction mix once the mix has executed "
                                        + Long.getLong("numlint.interp.copyAfter", 100_000_000L)
                                        + " instructions in this JVM (-Dnumlint.interp.copyAfter; before that, the shared loop)"));
        System.out.println();
        System.out.println(
                "| recording | launch | kernel | build | instructions | CPU s (all runs) | M instr/s cold (CPU)"
                        + " | M instr/s warm (CPU, median of " + reps + ") | M instr/s warm (wall) |");
        System.out.println("|---|---|---|---|---:|---:|---:|---:|---:|");
        Total all = new Total(), variants = new Total(), exceptions = new Total();
        Map<String, Total[]> perRecording = new java.util.LinkedHashMap<>();
        boolean first = true;
        for (Path dir : recs) {
            Recording rec = Recording.read(dir);
            for (Recording.RecordedLaunch l : rec.launches) {
                String name = dir.getFileName() + " | " + l.id + " | " + shortName(l.kernel);
                Recording.Module mod = rec.moduleOf(l.kernel);
                if (l.unusable != null || mod == null) {
                    System.out.println("| " + name + " | - | not run: " + (l.unusable != null ? l.unusable : "no PTX")
                            + " | | | | |");
                    continue;
                }
                PtxText.Module m = PtxModelAdapter.read(mod.ptx);
                Map<String, KernelHazards.Hit> hits = KernelHazards.of(m.source, l.kernel, false);
                // the builds the replay runs: its variants, and the as-built build once more with the checks that
                // count floating-point exceptions (its rate counts the launch's PTX instructions, not the checks)
                List<Variants.PtxVariant> builds = new ArrayList<>(Variants.ptxVariantsOf(hits));
                builds.add(new Variants.PtxVariant(
                        EXCEPTIONS,
                        null,
                        List.of(),
                        new Decoder.Options().contract(true).exceptions(true)));
                long asBuilt = -1;
                for (Variants.PtxVariant v : builds) {
                    Program p;
                    try {
                        p = Decoder.decode(m, l.kernel, v.opts());
                    } catch (RuntimeException e) {
                        System.out.println(
                                "| " + name + " | " + v.name() + " | not run: " + e.getMessage() + " | | | | |");
                        continue;
                    }
                    double coldCpu, cpuAll = 0, translation;
                    double[] ms = new double[reps], cms = new double[reps];
                    long instr;
                    try {
                        // cold: the build's first run, with whatever the builds before it left in the JIT
                        Launch run = launch(p, l);
                        long[] gc0 = Launch.generatedCode();
                        long cc = cpu ? mx.getCurrentThreadCpuTime() : 0, t0 = System.nanoTime();
                        run.run(l.grid, l.block, l.dynamicShared, limit);
                        long dc = cpu ? mx.getCurrentThreadCpuTime() - cc : System.nanoTime() - t0;
                        long[] gc1 = Launch.generatedCode();
                        translation = gc0 == null ? -1 : (gc1[1] - gc0[1]) / 1e6;
                        instr = run.executed();
                        coldCpu = dc / 1e6;
                        cpuAll += dc / 1e9;
                        // the optional per-build warm-up (numlint.bench.warmMillis), for comparison
                        for (long ws = System.nanoTime(); System.nanoTime() - ws < warmNanos; ) {
                            cc = cpu ? mx.getCurrentThreadCpuTime() : 0;
                            launch(p, l).run(l.grid, l.block, l.dynamicShared, limit);
                            cpuAll += ((cpu ? mx.getCurrentThreadCpuTime() : 0) - cc) / 1e9;
                        }
                        for (int r = 0; r < reps; r++) {
                            run = launch(p, l);
                            cc = cpu ? mx.getCurrentThreadCpuTime() : 0;
                            t0 = System.nanoTime();
                            run.run(l.grid, l.block, l.dynamicShared, limit);
                            long dt = System.nanoTime() - t0;
                            dc = cpu ? mx.getCurrentThreadCpuTime() - cc : dt;
                            ms[r] = dt / 1e6;
                            cms[r] = dc / 1e6;
                            cpuAll += dc / 1e9;
                        }
                    } catch (KernelFault e) {
                        System.out.println(
                                "| " + name + " | " + v.name() + " | not run: " + e.getMessage() + " | | | | |");
                        continue;
                    }
                    if (v.name().equals("as-built")) asBuilt = instr;
                    else if (v.name().equals(EXCEPTIONS)) {
                        if (asBuilt < 0) continue;
                        instr = asBuilt;
                    }
                    if (Boolean.getBoolean("numlint.bench.printReps")) { // each run's rate, in order
                        final long n = instr;
                        System.out.println("runs of " + name + " | " + v.name() + ": cold "
                                + Math.round(rate(n, coldCpu))
                                + (translation >= 0
                                        ? String.format(Locale.ROOT, " (of it, translation: %.1f ms)", translation)
                                        : "")
                                + ", warm "
                                + Arrays.toString(Arrays.stream(cms)
                                        .mapToLong(c -> Math.round(rate(n, c)))
                                        .toArray()));
                    }
                    Arrays.sort(ms);
                    Arrays.sort(cms);
                    double med = ms[ms.length / 2], cmed = cms[cms.length / 2];
                    Row row = new Row(instr, cpuAll, coldCpu, cmed, med);
                    all.add(row, first);
                    (v.name().equals(EXCEPTIONS) ? exceptions : variants).add(row, first);
                    Total[] rt = perRecording.computeIfAbsent(
                            dir.getFileName().toString(), k -> new Total[] {new Total(), new Total()});
                    rt[v.name().equals(EXCEPTIONS) ? 1 : 0].add(row, first);
                    System.out.println(
                            "| " + name + " | " + v.name() + (first ? " (first launch of the JVM)" : "") + " | " + row);
                    first = false;
                }
            }
        }
        System.out.println();
        System.out.println("| builds | count | instructions (one run of each) | CPU s (all runs) | M instr/s cold (CPU)"
                + " | M instr/s cold, without the JVM's first launch | M instr/s warm (CPU) | builds at >= "
                + (int) TARGET + " M/s cold / warm |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---|");
        for (var e : perRecording.entrySet()) {
            System.out.println("| " + e.getKey() + ": the variant builds | " + e.getValue()[0]);
            System.out.println("| " + e.getKey() + ": as-built, counting exceptions | " + e.getValue()[1]);
        }
        System.out.println("| the variant builds | " + variants);
        System.out.println("| as-built, counting exceptions | " + exceptions);
        System.out.println("| all builds | " + all);
        long[] gc = Launch.generatedCode();
        if (gc != null)
            System.out.println(String.format(
                    Locale.ROOT,
                    "generated code: %d programs translated (%d left to the interpreter), %.1f ms in all, %.2f ms each"
                            + " (translation and class definition, in the cold runs; the JIT compiles the classes"
                            + " later, on its own threads)",
                    gc[0],
                    gc[2],
                    gc[1] / 1e6,
                    gc[0] == 0 ? 0 : gc[1] / 1e6 / gc[0]));
        System.out.println("target (issue 27): " + (int) TARGET + " M instructions/s on one core with bounds checks;"
                + " rates by the benchmark thread's own CPU time (ThreadMXBean), less sensitive to a loaded machine than"
                + " wall time; cold: the first run of each build, with no warm-up of that build"
                + (smoke ? " (smoke mode: one warm run each; the figures mean nothing)" : ""));
    }

    /** The JVM, the processors it sees and the machine's load average. */
    static String environment() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        return String.format(
                Locale.ROOT,
                "JVM: %s %s (%s); processors visible: %d; load average (1 min) at start: %.2f",
                System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"),
                System.getProperty("java.vm.vendor"),
                Runtime.getRuntime().availableProcessors(),
                os.getSystemLoadAverage());
    }

    /** One build of one launch: instructions per run, CPU seconds of all its runs, cold and warm milliseconds. */
    private record Row(long instr, double cpuS, double coldMs, double warmCpuMs, double warmWallMs) {
        @Override
        public String toString() {
            return String.format(
                    Locale.ROOT,
                    "%d | %.2f | %.1f | %.1f | %.1f |",
                    instr,
                    cpuS,
                    rate(instr, coldMs),
                    rate(instr, warmCpuMs),
                    rate(instr, warmWallMs));
        }
    }

    private static double rate(long instr, double ms) {
        return ms <= 0 ? 0 : instr / (ms / 1e3) / 1e6;
    }

    private static final String EXCEPTIONS = "as-built, counting exceptions";

    /** Builds summed: instructions per run, CPU seconds, cold and warm milliseconds, builds at the target. */
    private static final class Total {
        int builds, coldAt, coldAtOthers, warmAt, others;
        long instr, instrOthers;
        double cpuS, coldMs, coldMsOthers, warmMs;

        void add(Row r, boolean firstOfJvm) {
            builds++;
            instr += r.instr();
            cpuS += r.cpuS();
            coldMs += r.coldMs();
            warmMs += r.warmCpuMs();
            if (rate(r.instr(), r.coldMs()) >= TARGET) coldAt++;
            if (rate(r.instr(), r.warmCpuMs()) >= TARGET) warmAt++;
            if (!firstOfJvm) {
                others++;
                instrOthers += r.instr();
                coldMsOthers += r.coldMs();
            }
        }

        @Override
        public String toString() {
            return String.format(
                    Locale.ROOT,
                    "%d | %d | %.2f | %.1f | %.1f | %.1f | %d / %d of %d |",
                    builds,
                    instr,
                    cpuS,
                    rate(instr, coldMs),
                    rate(instrOthers, coldMsOthers),
                    rate(instr, warmMs),
                    coldAt,
                    warmAt,
                    builds);
        }
    }

    static String shortName(String k) {
        return k.length() > 40 ? k.substring(0, 37) + "..." : k;
    }

    /** The launch as Replayer runs it: recorded allocations, parameters, module variables, textures. */
    static Launch launch(Program p, Recording.RecordedLaunch l) {
        Launch run = new Launch(p);
        for (Recording.Global g : l.globals) run.moduleVariable(g.name, g.before);
        for (var t : l.textures.entrySet()) run.texture(t.getKey(), t.getValue());
        long[] base = new long[l.before.size()];
        for (int a = 0; a < base.length; a++)
            base[a] = run.alloc(l.before.get(a).clone(), "recorded allocation " + a);
        for (int i = 0; i < l.paramLayout.size(); i++) {
            int[] pl = l.paramLayout.get(i);
            if (pl[2] >= 0) run.param(i, base[pl[2]] + pl[3]);
            else run.paramBytes(i, Arrays.copyOfRange(l.params, pl[0], pl[0] + pl[1]));
        }
        return run;
    }
}
