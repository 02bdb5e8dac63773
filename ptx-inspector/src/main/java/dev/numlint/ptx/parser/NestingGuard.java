package dev.numlint.ptx.parser;

import dev.numlint.ptx.model.PtxModule;
import java.util.List;
import java.util.Map;

/**
 * The {@link PtxReader}'s guard before parsing: one linear scan of the text (strings and comments skipped) that
 * refuses PTX nesting brackets deeper than the parser's recursion can take.
 */
final class NestingGuard {
    private NestingGuard() {}

    /** The deepest nesting of braces, parentheses and brackets read ({@link PtxReader#MAX_NESTING}). */
    static final int MAX_NESTING = 256;

    /** A failed result when the text nests brackets deeper than {@link #MAX_NESTING}, else null (linear scan). */
    static PtxReader.Result tooDeep(String text) {
        int depth = 0;
        int line = 1;
        boolean inString = false;
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                line++;
                inString = false;
            } else if (inString) {
                if (c == '\\') i++;
                else if (c == '"') inString = false;
            } else if (c == '"') {
                inString = true;
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '/') {
                while (i + 1 < n && text.charAt(i + 1) != '\n') i++;
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int end = text.indexOf("*/", i + 2);
                int stop = end < 0 ? n : end + 2;
                for (int j = i; j < stop; j++) if (text.charAt(j) == '\n') line++;
                i = stop - 1;
            } else if (c == '{' || c == '(' || c == '[') {
                if (++depth > MAX_NESTING) {
                    PtxModule m = new PtxModule(null, null, List.of(), 64, Map.of(), List.of(), List.of());
                    return new PtxReader.Result(
                            m,
                            List.of(new PtxReader.Problem(
                                    line,
                                    String.valueOf(c),
                                    "brackets nested deeper than " + MAX_NESTING + " levels; the file is not read",
                                    null)),
                            List.of(),
                            0);
                }
            } else if (c == '}' || c == ')' || c == ']') {
                if (depth > 0) depth--;
            }
        }
        return null;
    }
}
