package dev.numlint.toolchain;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The include graph of one CUDA/C++ file, resolved by numlint itself before anything is compiled, so that a file
 * which would make the compiler read something outside the scanned tree is never compiled.
 *
 * <p>Usage: {@code IncludeGraph.resolve(file, quoteDirs, angleDirs, policy)} (or, to share the parsed headers
 * between many files of one scan, {@code new IncludeGraph(policy).graph(file, quoteDirs, angleDirs)}). The
 * {@link Result} lists
 * <ul>
 *   <li>{@code reached}: the files inside the scanned roots the compiler would read (the file first, then headers
 *   in the order they are first reached; real paths);</li>
 *   <li>{@code external}: toolkit and system headers used (real paths; they are trusted and followed only as far as
 *   needed: when an {@code -I} directory inside the roots could shadow a header they include);</li>
 *   <li>{@code problems}: includes that must stop the compilation (file, line, the include as written, why): an
 *   absolute path, a {@code ../} escape or a symlink leading outside the roots and the trusted include trees; a
 *   device, FIFO, socket or other special file; a computed include ({@code #include MACRO}) that cannot be
 *   checked; limits exceeded (depth, files, bytes);</li>
 *   <li>{@code missing}: includes found nowhere (the compiler will report them; a notice can name them).</li>
 * </ul>
 *
 * <p>Search order, as gcc/nvcc: {@code "quoted"}: the includer's directory, {@code quoteDirs}, then
 * {@code angleDirs}; {@code <angle>}: {@code angleDirs} (the caller passes {@code -I} and {@code -isystem}
 * directories followed by the toolkit and system include directories). The first existing candidate is what the
 * compiler opens and is what is checked ({@code #include_next}: every candidate). Directives are recognized
 * conservatively: after joining backslash-continued lines, a {@code #include}, {@code %:include},
 * {@code #include_next}, {@code #import}, {@code #embed}, {@code #pragma GCC dependency} or
 * {@code __has_include(...)} anywhere on a line counts, also inside comments, strings and {@code #if 0} blocks, so
 * a suspicious include anywhere blocks compilation. Reading is bounded by {@link IncludePolicy}.
 *
 * <p>Thread-safe; an instance caches the directives of every file it has read (files must not change meanwhile).
 */
public final class IncludeGraph {
    /** An include that stops compilation, or one that was not found. {@code file} is the includer (real path). */
    public record Problem(Path file, int line, String include, String reason) {}

    /** See the class comment. */
    public record Result(List<Path> reached, List<Path> external, List<Problem> problems, List<Problem> missing) {
        /** True when nothing stops the compilation. */
        public boolean ok() {
            return problems.isEmpty();
        }
    }

    enum Kind {
        QUOTE,
        ANGLE,
        NEXT,
        COMPUTED
    }

    record Directive(int line, Kind kind, String target, String text) {}

    private record Parsed(List<Directive> directives, long bytes) {}

    /** Most toolkit/system headers followed for one graph (they are trusted; the bound keeps the walk cheap). */
    static final int MAX_SYSTEM_FILES = 20_000;
    /** Longest stretch of blanks and comments skipped between '#' and the directive name. */
    private static final int MAX_SKIP = 512;

    private final IncludePolicy policy;
    private final Map<Path, Parsed> parsed = new ConcurrentHashMap<>();

    public IncludeGraph(IncludePolicy policy) {
        this.policy = policy;
    }

    public IncludePolicy policy() {
        return policy;
    }

    /** Resolves the include graph of {@code file} with a fresh cache (see the class comment). */
    public static Result resolve(Path file, List<Path> quoteDirs, List<Path> angleDirs, IncludePolicy policy) {
        return new IncludeGraph(policy).graph(file, quoteDirs, angleDirs);
    }

    /** Resolves the include graph of {@code file}, reusing the headers this instance has read before. */
    public Result graph(Path file, List<Path> quoteDirs, List<Path> angleDirs) {
        return graph(file, quoteDirs, angleDirs, m -> false);
    }

    /**
     * As {@link #graph(Path, List, List)}, where a computed include {@code #include MACRO} whose MACRO
     * {@code harmless} accepts is no problem: nothing can give MACRO a file name (the compile command does not define
     * it, no file of the tree may: {@link TreeMacros}), so the compiler reads no file through it (the include is in a
     * branch the build does not enable, or an error).
     */
    public Result graph(
            Path file, List<Path> quoteDirs, List<Path> angleDirs, java.util.function.Predicate<String> harmless) {
        Walk w = new Walk(quoteDirs, angleDirs, harmless);
        w.run(file);
        return new Result(
                List.copyOf(w.reached), List.copyOf(w.external), List.copyOf(w.problems), List.copyOf(w.missing));
    }

    private final class Walk {
        final List<Path> quoteDirs;
        final List<Path> angleDirs;
        final boolean followSystem;
        final Set<Path> reached = new LinkedHashSet<>();
        final Set<Path> external = new LinkedHashSet<>();
        final List<Problem> problems = new ArrayList<>();
        final List<Problem> missing = new ArrayList<>();
        final Set<String> visited = new HashSet<>();
        long bytes;
        int systemFiles;

        final java.util.function.Predicate<String> harmless;

        Walk(List<Path> quoteDirs, List<Path> angleDirs, java.util.function.Predicate<String> harmless) {
            this.harmless = harmless;
            this.quoteDirs = absolute(quoteDirs);
            this.angleDirs = absolute(angleDirs);
            boolean f = false;
            for (Path d : this.quoteDirs) f |= inRootsDir(d);
            for (Path d : this.angleDirs) f |= inRootsDir(d);
            this.followSystem = f;
        }

        private boolean inRootsDir(Path d) {
            Path r = IncludePolicy.real(d);
            return r != null && policy.inRoots(r);
        }

        /** A file to read: its real path, the real directory its quoted includes are resolved in, its depth. */
        private record Node(Path real, Path dir, int depth, boolean system) {}

        void run(Path file) {
            Path abs = file.toAbsolutePath();
            Path real = IncludePolicy.real(abs);
            if (real == null) {
                problems.add(new Problem(abs, 0, "(the file itself)", "cannot be resolved"));
                return;
            }
            if (!Files.isRegularFile(real)) {
                problems.add(new Problem(abs, 0, "(the file itself)", "is not a regular file"));
                return;
            }
            if (!policy.inRoots(real)) {
                problems.add(new Problem(abs, 0, "(the file itself)", "lies outside the scanned tree (symlink)"));
                return;
            }
            Path dir = IncludePolicy.real(abs.getParent());
            // breadth-first, so that a file's depth is its shortest include chain: the directives are read in every
            // branch of every #if, so the graph has more edges than one compilation follows, and a depth-first walk
            // reached a header first through a long chain of branches no compilation takes (TNL's units that
            // include Thrust were "nested deeper than 64 levels" where nvcc -E nests 26 deep: session 26's defect
            // 3). The shortest chain is never longer than the compiler's real nesting, and a true chain of headers
            // each including the next is as deep either way.
            Deque<Node> queue = new ArrayDeque<>();
            queue.addLast(new Node(real, dir == null ? real.getParent() : dir, 0, false));
            reached.add(real);
            visited.add(key(real, dir));
            while (!queue.isEmpty() && problems.size() < 50) {
                Node n = queue.pollFirst();
                Parsed p = read(n);
                if (p == null) continue;
                for (Directive d : p.directives()) {
                    Node child = visit(n, d);
                    if (child != null) queue.addLast(child);
                }
            }
        }

        private Parsed read(Node n) {
            Parsed p = parsed.get(n.real());
            if (p == null) {
                try {
                    long size = Files.size(n.real());
                    if (bytes + size > policy.maxBytes()) {
                        problems.add(new Problem(
                                n.real(),
                                0,
                                "(include graph)",
                                "reading the include graph would " + "take more than " + policy.maxBytes() + " bytes"));
                        return null;
                    }
                    p = parse(n.real(), size);
                } catch (IOException e) {
                    if (!n.system()) {
                        problems.add(new Problem(n.real(), 0, "(the file itself)", "cannot be read"));
                    }
                    return null;
                }
                parsed.put(n.real(), p);
            }
            bytes += p.bytes();
            if (bytes > policy.maxBytes()) {
                problems.add(new Problem(
                        n.real(),
                        0,
                        "(include graph)",
                        "reading the include graph would take " + "more than " + policy.maxBytes() + " bytes"));
                return null;
            }
            return p;
        }

        /** Checks one directive of {@code from}; returns the node to follow, if any. */
        private Node visit(Node from, Directive d) {
            if (d.kind() == Kind.COMPUTED) {
                boolean undefinable = !d.target().isEmpty() && harmless.test(d.target());
                if (!from.system() && !undefinable) {
                    problems.add(new Problem(
                            from.real(),
                            d.line(),
                            d.text(),
                            "computed #include (a macro) cannot be " + "checked before compiling"));
                }
                return null;
            }
            List<Path> candidates;
            try {
                candidates = candidates(from, d);
            } catch (InvalidPathException e) {
                if (!from.system()) problems.add(new Problem(from.real(), d.line(), d.text(), "is not a valid path"));
                return null;
            }
            Node follow = null;
            boolean found = false;
            for (Path c : candidates) {
                if (!IncludePolicy.exists(c)) continue;
                Path real = IncludePolicy.real(c);
                if (real == null) continue;
                if (Files.isDirectory(real)) continue;
                found = true;
                String why = check(c, real, d);
                if (why != null) {
                    problems.add(new Problem(from.real(), d.line(), d.text(), why));
                    return null;
                }
                Path dir = IncludePolicy.real(c.getParent());
                if (dir == null) dir = real.getParent();
                boolean system = !policy.inRoots(real);
                int depth = from.depth() + 1;
                if (!system) {
                    reached.add(real);
                    if (reached.size() > policy.maxFiles()) {
                        problems.add(new Problem(
                                from.real(),
                                d.line(),
                                d.text(),
                                "the include graph reaches more " + "than " + policy.maxFiles() + " files"));
                        return null;
                    }
                } else {
                    external.add(real);
                }
                if (depth > policy.maxDepth()) {
                    problems.add(new Problem(
                            from.real(),
                            d.line(),
                            d.text(),
                            "includes are nested deeper than " + policy.maxDepth() + " levels"));
                    return null;
                }
                boolean followIt = !system || followSystem && systemFiles++ < MAX_SYSTEM_FILES;
                if (followIt && visited.add(key(real, dir)) && follow == null) {
                    follow = new Node(real, dir, depth, system);
                }
                if (d.kind() != Kind.NEXT) break;
            }
            if (!found && !from.system()) {
                missing.add(new Problem(from.real(), d.line(), d.text(), "not found"));
            }
            return follow;
        }

        /** Null when the file may be read, else why not. Never names the target's real path. */
        private String check(Path candidate, Path real, Directive d) {
            if (!Files.isRegularFile(real)) {
                return "names a device, FIFO, socket or other special file";
            }
            String never = dev.numlint.spi.TrustBoundary.refusedName(real);
            if (never != null) return never.replaceFirst("^it ", "");
            if (policy.inRoots(real) || policy.inSystem(real)) return null;
            if (Path.of(d.target()).isAbsolute()) {
                return "absolute path outside the scanned tree and the toolkit/system include directories";
            }
            Path lexical = candidate.toAbsolutePath().normalize();
            if (policy.inRoots(lexical) || policy.inSystem(lexical)) {
                return "a symlink leads outside the scanned tree";
            }
            return "resolves outside the scanned tree and the toolkit/system include directories";
        }

        private List<Path> candidates(Node from, Directive d) {
            Path t = Path.of(d.target());
            if (t.isAbsolute()) return List.of(t);
            List<Path> out = new ArrayList<>();
            if (d.kind() == Kind.QUOTE) {
                out.add(from.dir().resolve(t));
                for (Path q : quoteDirs) out.add(q.resolve(t));
            }
            for (Path a : angleDirs) out.add(a.resolve(t));
            if (d.kind() == Kind.NEXT) {
                out.add(from.dir().resolve(t));
                for (Path q : quoteDirs) out.add(q.resolve(t));
            }
            return out;
        }
    }

    private static String key(Path real, Path dir) {
        return real + "\u0000" + dir;
    }

    private static List<Path> absolute(List<Path> dirs) {
        List<Path> out = new ArrayList<>();
        if (dirs != null) for (Path d : dirs) if (d != null) out.add(d.toAbsolutePath());
        return out;
    }

    private static Parsed parse(Path real, long size) throws IOException {
        byte[] data;
        try (InputStream in = Files.newInputStream(real)) {
            data = in.readNBytes((int) Math.min(size, Integer.MAX_VALUE - 16));
        }
        return new Parsed(directives(new String(data, StandardCharsets.ISO_8859_1)), data.length);
    }

    /** The include-like directives of a file's text (see the class comment for what counts). */
    static List<Directive> directives(String text) {
        List<Directive> out = new ArrayList<>();
        int n = text.length();
        int lineNo = 1;
        int i = 0;
        StringBuilder logical = new StringBuilder();
        while (i < n) {
            int start = lineNo;
            logical.setLength(0);
            // one logical line: physical lines joined at backslash-newline
            while (i < n) {
                char c = text.charAt(i);
                if (c == '\n') {
                    lineNo++;
                    i++;
                    break;
                }
                if (c == '\\') {
                    int j = i + 1;
                    while (j < n && (text.charAt(j) == ' ' || text.charAt(j) == '\t' || text.charAt(j) == '\r')) j++;
                    if (j < n && text.charAt(j) == '\n') {
                        lineNo++;
                        i = j + 1;
                        continue;
                    }
                }
                logical.append(c);
                i++;
            }
            if (logical.indexOf("#") >= 0 || logical.indexOf("%:") >= 0 || logical.indexOf("__has_include") >= 0) {
                scanLine(logical.toString(), start, out);
            }
        }
        return out;
    }

    private static void scanLine(String s, int line, List<Directive> out) {
        int n = s.length();
        int firstNonBlank = 0;
        while (firstNonBlank < n && Character.isWhitespace(s.charAt(firstNonBlank))) firstNonBlank++;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            int after;
            if (c == '#') {
                after = i + 1;
            } else if (c == '%' && i + 1 < n && s.charAt(i + 1) == ':') {
                after = i + 2;
            } else if (c == '_' && s.startsWith("__has_include", i)) {
                int j = i + "__has_include".length();
                if (s.startsWith("_next", j)) j += "_next".length();
                j = skip(s, j);
                if (j < n && s.charAt(j) == '(') {
                    j = skip(s, j + 1);
                    Directive d = operand(s, j, line, false, s.substring(i, Math.min(n, i + 200)));
                    if (d != null && d.kind() != Kind.COMPUTED) out.add(d);
                }
                continue;
            } else {
                continue;
            }
            int j = skip(s, after);
            int w = j;
            while (w < n && (Character.isLetterOrDigit(s.charAt(w)) || s.charAt(w) == '_')) w++;
            String word = s.substring(j, w);
            boolean atStart = i <= firstNonBlank || afterComment(s, i);
            String text = s.substring(i, Math.min(n, i + 200)).strip();
            switch (word) {
                case "include", "import", "embed" -> {
                    Directive d = operand(s, skip(s, w), line, false, text);
                    if (d != null && (d.kind() != Kind.COMPUTED || atStart)) out.add(d);
                }
                case "include_next" -> {
                    Directive d = operand(s, skip(s, w), line, true, text);
                    if (d != null && (d.kind() != Kind.COMPUTED || atStart)) out.add(d);
                }
                case "pragma" -> {
                    int k = skip(s, w);
                    if (s.startsWith("GCC", k)) {
                        k = skip(s, k + 3);
                        if (s.startsWith("dependency", k)) {
                            Directive d = operand(s, skip(s, k + "dependency".length()), line, false, text);
                            if (d != null && d.kind() != Kind.COMPUTED) out.add(d);
                        }
                    }
                }
                default -> {
                    // not an include directive
                }
            }
        }
    }

    /** The include operand at {@code j}: "..." or <...>, else a computed include (null when nothing follows). */
    private static Directive operand(String s, int j, int line, boolean next, String text) {
        int n = s.length();
        if (j >= n) return null;
        char c = s.charAt(j);
        if (c == '"' || c == '<') {
            int end = s.indexOf(c == '"' ? '"' : '>', j + 1);
            if (end < 0) return null;
            String target = s.substring(j + 1, end);
            if (target.isEmpty()) return null;
            Kind k = next ? Kind.NEXT : c == '"' ? Kind.QUOTE : Kind.ANGLE;
            return new Directive(line, k, target, text);
        }
        if (Character.isLetter(c) || c == '_') {
            int e = j;
            while (e < n && (Character.isLetterOrDigit(s.charAt(e)) || s.charAt(e) == '_')) e++;
            // the first token's name: unless it is a macro, the line does not expand to "file" or <file> (an error)
            return new Directive(line, Kind.COMPUTED, s.substring(j, e), text);
        }
        return null;
    }

    /** Whether only blanks separate position {@code i} from the end of a block comment before it. */
    private static boolean afterComment(String s, int i) {
        int j = i - 1;
        while (j >= 0 && (s.charAt(j) == ' ' || s.charAt(j) == '\t')) j--;
        return j >= 1 && s.charAt(j) == '/' && s.charAt(j - 1) == '*';
    }

    /** Skips blanks and block comments (bounded). */
    private static int skip(String s, int j) {
        int n = s.length();
        int limit = Math.min(n, j + MAX_SKIP);
        while (j < limit) {
            char c = s.charAt(j);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\u000b') {
                j++;
            } else if (c == '/' && j + 1 < n && s.charAt(j + 1) == '*') {
                int end = s.indexOf("*/", j + 2);
                if (end < 0 || end > limit) return limit;
                j = end + 2;
            } else {
                break;
            }
        }
        return j;
    }
}
