package dev.numlint.validation.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

/** Renders a JSON validation report as text: {@code JsonToText report.json}. */
public final class JsonToText {
    private JsonToText() {}

    public static void main(String[] args) throws IOException {
        System.out.print(TextReportRenderer.render(JsonReportWriter.read(Files.readString(Paths.get(args[0]), StandardCharsets.UTF_8))));
    }
}
