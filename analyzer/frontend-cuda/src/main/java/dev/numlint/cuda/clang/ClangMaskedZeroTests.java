package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A sign test of a variable that a zero test of the same variable masks, in one {@code ||} or {@code &&}: {@code area
 * > 0 || IsZero(area)}, {@code !(IsZero(of) || of > 0)}, {@code x < 0 && fabs(x) > 1e-9} (not {@code x > 0 ||
 * fabs(x) > eps}, where the sign test alone decides near zero). Where the value is within the tolerance of zero the
 * outcome is the zero test's, whichever sign an ulp gives it, so the sign test decides nothing there; the compound
 * test changes only at the tolerance, a threshold the value must reach, not the zero a cancellation lands on (session
 * 81 round K: a particle solver's {@code LeftOn} and {@code IsWithin} tests, two NL003 warnings judged false). Clang's
 * uses leave such a comparison out ({@link ClangUses}).
 */
final class ClangMaskedZeroTests {
    private ClangMaskedZeroTests() {}

    /** A function that tests a value for zero within a tolerance: IsZero, is_zero, nearlyZero, ApproxZero, isNearZero. */
    private static final Pattern ZERO_TEST =
            Pattern.compile("(?i)(is_?)?(near(ly)?_?|almost_?|approx(imately)?_?)?zero");

    private static final Pattern ABS = Pattern.compile("(std::)?(f?abs[fl]?|__habs)");

    private static final List<String> RELATIONS = List.of("<", "<=", ">", ">=");

    /**
     * Whether {@code cmp}, a relational comparison, is a sign test that a zero test masks: in {@code S || Z} a Z that
     * holds near zero, in {@code S && Z} one that fails there (see the class comment).
     */
    static boolean masked(ClangNode cmp) {
        if (cmp.children.size() != 2 || !RELATIONS.contains(cmp.spelling)) return false;
        ClangNode l = strip(cmp.children.get(0));
        ClangNode r = strip(cmp.children.get(1));
        ClangNode v = zero(r) ? l : zero(l) ? r : null;
        if (v == null || v.kind != CXCursor_DeclRefExpr || v.refUsr == null) return false;
        // up through parentheses to the || or && that holds it, then its other operand
        ClangNode at = cmp;
        ClangNode p = at.parent;
        while (p != null && p.kind == CXCursor_ParenExpr) {
            at = p;
            p = p.parent;
        }
        if (p == null || p.kind != CXCursor_BinaryOperator || p.children.size() != 2) return false;
        if (!p.spelling.equals("||") && !p.spelling.equals("&&")) return false;
        ClangNode other = strip(p.children.get(0) == at ? p.children.get(1) : p.children.get(0));
        // near zero, S || Z is Z's when Z holds there, S && Z is Z's when Z fails there
        Boolean nearZero = zeroTest(other, v.refUsr);
        return nearZero != null && nearZero == p.spelling.equals("||");
    }

    /**
     * What {@code e} says of the variable {@code usr} where it is within a tolerance of zero: true for a zero test
     * ({@code IsZero(x)}, {@code fabs(x) < eps}), false for its negation ({@code !IsZero(x)}, {@code fabs(x) > eps});
     * null when {@code e} is neither.
     */
    private static Boolean zeroTest(ClangNode e, String usr) {
        if (e == null) return null;
        if (e.kind == CXCursor_UnaryOperator && e.spelling.equals("!") && e.children.size() == 1) {
            Boolean inner = zeroTest(strip(e.children.get(0)), usr);
            return inner == null ? null : !inner;
        }
        if (e.kind == CXCursor_CallExpr) {
            String name = callee(e);
            if (name == null) return null;
            name = name.substring(name.lastIndexOf(':') + 1);
            List<ClangNode> args = arguments(e);
            return ZERO_TEST.matcher(name).matches() && args.size() == 1 && refers(args.get(0), usr) ? true : null;
        }
        if (e.kind == CXCursor_BinaryOperator && e.children.size() == 2 && RELATIONS.contains(e.spelling)) {
            ClangNode a = strip(e.children.get(0));
            ClangNode b = strip(e.children.get(1));
            // |x| < c, |x| <= c (or c > |x|): holds near zero; |x| > c, |x| >= c: fails there
            if (absOf(a, usr) && positiveConstant(b)) return e.spelling.startsWith("<");
            if (absOf(b, usr) && positiveConstant(a)) return e.spelling.startsWith(">");
        }
        return null;
    }

    private static boolean absOf(ClangNode e, String usr) {
        if (e == null || e.kind != CXCursor_CallExpr) return false;
        String name = callee(e);
        List<ClangNode> args = arguments(e);
        return name != null && ABS.matcher(name).matches() && args.size() == 1 && refers(args.get(0), usr);
    }

    private static boolean refers(ClangNode e, String usr) {
        ClangNode s = strip(e);
        return s != null && s.kind == CXCursor_DeclRefExpr && usr.equals(s.refUsr);
    }

    private static boolean zero(ClangNode e) {
        Double k = e == null ? null : constant(e);
        return k != null && k == 0;
    }

    /** A positive constant: a literal, or a named constant whose value Clang gives. */
    private static boolean positiveConstant(ClangNode e) {
        if (e == null) return false;
        Double k = constant(e);
        if (k == null && e.value != null) k = e.value;
        return k != null && k > 0;
    }
}
