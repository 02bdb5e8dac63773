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
 *
 * <p>Two more forms, with the same ids and required justification: a block, {@code numlint: ignore-begin NL001 --
 * reason} up to the next {@code numlint: ignore-end} (ids optional there; with ids it closes only the blocks of those
 * rules), which suppresses the lines in between; and {@code numlint: ignore-file NL001 -- reason} anywhere in the
 * file, which suppresses the rule in the whole file. A block without its end suppresses nothing and is reported.
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
        // a makefile template (Makefile.in, Makefile.am) has make's comments too
        if (dev.numlint.spi.BuildFileNames.isMakefile(n) || lower.startsWith("makefile.")) return Syntax.MAKE;
        // meson.build, configure.ac: '#' comments too
        if (dev.numlint.spi.BuildFileNames.isFlagSource(n)) return Syntax.MAKE;
        return Syntax.C_LIKE;
    }

    private static final Pattern MARKER =
            Pattern.compile("numlint\\s*:\\s*ignore(-begin|-end|-file)?\\b(.*)", Pattern.DOTALL);

    /** The form of a suppression comment. */
    enum Kind {
        /** {@code ignore}: its own line, or the next one. */
        LINE("ignore"),
        /** {@code ignore-begin}: the lines up to the matching {@code ignore-end}. */
        BEGIN("ignore-begin"),
        /** {@code ignore-end}: closes a block. */
        END("ignore-end"),
        /** {@code ignore-file}: the whole file. */
        FILE("ignore-file");

        final String word;

        Kind(String word) {
            this.word = word;
        }
    }

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
    record Comment(
            int line, Set<String> ids, String justification, boolean standalone, String stray, Kind kind, int endLine) {
        Comment(int line, Set<String> ids, String justification, boolean standalone, String stray) {
            this(line, ids, justification, standalone, stray, Kind.LINE, 0);
        }

        boolean justified() {
            return !justification.isEmpty() && stray.isEmpty() && (kind != Kind.BEGIN || endLine > 0);
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
            Comment wider = null;
            for (Comment c : comments) {
                if (c.kind() == Kind.END || !c.justified() || !c.covers(ruleId)) continue;
                if (c.kind() == Kind.FILE) {
                    if (wider == null) wider = c;
                    continue;
                }
                if (c.kind() == Kind.BEGIN) {
                    if (c.line() < line && line < c.endLine() && (wider == null || wider.kind() == Kind.FILE)) {
                        wider = c; // the innermost enclosing block, before a file-wide suppression
                    }
                    continue;
                }
                if (c.line() == line) return c;
                if (c.line() < line && c.standalone() && onlyCommentsBetween(c.line(), line)) above = c;
            }
            return above != null ? above : wider;
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
        return new FileComments(closeBlocks(out), commentOnly, syntax);
    }

    /**
     * Pairs each {@code ignore-begin} with the first later {@code ignore-end} that names none of the rules or one of
     * its rules (a begin without an end keeps endLine 0: it suppresses nothing and is reported).
     */
    private static List<Comment> closeBlocks(List<Comment> in) {
        List<Comment> out = new ArrayList<>(in);
        List<Integer> open = new ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
            Comment c = out.get(i);
            if (c.kind() == Kind.BEGIN) {
                open.add(i);
            } else if (c.kind() == Kind.END && c.stray().isEmpty()) {
                for (int k = open.size() - 1; k >= 0; k--) {
                    Comment b = out.get(open.get(k));
                    boolean closes = c.ids().isEmpty()
                            || c.ids().contains(ALL)
                            || b.ids().stream().anyMatch(c.ids()::contains);
                    if (closes) {
                        out.set(
                                open.get(k),
                                new Comment(
                                        b.line(),
                                        b.ids(),
                                        b.justification(),
                                        b.standalone(),
                                        b.stray(),
                                        Kind.BEGIN,
                                        c.line()));
                        open.remove(k);
                        if (!c.ids().isEmpty()) continue; // an end with ids closes every open block of those rules
                        break;
                    }
                }
            }
        }
        return out;
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
        Kind kind =
                switch (m.group(1) == null ? "" : m.group(1)) {
                    case "-begin" -> Kind.BEGIN;
                    case "-end" -> Kind.END;
                    case "-file" -> Kind.FILE;
                    default -> Kind.LINE;
                };
        String rest = m.group(2).strip();
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
        return new Comment(line, ids, why, standalone, stray, kind, 0);
    }

    /** What is wrong with a suppression comment and how to write it, or null when it is well-formed. */
    static String problem(Comment c, Syntax syntax) {
        String open = syntax.lineComment;
        String word = c.kind().word;
        if (c.kind() == Kind.END) {
            return c.stray().isEmpty()
                    ? null
                    : "'numlint: ignore-end' takes rule ids at most; write '" + open + " numlint: ignore-end' or '"
                            + open + " numlint: ignore-end NLxxx'";
        }
        if (c.ids().isEmpty()) {
            return "suppression comment names no rule id; write '" + open + " numlint: " + word + " NLxxx -- reason'"
                    + " with the id of the finding (or 'all')"
                    + (c.kind() == Kind.LINE ? ", after the code on the same line or alone on the line above" : "");
        }
        String ids = String.join(", ", c.ids()).replace(ALL, "all");
        if (!c.stray().isEmpty()) {
            String reason = c.justification().isEmpty() ? c.stray() : c.stray() + " " + c.justification();
            return "suppression of " + ids + " is malformed and does not suppress: the justification must follow '--';"
                    + " write '" + open + " numlint: " + word + " " + ids + " -- " + reason + "'";
        }
        if (c.justification().isEmpty()) {
            return "suppression of " + ids + " has no justification and does not suppress; write '" + open
                    + " numlint: " + word + " " + ids + " -- reason'";
        }
        if (c.kind() == Kind.BEGIN && c.endLine() == 0) {
            return "'numlint: ignore-begin " + ids + "' has no matching '" + open + " numlint: ignore-end' and does not"
                    + " suppress";
        }
        return null;
    }
}
