package dev.numlint.rules;

/**
 * A rule's page, {@code docs/rules/<ID>-<name>.md}, is both what users read and the rule's document: a header that
 * {@code numlint docs} generates from the catalog (id, level, category, CWE, layers, options, summary), then
 * {@link #MARKER}, then the document its author writes (the four sections), then a "References" section generated
 * from the works the document cites ({@link Bibliography#withReferences}). The rules jar carries the pages; the
 * catalog reads the author's part with {@link #source}.
 */
public final class RuleDocument {
    /** Ends the generated header; an HTML comment, so the rendered page shows nothing of it. */
    public static final String MARKER = "<!-- numlint: the rule's document follows; edit it below this line. -->";

    private static final String REFERENCES = "\n## References\n";

    private RuleDocument() {}

    /** The page's file name in docs/rules/ (and in the jar, under dev/numlint/rules/docs/). */
    public static String fileName(String id, String name) {
        return id + "-" + name + ".md";
    }

    /**
     * The author's document in {@code page}: the text after the {@link #MARKER} line (the whole page when it has
     * none, e.g. a page the scaffold has just created), without the generated "References" section at its end,
     * with {@code \n} line ends and one final newline.
     */
    public static String source(String page) {
        String text = page.replace("\r\n", "\n");
        int m = text.indexOf(MARKER + "\n");
        if (m >= 0) {
            text = text.substring(m + MARKER.length() + 1);
        }
        text = text.strip();
        int refs = text.lastIndexOf(REFERENCES);
        if (refs >= 0) {
            text = text.substring(0, refs).strip();
        }
        return text + "\n";
    }
}
