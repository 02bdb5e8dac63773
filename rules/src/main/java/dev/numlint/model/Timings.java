package dev.numlint.model;

import java.lang.management.ManagementFactory;

/**
 * Where the wall time of a scan goes, for benchmarks: with {@code -Dnumlint.timings=true} each phase prints one line
 * {@code numlint timings: PHASE MS ms (at AT ms)} to standard error, AT being the time since the JVM started. Off by
 * default: nothing is printed and no report changes either way.
 */
public final class Timings {
    private static final boolean ON = Boolean.getBoolean("numlint.timings");

    private Timings() {}

    public static boolean on() {
        return ON;
    }

    /** Now, for {@link #since}. */
    public static long start() {
        return System.nanoTime();
    }

    /** Prints the phase's time since {@code t0} ({@link #start}) when timings are on. */
    public static void since(String phase, long t0) {
        if (ON) line(phase + " " + (System.nanoTime() - t0) / 1_000_000 + " ms");
    }

    /** Prints a line of figures when timings are on. */
    public static void line(String what) {
        if (!ON) return;
        long at = ManagementFactory.getRuntimeMXBean().getUptime();
        System.err.println("numlint timings: " + what + " (at " + at + " ms)");
    }
}
