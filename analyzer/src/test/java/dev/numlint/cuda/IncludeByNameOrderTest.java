package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import org.junit.jupiter.api.Test;

/**
 * The include-by-name note of a header goes to its first includer by path and line, not to the file a parallel scan
 * happened to finish first (bart's SARIF differed between runs in which includer carried each note).
 */
class IncludeByNameOrderTest {
    static Notification at(String file, int line) {
        return new Notification(file, line, Level.NOTE, "include-by-name", "#include \"a.h\" read from src/a.h");
    }

    @Test
    void theEarlierPlaceWinsWhicheverArrivesFirst() {
        Notification a = at("src/linops/sum.c", 40), b = at("src/linops/sum.c", 36), c = at("src/a.c", 90);
        assertThat(CudaScanRun.firstPlace(a, b)).isSameAs(b);
        assertThat(CudaScanRun.firstPlace(b, a)).isSameAs(b);
        assertThat(CudaScanRun.firstPlace(b, c)).isSameAs(c);
        assertThat(CudaScanRun.firstPlace(c, b)).isSameAs(c);
    }
}
