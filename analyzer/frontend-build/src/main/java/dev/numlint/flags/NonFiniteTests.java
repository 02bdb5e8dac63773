package dev.numlint.flags;

import dev.numlint.model.Location;
import dev.numlint.spi.ScanContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where host code tests a value for NaN or infinity ({@code isnan}, {@code isfinite}, {@code isinf}, also through
 * {@code std::} and the {@code __builtin_} forms): the tests {@code -ffinite-math-only} (part of {@code -ffast-math}
 * and {@code -Ofast}) lets GCC and Clang fold to a constant. Read from the scanned C and C++ sources a flag compiles,
 * comments and string literals left out; CUDA units are not read (their device functions are not host code, and the
 * host compiler flag does not reach them).
 */
final class NonFiniteTests {
    private NonFiniteTests() {}

    private static final Pattern TEST =
            Pattern.compile("(?<![A-Za-z0-9_])(?:__builtin_)?(isnan|isfinite|isinf)[fl]?\\s*\\(");

    private static final Set<String> HOST = Set.of("c", "cc", "cpp", "cxx", "c++", "h", "hh", "hpp", "hxx", "inl");

    /** The first test for NaN or infinity in {@code files} (in path order), or null when none has one. */
    static Location first(ScanContext ctx, Collection<Path> files) {
        long max = ctx.maxFileSize(dev.numlint.model.Layer.CUDA_SOURCE);
        for (Path f : new TreeSet<>(files)) {
            if (!host(f)) continue;
            String text;
            try {
                if (!Files.isRegularFile(f) || Files.size(f) > max) continue;
                text = Files.readString(f, StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                continue; // unreadable here: the source layer says so
            }
            int at = first(code(text));
            if (at >= 0) {
                int line = 1;
                int col = 1;
                for (int i = 0; i < at; i++) {
                    if (text.charAt(i) == '\n') {
                        line++;
                        col = 1;
                    } else {
                        col++;
                    }
                }
                return Location.of(ctx.relativize(f), line, col);
            }
        }
        return null;
    }

    /**
     * The offset of the first test in {@code code}, or -1. A name a directive defines or tests is no test: {@code
     * #define isnan(x) _isnan(x)} (a portability header's stand-in, session 79 round B: the only "test" named, under an
     * {@code #if} for another compiler, while the file's real tests came later), {@code #undef isnan}, {@code #ifdef}.
     */
    static int first(String code) {
        Matcher m = TEST.matcher(code);
        while (m.find()) {
            int line = code.lastIndexOf('\n', m.start()) + 1;
            if (!DIRECTIVE_NAME.matcher(code.substring(line, m.start())).matches()) return m.start();
        }
        return -1;
    }

    /** The start of a line up to the name a directive defines, removes or tests. */
    private static final Pattern DIRECTIVE_NAME = Pattern.compile("\\s*#\\s*(?:define|undef|ifdef|ifndef)\\s+");

    private static boolean host(Path f) {
        Path n = f.getFileName();
        if (n == null) return false;
        String s = n.toString().toLowerCase(Locale.ROOT);
        int dot = s.lastIndexOf('.');
        return dot >= 0 && HOST.contains(s.substring(dot + 1));
    }

    /** {@code text} with comments and string and character literals blanked (offsets and lines kept). */
    static String code(String text) {
        StringBuilder b = new StringBuilder(text);
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            char d = i + 1 < n ? text.charAt(i + 1) : 0;
            int end;
            if (c == '/' && d == '/') {
                end = text.indexOf('\n', i);
                if (end < 0) end = n;
            } else if (c == '/' && d == '*') {
                end = text.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
            } else if (c == '"' || c == '\'') {
                end = i + 1;
                while (end < n && text.charAt(end) != c && text.charAt(end) != '\n') {
                    end += text.charAt(end) == '\\' ? 2 : 1;
                }
                end = Math.min(n, end + 1);
            } else {
                i++;
                continue;
            }
            for (int k = i; k < end; k++) {
                if (b.charAt(k) != '\n') b.setCharAt(k, ' ');
            }
            i = end;
        }
        return b.toString();
    }
}
