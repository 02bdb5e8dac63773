package dev.numlint.cuda;

import java.util.List;

/**
 * The code of a C, C++ or CUDA file without its comments and literals, for readers of its text that are no
 * preprocessor: which names a file uses ({@link UnreachableCode}), which macros a header's conditions test
 * ({@link IncludedSources#conditionNames}).
 */
final class CodeOnly {
    private CodeOnly() {}

    /** {@code b} with its comments and string and character literals blanked (the same length, lines kept). */
    static byte[] of(byte[] b) {
        return of(b, null);
    }

    /**
     * {@code b} with its comments and string and character literals blanked; the spans of its string literals (from
     * the opening quote to the closing one) added to {@code strings}, unless null.
     */
    static byte[] of(byte[] b, List<int[]> strings) {
        byte[] out = b.clone();
        int n = b.length;
        int i = 0;
        while (i < n) {
            int c = b[i] & 0xff;
            int from = i;
            if (c == '/' && i + 1 < n && b[i + 1] == '/') {
                // to the end of the line, a backslash-newline continuing it
                while (i < n && b[i] != '\n') i += b[i] == '\\' && i + 1 < n ? 2 : 1;
            } else if (c == '/' && i + 1 < n && b[i + 1] == '*') {
                i += 2;
                while (i < n && !(b[i] == '*' && i + 1 < n && b[i + 1] == '/')) i++;
                i = Math.min(n, i + 2);
            } else if ((c == '"' || c == '\'') && !(c == '\'' && i > 0 && word(b[i - 1] & 0xff))) {
                // a literal ends at its unescaped quote or at the end of its line (a ' after a digit: 1'000)
                i++;
                while (i < n && b[i] != c && b[i] != '\n') i += b[i] == '\\' && i + 1 < n ? 2 : 1;
                i = Math.min(n, i + 1);
                if (c == '"' && strings != null) strings.add(new int[] {from, i});
            } else {
                i++;
                continue;
            }
            for (int k = from; k < i && k < n; k++) if (out[k] != '\n') out[k] = ' ';
        }
        return out;
    }

    /** A character of a word: a letter, a digit, an underscore or a byte of a UTF-8 sequence. */
    private static boolean word(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80;
    }
}
