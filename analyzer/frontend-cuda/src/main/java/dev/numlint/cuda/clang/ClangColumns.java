package dev.numlint.cuda.clang;

import java.nio.charset.StandardCharsets;

/**
 * Columns as numlint reports them: UTF-16 code units from the line's start, from 1 (SARIF's {@code utf16CodeUnits}).
 * Clang counts bytes, which differ after a non-ASCII character on the line.
 */
final class ClangColumns {
    private ClangColumns() {}

    /**
     * The UTF-16 column of Clang's byte column {@code byteColumn} on the line that holds {@code offset} (a node's
     * extent starts there; its location, such as a declaration's name, may lie further on the same line). The byte
     * column as it is when the offset is unknown or the column would run past the line.
     */
    static int utf16(byte[] text, int offset, int byteColumn) {
        if (offset < 0 || offset > text.length || byteColumn < 1) return byteColumn;
        int start = offset;
        while (start > 0 && text[start - 1] != '\n') start--;
        int end = start + byteColumn - 1;
        if (end > text.length) return byteColumn;
        for (int i = start; i < end; i++) if (text[i] == '\n') return byteColumn;
        return new String(text, start, end - start, StandardCharsets.UTF_8).length() + 1;
    }
}
