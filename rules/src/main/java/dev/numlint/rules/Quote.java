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

    /** {@code text} on one line, at most {@link #EXPRESSION} characters. */
    public static String expression(String text) {
        return shorten(text, EXPRESSION);
    }

    /** {@code text} on one line, at most {@code max} characters. */
    public static String shorten(String text, int max) {
        String t = text == null ? "" : WHITESPACE.matcher(text).replaceAll(" ").strip();
        if (t.endsWith(" ...")) t = t.substring(0, t.length() - 4);
        if (t.length() <= max) return t;
        return t.substring(0, Math.max(1, max - 3)).stripTrailing() + "...";
    }

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
