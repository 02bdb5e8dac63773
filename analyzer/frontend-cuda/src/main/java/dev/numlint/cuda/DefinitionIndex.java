package dev.numlint.cuda;

import java.util.List;
import java.util.Map;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;

/**
 * How often a name is given a value within a part of a function body ({@link SyntaxQueries#definitions}), from one
 * walk of the body: the positions of every name's definitions, counted within the asked subtree's token range (loops
 * and scopes are asked about many names).
 */
final class DefinitionIndex {
    private final List<PToken> toks;
    /** The function body, once its walk starts; before that each question walks the asked subtree. */
    private ParseTree root;

    private Map<String, int[]> positions;

    DefinitionIndex(List<PToken> toks) {
        this.toks = toks;
    }

    void setRoot(ParseTree root) {
        this.root = root;
    }

    /** The number of definitions of {@code name} in {@code t}. */
    int defs(ParseTree t, String name) {
        if (!(t instanceof ParserRuleContext c) || c.start == null || c.stop == null || root == null) {
            return SyntaxQueries.definitions(t, name);
        }
        if (positions == null) positions = SyntaxQueries.definitionPositions(root, SyntaxQueries.definitionMarks(toks));
        int[] at = positions.get(name);
        if (at == null) return 0;
        int from = java.util.Arrays.binarySearch(at, c.start.getTokenIndex());
        int to = java.util.Arrays.binarySearch(at, c.stop.getTokenIndex() + 1);
        from = from < 0 ? -from - 1 : firstOf(at, from);
        to = to < 0 ? -to - 1 : firstOf(at, to);
        return to - from;
    }

    /** The first index holding the value at {@code i} in sorted {@code a} (binarySearch may land on any). */
    private static int firstOf(int[] a, int i) {
        while (i > 0 && a[i - 1] == a[i]) i--;
        return i;
    }
}
