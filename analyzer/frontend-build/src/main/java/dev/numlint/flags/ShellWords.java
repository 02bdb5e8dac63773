package dev.numlint.flags;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a command line the way a POSIX shell does for words (whitespace separates; single quotes, double quotes
 * and backslashes quote), keeping the source position of every word's characters. Variable references are left
 * as written.
 */
final class ShellWords {
    private ShellWords() {}

    static List<PosText> split(PosText s) {
        List<PosText> out = new ArrayList<>();
        PosText.Builder cur = null;
        char quote = 0;
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (quote == 0 && Character.isWhitespace(c)) {
                if (cur != null) {
                    out.add(cur.build());
                    cur = null;
                }
                continue;
            }
            if (cur == null) cur = new PosText.Builder();
            if (quote == 0) {
                if (c == '\'' || c == '"') {
                    quote = c;
                    continue;
                }
                if (c == '\\' && i + 1 < n) {
                    i++;
                    if (s.charAt(i) == '\n') continue;
                    cur.append(s.charAt(i), s.fileAt(i), s.lineAt(i), s.colAt(i), true);
                    continue;
                }
            } else if (c == quote) {
                quote = 0;
                continue;
            } else if (quote == '"' && c == '\\' && i + 1 < n && "\"\\$`".indexOf(s.charAt(i + 1)) >= 0) {
                i++;
                cur.append(s.charAt(i), s.fileAt(i), s.lineAt(i), s.colAt(i), true);
                continue;
            }
            cur.append(c, s.fileAt(i), s.lineAt(i), s.colAt(i), false);
        }
        if (cur != null) out.add(cur.build());
        return out;
    }

    /** Splits plain text (no positions needed). */
    static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        for (PosText p : split(PosText.of(s, -1, 1, 1))) out.add(p.text);
        return out;
    }

    /** Splits at whitespace only (make's word lists: quotes are ordinary characters), keeping positions. */
    static List<PosText> splitPlain(PosText s) {
        List<PosText> out = new ArrayList<>();
        int n = s.length();
        int i = 0;
        while (i < n) {
            while (i < n && Character.isWhitespace(s.charAt(i))) i++;
            int st = i;
            while (i < n && !Character.isWhitespace(s.charAt(i))) i++;
            if (i > st) out.add(s.sub(st, i));
        }
        return out;
    }
}
