package dev.numlint.validation;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Options of {@link Validator#validate}. Public fields with defaults; the CLI sets them from its flags. */
public final class ValidationOptions {
    /** Whether to use a GPU executor: AUTO (if one is found), OFF (CPU interpreter only), REQUIRE (fail otherwise). */
    public enum GpuMode {
        AUTO,
        OFF,
        REQUIRE
    }

    public GpuMode gpu = GpuMode.AUTO;
    /** YAML spec file (kernels, launch, parameters); null: infer from the PTX. */
    public Path spec;
    /** Number of input sets per kernel. */
    public int inputs = 4;

    public long seed = 1;
    /** Validate every kernel, not only those with hazards. */
    public boolean allKernels;
    /** Elements per input set when neither the spec nor the kernel says. */
    public int elements = 4096;
    /** The as-built nvcc flags of .cu files (the file's build flags). */
    public List<String> buildFlags = new ArrayList<>();
    /** nvcc to use; null: PATH, then /usr/local/cuda/bin (the shared toolchain's search order). */
    public Path nvcc;
    /** The scanned trees: the only untrusted files nvcc may read (empty: the working directory). */
    public List<Path> roots = new ArrayList<>();
    /** The PTX cache, also holding nvcc's temporary files (null: the default cache directory). */
    public Path cacheDir;

    public String arch = "compute_90";
    /** Whether {@link #arch} was given on the command line ({@code --cuda-arch}): then it wins over the build's. */
    public boolean archGiven;
    /**
     * The compile command of the file being validated (its build's flags and architecture, and where they came
     * from); null: {@link #buildFlags} and {@link #arch} as given, reported as guessed.
     */
    public CompileCommand compileCommand;
    /**
     * Directory of prebuilt PTX variants ({@link VariantCache}): read before nvcc is run, written after; with it a
     * host without nvcc can validate .cu files whose variants were prebuilt elsewhere. null: no cache.
     */
    public Path variantCache;
    /** Timed GPU repeats per variant and input set (CUDA events; the median is reported). */
    public int gpuRepeats = 5;
    /** CUDA device ordinal the GPU runs use. */
    public int gpuDevice = 0;
    /**
     * Wall-clock limit of one kernel's GPU child process (every build and input set of the kernel), in seconds; past
     * it the process tree is killed and the kernel's GPU run is reported as timed out.
     */
    public int gpuTimeoutSeconds = 300;
    /**
     * The {@link dev.numlint.validation.gpu.GpuExecutorProvider} the GPU child process uses, by name: "jcuda" (the
     * GPU); tests name executors of their own.
     */
    public String gpuExecutor = dev.numlint.validation.gpu.JCudaProvider.NAME;
    /**
     * The GPU probe's answer, once asked (by the CLI before scanning, or by the first validation); copies share it
     * so that the device is probed once per run. null: not asked yet.
     */
    public dev.numlint.validation.gpu.GpuProcess.Probe gpuProbe;
    /** Per run; a kernel that executes more instructions is reported as not runnable. */
    public long instructionLimit = 500_000_000L;
    /**
     * Kernels flagged by numlint's analyzers, by file (absolute path string) to kernel names and rule ids; when
     * null, the validator's own PTX hazard scan decides which kernels to validate.
     */
    public Map<String, Map<String, Set<String>>> flagged;

    /**
     * Launches read from the scanned host code ({@link dev.numlint.model.HostLaunch}), by kernel name as
     * written in the source; used when the spec file has no entry for a kernel. null: none.
     */
    public Map<String, dev.numlint.model.HostLaunch> hostLaunches;

    public ValidationOptions() {}

    /** How the GPU child processes are started. */
    public dev.numlint.validation.gpu.GpuProcess.Settings gpuSettings() {
        return new dev.numlint.validation.gpu.GpuProcess.Settings(
                gpuExecutor, gpuDevice, java.time.Duration.ofSeconds(gpuTimeoutSeconds), null);
    }

    /** The probe's answer, asking a child process the first time (gpu mode OFF: not asked, null). */
    public dev.numlint.validation.gpu.GpuProcess.Probe probeGpu() {
        if (gpu == GpuMode.OFF) return null;
        if (gpuProbe == null) gpuProbe = dev.numlint.validation.gpu.GpuProcess.probe(gpuSettings());
        return gpuProbe;
    }

    /** A copy whose lists and maps can be changed without affecting this one. */
    /**
     * The scan's rule configuration, for the PTX checks validation runs on its builds (the shortest loop that is a long
     * accumulation: {@code PtxFacts.minTripCount}); null: the catalog's defaults.
     */
    public dev.numlint.spi.RuleSettings ruleSettings;

    public ValidationOptions copy() {
        ValidationOptions o = new ValidationOptions();
        o.gpu = gpu;
        o.spec = spec;
        o.inputs = inputs;
        o.seed = seed;
        o.allKernels = allKernels;
        o.elements = elements;
        o.buildFlags = new ArrayList<>(buildFlags);
        o.nvcc = nvcc;
        o.roots = new ArrayList<>(roots);
        o.cacheDir = cacheDir;
        o.arch = arch;
        o.archGiven = archGiven;
        o.compileCommand = compileCommand;
        o.variantCache = variantCache;
        o.gpuRepeats = gpuRepeats;
        o.gpuDevice = gpuDevice;
        o.gpuTimeoutSeconds = gpuTimeoutSeconds;
        o.gpuExecutor = gpuExecutor;
        o.gpuProbe = gpuProbe;
        o.instructionLimit = instructionLimit;
        o.flagged = flagged;
        o.hostLaunches = hostLaunches;
        o.ruleSettings = ruleSettings;
        return o;
    }
}
