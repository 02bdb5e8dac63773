package dev.numlint.cuda;

import java.util.Set;
import org.antlr.v4.runtime.CommonToken;
import org.antlr.v4.runtime.Token;

/** A token after preprocessing: own text, the original line, and the macros it came from (hide set). */
final class PToken extends CommonToken {
    private static final long serialVersionUID = 1L;
    /** Macros whose expansion produced this token (never re-expanded inside them); empty for source tokens. */
    final transient Set<String> hide;
    /** The macro invocation this token came from, or null. */
    final String fromMacro;

    PToken(int type, String text, int line, int col, Set<String> hide, String fromMacro) {
        super(type, text);
        setLine(line);
        setCharPositionInLine(col);
        this.hide = hide;
        this.fromMacro = fromMacro;
    }

    static PToken of(Token t) {
        return new PToken(t.getType(), t.getText(), t.getLine(), t.getCharPositionInLine(), Set.of(), null);
    }

    /**
     * Under --all-configurations: the preprocessor condition of the inactive branch this token comes from
     * ("!defined(FAST_PATH)"); null for code of the analyzed configuration.
     */
    String condition;

    PToken at(int line, int col, Set<String> hideSet, String macro) {
        PToken t = new PToken(getType(), getText(), line, col, hideSet, macro);
        t.condition = condition;
        return t;
    }

    PToken copy() {
        return at(getLine(), getCharPositionInLine(), hide, fromMacro);
    }
}
