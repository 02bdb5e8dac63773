package dev.numlint.model;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The clock of the per-file work budgets: the CPU time of the calling thread. Unlike wall-clock time it does not
 * run out sooner on a loaded machine or while other threads of the scan hold the cores, so the same input gives
 * the same findings however busy the CI runner is. Where the JVM cannot measure thread CPU time it falls back to
 * {@link System#nanoTime()}.
 */
public final class CpuClock {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    private static final boolean THREAD_CPU = supported();

    private CpuClock() {}

    private static boolean supported() {
        try {
            return MX.isCurrentThreadCpuTimeSupported()
                    && MX.isThreadCpuTimeEnabled()
                    && MX.getCurrentThreadCpuTime() >= 0;
        } catch (UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /** Nanoseconds of CPU time the calling thread has used (or of wall-clock time, see the class comment). */
    public static long now() {
        return THREAD_CPU ? MX.getCurrentThreadCpuTime() : System.nanoTime();
    }

    /** Whether budgets count CPU time (false: wall-clock time). */
    public static boolean countsCpuTime() {
        return THREAD_CPU;
    }
}
