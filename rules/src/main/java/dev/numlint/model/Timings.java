package dev.numlint.model;

import java.lang.management.ManagementFactory;

/**
 * Where the wall time of a scan goes, for benchmarks: with {@code -Dnumlint.timings=true} each phase prints one line
 * {@code numlint timings: PHASE MS ms (at AT ms)} to standard error, AT being the time since the JVM started. Off by
 * default: nothing is printed and no report changes either way.
 */
public final class Timings {
    private Timings() {}

    /** Read at each use (a few times per scan), so a test or tool can switch it on in a running process. */
    public static boolean on() {
        return Boolean.getBoolean("numlint.timings");
    }

    /** Now, for {@link #since}. */
    public static long start() {
        return System.nanoTime();
    }

    /** Prints the phase's time since {@code t0} ({@link #start}) when timings are on. */
    public static void since(String phase, long t0) {
        if (on()) line(phase + " " + (System.nanoTime() - t0) / 1_000_000 + " ms");
    }

    /** Prints a line of figures when timings are on. */
    public static void line(String what) {
        if (!on()) return;
        long at = ManagementFactory.getRuntimeMXBean().getUptime();
        System.err.println("numlint timings: " + what + " (at " + at + " ms)");
    }
}
