package dev.numlint.cuda;

import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.rules.NotCompiledNote;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Findings in a template pattern that nothing in the scanned tree names are notes (session 48): C++ instantiates a
 * member function of a class template, or a function template, only where code uses it, so a helper member of
 * {@code CTensor<float>} that no code calls is compiled into no program of the build, and its hazards change nothing
 * it computes ({@link NotCompiledNote}, the one home of that decision, with the reason).
 *
 * <p>The front end marks each finding of a compiled file's template pattern with the pattern's name, the declarations
 * of that name its file holds and its class template ({@link #PROPERTY}); the decision waits for the whole tree, so
 * that a cached finding is decided again when another file starts to call it. A pattern counts as used when its name
 * occurs, as a word, anywhere in the tree's C, C++ and CUDA files (comments and inactive {@code #if} branches
 * included) more often than its file declares it, or when its class template is instantiated explicitly ({@code
 * template class CTensor<float>;}, which instantiates every member). A name shared with another function (an
 * overload, another class's member) is used when any of them is: this only errs towards keeping a level.
 */
final class UninstantiatedTemplates {
    /** The finding property the front end sets: "name declared owner" ({@code owner} "-" for none). */
    static final String PROPERTY = "templatePattern";

    /** The largest file read for names (as the front end's largest header). */
    private static final long MAX_BYTES = 64L << 20;

    /** An explicit instantiation of a class template: {@code template class X<...>}, {@code extern template struct}. */
    private static final Pattern EXPLICIT = Pattern.compile("\\btemplate\\s+(?:class|struct)\\s+([A-Za-z_]\\w*)\\s*<");

    private UninstantiatedTemplates() {}

    /** The property value of a pattern: its name, its file's declarations of the name, its class template or "-". */
    static String property(String name, int declared, String owner) {
        return name + " " + declared + " " + (owner == null ? "-" : owner);
    }

    /** The template patterns of a file Clang read, as its reporter marks their findings. */
    static List<Reporter.TemplatePattern> patterns(dev.numlint.cuda.clang.ClangUnit unit) {
        List<Reporter.TemplatePattern> out = new ArrayList<>();
        for (var p : dev.numlint.cuda.clang.ClangTemplatePatterns.of(unit))
            out.add(new Reporter.TemplatePattern(
                    p.startLine(), p.endLine(), property(p.name(), p.declared(), p.owner())));
        return out;
    }

    /**
     * The files whose names decide: the scan's and those its includes reached, by real path, each once, and only what
     * the scan may read (a link out of the tree names nothing in it).
     */
    static List<Path> tree(dev.numlint.spi.ScanContext ctx, java.util.Collection<Path> listed, Set<Path> included) {
        java.util.Set<Path> tree = new java.util.TreeSet<>();
        java.util.stream.Stream.concat(listed.stream(), included.stream()).forEach(f -> {
            Path real = ctx.boundary().readable(f);
            if (real != null) tree.add(real);
        });
        return List.copyOf(tree);
    }

    /**
     * {@code findings} with the property removed, and those of patterns nothing in {@code tree} names as notes.
     * {@code tree}: the scan's C, C++ and CUDA files (null: the CUDA analyzer did not run; nothing is decided).
     */
    static List<Finding> review(List<Finding> findings, List<Path> tree) {
        Set<String> names = new HashSet<>();
        for (Finding f : findings) {
            Object p = f.properties().get(PROPERTY);
            if (p instanceof String s) names.add(s.split(" ", 2)[0]);
        }
        if (names.isEmpty()) return findings;
        Map<String, Integer> uses = new HashMap<>();
        Set<String> explicit = new HashSet<>();
        if (tree != null) count(tree, names, uses, explicit);
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            Object p = f.properties().get(PROPERTY);
            if (!(p instanceof String s)) {
                out.add(f);
                continue;
            }
            Finding.Builder b = f.toBuilder().removeProperty(PROPERTY);
            String[] part = s.split(" ");
            String why = tree == null || part.length != 3 ? null : why(part, uses, explicit);
            System.err.println("DBG " + s + " uses=" + uses.get(part[0]) + " why=" + why);
            if (why != null && f.level() != Level.NOTE) NotCompiledNote.apply(b, why);
            out.add(b.build());
        }
        return out;
    }

    /** Why the pattern {@code part} (name, declarations, owner) is never instantiated, or null when it may be. */
    private static String why(String[] part, Map<String, Integer> uses, Set<String> explicit) {
        int declared;
        try {
            declared = Integer.parseInt(part[1]);
        } catch (NumberFormatException e) {
            return null;
        }
        String name = part[0];
        String owner = "-".equals(part[2]) ? null : part[2];
        if (uses.getOrDefault(name, 0) > declared || owner != null && explicit.contains(owner)) return null;
        return owner == null
                ? "function template '" + name + "': no code of the scanned tree calls it, so the build never"
                        + " instantiates it"
                : "member '" + name + "' of class template '" + owner + "': no code of the scanned tree names it, so"
                        + " no specialization of the class instantiates it";
    }

    /** The occurrences of {@code names} as words in the files of {@code tree}, and the classes instantiated explicitly. */
    private static void count(List<Path> tree, Set<String> names, Map<String, Integer> uses, Set<String> explicit) {
        for (Path file : tree) {
            byte[] b;
            try {
                b = Files.size(file) > MAX_BYTES ? null : Files.readAllBytes(file);
            } catch (IOException | RuntimeException e) {
                b = null;
            }
            if (b == null) {
                // not read: every name may be used there
                names.forEach(n -> uses.put(n, Integer.MAX_VALUE));
                return;
            }
            words(b, names, uses);
            String text = new String(b, java.nio.charset.StandardCharsets.ISO_8859_1);
            if (text.indexOf("template") < 0) continue;
            Matcher m = EXPLICIT.matcher(text);
            while (m.find()) explicit.add(m.group(1));
        }
    }

    /**
     * Adds the occurrences in {@code b} of each of {@code names} as a whole identifier, outside comments and string and
     * character literals (a comment that names a helper calls nothing).
     */
    static void words(byte[] b, Set<String> names, Map<String, Integer> uses) {
        int n = b.length;
        int i = 0;
        while (i < n) {
            int c = b[i] & 0xff;
            if (c == '/' && i + 1 < n && b[i + 1] == '/') {
                // to the end of the line, a backslash-newline continuing it
                while (i < n && b[i] != '\n') i += b[i] == '\\' && i + 1 < n ? 2 : 1;
                continue;
            }
            if (c == '/' && i + 1 < n && b[i + 1] == '*') {
                i += 2;
                while (i < n && !(b[i] == '*' && i + 1 < n && b[i + 1] == '/')) i++;
                i += 2;
                continue;
            }
            if (c == '\'' && i > 0 && part(b[i - 1] & 0xff)) {
                i++; // a digit separator (1'000'000), no character literal
                continue;
            }
            if (c == '"' || c == '\'') {
                // a literal ends at its unescaped quote or at the end of its line
                i++;
                while (i < n && b[i] != c && b[i] != '\n') i += b[i] == '\\' && i + 1 < n ? 2 : 1;
                i++;
                continue;
            }
            if (!start(c)) {
                i++;
                continue;
            }
            int j = i + 1;
            while (j < n && part(b[j] & 0xff)) j++;
            // an identifier after a digit is part of a number (1e5f), not a name
            if (i == 0 || !part(b[i - 1] & 0xff)) {
                String w = new String(b, i, j - i, java.nio.charset.StandardCharsets.ISO_8859_1);
                if (names.contains(w)) uses.merge(w, 1, Integer::sum);
            }
            i = j;
        }
    }

    private static boolean start(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80;
    }

    private static boolean part(int c) {
        return start(c) || c >= '0' && c <= '9';
    }
}
