package dev.numlint.spotbugs.build;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small markdown to HTML conversion for the rule documents shown in SpotBugs' bug details: ATX headings, fenced
 * code blocks, bullet and numbered lists, tables (as preformatted text), paragraphs, and inline code, bold, italic
 * and links. Everything else is escaped text.
 */
final class Markdown {
    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern BULLET = Pattern.compile("^\\s*[-*+]\\s+(.*)$");
    private static final Pattern NUMBERED = Pattern.compile("^\\s*\\d+[.)]\\s+(.*)$");
    private static final Pattern INLINE = Pattern.compile(
            "`([^`]+)`|\\*\\*([^*]+)\\*\\*|(?<![*\\w])\\*([^*\\s][^*]*)\\*(?![*\\w])|\\[([^\\]]+)]\\(([^)\\s]+)\\)");

    private Markdown() {}

    /**
     * Converts {@code md} to HTML; headings are shifted down by {@code headingShift} levels (the bug details already
     * have a title).
     */
    static String toHtml(String md, int headingShift) {
        StringBuilder out = new StringBuilder();
        List<String> para = new ArrayList<>();
        String listTag = null;
        String[] lines = md.replace("\r\n", "\n").split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.trim().startsWith("```")) {
                flush(out, para);
                listTag = closeList(out, listTag);
                String lang = line.trim().substring(3).trim();
                StringBuilder code = new StringBuilder();
                i++;
                while (i < lines.length && !lines[i].trim().startsWith("```")) {
                    code.append(lines[i]).append('\n');
                    i++;
                }
                out.append("<pre><code")
                        .append(lang.isEmpty() ? "" : " class=\"language-" + escape(lang) + "\"")
                        .append('>')
                        .append(escape(code.toString()))
                        .append("</code></pre>\n");
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                flush(out, para);
                listTag = closeList(out, listTag);
                int level = Math.min(6, h.group(1).length() + headingShift);
                out.append("<h")
                        .append(level)
                        .append('>')
                        .append(inline(h.group(2)))
                        .append("</h")
                        .append(level)
                        .append(">\n");
                continue;
            }
            if (line.trim().startsWith("|")) {
                flush(out, para);
                listTag = closeList(out, listTag);
                StringBuilder table = new StringBuilder();
                while (i < lines.length && lines[i].trim().startsWith("|")) {
                    table.append(lines[i]).append('\n');
                    i++;
                }
                i--;
                out.append("<pre>").append(escape(table.toString())).append("</pre>\n");
                continue;
            }
            Matcher b = BULLET.matcher(line);
            Matcher n = NUMBERED.matcher(line);
            if (b.matches() || n.matches()) {
                flush(out, para);
                String tag = b.matches() ? "ul" : "ol";
                if (!tag.equals(listTag)) {
                    closeList(out, listTag);
                    out.append('<').append(tag).append(">\n");
                    listTag = tag;
                }
                StringBuilder item = new StringBuilder(b.matches() ? b.group(1) : n.group(1));
                // continuation lines of the item are indented
                while (i + 1 < lines.length
                        && lines[i + 1].startsWith("  ")
                        && !lines[i + 1].isBlank()
                        && !BULLET.matcher(lines[i + 1]).matches()
                        && !NUMBERED.matcher(lines[i + 1]).matches()) {
                    item.append(' ').append(lines[++i].trim());
                }
                out.append("<li>").append(inline(item.toString())).append("</li>\n");
                continue;
            }
            if (line.isBlank()) {
                flush(out, para);
                listTag = closeList(out, listTag);
                continue;
            }
            listTag = closeList(out, listTag);
            para.add(line.trim());
        }
        flush(out, para);
        closeList(out, listTag);
        return out.toString();
    }

    private static String closeList(StringBuilder out, String listTag) {
        if (listTag != null) {
            out.append("</").append(listTag).append(">\n");
        }
        return null;
    }

    private static void flush(StringBuilder out, List<String> para) {
        if (!para.isEmpty()) {
            out.append("<p>").append(inline(String.join(" ", para))).append("</p>\n");
            para.clear();
        }
    }

    static String inline(String text) {
        StringBuilder sb = new StringBuilder();
        Matcher m = INLINE.matcher(text);
        int last = 0;
        while (m.find()) {
            sb.append(escape(text.substring(last, m.start())));
            if (m.group(1) != null) {
                sb.append("<code>").append(escape(m.group(1))).append("</code>");
            } else if (m.group(2) != null) {
                sb.append("<b>").append(inline(m.group(2))).append("</b>");
            } else if (m.group(3) != null) {
                sb.append("<i>").append(inline(m.group(3))).append("</i>");
            } else {
                sb.append("<a href=\"")
                        .append(escape(m.group(5)))
                        .append("\">")
                        .append(inline(m.group(4)))
                        .append("</a>");
            }
            last = m.end();
        }
        sb.append(escape(text.substring(last)));
        return sb.toString();
    }

    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
