package dev.numlint.toolchain;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The macro names that some file of the scanned tree may define: every identifier written after the word
 * {@code define} where it may name a directive ({@link #mayBeDirective}; also in a block comment's first line or in a
 * string after a {@code #}: an over-approximation) in any regular file of the tree, read after joining
 * backslash-continued lines (also {@code ??/} ones) and skipping block comments between the word and the name. A
 * computed {@code #include NAME} whose NAME no file of the tree defines and the compile command does not define
 * ({@link #byCommand}; the Clang front end's include closure, {@link IncludeGraph} for nvcc) cannot be given a file
 * name by the tree: it is in a branch the build never enables ({@code #ifdef MFEM_CONFIG_FILE}), or it is an error;
 * the compiler is then allowed to read the unit (issue 26: MFEM's {@code config/config.hpp} made Clang refuse all 211
 * files of its integrators). Where the tree is larger than the bounds below, every name counts as defined (the
 * include is refused, as before); a file too large to hold (a pack of {@code .git}, a data set) is read as a stream
 * and counts as defining every name only if the word appears in it.
 */
public final class TreeMacros {
    private TreeMacros() {}

    /** Most files and bytes read per tree. */
    static final int MAX_FILES = 200_000;

    static final long MAX_BYTES = 1L << 30;

    private static final long MAX_FILE_BYTES = 16L << 20;

    private static final Pattern DEFINE =
            Pattern.compile("define(?:\\s|/\\*.*?\\*/)*([A-Za-z_][A-Za-z0-9_]*)", Pattern.DOTALL);

    /** Null when the tree was too large to read (every name counts as defined). */
    private static final Map<Path, Names> BY_ROOT = new ConcurrentHashMap<>();

    private record Names(Set<String> names) {}

    /** Whether some file of the tree at {@code root} may define {@code name} (true when that is not known). */
    public static boolean mayDefine(Path root, String name) {
        if (root == null || name == null) return true;
        Names n = BY_ROOT.computeIfAbsent(root, TreeMacros::read);
        return n.names() == null || n.names().contains(name);
    }

    /** What the compile command does that may define a macro: {@link #byCommand}. */
    public enum ByCommand {
        /** {@code -D NAME}, {@code -DNAME=...}, {@code -DNAME(...)}. */
        DEFINES,
        /** Forced includes, macros files or modules ({@code -include}, {@code --pre-include}, {@code -imacros}). */
        FORCES
    }

    /** Whether the compile command's {@code args} define {@code macro} or may (forced files), or null for neither. */
    public static ByCommand byCommand(String macro, java.util.List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String v = a.equals("-D") && i + 1 < args.size()
                    ? args.get(i + 1)
                    : a.startsWith("-D") ? a.substring(2) : null;
            if (v != null && (v.equals(macro) || v.startsWith(macro + "=") || v.startsWith(macro + "(")))
                return ByCommand.DEFINES;
            if (a.startsWith("-include")
                    || a.startsWith("--pre-include")
                    || a.startsWith("-imacros")
                    || a.startsWith("-fmodules")) return ByCommand.FORCES;
        }
        return null;
    }

    /**
     * The file name the compile command's {@code args} give a computed {@code #include macro}: the last
     * {@code -Dmacro="name"} (or {@code <name>}), with its quotes or brackets, when the value is that one string and
     * nothing else, no {@code -U macro} follows it and the command forces no files ({@link ByCommand#FORCES}); else
     * null. A GUI host unit compiled once per plugin GUI with {@code -DPLUGIN_SOURCE="gui/meter.c"} and
     * {@code #include PLUGIN_SOURCE} (session 63 round B). The name is then an include like any written one, checked
     * as such before Clang reads it.
     */
    public static String definedName(String macro, java.util.List<String> args) {
        if (macro == null || macro.isEmpty() || macro.startsWith("_")) return null;
        String name = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            boolean separate = (a.equals("-D") || a.equals("-U")) && i + 1 < args.size();
            String v = separate ? args.get(i + 1) : a.startsWith("-D") || a.startsWith("-U") ? a.substring(2) : null;
            if (a.startsWith("-include")
                    || a.startsWith("--pre-include")
                    || a.startsWith("-imacros")
                    || a.startsWith("-fmodules")) return null;
            if (v == null) continue;
            if (separate) i++;
            if (a.startsWith("-U")) {
                if (v.equals(macro)) name = null;
                continue;
            }
            if (v.equals(macro) || v.startsWith(macro + "(")) name = null;
            else if (v.startsWith(macro + "=")) {
                String value = v.substring(macro.length() + 1);
                // a relative name that does not climb: an absolute or climbing one is refused as a written one is
                String inner = value.length() > 2 ? value.substring(1, value.length() - 1) : "";
                boolean plain = !inner.startsWith("/") && !inner.contains("..") && !inner.contains(":");
                name = plain && value.matches("\"[^\"\\\\\\s]+\"|<[^<>\\s]+>") ? value : null;
            }
        }
        return name;
    }

    /**
     * Whether nothing can give {@code macro} a value for a compile with {@code args} in the trees at {@code realRoots}:
     * no reserved name, the command neither defines it nor forces files ({@link #byCommand}), and no file of the
     * trees may define it ({@link #mayDefine}). A computed {@code #include macro} then reads no file. What a trusted
     * system header defines is the compiler's, as for any include it makes.
     */
    public static boolean undefinable(String macro, java.util.List<String> args, java.util.List<Path> realRoots) {
        if (macro == null || macro.isEmpty() || macro.startsWith("_") || realRoots.isEmpty()) return false;
        if (byCommand(macro, args) != null) return false;
        for (Path r : realRoots) if (mayDefine(r, macro)) return false;
        return true;
    }

    /** Forgets the trees read (a test that changes its tree). */
    public static void forget() {
        BY_ROOT.clear();
    }

    private static Names read(Path root) {
        Set<String> names = new HashSet<>();
        long[] budget = {MAX_BYTES, MAX_FILES};
        boolean[] over = {false};
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes a) {
                    if (!a.isRegularFile()) return FileVisitResult.CONTINUE; // links are not followed
                    if (--budget[1] < 0 || (budget[0] -= a.size()) < 0) {
                        over[0] = true;
                        return FileVisitResult.TERMINATE;
                    }
                    try {
                        if (a.size() > MAX_FILE_BYTES) {
                            // a pack of .git, a data set: read as a stream; one that may define something at all
                            // counts as defining everything
                            try (java.io.InputStream in = Files.newInputStream(file)) {
                                if (mentionsDefine(in)) {
                                    over[0] = true;
                                    return FileVisitResult.TERMINATE;
                                }
                            }
                            return FileVisitResult.CONTINUE;
                        }
                        names(Files.readAllBytes(file), names);
                    } catch (IOException | RuntimeException e) {
                        over[0] = true; // unreadable: it might define anything
                        return FileVisitResult.TERMINATE;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    over[0] = true;
                    return FileVisitResult.TERMINATE;
                }
            });
        } catch (IOException | RuntimeException e) {
            over[0] = true;
        }
        return new Names(over[0] ? null : Set.copyOf(names));
    }

    /**
     * Whether the word {@code define} appears in {@code in} once continued lines are joined (a backslash or {@code ??/}
     * before a line end, however many in a row): read as a stream, for files too large to hold.
     */
    public static boolean mentionsDefine(java.io.InputStream in) throws IOException {
        byte[] word = "define".getBytes(StandardCharsets.ISO_8859_1);
        java.io.InputStream b = new java.io.BufferedInputStream(in, 1 << 16);
        byte[] pending = new byte[5]; // a prefix of a continuation: \, \\r, ?, ??, ??/, ??/\r
        int np = 0;
        int matched = 0;
        java.util.ArrayDeque<Integer> replay = new java.util.ArrayDeque<>();
        while (true) {
            int c = replay.isEmpty() ? b.read() : replay.poll();
            if (c < 0) return false;
            pending[np++] = (byte) c;
            int kind = continuation(pending, np);
            if (kind > 0) { // a whole continuation: dropped
                np = 0;
                continue;
            }
            if (kind == 0) continue; // still a prefix of one
            // not a continuation: the first pending byte is text, the rest is read again
            for (int k = np - 1; k >= 1; k--) replay.addFirst(pending[k] & 0xff);
            byte t = pending[0];
            np = 0;
            matched = t == word[matched] ? matched + 1 : (t == word[0] ? 1 : 0);
            if (matched == word.length) return true;
        }
    }

    /** 1: {@code p[0..n)} is a whole line continuation; 0: a proper prefix of one; -1: neither. */
    private static int continuation(byte[] p, int n) {
        for (String c : new String[] {"\\\n", "\\\r\n", "??/\n", "??/\r\n"}) {
            if (n > c.length()) continue;
            boolean prefix = true;
            for (int k = 0; k < n && prefix; k++) prefix = p[k] == c.charAt(k);
            if (prefix) return n == c.length() ? 1 : 0;
        }
        return -1;
    }

    /**
     * Adds the names written after {@code define} in {@code text} (continued lines joined first), outside comments
     * where the text can be read without a C lexer ({@link #withoutComments}): Eigen's documentation page defines
     * {@code EIGEN_MATRIXBASE_PLUGIN} at the start of a line of a block comment (session 61 round E), which made
     * every unit that includes Eigen refused. A {@code ??/} trigraph splices lines only where trigraphs are on: the
     * names of both readings count.
     */
    public static void names(byte[] text, Set<String> out) {
        String raw = new String(text, StandardCharsets.ISO_8859_1);
        if (!raw.contains("def")) return;
        // phase 2 first: a definition can be spelled across continued lines ("#def\<newline>ine")
        String spliced = raw.replace("\\\r\n", "").replace("\\\n", "");
        String trigraphs = raw.replace("??/\r\n", "")
                .replace("??/\n", "")
                .replace("\\\r\n", "")
                .replace("\\\n", "");
        for (String s : new String[] {trigraphs, spliced}) {
            String code = withoutComments(s);
            if (code == null) code = s;
            if (!code.contains("define")) continue;
            Matcher m = DEFINE.matcher(code);
            while (m.find()) if (mayBeDirective(code, m.start())) out.add(m.group(1));
        }
    }

    /**
     * {@code s} (continued lines joined) with its comments blanked, a block comment's line ends too (the preprocessor
     * makes it one space), or null where that needs a
     * C lexer: a quote or an apostrophe outside comments (a literal may hold a comment's opening), or a {@code <} on
     * a directive's line (a header name may hold one: {@code #include <a/*b>}). Null keeps every definition the text
     * spells, comments included.
     */
    static String withoutComments(String s) {
        if (!s.contains("/*") && !s.contains("//")) return s;
        StringBuilder out = new StringBuilder(s.length());
        int state = 0; // 0 code, 1 line comment, 2 block comment
        boolean lineStart = true, directive = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean eol = c == '\n' || c == '\r';
            if (state == 1) {
                if (eol) {
                    state = 0;
                    lineStart = true;
                    directive = false;
                }
                out.append(eol ? c : ' ');
                continue;
            }
            if (state == 2) {
                if (c == '*' && i + 1 < s.length() && s.charAt(i + 1) == '/') {
                    out.append("  ");
                    i++;
                    state = 0;
                } else {
                    out.append(' '); // the whole comment is one space: a # before it may still start a directive
                }
                continue;
            }
            if (eol) {
                lineStart = true;
                directive = false;
                out.append(c);
                continue;
            }
            if (c == '"' || c == '\'') return null;
            if (c == '/' && i + 1 < s.length() && (s.charAt(i + 1) == '/' || s.charAt(i + 1) == '*')) {
                state = s.charAt(i + 1) == '/' ? 1 : 2;
                out.append("  ");
                i++;
                continue;
            }
            if (lineStart && c > ' ' && c < 0x7f) {
                // the line's first token: a directive's # (or %:, ??=)
                directive = c == '#' || s.startsWith("%:", i) || s.startsWith("??=", i);
                lineStart = false;
            }
            if (directive && c == '<') return null;
            out.append(c);
        }
        return out.toString();
    }

    /**
     * Whether the word {@code define} at {@code at} of the joined text {@code s} may be the name of a directive: what
     * precedes it on its line is a {@code #} (or {@code %:}, {@code ??=}) and nothing else that could be a token, or
     * holds the opening or closing of a block comment (which the preprocessor replaces by a space, so a {@code #}
     * before or after it may start the line). Anything else before it (the {@code *} of a documentation comment's
     * line, {@code //}, code) makes the line no directive: {@code * #define cimg_plugin <matlab.h>} in a plugin's
     * documentation defines nothing (session 46: CImg's own plugins' comments made every computed include of
     * {@code CImg.h} count as definable, and Clang refused every unit that includes it). Bytes that are not printable
     * ASCII count as whitespace (Clang reads some Unicode spaces as such).
     */
    public static boolean mayBeDirective(String s, int at) {
        int start = Math.max(s.lastIndexOf('\n', at - 1), s.lastIndexOf('\r', at - 1)) + 1;
        String prefix = s.substring(start, at);
        if (prefix.contains("/*") || prefix.contains("*/")) return true;
        StringBuilder q = new StringBuilder();
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if (c > ' ' && c < 0x7f) q.append(c);
        }
        String t = q.toString();
        return t.equals("#") || t.equals("%:") || t.equals("??=");
    }
}
