package dev.numlint.validation.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.Writer;

/** Writes a {@link ValidationReport} as JSON. */
public final class JsonReportWriter {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonReportWriter() {}

    public static String toJson(ValidationReport r) {
        try {
            return MAPPER.writeValueAsString(r);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static void write(ValidationReport r, Writer out) throws IOException {
        MAPPER.writeValue(out, r);
    }

    public static ValidationReport read(String json) throws IOException {
        return MAPPER.readValue(json, ValidationReport.class);
    }
}
