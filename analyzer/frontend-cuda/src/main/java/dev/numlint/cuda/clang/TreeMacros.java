package dev.numlint.cuda.clang;

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
 * {@code define} in any regular file of the tree (directives, but also comments and strings: an over-approximation),
 * read after joining backslash-continued lines (also {@code ??/} ones) and skipping block comments between the word and
 * the name. A computed {@code #include NAME} whose NAME no file of the tree defines and the compile command does not
 * define ({@link ClangIncludeClosure}) cannot be given a file name by the tree: it is in a branch the build never
 * enables ({@code #ifdef MFEM_CONFIG_FILE}), or it is an error; Clang is then allowed to parse the unit (issue 26: MFEM's
 * {@code config/config.hpp} made Clang refuse all 211 files of its integrators). Where the tree is larger than the
 * bounds below, every name counts as defined (the include is refused, as before).
 */
final class TreeMacros {
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
    static boolean mayDefine(Path root, String name) {
        if (root == null || name == null) return true;
        Names n = BY_ROOT.computeIfAbsent(root, TreeMacros::read);
        return n.names() == null || n.names().contains(name);
    }

    /** Forgets the trees read (a test that changes its tree). */
    static void forget() {
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
                    if (--budget[1] < 0 || a.size() > MAX_FILE_BYTES || (budget[0] -= a.size()) < 0) {
                        over[0] = true;
                        return FileVisitResult.TERMINATE;
                    }
                    try {
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

    /** Adds the names written after {@code define} in {@code text} (continued lines joined first). */
    static void names(byte[] text, Set<String> out) {
        String s = new String(text, StandardCharsets.ISO_8859_1);
        // phase 2 first: a definition can be spelled across continued lines ("#def\<newline>ine")
        s = s.replace("??/\r\n", "").replace("??/\n", "").replace("\\\r\n", "").replace("\\\n", "");
        if (!s.contains("define")) return;
        Matcher m = DEFINE.matcher(s);
        while (m.find()) out.add(m.group(1));
    }
}
