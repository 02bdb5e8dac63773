package dev.numlint.cuda.clang;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The system headers a translation unit reads before any code of its own: the includes met, in the order Clang
 * enters them, from the main file's first line through the project headers it includes, up to the first thing
 * that is not an include, an include guard, a macro definition, a diagnostic pragma or a comment ({@link
 * ClangPch#forUnit}: those headers, precompiled once, are the same declarations for every unit that starts so).
 *
 * <p>Read from the texts the scan holds (the main file's and the project headers' the request carries) and, for
 * the tree's other files, from disk as Clang reads them; an include is the project's when the first file it names
 * along Clang's search path (the includer's directory for a quoted include, then {@code -iquote}, {@code -I},
 * {@code -isystem} and {@code -idirafter}) is one of those headers or lies in the scanned tree. Any other found
 * file is a system header, and so is a name found on none of those directories (the compiler's own).
 * The walk stops, keeping what it has, at code, at a conditional include (inside an {@code #if} other than an
 * include guard), at {@code #include_next}, a computed include, an {@code #import}, another pragma, a
 * {@code #line}, an {@code #error} that is not conditional, a project header read a second time without a guard, a
 * file outside the tree found beside its includer or on {@code -iquote}, a project header larger than {@link
 * #MAX_BYTES}, and after {@link #MAX_FILES} files or
 * {@link #MAX_INCLUDES} includes.
 *
 * <p>The macros the project's lines define or undefine before the last system include ({@link Prefix#macros}) are
 * returned: the precompiled prefix is used only where no header it read names one of them ({@link ClangPch}), so
 * that reading those headers first, without the project's definitions, is what the unit reads.
 */
final class ClangSystemPrefix {
    static final int MAX_FILES = 64;
    static final int MAX_INCLUDES = 256;
    /** The largest project header read from disk for the walk. */
    static final long MAX_BYTES = 4L << 20;

    private ClangSystemPrefix() {}

    /**
     * The system includes, spelled as angled includes in the order met ({@code <cmath>}), and the macros defined or
     * undefined by the project's lines before the last of them (the include guards' names among them).
     */
    record Prefix(List<String> includes, Set<String> macros) {
        boolean isEmpty() {
            return includes.isEmpty();
        }

        /**
         * The text of the main file a precompiled prefix is built from: one include per line, all of them twice. The
         * unit that uses it includes each header again; a header that cannot be read twice (a type defined without a
         * guard) fails the build here, and the unit parses plainly.
         */
        String source() {
            StringBuilder b = new StringBuilder();
            for (String i : includes) b.append("#include <").append(i).append(">\n");
            return b.toString() + b;
        }
    }

    /** The search directories of a compile command, by kind ({@link ClangIncludeClosure#includeFlags}). */
    record Dirs(List<Path> quote, List<Path> angle) {
        static Dirs of(List<String> args, Path file) {
            List<Path> quote = new ArrayList<>();
            List<Path> angle = new ArrayList<>();
            List<Path> system = new ArrayList<>();
            List<Path> after = new ArrayList<>();
            for (ClangIncludeClosure.IncludeFlag f : ClangIncludeClosure.includeFlags(args, file)) {
                switch (f.flag()) {
                    case "-iquote" -> quote.add(f.dir());
                    case "-I" -> angle.add(f.dir());
                    case "-isystem" -> system.add(f.dir());
                    default -> after.add(f.dir());
                }
            }
            angle.addAll(system);
            angle.addAll(after);
            return new Dirs(quote, angle);
        }
    }

    /** The prefix of {@code file} (its {@code text}), the project's {@code headers} with the bytes the scan read. */
    static Prefix of(Path file, byte[] text, Map<Path, byte[]> headers, List<String> args, Path root) {
        Walk w = new Walk(headers, Dirs.of(args, file), root);
        w.file(file.toAbsolutePath().normalize(), text, new ArrayList<>());
        return new Prefix(List.copyOf(w.includes), w.includes.isEmpty() ? Set.of() : w.macrosAtLast);
    }

    /** One logical line of a file, comments removed (a directive's name and the rest, or code, or blank). */
    record Line(String directive, String rest, boolean code) {}

    /**
     * The logical lines of {@code text} up to and including the first line of code (backslash-newlines joined,
     * comments read as a space).
     */
    static List<Line> lines(String text) {
        List<Line> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int n = text.length();
        boolean inBlock = false;
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (inBlock) {
                if (c == '*' && i + 1 < n && text.charAt(i + 1) == '/') {
                    inBlock = false;
                    i++;
                    cur.append(' ');
                } else if (c == '\n' && cur.toString().isBlank()) {
                    cur.setLength(0); // a comment alone on its lines
                }
                continue;
            }
            if (c == '\\' && i + 1 < n && (text.charAt(i + 1) == '\n' || text.charAt(i + 1) == '\r')) {
                i++;
                if (text.charAt(i) == '\r' && i + 1 < n && text.charAt(i + 1) == '\n') i++;
                continue;
            }
            if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                inBlock = true;
                i++;
                continue;
            }
            if (c == '/' && i + 1 < n && text.charAt(i + 1) == '/') {
                while (i + 1 < n && text.charAt(i + 1) != '\n') {
                    // a line comment continues over a backslash-newline too
                    if (text.charAt(i + 1) == '\\' && i + 2 < n && text.charAt(i + 2) == '\n') i++;
                    i++;
                }
                continue;
            }
            if (c == '\n') {
                Line l = line(cur.toString());
                cur.setLength(0);
                if (l == null) continue;
                out.add(l);
                if (l.code()) return out;
                continue;
            }
            cur.append(c);
        }
        if (inBlock) {
            out.add(new Line(null, null, true)); // an unterminated comment: nothing after it is known
            return out;
        }
        Line l = line(cur.toString());
        if (l != null) out.add(l);
        return out;
    }

    private static Line line(String s) {
        String t = s.strip();
        if (t.isEmpty()) return null;
        if (t.startsWith("#") || t.startsWith("%:")) {
            String r = t.substring(t.startsWith("#") ? 1 : 2).stripLeading();
            int w = 0;
            while (w < r.length() && (Character.isLetterOrDigit(r.charAt(w)) || r.charAt(w) == '_')) w++;
            if (w == 0) return r.isEmpty() ? null : new Line("?", r, false); // the null directive '#' alone
            return new Line(r.substring(0, w), r.substring(w).strip(), false);
        }
        return new Line(null, null, true);
    }

    /** The first identifier of {@code s}, or null. */
    static String identifier(String s) {
        int i = 0;
        while (i < s.length()
                && (s.charAt(i) == ' ' || s.charAt(i) == '\t' || s.charAt(i) == '(' || s.charAt(i) == '!')) i++;
        if (s.startsWith("defined", i)) {
            i += "defined".length();
            while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t' || s.charAt(i) == '(')) i++;
        }
        int j = i;
        while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_')) j++;
        return j > i && !Character.isDigit(s.charAt(i)) ? s.substring(i, j) : null;
    }

    private static final Set<String> DIAGNOSTIC_PRAGMAS = Set.of("once", "warning", "message", "region", "endregion");

    /** The walk over the files in the order the preprocessor enters them. */
    private static final class Walk {
        final Map<Path, byte[]> headers;
        final Dirs dirs;
        final List<String> includes = new ArrayList<>();
        final Set<String> macros = new TreeSet<>();
        Set<String> macrosAtLast = Set.of();
        final Set<Path> entered = new HashSet<>();
        final Set<Path> guarded = new HashSet<>();
        int files;
        boolean stopped;

        final Path root;

        Walk(Map<Path, byte[]> headers, Dirs dirs, Path root) {
            this.root = root;
            this.headers = new java.util.HashMap<>();
            headers.forEach((p, b) -> this.headers.put(p.toAbsolutePath().normalize(), b));
            this.dirs = dirs;
        }

        void file(Path f, byte[] text, List<Path> stack) {
            if (stopped) return;
            if (++files > MAX_FILES) {
                stopped = true;
                return;
            }
            entered.add(f);
            stack.add(f.getParent());
            List<Line> ls = lines(new String(text, StandardCharsets.ISO_8859_1));
            int depth = 0;
            String guard = null;
            boolean first = true;
            for (int k = 0; k < ls.size() && !stopped; k++) {
                Line l = ls.get(k);
                if (l.code()) {
                    stopped = true;
                    break;
                }
                String d = l.directive();
                boolean wasFirst = first;
                first = false;
                switch (d) {
                    case "include" -> {
                        if (depth > 0) {
                            stopped = true;
                            break;
                        }
                        include(l.rest(), stack);
                    }
                    case "ifndef", "if" -> {
                        String id = identifier(l.rest());
                        boolean guardLike = id != null
                                && (d.equals("ifndef")
                                        || l.rest().replace(" ", "").matches("!defined\\(?\\w+\\)?"));
                        if (wasFirst && guardLike && k + 1 < ls.size()) {
                            Line next = ls.get(k + 1);
                            if ("define".equals(next.directive()) && id.equals(identifier(next.rest()))) {
                                guard = id;
                                macros.add(id);
                                guarded.add(f);
                                k++;
                                break;
                            }
                        }
                        depth++;
                    }
                    case "ifdef" -> depth++;
                    case "elif", "else", "elifdef", "elifndef" -> {
                        if (depth == 0) stopped = true; // the guard's #else: not a guard
                    }
                    case "endif" -> {
                        if (depth > 0) depth--;
                        else if (guard != null) guard = null; // the guard's end: nothing may follow but comments
                        else stopped = true;
                    }
                    case "define", "undef" -> {
                        String id = identifier(l.rest());
                        if (id == null) stopped = true;
                        else macros.add(id);
                    }
                    case "pragma" -> {
                        String p = identifier(l.rest());
                        if ("once".equals(p)) guarded.add(f);
                        else if (p == null) stopped = true;
                        else if (!DIAGNOSTIC_PRAGMAS.contains(p) && !diagnostic(l.rest())) stopped = true;
                    }
                    case "error", "warning" -> {
                        if (depth == 0) stopped = true;
                    }
                    default -> stopped = true; // include_next, import, line, ident, a null directive ...
                }
            }
            stack.remove(stack.size() - 1);
        }

        /** {@code #pragma GCC diagnostic ...} or {@code #pragma clang diagnostic ...}. */
        private static boolean diagnostic(String rest) {
            String[] w = rest.strip().split("\\s+");
            return w.length >= 2 && (w[0].equals("GCC") || w[0].equals("clang")) && w[1].equals("diagnostic");
        }

        void include(String operand, List<Path> stack) {
            if (operand.isEmpty() || includes.size() >= MAX_INCLUDES) {
                stopped = true;
                return;
            }
            char open = operand.charAt(0);
            int end = open == '"' ? operand.indexOf('"', 1) : open == '<' ? operand.indexOf('>', 1) : -1;
            if (end <= 1 || !operand.substring(end + 1).isBlank()) {
                stopped = true; // a computed include, or text after the operand
                return;
            }
            String name = operand.substring(1, end);
            if (name.startsWith("/") || name.contains("..") || name.contains("\\")) {
                stopped = true;
                return;
            }
            List<Path> search = new ArrayList<>();
            if (open == '"') {
                // the includer's own directory (Clang's, outside MSVC mode), then -iquote
                search.add(stack.get(stack.size() - 1));
                search.addAll(dirs.quote());
            }
            int beside = search.size();
            search.addAll(dirs.angle());
            for (int i = 0; i < search.size(); i++) {
                Path cand = search.get(i).resolve(name).normalize();
                byte[] own = headers.get(cand);
                if (own != null) {
                    if (entered.contains(cand)) {
                        if (!guarded.contains(cand)) stopped = true;
                        return;
                    }
                    file(cand, own, stack);
                    return;
                }
                if (Files.isRegularFile(cand)) {
                    if (root != null && cand.startsWith(root)) {
                        // a file of the tree the request did not carry (another unit's parse reads the project's
                        // headers): read as Clang reads it
                        if (entered.contains(cand)) {
                            if (!guarded.contains(cand)) stopped = true;
                            return;
                        }
                        byte[] read = read(cand, root);
                        if (read == null) stopped = true;
                        else file(cand, read, stack);
                    } else if (i < beside) {
                        stopped = true; // beside the includer or on -iquote, outside the tree: not a system header
                    } else {
                        system(name);
                    }
                    return;
                }
            }
            system(name);
        }

        /** A project file's bytes (at most {@link #MAX_BYTES}), or null (also for a link that leaves the tree). */
        private static byte[] read(Path f, Path root) {
            try {
                if (!f.toRealPath().startsWith(root) || Files.size(f) > MAX_BYTES) return null;
                return Files.readAllBytes(f);
            } catch (java.io.IOException | RuntimeException e) {
                return null;
            }
        }

        void system(String name) {
            includes.add(name);
            macrosAtLast = Set.copyOf(macros);
        }
    }
}
