package dev.numlint.spotbugs.build;

import java.util.List;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Heading;
import org.commonmark.node.Node;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * The rule documents (Markdown) as HTML for SpotBugs' bug details, through commonmark-java with GFM tables: raw HTML
 * in a document is escaped, not passed through, and links with unsafe schemes lose their target.
 */
final class Markdown {
    private static final List<Extension> EXTENSIONS = List.of(TablesExtension.create());
    private static final Parser PARSER = Parser.builder().extensions(EXTENSIONS).build();
    private static final HtmlRenderer RENDERER = HtmlRenderer.builder()
            .extensions(EXTENSIONS)
            .escapeHtml(true)
            .sanitizeUrls(true)
            .build();

    private Markdown() {}

    /**
     * Converts {@code md} to HTML; headings are shifted down by {@code headingShift} levels (the bug details already
     * have a title).
     */
    static String toHtml(String md, int headingShift) {
        Node doc = PARSER.parse(md);
        doc.accept(new AbstractVisitor() {
            @Override
            public void visit(Heading h) {
                h.setLevel(Math.min(6, h.getLevel() + headingShift));
                visitChildren(h);
            }
        });
        return RENDERER.render(doc);
    }

    /** Text for HTML element content and quoted attribute values (the descriptors' single-line fields). */
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
