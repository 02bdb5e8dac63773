package dev.numlint.scan;

import java.util.regex.Pattern;

/**
 * A path glob for {@code --exclude} and the configuration's {@code exclude}: {@code *} matches within one path
 * segment, {@code **} across segments, {@code ?} one character, {@code [abc]} and {@code {a,b}} as usual. A glob
 * without '/' matches a file or directory name at any depth (like .gitignore); one with '/' is matched against the
 * whole path relative to the scan root. A directory that matches is skipped with everything below it.
 */
public final class Glob {
    private final String glob;
    private final Pattern pattern;
    private final boolean anyDepth;

    public Glob(String glob) {
        String g = glob.strip().replace('\\', '/');
        while (g.startsWith("./")) {
            g = g.substring(2);
        }
        if (g.startsWith("/")) {
            g = g.substring(1);
        }
        if (g.endsWith("/")) {
            g = g + "**";
        }
        this.glob = glob;
        this.anyDepth = !g.contains("/");
        try {
            this.pattern = Pattern.compile(toRegex(g));
        } catch (java.util.regex.PatternSyntaxException e) {
            // e.g. a reversed range [z-a]: say so in glob terms rather than leak the regex
            throw new IllegalArgumentException("invalid glob '" + glob + "': " + e.getDescription());
        }
    }

    public String text() {
        return glob;
    }

    /** Whether {@code relative} (a '/'-separated path relative to the root, no leading '/') matches. */
    public boolean matches(String relative) {
        if (relative.isEmpty()) {
            return false;
        }
        if (anyDepth) {
            for (String seg : relative.split("/")) {
                if (pattern.matcher(seg).matches()) {
                    return true;
                }
            }
            return false;
        }
        return pattern.matcher(relative).matches();
    }

    /**
     * Whether a file (a '/'-separated path relative to the root) is excluded by one of {@code globs}: the file
     * matches, or a directory above it does, as when the discovery skipped it.
     */
    public static boolean excludes(java.util.List<Glob> globs, String relativeFile) {
        if (globs.isEmpty() || relativeFile == null || relativeFile.isEmpty() || relativeFile.startsWith("/")) {
            return false;
        }
        for (Glob g : globs) {
            if (g.matches(relativeFile)) {
                return true;
            }
            for (int i = relativeFile.indexOf('/'); i > 0; i = relativeFile.indexOf('/', i + 1)) {
                if (g.matchesDirectory(relativeFile.substring(0, i))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether a directory is excluded: it matches itself, or the glob matches everything below it. */
    public boolean matchesDirectory(String relative) {
        return matches(relative)
                || (!anyDepth && pattern.matcher(relative + "/").matches());
    }

    static String toRegex(String g) {
        StringBuilder re = new StringBuilder();
        int i = 0;
        boolean inBrace = false;
        while (i < g.length()) {
            char c = g.charAt(i);
            switch (c) {
                case '*' -> {
                    if (i + 1 < g.length() && g.charAt(i + 1) == '*') {
                        boolean slashAfter = i + 2 < g.length() && g.charAt(i + 2) == '/';
                        boolean atSegmentStart = i == 0 || g.charAt(i - 1) == '/';
                        if (slashAfter && atSegmentStart) {
                            re.append("(?:.*/)?");
                            i += 3;
                        } else {
                            re.append(".*");
                            i += 2;
                        }
                        continue;
                    }
                    re.append("[^/]*");
                }
                case '?' -> re.append("[^/]");
                case '[' -> {
                    // a class is never empty: a ']' right after '[' or '[!' is a member (as in POSIX globs)
                    int first = i + 1 < g.length() && g.charAt(i + 1) == '!' ? i + 2 : i + 1;
                    int end = g.indexOf(']', first + 1);
                    if (first >= g.length() || end < 0) {
                        throw new IllegalArgumentException("unclosed '[' at position " + (i + 1) + " in glob '" + g
                                + "' (a character class needs its ']'; for a literal '[' write '[[]')");
                    }
                    StringBuilder cls = new StringBuilder();
                    for (int k = first; k < end; k++) {
                        char m = g.charAt(k);
                        if (m == '/') {
                            throw new IllegalArgumentException("'/' inside the character class at position " + (i + 1)
                                    + " in glob '" + g + "' (a class matches one character of a name)");
                        }
                        boolean range = m == '-' && k > first && k + 1 < end;
                        if (!range && "[]&^-\\".indexOf(m) >= 0) {
                            cls.append('\\');
                        }
                        cls.append(m);
                    }
                    re.append(first > i + 1 ? "[^" : "[").append(cls).append(']');
                    i = end;
                }
                case '{' -> {
                    inBrace = true;
                    re.append("(?:");
                }
                case '}' -> {
                    if (inBrace) {
                        inBrace = false;
                        re.append(')');
                    } else {
                        re.append("\\}");
                    }
                }
                case ',' -> re.append(inBrace ? "|" : ",");
                default -> {
                    if ("\\.^$+()|".indexOf(c) >= 0) {
                        re.append('\\');
                    }
                    re.append(c);
                }
            }
            i++;
        }
        if (inBrace) {
            throw new IllegalArgumentException("unclosed '{' in glob '" + g + "'");
        }
        return re.toString();
    }

    @Override
    public String toString() {
        return glob;
    }
}
