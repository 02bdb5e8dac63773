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
 * the given directories, every build validation replays (as-built, strict, one per hazard) is run as the replay
 * runs it (bounds-checked memory, the recorded allocations, parameters, module variables and textures), repeated,
 * and the median rate printed: interpreted PTX instructions per second on one core, by wall time and by the
 * thread's CPU time, per build, per launch (all its builds) and overall. Each build is warmed up (two runs and at
 * least numlint.bench.warmMillis, default 10000: C2 recompiles the loop when a build runs instructions the builds
 * before it never ran, which takes seconds on a loaded machine). Launches the interpreter cannot run are listed
 * with the reason.
 */
public final class ReplayThroughput {
    private ReplayThroughput() {}

    public static void main(String[] args) throws Exception {
        boolean smoke = Boolean.getBoolean("numlint.bench.smoke");
        int reps = smoke ? 1 : 5, warm = smoke ? 0 : 2;
        // warm-up also lasts at least this long per build, so that the JIT has compiled the loop for its profile
        long warmNanos = smoke ? 0 : Long.getLong("numlint.bench.warmMillis", 10000L) * 1_000_000L;
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
        System.out.println("| recording | launch | kernel | build | instructions | wall ms (median) | M instructions/s"
                + " (wall) | CPU ms (median) | M instructions/s (CPU) |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        Total all = new Total(), variants = new Total();
        for (Path dir : recs) {
            Recording rec = Recording.read(dir);
            for (Recording.RecordedLaunch l : rec.launches) {
                String name = dir.getFileName() + " | " + l.id + " | " + shortName(l.kernel);
                Recording.Module mod = rec.moduleOf(l.kernel);
                if (l.unusable != null || mod == null) {
                    System.out.println("| " + name + " | - | - | - | not run: "
                            + (l.unusable != null ? l.unusable : "no PTX") + " | | |");
                    continue;
                }
                PtxText.Module m = PtxModelAdapter.read(mod.ptx);
                Map<String, KernelHazards.Hit> hits = KernelHazards.of(m.source, l.kernel, false);
                Total launch = new Total();
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
                                "| " + name + " | " + v.name() + " | - | - | not run: " + e.getMessage() + " | | |");
                        continue;
                    }
                    double[] ms = new double[reps], cms = new double[reps];
                    long instr = 0;
                    try {
                        long warmStart = System.nanoTime();
                        for (int r = 0; r < warm + reps; r++) {
                            Launch run = launch(p, l);
                            long c0 = cpu ? mx.getCurrentThreadCpuTime() : 0, t0 = System.nanoTime();
                            run.run(l.grid, l.block, l.dynamicShared, limit);
                            long dt = System.nanoTime() - t0, dc = cpu ? mx.getCurrentThreadCpuTime() - c0 : 0;
                            instr = run.executed();
                            if (r == warm - 1 && System.nanoTime() - warmStart < warmNanos) r--; // warm longer
                            else if (r >= warm) {
                                ms[r - warm] = dt / 1e6;
                                cms[r - warm] = dc / 1e6;
                            }
                        }
                    } catch (KernelFault e) {
                        System.out.println(
                                "| " + name + " | " + v.name() + " | - | - | not run: " + e.getMessage() + " | | |");
                        continue;
                    }
                    if (v.name().equals("as-built")) asBuilt = instr;
                    else if (v.name().equals(EXCEPTIONS)) {
                        if (asBuilt < 0) continue;
                        instr = asBuilt;
                    }
                    Arrays.sort(ms);
                    Arrays.sort(cms);
                    double med = ms[ms.length / 2], cmed = cms[cms.length / 2];
                    launch.add(instr, med, cmed);
                    if (!v.name().equals(EXCEPTIONS)) variants.add(instr, med, cmed);
                    row(name + " | " + v.name(), instr, med, cmed, cpu);
                }
                if (launch.instr > 0) row(name + " | all builds", launch.instr, launch.ms, launch.cpuMs, cpu);
                all.add(launch.instr, launch.ms, launch.cpuMs);
            }
        }
        row("all | | | the variant builds", variants.instr, variants.ms, variants.cpuMs, cpu);
        row("all | | | all builds, counting exceptions too", all.instr, all.ms, all.cpuMs, cpu);
        System.out.println("target (issue 27): 150 M instructions/s on one core with bounds checks; CPU: the benchmark"
                + " thread's own CPU time (ThreadMXBean), less sensitive to a loaded machine than wall time"
                + (smoke ? " (smoke mode: one run each, no warm-up; the figures mean nothing)" : ""));
    }

    private static final String EXCEPTIONS = "as-built, counting exceptions";

    /** Instructions and median milliseconds (wall and CPU), summed. */
    private static final class Total {
        long instr;
        double ms, cpuMs;

        void add(long i, double m, double c) {
            instr += i;
            ms += m;
            cpuMs += c;
        }
    }

    private static void row(String what, long instr, double ms, double cpuMs, boolean cpu) {
        System.out.println(String.format(
                Locale.ROOT,
                "| %s | %d | %.1f | %.1f | %s | %s |",
                what,
                instr,
                ms,
                ms == 0 ? 0 : instr / (ms / 1e3) / 1e6,
                cpu ? String.format(Locale.ROOT, "%.1f", cpuMs) : "-",
                cpu && cpuMs > 0 ? String.format(Locale.ROOT, "%.1f", instr / (cpuMs / 1e3) / 1e6) : "-"));
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
