package dev.numlint.validation;

import static dev.numlint.validation.Elements.ulp;
import static dev.numlint.validation.Elements.values;
import static dev.numlint.validation.InputSets.distributions;
import static dev.numlint.validation.InputSets.inputs;
import static dev.numlint.validation.Variants.cuVariants;
import static dev.numlint.validation.Variants.ptxVariants;

import dev.numlint.model.HostLaunch;
import dev.numlint.model.Verdict;
import dev.numlint.validation.InputSets.Aggregate;
import dev.numlint.validation.InputSets.InputSet;
import dev.numlint.validation.InputSets.Outputs;
import dev.numlint.validation.Variants.Variant;
import dev.numlint.validation.fp.Ulp;
import dev.numlint.validation.gpu.GpuProcess;
import dev.numlint.validation.input.Distribution;
import dev.numlint.validation.input.HostLaunches;
import dev.numlint.validation.input.InputInference;
import dev.numlint.validation.input.KernelSpec;
import dev.numlint.validation.input.ParamSpec;
import dev.numlint.validation.input.SpecFile;
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
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Validation of flagged kernels: each kernel is built as-built (the file's flags; a .ptx file as given), IEEE-strict
 * (-fmad=false -prec-div=true -prec-sqrt=true -ftz=false) and once per hazard switched off alone, then run on the
 * CPU interpreter on N deterministic input sets. As-built and strict outputs are compared element-wise (ULP
 * distance); each build is compared with the reference (the strict build run in high-precision arithmetic); the
 * single-switch builds attribute the difference to a rule. For float-to-unsigned conversions (NL001) the as-built
 * build is also run with x86 conversion semantics, so the host-versus-GPU difference is measured.
 */
public final class Validator {
    public static final String EXECUTOR = "cpu-interpreter";

    private final ValidationOptions o;
    private final SpecFile spec;
    private final Optional<Nvcc> nvcc;
    private final VariantCache cache;
    /**
     * The GPU probe's answer (facts of the device), or null (gpu mode OFF, or no GPU available). This JVM never
     * loads the CUDA driver: the probe and each kernel's GPU work run in child processes ({@link GpuProcess}), so a
     * fault in one kernel (sticky for its context and process) affects only that kernel.
     */
    private GpuProcess.Probe gpu;
    /** Why no GPU is used (null when one is). */
    private String gpuUnavailable;

    private Validator(ValidationOptions o, SpecFile spec) {
        this.o = o;
        this.spec = spec;
        this.nvcc = Nvcc.find(o.nvcc, o.arch, o.roots, o.cacheDir);
        this.cache = o.variantCache == null ? null : new VariantCache(o.variantCache);
    }

    public static ValidationReport validate(List<Path> paths, ValidationOptions options) throws IOException {
        SpecFile spec = options.spec != null ? SpecFile.read(options.spec) : new SpecFile();
        Validator v = new Validator(options, spec);
        ValidationReport r = new ValidationReport();
        r.environment.put("gpuMode", options.gpu.name().toLowerCase(java.util.Locale.ROOT));
        if (options.gpu == ValidationOptions.GpuMode.OFF) {
            v.gpuUnavailable = "--gpu off";
        } else {
            GpuProcess.Probe probe = options.probeGpu();
            if (probe.available()) v.gpu = probe;
            else v.gpuUnavailable = probe.unavailable();
        }
        r.environment.put("executor", v.gpu != null ? GPU_EXECUTOR : EXECUTOR);
        if (v.gpu != null) {
            r.environment.put("gpu", "used");
            r.environment.putAll(v.gpu.facts());
            r.environment.put("gpuTimedRepeats", Integer.toString(options.gpuRepeats));
            r.environment.put(
                    "gpuIsolation",
                    "one child process per kernel (own CUDA context; wall-clock limit " + options.gpuTimeoutSeconds
                            + " s): a fault, crash or hang is reported on its kernel only");
            Map<String, String> env = GpuProcess.childEnvironment(options.gpuSettings());
            r.environment.put(
                    "gpuChildEnvironment",
                    env.isEmpty()
                            ? "no variables beyond PATH, HOME, TMPDIR, LANG (the driver library from the loader's cache)"
                            : env.toString());
        } else {
            r.environment.put("gpu", "not used: " + v.gpuUnavailable);
        }
        r.environment.put("arch", options.arch);
        r.environment.put("asBuiltFlags", String.join(" ", options.buildFlags));
        r.environment.put("strictFlags", String.join(" ", Variants.STRICT_FLAGS));
        if (v.cache != null && v.cache.nvccVersion().isPresent()) {
            r.environment.put(
                    "nvcc",
                    v.cache.nvccVersion().get() + " (built the prebuilt variants in " + options.variantCache + ")");
            if (v.nvcc.isPresent())
                r.environment.put(
                        "nvccOnThisHost", v.nvcc.get().version() + " (used only for variants missing from the cache)");
        } else if (v.nvcc.isPresent()) r.environment.put("nvcc", v.nvcc.get().version());
        else r.environment.put("nvcc", "not found");
        for (Path p : expand(paths)) {
            try {
                r.kernels.addAll(v.file(p));
            } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
                r.kernels.add(failure(p, "*", "validation failed: " + e));
            }
        }
        return r;
    }

    public static final String GPU_EXECUTOR = "gpu+cpu-interpreter";

    /** A .cu build: the variant cache first, then nvcc (whose result is cached). */
    private Nvcc.Result compile(Path file, List<String> asGiven) {
        // -lineinfo: .loc directives (source line and column of every instruction) without changing the code
        List<String> flags = new ArrayList<>(asGiven);
        if (!flags.contains("-lineinfo") && !flags.contains("--generate-line-info")) flags.add("-lineinfo");
        if (cache != null) {
            Optional<String> hit = cache.get(file, o.arch, flags);
            if (hit.isPresent()) return new Nvcc.Result(hit.get(), null);
        }
        if (nvcc.isEmpty())
            return new Nvcc.Result(
                    null, "nvcc not found and no prebuilt variant for flags " + flags + " in the variant cache");
        Nvcc.Result r = nvcc.get().compile(file, flags);
        if (cache != null && r.ptx != null) cache.put(file, o.arch, flags, r.ptx);
        return r;
    }

    /**
     * Builds every PTX variant of the .cu files into the variant cache (for a host without nvcc) and records the
     * nvcc version there. Returns one line per file.
     */
    public static List<String> prebuild(List<Path> paths, ValidationOptions options) throws IOException {
        if (options.variantCache == null) throw new IllegalArgumentException("no variant cache directory given");
        Validator v = new Validator(options, new SpecFile());
        if (v.nvcc.isEmpty()) throw new IllegalStateException("nvcc not found (put it on PATH)");
        v.cache.putNvccVersion(v.nvcc.get().version());
        List<String> out = new ArrayList<>();
        for (Path p : expand(paths)) {
            if (!p.toString().endsWith(".cu")) continue;
            int ok = 0;
            List<String> errors = new ArrayList<>();
            for (Variant var : Variants.cuVariants(options.buildFlags)) {
                Nvcc.Result r = v.compile(p, var.flags);
                if (r.ptx != null) ok++;
                else errors.add(var.name + ": " + r.error);
            }
            out.add(p + ": " + ok + " variants" + (errors.isEmpty() ? "" : "; " + errors));
        }
        return out;
    }

    static List<Path> expand(List<Path> paths) throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path p : paths) {
            if (Files.isDirectory(p)) {
                // a directory the system cannot open (a path longer than it allows) is passed over, not fatal
                List<Path> found = new ArrayList<>();
                Files.walkFileTree(p, new java.nio.file.SimpleFileVisitor<>() {
                    @Override
                    public java.nio.file.FileVisitResult visitFile(
                            Path f, java.nio.file.attribute.BasicFileAttributes attrs) {
                        if (Files.isRegularFile(f)
                                && (f.toString().endsWith(".cu") || f.toString().endsWith(".ptx"))) found.add(f);
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }

                    @Override
                    public java.nio.file.FileVisitResult visitFileFailed(Path f, IOException e) {
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }
                });
                found.sort(null);
                out.addAll(found);
            } else out.add(p);
        }
        return out;
    }

    // ------------------------------------------------------------------ files

    private static KernelResult failure(Path file, String kernel, String reason) {
        KernelResult k = new KernelResult();
        k.file = file.toString();
        k.kernel = kernel;
        k.executor = EXECUTOR;
        k.verdict = Verdict.NOT_RUNNABLE;
        k.reason = reason;
        return k;
    }

    private List<KernelResult> file(Path file) {
        List<KernelResult> out = new ArrayList<>();
        boolean isPtx = file.toString().endsWith(".ptx");
        if (o.gpu == ValidationOptions.GpuMode.REQUIRE && gpu == null) {
            out.add(failure(file, "*", "--gpu require: no GPU executor is available: " + gpuUnavailable));
            return out;
        }
        String asBuiltText;
        List<Variant> variants;
        List<String> toolchainNotes = List.of();
        if (isPtx) {
            try {
                asBuiltText = Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                out.add(failure(file, "*", "cannot read: " + e.getMessage()));
                return out;
            }
            variants = null;
        } else {
            if (nvcc.isEmpty() && cache == null) {
                out.add(failure(
                        file, "*", "nvcc not found (put it on PATH, give a variant cache, or validate the .ptx)"));
                return out;
            }
            variants = cuVariants(o.buildFlags);
            Nvcc.Result r = compile(file, variants.get(0).flags);
            if (r.ptx == null) {
                out.add(failure(file, "*", r.error));
                return out;
            }
            asBuiltText = r.ptx;
            toolchainNotes = r.notes;
        }
        PtxText.Module asBuilt;
        try {
            asBuilt = PtxModelAdapter.read(asBuiltText);
        } catch (RuntimeException e) {
            out.add(failure(file, "*", "cannot read the PTX: " + e.getMessage()));
            return out;
        }
        Map<String, Set<String>> flaggedHere = flaggedFor(file);
        for (PtxText.Func k : asBuilt.entries()) {
            Map<String, KernelHazards.Hit> hits = KernelHazards.of(
                    asBuilt.source,
                    k.name,
                    Variants.ptxFastMath(o.buildFlags),
                    dev.numlint.ptx.facts.PtxFacts.minTripCount(o.ruleSettings));
            Set<String> rules = flaggedHere == null ? null : flaggedHere.get(k.name);
            if (rules == null && flaggedHere != null) {
                // analyzers name kernels as written in the source; PTX names C++ kernels mangled
                rules = flaggedHere.get(dev.numlint.ptx.Demangler.simpleName(k.name));
            }
            if (!o.allKernels && (flaggedHere != null ? rules == null : hits.isEmpty())) continue;
            List<Variant> vs = isPtx ? ptxVariants(hits) : cuVariants(o.buildFlags);
            vs.get(0).module = asBuilt;
            vs.get(0).ptx = asBuiltText;
            if (isPtx) for (Variant v : vs) v.module = asBuilt;
            else
                for (Variant v : vs.subList(1, vs.size())) {
                    Nvcc.Result r = compile(file, v.flags);
                    if (r.ptx == null) {
                        v.error = r.error;
                        continue;
                    }
                    try {
                        v.module = PtxModelAdapter.read(r.ptx);
                        v.ptx = r.ptx;
                    } catch (RuntimeException e) {
                        v.error = "cannot read the PTX: " + e.getMessage();
                    }
                }
            KernelResult kr;
            try {
                kr = kernel(file, asBuilt, k, hits, vs);
            } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
                // one hostile kernel costs only its own verdict: the other kernels and files are still validated
                kr = failure(file, k.name, "validation failed: " + e);
            }
            kr.notes.addAll(toolchainNotes);
            kr.build = buildCommand(file, isPtx);
            out.add(kr);
        }
        return out;
    }

    /** What the report says the builds of {@code file} were made with. */
    private String buildCommand(Path file, boolean isPtx) {
        if (isPtx) return "the PTX file as given (no nvcc build; the variants are PTX-level switches)";
        CompileCommand c = o.compileCommand != null
                ? o.compileCommand
                : new CompileCommand(o.buildFlags, dev.numlint.toolchain.PtxCompiler.virtualArch(o.arch), null);
        return c.describe(String.valueOf(file.getFileName()));
    }

    /** The key of a launch of {@code kernel} written in {@code file} (relative, '/') in the host-launch map. */
    public static String launchKey(String file, String kernel) {
        return "@" + file + "#" + kernel;
    }

    /**
     * The host launch of a kernel: the one written in the kernel's own file first (two translation units may each
     * define and launch a kernel of one name), else the first launch of that name anywhere.
     */
    private HostLaunch hostLaunch(Path file, String kernel) {
        if (o.hostLaunches == null) return null;
        String simple = dev.numlint.ptx.Demangler.simpleName(kernel);
        String path = file.toAbsolutePath().normalize().toString().replace('\\', '/');
        for (Map.Entry<String, HostLaunch> e : o.hostLaunches.entrySet()) {
            String key = e.getKey();
            int hash = key.lastIndexOf('#');
            if (!key.startsWith("@") || hash < 0) continue;
            String rel = key.substring(1, hash);
            String name = key.substring(hash + 1);
            int lt = name.indexOf('<'); // kernelPixelDetector<false><<<...>>>: the template's instances
            String base = lt > 0 ? name.substring(0, lt).strip() : name;
            if ((name.equals(kernel) || name.equals(simple) || base.equals(simple))
                    && (path.equals(rel) || path.endsWith("/" + rel))) {
                return e.getValue();
            }
        }
        return hostLaunch(kernel);
    }

    private HostLaunch hostLaunch(String kernel) {
        if (o.hostLaunches == null) return null;
        HostLaunch h = o.hostLaunches.get(kernel);
        return h != null ? h : o.hostLaunches.get(dev.numlint.ptx.Demangler.simpleName(kernel));
    }

    private Map<String, Set<String>> flaggedFor(Path file) {
        if (o.flagged == null) return null;
        Map<String, Set<String>> m = o.flagged.get(file.toAbsolutePath().toString());
        return m == null ? Map.of() : m;
    }

    // ------------------------------------------------------------------ kernels

    private KernelResult kernel(
            Path file, PtxText.Module asBuilt, PtxText.Func k, Map<String, KernelHazards.Hit> hits, List<Variant> vs) {
        KernelResult res = new KernelResult();
        res.file = file.toString();
        res.kernel = k.name;
        res.executor = EXECUTOR;
        KernelSpec ks = spec.find(k.name);
        if (ks != null) {
            res.launch.put("source", "spec file " + o.spec);
        } else {
            ks = InputInference.infer(k);
            // an extern (dynamically sized) .shared array: give the launch the usual 48 KiB
            if (asBuilt.vars.stream().anyMatch(v -> "shared".equals(v.space) && v.unsized)) ks.sharedBytes = 48 * 1024;
            HostLaunch hl = hostLaunch(file, k.name);
            if (hl != null) HostLaunches.apply(hl, ks, res.launch, res.notes);
            else {
                res.launch.put(
                        "source", "inferred from the PTX (no launch found in the host code; give one with --spec)");
                for (ParamSpec ps : ks.params) res.launch.put(ps.name, "inferred: " + ps);
            }
        }
        res.spec = ks;
        if (ks.params.size() != k.params.size()) {
            res.verdict = Verdict.NOT_RUNNABLE;
            res.reason = "spec lists " + ks.params.size() + " parameters, the kernel has " + k.params.size();
            return res;
        }
        // the rule the x86 host build speaks for (a conversion wraps there): catalog policy
        String hostRule = RulePolicies.hostComparisonRule();
        boolean hostCompared = hostRule != null && hits.containsKey(hostRule);
        // decode every build
        Map<String, Program> progs = new LinkedHashMap<>();
        Program ref, host = null;
        try {
            for (Variant v : vs) {
                if (v.module == null) continue;
                if (v.module.func(k.name) == null) {
                    v.error = "kernel missing from this build";
                    continue;
                }
                progs.put(v.name, Decoder.decode(v.module, k.name, v.opts));
            }
            Variant strictV = vs.get(1);
            PtxText.Module strictM = strictV.module != null ? strictV.module : asBuilt;
            Decoder.Options ro = new Decoder.Options().reference(true);
            if (vs.get(1).flags.stream().anyMatch(f -> f.startsWith("ptx:")))
                ro.unfuseFma(true).exactDiv(true).exactSqrt(true).noFtz(true);
            ref = Decoder.decode(strictM, k.name, ro);
            if (hostCompared)
                host = Decoder.decode(
                        asBuilt, k.name, new Decoder.Options().host(true).contract(true));
        } catch (Decoder.Unsupported e) {
            res.verdict = Verdict.NOT_RUNNABLE;
            res.reason = "unsupported: " + e.getMessage();
            return res;
        } catch (Decoder.TooLarge e) {
            res.verdict = Verdict.NOT_RUNNABLE;
            res.reason = LaunchLimits.TOO_LARGE + e.getMessage();
            return res;
        }
        for (ParamSpec ps : ks.params) { // after decoding, so that an unsupported instruction is named first
            if (!ps.isArray() && !"scalar".equals(ps.kind) && !"bytes".equals(ps.kind)) {
                res.verdict = Verdict.NOT_RUNNABLE;
                res.reason = "parameter " + ps.name + ": unknown kind '" + ps.kind + "'";
                return res;
            }
            if ("bytes".equals(ps.kind) && ps.bytes == null) {
                res.notes.add("aggregate parameter " + ps.name + " (" + ps.length
                        + " bytes) passed as zeros; give its bytes in a spec file");
            }
        }
        Program asB = progs.get("as-built");
        if (!asB.approximate.isEmpty()) {
            res.notes.add("approximate instructions modelled from their documented definitions, not bit-exact: "
                    + String.join(", ", asB.approximate));
        }
        int n = ks.elements != null ? ks.elements : o.elements;
        String big = LaunchLimits.tooLarge(ks, n, progs.values());
        if (big != null) {
            res.verdict = Verdict.NOT_RUNNABLE;
            res.reason = LaunchLimits.TOO_LARGE + big;
            return res;
        }
        long compared = 0, differing = 0, maxUlp = 0;
        double sumUlp = 0;
        long hostDiff = 0;
        Map<String, Map<String, Long>> histo = new LinkedHashMap<>(); // rule -> ULP bucket -> elements
        Map<String, double[]> err = new LinkedHashMap<>(); // maxAbs, maxRel, sumAbs, count, diffFromAsBuilt
        Map<String, Long> removes = new LinkedHashMap<>();
        for (Variant v : vs) if (progs.containsKey(v.name)) err.put(v.name, new double[5]);
        for (Variant v : vs) if (v.rule != null && progs.containsKey(v.name)) removes.put(v.name, 0L);
        int sets = Math.max(1, o.inputs);
        List<Distribution> dists = distributions(hits, ks);
        GpuComparison g = gpu == null ? null : new GpuComparison(o, vs);
        Program fx;
        try {
            fx = Decoder.decode(
                    asBuilt, k.name, new Decoder.Options().contract(true).exceptions(true));
        } catch (Decoder.Unsupported | Decoder.TooLarge e) {
            fx = null;
        }
        for (int s = 0; s < sets; s++) {
            SplittableRandom rnd = new SplittableRandom(o.seed * 1_000_003L + s * 7919L + k.name.hashCode());
            InputSet in = inputs(ks, n, dists.get(s % dists.size()), rnd);
            Map<String, Outputs> outs = new LinkedHashMap<>();
            try {
                try {
                    outs.put("as-built", run(asB, ks, in, false));
                } catch (KernelFault first) {
                    // an inferred launch that faults is retried as a single block, then with smaller size
                    // scalars (kernels that stride by their own size parameters stay in bounds far more often)
                    if (s > 0 || !ks.source.startsWith("inferred")) throw first;
                    KernelFault last = first;
                    boolean ok = false;
                    for (int small : new int[] {-1, 4, -4, 1}) {
                        ks.grid = new int[] {1, 1, 1};
                        for (ParamSpec ps : ks.params) { // 4: sizes other than the length; -4: every integer scalar
                            if (!ps.isArray() && !ps.type.startsWith("f") && (ps.value != null || small == -4))
                                ps.value = (double) Math.abs(small);
                        }
                        if (small == -1)
                            for (ParamSpec ps : ks.params)
                                if (!ps.isArray() && !ps.type.startsWith("f") && ps.value != null)
                                    ps.value = (double) InputInference.DEFAULT_INT_SCALAR;
                        in = inputs(ks, n, dists.get(0), new SplittableRandom(o.seed * 1_000_003L + k.name.hashCode()));
                        try {
                            outs.put("as-built", run(asB, ks, in, false));
                            ok = true;
                            break;
                        } catch (KernelFault again) {
                            last = again;
                        }
                    }
                    if (!ok) throw last;
                    res.notes.add("the inferred 1-D launch faulted (" + first.getMessage() + "); ran as one block of "
                            + ks.block[0] + " threads with parameters " + ks.params);
                }
                for (Map.Entry<String, Program> e : progs.entrySet()) {
                    if (!e.getKey().equals("as-built")) outs.put(e.getKey(), run(e.getValue(), ks, in, false));
                }
            } catch (KernelFault e) {
                res.verdict = Verdict.NOT_RUNNABLE;
                res.reason = "fault: " + e.getMessage()
                        + (ks.source.startsWith("inferred")
                                ? " (inputs inferred from the PTX: " + ks.params + "; give a spec file)"
                                : " (launch from " + ks.source + ")")
                        + (e.outOfBounds && gpu != null ? "; this launch is unsafe and was not run on the GPU" : "");
                if (g != null) g.close(res);
                return res;
            }
            Outputs refOut, hostOut = null;
            try {
                refOut = run(ref, ks, in, true);
                if (host != null) hostOut = run(host, ks, in, false);
            } catch (KernelFault e) {
                res.verdict = Verdict.NOT_RUNNABLE;
                res.reason = "fault in the reference/host run: " + e.getMessage();
                if (g != null) g.close(res);
                return res;
            }
            // floating-point exceptions of the as-built build on this input set, per PTX instruction
            if (fx != null) {
                try {
                    run(fx, ks, in, false);
                } catch (KernelFault e) {
                    res.notes.add("floating-point exceptions not counted on input set " + s + ": " + e.getMessage());
                }
            }
            Outputs a = outs.get("as-built"), st = outs.get("strict");
            if (g != null) g.add(s, ks, in, outs, refOut);
            for (Map.Entry<Integer, byte[]> e : a.bytes.entrySet()) {
                int pi = e.getKey();
                String t = ks.params.get(pi).type;
                double[] av = values(e.getValue(), t);
                double[] sv = st == null ? av : values(st.bytes.get(pi), t);
                double[] rv = refOut.ref.containsKey(pi) ? refOut.ref.get(pi) : values(refOut.bytes.get(pi), t);
                Map<String, double[]> vv = new LinkedHashMap<>();
                for (String name : outs.keySet())
                    vv.put(name, values(outs.get(name).bytes.get(pi), t));
                double[] hv = hostOut == null ? null : values(hostOut.bytes.get(pi), t);
                for (int i = 0; i < av.length; i++) {
                    compared++;
                    long u = ulp(av[i], sv[i], t);
                    if (u != 0) {
                        differing++;
                        maxUlp = Math.max(maxUlp, u);
                        if (u != Ulp.NAN_MISMATCH) sumUlp += u;
                        for (Map.Entry<String, Long> r : removes.entrySet()) {
                            if (ulp(vv.get(r.getKey())[i], sv[i], t) == 0) r.setValue(r.getValue() + 1);
                        }
                    }
                    if (hv != null) {
                        long hu = ulp(hv[i], av[i], t);
                        if (hu != 0) {
                            hostDiff++;
                            histo.computeIfAbsent(hostRule, x -> new TreeMap<>())
                                    .merge(FindingResult.bucket(hu), 1L, Long::sum);
                        }
                    }
                    for (Variant v : vs) {
                        if (v.rule == null || !vv.containsKey(v.name)) continue;
                        long vu = ulp(av[i], vv.get(v.name)[i], t);
                        if (vu != 0)
                            histo.computeIfAbsent(v.rule, x -> new TreeMap<>())
                                    .merge(FindingResult.bucket(vu), 1L, Long::sum);
                    }
                    for (Map.Entry<String, double[]> ev : err.entrySet()) {
                        double x = vv.get(ev.getKey())[i];
                        double[] acc = ev.getValue();
                        double abs = Math.abs(x - rv[i]);
                        if (Double.isNaN(x) && Double.isNaN(rv[i])) abs = 0;
                        double rel = rv[i] != 0 ? abs / Math.abs(rv[i]) : (abs == 0 ? 0 : Double.POSITIVE_INFINITY);
                        acc[0] = Math.max(acc[0], abs);
                        acc[1] = Math.max(acc[1], rel);
                        acc[2] += abs;
                        acc[3]++;
                        if (ulp(x, av[i], t) != 0) acc[4]++;
                    }
                }
            }
        }
        res.inputs = sets;
        if (fx != null) res.exceptions = dev.numlint.validation.report.ExceptionCount.of(fx);
        res.elementsCompared = compared;
        res.elementsDiffering = differing;
        res.maxUlp = maxUlp;
        res.meanUlp = differing == 0 ? 0 : sumUlp / compared;
        for (Variant v : vs) {
            VariantError ve = new VariantError();
            ve.variant = v.name;
            ve.flags = v.flags;
            double[] acc = err.get(v.name);
            if (acc == null) ve.reason = v.error != null ? v.error : "not built";
            else {
                ve.maxAbsError = acc[0];
                if (Double.isNaN(acc[1]) || Double.isNaN(acc[0])) ve.maxRelErrorNote = "undefined: NaN results";
                else if (Double.isInfinite(acc[1])) ve.maxRelErrorNote = "undefined: reference is 0";
                else ve.maxRelError = acc[1];
                if (Double.isNaN(acc[0])) ve.maxAbsError = null;
                ve.meanAbsError = acc[3] == 0 ? 0 : acc[2] / acc[3];
                ve.elementsDifferingFromAsBuilt = (long) acc[4];
            }
            res.variants.add(ve);
        }
        double[] ea = err.get("as-built"), es = err.get("strict");
        if (ea != null && es != null) {
            double ma = ea[3] == 0 ? 0 : ea[2] / ea[3], ms = es[3] == 0 ? 0 : es[2] / es[3];
            res.closerToReference = ma < ms ? "as-built" : ms < ma ? "strict" : "equal";
        }
        for (Variant v : vs)
            if (removes.containsKey(v.name)) res.attribution.add(new Attribution(v.rule, v.name, removes.get(v.name)));
        if (host != null) res.attribution.add(new Attribution(hostRule, "host-x86", hostDiff));
        if (g != null) g.finish(res, k.name, ks, vs, progs);
        long gDiff = res.gpu != null ? res.gpu.elementsDiffering : 0;
        boolean confirmed = differing > 0 || hostDiff > 0 || gDiff > 0;
        res.verdict = confirmed ? Verdict.CONFIRMED : Verdict.NOT_OBSERVED;
        // per finding
        for (KernelHazards.Hit h : hits.values()) {
            FindingResult f = new FindingResult();
            f.rule = h.rule();
            f.line = h.line();
            f.evidence = h.text();
            f.source = h.source();
            if (h.sourceLine() > 0) f.sourceLine = h.sourceLine();
            if (h.sourceColumn() > 0) f.sourceColumn = h.sourceColumn();
            f.ulpHistogram = histo.getOrDefault(h.rule(), Map.of());
            if (fx != null)
                f.exceptions =
                        dev.numlint.validation.report.ExceptionCount.at(res.exceptions, f.source, f.sourceLine, f.line);
            Long el = null;
            if (h.rule().equals(hostRule)) el = hostDiff;
            else for (Attribution a : res.attribution) if (a.rule.equals(h.rule())) el = a.elementsDiffering;
            if (el == null) {
                // no single switch for this rule (e.g. an intrinsic or atomics): the kernel-level comparison decides
                f.verdict = differing > 0 ? Verdict.CONFIRMED : Verdict.NOT_OBSERVED;
                f.elementsDiffering = null;
            } else {
                f.verdict = el > 0 ? Verdict.CONFIRMED : Verdict.NOT_OBSERVED;
                f.elementsDiffering = el;
            }
            res.findings.add(f);
        }
        res.reason = confirmed
                ? String.join(
                        "; ",
                        java.util.stream.Stream.of(
                                        differing > 0
                                                ? differing + " of " + compared
                                                        + " output elements differ between the as-built and the IEEE-strict build"
                                                : null,
                                        hostDiff > 0
                                                ? "host (x86) vs GPU conversion: " + hostDiff + " of " + compared
                                                        + " elements differ between the GPU's float-to-unsigned conversion and the x86 one"
                                                        + (differing == 0
                                                                ? " (as-built and IEEE-strict GPU builds agree)"
                                                                : "")
                                                : null,
                                        gDiff > 0
                                                ? "on the GPU " + gDiff
                                                        + " elements differ between the as-built and the IEEE-strict build"
                                                        + (differing == 0 ? " (not on the CPU interpreter)" : "")
                                                : null)
                                .filter(java.util.Objects::nonNull)
                                .toList())
                : "as-built and strict outputs identical on " + sets + (sets == 1 ? " input set (" : " input sets (")
                        + java.util.stream.IntStream.range(0, sets)
                                .mapToObj(i -> dists.get(i % dists.size()).toString())
                                .distinct()
                                .collect(Collectors.joining(", "))
                        + ")";
        return res;
    }

    private Outputs run(Program p, KernelSpec ks, InputSet in, boolean reference) throws KernelFault {
        Launch l = new Launch(p);
        long[] addr = new long[ks.params.size()];
        for (int i = 0; i < ks.params.size(); i++) {
            Object a = in.args.get(i);
            if (a instanceof byte[]) {
                addr[i] = l.alloc(((byte[]) a).clone());
                l.param(i, addr[i]);
            } else if (a instanceof Aggregate) {
                l.paramBytes(i, ((Aggregate) a).bytes);
            } else l.param(i, (Long) a);
        }
        int[] block = KernelSpec.pad(ks.block);
        l.run(ks.gridFor(in.n), block, ks.sharedBytes, o.instructionLimit);
        Outputs out = new Outputs();
        for (int i = 0; i < ks.params.size(); i++) {
            ParamSpec ps = ks.params.get(i);
            if (!ps.isArray() || !ps.isOutput()) continue;
            int len = ((byte[]) in.args.get(i)).length;
            out.bytes.put(i, l.read(addr[i], len));
            if (reference && ps.type.equals("f32")) out.ref.put(i, l.readReferenceF32(addr[i], len / 4));
        }
        return out;
    }
}
