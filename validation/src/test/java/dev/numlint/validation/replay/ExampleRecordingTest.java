package dev.numlint.validation.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.numlint.model.Verdict;
import dev.numlint.validation.report.FindingResult;
import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.ValidationReport;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The committed recording of the DBT example (examples/recordings/dbt, recorded on an H200 by numlint record)
 * replayed on the interpreter, as {@code numlint validate --replay examples/recordings --gpu off} does: the as-built
 * PTX reproduces the GPU's recorded outputs bit for bit, forwardProject's contraction is confirmed on every
 * detector value and removed by unfusing alone, forwardProjectExact shows nothing.
 */
class ExampleRecordingTest {
    static final Path RECORDINGS = Path.of("..", "examples", "recordings");

    @Test
    void dbtHazardsAreConfirmedOnRecordedData() throws IOException {
        Recording rec = Recording.read(RECORDINGS.resolve("dbt"));
        assertEquals("NVIDIA H200 (a run of the program)", rec.facts.get("recordedOn"));
        assertTrue(rec.problems.isEmpty(), rec.problems.toString());
        ValidationReport r = new Replayer(500_000_000L).replay(RECORDINGS);
        assertEquals(2, r.kernels.size());
        KernelResult fp = r.kernels.get(0), exact = r.kernels.get(1);
        assertEquals("_Z14forwardProjectPKfS0_S0_Pt8Geometry", fp.kernel);
        assertEquals("_Z19forwardProjectExactPKfS0_S0_Pt8Geometry", exact.kernel);
        for (KernelResult k : r.kernels)
            assertEquals(
                    "yes: all 143360 elements of the recorded allocations bit for bit",
                    k.launch.get("asBuiltReproduced"),
                    k.kernel);
        assertEquals(Verdict.CONFIRMED, fp.verdict, fp.reason);
        assertEquals(4096, fp.elementsCompared, "the detector row (u16), the only buffer written");
        assertEquals(4096, fp.elementsDiffering);
        FindingResult nl003 = fp.findings.stream()
                .filter(f -> f.rule.equals("NL003"))
                .findFirst()
                .orElseThrow();
        assertEquals(Verdict.CONFIRMED, nl003.verdict);
        assertEquals(4096L, nl003.elementsDiffering);
        assertTrue(fp.attribution.stream().anyMatch(a -> a.rule.equals("NL003") && a.elementsDiffering == 4096));
        assertTrue(fp.attribution.stream().anyMatch(a -> a.rule.equals("NL002") && a.elementsDiffering == 0));
        assertEquals(Verdict.NOT_OBSERVED, exact.verdict, exact.reason);
        assertEquals(0, exact.elementsDiffering);
        assertNull(exact.findings.stream()
                .filter(f -> f.verdict == Verdict.CONFIRMED)
                .findFirst()
                .orElse(null));
    }

    @Test
    void reportsCarryStatisticsNotBufferContents() throws IOException {
        ValidationReport r = new Replayer(500_000_000L).replay(RECORDINGS);
        String json = dev.numlint.validation.report.JsonReportWriter.toJson(r);
        // the phantom's first voxel values (0.02, 0.027 ...) are data, never part of the report
        assertTrue(!json.contains("0.027"), "a buffer value leaked into the report");
        assertTrue(json.length() < 20_000, "the report is statistics, " + json.length() + " characters");
    }
}
