package dev.numlint.ptx.rules;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The answers of {@link SourceText}'s per-line questions, remembered per thread for the most recent lines. The PTX
 * checks ask them once per instruction, and a generated kernel puts thousands of instructions on one source line of
 * thousands of characters: without the memo each instruction re-read the whole line with several regular expressions
 * (session 26's defect 8, gkylzero's {@code dg_bin_ops_cu.cu} over the PTX budget), quadratic in the statement.
 */
final class LineMemo {
    static final int MATH_LIBRARY = 0;
    static final int MATH_LIBRARY_ANY_CASE = 1;
    static final int EXACT_ROUTINE = 2;
    static final int EXPLICIT_FMA = 3;
    static final int MULTIPLY = 4;
    private static final int QUESTIONS = 5;

    /** Lines remembered per thread (a kernel's lines interleave in its PTX). */
    static final int LINES = 64;

    /** Lines shorter than this are answered directly: the memo's lookup would cost more than the answer. */
    static final int SHORT = 200;

    private static final ThreadLocal<Map<String, byte[]>> MEMO =
            ThreadLocal.withInitial(() -> new LinkedHashMap<>(64, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<String, byte[]> eldest) {
                    return size() > LINES;
                }
            });

    private LineMemo() {}

    /** The answer of question {@code q} (computed by {@code answer}) for {@code line}. */
    static boolean of(String line, int q, Predicate<String> answer) {
        if (line.length() < SHORT) return answer.test(line);
        byte[] known = MEMO.get().computeIfAbsent(line, l -> new byte[QUESTIONS]);
        if (known[q] == 0) known[q] = answer.test(line) ? (byte) 1 : (byte) 2;
        return known[q] == 1;
    }
}
