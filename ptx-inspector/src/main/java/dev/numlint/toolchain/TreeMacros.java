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
 * string after a {@code #}: an over-approximation) in any regular file of the tree outside its version-control
 * directories (which the include closures never let a compiler read: a {@code .git} pack is no reason to refuse
 * every computed include, session 70), read after joining
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

    /**
     * {@code values}: per name, the header names its definitions give ({@code #define CFITSIO_H "fitsio.h"}), or
     * {@link #OTHER} among them when a definition gives anything else (a value that is no header name, a function-like
     * macro, a definition read where a lexer would be needed).
     */
    private record Names(Set<String> names, Map<String, Set<String>> values) {}

    /** The value recorded for a definition that gives no plain header name. */
    static final String OTHER = "\u0000";

    /** Whether some file of the tree at {@code root} may define {@code name} (true when that is not known). */
    public static boolean mayDefine(Path root, String name) {
        if (root == null || name == null) return true;
        Names n = BY_ROOT.computeIfAbsent(root, TreeMacros::read);
        return n.names() == null || n.names().contains(name);
    }

    /**
     * The header names that every definition of {@code name} in the tree at {@code root} gives, when each is a plain
     * relative header name ({@code "fitsio.h"}, {@code <cfitsio/fitsio.h>}: no absolute path, no {@code ..}, nothing
     * after it on the line but a comment): a computed {@code #include name} then reads one of them, which the include
     * closure checks as a written include (session 70 round F: an astronomy tool's autotools {@code config.h} defines
     * {@code CFITSIO_H "fitsio.h"}, and Clang refused every file that includes it). Null when a definition gives
     * anything else, the tree was too large to read, or no file defines it.
     */
    public static Set<String> headerValues(Path root, String name) {
        if (root == null || name == null) return null;
        Names n = BY_ROOT.computeIfAbsent(root, TreeMacros::read);
        if (n.names() == null || !n.names().contains(name)) return null;
        Set<String> v = n.values().get(name);
        return v == null || v.isEmpty() || v.contains(OTHER) ? null : v;
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
        Map<String, Set<String>> values = new java.util.HashMap<>();
        long[] budget = {MAX_BYTES, MAX_FILES};
        boolean[] over = {false};
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes a) {
                    // a version-control directory (a .git pack of 100 MB) is never read by a compiler numlint runs:
                    // the include closures refuse a header in one (TrustBoundary.refusedName)
                    Path name = dir.getFileName();
                    return name != null
                                    && !dir.equals(root)
                                    && dev.numlint.spi.TrustBoundary.VCS_DIRS.contains(name.toString())
                            ? FileVisitResult.SKIP_SUBTREE
                            : FileVisitResult.CONTINUE;
                }

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
                        names(Files.readAllBytes(file), names, values);
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
        return over[0] ? new Names(null, Map.of()) : new Names(Set.copyOf(names), values);
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
        names(text, out, null);
    }

    /** As {@link #names(byte[], Set)}; {@code values} (when not null) gains each definition's {@link #headerName}. */
    static void names(byte[] text, Set<String> out, Map<String, Set<String>> values) {
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
            while (m.find()) {
                if (!mayBeDirective(code, m.start())) continue;
                out.add(m.group(1));
                if (values != null && directiveLine(code, m.start()))
                    values.computeIfAbsent(m.group(1), k -> new HashSet<>()).add(headerName(code, m.end()));
            }
        }
    }

    /**
     * Whether the word {@code define} at {@code at} may be a directive's name as the preprocessor reads the line: only
     * white space and one {@code #} ({@code %:}, {@code ??=}) before it on its line, or a comment's mark there (a
     * comment is white space, and one opened on an earlier line may end before the {@code #}). A shell script's
     * {@code printf "%s\n" "@%:@define CFITSIO_H \"fitsio.h\""} (autoconf's output) is no directive: its value
     * is not asked to be a header name ({@link #headerValues}), though its name still counts as defined.
     */
    static boolean directiveLine(String code, int at) {
        int start = Math.max(code.lastIndexOf('\n', at - 1), code.lastIndexOf('\r', at - 1)) + 1;
        String prefix = code.substring(start, at);
        if (prefix.contains("/*") || prefix.contains("*/")) return true;
        return prefix.strip().matches("#|%:|\\?\\?=");
    }

    /**
     * The header name a definition's value is, read from {@code at} (just after the macro's name): {@code "name"} or
     * {@code <name>}, then nothing on the line but a comment, a relative path with no {@code ..} segment and no
     * backslash; else {@link #OTHER}. A match in a comment or a string adds a candidate at most: the real definitions
     * are matched too, and each must be such a name.
     */
    static String headerName(String code, int at) {
        int end = code.indexOf('\n', at);
        String rest = (end < 0 ? code.substring(at) : code.substring(at, end)).replace("\r", "");
        if (rest.isEmpty() || rest.charAt(0) != ' ' && rest.charAt(0) != '\t') return OTHER; // NAME(x): a function
        rest = rest.strip();
        if (rest.length() < 3) return OTHER;
        char open = rest.charAt(0), close = open == '"' ? '"' : open == '<' ? '>' : 0;
        int c = close == 0 ? -1 : rest.indexOf(close, 1);
        if (c < 0) return OTHER;
        // a comment may follow (the text is read with its comments where a quote kept them: withoutComments)
        String tail = rest.substring(c + 1).strip();
        if (!tail.isEmpty() && !tail.startsWith("//") && !tail.startsWith("/*")) return OTHER;
        String name = rest.substring(1, c);
        if (name.isEmpty() || name.startsWith("/") || name.contains("\\") || name.contains("\"") || name.contains("<"))
            return OTHER;
        for (String seg : name.split("/", -1)) if (seg.equals("..") || seg.isEmpty()) return OTHER;
        return name;
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
