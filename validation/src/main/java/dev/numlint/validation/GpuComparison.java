package dev.numlint.validation;

import static dev.numlint.validation.Elements.show;
import static dev.numlint.validation.Elements.size;
import static dev.numlint.validation.Elements.ulp;
import static dev.numlint.validation.Elements.values;

import dev.numlint.model.Verdict;
import dev.numlint.validation.InputSets.Aggregate;
import dev.numlint.validation.InputSets.InputSet;
import dev.numlint.validation.InputSets.Outputs;
import dev.numlint.validation.Variants.Variant;
import dev.numlint.validation.fp.Ulp;
import dev.numlint.validation.gpu.GpuJob;
import dev.numlint.validation.gpu.GpuProcess;
import dev.numlint.validation.input.KernelSpec;
import dev.numlint.validation.interp.Program;
import dev.numlint.validation.report.Agreement;
import dev.numlint.validation.report.Attribution;
import dev.numlint.validation.report.GpuKernelResult;
import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.VariantError;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The GPU runs of one kernel's variants on the interpreter's inputs, and their comparisons. The launches of
 * every build and input set are collected while the interpreter runs, then made together in one child process
 * ({@link GpuProcess}): a fault there ends that process and is reported on this kernel only.
 */
final class GpuComparison {
    private final ValidationOptions o;

    final Map<String, Agreement> agree = new LinkedHashMap<>();
    final Map<String, List<Float>> times = new LinkedHashMap<>();
    final Map<String, double[]> err = new LinkedHashMap<>(); // maxAbs, sumAbs, count
    final Map<String, String> failed = new LinkedHashMap<>();
    final Map<String, Long> removes = new LinkedHashMap<>();
    long compared, differing, maxUlp;
    double sumUlp;
    boolean ran;
    /** The first GPU fault of this kernel (a launch error, or the child process crashed or timed out). */
    String fault;
    /** Input sets waiting for the GPU: the interpreter's outputs and the launch they ran with. */
    final List<Pending> pending = new ArrayList<>();

    record Pending(
            int set, InputSet in, Map<String, Outputs> outs, Outputs refOut, int[] grid, int[] block, int shared) {}

    GpuComparison(ValidationOptions o, List<Variant> vs) {
        this.o = o;
        for (Variant v : vs) if (v.rule != null) removes.put(v.name, 0L);
    }

    /** Queues input set {@code set} (already run on the interpreter) for the GPU. */
    void add(int set, KernelSpec ks, InputSet in, Map<String, Outputs> outs, Outputs refOut) {
        pending.add(new Pending(
                set,
                in,
                new LinkedHashMap<>(outs),
                refOut,
                ks.gridFor(in.n).clone(),
                KernelSpec.pad(ks.block).clone(),
                ks.sharedBytes));
    }

    /** Runs the queued launches in one child process and compares them with the interpreter's outputs. */
    void execute(String kernel, KernelSpec ks, List<Variant> vs, Map<String, Program> progs) {
        if (pending.isEmpty()) return;
        GpuJob job = new GpuJob();
        job.kernel = kernel;
        job.repeats = o.gpuRepeats;
        Map<String, byte[]> files = new LinkedHashMap<>();
        List<Variant> onGpu = new ArrayList<>();
        for (Variant v : vs) {
            Program p = progs.get(v.name);
            if (p == null || !pending.get(0).outs().containsKey(v.name)) continue;
            if (v.ptx == null) {
                failed.put(v.name, "no PTX for the GPU (a PTX-level switch applied by the interpreter only)");
                continue;
            }
            files.put("ptx-" + onGpu.size() + ".ptx", v.ptx.getBytes(StandardCharsets.UTF_8));
            onGpu.add(v);
        }
        if (onGpu.isEmpty()) return;
        for (Pending pe : pending) {
            List<GpuJob.Arg> args = new ArrayList<>();
            for (int i = 0; i < pe.in().args.size(); i++) {
                Object a = pe.in().args.get(i);
                GpuJob.Arg arg = new GpuJob.Arg();
                if (a instanceof byte[] data) {
                    arg.kind = "buffer";
                    arg.file = "in-" + pe.set() + "-" + i + ".bin";
                    files.put(arg.file, data);
                } else if (a instanceof Aggregate ag) {
                    arg.kind = "bytes";
                    arg.file = "in-" + pe.set() + "-" + i + ".bin";
                    files.put(arg.file, ag.bytes);
                } else {
                    arg.kind = "scalar";
                    arg.value = (Long) a;
                }
                args.add(arg);
            }
            for (int vi = 0; vi < onGpu.size(); vi++) {
                Variant v = onGpu.get(vi);
                Program p = progs.get(v.name);
                GpuJob.Launch l = new GpuJob.Launch();
                l.variant = v.name;
                l.set = pe.set();
                l.ptxFile = "ptx-" + vi + ".ptx";
                l.grid = pe.grid();
                l.block = pe.block();
                l.sharedBytes = pe.shared();
                l.paramSizes = new int[p.params.size()];
                for (int i = 0; i < l.paramSizes.length; i++) l.paramSizes[i] = p.params.get(i).size;
                l.args = args;
                job.launches.add(l);
            }
        }
        GpuProcess.KernelRun run = GpuProcess.run(o.gpuSettings(), job, files);
        Map<Integer, Map<String, Map<Integer, byte[]>>> bySet = new LinkedHashMap<>();
        for (GpuProcess.Outcome oc : run.outcomes()) {
            String where = "build " + oc.variant() + ", input set " + oc.set();
            switch (oc.status()) {
                case "ok" -> {
                    if (failed.containsKey(oc.variant())) break;
                    bySet.computeIfAbsent(oc.set(), x -> new LinkedHashMap<>()).put(oc.variant(), oc.buffers());
                    List<Float> t = times.computeIfAbsent(oc.variant(), x -> new ArrayList<>());
                    if (oc.kernelMillis() != null) for (float f : oc.kernelMillis()) t.add(f);
                    ran = true;
                }
                case "failed" -> {
                    failed.putIfAbsent(oc.variant(), "GPU launch failed (" + where + "): " + oc.error());
                    if (fault == null)
                        fault = "GPU fault in kernel " + shown(kernel) + " (" + where + "): " + oc.error()
                                + "; the kernel's GPU process was ended, later kernels run in fresh ones";
                }
                default -> failed.putIfAbsent(oc.variant(), "not run (" + where + "): " + oc.error());
            }
        }
        if (run.processFault() != null) {
            String what = run.describeFault(shown(kernel));
            if (fault == null) fault = what + "; later kernels run in fresh processes";
            for (Variant v : onGpu) {
                boolean complete = true;
                for (Pending pe : pending) {
                    Map<String, Map<Integer, byte[]>> got = bySet.get(pe.set());
                    if (got == null || !got.containsKey(v.name)) complete = false;
                }
                if (!complete) failed.putIfAbsent(v.name, what);
            }
        }
        for (Pending pe : pending) {
            Map<String, Map<Integer, byte[]>> gout = bySet.getOrDefault(pe.set(), new LinkedHashMap<>());
            gout.keySet().removeIf(failed::containsKey); // a build with a failed set is not compared
            compare(pe.set(), ks, pe.outs(), pe.refOut(), gout);
        }
        ran = !agree.isEmpty(); // some build's results were compared with the interpreter's
        pending.clear();
    }

    private void compare(
            int set, KernelSpec ks, Map<String, Outputs> outs, Outputs refOut, Map<String, Map<Integer, byte[]>> gout) {
        Map<Integer, byte[]> ga = gout.get("as-built"), gs = gout.get("strict");
        for (Map.Entry<Integer, byte[]> e : outs.get("as-built").bytes.entrySet()) {
            int pi = e.getKey();
            String t = ks.params.get(pi).type;
            int w = size(t);
            double[] rv = refOut.ref.containsKey(pi) ? refOut.ref.get(pi) : values(refOut.bytes.get(pi), t);
            for (Map.Entry<String, Map<Integer, byte[]>> gv : gout.entrySet()) {
                byte[] gb = gv.getValue().get(pi),
                        cb = outs.get(gv.getKey()).bytes.get(pi);
                if (gb == null || cb == null || gb.length != cb.length) {
                    failed.putIfAbsent(
                            gv.getKey(),
                            "the GPU returned no buffer for parameter " + ks.params.get(pi).name + " (input set " + set
                                    + ")");
                    continue;
                }
                Agreement ag = agree.computeIfAbsent(gv.getKey(), Agreement::new);
                double[] gvals = values(gb, t), cvals = values(cb, t);
                double[] acc = err.computeIfAbsent(gv.getKey(), x -> new double[3]);
                for (int i = 0; i < gvals.length; i++) {
                    ag.elementsCompared++;
                    if (!java.util.Arrays.equals(gb, i * w, i * w + w, cb, i * w, i * w + w)) {
                        if (ag.elementsDiffering++ == 0) {
                            ag.firstDifference =
                                    "input set " + set + ", parameter " + ks.params.get(pi).name + ", element " + i
                                            + ": gpu " + show(gb, i, t) + ", cpu-interpreter " + show(cb, i, t);
                        }
                    }
                    double abs = Math.abs(gvals[i] - rv[i]);
                    if (Double.isNaN(gvals[i]) && Double.isNaN(rv[i])) abs = 0;
                    acc[0] = Math.max(acc[0], abs);
                    acc[1] += abs;
                    acc[2]++;
                }
            }
            if (ga == null || gs == null || ga.get(pi) == null || gs.get(pi) == null) continue;
            double[] av = values(ga.get(pi), t), sv = values(gs.get(pi), t);
            for (int i = 0; i < av.length; i++) {
                compared++;
                long u = ulp(av[i], sv[i], t);
                if (u == 0) continue;
                differing++;
                maxUlp = Math.max(maxUlp, u);
                if (u != Ulp.NAN_MISMATCH) sumUlp += u;
                for (Map.Entry<String, Long> r : removes.entrySet()) {
                    Map<Integer, byte[]> gr = gout.get(r.getKey());
                    if (gr != null && gr.get(pi) != null && ulp(values(gr.get(pi), t)[i], sv[i], t) == 0)
                        r.setValue(r.getValue() + 1);
                }
            }
        }
    }

    void finish(KernelResult res, String kernel, KernelSpec ks, List<Variant> vs, Map<String, Program> progs) {
        execute(kernel, ks, vs, progs);
        finishResults(res, vs);
    }

    /** The kernel is not runnable on the interpreter: nothing of it runs on the GPU. */
    void close(KernelResult res) {
        pending.clear();
    }

    private void finishResults(KernelResult res, List<Variant> vs) {
        GpuKernelResult gr = new GpuKernelResult();
        res.gpu = gr;
        if (fault != null) {
            gr.verdict = Verdict.NOT_RUNNABLE;
            gr.fault = fault;
        }
        if (!ran) {
            gr.reason = failed.isEmpty()
                    ? "no variant ran on the GPU"
                    : String.join(
                            "; ",
                            failed.entrySet().stream()
                                    .map(x -> x.getKey() + ": " + x.getValue())
                                    .toList());
            return;
        }
        res.executor = Validator.GPU_EXECUTOR;
        if (fault == null && compared > 0) gr.verdict = differing > 0 ? Verdict.CONFIRMED : Verdict.NOT_OBSERVED;
        gr.elementsCompared = compared;
        gr.elementsDiffering = differing;
        gr.maxUlp = maxUlp;
        gr.meanUlp = differing == 0 ? 0 : sumUlp / compared;
        double[] ea = err.get("as-built"), es = err.get("strict");
        if (ea != null && es != null) {
            double ma = ea[2] == 0 ? 0 : ea[1] / ea[2], ms = es[2] == 0 ? 0 : es[1] / es[2];
            gr.closerToReference = ma < ms ? "as-built" : ms < ma ? "strict" : "equal";
        }
        for (Variant v : vs) {
            if (removes.containsKey(v.name) && err.containsKey(v.name))
                gr.attribution.add(new Attribution(v.rule, v.name, removes.get(v.name)));
        }
        for (Map.Entry<String, Agreement> e : agree.entrySet()) {
            Agreement a = e.getValue();
            switch (e.getKey()) {
                case "strict":
                    gr.strictAgreement = a;
                    if (a.elementsDiffering > 0) {
                        a.note = "interpreter/launch discrepancy: the IEEE-strict build must agree bit for bit";
                        res.notes.add("GPU and CPU interpreter disagree on " + a.elementsDiffering + " of "
                                + a.elementsCompared + " elements of the IEEE-strict build (first: "
                                + a.firstDifference + ")");
                    } else a.note = "bit-exact";
                    break;
                case "as-built":
                    gr.asBuiltAgreement = a;
                    a.note = a.elementsDiffering == 0
                            ? "bit-exact"
                            : "differences expected only from approximate instructions (modelled, not bit-exact in the interpreter)";
                    break;
                default:
                    a.note = a.elementsDiffering == 0
                            ? "bit-exact"
                            : "differences expected only from approximate instructions";
                    gr.variantAgreement.add(a);
            }
        }
        if (!failed.isEmpty())
            gr.reason = String.join(
                    "; ",
                    failed.entrySet().stream()
                            .map(x -> x.getKey() + ": " + x.getValue())
                            .toList());
        for (VariantError ve : res.variants) {
            double[] acc = err.get(ve.variant);
            if (acc != null) {
                ve.gpuMaxAbsError = acc[0];
                ve.gpuMeanAbsError = acc[2] == 0 ? 0 : acc[1] / acc[2];
            }
            List<Float> t = times.get(ve.variant);
            if (t != null && !t.isEmpty() && !failed.containsKey(ve.variant)) {
                List<Float> st = new ArrayList<>(t);
                java.util.Collections.sort(st);
                ve.gpuKernelMillis = (double) st.get(st.size() / 2);
            }
            if (failed.containsKey(ve.variant)) ve.gpuReason = failed.get(ve.variant);
        }
    }

    /** A kernel's name for messages: as written in the source, with the PTX (mangled) name when it differs. */
    static String shown(String kernel) {
        String simple = dev.numlint.ptx.Demangler.simpleName(kernel);
        return simple.equals(kernel) ? kernel : simple + " (" + kernel + ")";
    }
}
