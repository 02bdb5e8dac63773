package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The wall budget of one Clang parse grows with the code it reads (files and bytes), up to a bound. */
class ClangBudgetTest {
    private static final long ONE = ClangBudget.budgetMs();

    @Test
    void aLargeFileGetsOneBudgetPerHundredKilobytesUpToTheBound() {
        // a small file, however long it takes (a template bomb), gets one budget
        assertThat(ClangBudget.budgetMs(0, 4_000)).isEqualTo(ONE);
        // sw4lite's device-routines.C (614 KB): about 18 s of Clang on a quiet machine, more than one budget
        assertThat(ClangBudget.budgetMs(0, 613_992)).isEqualTo(7 * ONE);
        assertThat(ClangBudget.budgetMs(3, 0)).isEqualTo(4 * ONE);
        assertThat(ClangBudget.budgetMs(2, 5_000_000)).isEqualTo(ClangBudget.MAX_BUDGETS * ONE);
    }

    @Test
    void theBytesOfAParseAreTheUnitsTheTargetsAndTheHeaders() {
        byte[] k = new byte[70_000];
        Map<Path, byte[]> headers = Map.of(Path.of("a.h"), new byte[20_000], Path.of("b.h"), new byte[15_000]);
        assertThat(ClangBudget.bytes(k, null, headers)).isEqualTo(105_000);
        assertThat(ClangBudget.bytes(k, new byte[1_000], Map.of())).isEqualTo(71_000);
        // two headers and 105 KB: three budgets for the files, one for the size
        assertThat(ClangBudget.budgetMs(headers.size(), ClangBudget.bytes(k, null, headers)))
                .isEqualTo(4 * ONE);
    }
}
