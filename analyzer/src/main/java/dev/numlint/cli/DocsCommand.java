package dev.numlint.cli;

import dev.numlint.output.DocsGenerator;
import dev.numlint.rules.RuleCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code numlint docs --output docs/rules}: writes the rule documentation from the catalog. */
@Command(
        name = "docs",
        mixinStandardHelpOptions = true,
        description = "Write the rule documentation (<ID>-<name>.md per rule and README.md) into a directory.")
final class DocsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--output",
            paramLabel = "DIR",
            required = true,
            description = "directory to write into, normally docs/rules")
    Path output;

    @Option(
            names = "--bibliography",
            paramLabel = "FILE",
            description = "also write the bibliography the rule documents cite, normally docs/bibliography.md")
    Path bibliography;

    @Override
    public Integer call() throws Exception {
        if (Files.exists(output) && !Files.isDirectory(output)) {
            throw new Main.UsageException("--output '" + output + "' is a file; docs writes one file per rule into a "
                    + "directory, e.g. docs/rules");
        }
        for (Path p = output.toAbsolutePath().normalize().getParent(); p != null; p = p.getParent()) {
            if (Files.exists(p)) {
                if (!Files.isDirectory(p)) {
                    throw new Main.UsageException("--output '" + output + "': '" + p + "' is not a directory");
                }
                break;
            }
        }
        if (bibliography != null) {
            Outputs.check("--bibliography", bibliography);
        }
        int n = DocsGenerator.write(RuleCatalog.get(), output);
        if (bibliography != null) {
            Outputs.write(bibliography, null, w -> w.write(dev.numlint.rules.Bibliography.markdown()));
            n++;
        }
        spec.commandLine().getErr().println("numlint: wrote " + n + " files to " + output);
        return Main.EXIT_OK;
    }
}
