package dev.numlint.cuda.clang;

import java.nio.file.Path;
import java.util.Map;

/**
 * The budget of one Clang parse ({@code -Dnumlint.clang.fileBudgetMs}, default 20 s per file), scaled by what the
 * parse reads, and the reason a file that went over it gives. In a worker process ({@link ClangWorkers}) the budget is
 * the worker's CPU time, so that whether a file is parsed does not depend on how loaded the machine is (issue 26:
 * PKDGRAV3's and gDel3D's coverage changed between two runs at different loads); the wall time is capped at
 * {@link #WALL_CAP_FACTOR} budgets. In process (tests) it is wall time.
 */
final class ClangBudget {
    static final long FILE_BUDGET_MS = 20_000;

    private ClangBudget() {}

    static long budgetMs() {
        return Math.max(1, Long.getLong("numlint.clang.fileBudgetMs", FILE_BUDGET_MS));
    }

    /**
     * The budget of a parse that also reads {@code headers} project headers ({@link ClangIncludes}): it does the work
     * of the parses of those headers that it replaces, so one budget per file read; and one more for every
     * {@link #BYTES_PER_BUDGET} bytes of the unit's own text and the headers' (a 614 KB stencil file needs about 18 s
     * of Clang on a quiet machine here, more than one budget under load); at most {@link #MAX_BUDGETS}. A small file
     * that takes long (a template bomb) still gets one budget.
     */
    static long budgetMs(int headers, long bytes) {
        long budgets = 1 + headers + Math.max(0, bytes) / BYTES_PER_BUDGET;
        return budgetMs() * Math.min(budgets, MAX_BUDGETS);
    }

    /** The size of code that earns a parse one more per-file budget. */
    static final long BYTES_PER_BUDGET = 100_000;

    /** The bytes a parse reads from the scan: the unit's text, the target's and the project headers'. */
    static long bytes(byte[] text, byte[] targetText, Map<Path, byte[]> headers) {
        long n = (text == null ? 0 : text.length) + (targetText == null ? 0 : targetText.length);
        for (byte[] h : headers.values()) n += h == null ? 0 : h.length;
        return n;
    }

    /** The most per-file budgets one parse gets, however many headers it reads. */
    static final int MAX_BUDGETS = 8;

    /** How many budgets of wall time a worker's parse may take however little CPU it gets (a machine at load 8). */
    static final int WALL_CAP_FACTOR = 8;

    /** The wall-time cap of a parse whose CPU-time budget is {@code budgetMs}. */
    static long wallCapMs(long budgetMs) {
        return budgetMs * WALL_CAP_FACTOR;
    }

    /**
     * Why a file went over the budget, with how to raise it. The budget is the Clang worker's CPU time, which the
     * machine's load does not change (session 24 saw wall-time budgets give different coverage at different loads).
     */
    static String overBudgetReason(long ms) {
        return "over the per-file budget of " + ms + " ms of CPU time (raise it with"
                + " JAVA_TOOL_OPTIONS=-Dnumlint.clang.fileBudgetMs=" + ms * 3 + " ./numlint scan ...)";
    }

    /** Why a file whose parse got too little CPU to finish within the wall-time cap was left out. */
    static String wallCapReason(long ms) {
        return "not finished within " + wallCapMs(ms) / 1000 + " s of wall time (" + WALL_CAP_FACTOR
                + " per-file budgets of " + ms + " ms): the machine was too loaded to give the parse its CPU time;"
                + " rerun with fewer --jobs or raise JAVA_TOOL_OPTIONS=-Dnumlint.clang.fileBudgetMs=" + ms * 3;
    }
}
