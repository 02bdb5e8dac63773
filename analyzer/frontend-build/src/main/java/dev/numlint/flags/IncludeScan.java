package dev.numlint.flags;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Finds the scanned files a source file {@code #include}s directly (a linear scan of its lines, no regular
 * expression), to give a file the build compiles only through another one that file's context.
 */
final class IncludeScan {
    /** Only the first bytes of a source are looked at. */
    static final int MAX_BYTES = 8 << 20;

    private IncludeScan() {}

    /**
     * The files of {@code scanned} that {@code file} includes: {@code "x"} relative to its directory, then (as
     * {@code <x>} too) relative to each include path.
     */
    static List<Path> quotedIncludes(Path file, List<Path> includePaths, Set<Path> scanned) {
        return quotedIncludes(file, includePaths, scanned, List.of());
    }

    /**
     * As {@link #quotedIncludes(Path, List, Set)}, and {@code #include NAME} of a macro that {@code defines} (the
     * unit's {@code -D}s, {@code NAME=VALUE}) gives one file name: {@code -DPLUGIN_SOURCE="gui/meter.c"} (a GUI host
     * unit compiled once per plugin GUI, session 63 round B).
     */
    static List<Path> quotedIncludes(Path file, List<Path> includePaths, Set<Path> scanned, List<String> defines) {
        List<Path> out = new ArrayList<>();
        String text;
        try (InputStream in = Files.newInputStream(file)) {
            text = new String(in.readNBytes(MAX_BYTES), StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            return out;
        }
        int n = text.length();
        int i = 0;
        while (i < n) {
            int e = text.indexOf('\n', i);
            if (e < 0) e = n;
            int k = i;
            while (k < e && (text.charAt(k) == ' ' || text.charAt(k) == '\t')) k++;
            if (k < e && text.charAt(k) == '#') {
                k++;
                while (k < e && (text.charAt(k) == ' ' || text.charAt(k) == '\t')) k++;
                if (text.startsWith("include", k)) {
                    k += 7;
                    while (k < e && (text.charAt(k) == ' ' || text.charAt(k) == '\t')) k++;
                    int m = k;
                    while (m < e && (Character.isLetterOrDigit(text.charAt(m)) || text.charAt(m) == '_')) m++;
                    String named = m > k ? named(text.substring(k, m), defines) : null;
                    if (named != null && text.substring(m, e).isBlank()) {
                        Path p = resolve(
                                file,
                                named.substring(1, named.length() - 1),
                                named.charAt(0) == '"',
                                includePaths,
                                scanned);
                        if (p != null && !out.contains(p)) out.add(p);
                    } else if (k < e && (text.charAt(k) == '"' || text.charAt(k) == '<')) {
                        char close = text.charAt(k) == '"' ? '"' : '>';
                        int end = text.indexOf(close, k + 1);
                        if (end > k + 1 && end < e) {
                            Path p = resolve(file, text.substring(k + 1, end), close == '"', includePaths, scanned);
                            if (p != null && !out.contains(p)) out.add(p);
                        }
                    }
                }
            }
            i = e + 1;
        }
        return out;
    }

    /** The quoted or bracketed file name the last {@code NAME=VALUE} of {@code defines} gives, or null. */
    private static String named(String macro, List<String> defines) {
        String value = null;
        for (String d : defines) if (d.startsWith(macro + "=")) value = d.substring(macro.length() + 1);
        return value != null && value.matches("\"[^\"\\\\\\s]+\"|<[^<>\\s]+>") ? value : null;
    }

    private static Path resolve(Path file, String name, boolean quoted, List<Path> includePaths, Set<Path> scanned) {
        try {
            if (quoted) {
                Path p = file.getParent().resolve(name).normalize();
                if (scanned.contains(p)) return p;
            }
            for (Path d : includePaths) {
                Path p = d.resolve(name).normalize();
                if (scanned.contains(p)) return p;
            }
        } catch (RuntimeException e) {
            // not a path
        }
        return null;
    }
}
