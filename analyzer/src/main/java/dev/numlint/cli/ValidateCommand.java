package dev.numlint.cli;

import dev.numlint.model.Verdict;
import dev.numlint.output.SarifReport;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.ScanValidation;
import dev.numlint.scan.Scanner;
import dev.numlint.spi.Analyzer;
import dev.numlint.validation.ValidationOptions;
import dev.numlint.validation.report.JsonReportWriter;
import dev.numlint.validation.report.TextReportRenderer;
import dev.numlint.validation.report.ValidationReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code numlint validate}: scans PATH, then runs every kernel with findings (or every kernel) as built, IEEE-strict
 * and with each hazard switched off alone, on the CPU interpreter (and the GPU when one is present), and reports
 * whether the divergence is real.
 */
@Command(
        name = "validate",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Run the kernels numlint flags and measure the divergence: as built vs IEEE-strict vs a "
                + "high-precision reference, on the CPU interpreter and on the GPU when one is present.",
        footer = {
            "",
            "Exit codes: 0 no divergence confirmed, 1 at least one kernel's divergence confirmed, "
                    + "2 usage or configuration error (including --gpu require without a usable GPU), 3 internal error "
                    + "of numlint (after the rest completed, the file named on stderr), 4 files not analyzed with "
                    + "--fail-on-input-problems."
        })
final class ValidateCommand implements Callable<Integer> {
    enum Format {
        text,
        json,
        sarif
    }

    @Spec
    CommandSpec spec;

    private final Supplier<List<Analyzer>> analyzers;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = "text, json or sarif (the scan's findings with their verdicts) (default: ${DEFAULT-VALUE})")
    Format format;

    @Option(names = "--output", paramLabel = "FILE", description = "write the report to FILE instead of stdout")
    Path output;

    @Option(
            names = "--write-spec",
            paramLabel = "FILE",
            description = "write the launch spec every validated kernel ran with (from --spec, the host code, or "
                    + "inferred) to FILE, in the --spec format, to edit and pass back with --spec")
    Path writeSpec;

    @Mixin
    ValidationInputs validation;

    @Mixin
    ScanInputs inputs;

    @Option(
            names = "--replay",
            paramLabel = "DIR",
            description = "replay the launches recorded by 'numlint record' in DIR (a recording or a directory of "
                    + "recordings) on the CPU interpreter, instead of generated inputs; with PATHs (the project), each "
                    + "recorded kernel is also rebuilt as-built and per variant from its unit's own compile command")
    Path replay;

    @Parameters(
            paramLabel = "PATH",
            arity = "0..*",
            description = "files and directories (.cu, .ptx, projects); with --replay: the project whose compile "
                    + "commands rebuild the recorded kernels")
    List<Path> paths = new java.util.ArrayList<>();

    ValidateCommand(Supplier<List<Analyzer>> analyzers) {
        this.analyzers = analyzers;
    }

    /**
     * Text for a terminal: every line with the control and bidirectional-format characters the tree may have put in
     * it (kernel names, build-context flags, reasons) made visible ({@link dev.numlint.util.Escapes}).
     */
    static String escapedLines(String text) {
        StringBuilder b = new StringBuilder(text.length());
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (i > 0) b.append('\n');
            b.append(dev.numlint.util.Escapes.text(lines[i]));
        }
        return b.toString();
    }

    @Override
    public Integer call() throws IOException {
        if (replay != null) return replay();
        if (paths.isEmpty()) throw new Main.UsageException("give a PATH to validate, or --replay DIR");
        Outputs.check("--output", output, ScanInputs.treeDirs(paths));
        Outputs.check("--write-spec", writeSpec, ScanInputs.treeDirs(paths));
        inputs.scanned(paths);
        ValidationOptions options = validation.options(inputs);
        if (options.gpu == ValidationOptions.GpuMode.REQUIRE) {
            // asked of a child process: numlint's own JVM never loads the CUDA driver
            var probe = options.probeGpu();
            if (!probe.available())
                throw new Main.UsageException("--gpu require: no GPU can be used here: " + probe.unavailable()
                        + "; use --gpu auto or off to validate on the CPU interpreter");
        }
        ScanInputs.Prepared prepared = inputs.prepare(paths, analyzers.get());
        ScanResult scan = Scanner.scan(prepared.options());
        // validation runs the PTX checks on its builds: with the scan's configuration
        options.ruleSettings = prepared.options().ruleSettings();
        ValidationReport report = ScanValidation.validate(scan, prepared.paths(), options);
        if (writeSpec != null) {
            dev.numlint.validation.input.SpecFile sf = new dev.numlint.validation.input.SpecFile();
            for (var k : report.kernels) {
                if (k.spec == null) continue;
                k.spec.kernel = k.kernel;
                sf.kernels.add(k.spec);
            }
            Outputs.write(writeSpec, spec.commandLine().getOut(), w -> {
                w.write(sf.toYaml());
                w.flush();
            });
        }
        Outputs.write(output, spec.commandLine().getOut(), w -> {
            switch (format) {
                case json -> w.write(JsonReportWriter.toJson(report) + System.lineSeparator());
                case sarif -> SarifReport.write(
                        SarifReport.fitToLimits(
                                new ScanResult(
                                        scan.root(),
                                        ScanValidation.annotate(scan, report),
                                        scan.notifications(),
                                        scan.filesAnalyzed(),
                                        scan.filesNotAnalyzed(),
                                        scan.executionSuccessful(),
                                        scan.buildContexts()),
                                SarifReport.Limits.GITHUB),
                        w);
                default -> w.write(escapedLines(TextReportRenderer.render(report)));
            }
            w.flush();
        });
        return ScanCommand.exitCode(
                scan,
                report.count(Verdict.CONFIRMED) > 0,
                prepared.failOnInputProblems(),
                spec.commandLine().getErr());
    }

    /**
     * {@code --replay DIR}: the recorded launches on the interpreter and, with a GPU ({@code --gpu auto} finds one,
     * {@code --gpu require} insists), on the GPU in child processes.
     */
    private Integer replay() throws IOException {
        if (format == Format.sarif)
            throw new Main.UsageException("--replay: SARIF needs a scan's findings; use --format json or text");
        // PATHs name the project whose own compile commands rebuild the recorded kernels' variants
        if (!paths.isEmpty()) Outputs.check("--output", output, ScanInputs.treeDirs(paths));
        inputs.scanned(paths);
        ValidationOptions options = validation.options(inputs);
        dev.numlint.validation.gpu.GpuProcess.Probe probe = null;
        String gpuWhy = "--gpu off";
        if (options.gpu != ValidationOptions.GpuMode.OFF) {
            // asked of a child process: numlint's own JVM never loads the CUDA driver
            probe = options.probeGpu();
            if (!probe.available()) {
                if (options.gpu == ValidationOptions.GpuMode.REQUIRE)
                    throw new Main.UsageException("--gpu require: no GPU can be used here: " + probe.unavailable()
                            + "; use --gpu auto or off to replay on the CPU interpreter");
                gpuWhy = probe.unavailable();
                probe = null;
            }
        }
        dev.numlint.validation.replay.ProjectBuilds project = null;
        if (!paths.isEmpty()) {
            ScanInputs.Prepared prepared = inputs.prepare(paths, analyzers.get());
            project = ScanValidation.projectBuilds(Scanner.scan(prepared.options()), prepared.paths(), options);
        }
        ValidationReport report;
        try {
            report = (probe != null
                            ? new dev.numlint.validation.replay.Replayer(
                                    options.instructionLimit, options.gpuSettings(), options.gpuRepeats)
                            : new dev.numlint.validation.replay.Replayer(options.instructionLimit))
                    .withProjectBuilds(project)
                    .replay(replay);
        } catch (IOException e) {
            throw new Main.UsageException("--replay: " + e.getMessage());
        }
        report.environment.put("gpuMode", options.gpu.name().toLowerCase(java.util.Locale.ROOT));
        if (probe != null) {
            report.environment.put("gpu", "used");
            report.environment.putAll(probe.facts());
            report.environment.put("gpuTimedRepeats", Integer.toString(options.gpuRepeats));
        } else report.environment.put("gpu", "not used: " + gpuWhy);
        Outputs.write(output, spec.commandLine().getOut(), w -> {
            if (format == Format.json) w.write(JsonReportWriter.toJson(report) + System.lineSeparator());
            else w.write(escapedLines(TextReportRenderer.render(report)));
            w.flush();
        });
        return report.count(Verdict.CONFIRMED) > 0 ? 1 : 0;
    }
}
