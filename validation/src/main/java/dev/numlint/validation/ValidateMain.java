package dev.numlint.validation;

import dev.numlint.validation.report.JsonReportWriter;
import dev.numlint.validation.report.TextReportRenderer;
import dev.numlint.validation.report.ValidationReport;
import dev.numlint.validation.report.Verdict;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A minimal command line for the validator, for GPU hosts that carry only the validation classpath:
 * {@code ValidateMain [--gpu auto|off|require] [--format text|json] [--output FILE] [--variant-cache DIR]
 * [--prebuild] [--inputs N] [--elements N] [--seed N] [--spec FILE] [--flags "nvcc flags"] [--all-kernels] PATH...}.
 * {@code --prebuild} builds the PTX variants of the .cu paths into the variant cache and exits. Exit status: 0,
 * 2 on usage errors, 3 when --gpu require finds no GPU.
 */
public final class ValidateMain {
    private ValidateMain() {}

    public static void main(String[] argv) throws IOException {
        System.exit(run(argv, System.out, System.err));
    }

    static int run(String[] argv, PrintStream out, PrintStream err) throws IOException {
        ValidationOptions o = new ValidationOptions();
        String format = "text";
        Path output = null;
        boolean prebuild = false;
        List<Path> paths = new ArrayList<>();
        for (int i = 0; i < argv.length; i++) {
            String a = argv[i];
            try {
                switch (a) {
                    case "--gpu": o.gpu = ValidationOptions.GpuMode.valueOf(argv[++i].toUpperCase(Locale.ROOT)); break;
                    case "--format": format = argv[++i]; break;
                    case "--output": output = Paths.get(argv[++i]); break;
                    case "--variant-cache": o.variantCache = Paths.get(argv[++i]); break;
                    case "--prebuild": prebuild = true; break;
                    case "--inputs": o.inputs = Integer.parseInt(argv[++i]); break;
                    case "--elements": o.elements = Integer.parseInt(argv[++i]); break;
                    case "--seed": o.seed = Long.parseLong(argv[++i]); break;
                    case "--gpu-repeats": o.gpuRepeats = Integer.parseInt(argv[++i]); break;
                    case "--spec": o.spec = Paths.get(argv[++i]); break;
                    case "--arch": o.arch = argv[++i]; break;
                    case "--flags": for (String f : argv[++i].trim().split("\\s+")) if (!f.isEmpty()) o.buildFlags.add(f); break;
                    case "--all-kernels": o.allKernels = true; break;
                    default:
                        if (a.startsWith("--")) {
                            err.println("unknown option " + a);
                            return 2;
                        }
                        paths.add(Paths.get(a));
                }
            } catch (ArrayIndexOutOfBoundsException | IllegalArgumentException e) {
                err.println("bad value for " + a + ": " + e.getMessage());
                return 2;
            }
        }
        if (paths.isEmpty()) {
            err.println("usage: ValidateMain [options] PATH...");
            return 2;
        }
        if (prebuild) {
            for (String l : Validator.prebuild(paths, o)) out.println(l);
            return 0;
        }
        if (o.gpu == ValidationOptions.GpuMode.REQUIRE && GpuExecutors.unavailableReason().isPresent()) {
            err.println("--gpu require: no GPU can be used: " + GpuExecutors.unavailableReason().get());
            return 3;
        }
        ValidationReport r = Validator.validate(paths, o);
        String text = format.equals("json") ? JsonReportWriter.toJson(r) : TextReportRenderer.render(r);
        if (output != null) Files.writeString(output, text, StandardCharsets.UTF_8);
        else out.print(text);
        err.printf(Locale.ROOT, "%d kernels: %d confirmed, %d not observed, %d not runnable (%s)%n", r.kernels.size(),
                r.count(Verdict.CONFIRMED), r.count(Verdict.NOT_OBSERVED), r.count(Verdict.NOT_RUNNABLE), r.environment.get("executor"));
        return 0;
    }
}
