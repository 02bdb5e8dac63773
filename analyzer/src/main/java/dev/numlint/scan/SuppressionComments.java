package dev.numlint.scan;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * In-source suppressions: {@code // numlint: ignore NL003 -- reason} (also {@code #} and {@code /* ... *}{@code /}
 * comments; several ids separated by commas) on the finding's line or the line above it; "the line above" extends
 * over the block of comment-only lines directly above, so suppressions stack with other comments. The
 * justification after {@code --} is required: a comment without one does not suppress anything and is reported.
 */
final class SuppressionComments {
    private static final Pattern COMMENT = Pattern.compile("(?://+|#|/\\*+)\\s*numlint\\s*:\\s*ignore\\b(.*)");
    private static final Pattern ID = Pattern.compile("NL\\d{3}");
    private static final Pattern ID_LIST = Pattern.compile("\\s*NL\\d{3}(?:\\s*[,\\s]\\s*NL\\d{3})*\\s*,?\\s*");

    /** One suppression comment. {@code justification} is "" when missing; {@code ids} empty when malformed. */
    record Comment(int line, Set<String> ids, String justification) {
        boolean justified() {
            return !justification.isEmpty();
        }
    }

    private SuppressionComments() {
    }

    private static final Pattern COMMENT_ONLY = Pattern.compile("\\s*(?://|#|/\\*|\\*).*");

    /**
     * The first line (1-based) a suppression for {@code line} may sit on: the line above, extended upwards over
     * the comment-only lines directly above it.
     */
    static int commentBlockStart(List<String> lines, int line) {
        int top = line - 1;
        while (top - 1 >= 1 && top - 1 <= lines.size() && top <= lines.size()
                && COMMENT_ONLY.matcher(lines.get(top - 1)).matches()
                && COMMENT_ONLY.matcher(lines.get(top - 2)).matches()) {
            top--;
        }
        return Math.max(top, 1);
    }

    static List<Comment> parse(List<String> lines) {
        List<Comment> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (!l.contains("numlint")) {
                continue;
            }
            Matcher m = COMMENT.matcher(l);
            if (!m.find()) {
                continue;
            }
            String rest = m.group(1);
            int close = rest.indexOf("*/");
            if (close >= 0) {
                rest = rest.substring(0, close);
            }
            String idPart = rest;
            String why = "";
            int dash = rest.indexOf("--");
            if (dash >= 0) {
                idPart = rest.substring(0, dash);
                why = rest.substring(dash + 2).strip();
            }
            Set<String> ids = new LinkedHashSet<>();
            if (ID_LIST.matcher(idPart).matches()) {
                Matcher im = ID.matcher(idPart);
                while (im.find()) {
                    ids.add(im.group());
                }
            }
            out.add(new Comment(i + 1, ids, why));
        }
        return out;
    }
}
