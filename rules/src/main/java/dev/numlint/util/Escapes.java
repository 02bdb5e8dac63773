package dev.numlint.util;

/**
 * Makes text from the scanned tree (file names, source snippets, tool messages) safe to print on a terminal: C0 and
 * C1 control characters (ESC starts terminal escape sequences, CR rewrites a line, BEL, BS, ...), DEL and the
 * Unicode bidirectional controls ("Trojan Source": text that displays differently from what it is), every other
 * format character (zero-width spaces and joiners) and the Unicode line and paragraph separators become visible
 * escapes {@code \x1b}, {@code \u202e}. Tab stays. Reports in JSON and SARIF carry the original text (the JSON
 * encoder escapes control characters itself).
 */
public final class Escapes {
    private Escapes() {}

    /** {@code s} with every unsafe character replaced by a visible escape; null stays null. */
    public static String text(String s) {
        if (s == null) {
            return null;
        }
        int i = 0;
        while (i < s.length() && !unsafe(s.charAt(i))) {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length() + 16).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!unsafe(c)) {
                b.append(c);
            } else if (c < 0x100) {
                b.append(String.format("\\x%02x", (int) c));
            } else {
                b.append(String.format("\\u%04x", (int) c));
            }
        }
        return b.toString();
    }

    static boolean unsafe(char c) {
        return (c < 0x20 && c != '\t')
                || (c >= 0x7f && c <= 0x9f)
                || (c >= '\u202a' && c <= '\u202e')
                || (c >= '\u2066' && c <= '\u2069')
                || c == '\u200e'
                || c == '\u200f'
                || c == '\u061c'
                // every other format character (zero-width joiners and spaces, U+FEFF, ...) and the Unicode line and
                // paragraph separators: invisible or line-breaking on a terminal
                || Character.getType(c) == Character.FORMAT
                || c == '\u2028'
                || c == '\u2029';
    }
}
