package dev.numlint.flags;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Text in which every character remembers where it was written (file index, 1-based line and column), so that a
 * flag found after variable expansion, list splitting or generator-expression evaluation is still reported at the
 * place the user typed it.
 */
final class PosText {
    static final PosText EMPTY = new PosText("", new int[0], new int[0], new int[0], new boolean[0]);

    final String text;
    private final int[] file;
    private final int[] line;
    private final int[] col;
    /** Characters that came from an escape sequence or a bracket argument: never a variable or list syntax. */
    private final boolean[] literal;

    private PosText(String text, int[] file, int[] line, int[] col, boolean[] literal) {
        this.text = text;
        this.file = file;
        this.line = line;
        this.col = col;
        this.literal = literal;
    }

    /** Text whose characters all lie on one line of one file, starting at {@code column}. */
    static PosText of(String text, int fileIndex, int line, int column) {
        Builder b = new Builder();
        for (int i = 0; i < text.length(); i++) {
            b.append(text.charAt(i), fileIndex, line, column + i, false);
        }
        return b.build();
    }

    int length() {
        return text.length();
    }

    char charAt(int i) {
        return text.charAt(i);
    }

    int fileAt(int i) {
        return file.length == 0 ? -1 : file[Math.min(i, file.length - 1)];
    }

    int lineAt(int i) {
        return line.length == 0 ? 0 : line[Math.min(i, line.length - 1)];
    }

    int colAt(int i) {
        return col.length == 0 ? 0 : col[Math.min(i, col.length - 1)];
    }

    boolean literalAt(int i) {
        return literal[i];
    }

    PosText sub(int from, int to) {
        return new PosText(
                text.substring(from, to),
                Arrays.copyOfRange(file, from, to),
                Arrays.copyOfRange(line, from, to),
                Arrays.copyOfRange(col, from, to),
                Arrays.copyOfRange(literal, from, to));
    }

    PosText sub(int from) {
        return sub(from, text.length());
    }

    PosText concat(PosText o) {
        if (o.text.isEmpty()) return this;
        if (text.isEmpty()) return o;
        Builder b = new Builder();
        b.append(this);
        b.append(o);
        return b.build();
    }

    PosText trim() {
        int s = 0;
        int e = text.length();
        while (s < e && Character.isWhitespace(text.charAt(s))) s++;
        while (e > s && Character.isWhitespace(text.charAt(e - 1))) e--;
        return sub(s, e);
    }

    /** Splits at unescaped ';' (a CMake list); empty elements are dropped. */
    List<PosText> splitList() {
        List<PosText> out = new ArrayList<>();
        int start = 0;
        int depth = 0; // ';' inside a generator expression $<...> does not split the list element at this level
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (literal[i]) continue;
            if (c == '$' && i + 1 < text.length() && text.charAt(i + 1) == '<') depth++;
            else if (c == '>' && depth > 0) depth--;
            else if (c == ';' && depth == 0) {
                if (i > start) out.add(sub(start, i));
                start = i + 1;
            }
        }
        if (start < text.length()) out.add(sub(start));
        return out;
    }

    @Override
    public String toString() {
        return text;
    }

    static final class Builder {
        private final StringBuilder sb = new StringBuilder();
        private int[] file = new int[16];
        private int[] line = new int[16];
        private int[] col = new int[16];
        private boolean[] literal = new boolean[16];

        /** Room for {@code capacity} characters' positions. */
        private void ensure(int capacity) {
            if (capacity <= line.length) return;
            int size = Math.max(capacity, line.length * 2);
            file = Arrays.copyOf(file, size);
            line = Arrays.copyOf(line, size);
            col = Arrays.copyOf(col, size);
            literal = Arrays.copyOf(literal, size);
        }

        Builder append(char c, int f, int l, int co, boolean lit) {
            int n = sb.length();
            ensure(n + 1);
            sb.append(c);
            file[n] = f;
            line[n] = l;
            col[n] = co;
            literal[n] = lit;
            return this;
        }

        /** Appends character {@code i} of {@code t} with its position. */
        Builder append(PosText t, int i) {
            return append(t.text.charAt(i), t.file[i], t.line[i], t.col[i], t.literal[i]);
        }

        /** Appends all of {@code t} with its positions (bulk copies: expansions copy long values level by level). */
        Builder append(PosText t) {
            int m = t.length();
            if (m == 0) return this;
            int n = sb.length();
            ensure(n + m);
            System.arraycopy(t.file, 0, file, n, m);
            System.arraycopy(t.line, 0, line, n, m);
            System.arraycopy(t.col, 0, col, n, m);
            System.arraycopy(t.literal, 0, literal, n, m);
            sb.append(t.text);
            return this;
        }

        /** A separator character that belongs to no source position (e.g. the ';' joining list elements). */
        Builder appendSynthetic(char c) {
            int n = sb.length();
            return append(c, n > 0 ? file[n - 1] : -1, n > 0 ? line[n - 1] : 0, n > 0 ? col[n - 1] : 0, false);
        }

        int length() {
            return sb.length();
        }

        PosText build() {
            int n = sb.length();
            return new PosText(
                    sb.toString(),
                    Arrays.copyOf(file, n),
                    Arrays.copyOf(line, n),
                    Arrays.copyOf(col, n),
                    Arrays.copyOf(literal, n));
        }
    }
}
