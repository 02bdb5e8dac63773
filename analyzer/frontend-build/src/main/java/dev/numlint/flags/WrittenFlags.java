package dev.numlint.flags;

import dev.numlint.model.Layer;
import dev.numlint.model.Location;
import dev.numlint.spi.BuildFileNames;
import dev.numlint.spi.ScanContext;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where the project's own build sources write a flag that numlint found in a file the build generated: a
 * {@code compile_commands.json} (meson and bear write one) or a makefile that {@code configure} made from automake's
 * template. A user changes the flag at the line of {@code meson.build}, {@code configure.ac}, {@code Makefile.am}, a
 * hand-written makefile or a CMake file that holds its text, not in the generated file (session 63: a spectral
 * denoiser's {@code -ffast-math} reported at {@code build/compile_commands.json:202}, written at
 * {@code meson.build:44}; a synthesizer's at the generated {@code Makefile:249}, written at {@code configure.ac:105}).
 *
 * <p>Found by the flag's text outside comments, not by running meson or autoconf: the finding keeps the generated
 * file's site as a related location and names both in its property {@code writtenAt}. Files under a build directory
 * (one holding {@code CMakeCache.txt}, {@code meson-private} or {@code config.status}) are generated and not read.
 */
final class WrittenFlags {
    /** At most this many places are returned (the first is the finding's location, the others related). */
    static final int MAX = 11;

    private final List<Path> sources;
    private final ScanContext ctx;
    private final Map<Path, List<String>> text = new HashMap<>();
    private final Map<String, List<Location>> found = new HashMap<>();

    private WrittenFlags(ScanContext ctx, List<Path> sources) {
        this.ctx = ctx;
        this.sources = sources;
    }

    /**
     * The build sources among {@code files} (absolute paths of files the scan discovered): the files meson and
     * autotools read ({@link BuildFileNames#isFlagSource}) first, then makefiles, then CMake files, each shallower
     * paths first; generated ones left out.
     */
    static WrittenFlags of(ScanContext ctx, Collection<Path> files) {
        List<Path> out = new ArrayList<>();
        Map<Path, Boolean> buildDirs = new HashMap<>();
        for (Path f : files) {
            Path n = f.getFileName();
            if (n == null) continue;
            String s = n.toString();
            if (!BuildFileNames.isFlagSource(s) && !BuildFileNames.isMakefile(s) && !BuildFileNames.isCMake(s))
                continue;
            if (underBuildDirectory(ctx, f, buildDirs) || (BuildFileNames.isMakefile(s) && generated(f))) continue;
            out.add(f);
        }
        out.sort(Comparator.comparingInt(WrittenFlags::family)
                .thenComparing(BuildFlagAnalyzer.BY_DEPTH)
                .thenComparing(Comparator.naturalOrder()));
        return new WrittenFlags(ctx, List.copyOf(out));
    }

    private static int family(Path f) {
        String s = f.getFileName().toString();
        if (BuildFileNames.isFlagSource(s)) return 0;
        return BuildFileNames.isMakefile(s) ? 1 : 2;
    }

    /** Whether a directory between {@code f} and the scan root holds a configured build's own files. */
    private static boolean underBuildDirectory(ScanContext ctx, Path f, Map<Path, Boolean> memo) {
        Path root = ctx.root() == null ? null : ctx.root().toAbsolutePath().normalize();
        for (Path d = f.getParent(); d != null; d = d.getParent()) {
            if (d.equals(root)) break; // an in-source build: the root's own build files are the sources
            boolean build = memo.computeIfAbsent(
                    d,
                    x -> Files.isRegularFile(x.resolve("CMakeCache.txt"))
                            || Files.isDirectory(x.resolve("meson-private"))
                            || Files.isRegularFile(x.resolve("config.status")));
            if (build) return true;
        }
        return false;
    }

    /**
     * Whether {@code file} is a compilation database or a makefile that configure, automake or CMake generated (its first
     * lines say so), so that the places it writes flags are not where a user changes them.
     */
    static boolean generated(Path file) {
        Path n = file.getFileName();
        if (n == null) return false;
        if (n.toString().equals("compile_commands.json")) return true;
        if (!BuildFileNames.isMakefile(n.toString())) return false;
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            for (int i = 0; i < 5; i++) {
                String line = r.readLine();
                if (line == null) return false;
                String l = line.toLowerCase(Locale.ROOT);
                if (l.startsWith("#")
                        && l.contains("generated")
                        && (l.contains("automake") || l.contains("by configure") || l.contains("cmake"))) return true;
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }

    /**
     * The places that write {@code flag} (as written, or with one dash more or less: {@code --use_fast_math} and
     * {@code -use_fast_math} are one nvcc option), at most {@link #MAX}, in the order of {@link #of}, all of the kind of
     * build file that writes it first (meson's and autotools' files, makefiles, CMake files).
     */
    List<Location> places(String flag) {
        if (flag == null || flag.isBlank() || flag.indexOf(' ') >= 0 || !flag.startsWith("-")) return List.of();
        return found.computeIfAbsent(flag, k -> {
            List<String> forms = new ArrayList<>(List.of(k));
            forms.add(k.startsWith("--") ? k.substring(1) : "-" + k);
            List<Location> out = new ArrayList<>();
            int first = -1;
            for (Path f : sources) {
                // the places of the build system that writes it first: not a test's hand-written makefile besides
                // configure.ac
                if (first >= 0 && family(f) != first) break;
                List<String> lines = lines(f);
                for (int i = 0; i < lines.size() && out.size() < MAX; i++) {
                    String code = code(lines.get(i));
                    for (String form : forms) {
                        int at = token(code, form);
                        if (at >= 0 && !casePattern(f, code, at + form.length())) {
                            out.add(new Location(ctx.relativize(f), i + 1, at + 1, i + 1, at + form.length()));
                            first = family(f);
                            break;
                        }
                    }
                }
                if (out.size() >= MAX) break;
            }
            return List.copyOf(out);
        });
    }

    private List<String> lines(Path f) {
        return text.computeIfAbsent(f, p -> {
            try {
                if (!Files.isRegularFile(p) || Files.size(p) > ctx.maxFileSize(Layer.BUILD_FLAGS)) return List.of();
                return Files.readAllLines(p, StandardCharsets.ISO_8859_1);
            } catch (IOException | RuntimeException e) {
                return List.of(); // unreadable: the audit that reads it as a build file says so
            }
        });
    }

    /**
     * A line without its comment: the text before the first {@code #} outside quotes (meson, shell, make, CMake,
     * m4's pass-through comments), nothing for an m4 {@code dnl} line.
     */
    static String code(String line) {
        String t = line.stripLeading();
        if (t.startsWith("dnl ") || t.equals("dnl")) return "";
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) quote = 0;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '#' && (i == 0 || line.charAt(i - 1) != '\\')) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    /**
     * Whether a flag that ends at {@code end} of a line of {@code configure.ac} is a shell {@code case} pattern that
     * tests for it ({@code *[\ \t]-ffast-math[\ \t]*) ;;}), not the assignment that adds it: no '=' on the line,
     * and a ')' after the flag before any quote.
     */
    private static boolean casePattern(Path f, String code, int end) {
        String n = f.getFileName().toString();
        if (!n.startsWith("configure.") || code.indexOf('=') >= 0) return false;
        for (int i = end; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '"' || c == '\'') return false;
            if (c == ')') return true;
        }
        return false;
    }

    /** The offset of {@code flag} in {@code code} as a whole word ({@code -ffast-math}, not {@code -ffast-math-x}). */
    static int token(String code, String flag) {
        for (int at = code.indexOf(flag); at >= 0; at = code.indexOf(flag, at + 1)) {
            // before it a space, a quote, '=' or ',' (-Xcompiler=-O3,-ffast-math); after it no more of a name
            boolean before = at == 0 || !name(code.charAt(at - 1));
            int end = at + flag.length();
            boolean after = end == code.length()
                    || !name(code.charAt(end)) && code.charAt(end) != '=' && code.charAt(end) != '.';
            if (before && after) return at;
        }
        return -1;
    }

    private static boolean name(char c) {
        return Character.isLetterOrDigit(c) || c == '-' || c == '_';
    }
}
