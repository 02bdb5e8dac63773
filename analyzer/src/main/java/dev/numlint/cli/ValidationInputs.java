package dev.numlint.cli;

import dev.numlint.validation.ValidationOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options of the validation stage; shared by {@code validate} and {@code scan --validate}. */
final class ValidationInputs {
    enum Gpu {
        auto,
        off,
        require
    }

    @Option(
            names = "--gpu",
            paramLabel = "MODE",
            defaultValue = "auto",
            description = "auto: run on a GPU too when one is present; off: CPU interpreter only; require: fail when "
                    + "no GPU can be used (default: ${DEFAULT-VALUE})")
    Gpu gpu;

    @Option(
            names = "--gpu-device",
            paramLabel = "N",
            defaultValue = "0",
            description = "CUDA device ordinal for the GPU runs (default: ${DEFAULT-VALUE})")
    int gpuDevice;

    @Option(
            names = "--gpu-timeout",
            paramLabel = "SECONDS",
            defaultValue = "300",
            description = "wall-clock limit of one kernel's GPU runs (all its builds and input sets, in a child "
                    + "process of their own); past it the process is killed and the kernel reported as timed out "
                    + "(default: ${DEFAULT-VALUE})")
    int gpuTimeout;

    @Option(
            names = "--instruction-limit",
            paramLabel = "N",
            defaultValue = "500000000",
            description = "PTX instructions the CPU interpreter runs per launch before it gives up on that launch "
                    + "(reported as not runnable there; with --replay and a GPU, the GPU's runs still give the "
                    + "verdict) (default: ${DEFAULT-VALUE})")
    long instructionLimit;

    @Option(
            names = "--spec",
            paramLabel = "FILE",
            description = "YAML launch and input specification (grid, block, "
                    + "parameters, value distributions); default: inferred from the PTX")
    Path spec;

    @Option(
            names = "--inputs",
            paramLabel = "N",
            defaultValue = "4",
            description = "input sets per kernel (default: ${DEFAULT-VALUE})")
    int inputs;

    @Option(
            names = "--seed",
            paramLabel = "S",
            defaultValue = "1",
            description = "seed of the generated inputs (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--all-kernels", description = "validate every kernel, not only those with findings")
    boolean allKernels;

    @Option(
            names = "--variant-cache",
            paramLabel = "DIR",
            description = "prebuilt PTX variants (made where nvcc is "
                    + "installed, e.g. by validation/bundle/build-gpu-bundle.sh); used when nvcc is absent")
    Path variantCache;

    ValidationOptions options(ScanInputs scan) {
        if (spec != null && !Files.isRegularFile(spec)) {
            throw new Main.UsageException("--spec: file '" + spec + "' does not exist");
        }
        // a spec inside the scanned tree that links outside it is refused before a byte of it is read
        if (spec != null) scan.checkedInput("--spec", spec);
        if (spec != null) {
            // read it now: a spec that is not valid YAML of the expected shape is a usage error (exit 2), not an
            // internal one
            try {
                if (Files.size(spec) > 4L << 20) throw new java.io.IOException("larger than " + (4 << 20) + " bytes");
                dev.numlint.validation.input.SpecFile.read(spec);
            } catch (java.io.IOException | RuntimeException e) {
                String why = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
                if (why.length() > 200) why = why.substring(0, 200) + "...";
                throw new Main.UsageException("--spec: file '" + spec + "' is not a valid spec: " + why);
            }
        }
        if (inputs < 1) {
            throw new Main.UsageException("--inputs: must be at least 1, got " + inputs);
        }
        if (gpuDevice < 0) throw new Main.UsageException("--gpu-device: must be 0 or more, got " + gpuDevice);
        if (gpuTimeout < 1)
            throw new Main.UsageException("--gpu-timeout: must be at least 1 second, got " + gpuTimeout);
        ValidationOptions o = new ValidationOptions();
        o.gpuDevice = gpuDevice;
        o.gpuTimeoutSeconds = gpuTimeout;
        if (instructionLimit < 1) throw new Main.UsageException("--instruction-limit: give a positive number");
        o.instructionLimit = instructionLimit;
        o.gpu = switch (gpu) {
            case auto -> ValidationOptions.GpuMode.AUTO;
            case off -> ValidationOptions.GpuMode.OFF;
            case require -> ValidationOptions.GpuMode.REQUIRE;
        };
        o.spec = scan.checkedInput("--spec", spec);
        o.inputs = inputs;
        o.seed = seed;
        o.allKernels = allKernels;
        o.variantCache = variantCache;
        o.buildFlags.addAll(scan.commandLineFlags());
        o.arch = scan.cudaArchOrDefault();
        o.archGiven = scan.cudaArch != null;
        o.nvcc = scan.nvcc;
        o.cacheDir = scan.checkedCacheDir();
        return o;
    }
}
