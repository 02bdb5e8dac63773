package dev.numlint.validation.replay;

import dev.numlint.validation.KernelHazards;
import dev.numlint.validation.Validator;
import dev.numlint.validation.fp.Ulp;
import dev.numlint.validation.input.InputInference;
import dev.numlint.validation.input.KernelSpec;
import dev.numlint.validation.interp.Decoder;
import dev.numlint.validation.interp.KernelFault;
import dev.numlint.validation.interp.Launch;
import dev.numlint.validation.interp.Program;
import dev.numlint.validation.interp.PtxModelAdapter;
import dev.numlint.validation.interp.PtxText;
import dev.numlint.validation.report.Attribution;
import dev.numlint.validation.report.FindingResult;
import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.ValidationReport;
import dev.numlint.validation.report.VariantError;
import dev.numlint.validation.report.Verdict;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code numlint validate --replay DIR}: replays each recorded launch on the CPU interpreter with the recorded
 * parameters and the recorded contents of every allocation the parameters point into. First the as-built PTX the
 * program loaded: its outputs are compared with the outputs recorded after the launch, bit for bit. Then the
 * IEEE-strict build and one build per hazard found in the kernel with only that hazard switched off at PTX level
 * (unfuse-fma NL003, div.rn NL002, sqrt.rn NL006, no-ftz NL007), on the same recorded inputs: the elements each
 * switch changes, their ULP histogram, the maximum absolute and relative difference from the strict build, and
 * the attribution of the as-built/strict differences to each hazard. Reports carry these statistics only, never
 * buffer contents (a recording of a medical program holds patient data).
 */
public final class Replayer {
    public static final String EXECUTOR = "cpu-interpreter (recorded launch)";

    /** Largest sum of allocations of one launch replayed (the interpreter's global memory limit). */
    public static final long MAX_LAUNCH_BYTES = Decoder.MAX_GLOBAL_BYTES;

    private final long instructionLimit;

    public Replayer(long instructionLimit) {
        this.instructionLimit = instructionLimit;
    }

    /** Replays every recording found at dir (a recording, or a directory of recordings). */
    public ValidationReport replay(Path dir) throws IOException {
        ValidationReport r = new ValidationReport();
        r.environment.put("executor", EXECUTOR);
        r.environment.put("inputs", "recorded launches (numlint record), no generated inputs");
        List<Path> recs = new ArrayList<>();
        if (java.nio.file.Files.isRegularFile(dir.resolve("capture.json"), java.nio.file.LinkOption.NOFOLLOW_LINKS))
            recs.add(dir);
        else if (java.nio.file.Files.isDirectory(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try (var s = java.nio.file.Files.list(dir)) {
                s.filter(p -> java.nio.file.Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                        .filter(p -> java.nio.file.Files.isRegularFile(
                                p.resolve("capture.json"), java.nio.file.LinkOption.NOFOLLOW_LINKS))
                        .sorted()
                        .forEach(recs::add);
            }
        }
        if (recs.isEmpty())
            throw new IOException(dir + ": no recording here (no capture.json in it or its subdirectories)");
        for (Path p : recs) {
            Recording rec;
            try {
                rec = Recording.read(p);
            } catch (IOException e) {
                KernelResult k = new KernelResult();
                k.file = p.toString();
                k.kernel = "*";
                k.executor = EXECUTOR;
                k.verdict = Verdict.NOT_RUNNABLE;
                k.reason = e.getMessage();
                r.kernels.add(k);
                continue;
            }
            String on = rec.facts.getOrDefault("recordedOn", rec.facts.getOrDefault("name", "unknown device"));
            r.environment.put("recording " + p.getFileName(), on);
            for (Recording.RecordedLaunch l : rec.launches) {
                KernelResult k;
                try {
                    k = launch(rec, l);
                } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
                    k = failure(rec, l, "replay failed: " + e);
                }
                k.notes.addAll(rec.problems);
                for (String n : rec.notices)
                    if (n.contains(" " + l.kernel + ":") || !n.matches("^\\S+ \\S+:.*"))
                        k.notes.add("recording notice: " + n);
                r.kernels.add(k);
            }
            if (rec.launches.isEmpty()) {
                KernelResult k = new KernelResult();
                k.file = p.toString();
                k.kernel = "*";
                k.executor = EXECUTOR;
                k.verdict = Verdict.NOT_RUNNABLE;
                k.reason = "the recording holds no launch"
                        + (rec.notices.isEmpty() ? "" : ": " + String.join("; ", rec.notices));
                k.notes.addAll(rec.problems);
                r.kernels.add(k);
            }
        }
        return r;
    }

    private static KernelResult failure(Recording rec, Recording.RecordedLaunch l, String reason) {
        KernelResult k = new KernelResult();
        k.file = rec.dir + "#launch-" + l.id;
        k.kernel = l.kernel;
        k.executor = EXECUTOR;
        k.verdict = Verdict.NOT_RUNNABLE;
        k.reason = reason;
        return k;
    }

    /** The variants of generated-input validation (one list, one home: {@link Validator#ptxVariantsOf}). */
    private static List<Validator.PtxVariant> variants(Map<String, KernelHazards.Hit> hits) {
        return Validator.ptxVariantsOf(hits);
    }

    KernelResult launch(Recording rec, Recording.RecordedLaunch l) {
        KernelResult k = failure(rec, l, null);
        k.launch.put("source", "recorded launch " + l.id + " in " + rec.dir);
        k.launch.put("grid", Arrays.toString(l.grid));
        k.launch.put("block", Arrays.toString(l.block));
        k.launch.put("dynamicShared", Integer.toString(l.dynamicShared));
        if (l.unusable != null) {
            k.reason = l.unusable;
            return k;
        }
        if (!l.paramsKnown) {
            k.reason = "the parameter bytes of this launch were not recorded";
            return k;
        }
        Recording.Module mod = rec.moduleOf(l.kernel);
        if (mod == null) {
            k.reason = "no recorded module image with PTX defines " + l.kernel
                    + " (SASS-only images cannot run on the interpreter; record a build that embeds PTX, or one"
                    + " whose PTX the record step could extract with cuobjdump)";
            return k;
        }
        k.launch.put("module", mod.file + (mod.kind.equals("ptx") ? "" : " (PTX extracted from the " + mod.kind + ")"));
        PtxText.Module m;
        try {
            m = PtxModelAdapter.read(mod.ptx);
        } catch (RuntimeException e) {
            k.reason = "cannot read the PTX of " + mod.file + ": " + e.getMessage();
            return k;
        }
        PtxText.Func f = m.func(l.kernel);
        Map<String, KernelHazards.Hit> hits = KernelHazards.of(m.source, l.kernel, false);
        List<Validator.PtxVariant> vs = variants(hits);
        Map<String, Program> progs = new LinkedHashMap<>();
        try {
            for (Validator.PtxVariant v : vs) progs.put(v.name(), Decoder.decode(m, l.kernel, v.opts()));
        } catch (Decoder.Unsupported e) {
            k.reason = "unsupported: " + e.getMessage();
            return k;
        } catch (Decoder.TooLarge e) {
            k.reason = "too large: " + e.getMessage();
            return k;
        }
        Program asB = progs.get("as-built");
        if (asB.params.size() != l.paramLayout.size()) {
            k.reason = "the recording has " + l.paramLayout.size() + " parameters, the PTX's " + l.kernel + " has "
                    + asB.params.size();
            return k;
        }
        long total = 0;
        for (byte[] b : l.before) total += b.length + Launch.GAP;
        if (total > MAX_LAUNCH_BYTES) {
            k.reason = "too large: the launch's allocations hold " + total + " bytes, more than the interpreter's "
                    + MAX_LAUNCH_BYTES;
            return k;
        }
        // element type of each allocation: the access type of the first pointer parameter into it
        KernelSpec ks = InputInference.infer(f);
        String[] type = new String[l.before.size()];
        for (int i = 0; i < l.paramLayout.size(); i++) {
            int a = l.paramLayout.get(i)[2];
            if (a >= 0
                    && type[a] == null
                    && i < ks.params.size()
                    && ks.params.get(i).isArray()) type[a] = ks.params.get(i).type;
        }
        for (int a = 0; a < type.length; a++) if (type[a] == null) type[a] = "u8";
        Map<String, List<byte[]>> outs = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, Program> e : progs.entrySet()) outs.put(e.getKey(), run(e.getValue(), l));
        } catch (KernelFault e) {
            k.reason = "fault on the recorded inputs: " + e.getMessage();
            return k;
        }
        if (!asB.approximate.isEmpty())
            k.notes.add("approximate instructions modelled from their documented definitions, not bit-exact: "
                    + String.join(", ", asB.approximate));
        List<byte[]> a = outs.get("as-built"), st = outs.get("strict");
        // module variables the host may have written (cudaMemcpyToSymbol): format 1 does not record them
        List<String> moduleVars = m.vars.stream()
                .filter(v -> ("const".equals(v.space) || "global".equals(v.space)) && v.init == null)
                .map(v -> v.space + " " + v.name)
                .toList();
        if (!moduleVars.isEmpty())
            k.notes.add("the module declares variables the host may fill (cudaMemcpyToSymbol) that recording format 1"
                    + " does not capture; replayed with their PTX initialisers or zeros: " + moduleVars);
        // 1. does the as-built replay reproduce the recorded outputs?
        if (l.after == null) {
            k.launch.put("asBuiltReproduced", "not checked: the outputs after this launch were not recorded");
        } else {
            long diff = 0, elems = 0;
            for (int i = 0; i < a.size(); i++) {
                int sz = size(type[i]);
                for (int off = 0; off + sz <= a.get(i).length; off += sz) {
                    elems++;
                    if (!Arrays.equals(a.get(i), off, off + sz, l.after.get(i), off, off + sz)) diff++;
                }
            }
            k.launch.put(
                    "asBuiltReproduced",
                    diff == 0
                            ? "yes: all " + elems + " elements of the recorded allocations bit for bit"
                            : "no: " + diff + " of " + elems + " elements differ from the recorded outputs"
                                    + (!moduleVars.isEmpty()
                                            ? " (the module's __constant__/__device__ variables were not recorded and"
                                                    + " replay with zeros: " + moduleVars + ")"
                                            : asB.approximate.isEmpty()
                                                    ? " (float atomics or an order the interpreter does not model, or the GPU"
                                                            + " ran code other than this PTX)"
                                                    : " (the kernel uses approximate instructions the interpreter models"
                                                            + " within their documented error)"));
        }
        k.notes.add("as-built replay reproduces the recorded outputs: " + k.launch.get("asBuiltReproduced"));
        k.notes.add("errors of each build are measured against the IEEE-strict build on the recorded inputs");
        // 2. variants on the recorded inputs
        long compared = 0, differing = 0, maxUlp = 0;
        double sumUlp = 0;
        Map<String, Map<String, Long>> histo = new LinkedHashMap<>();
        Map<String, Long> removes = new LinkedHashMap<>();
        Map<String, double[]> err = new LinkedHashMap<>(); // maxAbs, maxRel, differing-from-as-built, relUndefined
        for (Validator.PtxVariant v : vs) {
            err.put(v.name(), new double[4]);
            if (v.rule() != null) removes.put(v.name(), 0L);
        }
        for (int i = 0; i < a.size(); i++) {
            boolean output = !Arrays.equals(a.get(i), l.before.get(i))
                    || !Arrays.equals(st.get(i), l.before.get(i))
                    || l.after != null && !Arrays.equals(l.after.get(i), l.before.get(i));
            if (!output) continue;
            String t = type[i];
            int sz = size(t);
            for (int off = 0; off + sz <= a.get(i).length; off += sz) {
                compared++;
                double sv = value(st.get(i), off, t);
                long u = ulp(a.get(i), st.get(i), off, t);
                if (u != 0) {
                    differing++;
                    maxUlp = Math.max(maxUlp, u);
                    if (u != Ulp.NAN_MISMATCH) sumUlp += u;
                    for (Map.Entry<String, Long> r : removes.entrySet())
                        if (ulp(outs.get(r.getKey()).get(i), st.get(i), off, t) == 0) r.setValue(r.getValue() + 1);
                }
                for (Validator.PtxVariant v : vs) {
                    byte[] vb = outs.get(v.name()).get(i);
                    double x = value(vb, off, t);
                    double[] e = err.get(v.name());
                    double abs = Double.isNaN(x) && Double.isNaN(sv) ? 0 : Math.abs(x - sv);
                    e[0] = Math.max(e[0], Double.isNaN(abs) ? Double.POSITIVE_INFINITY : abs);
                    if (sv != 0) e[1] = Math.max(e[1], abs / Math.abs(sv));
                    else if (abs != 0) e[3] = 1;
                    long vu = ulp(a.get(i), vb, off, t);
                    if (vu != 0) {
                        e[2]++;
                        if (v.rule() != null)
                            histo.computeIfAbsent(v.rule(), z -> new TreeMap<>())
                                    .merge(FindingResult.bucket(vu), 1L, Long::sum);
                    }
                }
            }
        }
        k.inputs = 1;
        k.elementsCompared = compared;
        k.elementsDiffering = differing;
        k.maxUlp = maxUlp;
        k.meanUlp = differing == 0 ? 0 : sumUlp / differing;
        k.verdict = differing > 0 ? Verdict.CONFIRMED : Verdict.NOT_OBSERVED;
        k.reason = compared == 0
                ? "no recorded allocation changed in this launch: nothing to compare"
                : differing > 0
                        ? differing + " of " + compared + " output elements differ between the as-built and the"
                                + " IEEE-strict build on the recorded inputs"
                        : "as-built and IEEE-strict agree on all " + compared
                                + " output elements of the recorded inputs";
        for (Validator.PtxVariant v : vs) {
            VariantError ve = new VariantError();
            ve.variant = v.name();
            ve.flags = v.flags();
            double[] e = err.get(v.name());
            ve.maxAbsError = e[0];
            if (e[3] == 0) ve.maxRelError = e[1];
            else ve.maxRelErrorNote = "undefined: the strict build's value is 0 where this build's is not";
            ve.elementsDifferingFromAsBuilt = (long) e[2];
            k.variants.add(ve);
            if (v.rule() != null) k.attribution.add(new Attribution(v.rule(), v.name(), removes.get(v.name())));
        }
        for (KernelHazards.Hit h : hits.values()) {
            FindingResult fr = new FindingResult();
            fr.rule = h.rule();
            fr.source = h.source();
            fr.sourceLine = h.sourceLine() > 0 ? h.sourceLine() : null;
            fr.sourceColumn = h.sourceColumn() > 0 ? h.sourceColumn() : null;
            fr.line = h.line();
            fr.evidence = h.text();
            Map<String, Long> hg = histo.get(h.rule());
            String variant = vs.stream()
                    .filter(v -> h.rule().equals(v.rule()))
                    .map(Validator.PtxVariant::name)
                    .findFirst()
                    .orElse(null);
            if (variant == null) {
                fr.verdict = Verdict.NOT_RUNNABLE;
                k.notes.add(h.rule() + ": no PTX-level switch for this hazard; not attributed on replay");
            } else {
                fr.elementsDiffering = hg == null
                        ? 0L
                        : hg.values().stream().mapToLong(Long::longValue).sum();
                fr.ulpHistogram = hg == null ? new TreeMap<>() : hg;
                fr.verdict = fr.elementsDiffering > 0 ? Verdict.CONFIRMED : Verdict.NOT_OBSERVED;
            }
            k.findings.add(fr);
        }
        return k;
    }

    private List<byte[]> run(Program p, Recording.RecordedLaunch l) throws KernelFault {
        Launch run = new Launch(p);
        long[] base = new long[l.before.size()];
        for (int a = 0; a < base.length; a++)
            base[a] = run.alloc(l.before.get(a).clone(), "recorded allocation " + a);
        for (int i = 0; i < l.paramLayout.size(); i++) {
            int[] pl = l.paramLayout.get(i);
            if (pl[2] >= 0) run.param(i, base[pl[2]] + pl[3]);
            else run.paramBytes(i, Arrays.copyOfRange(l.params, pl[0], pl[0] + pl[1]));
        }
        run.run(l.grid, l.block, l.dynamicShared, instructionLimit);
        List<byte[]> out = new ArrayList<>();
        for (int a = 0; a < base.length; a++) out.add(run.read(base[a], l.before.get(a).length));
        return out;
    }

    static int size(String t) {
        String d = t.replaceAll("[^0-9]", "");
        int bits = d.isEmpty() ? 8 : Integer.parseInt(d);
        return Math.max(1, bits / 8);
    }

    private static double value(byte[] b, int off, String t) {
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        return switch (t) {
            case "f32" -> bb.getFloat(off);
            case "f64" -> bb.getDouble(off);
            case "f16", "bf16" -> bb.getShort(off) & 0xffff; // compared as bits
            default -> switch (size(t)) {
                case 1 -> t.startsWith("s") ? b[off] : b[off] & 0xff;
                case 2 -> t.startsWith("s") ? bb.getShort(off) : bb.getShort(off) & 0xffff;
                case 4 -> t.startsWith("s") ? bb.getInt(off) : bb.getInt(off) & 0xffffffffL;
                default -> bb.getLong(off);
            };
        };
    }

    private static long ulp(byte[] x, byte[] y, int off, String t) {
        if (Arrays.equals(x, off, off + size(t), y, off, off + size(t))) return 0;
        ByteBuffer a = ByteBuffer.wrap(x).order(ByteOrder.LITTLE_ENDIAN),
                b = ByteBuffer.wrap(y).order(ByteOrder.LITTLE_ENDIAN);
        return switch (t) {
            case "f32" -> Ulp.distance(a.getFloat(off), b.getFloat(off));
            case "f64" -> Ulp.distance(a.getDouble(off), b.getDouble(off));
            default -> {
                double d = Math.abs(value(x, off, t) - value(y, off, t));
                yield d == 0 ? 1 : (long) Math.min(d, Long.MAX_VALUE - 1);
            }
        };
    }
}
