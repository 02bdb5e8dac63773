package dev.numlint.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a report to {@code --output FILE} (creating its directory) or to the command's standard output. */
final class Outputs {
    interface Body {
        void write(Writer w) throws IOException;
    }

    private Outputs() {}

    /**
     * Usage errors in {@code --output FILE}, found before the scan starts: FILE is a directory, or one of its parent
     * paths is a file. (A FILE that cannot be written for other reasons, e.g. permissions, is found when writing.)
     */
    static void check(String option, Path output) {
        if (output == null) {
            return;
        }
        if (Files.isDirectory(output)) {
            throw new Main.UsageException(option + " '" + output + "' is a directory; name a file, e.g. '"
                    + output.resolve("numlint.sarif") + "'");
        }
        for (Path p = output.toAbsolutePath().normalize().getParent(); p != null; p = p.getParent()) {
            if (Files.exists(p)) {
                if (!Files.isDirectory(p)) {
                    throw new Main.UsageException(option + " '" + output + "': '" + p + "' is not a directory");
                }
                break;
            }
        }
    }

    /** Writes the report; a file that cannot be written is an {@link Main.OutputException} (exit code 3). */
    static void write(Path output, PrintWriter stdout, Body body) {
        if (output == null) {
            try {
                body.write(stdout);
            } catch (IOException e) {
                throw new Main.OutputException("cannot write the report to standard output: " + e.getMessage(), e);
            }
            stdout.flush();
            return;
        }
        try {
            Path parent = output.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (Writer w = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
                body.write(w);
            }
        } catch (IOException e) {
            throw new Main.OutputException("cannot write the report to '" + output + "': " + describe(e), e);
        }
    }

    static String describe(IOException e) {
        String kind = e instanceof java.nio.file.AccessDeniedException
                ? "permission denied"
                : e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null
                        ? fse.getReason()
                        : e.getMessage();
        return kind == null ? e.getClass().getSimpleName() : kind;
    }
}
