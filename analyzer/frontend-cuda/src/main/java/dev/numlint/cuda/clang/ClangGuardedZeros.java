package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.knowledge.NumericFacts;
import java.util.List;

/**
 * Tests of a weight against zero that guard only terms carrying that weight, from Clang's AST (the hand-written front
 * end's {@code GuardedZeros}): {@code w = max(0, 1 - |y - yy|/T); if (w > 0) { s += w; acc += w * v; }} (also written
 * out, {@code img[k] = img[k] + w}), or in a loop {@code if (w == 0) continue;} followed only by such terms (in a
 * function that returns nothing, {@code if (w == 0) return;} followed only by such terms to its end). The test flips only where w crosses 0, and there every
 * term it adds or drops is {@code w * v ~ 0}: the sums are continuous in w. The guarded side may declare locals, run
 * nested counted loops and ifs, and add or subtract (also atomically) products that have w as a factor; it may not count, store, assign
 * anything else, call a function that is not pure math or a texture fetch, or leave the enclosing loop; the other
 * side does nothing.
 */
final class ClangGuardedZeros {
    private ClangGuardedZeros() {}

    /** Whether the comparison {@code cmp}, of the variable its operand {@code side} reads with zero, is such a guard. */
    static boolean guards(ClangNode cmp, ClangNode side) {
        if (cmp.children.size() != 2) return false;
        ClangNode v = strip(side);
        if (v == null || v.kind != CXCursor_DeclRefExpr || v.refUsr == null) return false;
        String w = v.refUsr;
        Double zero = constant(cmp.children.get(0) == side ? cmp.children.get(1) : cmp.children.get(0));
        if (zero == null || zero != 0.0) return false;
        // the test, alone or joined with others by && or ||: where its flip changes the outcome, w is ~0 too
        ClangNode top = cmp;
        while (top.parent != null
                && (top.parent.kind == CXCursor_ParenExpr
                        || top.parent.kind == CXCursor_UnexposedExpr && top.parent.children.size() == 1
                        || top.parent.kind == CXCursor_BinaryOperator
                                && (top.parent.spelling.equals("&&") || top.parent.spelling.equals("||"))))
            top = top.parent;
        ClangNode s = top.parent;
        if (s == null || s.kind != CXCursor_IfStmt || s.children.size() != 2 || s.children.get(0) != top) return false;
        if (onlyTerms(s.children.get(1), w, false)) return true;
        // if (w == 0) continue; in a loop's body, the rest of the body only terms; or if (w == 0) return; in the body
        // of a function that returns nothing, the rest of the function only terms
        ClangNode then = s.children.get(1);
        while (then.kind == CXCursor_CompoundStmt && then.children.size() == 1) then = then.children.get(0);
        boolean skip = then.kind == CXCursor_ContinueStmt;
        if (!skip && !(then.kind == CXCursor_ReturnStmt && then.children.isEmpty())) return false;
        ClangNode body = s.parent;
        if (body == null || body.kind != CXCursor_CompoundStmt || body.parent == null) return false;
        ClangNode loop = body.parent;
        if (skip
                ? loop.kind != CXCursor_ForStmt
                                && loop.kind != CXCursor_WhileStmt
                                && loop.kind != CXCursor_CXXForRangeStmt
                        || loop.children.get(loop.children.size() - 1) != body
                : loop.kind != CXCursor_FunctionDecl
                        && loop.kind != CXCursor_CXXMethod
                        && loop.kind != CXCursor_FunctionTemplate) return false;
        List<ClangNode> ss = body.children;
        for (int k = ss.indexOf(s) + 1; k < ss.size(); k++) if (!onlyTerms(ss.get(k), w, false)) return false;
        return true;
    }

    /**
     * Whether {@code st} does nothing observable but add or subtract terms with {@code w} as a factor; {@code nested}:
     * inside a loop of its own, whose break or continue only drops terms.
     */
    private static boolean onlyTerms(ClangNode st, String w, boolean nested) {
        switch (st.kind) {
            case CXCursor_NullStmt -> {
                return true;
            }
            case CXCursor_CompoundStmt -> {
                for (ClangNode x : st.children) if (!onlyTerms(x, w, nested)) return false;
                return true;
            }
            case CXCursor_BreakStmt, CXCursor_ContinueStmt -> {
                return nested;
            }
            case CXCursor_DeclStmt -> {
                for (ClangNode d : st.children) if (w.equals(d.usr) || !pure(d)) return false;
                return true;
            }
            case CXCursor_IfStmt -> {
                if (st.children.size() < 2 || !pure(st.children.get(0))) return false;
                for (int k = 1; k < st.children.size(); k++)
                    if (!onlyTerms(st.children.get(k), w, nested)) return false;
                return true;
            }
            case CXCursor_ForStmt -> {
                // a counted loop of its own: a declared counter, a pure test, the counter stepped
                List<ClangNode> ch = st.children;
                if (ch.size() != 4 || ch.get(0).kind != CXCursor_DeclStmt) return false;
                if (!pure(ch.get(0)) || !pure(ch.get(1)) || !step(ch.get(2), ch.get(0))) return false;
                return onlyTerms(ch.get(3), w, true);
            }
            case CXCursor_CompoundAssignOperator -> {
                if (!(st.spelling.equals("+=") || st.spelling.equals("-=")) || st.children.size() != 2) return false;
                ClangNode l = strip(st.children.get(0));
                if (l == null || w.equals(l.refUsr)) return false;
                return pure(st.children.get(0))
                        && pure(st.children.get(1))
                        && factor(st.children.get(1), w)
                        && !dividesBy(st.children.get(1), w);
            }
            case CXCursor_BinaryOperator -> {
                // P = P + E, P = E + P, P = P - E: the update written out
                if (!st.spelling.equals("=") || st.children.size() != 2) return false;
                ClangNode l = strip(st.children.get(0));
                ClangNode r = strip(st.children.get(1));
                if (l == null
                        || w.equals(l.refUsr)
                        || r == null
                        || r.kind != CXCursor_BinaryOperator
                        || r.children.size() != 2
                        || !(r.spelling.equals("+") || r.spelling.equals("-"))) return false;
                ClangNode e = same(r.children.get(0), l)
                        ? r.children.get(1)
                        : r.spelling.equals("+") && same(r.children.get(1), l) ? r.children.get(0) : null;
                return e != null && pure(st.children.get(0)) && pure(e) && factor(e, w) && !dividesBy(e, w);
            }
            case CXCursor_CallExpr -> {
                // atomicAdd(P, E) (or another atomic add or subtraction), E a product with w as a factor
                List<ClangNode> args = arguments(st);
                if (!ATOMIC_TERMS.contains(callee(st)) || args.size() != 2) return false;
                return pure(args.get(0)) && pure(args.get(1)) && factor(args.get(1), w) && !dividesBy(args.get(1), w);
            }
            default -> {
                return false;
            }
        }
    }

    /** Whether {@code a} and {@code b} are the same expression (the same names, operators and constants). */
    private static boolean same(ClangNode a, ClangNode b) {
        a = strip(a);
        b = strip(b);
        if (a == null || b == null || a.kind != b.kind || a.children.size() != b.children.size()) return false;
        if (!java.util.Objects.equals(a.spelling, b.spelling)
                || !java.util.Objects.equals(a.refUsr, b.refUsr)
                || !java.util.Objects.equals(constant(a), constant(b))) return false;
        for (int i = 0; i < a.children.size(); i++) if (!same(a.children.get(i), b.children.get(i))) return false;
        return true;
    }

    /** The atomic reductions that add or subtract their operand. */
    private static final java.util.Set<String> ATOMIC_TERMS = java.util.Set.of(
            "atomicAdd", "atomicAdd_block", "atomicAdd_system", "unsafeAtomicAdd", "safeAtomicAdd", "atomicSub");

    /** Whether {@code e} divides by something that reads {@code w} ({@code w * (v / w)} is not 0 at w = 0). */
    private static boolean dividesBy(ClangNode e, String w) {
        boolean[] found = new boolean[1];
        e.forEach(x -> {
            if (x.kind == CXCursor_BinaryOperator && x.spelling.equals("/") && x.children.size() == 2)
                x.children.get(1).forEach(y -> found[0] |= w.equals(y.refUsr));
        });
        return found[0];
    }

    /** Whether {@code w} is a factor of {@code e} (a product, a numerator, a negation, through parentheses). */
    private static boolean factor(ClangNode e, String w) {
        ClangNode x = strip(e);
        if (x == null) return false;
        if (x.kind == CXCursor_DeclRefExpr) return w.equals(x.refUsr);
        if (x.kind == CXCursor_UnaryOperator
                && x.children.size() == 1
                && (x.spelling.equals("-") || x.spelling.equals("+"))) return factor(x.children.get(0), w);
        if (x.kind == CXCursor_BinaryOperator && x.children.size() == 2) {
            if (x.spelling.equals("*")) return factor(x.children.get(0), w) || factor(x.children.get(1), w);
            if (x.spelling.equals("/")) return factor(x.children.get(0), w);
        }
        return false;
    }

    /** The loop's own counter stepped: {@code i++}, {@code ++i}, {@code i += k} of the counter {@code init} declares. */
    private static boolean step(ClangNode inc, ClangNode init) {
        ClangNode v = null;
        if (inc.kind == CXCursor_UnaryOperator
                && inc.children.size() == 1
                && (inc.spelling.equals("++") || inc.spelling.equals("--"))) v = strip(inc.children.get(0));
        else if (inc.kind == CXCursor_CompoundAssignOperator
                && (inc.spelling.equals("+=") || inc.spelling.equals("-="))
                && inc.children.size() == 2
                && pure(inc.children.get(1))) v = strip(inc.children.get(0));
        if (v == null || v.refUsr == null) return false;
        for (ClangNode d : init.children) if (v.refUsr.equals(d.usr)) return true;
        return false;
    }

    /**
     * Whether evaluating {@code n} changes nothing: no assignment, increment, allocation or throw, and calls only of
     * math functions, min/max and texture fetches.
     */
    private static boolean pure(ClangNode n) {
        boolean[] bad = new boolean[1];
        n.forEach(x -> {
            switch (x.kind) {
                case CXCursor_CompoundAssignOperator,
                        CXCursor_CXXNewExpr,
                        CXCursor_CXXDeleteExpr,
                        CXCursor_CXXThrowExpr,
                        CXCursor_LambdaExpr,
                        CXCursor_StmtExpr -> bad[0] = true;
                case CXCursor_BinaryOperator -> bad[0] |= x.spelling.equals("=");
                case CXCursor_UnaryOperator -> bad[0] |= x.spelling.equals("++") || x.spelling.equals("--");
                case CXCursor_CallExpr -> bad[0] |= !pureCall(callee(x));
                default -> {}
            }
        });
        return !bad[0];
    }

    static boolean pureCall(String name) {
        String base = name.startsWith("std::") ? name.substring(5) : name;
        String root = base.replaceAll("^__|f$", "");
        return NumericFacts.TRANSCENDENTAL.contains(root)
                || NumericFacts.NON_NEGATIVE.contains(base)
                || NumericFacts.SELECTION.contains(base)
                || NumericFacts.ROUNDING.contains(base)
                || base.startsWith("sqrt")
                || base.startsWith("rsqrt")
                || base.startsWith("fabs")
                || base.startsWith("make_")
                || base.startsWith("tex")
                || base.startsWith("__ldg")
                || base.startsWith("__f") && base.endsWith("_rn");
    }
}
