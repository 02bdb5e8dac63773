package dev.numlint.cuda;

import dev.numlint.cuda.parser.CudaLexer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A header's include guard, as compilers find it for their multiple-include optimisation: {@code #pragma once}, or
 * an {@code #ifndef NAME} / {@code #if !defined(NAME)} whose group, opened by the first directive and followed by
 * {@code #define NAME}, closes at the file's last directive with nothing but comments after it. A header whose guard
 * the includer's macros already define adds nothing and is not read again ({@link ProjectHeaders}): without it, a
 * library's dense graph of headers (a vendored GLM, each header including the same setup headers) was preprocessed
 * afresh at every include under every macro state, and one scan never finished (session 53).
 */
final class IncludeGuards {
    private IncludeGuards() {}

    /** The guard of a {@code #pragma once} header: a macro name no source can write (it holds a path). */
    static final String ONCE = "#once:";

    private static final Map<String, String> GUARDS = new ConcurrentHashMap<>();

    private static final Pattern IFNDEF =
            Pattern.compile("(?:ifndef\\s+(\\w+)|if\\s*!\\s*defined\\s*\\(?\\s*(\\w+)\\s*\\)?)\\s*");

    /**
     * The macro that guards {@code file}, {@link #ONCE} and its path for {@code #pragma once}, or "" (none, or the file
     * cannot be read); once per file version (its size and modification time).
     */
    static String of(Path file) {
        try {
            java.nio.file.attribute.BasicFileAttributes a =
                    java.nio.file.Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class);
            String key = file + "\0" + a.size() + "\0" + a.lastModifiedTime().toMillis();
            return GUARDS.computeIfAbsent(key, k -> {
                try {
                    return find(
                            file, java.nio.file.Files.readString(file, java.nio.charset.StandardCharsets.ISO_8859_1));
                } catch (java.io.IOException | RuntimeException e) {
                    return "";
                }
            });
        } catch (java.io.IOException | RuntimeException e) {
            return "";
        }
    }

    /** The guard of a header's text, read with the front end's lexer (comments, strings and continued lines as it reads them). */
    static String find(Path file, String text) {
        String guard = null;
        int depth = 0;
        boolean defined = false, closed = false;
        for (PToken tk : Preprocessor.lex(text)) {
            if (tk.getType() != CudaLexer.DIRECTIVE) {
                if (guard == null || closed || !defined) return ""; // code before the guard, or after its #endif
                continue;
            }
            String d = Preprocessor.directiveText(tk.getText());
            int k = 0;
            while (k < d.length() && Character.isLetter(d.charAt(k))) k++;
            String kw = d.substring(0, k);
            String rest = d.substring(k).strip();
            if (kw.equals("pragma") && rest.equals("once")) return ONCE + file;
            if (guard == null) {
                Matcher g = IFNDEF.matcher(d);
                if (!g.matches()) return "";
                guard = g.group(1) != null ? g.group(1) : g.group(2);
                depth = 1;
            } else if (!defined) {
                // the guard's #define comes next
                if (!kw.equals("define") || !rest.split("[\\s(]", 2)[0].equals(guard)) return "";
                defined = true;
            } else if (closed) {
                return ""; // a directive after the guard's #endif
            } else if (kw.equals("if") || kw.equals("ifdef") || kw.equals("ifndef")) {
                depth++;
            } else if (kw.equals("endif")) {
                closed = --depth == 0;
            } else if ((kw.equals("else") || kw.equals("elif")) && depth == 1) {
                return "";
            }
        }
        return closed ? guard : "";
    }
}
