package dev.numlint.validation.replay;

import dev.numlint.model.Verdict;
import dev.numlint.validation.KernelHazards;
import dev.numlint.validation.Variants;
import dev.numlint.validation.gpu.GpuJob;
import dev.numlint.validation.gpu.GpuProcess;
import dev.numlint.validation.input.InputInference;
import dev.numlint.validation.input.KernelSpec;
import dev.numlint.validation.interp.Decoder;
import dev.numlint.validation.interp.KernelFault;
import dev.numlint.validation.interp.Launch;
import dev.numlint.validation.interp.Program;
import dev.numlint.validation.interp.PtxModelAdapter;
import dev.numlint.validation.interp.PtxText;
import dev.numlint.validation.report.Agreement;
import dev.numlint.validation.report.Attribution;
import dev.numlint.validation.report.FindingResult;
import dev.numlint.validation.report.GpuKernelResult;
import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.ValidationReport;
import dev.numlint.validation.report.VariantError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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

    public static final String GPU_EXECUTOR = "gpu (recorded launch; the interpreter could not run it)";

    private final long instructionLimit;
    /** The GPU child process's settings, or null: the interpreter only. */
    private final GpuProcess.Settings gpuSettings;

    private final int gpuRepeats;

    public Replayer(long instructionLimit) {
        this(instructionLimit, null, 0);
    }

    /** A replayer that also runs every launch on the GPU (gpu non-null: a probe found one), timedRepeats times more. */
    public Replayer(long instructionLimit, GpuProcess.Settings gpu, int timedRepeats) {
        this.instructionLimit = instructionLimit;
        this.gpuSettings = gpu;
        this.gpuRepeats = Math.max(1, timedRepeats);
    }

    /** Replays every recording found at dir (a recording, or a directory of recordings). */
    public ValidationReport replay(Path dir) throws IOException {
        ValidationReport r = new ValidationReport();
        r.environment.put("executor", gpuSettings != null ? "gpu+" + EXECUTOR : EXECUTOR);
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

    /**
     * A build replayed: the recorded PTX with PTX-level switches ({@code ptx} null), or a build of the project's own
     * compile command ({@code ptx}: its PTX text, run as nvcc wrote it).
     */
    record Build(String name, String rule, List<String> flags, Decoder.Options opts, String ptx) {}

    /** The PTX of the project's own as-built build of {@code kernel}, or null (no PATH, no unit, build failed). */
    private String rebuiltAsBuilt(String kernel, String deviceArch) {
        if (project == null || !(project.of(kernel, null, deviceArch) instanceof ProjectBuilds.Found f)) return null;
        for (ProjectBuilds.Build b : f.builds()) if (b.name().equals("as-built")) return b.ptx();
        return null;
    }

    /** The project's compile commands (validate --replay DIR PATH), or null: no PATH was given. */
    private ProjectBuilds project;

    /** Rebuilds each recorded kernel from the project's own compile command too ({@link ProjectBuilds}). */
    public Replayer withProjectBuilds(ProjectBuilds p) {
        this.project = p;
        return this;
    }

    /**
     * The builds of a launch: the PTX-level switches of generated-input validation on the recorded PTX (one list,
     * one home: {@link Variants#ptxVariantsOf}), and with the project's compile command its nvcc builds, whose
     * strict build is then the strict build ("ptx-strict" the PTX-level one); says in {@code k} which command.
     */
    private List<Build> variants(
            Map<String, KernelHazards.Hit> hits, String kernel, String ptx, String deviceArch, KernelResult k) {
        List<Build> ptxLevel = new ArrayList<>();
        for (Variants.PtxVariant v : Variants.ptxVariantsOf(hits))
            ptxLevel.add(new Build(v.name(), v.rule(), v.flags(), v.opts(), null));
        Object found = project == null ? null : project.of(kernel, ptx, deviceArch);
        if (!(found instanceof ProjectBuilds.Found f)) {
            k.build = "the recorded module's PTX, with PTX-level switches for the variants (no compile command: "
                    + (found instanceof ProjectBuilds.NotFound nf
                            ? nf.why()
                            : "give the project's PATH after --replay DIR to rebuild with its own commands")
                    + ")";
            return ptxLevel;
        }
        k.build = f.command() + "; unit " + f.unit().shown() + " found as " + f.how();
        k.notes.addAll(f.notes());
        List<Build> out = new ArrayList<>();
        out.add(ptxLevel.get(0)); // the recorded as-built image: what ran
        Build rebuilt = null;
        for (ProjectBuilds.Build b : f.builds()) {
            if (b.ptx() == null) {
                k.notes.add("the project's " + b.name() + " build failed: " + b.error());
                continue;
            }
            Decoder.Options o = new Decoder.Options().contract(true);
            if (b.name().equals("as-built")) rebuilt = new Build(REBUILT, null, b.flags(), o, b.ptx());
            else out.add(new Build(b.name(), b.rule(), b.flags(), o, b.ptx()));
        }
        if (out.stream().noneMatch(b -> b.name().equals("strict"))) return ptxLevel;
        for (Build b : ptxLevel.subList(1, ptxLevel.size()))
            out.add(b.name().equals("strict") ? new Build(PTX_STRICT, null, b.flags(), b.opts(), null) : b);
        if (rebuilt != null) out.add(rebuilt);
        return out;
    }

    /** The project's as-built command rebuilt: compared with the recorded image that ran. */
    static final String REBUILT = "as-built (rebuilt)";

    static final String PTX_STRICT = "ptx-strict";

    KernelResult launch(Recording rec, Recording.RecordedLaunch l) {
        KernelResult k = failure(rec, l, null);
        String cc = rec.facts.get("computeCapability");
        // the virtual architecture of the GPU the launch was recorded on (compute_90), or null
        String deviceArch = cc != null && cc.matches("\\d{1,2}\\.\\d") ? "compute_" + cc.replace(".", "") : null;
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
        // the PTX the interpreter runs and the PTX-level switches rewrite: the recorded image's, else (a SASS-only
        // image, e.g. of a separable-compilation build) the project's own as-built build of the kernel's unit
        String basePtx = mod == null ? null : mod.ptx;
        PtxText.Module m = null;
        String interpWhy = null;
        if (mod == null) {
            String rebuilt = rebuiltAsBuilt(l.kernel, deviceArch);
            if (rebuilt != null) {
                basePtx = rebuilt;
                k.launch.put(
                        "module",
                        "the project's as-built build (the recorded image holds no PTX: SASS only); the GPU runs"
                                + " the recorded image, the interpreter and the variants this build's PTX");
                try {
                    m = PtxModelAdapter.read(rebuilt);
                } catch (RuntimeException e) {
                    interpWhy = "cannot read the PTX of the project's as-built build: " + e.getMessage();
                }
            } else
                interpWhy = "no recorded module image with PTX defines " + l.kernel
                        + " (SASS-only images cannot run on the interpreter; record a build that embeds PTX, or one"
                        + " whose PTX the record step could extract with cuobjdump, or give the project's PATH"
                        + " after --replay DIR so that its own compile command rebuilds the kernel)";
        } else {
            k.launch.put(
                    "module", mod.file + (mod.kind.equals("ptx") ? "" : " (PTX extracted from the " + mod.kind + ")"));
            try {
                m = PtxModelAdapter.read(mod.ptx);
            } catch (RuntimeException e) {
                interpWhy = "cannot read the PTX of " + mod.file + ": " + e.getMessage();
            }
        }
        Map<String, KernelHazards.Hit> hits = m != null ? KernelHazards.of(m.source, l.kernel, false) : Map.of();
        if (m != null) {
            List<String> written = SymbolWrites.apply(rec.symbolWrites, l, m.vars);
            if (!written.isEmpty())
                k.notes.add("module variables rebuilt from the program's cudaMemcpyToSymbol writes before this launch: "
                        + written);
        }
        List<Build> vs = variants(hits, l.kernel, mod == null ? null : mod.ptx, deviceArch, k);
        // element type of each allocation: the access type of the first pointer parameter into it
        String[] type = new String[l.before.size()];
        if (m != null && m.func(l.kernel) != null) {
            KernelSpec ks = InputInference.infer(m.func(l.kernel));
            for (int i = 0; i < l.paramLayout.size(); i++) {
                int a = l.paramLayout.get(i)[2];
                if (a >= 0
                        && type[a] == null
                        && i < ks.params.size()
                        && ks.params.get(i).isArray()) type[a] = ks.params.get(i).type;
            }
        }
        for (int a = 0; a < type.length; a++) if (type[a] == null) type[a] = "u8";
        // 1. the interpreter
        Map<String, List<byte[]>> outs = null;
        Program asB = null;
        if (m != null) {
            Map<String, Program> progs = new LinkedHashMap<>();
            try {
                for (Build v : vs) {
                    if (v.ptx() == null) progs.put(v.name(), Decoder.decode(m, l.kernel, v.opts()));
                    else {
                        // a build of the project's command: one that cannot run is left out, with the reason
                        String why = projectProgram(v, l, progs);
                        if (why != null) k.notes.add("the project's " + v.name() + " build not replayed: " + why);
                    }
                }
                asB = progs.get("as-built");
                long total = 0;
                for (byte[] b : l.before) total += b.length + Launch.GAP;
                if (!l.textureNotModelled.isEmpty()) interpWhy = String.join("; ", l.textureNotModelled);
                else if (asB.params.size() != l.paramLayout.size())
                    interpWhy = "the recording has " + l.paramLayout.size() + " parameters, the PTX's " + l.kernel
                            + " has " + asB.params.size();
                else if (total > MAX_LAUNCH_BYTES)
                    interpWhy = "too large: the launch's allocations hold " + total
                            + " bytes, more than the interpreter's " + MAX_LAUNCH_BYTES;
                else {
                    outs = new LinkedHashMap<>();
                    for (Map.Entry<String, Program> e : progs.entrySet()) outs.put(e.getKey(), run(e.getValue(), l));
                }
            } catch (Decoder.Unsupported e) {
                interpWhy = "unsupported: " + e.getMessage();
            } catch (Decoder.TooLarge e) {
                interpWhy = "too large: " + e.getMessage();
            } catch (KernelFault e) {
                interpWhy = "fault on the recorded inputs: " + e.getMessage();
                outs = null;
            }
        }
        // module variables the host may have written (cudaMemcpyToSymbol): format 1 does not record them
        java.util.Set<String> recordedVars = new java.util.HashSet<>();
        for (Recording.Global g : l.globals) recordedVars.add(g.name);
        List<String> moduleVars = m == null
                ? List.of()
                : m.vars.stream()
                        .filter(v -> ("const".equals(v.space) || "global".equals(v.space)) && v.init == null)
                        .filter(v -> !recordedVars.contains(v.name))
                        .map(v -> v.space + " " + v.name)
                        .toList();
        if (!moduleVars.isEmpty())
            k.notes.add("the module declares variables the host may fill (cudaMemcpyToSymbol) that the recording does"
                    + " not hold (the program never resolved them by name, or an older capture layer); replayed with"
                    + " their PTX initialisers or zeros: " + moduleVars);
        java.util.Set<String> copiedVars = new java.util.HashSet<>(); // copied at the launch, not rebuilt from writes
        for (Recording.Global g : l.globals) if (g.file != null) copiedVars.add(g.name);
        List<String> restored = m == null
                ? List.of()
                : m.vars.stream()
                        .filter(v -> copiedVars.contains(v.name))
                        .map(v -> v.space + " " + v.name)
                        .toList();
        if (!restored.isEmpty()) k.notes.add("module variables restored from the recording: " + restored);
        boolean floatAtomics = basePtx != null && FLOAT_ATOMIC.matcher(basePtx).find();
        // elements of the recorded outputs the interpreter's as-built replay did not reproduce (-1: not compared)
        long interpNotReproduced = -1;
        BuildComparison.Stats interp = null;
        boolean exceptionsCounted = false;
        if (outs != null) {
            if (!asB.approximate.isEmpty())
                k.notes.add("approximate instructions modelled from their documented definitions, not bit-exact: "
                        + String.join(", ", asB.approximate));
            // does the as-built replay reproduce the recorded outputs?
            if (l.after == null) {
                k.launch.put("asBuiltReproduced", "not checked: the outputs after this launch were not recorded");
            } else {
                long[] d = BuildComparison.differing(outs.get("as-built"), l.after, type);
                interpNotReproduced = d[0];
                k.launch.put(
                        "asBuiltReproduced",
                        d[0] == 0
                                ? "yes: all " + d[1] + " elements of the recorded allocations bit for bit"
                                : "no: " + d[0] + " of " + d[1] + " elements differ from the recorded outputs"
                                        + (!moduleVars.isEmpty()
                                                ? " (the module's __constant__/__device__ variables were not recorded"
                                                        + " and replay with zeros: " + moduleVars + ")"
                                                : !asB.approximate.isEmpty()
                                                        ? " (the kernel uses approximate instructions the interpreter"
                                                                + " models within their documented error)"
                                                        : floatAtomics
                                                                ? " (float atomics: the sum depends on the order the"
                                                                        + " GPU ran the threads in)"
                                                                : " (an order the interpreter does not model, or the"
                                                                        + " GPU ran code other than this PTX)"));
            }
            k.notes.add("as-built replay reproduces the recorded outputs: " + k.launch.get("asBuiltReproduced"));
            if (outs.containsKey(REBUILT)) {
                long[] d = BuildComparison.differing(outs.get(REBUILT), outs.get("as-built"), type);
                k.launch.put(
                        "compileCommandReproduces",
                        d[0] == 0
                                ? "yes: the project's as-built command gives the recorded image's outputs on all "
                                        + d[1] + " elements"
                                : "no: " + d[0] + " of " + d[1] + " elements differ from the recorded image's outputs"
                                        + " (the program that ran was not built with this command, or with another"
                                        + " compiler)");
            }
            k.notes.add("errors of each build are measured against the IEEE-strict build on the recorded inputs");
            interp = BuildComparison.compare(outs, l, type, vs);
            // floating-point exceptions of the as-built build on the recorded inputs, per PTX instruction
            try {
                Program fx = Decoder.decode(
                        m, l.kernel, new Decoder.Options().contract(true).exceptions(true));
                run(fx, l, 2 * instructionLimit); // each checked instruction counts twice
                k.exceptions = dev.numlint.validation.report.ExceptionCount.of(fx);
                exceptionsCounted = true;
            } catch (Decoder.Unsupported | Decoder.TooLarge | KernelFault e) {
                k.notes.add("floating-point exceptions not counted: " + e.getMessage());
            }
        } else k.notes.add("the interpreter cannot replay this launch: " + interpWhy);
        // 2. the GPU
        BuildComparison.Stats onGpu = null;
        if (gpuSettings != null) onGpu = gpu(rec, l, mod, basePtx, vs, type, outs, floatAtomics, moduleVars, k);
        // 3. the verdict: from the interpreter's comparison, else from the GPU's
        boolean gpuOrdered = k.gpu != null && k.gpu.verdict != Verdict.INCONCLUSIVE;
        BuildComparison.Stats main = interp != null ? interp : gpuOrdered ? onGpu : null;
        if (main == null || main.err.get("strict") == null) {
            k.reason = interpWhy != null ? interpWhy : "no comparison of the as-built and strict builds was made";
            if (k.gpu != null && k.gpu.reason != null) k.reason += "; on the GPU: " + k.gpu.reason;
            if (k.gpu != null && k.gpu.verdict == Verdict.INCONCLUSIVE) k.verdict = Verdict.INCONCLUSIVE;
            return k;
        }
        if (interp == null) k.executor = GPU_EXECUTOR;
        k.inputs = 1;
        k.elementsCompared = main.compared;
        k.elementsDiffering = main.differing;
        k.maxUlp = main.maxUlp;
        k.meanUlp = main.differing == 0 ? 0 : main.sumUlp / main.differing;
        long gDiff = interp != null && onGpu != null && gpuOrdered ? onGpu.differing : 0;
        k.verdict = main.differing > 0 || gDiff > 0 ? Verdict.CONFIRMED : Verdict.NOT_OBSERVED;
        String where = interp == null ? " on the GPU" : "";
        k.reason = main.compared == 0
                ? "no recorded allocation changed in this launch: nothing to compare"
                : main.differing > 0
                        ? main.differing + " of " + main.compared + " output elements differ between the as-built and"
                                + " the IEEE-strict build on the recorded inputs" + where
                        : "as-built and IEEE-strict agree on all " + main.compared
                                + " output elements of the recorded inputs" + where
                                + (gDiff > 0 ? "; on the GPU " + gDiff + " differ" : "")
                                + (interp != null && onGpu != null && !gpuOrdered
                                        ? "; on the GPU: " + k.gpu.reason
                                        : "");
        Map<String, VariantError> byName = new LinkedHashMap<>();
        for (VariantError ve : k.variants) byName.put(ve.variant, ve);
        for (Build v : vs) {
            double[] e = main.err.get(v.name());
            if (e == null) continue;
            VariantError ve = byName.computeIfAbsent(v.name(), x -> new VariantError());
            ve.variant = v.name();
            ve.flags = v.flags();
            ve.maxAbsError = e[0];
            if (e[3] == 0) ve.maxRelError = e[1];
            else ve.maxRelErrorNote = "undefined: the strict build's value is 0 where this build's is not";
            ve.elementsDifferingFromAsBuilt = (long) e[2];
            if (v.rule() != null) k.attribution.add(new Attribution(v.rule(), v.name(), main.removes.get(v.name())));
        }
        k.variants = new ArrayList<>(byName.values());
        k.variants.sort(java.util.Comparator.comparingInt(ve -> indexOf(vs, ve.variant)));
        // incomplete inputs: the replay does not give the recorded outputs and the recording lacks module variables
        // the host may have written (a __constant__ table zeroed): the comparison does not speak for the real run
        long gpuNotReproduced =
                k.gpu != null && k.gpu.recordedAgreement != null ? k.gpu.recordedAgreement.elementsDiffering : -1;
        boolean incomplete = !moduleVars.isEmpty() && (interpNotReproduced > 0 || gpuNotReproduced > 0);
        if (incomplete) {
            k.verdict = Verdict.INCONCLUSIVE;
            k.reason = "inconclusive: the recording does not hold the module variables " + moduleVars
                    + " that the host may have written (cudaMemcpyToSymbol), and the as-built replay does not"
                    + " reproduce the recorded outputs ("
                    + Math.max(interpNotReproduced, gpuNotReproduced)
                    + " elements differ), so these inputs are not the real run's; on them: " + k.reason;
        }
        for (KernelHazards.Hit h : hits.values()) {
            FindingResult fr = new FindingResult();
            fr.rule = h.rule();
            fr.source = h.source();
            fr.sourceLine = h.sourceLine() > 0 ? h.sourceLine() : null;
            fr.sourceColumn = h.sourceColumn() > 0 ? h.sourceColumn() : null;
            fr.line = h.line();
            fr.evidence = h.text();
            if (exceptionsCounted)
                fr.exceptions = dev.numlint.validation.report.ExceptionCount.at(
                        k.exceptions, fr.source, fr.sourceLine, fr.line);
            // the build that switches this hazard off alone: the project's nvcc switch first, else the PTX-level one
            String variant = vs.stream()
                    .filter(v -> h.rule().equals(v.rule()) && main.err.containsKey(v.name()))
                    .map(Build::name)
                    .findFirst()
                    .orElse(null);
            Map<String, Long> hg = variant == null ? null : main.histo.get(variant);
            if (variant == null) {
                fr.verdict = Verdict.NOT_RUNNABLE;
                k.notes.add(h.rule() + ": no PTX-level switch for this hazard; not attributed on replay");
            } else {
                fr.elementsDiffering = hg == null
                        ? 0L
                        : hg.values().stream().mapToLong(Long::longValue).sum();
                fr.ulpHistogram = hg == null ? new TreeMap<>() : hg;
                fr.verdict = incomplete
                        ? Verdict.INCONCLUSIVE
                        : fr.elementsDiffering > 0 ? Verdict.CONFIRMED : Verdict.NOT_OBSERVED;
            }
            k.findings.add(fr);
        }
        return k;
    }

    private static int indexOf(List<Build> vs, String name) {
        for (int i = 0; i < vs.size(); i++) if (vs.get(i).name().equals(name)) return i;
        return vs.size();
    }

    /** An atomic add on floating-point values: its result depends on the order the threads ran in. */
    static final java.util.regex.Pattern FLOAT_ATOMIC = java.util.regex.Pattern.compile(
            "\\b(?:atom|red)(?:\\.[a-z0-9]+)*\\.add(?:\\.[a-z0-9]+)*\\.(?:f16|bf16|f32|f64)");

    /**
     * The launch on the GPU, in a child process of its own ({@link GpuProcess}): as-built from the module image the
     * program loaded (SASS as the program ran it, or its PTX through the driver's JIT), every other build from the
     * recorded PTX with the build's switches written into it ({@link PtxSwitches}). Fills {@code k.gpu}; returns
     * the GPU's comparison of the builds, or null when as-built and strict did not both run.
     */
    private BuildComparison.Stats gpu(
            Recording rec,
            Recording.RecordedLaunch l,
            Recording.Module mod,
            String basePtx,
            List<Build> vs,
            String[] type,
            Map<String, List<byte[]>> interpOuts,
            boolean floatAtomics,
            List<String> moduleVars,
            KernelResult k) {
        GpuKernelResult gr = new GpuKernelResult();
        k.gpu = gr;

        GpuJob job = new GpuJob();
        job.kernel = l.kernel;
        job.repeats = gpuRepeats;
        Map<String, byte[]> files = new LinkedHashMap<>();
        List<String> images = new ArrayList<>(), allocs = new ArrayList<>();
        Map<String, String> globals = new LinkedHashMap<>();
        String paramBlock;
        try {
            List<Recording.Module> order = new ArrayList<>(rec.modules);
            if (mod != null) {
                order.remove(mod);
                order.add(0, mod);
            }
            for (Recording.Module x : order) images.add(rec.file(x.file).toString());
            for (int a = 0; a < l.before.size(); a++)
                allocs.add(rec.file(Recording.allocFile(l.id, a, "before")).toString());
            paramBlock = rec.file(l.paramFile).toString();
            for (Recording.Global g : l.globals) {
                if (g.file != null) globals.put(g.name, rec.file(g.file).toString());
                else { // rebuilt from cudaMemcpyToSymbol writes (SymbolWrites): handed to the child as a job file
                    String f = "global-" + globals.size() + ".bin";
                    files.put(f, g.before);
                    globals.put(g.name, f);
                }
            }
        } catch (IOException e) {
            gr.reason = "the recording cannot be read for the GPU: " + e.getMessage();
            return null;
        }
        if (images.isEmpty()) {
            gr.reason = "the recording holds no module image";
            return null;
        }
        List<String> ran = new ArrayList<>();
        for (Build v : vs) {
            GpuJob.Launch gl = new GpuJob.Launch();
            gl.variant = v.name();
            gl.set = 0;
            gl.grid = l.grid;
            gl.block = l.block;
            gl.sharedBytes = l.dynamicShared;
            gl.params = l.paramLayout;
            gl.paramBlock = paramBlock;
            gl.allocations = allocs;
            gl.globals = globals;
            gl.textures = l.textureDescriptors; // recreated in the child's context, the parameter given the new handle
            if (v.name().equals("as-built")) gl.images = images;
            else if (v.ptx() == null && basePtx == null) continue;
            else {
                String f = "variant-" + ran.size() + ".ptx";
                String text = v.ptx() != null ? v.ptx() : PtxSwitches.apply(basePtx, v.opts());
                files.put(f, (text + "\0").getBytes(StandardCharsets.UTF_8));
                gl.images = List.of(f);
            }
            ran.add(v.name());
            job.launches.add(gl);
        }
        long t0 = System.nanoTime();
        GpuProcess.KernelRun run = GpuProcess.run(gpuSettings, job, files);
        k.launch.put("gpuWallMillis", String.format(java.util.Locale.ROOT, "%.1f", (System.nanoTime() - t0) / 1e6));
        Map<String, List<byte[]>> outs = new LinkedHashMap<>();
        Map<String, String> failed = new LinkedHashMap<>();
        Map<String, float[]> millis = new LinkedHashMap<>();
        Boolean repeatable = null;
        for (GpuProcess.Outcome oc : run.outcomes()) {
            if (!"ok".equals(oc.status())) {
                failed.put(oc.variant(), oc.error());
                if (gr.fault == null && "failed".equals(oc.status()))
                    gr.fault = "GPU launch failed (build " + oc.variant() + "): " + oc.error();
                continue;
            }
            List<byte[]> b = new ArrayList<>();
            for (int a = 0; a < l.before.size(); a++)
                b.add(oc.buffers() == null ? null : oc.buffers().get(a));
            if (b.contains(null)) {
                failed.put(oc.variant(), "its outputs did not come back");
                continue;
            }
            outs.put(oc.variant(), b);
            millis.put(oc.variant(), oc.kernelMillis());
            if (oc.variant().equals("as-built")) repeatable = oc.repeatsIdentical();
        }
        if (run.processFault() != null && gr.fault == null) gr.fault = run.describeFault(shown(l.kernel));
        for (VariantError ve : variantErrors(vs, k)) {
            if (failed.containsKey(ve.variant)) ve.gpuReason = failed.get(ve.variant);
            else if (!ran.contains(ve.variant)) ve.gpuReason = "no PTX in the recording to build it from";
            float[] ms = millis.get(ve.variant);
            if (ms != null && ms.length > 0) {
                float[] c = ms.clone();
                Arrays.sort(c);
                ve.gpuKernelMillis = (double) c[c.length / 2];
            }
        }
        List<byte[]> asBuilt = outs.get("as-built");
        if (asBuilt == null) {
            gr.verdict = Verdict.NOT_RUNNABLE;
            gr.reason = gr.fault != null
                    ? gr.fault
                    : "the as-built build did not run on the GPU: " + failed.get("as-built");
            return null;
        }
        // does the GPU reproduce the recorded outputs?
        if (l.after != null) {
            long[] d = BuildComparison.differing(asBuilt, l.after, type);
            Agreement rep = new Agreement("as-built (GPU) against the recorded outputs");
            rep.elementsCompared = d[1];
            rep.elementsDiffering = d[0];
            if (d[0] != 0)
                rep.note = Boolean.FALSE.equals(repeatable)
                        ? "not reproducible: the GPU's own repeats of this launch differ, its result depends on the"
                                + " order the threads ran in" + (floatAtomics ? " (float atomics)" : "")
                        : floatAtomics
                                ? "float atomics: the sum depends on the order the GPU ran the threads in"
                                : !moduleVars.isEmpty()
                                        ? "the module's __constant__/__device__ variables were not recorded and replay"
                                                + " with their initialisers or zeros: " + moduleVars
                                        : "state the recording does not hold (textures, memory reached through pointers"
                                                + " stored in buffers, a launch ordered against another stream)";
            gr.recordedAgreement = rep;
            k.launch.put(
                    "gpuAsBuiltReproduced",
                    d[0] == 0
                            ? "yes: all " + d[1] + " elements bit for bit"
                            : "no: " + d[0] + " of " + d[1] + " elements differ (" + rep.note + ")");
        }
        gr.repeatable = repeatable;
        // GPU against the interpreter, build by build
        if (interpOuts != null) {
            for (Map.Entry<String, List<byte[]>> e : outs.entrySet()) {
                List<byte[]> c = interpOuts.get(e.getKey());
                if (c == null) continue;
                long[] d = BuildComparison.differing(e.getValue(), c, type);
                Agreement ag = new Agreement(e.getKey());
                ag.elementsCompared = d[1];
                ag.elementsDiffering = d[0];
                if (e.getKey().equals("as-built")) gr.asBuiltAgreement = ag;
                else if (e.getKey().equals("strict")) gr.strictAgreement = ag;
                else gr.variantAgreement.add(ag);
            }
        }
        if (!outs.containsKey("strict")) {
            gr.reason = basePtx == null
                    ? "only the as-built image ran: the recording holds no PTX to build the strict and per-hazard"
                            + " variants from (give the project's PATH after --replay DIR to rebuild them)"
                    : "the strict build did not run on the GPU: " + failed.get("strict");
            return null;
        }
        BuildComparison.Stats s = BuildComparison.compare(outs, l, type, vs);
        gr.elementsCompared = s.compared;
        gr.elementsDiffering = s.differing;
        gr.maxUlp = s.maxUlp;
        gr.meanUlp = s.differing == 0 ? 0 : s.sumUlp / s.differing;
        if (Boolean.FALSE.equals(repeatable)) {
            // the as-built build alone gives different outputs from one run to the next: a difference between two
            // builds can be that order as well as a hazard, so the GPU confirms nothing and attributes nothing
            gr.verdict = Verdict.INCONCLUSIVE;
            gr.reason = "the GPU's own repeats of the as-built launch differ among themselves (its result depends on"
                    + " the order the threads ran in" + (floatAtomics ? ", float atomics" : "") + "), so "
                    + (s.differing == 0
                            ? "a difference between the builds on the GPU would not show a hazard (none in this run)"
                            : "the " + s.differing + " elements that differ between the builds on the GPU are not"
                                    + " attributed to a hazard");
            return s;
        }
        gr.verdict = s.differing > 0 ? Verdict.CONFIRMED : Verdict.NOT_OBSERVED;
        for (Build v : vs)
            if (v.rule() != null && s.removes.containsKey(v.name()))
                gr.attribution.add(new Attribution(v.rule(), v.name(), s.removes.get(v.name())));
        for (VariantError ve : k.variants) {
            double[] e = s.err.get(ve.variant);
            if (e != null) ve.gpuMaxAbsError = e[0];
        }
        return s;
    }

    /** The report's entry of each build, created in the order of vs. */
    private static List<VariantError> variantErrors(List<Build> vs, KernelResult k) {
        for (Build v : vs) {
            if (k.variants.stream().anyMatch(x -> x.variant.equals(v.name()))) continue;
            VariantError ve = new VariantError();
            ve.variant = v.name();
            ve.flags = v.flags();
            k.variants.add(ve);
        }
        return k.variants;
    }

    private static String shown(String kernel) {
        String simple = dev.numlint.ptx.Demangler.simpleName(kernel);
        return simple.equals(kernel) ? kernel : simple + " (" + kernel + ")";
    }

    /** Decodes a build of the project's command into {@code progs}; why it cannot run, or null. */
    private static String projectProgram(Build v, Recording.RecordedLaunch l, Map<String, Program> progs) {
        try {
            PtxText.Module pm = PtxModelAdapter.read(v.ptx());
            if (pm.func(l.kernel) == null) return "its PTX does not define " + l.kernel;
            Program p = Decoder.decode(pm, l.kernel, v.opts());
            if (p.params.size() != l.paramLayout.size())
                return "it has " + p.params.size() + " parameters, the recording " + l.paramLayout.size();
            progs.put(v.name(), p);
            return null;
        } catch (RuntimeException e) { // Decoder.Unsupported, Decoder.TooLarge, unreadable PTX
            return String.valueOf(e.getMessage());
        }
    }

    private List<byte[]> run(Program p, Recording.RecordedLaunch l) throws KernelFault {
        return run(p, l, instructionLimit);
    }

    private List<byte[]> run(Program p, Recording.RecordedLaunch l, long limit) throws KernelFault {
        Launch run = new Launch(p);
        for (Recording.Global g : l.globals) run.moduleVariable(g.name, g.before);
        for (Map.Entry<Long, dev.numlint.validation.interp.Texture> t : l.textures.entrySet())
            run.texture(t.getKey(), t.getValue());
        long[] base = new long[l.before.size()];
        for (int a = 0; a < base.length; a++)
            base[a] = run.alloc(l.before.get(a).clone(), "recorded allocation " + a);
        for (int i = 0; i < l.paramLayout.size(); i++) {
            int[] pl = l.paramLayout.get(i);
            if (pl[2] >= 0) run.param(i, base[pl[2]] + pl[3]);
            else run.paramBytes(i, Arrays.copyOfRange(l.params, pl[0], pl[0] + pl[1]));
        }
        run.run(l.grid, l.block, l.dynamicShared, limit);
        List<byte[]> out = new ArrayList<>();
        for (int a = 0; a < base.length; a++) out.add(run.read(base[a], l.before.get(a).length));
        return out;
    }
}
