package dev.numlint.model;

/**
 * A cooperative per-file work budget of the calling thread, measured on {@link CpuClock}. A front end starts it for
 * one file ({@link #start}), its hot loops call {@link #check()} (cheap: the clock is read once in 1,024 calls), and
 * {@link #stop()} ends it. Once the budget ran out, every later {@code check()} of the thread throws again until
 * {@code stop()}, so that code which catches {@link RuntimeException} to keep a partial result cannot swallow the
 * stop: the next check above it throws again.
 */
public final class WorkBudget {
    /** Thrown by {@link #check()} once the budget ran out. */
    public static final class Exceeded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Exceeded(String m) {
            super(m, null, false, false);
        }
    }

    private static final class State {
        final long deadline;
        int calls;
        boolean spent;

        State(long deadline) {
            this.deadline = deadline;
        }
    }

    private static final ThreadLocal<State> STATE = new ThreadLocal<>();

    private WorkBudget() {}

    /**
     * The notice of a file whose analysis ran out of memory: names the heap limit and how to raise it (the launchers'
     * {@code NUMLINT_MAX_HEAP}), so that a hostile input ends with this notice, not with the machine's memory.
     */
    public static String outOfMemory(String where) {
        return "not analyzed: out of memory in " + where + " (Java heap limit "
                + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MB; NUMLINT_MAX_HEAP=2g raises it)";
    }

    /** Starts a budget of {@code nanos} CPU nanoseconds for the calling thread (replacing one already running). */
    public static void start(long nanos) {
        STATE.set(new State(CpuClock.now() + Math.max(0, nanos)));
    }

    /** Ends the calling thread's budget; later checks do nothing. */
    public static void stop() {
        STATE.remove();
    }

    /** Whether the calling thread's budget ran out (checks the clock). */
    public static boolean spent() {
        State s = STATE.get();
        if (s == null) return false;
        if (!s.spent && CpuClock.now() > s.deadline) s.spent = true;
        return s.spent;
    }

    /** Throws {@link Exceeded} when the calling thread's budget ran out; does nothing without a budget. */
    public static void check() {
        check(STATE.get());
    }

    private static void check(State s) {
        if (s == null) return;
        if (s.spent || ((++s.calls & 0x3ff) == 0 && CpuClock.now() > s.deadline)) {
            s.spent = true;
            throw new Exceeded("the per-file work budget ran out");
        }
    }

    /**
     * The calling thread's budget as it is now, for a loop that checks it once per element of many: {@link
     * Meter#check()} is {@link #check()} without the thread-local lookup (5% of a C scan's profile went to that
     * lookup in the walks over every node of a unit's tree, session 83). Used on the thread that took it only.
     */
    public static Meter meter() {
        State s = STATE.get();
        return s == null ? Meter.NONE : new Meter(s);
    }

    /** A budget taken by {@link #meter()}. */
    public static final class Meter {
        static final Meter NONE = new Meter(null);
        private final State state;

        private Meter(State state) {
            this.state = state;
        }

        /** {@link WorkBudget#check()} of the budget this meter took. */
        public void check() {
            WorkBudget.check(state);
        }
    }
}
