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
 * and the median rate printed: interpreted PTX instructions per second on one core. Launches the interpreter cannot
 * run are listed with the reason.
 */
public final class ReplayThroughput {
    private ReplayThroughput() {}

    public static void main(String[] args) throws Exception {
        boolean smoke = Boolean.getBoolean("numlint.bench.smoke");
        int reps = smoke ? 1 : 5, warm = smoke ? 0 : 2;
        long limit = Long.getLong("numlint.bench.limit", 2_000_000_000L);
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
        System.out.println("| recording | launch | kernel | build | instructions | ms (median) | M instructions/s |");
        System.out.println("|---|---|---|---|---|---|---|");
        long totalInstr = 0;
        double totalSeconds = 0;
        for (Path dir : recs) {
            Recording rec = Recording.read(dir);
            for (Recording.RecordedLaunch l : rec.launches) {
                String name = dir.getFileName() + " | " + l.id + " | " + shortName(l.kernel);
                Recording.Module mod = rec.moduleOf(l.kernel);
                if (l.unusable != null || mod == null) {
                    System.out.println("| " + name + " | - | - | - | not run: "
                            + (l.unusable != null ? l.unusable : "no PTX") + " |");
                    continue;
                }
                PtxText.Module m = PtxModelAdapter.read(mod.ptx);
                Map<String, KernelHazards.Hit> hits = KernelHazards.of(m.source, l.kernel, false);
                for (Variants.PtxVariant v : Variants.ptxVariantsOf(hits)) {
                    Program p;
                    try {
                        p = Decoder.decode(m, l.kernel, v.opts());
                    } catch (RuntimeException e) {
                        System.out.println(
                                "| " + name + " | " + v.name() + " | - | - | not run: " + e.getMessage() + " |");
                        continue;
                    }
                    double[] ms = new double[reps];
                    long instr = 0;
                    try {
                        for (int r = 0; r < warm + reps; r++) {
                            Launch run = launch(p, l);
                            long t0 = System.nanoTime();
                            run.run(l.grid, l.block, l.dynamicShared, limit);
                            long dt = System.nanoTime() - t0;
                            instr = run.executed();
                            if (r >= warm) ms[r - warm] = dt / 1e6;
                        }
                    } catch (KernelFault e) {
                        System.out.println(
                                "| " + name + " | " + v.name() + " | - | - | not run: " + e.getMessage() + " |");
                        continue;
                    }
                    Arrays.sort(ms);
                    double med = ms[ms.length / 2];
                    totalInstr += instr;
                    totalSeconds += med / 1e3;
                    System.out.println(String.format(
                            Locale.ROOT,
                            "| %s | %s | %d | %.1f | %.1f |",
                            name,
                            v.name(),
                            instr,
                            med,
                            instr / (med / 1e3) / 1e6));
                }
            }
        }
        System.out.println(String.format(
                Locale.ROOT,
                "| all | | | | %d | %.1f | %.1f |",
                totalInstr,
                totalSeconds * 1e3,
                totalSeconds == 0 ? 0 : totalInstr / totalSeconds / 1e6));
        System.out.println("target (issue 27): 150 M instructions/s on one core with bounds checks"
                + (smoke ? " (smoke mode: one run each, no warm-up; the figures mean nothing)" : ""));
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
