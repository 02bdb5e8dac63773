package dev.numlint.cuda;

/** The CUDA front end's per-file and per-function work limits (system properties override them). */
final class FrontEndBudgets {
    private FrontEndBudgets() {}

    /**
     * CPU time per file for the function bodies ({@code -Dnumlint.cuda.fileBudgetMs}): 5 s, once more per 256 KB of the
     * file up to 16 (CImg.h's 3 MB, session 46), so that a file made to take minutes costs seconds per its size.
     */
    static final long FILE_BUDGET_MS = 5_000;

    static long fileBudgetNanos(long bytes) {
        long budgets = Math.min(16, 1 + Math.max(0, bytes) / 256_000);
        return Math.max(1, Long.getLong("numlint.cuda.fileBudgetMs", FILE_BUDGET_MS)) * budgets * 1_000_000L;
    }

    /**
     * Tokens of one function body the front end parses ({@code -Dnumlint.cuda.maxFunctionTokens}). The parse tree and
     * the facts of a function are held whole while it is analyzed (about 500 bytes a token), so a generated function
     * of 100,000 lines (1.5 million tokens) took 1.3 GB; past the limit the function gets an {@code over-budget}
     * notice and the rest of the file is analyzed. Hand-written kernels have a few thousand tokens.
     */
    static final int MAX_FUNCTION_TOKENS = 400_000;

    static int maxFunctionTokens() {
        return Math.max(1, Integer.getInteger("numlint.cuda.maxFunctionTokens", MAX_FUNCTION_TOKENS));
    }
}
