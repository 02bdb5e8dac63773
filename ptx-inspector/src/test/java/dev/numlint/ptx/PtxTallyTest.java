package dev.numlint.ptx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PtxTallyTest {
    private static List<Notification> failed(String unit, String header) {
        return List.of(new Notification(
                unit,
                0,
                Level.WARNING,
                "nvcc-failed",
                "nvcc -ptx failed (exit 1): " + unit + ":4:10: fatal error: " + header
                        + ": No such file or directory; header #include <" + header + "> (" + unit
                        + ":4) was not found: give the build's include directories with -p DIR"));
    }

    @Test
    void theSummaryNamesTheMissingHeadersAndTheStepForALibraryTheToolkitLacks() {
        PtxTally t = new PtxTally();
        t.compiled();
        for (int i = 0; i < 3; i++) {
            t.failed(Path.of("k" + i + ".cu"), failed("k" + i + ".cu", "cublas_v2.h"), Set.of());
        }
        t.failed(Path.of("m.cu"), failed("m.cu", "util.h"), Set.of("util.h"));
        String m = t.summary().message();
        assertThat(m)
                .startsWith("PTX layer: 1 of 5 .cu files compiled to PTX; 4 did not compile: ")
                .contains("missing headers: cublas_v2.h (3), util.h (1)")
                .contains("next step: install the package that provides it");
    }
}
