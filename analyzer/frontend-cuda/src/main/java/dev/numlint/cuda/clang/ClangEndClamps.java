package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;

/**
 * A test that clamps a value to an end of the table it otherwise interpolates, from Clang's AST (the hand-written
 * front end's {@code EndClamps}): {@code if (v <= 0) P = a[E(0)]; else if (v >= L) P = a[E(M)]; else { i = (int)v;
 * w = v - i; P = (1-w)*a[E(i)] + w*a[E(i+1)]; }} with {@code L = float(M)}. At the bound the interpolation's index is
 * the bound and its weight 0, so it gives exactly the entry the clamp writes: the test flips between two branches that
 * agree where it flips (continuous). The interpolation is {@link ClangInterpolations}'; the clamp writes the place
 * the interpolation writes, from the subscript the interpolation reads with the index replaced by the bound (an
 * integer constant, or {@code M} for a bound written {@code float(M)}, {@code (float)M} or through a variable the
 * function initializes to one of them and does not assign).
 */
final class ClangEndClamps {
    private ClangEndClamps() {}

    static boolean clamps(ClangUnit unit, ClangNode cmp, ClangNode side, ClangNode fn) {
        if (cmp.children.size() != 2) return false;
        ClangNode v = strip(side);
        if (v == null || v.kind != CXCursor_DeclRefExpr || v.refUsr == null) return false;
        ClangNode bound = cmp.children.get(0) == side ? cmp.children.get(1) : cmp.children.get(0);
        ClangNode q = cmp;
        while (q.parent != null
                && (q.parent.kind == CXCursor_ParenExpr
                        || q.parent.kind == CXCursor_UnexposedExpr && q.parent.children.size() == 1)) q = q.parent;
        ClangNode s = q.parent;
        if (s == null || s.kind != CXCursor_IfStmt || s.children.size() != 3 || s.children.get(0) != q) return false;
        ClangNode clamp = assignment(s.children.get(1));
        ClangNode end = clamp == null ? null : strip(clamp.children.get(1));
        if (end == null || end.kind != CXCursor_ArraySubscriptExpr || end.children.size() != 2) return false;
        // the interpolation: the last branch of the else-if chain
        ClangNode last = s.children.get(2);
        while (last.kind == CXCursor_IfStmt && last.children.size() == 3) last = last.children.get(2);
        if (last.kind != CXCursor_CompoundStmt) return false;
        String place = squash(unit, clamp.children.get(0));
        String index = null;
        String[] indexUsr = new String[1];
        ClangNode lerp = null;
        for (ClangNode st : last.children) {
            if (st.kind == CXCursor_DeclStmt && index == null)
                for (ClangNode d : st.children)
                    if (index == null) {
                        index = roundingOf(unit, d, v.refUsr, fn);
                        indexUsr[0] = d.usr;
                    }
            ClangNode a = assignment(st);
            if (a != null && squash(unit, a.children.get(0)).equals(place)) lerp = a.children.get(1);
        }
        if (index == null || lerp == null || writes(unit, last, place) != 1) return false;
        String array = squash(unit, end.children.get(0));
        String written = squash(unit, end.children.get(1));
        List<String> ends = ends(unit, bound, fn);
        java.util.regex.Pattern i =
                java.util.regex.Pattern.compile("\\b" + java.util.regex.Pattern.quote(index) + "\\b");
        // the interpolant (1 - f) * A[Y] + f * A[Y'] (factors and terms in any order), f the fractional part v - i
        ClangNode sum = strip(lerp);
        if (sum == null || sum.kind != CXCursor_BinaryOperator || !sum.spelling.equals("+") || sum.children.size() != 2)
            return false;
        for (int k = 0; k < 2; k++) {
            List<ClangNode> near = factors(sum.children.get(k)), far = factors(sum.children.get(1 - k));
            ClangNode f = null;
            boolean at = false;
            for (ClangNode x : near) {
                if (x.kind == CXCursor_BinaryOperator && x.spelling.equals("-") && x.children.size() == 2) {
                    Double c = constant(x.children.get(0));
                    if (c != null && c == 1.0) f = strip(x.children.get(1));
                }
                if (x.kind == CXCursor_ArraySubscriptExpr
                        && x.children.size() == 2
                        && squash(unit, x.children.get(0)).equals(array))
                    for (String b : ends)
                        at |= i.matcher(squash(unit, x.children.get(1)))
                                .replaceAll(java.util.regex.Matcher.quoteReplacement(b))
                                .equals(written);
            }
            if (f == null || !at || !fraction(f, v.refUsr, indexUsr[0], fn)) continue;
            boolean weight = false, other = false;
            for (ClangNode x : far) {
                if (squash(unit, x).equals(squash(unit, f))) weight = true;
                if (x.kind == CXCursor_ArraySubscriptExpr
                        && x.children.size() == 2
                        && squash(unit, x.children.get(0)).equals(array)) other = true;
            }
            if (weight && other) return true;
        }
        return false;
    }

    /** The factors of a product (through parentheses and implicit conversions), or the expression itself. */
    private static List<ClangNode> factors(ClangNode e) {
        List<ClangNode> out = new ArrayList<>();
        ClangNode x = strip(e);
        if (x == null) return out;
        if (x.kind == CXCursor_BinaryOperator && x.spelling.equals("*") && x.children.size() == 2) {
            out.addAll(factors(x.children.get(0)));
            out.addAll(factors(x.children.get(1)));
        } else {
            out.add(x);
        }
        return out;
    }

    /**
     * Whether {@code f} is the fractional part of the variable {@code v} over the index {@code i}: {@code v - i}
     * (through casts of i), or a variable the function initializes to it and does not assign.
     */
    private static boolean fraction(ClangNode f, String v, String i, ClangNode fn) {
        ClangNode d = f;
        if (i == null) return false;
        if (f.kind == CXCursor_DeclRefExpr && f.refUsr != null) {
            ClangNode[] def = new ClangNode[1];
            boolean[] assigned = new boolean[1];
            fn.forEach(n -> {
                if (n.kind == CXCursor_VarDecl && f.refUsr.equals(n.usr) && !n.children.isEmpty())
                    def[0] = n.children.get(n.children.size() - 1);
                if ((n.kind == CXCursor_BinaryOperator && n.spelling.equals("=")
                                || n.kind == CXCursor_CompoundAssignOperator)
                        && !n.children.isEmpty()) {
                    ClangNode l = strip(n.children.get(0));
                    if (l != null && f.refUsr.equals(l.refUsr)) assigned[0] = true;
                }
            });
            if (def[0] == null || assigned[0]) return false;
            d = strip(def[0]);
        }
        if (d == null || d.kind != CXCursor_BinaryOperator || !d.spelling.equals("-") || d.children.size() != 2)
            return false;
        ClangNode l = strip(d.children.get(0)), r = strip(d.children.get(1));
        while (r != null && isExplicitCast(r) && !r.children.isEmpty())
            r = strip(r.children.get(r.children.size() - 1));
        return l != null && v.equals(l.refUsr) && r != null && r.kind == CXCursor_DeclRefExpr && i.equals(r.refUsr);
    }

    /** How many statements of {@code block} assign {@code place} (any assignment operator). */
    private static int writes(ClangUnit unit, ClangNode block, String place) {
        int n = 0;
        for (ClangNode st : block.children)
            if ((st.kind == CXCursor_BinaryOperator && st.spelling.equals("=")
                            || st.kind == CXCursor_CompoundAssignOperator)
                    && !st.children.isEmpty()
                    && squash(unit, st.children.get(0)).equals(place)) n++;
        return n;
    }

    /** The name of the index {@code d} declares as a rounding of the variable {@code v} that indexes a linear
     * interpolation, or null. */
    private static String roundingOf(ClangUnit unit, ClangNode d, String v, ClangNode fn) {
        if (d.kind != CXCursor_VarDecl || d.children.isEmpty()) return null;
        ClangNode e = strip(d.children.get(d.children.size() - 1));
        ClangNode rounding = null;
        // (int)v, int(v), (int)floorf(v), floorf(v): the innermost rounding of v
        for (int k = 0; k < 3 && e != null; k++) {
            if (e.kind == CXCursor_DeclRefExpr && v.equals(e.refUsr)) break;
            rounding = e;
            if (isExplicitCast(e) && !e.children.isEmpty()) e = strip(e.children.get(e.children.size() - 1));
            else if (e.kind == CXCursor_CallExpr
                    && callee(e).startsWith("floor")
                    && arguments(e).size() == 1) e = strip(arguments(e).get(0));
            else e = null;
        }
        if (e == null || rounding == null || e.kind != CXCursor_DeclRefExpr || !v.equals(e.refUsr)) return null;
        ClangInterpolations.Index ix = ClangInterpolations.of(unit, rounding, e, fn);
        return ix == null ? null : ix.name();
    }

    /**
     * The texts the index takes at the bound: an integer constant ({@code 0.0f} is {@code 0}), or {@code M} and
     * {@code (M)} for a bound {@code float(M)}, {@code (float)M} or a variable initialized to one of them.
     */
    private static List<String> ends(ClangUnit unit, ClangNode bound, ClangNode fn) {
        List<String> out = new ArrayList<>();
        Double c = constant(bound);
        if (c != null) {
            if (c >= 0 && c == Math.rint(c) && c < 1e9) out.add(Long.toString(c.longValue()));
            return out;
        }
        ClangNode b = strip(bound);
        if (b == null) return out;
        if (b.kind == CXCursor_DeclRefExpr && b.refUsr != null) {
            String usr = b.refUsr;
            ClangNode[] def = new ClangNode[1];
            boolean[] assigned = new boolean[1];
            fn.forEach(n -> {
                if (n.kind == CXCursor_VarDecl && usr.equals(n.usr) && !n.children.isEmpty())
                    def[0] = n.children.get(n.children.size() - 1);
                if ((n.kind == CXCursor_BinaryOperator && n.spelling.equals("=")
                                || n.kind == CXCursor_CompoundAssignOperator)
                        && !n.children.isEmpty()) {
                    ClangNode l = strip(n.children.get(0));
                    if (l != null && usr.equals(l.refUsr)) assigned[0] = true;
                }
            });
            if (def[0] == null || assigned[0] || !clang_isExpressionKind(def[0].kind)) return out;
            b = strip(def[0]);
        }
        if (b != null && isExplicitCast(b) && !b.children.isEmpty()) b = strip(b.children.get(b.children.size() - 1));
        if (b == null) return out;
        String t = squash(unit, b);
        out.add(t);
        out.add("(" + t + ")");
        return out;
    }

    private static String squash(ClangUnit unit, ClangNode n) {
        return unit.text(n).replaceAll("\\s", "");
    }

    /** The one plain assignment that is the whole statement (braces allowed), or null. */
    private static ClangNode assignment(ClangNode st) {
        while (st.kind == CXCursor_CompoundStmt && st.children.size() == 1) st = st.children.get(0);
        return st.kind == CXCursor_BinaryOperator && st.spelling.equals("=") && st.children.size() == 2 ? st : null;
    }
}
