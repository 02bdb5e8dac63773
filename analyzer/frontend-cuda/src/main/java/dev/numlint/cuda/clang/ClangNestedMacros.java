package dev.numlint.cuda.clang;

/**
 * The end of a node that comes from the body of a macro used inside another macro's argument (session 65: libtiff's
 * {@code REPEAT(stride, wp[0] = (uint16_t)CLAMP(ip[0]); ...)}). libclang maps each end of such a node to the file
 * location of the inner macro's name, so the node's extent collapses to nothing ({@code CLAMP}'s conditional quoted as
 * {@code ''}) or stops before the use ({@code (uint16_t)} for the whole cast, quoted {@code '(uint16_t)()'}). The
 * extent that the user wrote is the macro use: its name and, for a function-like macro, its parenthesised arguments,
 * as libclang gives for the same use outside another macro's argument ({@code CLAMP(ip[0])}).
 *
 * <p>An extent's end is collapsed when it is the first character of an identifier: a real end follows a token, and no
 * expression ends where an identifier starts right after it.
 */
final class ClangNestedMacros {
    private ClangNestedMacros() {}

    /** The end offset of the extent from {@code start} to {@code end} in {@code text}: {@code end}, or past the use. */
    static int end(byte[] text, int start, int end) {
        if (start < 0 || end < start || end >= text.length || !identStart(text[end])) return end;
        if (end > 0 && identPart(text[end - 1])) return end;
        int i = end;
        while (i < text.length && identPart(text[i])) i++;
        int nameEnd = i;
        while (i < text.length && (text[i] == ' ' || text[i] == '\t')) i++;
        if (i >= text.length || text[i] != '(') return nameEnd;
        int close = closing(text, i);
        return close < 0 ? nameEnd : close + 1;
    }

    /** The offset of the parenthesis that closes the one at {@code open}, skipping literals; -1 when none. */
    private static int closing(byte[] text, int open) {
        int depth = 0;
        for (int i = open; i < text.length; i++) {
            byte b = text[i];
            if (b == '"' || b == '\'') {
                for (i++; i < text.length && text[i] != b && text[i] != '\n'; i++) if (text[i] == '\\') i++;
            } else if (b == '(') {
                depth++;
            } else if (b == ')' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    private static boolean identStart(byte b) {
        return b == '_' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z';
    }

    private static boolean identPart(byte b) {
        return identStart(b) || b >= '0' && b <= '9';
    }
}
