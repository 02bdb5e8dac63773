package dev.numlint.cli;

import dev.numlint.config.ConfigException;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.scan.Analyzers;
import dev.numlint.spi.Analyzer;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The numlint command line. Exit codes: 0 no unsuppressed finding at or above {@code --fail-on}; 1 there is one;
 * 2 usage or configuration error; 3 internal error of numlint itself.
 */
@Command(name = "numlint", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Finds numerical hazards in CUDA and Java code: conversions, approximate division and math, "
                + "FMA contraction, accumulation order, extended precision and other reasons why CPU and GPU "
                + "results differ.",
        synopsisSubcommandLabel = "COMMAND")
public final class Main implements Runnable {
    public static final int EXIT_OK = 0;
    public static final int EXIT_FINDINGS = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_INTERNAL = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * Every subcommand, in the order {@code numlint --help} lists them. Add new subcommands (e.g. validate) here.
     */
    static List<Object> subcommands(Supplier<List<Analyzer>> analyzers) {
        return List.of(new ScanCommand(analyzers), new ValidateCommand(analyzers), new RulesCommand(),
                new DocsCommand(), new NewRuleCommand());
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command (scan, validate, rules, docs, new-rule)");
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
        cmd.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof ConfigException || ex instanceof UsageException) {
                commandLine.getErr().println("numlint: error: " + ex.getMessage());
                commandLine.getErr().flush();
                return EXIT_USAGE;
            }
            commandLine.getErr().println("numlint: internal error: " + ex);
            ex.printStackTrace(commandLine.getErr());
            commandLine.getErr().flush();
            return EXIT_INTERNAL;
        });
        return cmd;
    }

    public static void main(String[] args) {
        CommandLine cmd = commandLine();
        cmd.setOut(new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true));
        cmd.setErr(new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true));
        int code = cmd.execute(args);
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

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {RuleCatalog.TOOL_NAME + " " + RuleCatalog.toolVersion()};
        }
    }
}
