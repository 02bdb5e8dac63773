package dev.numlint.model;

/**
 * The cores the analysis may use: the JVM's available processors, or fewer when the command line limits them
 * ({@code -j N}, for CI runners that share a machine). Front ends size their helper threads with {@link #available()}.
 */
public final class Cores {
    private static volatile int limit;

    private Cores() {}

    /** The processors to use: at most the limit set by {@link #limit(int)}, at least 1. */
    public static int available() {
        int n = Math.max(1, Runtime.getRuntime().availableProcessors());
        int l = limit;
        return l > 0 ? Math.min(n, l) : n;
    }

    /** Sets the limit for the scans that follow ({@code n <= 0}: none). */
    public static void limit(int n) {
        limit = Math.max(0, n);
    }
}
