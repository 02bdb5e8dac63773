package dev.numlint.scan;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * In-source suppressions: {@code // numlint: ignore NL003 -- reason} (several ids separated by commas, or
 * {@code all} for every rule), written in a real comment of the file's language: {@code //} and {@code /* *}{@code /}
 * in C, C++, CUDA, PTX and Java, {@code #} in CMake files and Makefiles. Text inside a string literal is never a
 * suppression. A comment at the end of a code line applies to that line only; a comment that stands alone on its
 * line applies to the next line, also across further comment-only lines in between (so suppressions stack with
 * other comments). The justification after {@code --} is required: a comment without one does not suppress anything
 * and is reported, with a hint in the file's own comment syntax.
 */
final class SuppressionComments {
    /** The comment syntax of a file type. */
    enum Syntax {
        /** C, C++, CUDA, PTX, Java: line and block comments, string and character literals. */
        C_LIKE("//"),
        /** CMake: '#' comments, "..." strings. */
        CMAKE("#"),
        /** Makefiles (and other '#'-comment files without string quoting): '#' comments, '\#' escapes. */
        MAKE("#");

        final String lineComment;

        Syntax(String lineComment) {
            this.lineComment = lineComment;
        }
    }

    /** The syntax of {@code file} (a path or a file name), from its name. */
    static Syntax syntax(String file) {
        String n = file.replace('\\', '/');
        n = n.substring(n.lastIndexOf('/') + 1);
        String lower = n.toLowerCase(Locale.ROOT);
        if (lower.equals("cmakelists.txt") || lower.endsWith(".cmake")) return Syntax.CMAKE;
        if (lower.equals("makefile")
                || lower.equals("gnumakefile")
                || lower.endsWith(".mk")
                || lower.endsWith(".mak")
                || lower.startsWith("makefile.")) {
            return Syntax.MAKE;
        }
        return Syntax.C_LIKE;
    }

    private static final Pattern MARKER = Pattern.compile("numlint\\s*:\\s*ignore\\b(.*)", Pattern.DOTALL);
    private static final Pattern ID = Pattern.compile("NL\\d{3}");
    /** Leading rule ids ("NL001, NL003") or "all", then whatever follows. */
    private static final Pattern IDS = Pattern.compile(
            "\\s*((?:NL\\d{3}|all)(?:\\s*,\\s*(?:NL\\d{3}|all)|\\s+(?:NL\\d{3}|all))*)\\s*,?\\s*(.*)", Pattern.DOTALL);

    /** Every rule: a suppression that names {@code all}. */
    static final String ALL = "*";

    /**
     * One suppression comment. {@code ids} holds the rule ids ({@link #ALL} for {@code all}), empty when none was
     * found; {@code justification} is "" when missing; {@code standalone}: nothing but comments on the line;
     * {@code stray}: text between the ids and the justification ("because clamped" in
     * {@code ignore NL001 because clamped}), "" when well-formed.
     */
    record Comment(int line, Set<String> ids, String justification, boolean standalone, String stray) {
        boolean justified() {
            return !justification.isEmpty() && stray.isEmpty();
        }

        boolean covers(String ruleId) {
            return ids.contains(ruleId) || ids.contains(ALL);
        }
    }

    /** The suppression comments of one file and which of its lines hold nothing but comments. */
    static final class FileComments {
        final List<Comment> comments;
        final Syntax syntax;
        private final BitSet commentOnly;

        FileComments(List<Comment> comments, BitSet commentOnly, Syntax syntax) {
            this.comments = comments;
            this.commentOnly = commentOnly;
            this.syntax = syntax;
        }

        /** Whether 1-based {@code line} holds a comment and no code. */
        boolean commentOnly(int line) {
            return commentOnly.get(line);
        }

        /**
         * The justified comment that suppresses {@code ruleId} on 1-based {@code line}, or null: one at the end of
         * that line, else a standalone one above it with only comment lines in between.
         */
        Comment match(int line, String ruleId) {
            Comment above = null;
            for (Comment c : comments) {
                if (!c.justified() || !c.covers(ruleId)) continue;
                if (c.line() == line) return c;
                if (c.line() < line && c.standalone() && onlyCommentsBetween(c.line(), line)) above = c;
            }
            return above;
        }

        private boolean onlyCommentsBetween(int from, int to) {
            for (int l = from + 1; l < to; l++) {
                if (!commentOnly.get(l)) return false;
            }
            return true;
        }
    }

    private SuppressionComments() {}

    /** Parses the suppression comments of {@code file} (its name decides the comment syntax). */
    static FileComments parse(String file, List<String> lines) {
        return parse(lines, syntax(file));
    }

    static FileComments parse(List<String> lines, Syntax syntax) {
        List<Comment> out = new ArrayList<>();
        BitSet commentOnly = new BitSet();
        boolean inBlock = false;
        boolean inString = false; // a string continued onto the next line (backslash-newline, Java text blocks)
        boolean textBlock = false;
        for (int li = 0; li < lines.size(); li++) {
            String l = lines.get(li);
            StringBuilder comment = new StringBuilder();
            boolean code = false;
            boolean hasComment = false;
            int n = l.length();
            int i = 0;
            while (i < n) {
                char c = l.charAt(i);
                if (inBlock) {
                    hasComment = true;
                    int e = l.indexOf("*/", i);
                    if (e < 0) {
                        comment.append(l, i, n).append(' ');
                        i = n;
                    } else {
                        comment.append(l, i, e).append(' ');
                        inBlock = false;
                        i = e + 2;
                    }
                    continue;
                }
                if (inString) {
                    code = true;
                    int e = endOfString(l, i, textBlock ? "\"\"\"" : "\"");
                    if (e < 0) {
                        i = n;
                    } else {
                        inString = false;
                        textBlock = false;
                        i = e;
                    }
                    continue;
                }
                if (Character.isWhitespace(c)) {
                    i++;
                    continue;
                }
                if (syntax == Syntax.C_LIKE) {
                    if (c == '/' && i + 1 < n && l.charAt(i + 1) == '/') {
                        hasComment = true;
                        comment.append(l, i + 2, n).append(' ');
                        i = n;
                        continue;
                    }
                    if (c == '/' && i + 1 < n && l.charAt(i + 1) == '*') {
                        inBlock = true;
                        hasComment = true;
                        i += 2;
                        continue;
                    }
                    if (c == '"' || c == '\'') {
                        code = true;
                        boolean tb = c == '"' && l.startsWith("\"\"\"", i);
                        String close = tb ? "\"\"\"" : String.valueOf(c);
                        int e = endOfString(l, i + close.length(), close);
                        if (e < 0) {
                            // an unterminated quote: a continued string, a Java text block, or a stray apostrophe
                            if (tb || c == '"' && l.endsWith("\\")) {
                                inString = true;
                                textBlock = tb;
                            }
                            i = n;
                        } else {
                            i = e;
                        }
                        continue;
                    }
                } else {
                    if (c == '#') {
                        hasComment = true;
                        comment.append(l, i + 1, n).append(' ');
                        i = n;
                        continue;
                    }
                    if (c == '\\' && i + 1 < n) {
                        code = true;
                        i += 2;
                        continue;
                    }
                    if (syntax == Syntax.CMAKE && c == '"') {
                        code = true;
                        int e = endOfString(l, i + 1, "\"");
                        if (e < 0) {
                            inString = true;
                            i = n;
                        } else {
                            i = e;
                        }
                        continue;
                    }
                }
                code = true;
                i++;
            }
            if (hasComment && !code) commentOnly.set(li + 1);
            if (comment.length() > 0 && comment.indexOf("numlint") >= 0) {
                Comment parsed = comment(li + 1, comment.toString(), !code);
                if (parsed != null) out.add(parsed);
            }
        }
        return new FileComments(out, commentOnly, syntax);
    }

    /** Index after the closing {@code close} of a literal whose content starts at {@code from}, or -1. */
    private static int endOfString(String l, int from, String close) {
        for (int i = from; i < l.length(); i++) {
            char c = l.charAt(i);
            if (c == '\\') {
                i++;
                continue;
            }
            if (l.startsWith(close, i)) return i + close.length();
        }
        return -1;
    }

    private static Comment comment(int line, String text, boolean standalone) {
        Matcher m = MARKER.matcher(text);
        if (!m.find()) return null;
        String rest = m.group(1).strip();
        String idPart = rest;
        String why = "";
        int dash = rest.indexOf("--");
        if (dash >= 0) {
            idPart = rest.substring(0, dash);
            why = rest.substring(dash + 2).strip();
        }
        Set<String> ids = new LinkedHashSet<>();
        String stray = idPart.strip();
        Matcher im = IDS.matcher(idPart);
        if (im.matches()) {
            Matcher id = Pattern.compile("NL\\d{3}|all").matcher(im.group(1));
            while (id.find()) ids.add(id.group().equals("all") ? ALL : id.group());
            stray = im.group(2).strip();
        } else {
            // ids written after other words ("numlint: ignore because NL001") are still named in the hint
            Matcher id = ID.matcher(idPart);
            while (id.find()) ids.add(id.group());
            if (!ids.isEmpty()) stray = idPart.strip();
        }
        return new Comment(line, ids, why, standalone, stray);
    }

    /** What is wrong with a suppression comment and how to write it, or null when it is well-formed. */
    static String problem(Comment c, Syntax syntax) {
        String open = syntax.lineComment;
        if (c.ids().isEmpty()) {
            return "suppression comment names no rule id; write '" + open + " numlint: ignore NLxxx -- reason' with the"
                    + " id of the finding (or 'all'), after the code on the same line or alone on the line above";
        }
        String ids = String.join(", ", c.ids()).replace(ALL, "all");
        if (!c.stray().isEmpty()) {
            String reason = c.justification().isEmpty() ? c.stray() : c.stray() + " " + c.justification();
            return "suppression of " + ids + " is malformed and does not suppress: the justification must follow '--';"
                    + " write '" + open + " numlint: ignore " + ids + " -- " + reason + "'";
        }
        if (c.justification().isEmpty()) {
            return "suppression of " + ids + " has no justification and does not suppress; write '" + open
                    + " numlint: ignore " + ids + " -- reason'";
        }
        return null;
    }
}
