package dev.numlint.cuda;

import dev.numlint.cuda.parser.CudaLexer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Token-level facts of a function body, read before its walk: how often each name is used and written, the
 * range-guarded variables (compared, or assigned a clamp) and the compensated (Kahan) sums.
 */
final class TokenFacts {
    private final List<PToken> toks;
    private final Map<String, Integer> useCounts = new HashMap<>();
    /**
     * How often each name is written: assigned ({@code =}, {@code +=} ...), incremented or decremented, or has its
     * address taken. A local whose count is 1 has its initializer as its only definition.
     */
    private final Map<String, Integer> defCounts = new HashMap<>();
    /**
     * Range-guarded variables, each with what guards it ("the test 'x < 0.0f' (line 9)"); the walk adds the variables
     * it sees assigned a range-limited value ({@link #assigned}).
     */
    final Map<String, String> guardedVars = new HashMap<>();
    /** Floating lvalues other than plain names ({@code p.w}, {@code a[i]}) assigned a range-limited value, by text. */
    final Map<String, String> guardedTexts = new HashMap<>();
    /** The variables of compensated (Kahan) sums: {@code (t - sum) - y}. */
    final Set<String> compensated = new HashSet<>();

    TokenFacts(List<PToken> toks) {
        this.toks = toks;
        // an early exit's test names the reason first; any other comparison guards the rest
        new EarlyExits(toks).record(guardedVars, guardedTexts);
        prescan();
    }

    /**
     * {@code lhs = v} with a range-limited {@code v} at {@code line}: the variable {@code name} (null for another
     * lvalue, then its {@code text} when floating) is guarded by what limits {@code v} ({@code why}, may be null).
     */
    void assigned(String name, CType type, String text, String why, int line) {
        String w = why != null ? why : "the value assigned at line " + line;
        if (name != null) guardedVars.putIfAbsent(name, w);
        else if (type.isFpScalar() && text != null) guardedTexts.putIfAbsent(text, w);
    }

    /** How often {@code name} appears in the body. */
    int uses(String name) {
        return useCounts.getOrDefault(name, 0);
    }

    /** How often {@code name} is (or may be) written in the body. */
    int writes(String name) {
        return defCounts.getOrDefault(name, 0);
    }

    /** Tokens after a name that write it: assignments, compound assignments, increments. */
    private static boolean writesAfter(int type) {
        return SyntaxQueries.assignsOrSteps(type);
    }

    /** Tokens before a name that write it or may: increments, and taking its address ({@code sincosf(a, &s, &c)}). */
    private static boolean writesBefore(int type) {
        return type == CudaLexer.PLUS_PLUS || type == CudaLexer.MINUS_MINUS || type == CudaLexer.AMP;
    }

    /**
     * Whether the name at token {@code i} is (or may be) written there: assigned, incremented, its address taken
     * ({@code &x}, {@code &(x)}), read into ({@code in >> x}), or passed as a bare argument to a function other than
     * a math builtin ({@code f(a, x)}: a C++ reference parameter may write it).
     */
    private boolean writes(int i) {
        int n = toks.size();
        int next = i + 1 < n ? toks.get(i + 1).getType() : -1;
        if (writesAfter(next)) return true;
        int p = i - 1;
        while (p >= 0 && toks.get(p).getType() == CudaLexer.LPAREN) p--;
        int prev = p >= 0 ? toks.get(p).getType() : -1;
        if (writesBefore(prev)) return true;
        if (prev == CudaLexer.GT && p > 0 && toks.get(p - 1).getType() == CudaLexer.GT) return true;
        int before = i > 0 ? toks.get(i - 1).getType() : -1;
        if (!(before == CudaLexer.LPAREN || before == CudaLexer.COMMA)
                || !(next == CudaLexer.RPAREN || next == CudaLexer.COMMA)) return false;
        // a bare argument: of a call by name (not a cast, not a math function, which take values)
        int depth = 0;
        for (int k = i - 1; k >= 0 && k > i - 400; k--) {
            int ty = toks.get(k).getType();
            if (ty == CudaLexer.RPAREN) depth++;
            else if (ty == CudaLexer.LPAREN && depth-- == 0) {
                if (k == 0 || toks.get(k - 1).getType() != CudaLexer.IDENTIFIER) return false;
                String callee = toks.get(k - 1).getText();
                return !Builtins.FUNCS.containsKey(callee) && !Builtins.CLAMPS.contains(callee);
            }
        }
        return false;
    }

    /**
     * Whether token {@code i} is a comparison ({@code <}, {@code >}, {@code <=}, {@code >=}). The lexer splits
     * {@code >>} into two {@code >} and {@code >>=} into {@code >} and {@code >=} (so that {@code A<B<int>>} closes two
     * template argument lists): a {@code >} next to another {@code >}, or a {@code >=} after one, is a shift or a
     * template's closing bracket, never a test ({@code ((t = (n>>1))<<1) == n} limits nothing).
     */
    static boolean comparison(List<PToken> toks, int i) {
        int ty = toks.get(i).getType();
        if (ty != CudaLexer.LT && ty != CudaLexer.GT && ty != CudaLexer.LE && ty != CudaLexer.GE) return false;
        if (ty == CudaLexer.GT || ty == CudaLexer.GE) {
            if (i > 0 && toks.get(i - 1).getType() == CudaLexer.GT) return false;
        }
        if (ty == CudaLexer.GT && i + 1 < toks.size()) {
            int next = toks.get(i + 1).getType();
            if (next == CudaLexer.GT || next == CudaLexer.GE) return false;
        }
        return true;
    }

    /** The comparison at token {@code i} as a guard's description: "the test 'x < 0.0f' (line 9)". */
    private String test(int i) {
        StringBuilder sb = new StringBuilder();
        for (int k = Math.max(0, i - 1); k <= Math.min(toks.size() - 1, i + 1); k++) {
            if (sb.length() > 0) sb.append(' ');
            sb.append(toks.get(k).getText());
        }
        return "the test '" + sb + "' (line " + toks.get(i).getLine() + ")";
    }

    /** Use counts, write counts, range-guarded variables, compensated (Kahan) sums. */
    private void prescan() {
        int n = toks.size();
        for (int i = 0; i < n; i++) {
            PToken t = toks.get(i);
            int ty = t.getType();
            if (ty == CudaLexer.IDENTIFIER) {
                useCounts.merge(t.getText(), 1, Integer::sum);
                if (writes(i)) defCounts.merge(t.getText(), 1, Integer::sum);
                if (Builtins.CLAMPS.contains(t.getText())
                        && i + 1 < n
                        && toks.get(i + 1).getType() == CudaLexer.LPAREN) {
                    // x = fmaxf(...): the assigned variable is range-limited (the arguments are not: fminf(a, b)
                    // bounds its result, not a and b)
                    if (i >= 2
                            && toks.get(i - 1).getType() == CudaLexer.ASSIGN
                            && toks.get(i - 2).getType() == CudaLexer.IDENTIFIER) {
                        guardedVars.putIfAbsent(
                                toks.get(i - 2).getText(),
                                "'" + toks.get(i - 2).getText() + " = " + t.getText() + "(...)' (line " + t.getLine()
                                        + ")");
                    }
                }
            } else if (comparison(toks, i)) {
                String test = test(i);
                if (i > 0 && toks.get(i - 1).getType() == CudaLexer.IDENTIFIER)
                    guardedVars.putIfAbsent(toks.get(i - 1).getText(), test);
                if (i + 1 < n && toks.get(i + 1).getType() == CudaLexer.IDENTIFIER)
                    guardedVars.putIfAbsent(toks.get(i + 1).getText(), test);
                if (i + 2 < n
                        && toks.get(i + 1).getType() == CudaLexer.MINUS
                        && toks.get(i + 2).getType() == CudaLexer.IDENTIFIER) {
                    guardedVars.putIfAbsent(toks.get(i + 2).getText(), test);
                }
            } else if (ty == CudaLexer.LPAREN
                    && i + 5 < n
                    && toks.get(i + 1).getType() == CudaLexer.IDENTIFIER
                    && toks.get(i + 2).getType() == CudaLexer.MINUS
                    && toks.get(i + 3).getType() == CudaLexer.IDENTIFIER
                    && toks.get(i + 4).getType() == CudaLexer.RPAREN
                    && (toks.get(i + 5).getType() == CudaLexer.MINUS
                            || toks.get(i + 5).getType() == CudaLexer.PLUS)) {
                // (t - sum) - y : Kahan/compensated summation
                compensated.add(toks.get(i + 1).getText());
                compensated.add(toks.get(i + 3).getText());
            }
        }
    }
}
