package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The bound a constant step past a constant limit puts on a for loop's trips (a {@link ClangLoops} trip fact, as the
 * hand-written front end's {@code ForLoopTrips.tripBound}): a test {@code v < B} or {@code v <= B} (or {@code B > v})
 * of the condition's conjunction, with B constant, when the increment adds a constant S > 0 to v, nothing else in the
 * loop changes v and v cannot be negative when the loop starts (its initializer's interval, by {@link
 * ClangIntervals}, has no negative value, or it is unsigned; declared before the loop, it is changed by nothing but
 * this increment in the whole function): at most ceil(B / S) trips, so {@code for (k = threadIdx.x; k < 8; k += 8)}
 * runs at most once per thread.
 */
final class ClangStepBounds {
    private static final java.util.regex.Pattern BUILT_IN_INDEX =
            java.util.regex.Pattern.compile("(threadIdx|blockIdx|blockDim|gridDim)\\.[xyz]");

    private final ClangUnit unit;

    ClangStepBounds(ClangUnit unit) {
        this.unit = unit;
    }

    /** The most trips of {@code loop} (a for statement of {@code fn}) by such a test, or -1. */
    long of(ClangNode loop, ClangUnit.Function fn) {
        if (loop.kind != CXCursor_ForStmt || loop.children.size() < 3) return -1;
        List<ClangNode> ch = loop.children;
        ClangNode body = ch.get(ch.size() - 1);
        ClangNode inc = ch.get(ch.size() - 2);
        ClangNode cond = ch.get(ch.size() - 3);
        ClangNode init = ch.size() >= 4 ? ch.get(ch.size() - 4) : null;
        Map<String, Double> steps = new HashMap<>();
        if (!steps(inc, steps) || steps.isEmpty()) return -1;
        List<ClangNode> tests = new ArrayList<>();
        conjuncts(cond, tests);
        long best = -1;
        for (ClangNode t : tests) {
            if (t.kind != CXCursor_BinaryOperator || t.children.size() != 2) continue;
            ClangNode l = strip(t.children.get(0));
            ClangNode r = strip(t.children.get(1));
            ClangNode var;
            Double bound;
            boolean inclusive;
            switch (t.spelling) {
                case "<", "<=" -> {
                    var = l;
                    bound = constant(t.children.get(1));
                    inclusive = t.spelling.equals("<=");
                }
                case ">", ">=" -> {
                    var = r;
                    bound = constant(t.children.get(0));
                    inclusive = t.spelling.equals(">=");
                }
                default -> {
                    continue;
                }
            }
            if (var == null || var.kind != CXCursor_DeclRefExpr || var.refUsr == null || bound == null) continue;
            Double step = steps.get(var.refUsr);
            // the increment, and nothing else (but the initialization's assignment, for (j = 0; ...))
            int inInit = assigned(init, var.refUsr) != null ? writes(init, var.refUsr) : 0;
            if (step == null || writes(loop, var.refUsr) - inInit != 1) continue;
            if (!startsNonNegative(var.refUsr, init, fn)) continue;
            double b = bound;
            long n = b < 0 || (b == 0 && !inclusive)
                    ? 0
                    : inclusive ? (long) Math.floor(b / step) + 1 : (long) Math.ceil(b / step);
            if (best < 0 || n < best) best = n;
        }
        return best;
    }

    /** The constant steps of an increment ({@code v++}, {@code ++v}, {@code v += S}, comma lists); false otherwise. */
    private static boolean steps(ClangNode inc, Map<String, Double> out) {
        ClangNode x = strip(inc);
        if (x == null) return false;
        if (x.kind == CXCursor_BinaryOperator && x.spelling.equals(",") && x.children.size() == 2) {
            return steps(x.children.get(0), out) && steps(x.children.get(1), out);
        }
        if (x.kind == CXCursor_UnaryOperator && x.spelling.equals("++") && x.children.size() == 1) {
            ClangNode v = strip(x.children.get(0));
            if (v != null && v.kind == CXCursor_DeclRefExpr && v.refUsr != null) out.put(v.refUsr, 1.0);
            return true;
        }
        if (x.kind == CXCursor_CompoundAssignOperator && x.spelling.equals("+=") && x.children.size() == 2) {
            ClangNode v = strip(x.children.get(0));
            Double s = constant(x.children.get(1));
            if (v != null && v.kind == CXCursor_DeclRefExpr && v.refUsr != null && s != null && s > 0)
                out.put(v.refUsr, s);
            return true;
        }
        // another increment (a decrement, an assignment): it steps no counter this bound follows
        return x.kind == CXCursor_UnaryOperator
                || x.kind == CXCursor_CompoundAssignOperator
                || x.kind == CXCursor_BinaryOperator && x.spelling.equals("=");
    }

    private static void conjuncts(ClangNode e, List<ClangNode> out) {
        ClangNode x = strip(e);
        if (x == null) return;
        if (x.kind == CXCursor_BinaryOperator && x.spelling.equals("&&") && x.children.size() == 2) {
            conjuncts(x.children.get(0), out);
            conjuncts(x.children.get(1), out);
        } else {
            out.add(x);
        }
    }

    /**
     * Whether the counter {@code usr} cannot be negative when the loop starts: declared in the loop's initialization,
     * or before the loop and changed by nothing but the loop's increment, with an initializer that cannot be negative
     * (or an unsigned type).
     */
    private boolean startsNonNegative(String usr, ClangNode init, ClangUnit.Function fn) {
        ClangNode start = assigned(init, usr);
        if (start != null) {
            // for (j = 0; ...) of a counter declared before the loop: the value the initialization assigns
            if (unit.interval(start, fn)[0] >= 0) return true;
            ClangNode inner = strip(start);
            return inner != null
                    && BUILT_IN_INDEX.matcher(squash(unit.text(inner))).matches();
        }
        ClangNode decl = null;
        if (init != null && init.kind == CXCursor_DeclStmt) {
            for (ClangNode d : init.children) if (d.kind == CXCursor_VarDecl && usr.equals(d.usr)) decl = d;
        }
        if (decl == null) {
            ClangNode[] found = new ClangNode[1];
            fn.node().forEach(x -> {
                if (x.kind == CXCursor_VarDecl && usr.equals(x.usr)) found[0] = x;
            });
            decl = found[0];
            // a counter declared before the loop: its initializer is its value only when nothing else writes it
            if (decl == null || writes(fn.node(), usr) != 1) return false;
        }
        if (decl.canonKind >= CXType_Bool && decl.canonKind <= CXType_UInt128) return true;
        if (decl.children.isEmpty()) return false;
        ClangNode value = decl.children.get(decl.children.size() - 1);
        if (!clang_isExpressionKind(value.kind)) return false;
        if (unit.interval(value, fn)[0] >= 0) return true;
        // a CUDA built-in index (threadIdx.x ...): unsigned and below 2^31, so non-negative as a signed int too
        ClangNode inner = strip(value);
        return inner != null && BUILT_IN_INDEX.matcher(squash(unit.text(inner))).matches();
    }

    /** How many writes of the variable {@code usr} (assignments, increments, its address taken) lie in {@code n}. */
    static int writes(ClangNode n, String usr) {
        int[] count = new int[1];
        n.forEach(x -> {
            if (ClangLoops.writes(x, usr)) count[0]++;
            else if (x.kind == CXCursor_DeclRefExpr && usr.equals(x.refUsr) && aliases(x)) count[0]++;
        });
        return count[0];
    }

    /**
     * The value a for loop's initialization {@code init} assigns to {@code usr} ({@code j = 0}, or one part of {@code
     * i = 0, j = 0}), or null (session 56: an audio encoder's {@code for (j = 0; j < 16; j += 4)} with {@code int j}
     * declared at the top of the function was an unbounded sum).
     */
    private static ClangNode assigned(ClangNode init, String usr) {
        ClangNode x = init == null ? null : strip(init);
        if (x == null || x.kind != CXCursor_BinaryOperator || x.children.size() != 2) return null;
        if (x.spelling.equals(",")) {
            ClangNode a = assigned(x.children.get(0), usr);
            return a != null ? a : assigned(x.children.get(1), usr);
        }
        if (!x.spelling.equals("=")) return null;
        ClangNode l = strip(x.children.get(0));
        return l != null && l.kind == CXCursor_DeclRefExpr && usr.equals(l.refUsr) ? x.children.get(1) : null;
    }
}
