package dev.numlint.cli;

import dev.numlint.config.ConfigException;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.scan.Analyzers;
import dev.numlint.spi.Analyzer;
import dev.numlint.util.Escapes;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The numlint command line. Exit codes: 0 no unsuppressed finding at or above {@code --fail-on}; 1 there is one;
 * 2 usage or configuration error; 3 internal error of numlint itself (after the rest of the scan completed, the
 * failing file named in a notification; also an unwritable report); 4 files could not be analyzed and
 * {@code --fail-on-input-problems} is set. 3 wins over 1, 1 over 4.
 */
@Command(
        name = "numlint",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Finds numerical hazards in CUDA and Java code: conversions, approximate division and math, "
                + "FMA contraction, accumulation order, extended precision and other reasons why CPU and GPU "
                + "results differ.",
        synopsisSubcommandLabel = "COMMAND")
public final class Main implements Runnable {
    public static final int EXIT_OK = 0;
    public static final int EXIT_FINDINGS = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_INTERNAL = 3;
    /** Files could not be analyzed and {@code --fail-on-input-problems} (or the configuration key) is set. */
    public static final int EXIT_INPUT_PROBLEMS = 4;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * Every subcommand, in the order {@code numlint --help} lists them. Add new subcommands (e.g. validate) here.
     */
    static List<Object> subcommands(Supplier<List<Analyzer>> analyzers) {
        return List.of(
                new ScanCommand(analyzers),
                new ValidateCommand(analyzers),
                new RecordCommand(),
                new RulesCommand(),
                new DocsCommand(),
                new NewRuleCommand());
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "missing command (scan, validate, record, rules, docs, new-rule)");
    }

    /** The command line with the analyzers found by ServiceLoader. */
    public static CommandLine commandLine() {
        return commandLine(Analyzers::load);
    }

    /** The command line with the given analyzers (tests inject their own). */
    public static CommandLine commandLine(Supplier<List<Analyzer>> analyzers) {
        CommandLine cmd = new CommandLine(new Main());
        for (Object sub : subcommands(analyzers)) {
            cmd.addSubcommand(sub);
        }
        cmd.setParameterExceptionHandler((ex, args) -> usageError(ex.getCommandLine(), ex.getMessage()));
        cmd.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof ConfigException || ex instanceof UsageException) {
                return usageError(commandLine, ex.getMessage());
            }
            if (ex instanceof OutputException) {
                commandLine.getErr().println("numlint: error: " + Escapes.text(ex.getMessage()));
                commandLine.getErr().flush();
                return EXIT_INTERNAL;
            }
            commandLine.getErr().println("numlint: internal error: " + Escapes.text(String.valueOf(ex)));
            ex.printStackTrace(commandLine.getErr());
            commandLine.getErr().flush();
            return EXIT_INTERNAL;
        });
        return cmd;
    }

    /**
     * A usage or configuration error: the one error and a pointer to the command's {@code --help} (never the whole
     * help text, which would bury the error), exit code 2.
     */
    static int usageError(CommandLine commandLine, String message) {
        PrintWriter err = commandLine.getErr();
        err.println("numlint: error: " + Escapes.text(message));
        err.println("Try '" + commandLine.getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return EXIT_USAGE;
    }

    public static void main(String[] args) {
        CommandLine cmd = commandLine();
        cmd.setOut(new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true));
        cmd.setErr(new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true));
        int code;
        try {
            code = cmd.execute(args);
        } catch (OutOfMemoryError e) {
            // picocli handles Exceptions; an Error outside the scan's own per-file handling ends here, never as 0
            cmd.getErr()
                    .println("numlint: error: out of memory (Java heap limit "
                            + Runtime.getRuntime().maxMemory() / (1024 * 1024)
                            + " MB); raise it with NUMLINT_MAX_HEAP=4g (the numlint launcher) or java -Xmx4g");
            code = EXIT_INTERNAL;
        } catch (StackOverflowError e) {
            cmd.getErr().println("numlint: internal error: " + e);
            code = EXIT_INTERNAL;
        }
        cmd.getOut().flush();
        cmd.getErr().flush();
        System.exit(code);
    }

    /** A usage problem found after parsing (e.g. a PATH that does not exist): exit code 2. */
    static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /** The report could not be written (an unwritable {@code --output}): exit code 3, one line. */
    static final class OutputException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        OutputException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {RuleCatalog.TOOL_NAME + " " + RuleCatalog.toolVersion()};
        }
    }
}
