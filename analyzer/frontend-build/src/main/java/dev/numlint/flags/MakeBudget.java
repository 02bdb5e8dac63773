package dev.numlint.flags;

/**
 * The limits of one Makefile's evaluation (with its includes): the size of one expansion, the characters and
 * references all expansions may produce, the nesting depth and the time. Past a limit {@link OverBudget} is thrown
 * and the value being computed is unknown.
 */
final class MakeBudget {
    /** Longest value one expansion may produce. */
    static final int MAX_EXPANSION = 256 * 1024;
    /** Characters all expansions of one Makefile (with its includes) may produce together. */
    static final long MAX_WORK = 16L << 20;
    /**
     * Variable and function references one Makefile (with its includes) may expand: doubling chains whose values stay
     * empty or blank produce almost no characters, so {@link #MAX_WORK} alone let them run for seconds (fuzzing).
     */
    static final long MAX_REFERENCES = 500_000;

    static final int MAX_DEPTH = 64;
    static final long TIME_BUDGET_NANOS = 5_000_000_000L;

    /** A budget ran out: the value being computed is unknown. */
    static final class OverBudget extends RuntimeException {
        OverBudget(String m) {
            super(m, null, false, false);
        }
    }

    private final long deadline = dev.numlint.model.CpuClock.now() + TIME_BUDGET_NANOS;
    private long work;
    private long references;

    void checkTime() {
        if (dev.numlint.model.CpuClock.now() > deadline) {
            throw new OverBudget(
                    "the time budget of " + TIME_BUDGET_NANOS / 1_000_000_000L + " s per Makefile ran out");
        }
    }

    void charge(int n) {
        work += n;
        if (work > MAX_WORK)
            throw new OverBudget("variable expansion produced more than " + (MAX_WORK >> 20) + " MiB of text");
    }

    void countReference() {
        if (++references > MAX_REFERENCES) {
            throw new OverBudget("more than " + MAX_REFERENCES + " variable references expanded");
        }
    }
}
