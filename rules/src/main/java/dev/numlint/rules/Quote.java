package dev.numlint.rules;

/**
 * How messages of every layer quote code: an expression or an instruction is shown on one line, whitespace
 * collapsed, and shortened with "..." beyond a fixed length, so that a finding's message stays one short line (the
 * full text is in the finding's evidence and in SARIF). The CUDA source, PTX and build-flag layers quote through
 * here.
 */
public final class Quote {
    /** Runs of white space (compiled once: quoting is on every finding's path). */
    private static final java.util.regex.Pattern WHITESPACE = java.util.regex.Pattern.compile("\\s+");

    /**
     * The longest finding message: one line that names the expression or instruction and its consequence in this
     * case; the explanation lives in the rule document (issue 12). Tests hold every fixture's messages to it.
     */
    public static final int MESSAGE = 160;

    /** The longest expression quoted in a message, "..." included. */
    public static final int EXPRESSION = 28;

    /** The longest PTX instruction quoted in a message, "..." included. */
    public static final int INSTRUCTION = 32;

    /** The longest build-file condition or other free text quoted in a message, "..." included. */
    public static final int TEXT = 56;

    private Quote() {}

    /**
     * The first {@code shown} of {@code names}, comma-separated, and how many more ("a.c, b.c, c.c and 2 more"): the
     * files a notice folded for many names.
     */
    public static String firstOf(java.util.List<String> names, int shown) {
        java.util.List<String> first = names.subList(0, Math.min(shown, names.size()));
        String more = names.size() > first.size() ? " and " + (names.size() - first.size()) + " more" : "";
        return String.join(", ", first) + more;
    }

    /** {@code text} on one line, at most {@link #EXPRESSION} characters. */
    public static String expression(String text) {
        return shorten(text, EXPRESSION);
    }

    /** {@code text} on one line, at most {@code max} characters. */
    public static String shorten(String text, int max) {
        String t = text == null ? "" : WHITESPACE.matcher(text).replaceAll(" ").strip();
        if (t.endsWith(" ...")) t = t.substring(0, t.length() - 4);
        if (t.length() <= max) return t;
        // a named cast that does not fit gives way to its operand, which a message names the types of ("double to
        // unsigned int"): 'period * sr_ + .5', not 'static_cas...' (session 72 round B)
        java.util.regex.Matcher cast = NAMED_CAST.matcher(t);
        if (cast.matches() && balanced(cast.group(1))) return shorten(cast.group(1), max);
        return t.substring(0, Math.max(1, max - 3)).stripTrailing() + "...";
    }

    private static final java.util.regex.Pattern NAMED_CAST =
            java.util.regex.Pattern.compile("(?:std::)?static_cast\\s*<[^()]*>\\s*\\((.+)\\)");

    /** Whether the parentheses of {@code s} are balanced, never closing one that is not open. */
    public static boolean balanced(String s) {
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '(') depth++;
            else if (s.charAt(i) == ')' && --depth < 0) return false;
        }
        return depth == 0;
    }

    /**
     * {@code message} at most {@link #MESSAGE} characters. Messages are built from templates that fit, but the parts
     * added after a merge ("(PTX confirms)", the copies nearby, a second layer's consequence) can push one over: then
     * the longest quoted code ('...' or `...`) gives up the excess, down to a few characters; where the quotes cannot
     * give up enough, the closing parenthesised remark goes, and only a message that still does not fit is cut at
     * the end. The full text stays in the finding's evidence.
     */
    public static String fit(String message) {
        return fit(message, MESSAGE);
    }

    /** {@link #fit(String)} to at most {@code limit} characters (room left for a remark a review adds). */
    public static String fit(String message, int limit) {
        if (message == null || message.length() <= limit) return message;
        String m = message;
        int spare = 0;
        for (java.util.regex.Matcher q = QUOTED.matcher(m); q.find(); ) {
            spare += Math.max(
                    0,
                    unshortened(q.group().substring(1, q.group().length() - 1)).length() - MIN_QUOTE - 3);
        }
        int remark = m.endsWith(")") ? m.lastIndexOf(" (") : -1;
        if (spare < m.length() - limit && remark > 0) {
            // the quotes cannot give up enough: the closing remark goes ("(+18 copies of this code nearby)",
            // "(PTX confirms)"), which the finding's properties and related locations also carry
            return fit(m.substring(0, remark), limit);
        }
        java.util.Set<Integer> fixed = new java.util.HashSet<>(); // quotes (by start) that cannot give up more
        while (m.length() > limit) {
            java.util.regex.Matcher q = QUOTED.matcher(m);
            int start = -1;
            int end = -1;
            int room = 0;
            while (q.find()) {
                String inner = q.group().substring(1, q.group().length() - 1);
                int kept = unshortened(inner).length();
                if (kept > MIN_QUOTE && kept > room && !fixed.contains(q.start())) {
                    start = q.start();
                    end = q.end();
                    room = kept;
                }
            }
            if (start < 0) break;
            char mark = m.charAt(start);
            String inner = unshortened(m.substring(start + 1, end - 1));
            int keep = Math.max(MIN_QUOTE, inner.length() - (m.length() - limit) - 3);
            String shorter;
            if (mark == '`') {
                // an instruction loses whole operands, never part of a register, and keeps its whole opcode
                int space = inner.indexOf(' ');
                String head = inner.substring(0, Math.max(keep, space < 0 ? inner.length() : space));
                int comma = head.lastIndexOf(',');
                shorter = comma > 0
                        ? head.substring(0, comma) + ", ..."
                        : space > 0 ? inner.substring(0, space) + " ..." : inner;
            } else {
                shorter = wordCut(inner, keep) + "...";
            }
            String next = m.substring(0, start) + mark + shorter + mark + m.substring(end);
            if (next.length() >= m.length()) {
                fixed.add(start); // this quote keeps no less; the positions before it do not move
                continue;
            }
            m = next;
        }
        if (m.length() <= limit) return m;
        // the cut would fall in a second example after "; " ("0 on the GPU; 300 wraps to 44"): it goes whole when what
        // stays is most of the room (session 79 round C: "... 0 on the ...; 1 more like it at line 506")
        int second = m.lastIndexOf("; ");
        if (second > limit / 2 && second <= limit) return m.substring(0, second);
        // the cut would fall in the last clause, a simple one (an example's values: "-69.235 gives 4294967227 on x86,
        // 0 on ..."): it goes whole, when what stays is most of the room (session 74 round B: "0 on ..." hid AArch64)
        int clause = m.lastIndexOf(": ");
        if (clause > limit / 2 && clause <= limit && m.indexOf("; ", clause) < 0) return m.substring(0, clause);
        String cut = wordCut(m, limit - 4);
        while (!cut.isEmpty() && ",;:(".indexOf(cut.charAt(cut.length() - 1)) >= 0) {
            cut = cut.substring(0, cut.length() - 1).stripTrailing();
        }
        return cut + " ...";
    }

    /**
     * The first {@code max} characters of {@code text} or fewer, ending at a word's end: a cut inside a word (or a
     * number, or a register) backs off to the word's start; a text that is one word is cut where it must be.
     */
    static String wordCut(String text, int max) {
        if (text.length() <= max) return text.stripTrailing();
        int end = max;
        while (end > 0 && word(text.charAt(end - 1)) && word(text.charAt(end))) end--;
        if (end == 0) end = max;
        return text.substring(0, end).stripTrailing();
    }

    private static boolean word(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '%';
    }

    private static String unshortened(String quoted) {
        String t = quoted.endsWith(", ...") ? quoted.substring(0, quoted.length() - 5) : quoted;
        return t.endsWith("...") ? t.substring(0, t.length() - 3) : t;
    }

    /**
     * Code quoted in a message: between single quotes that open after a space or '(' and close before no letter or
     * digit (so the apostrophe of "float's" quotes nothing), or between backquotes.
     */
    private static final java.util.regex.Pattern QUOTED =
            java.util.regex.Pattern.compile("(?<![^\\s(])'[^'\\n]{4,}'(?![A-Za-z0-9])|`[^`\\n]{4,}`");

    /** The fewest characters of quoted code that {@link #fit} keeps. */
    private static final int MIN_QUOTE = 10;

    /**
     * A PTX instruction without its trailing ';', at most {@link #INSTRUCTION} characters: operands that do not fit
     * are left out at an operand boundary ({@code mul.f64 %fd125, %fd113, ...}), never in the middle of a register.
     */
    public static String instruction(String text) {
        String t = text == null ? "" : WHITESPACE.matcher(text).replaceAll(" ").strip();
        if (t.endsWith(";")) t = t.substring(0, t.length() - 1).stripTrailing();
        if (t.length() <= INSTRUCTION) return t;
        int cut = t.lastIndexOf(',', INSTRUCTION - 5);
        if (cut > 0) return t.substring(0, cut) + ", ...";
        int space = t.lastIndexOf(' ', INSTRUCTION - 4);
        return (space > 0 ? t.substring(0, space) : t.substring(0, INSTRUCTION - 4)) + " ...";
    }

    /**
     * The head of a PTX instruction, its opcode and first operand ({@code sub.f32 %f36}): how a message names an
     * instruction beside the one it quotes in full.
     */
    public static String instructionHead(String text) {
        String t = text == null ? "" : WHITESPACE.matcher(text).replaceAll(" ").strip();
        if (t.endsWith(";")) t = t.substring(0, t.length() - 1).stripTrailing();
        int comma = t.indexOf(',');
        return shorten(comma > 0 ? t.substring(0, comma) : t, INSTRUCTION);
    }
}
