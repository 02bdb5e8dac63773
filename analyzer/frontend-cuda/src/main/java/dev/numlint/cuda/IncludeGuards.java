package dev.numlint.cuda;

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

    private static final Pattern DIRECTIVE = Pattern.compile("(?m)^[ \\t]*#[ \\t]*(\\w+)(.*)$");
    private static final Pattern IFNDEF = Pattern.compile(
            "[ \\t]*(?:ifndef[ \\t]+(\\w+)|if[ \\t]*![ \\t]*defined[ \\t]*\\(?[ \\t]*(\\w+)[ \\t]*\\)?)[ \\t]*(?://.*|/\\*.*)?");

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

    static String find(Path file, String text) {
        String t = stripComments(text);
        Matcher m = DIRECTIVE.matcher(t);
        String guard = null;
        int depth = 0;
        boolean first = true, defined = false, closedAtEnd = false;
        while (m.find()) {
            String kw = m.group(1);
            String rest = m.group(2);
            if (kw.equals("pragma") && rest.strip().equals("once")) return ONCE + file;
            if (first) {
                first = false;
                Matcher g = IFNDEF.matcher((kw.equals("ifndef") ? "ifndef" : kw) + rest);
                if (!kw.equals("ifndef") && !kw.equals("if") || !g.matches()) return "";
                guard = g.group(1) != null ? g.group(1) : g.group(2);
                depth = 1;
                continue;
            }
            if (!defined) {
                // the guard's #define comes next
                if (!kw.equals("define") || !rest.strip().split("[\\s(]", 2)[0].equals(guard)) return "";
                defined = true;
                continue;
            }
            if (closedAtEnd) return ""; // a directive after the guard's #endif
            switch (kw) {
                case "if", "ifdef", "ifndef" -> depth++;
                case "endif" -> {
                    if (--depth == 0) closedAtEnd = true;
                }
                default -> {
                    if ((kw.equals("else") || kw.equals("elif")) && depth == 1) return "";
                }
            }
        }
        if (!closedAtEnd || guard == null) return "";
        // nothing but white space after the closing #endif
        int end = t.lastIndexOf("endif");
        int eol = t.indexOf('\n', end);
        return eol < 0 || t.substring(eol).isBlank() ? guard : "";
    }

    /** Comments replaced by blanks (line structure kept), so that a directive in a comment is not read. */
    private static String stripComments(String s) {
        StringBuilder b = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '/' && i + 1 < s.length() && s.charAt(i + 1) == '*') {
                int e = s.indexOf("*/", i + 2);
                int stop = e < 0 ? s.length() : e + 2;
                for (int k = i; k < stop; k++) b.append(s.charAt(k) == '\n' ? '\n' : ' ');
                i = stop;
            } else if (c == '/' && i + 1 < s.length() && s.charAt(i + 1) == '/') {
                int e = s.indexOf('\n', i);
                i = e < 0 ? s.length() : e;
            } else if (c == '"' || c == '\'') {
                int k = i + 1;
                while (k < s.length() && s.charAt(k) != c && s.charAt(k) != '\n') k += s.charAt(k) == '\\' ? 2 : 1;
                int stop = Math.min(s.length(), k + 1);
                b.append(s, i, stop);
                i = stop;
            } else {
                b.append(c);
                i++;
            }
        }
        return b.toString();
    }
}
