package dev.numlint.cli;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.output.Baseline;
import dev.numlint.output.HtmlReport;
import dev.numlint.output.JsonReport;
import dev.numlint.output.ReportOptions;
import dev.numlint.output.SarifReport;
import dev.numlint.output.TextReport;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.ScanValidation;
import dev.numlint.scan.Scanner;
import dev.numlint.spi.Analyzer;
import dev.numlint.validation.ValidationOptions;
import dev.numlint.validation.report.ValidationReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
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

/** {@code numlint scan}: analyzes files and directories and reports findings. */
@Command(
        name = "scan",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Scan CUDA, C/C++, PTX, Java sources and build files for numerical hazards.",
        footer = {
            "",
            "Exit codes: 0 no finding at or above --fail-on; 1 findings at or above it; 2 usage or "
                    + "configuration error; 3 internal error of numlint (a crash, out of memory, an unwritable cache or "
                    + "report), reported after the rest of the scan completed, the file named on stderr; 4 files not "
                    + "analyzed with --fail-on-input-problems. 3 wins over 1, 1 over 4."
        })
final class ScanCommand implements Callable<Integer> {
    enum Format {
        text,
        sarif,
        json,
        html,
        gitlab
    }

    enum SarifMinLevel {
        note(Level.NOTE),
        warning(Level.WARNING),
        error(Level.ERROR);

        final Level level;

        SarifMinLevel(Level level) {
            this.level = level;
        }
    }

    enum SarifSuppressed {
        keep,
        omit
    }

    enum FailOn {
        error,
        warning,
        note,
        none
    }

    @Spec
    CommandSpec spec;

    private final Supplier<List<Analyzer>> analyzers;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = "text, sarif, json, html (a self-contained audit report) or gitlab (GitLab's code quality"
                    + " report: unsuppressed findings at or above --sarif-min-level; default: ${DEFAULT-VALUE})")
    Format format;

    @Option(names = "--output", paramLabel = "FILE", description = "write the report to FILE instead of stdout")
    Path output;

    @Mixin
    ScanInputs inputs;

    @Option(
            names = "--notes",
            description = "text output: list notes (low-impact findings) too; JSON and HTML "
                    + "always contain every finding, SARIF with --sarif-min-level note")
    boolean notes;

    @Option(
            names = "--verbose",
            description = "text output: list the build context of each directory (default: one summary line)")
    boolean verbose;

    @Option(
            names = "--fail-on",
            paramLabel = "LEVEL",
            defaultValue = "error",
            description = "exit with 1 when an unsuppressed finding is at least this level: error, warning, note or"
                    + " none (default: ${DEFAULT-VALUE})")
    FailOn failOn;

    @Option(
            names = "--baseline",
            paramLabel = "FILE",
            description =
                    "SARIF file of an earlier numlint run: "
                            + "results get a baselineState (new, unchanged, updated, absent) and --fail-on counts new ones only")
    Path baseline;

    @Option(
            names = "--sarif-suppressed",
            paramLabel = "MODE",
            defaultValue = "keep",
            description = "keep: suppressed results stay in SARIF with their justification; omit: leave them out "
                    + "(for GitHub code scanning, which shows them as open alerts otherwise). JSON and HTML always "
                    + "keep them (default: ${DEFAULT-VALUE})")
    SarifSuppressed sarifSuppressed;

    @Option(
            names = "--sarif-min-level",
            paramLabel = "LEVEL",
            defaultValue = "warning",
            description = "SARIF only: leave out results below LEVEL (note, warning or error), for code scanning, "
                    + "which shows every result as an alert; the run records the level, so a baseline made from the "
                    + "file compares only what it holds. JSON and HTML keep every finding (default: ${DEFAULT-VALUE})")
    SarifMinLevel sarifMinLevel;

    @Option(
            names = "--sarif-category",
            paramLabel = "NAME",
            defaultValue = ReportOptions.DEFAULT_CATEGORY,
            description = "SARIF automationDetails.id category, to tell several numlint runs of one repository "
                    + "apart (default: ${DEFAULT-VALUE})")
    String sarifCategory;

    enum Annotations {
        none,
        github
    }

    @Option(
            names = "--annotations",
            paramLabel = "KIND",
            defaultValue = "none",
            description = "github: also print the findings that the SARIF holds (new ones with --baseline) as GitHub "
                    + "Actions annotations on stderr (::warning file=...,line=...::message), at most "
                    + MAX_ANNOTATIONS + " (default: ${DEFAULT-VALUE})")
    Annotations annotations;

    /** GitHub shows at most 10 annotations of a kind per step and 50 per job. */
    static final int MAX_ANNOTATIONS = 50;

    /** Findings that failed the --fail-on gate listed on stderr, then a count of the others. */
    static final int MAX_GATE_LINES = 10;

    @Option(
            names = "--validate",
            description = "also run the flagged kernels (CPU interpreter, and the GPU when one "
                    + "is present) and add each finding's verdict to the report (SARIF/JSON: properties.validation)")
    boolean validate;

    @Mixin
    ValidationInputs validation;

    @Parameters(paramLabel = "PATH", arity = "1..*", description = "files and directories to scan")
    List<Path> paths;

    ScanCommand(Supplier<List<Analyzer>> analyzers) {
        this.analyzers = analyzers;
    }

    @Override
    public Integer call() throws IOException {
        dev.numlint.model.Timings.line("scan command");
        Outputs.check("--output", output, ScanInputs.treeDirs(paths));
        long t0 = dev.numlint.model.Timings.start();
        ScanInputs.Prepared prepared = inputs.prepare(paths, analyzers.get());
        dev.numlint.model.Timings.since("inputs (configuration, build flags)", t0);
        Baseline base = null;
        if (baseline != null) {
            try {
                base = Baseline.load(inputs.checkedInput("--baseline", baseline));
            } catch (Baseline.InvalidBaselineException e) {
                throw new Main.UsageException(e.getMessage());
            }
        }
        ScanResult result = Scanner.scan(prepared.options());
        for (Notification n : result.notifications()) {
            if (dev.numlint.flags.BuildFlagAnalyzer.USAGE_ERROR.equals(n.id())) {
                // an option that applied nowhere (--preset, --make-target): the scan is not what was asked for
                throw new Main.UsageException(n.message());
            }
        }
        if (validate) {
            ValidationOptions vo = validation.options(inputs);
            // validation runs the PTX checks on its builds: with the scan's configuration
            vo.ruleSettings = prepared.options().ruleSettings();
            ValidationReport report = ScanValidation.validate(result, prepared.paths(), vo);
            result = new ScanResult(
                    result.root(),
                    ScanValidation.annotate(result, report),
                    result.notifications(),
                    result.filesAnalyzed(),
                    result.filesNotAnalyzed(),
                    result.executionSuccessful(),
                    result.buildContexts());
        }

        PrintWriter err = spec.commandLine().getErr();
        if (format == Format.sarif) {
            // GitHub's limits on one run: past them the most important results stay and a notification says so
            result = SarifReport.fitToLimits(result, SarifReport.Limits.GITHUB);
        }
        if (format == Format.text) {
            TextReport.writeNotifications(result, err);
        } else {
            for (Notification n : result.notifications()) {
                if (n.notAnalyzed() || SarifReport.LIMIT_NOTIFICATION.equals(n.id())) {
                    err.println(TextReport.line(n));
                }
            }
            err.flush();
        }
        ScanResult r = result;
        Baseline.Comparison comparison = base == null ? null : base.compare(result.findings());
        ReportOptions ro = new ReportOptions(
                comparison,
                sarifSuppressed == SarifSuppressed.omit,
                sarifCategory,
                prepared.paths(),
                prepared.configFile(),
                failOn.name(),
                sarifMinLevel == SarifMinLevel.note ? null : sarifMinLevel.level);
        long t1 = dev.numlint.model.Timings.start();
        Outputs.write(output, spec.commandLine().getOut(), w -> write(r, ro, w));
        dev.numlint.model.Timings.since("report", t1);
        Level threshold =
                switch (failOn) {
                    case error -> Level.ERROR;
                    case warning -> Level.WARNING;
                    case note -> Level.NOTE;
                    case none -> null;
                };
        boolean fails = comparison != null ? comparison.failsAt(threshold) : result.failsAt(threshold);
        if (annotations == Annotations.github) {
            Level min = sarifMinLevel.level;
            TextReport.writeGithubAnnotations(
                    result.findings().stream()
                            .filter(f -> !f.suppressed() && f.level().atLeast(min))
                            .filter(f -> comparison == null || comparison.state(f) == Baseline.State.NEW)
                            .toList(),
                    MAX_ANNOTATIONS,
                    err);
        }
        if (fails && result.executionSuccessful()) {
            List<dev.numlint.model.Finding> gate = result.findings().stream()
                    .filter(f -> !f.suppressed() && f.level().atLeast(threshold))
                    .filter(f -> comparison == null || comparison.state(f) == Baseline.State.NEW)
                    .toList();
            err.println("numlint: " + gate.size() + (comparison == null ? "" : " new") + " finding"
                    + (gate.size() == 1 ? "" : "s") + " at or above --fail-on " + failOn + " fail the run:");
            for (int i = 0; i < Math.min(MAX_GATE_LINES, gate.size()); i++) {
                err.println("  " + TextReport.line(gate.get(i)));
            }
            if (gate.size() > MAX_GATE_LINES) {
                err.println("  ... and " + (gate.size() - MAX_GATE_LINES) + " more (all in the report)");
            }
            err.flush();
        }
        return exitCode(result, fails, prepared.failOnInputProblems(), err);
    }

    /**
     * The exit code of a finished scan: 3 when numlint itself failed on a file (the rest of the scan was completed
     * and reported), else 1 for findings at the threshold, else 4 for files not analyzed when input problems fail
     * the run, else 0.
     */
    static int exitCode(ScanResult result, boolean findings, boolean failOnInputProblems, PrintWriter err) {
        if (!result.executionSuccessful()) {
            long n = result.notifications().stream()
                    .filter(x -> Scanner.INTERNAL_ERROR.equals(x.id()))
                    .count();
            err.println("numlint: error: internal error" + (n == 1 ? "" : "s") + " of numlint"
                    + (n > 0 ? " (" + n + ", see the internal-error notifications above)" : "")
                    + "; everything else was analyzed and reported; exit code " + Main.EXIT_INTERNAL);
            err.flush();
            return Main.EXIT_INTERNAL;
        }
        if (findings) {
            return Main.EXIT_FINDINGS;
        }
        if (failOnInputProblems && result.filesNotAnalyzed() > 0) {
            err.println("numlint: error: " + result.filesNotAnalyzed() + " file"
                    + (result.filesNotAnalyzed() == 1 ? "" : "s") + " could not be analyzed and input problems fail "
                    + "the run (--fail-on-input-problems); exit code " + Main.EXIT_INPUT_PROBLEMS);
            err.flush();
            return Main.EXIT_INPUT_PROBLEMS;
        }
        return Main.EXIT_OK;
    }

    private void write(ScanResult result, ReportOptions ro, Writer w) throws IOException {
        switch (format) {
            case sarif -> SarifReport.write(result, ro, w);
            case json -> JsonReport.write(result, ro, w);
            case html -> HtmlReport.write(result, ro, w);
            case gitlab -> dev.numlint.output.GitlabReport.write(
                    result, sarifMinLevel == SarifMinLevel.note ? null : sarifMinLevel.level, w);
            default -> {
                PrintWriter pw = w instanceof PrintWriter p ? p : new PrintWriter(w);
                TextReport.write(result, ro, pw, notes, verbose);
                // a PrintWriter keeps write errors to itself: a full disk must end in exit 3 as with the other formats
                if (pw.checkError()) throw new IOException("write error (disk full, or the reader went away?)");
            }
        }
        w.flush();
    }

    /** Splits a flag string like a shell would (see {@link ScanInputs#tokenize}). */
    static List<String> tokenize(String s) {
        return ScanInputs.tokenize(s);
    }
}
