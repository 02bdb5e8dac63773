package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * How a write steps a loop counter, for {@link ClangElements}: the direction of a step by a non-zero constant
 * ({@code ++}, {@code += c}, {@code v = v - c}), the amount of a step ({@code v += a}), the counters a do loop's
 * condition steps, and whether a loop body may end an iteration early (a break or goto).
 */
final class ClangCounterSteps {
    private ClangCounterSteps() {}

    /**
     * The variables a do loop's condition steps by a non-zero constant, once, and its body never writes
     * ({@code c} of {@code do { ... } while (++c < C);}): every iteration sees another value of each.
     */
    static List<String> doCounters(ClangNode loop) {
        Map<String, Integer> stepped = new java.util.LinkedHashMap<>();
        java.util.Set<String> bad = new HashSet<>();
        loop.children.get(1).forEach(x -> {
            if (x.children.isEmpty()) return;
            ClangNode t = strip(x.children.get(0));
            if (t == null || t.kind != CXCursor_DeclRefExpr || t.refUsr == null) return;
            String var = t.refUsr;
            if (!ClangLoops.writes(x, var)) return;
            if (stepSign(x, var) != 0) stepped.merge(var, 1, Integer::sum);
            else bad.add(var);
        });
        List<String> out = new ArrayList<>();
        for (var e : stepped.entrySet()) {
            String var = e.getKey();
            if (e.getValue() != 1 || bad.contains(var)) continue;
            boolean[] written = new boolean[1];
            loop.children.get(0).forEach(x -> {
                if (ClangLoops.writes(x, var)) written[0] = true;
            });
            if (!written[0]) out.add(var);
        }
        return out;
    }

    /**
     * The direction of a write {@code x} of {@code var} that steps it by a non-zero constant: {@code ++},
     * {@code --}, {@code += c}, {@code -= c}, {@code v = v + c}, {@code v = c + v}, {@code v = v - c}; +1 up,
     * -1 down, 0 for any other write.
     */
    static int stepSign(ClangNode x, String var) {
        if (x.kind == CXCursor_UnaryOperator) {
            return x.spelling.equals("++") ? 1 : x.spelling.equals("--") ? -1 : 0;
        }
        Step st = step(x, var);
        Double c = st == null ? null : constant(st.amount());
        return c == null || c == 0 || c != Math.rint(c) ? 0 : c > 0 ? st.sign() : -st.sign();
    }

    /** The amount a write adds to or subtracts from ({@code sign} -1) its variable. */
    record Step(ClangNode amount, int sign) {}

    /**
     * The step of a write {@code x} of {@code var} by an amount: {@code v += a}, {@code v -= a}, {@code v = v + a},
     * {@code v = a + v}, {@code v = v - a}; null for any other write.
     */
    static Step step(ClangNode x, String var) {
        if (x.children.size() != 2) return null;
        if (x.kind == CXCursor_CompoundAssignOperator && (x.spelling.equals("+=") || x.spelling.equals("-="))) {
            return new Step(x.children.get(1), x.spelling.equals("-=") ? -1 : 1);
        }
        if (x.kind != CXCursor_BinaryOperator || !x.spelling.equals("=")) return null;
        ClangNode r = strip(x.children.get(1));
        if (r == null || r.kind != CXCursor_BinaryOperator || r.children.size() != 2) return null;
        if (!r.spelling.equals("+") && !r.spelling.equals("-")) return null;
        boolean left = reads(r.children.get(0), var);
        boolean right = r.spelling.equals("+") && reads(r.children.get(1), var);
        if (left == right) return null;
        return new Step(r.children.get(left ? 1 : 0), r.spelling.equals("-") ? -1 : 1);
    }

    /** Whether {@code e} is the variable {@code var} itself. */
    private static boolean reads(ClangNode e, String var) {
        ClangNode s = strip(e);
        return s != null && s.kind == CXCursor_DeclRefExpr && var.equals(s.refUsr);
    }

    /** Whether {@code body} holds a break or goto (the loop may end without its increment). */
    static boolean exits(ClangNode body) {
        boolean[] hit = new boolean[1];
        body.forEach(n -> {
            if (n.kind == CXCursor_BreakStmt || n.kind == CXCursor_GotoStmt) hit[0] = true;
        });
        return hit[0];
    }
}
