package dev.numlint.validation.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Renders JSON validation reports as text: {@code JsonToText report.json}; {@code JsonToText --merge OUT.json
 * IN.json...} first concatenates the kernels of several reports (runs made in separate processes, e.g. one per
 * file so that a kernel that faults on the GPU cannot take the others' GPU context with it) into OUT.json, keeping
 * the first report's environment.
 */
public final class JsonToText {
    private JsonToText() {}

    public static void main(String[] args) throws IOException {
        ValidationReport r;
        if (args.length > 0 && args[0].equals("--merge")) {
            r = new ValidationReport();
            for (int i = 2; i < args.length; i++) {
                ValidationReport part = read(Paths.get(args[i]));
                if (r.environment.isEmpty()) r.environment.putAll(part.environment);
                r.kernels.addAll(part.kernels);
            }
            Files.writeString(Paths.get(args[1]), JsonReportWriter.toJson(r), StandardCharsets.UTF_8);
        } else {
            r = read(Paths.get(args[0]));
        }
        System.out.print(TextReportRenderer.render(r));
    }

    private static ValidationReport read(Path p) throws IOException {
        return JsonReportWriter.read(Files.readString(p, StandardCharsets.UTF_8));
    }
}
