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
        check(option, output, java.util.List.of());
    }

    /**
     * {@link #check(String, Path)}, and: FILE is a symbolic link (also a dangling one), or a directory above it inside
     * {@code tree} (the scanned PATHs and the report root) is one: numlint never writes through a link that the
     * scanned tree may have planted.
     */
    static void check(String option, Path output, java.util.Collection<Path> tree) {
        if (output == null) {
            return;
        }
        String link = dev.numlint.spi.SafeFiles.linkOnPath(output, tree);
        if (link != null) {
            throw new Main.UsageException(option + ": " + link);
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

    /**
     * Writes the report; a file that cannot be written is an {@link Main.OutputException} (exit code 3). The file is
     * written to a temporary file created exclusively beside it and renamed over it: a link there is replaced, never
     * followed, and an interrupted run leaves no partial report.
     */
    static void write(Path output, PrintWriter stdout, Body body) {
        if (output == null) {
            try {
                body.write(stdout);
            } catch (IOException e) {
                throw new Main.OutputException("cannot write the report to standard output: " + e.getMessage(), e);
            }
            stdout.flush();
            // a PrintWriter keeps write errors to itself (a full disk, a closed pipe): exit 3 as for --output
            if (stdout.checkError()) {
                throw new Main.OutputException(
                        "cannot write the report to standard output: write error (disk full, or the reader went away?)",
                        null);
            }
            return;
        }
        try {
            Path parent = output.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            if (Files.isSymbolicLink(output)) {
                throw new IOException("it is a symbolic link; numlint never writes through a link");
            }
            if (Files.exists(output, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    && !Files.isRegularFile(output, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                // a device or FIFO named on the command line (/dev/null, /dev/stdout, /dev/full): written in place;
                // the temporary file and rename below would replace the device node itself (as root)
                try (java.io.OutputStream out = Files.newOutputStream(
                        output, java.nio.file.StandardOpenOption.WRITE, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    Writer w = new java.io.BufferedWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8));
                    body.write(w);
                    w.flush();
                }
                return;
            }
            dev.numlint.spi.SafeFiles.write(output, out -> {
                Writer w = new java.io.BufferedWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8));
                body.write(w);
                w.flush();
            });
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
