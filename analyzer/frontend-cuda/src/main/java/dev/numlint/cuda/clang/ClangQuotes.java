package dev.numlint.cuda.clang;

import java.nio.charset.StandardCharsets;

/**
 * The text a message quotes for a node: its source text, or, where that text is not a whole expression because the
 * node comes from a macro's expansion (its extent runs from a macro argument to the invocation's closing
 * parenthesis: {@code atomicAdd)} for {@code reduce(load_prod, sum, atomicAdd)}, session 56), the code of the line
 * the macro is invoked on, when that is whole.
 */
final class ClangQuotes {
    private ClangQuotes() {}

    /** {@code t}, the node's text, or its line's code; {@code source} the main file, {@code offset} the node's. */
    static String quoted(String t, byte[] source, int offset) {
        if (balanced(t) || offset < 0 || offset > source.length) return t;
        int from = offset;
        while (from > 0 && source[from - 1] != '\n') from--;
        int to = offset;
        while (to < source.length && source[to] != '\n') to++;
        String line = new String(source, from, to - from, StandardCharsets.UTF_8).trim();
        if (line.endsWith(";")) line = line.substring(0, line.length() - 1).trim();
        return !line.isEmpty() && balanced(line) ? line : t;
    }

    /**
     * A test as a message quotes it, without the quotes around it: its source text, or, for a comparison written in a
     * macro's body, whose source text is the macro's use and holds no operator ({@code CLAMP(ip[0])}), the comparison
     * as Clang's tree reads it and the use: {@code (ip[0]) < 0.0' in 'CLAMP(ip[0])} (session 65: "limited by the
     * test 'CLAMP(ip[0])'" named no test).
     */
    static String test(ClangUnit unit, ClangNode t) {
        String s = unit.text(t);
        if (t.kind != org.bytedeco.llvm.global.clang.CXCursor_BinaryOperator
                || t.spelling == null
                || t.spelling.isEmpty()
                || s.contains(t.spelling)) return s;
        String tree = ClangMacroSites.render(t);
        return tree == null ? s : tree + "' in '" + s;
    }

    /** Whether the parentheses and brackets of {@code t} pair up. */
    static boolean balanced(String t) {
        int round = 0;
        int square = 0;
        for (int i = 0; i < t.length(); i++) {
            switch (t.charAt(i)) {
                case '(' -> round++;
                case ')' -> round--;
                case '[' -> square++;
                case ']' -> square--;
                default -> {}
            }
            if (round < 0 || square < 0) return false;
        }
        return round == 0 && square == 0;
    }
}
