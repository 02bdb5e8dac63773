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

    /**
     * A test for NaN or infinity: where it is, and the innermost preprocessor condition it is written under (not an
     * include guard), or null when none.
     */
    record Found(Location at, String condition) {
        /** The test's place, with the condition it is written under. */
        String site() {
            return at.shortText() + (condition == null ? "" : " (under '" + condition + "')");
        }
    }

    /**
     * The first test for NaN or infinity in {@code files} (in path order) that no preprocessor condition holds, else
     * the first under one (session 82 round R: a modem's only test sat in an {@code #if ENABLE_GPSD} branch that its
     * configuration did not compile, and the message did not say so); null when none has one.
     */
    static Found first(ScanContext ctx, Collection<Path> files) {
        long max = ctx.maxFileSize(dev.numlint.model.Layer.CUDA_SOURCE);
        Found conditional = null;
        for (Path f : new TreeSet<>(files)) {
            if (!host(f)) continue;
            String text;
            try {
                if (!Files.isRegularFile(f) || Files.size(f) > max) continue;
                text = Files.readString(f, StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                continue; // unreadable here: the source layer says so
            }
            String code = code(text);
            for (int at = first(code, 0); at >= 0; at = first(code, at + 1)) {
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
                Found found = new Found(Location.of(ctx.relativize(f), line, col), condition(code, at));
                if (found.condition() == null) return found;
                if (conditional == null) conditional = found;
            }
        }
        return conditional;
    }

    private static final Pattern CONDITIONAL = Pattern.compile("^\\s*#\\s*(if|ifdef|ifndef|elif|else|endif)\\b(.*)$");
    private static final Pattern DEFINE = Pattern.compile("^\\s*#\\s*define\\s+(\\w+)");

    /**
     * The innermost preprocessor condition around offset {@code at} of {@code code} ({@code #if ENABLE_GPSD}, {@code
     * #else of #ifdef _WIN32}), include guards ({@code #ifndef X} followed by {@code #define X}) left out; null when
     * none.
     */
    static String condition(String code, int at) {
        java.util.ArrayDeque<String> open = new java.util.ArrayDeque<>();
        String[] lines = code.substring(0, at).split("\n", -1);
        for (int i = 0; i < lines.length - 1; i++) {
            Matcher m = CONDITIONAL.matcher(lines[i]);
            if (!m.matches()) continue;
            String what = m.group(1), rest = m.group(2).strip();
            switch (what) {
                case "if", "ifdef", "ifndef" -> {
                    Matcher d = i + 1 < lines.length - 1 ? DEFINE.matcher(lines[i + 1]) : null;
                    boolean guard = what.equals("ifndef")
                            && d != null
                            && d.find()
                            && d.group(1).equals(rest);
                    open.push(guard ? "" : "#" + what + " " + rest);
                }
                case "elif" -> {
                    if (!open.isEmpty()) open.pop();
                    open.push("#elif " + rest);
                }
                case "else" -> {
                    String was = open.isEmpty() ? "" : open.pop();
                    open.push(was.isEmpty() ? "" : "#else of " + was);
                }
                default -> {
                    if (!open.isEmpty()) open.pop();
                }
            }
        }
        for (String c : open) if (!c.isEmpty()) return c;
        return null;
    }

    /**
     * The offset of the first test in {@code code}, or -1. A name a directive defines or tests is no test: {@code
     * #define isnan(x) _isnan(x)} (a portability header's stand-in, session 79 round B: the only "test" named, under an
     * {@code #if} for another compiler, while the file's real tests came later), {@code #undef isnan}, {@code #ifdef}.
     */
    static int first(String code) {
        return first(code, 0);
    }

    /** The offset of the first test in {@code code} at or after {@code from}, or -1 ({@link #first(String)}). */
    static int first(String code, int from) {
        Matcher m = TEST.matcher(code);
        m.region(from, code.length());
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
