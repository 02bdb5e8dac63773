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

    private Outputs() {
    }

    static void write(Path output, PrintWriter stdout, Body body) throws IOException {
        if (output != null) {
            Path parent = output.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (Writer w = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
                body.write(w);
            }
        } else {
            body.write(stdout);
            stdout.flush();
        }
    }
}
