package dev.numlint.cuda.clang;

import dev.numlint.toolchain.TreeMacros;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The trust boundary over every project header a translation unit reaches, not only its own includes
 * ({@link ClangFrontEnd#refusal(Path, Path, byte[])} reads those): Clang follows each include of each header it
 * reads, so a header of the tree that includes {@code /etc/passwd}, climbs out of the tree, or names a FIFO (whose
 * opening blocks until a writer comes) would make Clang read outside the tree or stall the file for its whole
 * budget. The headers are found as Clang finds them, in the includer's directory and then in the compile command's
 * include directories; a header found in an include directory outside the tree (a system or package directory the
 * include policy let through) is the compiler's and is not followed.
 */
final class ClangIncludeClosure {
    /** At most this many project headers are followed from one unit, each read up to this many bytes. */
    private static final int MAX_HEADERS = 2000;

    private static final long MAX_BYTES = 8L << 20;

    private ClangIncludeClosure() {}

    /** Why Clang must not parse {@code file} with {@code args} in the tree at {@code root}, or null. */
    static String refusal(Path root, Path file, byte[] text, List<String> args) {
        return refusal(List.of(root), file, text, args);
    }

    /**
     * Why Clang must not parse {@code file} with {@code args} when it may read only inside {@code roots} (the scan's
     * real boundary roots: a scanned PATH and a database directory beside it), or null.
     */
    static String refusal(List<Path> roots, Path file, byte[] text, List<String> args) {
        List<Path> realRoots = new ArrayList<>();
        for (Path r : roots) {
            Path real = real(r);
            if (real != null) realRoots.add(real);
        }
        java.util.function.Predicate<String> harmless = harmless(realRoots, args);
        // the unit's computed include of a file the command names (-DPLUGIN_SOURCE="gui/meter.c"): followed below as
        // the include it names, with the same checks as a written one
        java.util.function.Predicate<String> named = m -> named(m, realRoots, args) != null;
        String direct = ClangFrontEnd.refusal(roots, file, text, harmless.or(named));
        if (direct != null && direct.startsWith("a computed #include")) {
            // the unit's own computed include: which macro, and who may define it
            Set<String> names = new LinkedHashSet<>();
            ClangFrontEnd.includeNames(text, names);
            String why = computed(names, realRoots, args);
            if (why != null) return why;
        }
        if (direct != null) return direct;
        if (realRoots.isEmpty()) return null;
        List<Path> dirs = includeDirs(args, file);
        ArrayDeque<Path> todo = new ArrayDeque<>();
        Set<Path> seen = new LinkedHashSet<>();
        Set<String> own = new LinkedHashSet<>();
        ClangFrontEnd.includeNames(text, own);
        for (String n : List.copyOf(own)) {
            String name = named(ClangFrontEnd.computedMacro(n), realRoots, args);
            if (name != null) own.add(name.substring(1, name.length() - 1));
        }
        String r = follow(file, expanded(own, realRoots, args), dirs, realRoots, todo, seen);
        while (r == null && !todo.isEmpty()) {
            Path h = todo.poll();
            Header header = header(roots, h);
            if (header == null) continue; // unreadable or too large: Clang reports the include as it finds it
            r = header.refusal() != null
                    ? header.refusal()
                    : follow(h, expanded(header.names(), realRoots, args), dirs, realRoots, todo, seen);
            if (r == null) r = computed(header.names(), realRoots, args);
            if (r != null) r = "through " + shown(realRoots, h) + ": " + r;
        }
        return r;
    }

    /** {@code h} relative to the root that holds it. */
    private static Path shown(List<Path> realRoots, Path h) {
        for (Path r : realRoots) if (h.startsWith(r)) return r.relativize(h);
        return h;
    }

    /**
     * Whether a computed {@code #include MACRO} cannot be given a file name by the tree or the compile command: no file
     * of the tree may define MACRO ({@link TreeMacros}), the command neither defines it ({@code -D}) nor forces
     * includes or macros files ({@code -include}, {@code -imacros}, {@code -include-pch}) or modules, and it is no
     * reserved name ({@code __FILE__} and the compiler's own). What a trusted system header may define is the
     * compiler's (the threat model's residual risk of computed includes inside trusted headers).
     */
    private static java.util.function.Predicate<String> harmless(List<Path> realRoots, List<String> args) {
        return macro -> TreeMacros.undefinable(macro, args, realRoots) || headerValues(macro, realRoots, args) != null;
    }

    /** {@code names} with each computed include's macro replaced by the header names the tree defines it as. */
    private static Set<String> expanded(Set<String> names, List<Path> realRoots, List<String> args) {
        if (names.stream().noneMatch(n -> n.startsWith(ClangFrontEnd.COMPUTED))) return names;
        Set<String> out = new LinkedHashSet<>();
        for (String n : names) {
            Set<String> v = n.startsWith(ClangFrontEnd.COMPUTED)
                    ? headerValues(ClangFrontEnd.computedMacro(n), realRoots, args)
                    : null;
            if (v != null) out.addAll(v);
            else out.add(n);
        }
        return out;
    }

    /**
     * The header names that the tree's definitions give the macro of a computed include ({@link
     * TreeMacros#headerValues}), each followed as a written include is; null when one gives anything else, or the
     * compile command may define the macro or force includes.
     */
    private static Set<String> headerValues(String macro, List<Path> realRoots, List<String> args) {
        if (macro == null || realRoots.isEmpty() || TreeMacros.byCommand(macro, args) != null) return null;
        Set<String> all = new LinkedHashSet<>();
        for (Path r : realRoots) {
            if (!TreeMacros.mayDefine(r, macro)) continue;
            Set<String> v = TreeMacros.headerValues(r, macro);
            if (v == null) return null;
            all.addAll(v);
        }
        return all.isEmpty() ? null : all;
    }

    /**
     * The file name ({@code "name"} or {@code <name>}) that the compile command alone gives a computed include of
     * {@code macro} ({@link TreeMacros#definedName}), when no file of the trees may define the macro; else null.
     */
    private static String named(String macro, List<Path> realRoots, List<String> args) {
        if (macro == null || realRoots.isEmpty() || mayDefine(realRoots, macro)) return null;
        return TreeMacros.definedName(macro, args);
    }

    /** Whether a file in one of {@code realRoots} may define {@code macro} ({@link TreeMacros}). */
    private static boolean mayDefine(List<Path> realRoots, String macro) {
        for (Path r : realRoots) if (TreeMacros.mayDefine(r, macro)) return true;
        return false;
    }

    /** Why a computed include among {@code names} may be given a file name ({@link #harmless}), or null. */
    private static String computed(Set<String> names, List<Path> realRoots, List<String> args) {
        for (String n : names) {
            if (!n.startsWith(ClangFrontEnd.COMPUTED)) continue;
            String macro = ClangFrontEnd.computedMacro(n);
            if (macro == null || realRoots.isEmpty() || macro.startsWith("_")) {
                return "a computed #include (its file name comes from a macro)";
            }
            String byCommand = computedByCommand(macro, args);
            if (byCommand != null) return byCommand;
            if (mayDefine(realRoots, macro) && headerValues(macro, realRoots, args) == null) {
                return "a computed #include (its file name comes from the macro " + macro
                        + ", which a file of the tree may define)";
            }
        }
        return null;
    }

    /** Why the compile command may give a computed include of {@code macro} its file name, or null. */
    private static String computedByCommand(String macro, List<String> args) {
        TreeMacros.ByCommand by = TreeMacros.byCommand(macro, args);
        if (by == null) return null;
        return by == TreeMacros.ByCommand.DEFINES
                ? "a computed #include (its file name comes from the macro " + macro
                        + ", which the compile command defines)"
                : "a computed #include (its file name comes from a macro, and the compile command forces "
                        + "includes or modules)";
    }

    /** Queues the project headers {@code from}'s includes reach; why one must not be read, or null. */
    private static String follow(
            Path from,
            Set<String> names,
            List<Path> dirs,
            List<Path> realRoots,
            ArrayDeque<Path> todo,
            Set<Path> seen) {
        Path dir = from.toAbsolutePath().normalize().getParent();
        for (String n : names) {
            if (n.startsWith(ClangFrontEnd.COMPUTED)) continue; // the includer's own check decides it
            List<Path> candidates = new ArrayList<>();
            // the candidates found through an include directory above the tree (ClangFrontEnd.aboveRoot)
            Set<Path> above = new java.util.HashSet<>();
            try {
                // an absolute path: the includer's own check refused it outside the tree; inside, it is the one
                // candidate, followed as any other
                if (Path.of(n).isAbsolute()) candidates.add(Path.of(n).normalize());
                else if (dir != null) candidates.add(dir.resolve(n).normalize());
                for (Path d : Path.of(n).isAbsolute() ? List.<Path>of() : dirs) {
                    Path c = d.resolve(n).normalize();
                    candidates.add(c);
                    for (Path realRoot : realRoots) if (ClangFrontEnd.aboveRoot(realRoot, d)) above.add(c);
                }
            } catch (RuntimeException bad) {
                continue;
            }
            for (Path c : candidates) {
                if (!Files.exists(c, LinkOption.NOFOLLOW_LINKS)) continue;
                boolean projectDir =
                        ClangFrontEnd.under(c, realRoots) || dir != null && c.startsWith(dir) || above.contains(c);
                Path real = real(c);
                if (real == null) return "#include \"" + n + "\" cannot be resolved";
                if (Files.isDirectory(real)) continue;
                if (!ClangFrontEnd.under(real, realRoots)) {
                    if (projectDir) return "#include \"" + n + "\" leads outside the scanned tree";
                    break; // a system or package header: the compiler's own
                }
                if (!Files.isRegularFile(real)) return "#include \"" + n + "\" is not a regular file";
                // a version-control directory is never read (and TreeMacros does not read its definitions)
                String never = dev.numlint.spi.TrustBoundary.refusedName(real);
                if (never != null) return "#include \"" + n + "\": " + never;
                if (seen.size() < MAX_HEADERS && seen.add(real)) todo.add(real);
                break;
            }
        }
        return null;
    }

    /** A header's include names and the refusal of its own includes, as read at one size and modification time. */
    private record Header(long size, long modified, Set<String> names, String refusal) {}

    /** The headers this process read, by root and real path: a worker serves many units that share headers. */
    private static final java.util.Map<List<Path>, Header> READ = new java.util.concurrent.ConcurrentHashMap<>();

    private static Header header(List<Path> roots, Path h) {
        try {
            long size = Files.size(h);
            long modified = Files.getLastModifiedTime(h).toMillis();
            List<Path> key = new ArrayList<>(roots);
            key.add(h);
            Header known = READ.get(key);
            if (known != null && known.size() == size && known.modified() == modified) return known;
            if (size > MAX_BYTES) return null;
            byte[] b = Files.readAllBytes(h);
            Set<String> names = new LinkedHashSet<>();
            ClangFrontEnd.includeNames(b, names);
            Header read = new Header(
                    size,
                    modified,
                    names,
                    // computed includes of a named macro are decided at each use, with the compile command
                    ClangFrontEnd.refusal(roots, h, b, m -> true));
            if (READ.size() < 100_000) READ.put(key, read);
            return read;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The include directories of a compile command ({@code -I dir}, {@code -Idir}, -iquote, -isystem, -idirafter). */
    static List<Path> includeDirs(List<String> args, Path file) {
        List<Path> out = new ArrayList<>();
        for (IncludeFlag f : includeFlags(args, file)) out.add(f.dir());
        return out;
    }

    /** One include directory of a compile command and the flag that names it ({@code -I}, -iquote, ...). */
    record IncludeFlag(String flag, Path dir) {}

    /**
     * The include directories of a compile command in the order written, each with its flag; a relative one against
     * the directory of {@code file}.
     */
    static List<IncludeFlag> includeFlags(List<String> args, Path file) {
        List<IncludeFlag> out = new ArrayList<>();
        Path base = file.toAbsolutePath().getParent();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String d = null;
            String flag = null;
            for (String f : List.of("-I", "-iquote", "-isystem", "-idirafter")) {
                if (a.equals(f) && i + 1 < args.size()) {
                    d = args.get(++i);
                } else if (a.startsWith(f) && a.length() > f.length() && !a.equals(f)) {
                    d = a.substring(f.length());
                }
                if (d != null) {
                    flag = f;
                    break;
                }
            }
            if (d == null || d.isEmpty()) continue;
            try {
                Path p = Path.of(d);
                out.add(new IncludeFlag(flag, (p.isAbsolute() || base == null ? p : base.resolve(p)).normalize()));
            } catch (RuntimeException bad) {
                // not a path: Clang ignores it as well
            }
        }
        return out;
    }

    private static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
