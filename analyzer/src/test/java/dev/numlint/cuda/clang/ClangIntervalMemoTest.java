package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The memo of one interval query ({@link ClangIntervalMemo}): what it keeps, for how long, and what it never keeps.
 * Each test counts the evaluations the memo lets through.
 */
class ClangIntervalMemoTest {
    private static ClangNode node() {
        return new ClangNode(0, "", "", 0, "", 0, null, 0, 0, 0, 0, -1, -1, null, null, null, null);
    }

    private static Supplier<double[]> counted(AtomicInteger calls, double lo, double hi) {
        return () -> {
            calls.incrementAndGet();
            return new double[] {lo, hi};
        };
    }

    @Test
    void aValueReadAgainInOneQueryIsEvaluatedOnceAndEachDepthApart() {
        ClangNode n = node();
        AtomicInteger calls = new AtomicInteger();
        double[] r = ClangIntervalMemo.query(() -> {
            ClangIntervalMemo.of(n, null, 3, counted(calls, 0, 1));
            double[] again = ClangIntervalMemo.of(n, null, 3, counted(calls, 5, 6));
            ClangIntervalMemo.of(n, null, 2, counted(calls, 0, 1));
            return again;
        });
        assertThat(r).containsExactly(0, 1);
        assertThat(calls).hasValue(2);
    }

    @Test
    void nothingIsKeptOutsideAQueryNorFromOneQueryToTheNext() {
        ClangNode n = node();
        AtomicInteger calls = new AtomicInteger();
        ClangIntervalMemo.of(n, null, 3, counted(calls, 0, 1));
        ClangIntervalMemo.of(n, null, 3, counted(calls, 0, 1));
        ClangIntervalMemo.query(() -> ClangIntervalMemo.of(n, null, 3, counted(calls, 0, 1)));
        ClangIntervalMemo.query(() -> ClangIntervalMemo.of(n, null, 3, counted(calls, 0, 1)));
        assertThat(calls).hasValue(4);
    }

    @Test
    void aKeptIntervalIsACopyTheCallerCannotChange() {
        ClangNode n = node();
        AtomicInteger calls = new AtomicInteger();
        double[] second = ClangIntervalMemo.query(() -> {
            ClangIntervalMemo.of(n, null, 3, counted(calls, 0, 1))[0] = -99;
            return ClangIntervalMemo.of(n, null, 3, counted(calls, 0, 1));
        });
        assertThat(second).containsExactly(0, 1);
        assertThat(calls).hasValue(1);
    }

    @Test
    void aValueThatMetAGuardOpenedAboveItIsUsedAgainOnlyWhileThatOpeningLasts() {
        ClangNode n = node();
        AtomicInteger calls = new AtomicInteger();
        Object owner = new Object();
        // the value asks for the guard "f" again: a cut, unknown there, so it depends on "f" being open
        Supplier<double[]> meetsF = () -> {
            calls.incrementAndGet();
            boolean entered = ClangIntervalMemo.enter(owner, "f");
            assertThat(entered).isFalse();
            return new double[] {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY};
        };
        ClangIntervalMemo.query(() -> {
            assertThat(ClangIntervalMemo.enter(owner, "f")).isTrue();
            try {
                ClangIntervalMemo.of(n, null, 4, meetsF);
                ClangIntervalMemo.of(n, null, 4, meetsF); // the same opening: kept
            } finally {
                ClangIntervalMemo.exit(owner, "f");
            }
            assertThat(calls).hasValue(1);
            assertThat(ClangIntervalMemo.enter(owner, "f")).isTrue();
            try {
                ClangIntervalMemo.of(n, null, 4, meetsF); // another opening of "f": evaluated again
            } finally {
                ClangIntervalMemo.exit(owner, "f");
            }
            return null;
        });
        assertThat(calls).hasValue(2);
    }

    @Test
    void aCycleOpenedAndCutBelowTheValueIsItsOwnAndTheValueIsKept() {
        ClangNode n = node();
        AtomicInteger calls = new AtomicInteger();
        Object owner = new Object();
        Supplier<double[]> ownCycle = () -> {
            calls.incrementAndGet();
            assertThat(ClangIntervalMemo.enter(owner, "g")).isTrue();
            try {
                assertThat(ClangIntervalMemo.enter(owner, "g")).isFalse();
            } finally {
                ClangIntervalMemo.exit(owner, "g");
            }
            return new double[] {0, 2};
        };
        ClangIntervalMemo.query(() -> {
            ClangIntervalMemo.of(n, null, 4, ownCycle);
            assertThat(ClangIntervalMemo.enter(owner, "other")).isTrue();
            try {
                ClangIntervalMemo.of(n, null, 4, ownCycle);
            } finally {
                ClangIntervalMemo.exit(owner, "other");
            }
            return null;
        });
        assertThat(calls).hasValue(1);
    }

    @Test
    void aCutPassesUpToTheValuesAboveIt() {
        ClangNode inner = node();
        ClangNode outer = node();
        AtomicInteger calls = new AtomicInteger();
        Object owner = new Object();
        ClangIntervalMemo.query(() -> {
            assertThat(ClangIntervalMemo.enter(owner, "f")).isTrue();
            try {
                Supplier<double[]> outerValue = () -> {
                    calls.incrementAndGet();
                    return ClangIntervalMemo.of(inner, null, 3, () -> {
                        ClangIntervalMemo.enter(owner, "f");
                        return new double[] {0, 1};
                    });
                };
                ClangIntervalMemo.of(outer, null, 4, outerValue);
            } finally {
                ClangIntervalMemo.exit(owner, "f");
            }
            // "f" is closed: the outer value met its cut through the inner one and is not used again
            ClangIntervalMemo.of(outer, null, 4, counted(calls, 0, 1));
            return null;
        });
        assertThat(calls).hasValue(2);
    }
}
