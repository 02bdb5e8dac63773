package dev.numlint.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.scan.ScanResult;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25: the C/C++/CUDA types that no file read defines are stated where the compiler layer's line is: the last
 * lines of the text output, the HTML header and a SARIF tool execution notification.
 */
class UndefinedTypesLineTest {
    @TempDir
    Path tmp;

    @Test
    void textHtmlAndSarifStateTheUndefinedTypes() throws Exception {
        String msg = "2 C/C++/CUDA types used at 40 places (functions) in 3 files are defined in no file read: DType2"
                + " (30), CufftType (10); configure the project and pass -p build";
        Notification types = new Notification(null, 0, Level.WARNING, "types-undefined", msg);
        Notification other = new Notification("k.cu", 3, Level.WARNING, "types-undefined", "not this one");
        ScanResult r = new ScanResult(tmp, List.of(), List.of(other, types), 1, 0, true);

        StringWriter text = new StringWriter();
        TextReport.write(r, new ReportOptions(null, false, null, List.of(tmp), null), new PrintWriter(text), false);
        List<String> lines = text.toString().lines().toList();
        assertThat(lines.get(lines.size() - 1)).isEqualTo(msg);

        String html = HtmlReport.render(r, new ReportOptions(null, false, null, List.of(tmp), null));
        assertThat(html)
                .contains("<th>Undefined types</th><td>" + msg + "</td>")
                .doesNotContain("<th>Undefined types</th><td>not this one");

        StringWriter sarif = new StringWriter();
        SarifReport.write(r, sarif);
        JsonNode notes = new ObjectMapper()
                .readTree(sarif.toString())
                .path("runs")
                .path(0)
                .path("invocations")
                .path(0)
                .path("toolExecutionNotifications");
        assertThat(notes.findValuesAsText("text")).contains(msg);
    }
}
