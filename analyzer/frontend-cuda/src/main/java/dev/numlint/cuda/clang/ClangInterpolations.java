package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.cuda.facts.LinearForms;
import java.util.function.Function;

/**
 * The roundings of a function that index a linear interpolation, from Clang's AST (the hand-written front end's
 * {@code Interpolations}): {@code i = (int)floorf(x)} (or {@code floorf(x)}, or {@code (int)x}) held in a variable
 * {@code i}, whose fractional part {@code x - i} the function computes (the weight) and whose neighbour {@code i + 1}
 * it forms. The interpolant {@code (1-w)*a[i] + w*a[i+1]} is continuous in x: where one ulp moves i to the next cell,
 * w moves from 1 to 0 with it.
 */
final class ClangInterpolations {
    private ClangInterpolations() {}

    /** The variable (its declaration or assignment, and USR) that holds an interpolation's index. */
    record Index(ClangNode def, String usr, String name, String value, String raw, Function<String, String> defs) {
        /**
         * Whether {@code e} is algebraically the fractional part {@code x - i} of the floored value over this index
         * ({@link LinearForms}): {@code (x - (i*v + o))/v} for {@code x = (x - o)/v}, {@code x*s - (float)i}.
         */
        boolean fraction(ClangUnit unit, ClangNode e) {
            if (e.kind != CXCursor_BinaryOperator || !"+-*/".contains(e.spelling) || e.spelling.length() != 1)
                return false;
            return LinearForms.fraction(uncast(unit, e), raw, name, defs);
        }
    }

    /**
     * The index variable when {@code rounding} (of {@code operand}) is the index of a linear interpolation in
     * {@code fn}, else null.
     */
    static Index of(ClangUnit unit, ClangNode rounding, ClangNode operand, ClangNode fn) {
        if (operand == null) return null;
        ClangNode cur = rounding;
        ClangNode p = cur.parent;
        while (p != null
                && (p.kind == CXCursor_ParenExpr || p.kind == CXCursor_UnexposedExpr || isExplicitCast(p))
                && p.children.size() == 1) {
            cur = p;
            p = p.parent;
        }
        if (p == null) return null;
        Index index;
        String x = squash(unit, operand);
        String raw = unit.text(operand);
        // the function's definitions: read once per function, not once per site
        Function<String, String> defs = unit.perFunction("interpolation-definitions", fn, () -> definitions(unit, fn));
        if (p.kind == CXCursor_VarDecl && p.usr != null && p.children.get(p.children.size() - 1) == cur) {
            index = new Index(p, p.usr, p.spelling, x, raw, defs);
        } else if (p.kind == CXCursor_BinaryOperator
                && p.spelling.equals("=")
                && p.children.size() == 2
                && p.children.get(1) == cur) {
            ClangNode l = strip(p.children.get(0));
            if (l == null || l.kind != CXCursor_DeclRefExpr || l.refUsr == null) return null;
            index = new Index(p, l.refUsr, l.spelling, x, raw, defs);
        } else {
            return null;
        }
        java.util.Set<String> family = derived(unit, index.usr, fn);
        boolean[] found = new boolean[2];
        fn.forEach(n -> {
            if (n.kind != CXCursor_BinaryOperator || n.children.size() != 2) return;
            ClangNode l = n.children.get(0), r = n.children.get(1);
            if (n.spelling.equals("-") && reads(r, index.usr) && weightOf(unit, l, x, fn)) found[0] = true;
            // the weight in another written form: (x - (i*v + o))/v for x = (x - o)/v
            if (!found[0] && (n.spelling.equals("-") || n.spelling.equals("/")) && index.fraction(unit, n))
                found[0] = true;
            if (n.spelling.equals("+") && (termOfAny(l, family) && one(r) || termOfAny(r, family) && one(l)))
                found[1] = true;
            // the taps of a B-spline or cubic stencil: i + k for the counter k of a loop (PME's igrid + iz)
            if (n.spelling.equals("+")
                    && (termOfAny(l, family) && loopCounter(r) || termOfAny(r, family) && loopCounter(l)))
                found[1] = true;
        });
        return found[0] && found[1] ? index : null;
    }

    /**
     * The initial value's text of a variable that {@code fn} declares once and never assigns, by name (what the
     * algebraic comparison reads such a variable as), else null.
     */
    private static Function<String, String> definitions(ClangUnit unit, ClangNode fn) {
        java.util.Map<String, String> init = new java.util.HashMap<>();
        java.util.Set<String> assigned = new java.util.HashSet<>();
        fn.forEach(n -> {
            if (n.kind == CXCursor_VarDecl && n.spelling != null && !n.children.isEmpty()) {
                ClangNode v = n.children.get(n.children.size() - 1);
                if (clang_isExpressionKind(v.kind) && init.putIfAbsent(n.spelling, unit.text(v)) != null)
                    assigned.add(n.spelling);
            } else if ((n.kind == CXCursor_BinaryOperator && n.spelling.equals("=")
                            || n.kind == CXCursor_CompoundAssignOperator
                            || n.kind == CXCursor_UnaryOperator && (n.spelling.equals("++") || n.spelling.equals("--")))
                    && !n.children.isEmpty()) {
                ClangNode l = strip(n.children.get(0));
                if (l != null && l.kind == CXCursor_DeclRefExpr) assigned.add(l.spelling);
            }
        });
        return v -> assigned.contains(v) ? null : init.get(v);
    }

    /**
     * The index and the variables derived from it: its integer copy ({@code int x_low = (int)dx_low}) and flat
     * indices that hold it as a term ({@code idx = y_low*w + x_low}), a few steps deep.
     */
    private static java.util.Set<String> derived(ClangUnit unit, String usr, ClangNode fn) {
        java.util.Set<String> out = new java.util.HashSet<>(java.util.List.of(usr));
        java.util.List<ClangNode> decls = unit.perFunction("initialized-variables", fn, () -> {
            java.util.List<ClangNode> all = new java.util.ArrayList<>();
            fn.forEach(n -> {
                if (n.kind == CXCursor_VarDecl && n.usr != null && !n.children.isEmpty()) all.add(n);
            });
            return all;
        });
        for (int round = 0; round < 3; round++) {
            boolean grew = false;
            for (ClangNode d : decls) {
                ClangNode init = d.children.get(d.children.size() - 1);
                if (!out.contains(d.usr) && clang_isExpressionKind(init.kind) && termOfAny(init, out))
                    grew |= out.add(d.usr);
            }
            if (!grew) break;
        }
        return out;
    }

    private static boolean termOfAny(ClangNode e, java.util.Set<String> usrs) {
        for (String u : usrs) if (term(e, u)) return true;
        return false;
    }

    /** Whether {@code e} is the floored value (its text), or a local variable initialized to it. */
    static boolean weightOf(ClangUnit unit, ClangNode e, String x, ClangNode fn) {
        ClangNode s = strip(e);
        if (s == null) return false;
        if (squash(unit, s).equals(x)) return true;
        if (s.kind != CXCursor_DeclRefExpr || s.refUsr == null) return false;
        boolean[] same = new boolean[1];
        fn.forEach(n -> {
            if (n.kind == CXCursor_VarDecl && s.refUsr.equals(n.usr) && !n.children.isEmpty()) {
                ClangNode init = n.children.get(n.children.size() - 1);
                if (clang_isExpressionKind(init.kind) && squash(unit, init).equals(x)) same[0] = true;
            }
        });
        return same[0];
    }

    /**
     * The text of {@code e} without its casts to a floating type of integer or floating values ({@code (tfloat)(1 +
     * lowbin) - r} reads as {@code (1 + lowbin) - r}): the forms know the built-in types' casts, not a typedef's, and
     * such a cast of an index changes no value the algebra compares. A cast to an integer (a truncation) stays.
     */
    static String uncast(ClangUnit unit, ClangNode e) {
        String t = unit.text(e);
        java.util.List<ClangNode> casts = new java.util.ArrayList<>();
        e.forEach(n -> {
            if (n.kind == CXCursor_CStyleCastExpr && !n.children.isEmpty() && floating(n.canonKind)) casts.add(n);
        });
        for (ClangNode c : casts) {
            ClangNode op = c.children.get(c.children.size() - 1);
            if (!(integral(op.canonKind) || floating(op.canonKind))) continue;
            String whole = unit.text(c);
            String inner = unit.text(op);
            if (whole.endsWith(inner) && whole.length() > inner.length()) t = t.replace(whole, inner);
        }
        return t;
    }

    static String squash(ClangUnit unit, ClangNode n) {
        return unit.text(n).replaceAll("[\\s()]", "");
    }

    /** Whether {@code e} reads the variable {@code usr}, through casts and parentheses. */
    private static boolean reads(ClangNode e, String usr) {
        ClangNode s = strip(e);
        while (s != null && isExplicitCast(s) && !s.children.isEmpty())
            s = strip(s.children.get(s.children.size() - 1));
        return s != null && s.kind == CXCursor_DeclRefExpr && usr.equals(s.refUsr);
    }

    /** Whether {@code e} is the variable or one term of a sum holding it ({@code iy*width + ix}). */
    private static boolean term(ClangNode e, String usr) {
        if (reads(e, usr)) return true;
        ClangNode s = strip(e);
        return s != null
                && s.kind == CXCursor_BinaryOperator
                && s.spelling.equals("+")
                && s.children.size() == 2
                && (term(s.children.get(0), usr) || term(s.children.get(1), usr));
    }

    /** Whether {@code e} reads the counter of a {@code for} loop, declared in its header. */
    private static boolean loopCounter(ClangNode e) {
        ClangNode s = strip(e);
        if (s == null || s.kind != CXCursor_DeclRefExpr || s.refUsr == null) return false;
        for (ClangNode p = s.parent; p != null; p = p.parent) {
            if (p.kind != CXCursor_ForStmt || p.children.isEmpty()) continue;
            ClangNode init = p.children.get(0);
            boolean[] declared = new boolean[1];
            init.forEach(n -> {
                if (n.kind == CXCursor_VarDecl && s.refUsr.equals(n.usr)) declared[0] = true;
            });
            if (declared[0]) return true;
        }
        return false;
    }

    private static boolean one(ClangNode e) {
        Double v = constant(e);
        return v != null && v == 1.0;
    }
}
