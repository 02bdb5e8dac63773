package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether a test of a value against 0 decides the same whatever the rounding of one contraction it depends on.
 *
 * <p>Either the contraction is a sum of magnitudes ({@link ClangSigns#nonNegative}: {@code a*a + b*b},
 * {@code 1.0f + u*u}, {@code sum += w*v} of non-negative weights): fused or not, it is 0 exactly when its terms are
 * (barring underflow, which both variants share) and positive otherwise, so its <em>sign class</em> (negative, zero,
 * positive) does not depend on the rounding; or the path to the test passes a value that is positive whatever the
 * contraction gives ({@code 1.0f / dist} of a non-negative distance, {@code expf(...)}).
 * The tested value keeps that independence through the operations that combine sign classes without looking at
 * magnitudes: products and quotients, {@code sqrt} and {@code fabs} (0 exactly when their argument is), functions that
 * are always positive ({@code rsqrt}, {@code exp}), {@code fmax} against 0, a negation, a local stored only from such
 * values, and a local that sums non-negative such values ({@code val += sqrtf(1.0f + u*u)}: 0 exactly when nothing
 * was added). Everything that does not depend on the contraction at all (a parameter, an element, a constant local)
 * is independent too. A sum of the contraction with another value of unknown sign, a comparison with another
 * threshold than 0, or any other operation keeps the test's flip.
 *
 * <p>{@code const float s = sqrtf(a*a + b*b) / c; const float w = s * fmaxf(0.0f, hi - lo); if (w > 0.0f)}: the test
 * follows the overlap's sign alone; {@code shift = k * rsqrtf(R*R + x*x); shift > 0.0f}: the sign of {@code k}.
 */
final class ClangSignClasses {
    private static final Set<String> ZERO_WITH_ARGUMENT = Set.of("sqrt", "sqrtf", "fabs", "fabsf", "cbrt", "cbrtf");
    private static final Set<String> ALWAYS_POSITIVE =
            Set.of("rsqrt", "rsqrtf", "exp", "expf", "__expf", "exp2", "exp2f", "exp10", "exp10f", "cosh", "coshf");
    private static final Set<String> RELATIONS = Set.of("<", ">", "<=", ">=", "==", "!=");

    private final ClangUnit unit;
    private final ClangSigns signs;

    ClangSignClasses(ClangUnit unit, ClangSigns signs) {
        this.unit = unit;
        this.signs = signs;
    }

    /**
     * Whether the comparison written {@code test} at {@code testLine}, of a value with 0, decides the same whatever the
     * rounding of the contraction written {@code site} at {@code siteLine} (same function); false when either is not
     * found or the independence is not proven.
     */
    synchronized boolean testCannotFlip(int siteLine, String site, int testLine, String test) {
        for (ClangUnit.Function fn : unit.functions()) {
            if (siteLine < fn.startLine() || siteLine > fn.endLine()) continue;
            if (testLine < fn.startLine() || testLine > fn.endLine()) return false;
            ClangNode at = find(fn, siteLine, site, Set.of("+", "-", "+=", "-="));
            ClangNode cmp = find(fn, testLine, test, RELATIONS);
            if (at == null || cmp == null || cmp.children.size() != 2) return false;
            synchronized (signs) {
                ClangSigns.Signs s = signs.signs(fn);
                ClangNode a = strip(cmp.children.get(0)), b = strip(cmp.children.get(1));
                ClangNode tested = zero(b) ? a : zero(a) ? b : null;
                return tested != null && independent(fn, s, tested, at, new HashSet<>());
            }
        }
        return false;
    }

    /** The binary operator written {@code text} (squashed) at {@code line} with one of {@code ops}, or null. */
    private ClangNode find(ClangUnit.Function fn, int line, String text, Set<String> ops) {
        String want = squash(text);
        ClangNode[] out = new ClangNode[1];
        fn.node().forEach(n -> {
            if (out[0] == null
                    && n.line == line
                    && (n.kind == CXCursor_BinaryOperator || n.kind == CXCursor_CompoundAssignOperator)
                    && ops.contains(n.spelling)
                    && squash(unit.text(n)).equals(want)) out[0] = n;
        });
        return out[0];
    }

    private static boolean zero(ClangNode n) {
        ClangNode x = n;
        while (x != null && isExplicitCast(x) && x.children.size() >= 1)
            x = strip(x.children.get(x.children.size() - 1));
        return x != null && x.value != null && x.value == 0.0;
    }

    /** Whether the sign class of {@code e} does not depend on the rounding of {@code site}. */
    private boolean independent(
            ClangUnit.Function fn, ClangSigns.Signs s, ClangNode e, ClangNode site, Set<String> seen) {
        e = strip(e);
        if (e == null) return false;
        if (e == site) return site.kind == CXCursor_BinaryOperator && signs.nonNegative(site, s, 0);
        if (!reaches(fn, e, site, new HashSet<>())) return true;
        if (positive(fn, s, e, new HashSet<>())) return true;
        switch (e.kind) {
            case CXCursor_CStyleCastExpr, CXCursor_CXXStaticCastExpr, CXCursor_CXXFunctionalCastExpr -> {
                return !e.children.isEmpty()
                        && floating(e.canonKind)
                        && independent(fn, s, e.children.get(e.children.size() - 1), site, seen);
            }
            case CXCursor_UnaryOperator -> {
                return e.children.size() == 1
                        && (e.spelling.equals("-") || e.spelling.equals("+"))
                        && independent(fn, s, e.children.get(0), site, seen);
            }
            case CXCursor_BinaryOperator -> {
                if (e.children.size() != 2) return false;
                ClangNode a = e.children.get(0), b = e.children.get(1);
                return switch (e.spelling) {
                    case "*", "/" -> independent(fn, s, a, site, seen) && independent(fn, s, b, site, seen);
                        // a sum of non-negative terms is 0 exactly when each is
                    case "+" -> signs.nonNegative(a, s, 0)
                            && signs.nonNegative(b, s, 0)
                            && independent(fn, s, a, site, seen)
                            && independent(fn, s, b, site, seen);
                    default -> false;
                };
            }
            case CXCursor_CallExpr -> {
                String f = callee(e).replace("std::", "");
                List<ClangNode> args = arguments(e);
                if (ALWAYS_POSITIVE.contains(f)) return true;
                if (ZERO_WITH_ARGUMENT.contains(f))
                    return args.size() == 1 && independent(fn, s, args.get(0), site, seen);
                if ((f.equals("fmax") || f.equals("fmaxf")) && args.size() == 2) {
                    // max(0, x) is 0 exactly when x <= 0 and positive when x is
                    if (zero(strip(args.get(0)))) return independent(fn, s, args.get(1), site, seen);
                    if (zero(strip(args.get(1)))) return independent(fn, s, args.get(0), site, seen);
                }
                return false;
            }
            case CXCursor_DeclRefExpr -> {
                return local(fn, s, e.refUsr, site, seen);
            }
            default -> {
                return false;
            }
        }
    }

    /**
     * Whether {@code e} is positive (or +inf) whatever the rounding of the values it reads: a positive literal, an
     * always-positive function, a positive value divided by a non-negative one ({@code 1.0f / dist}), products of
     * positive values, a positive value plus a non-negative one, the square root or the max of a positive value, and
     * a local stored only from positive values.
     */
    private boolean positive(ClangUnit.Function fn, ClangSigns.Signs s, ClangNode e, Set<String> seen) {
        e = strip(e);
        if (e == null) return false;
        if (e.value != null) return e.value > 0;
        switch (e.kind) {
            case CXCursor_FloatingLiteral, CXCursor_IntegerLiteral -> {
                return false; // a literal without a folded value: not known
            }
            case CXCursor_CStyleCastExpr, CXCursor_CXXStaticCastExpr, CXCursor_CXXFunctionalCastExpr -> {
                return !e.children.isEmpty()
                        && floating(e.canonKind)
                        && positive(fn, s, e.children.get(e.children.size() - 1), seen);
            }
            case CXCursor_BinaryOperator -> {
                if (e.children.size() != 2) return false;
                ClangNode a = e.children.get(0), b = e.children.get(1);
                return switch (e.spelling) {
                    case "*" -> positive(fn, s, a, seen) && positive(fn, s, b, seen);
                    case "/" -> positive(fn, s, a, seen) && signs.nonNegative(b, s, 0);
                    case "+" -> positive(fn, s, a, seen) && signs.nonNegative(b, s, 0)
                            || positive(fn, s, b, seen) && signs.nonNegative(a, s, 0);
                    default -> false;
                };
            }
            case CXCursor_CallExpr -> {
                String f = callee(e).replace("std::", "");
                List<ClangNode> args = arguments(e);
                if (ALWAYS_POSITIVE.contains(f)) return true;
                if ((f.equals("sqrt") || f.equals("sqrtf")) && args.size() == 1)
                    return positive(fn, s, args.get(0), seen);
                if (f.equals("fmax") || f.equals("fmaxf")) {
                    for (ClangNode a : args) if (positive(fn, s, a, seen)) return true;
                }
                return false;
            }
            case CXCursor_DeclRefExpr -> {
                Map<String, List<ClangSigns.Store>> stores = signs.storesOf.get(fn);
                String usr = e.refUsr;
                if (usr == null
                        || stores == null
                        || !stores.containsKey(usr)
                        || signs.opaqueOf.get(fn).contains(usr)) {
                    return false;
                }
                if (!seen.add(usr)) return false;
                try {
                    List<ClangSigns.Store> of = stores.get(usr);
                    if (of.isEmpty()) return false;
                    for (ClangSigns.Store st : of) {
                        if (!st.op().equals("=") || !positive(fn, s, st.value(), seen)) return false;
                    }
                    return true;
                } finally {
                    seen.remove(usr);
                }
            }
            default -> {
                return false;
            }
        }
    }

    /** A local whose every store is independent; a sum only of non-negative such values. */
    private boolean local(ClangUnit.Function fn, ClangSigns.Signs s, String usr, ClangNode site, Set<String> seen) {
        Map<String, List<ClangSigns.Store>> stores = signs.storesOf.get(fn);
        if (usr == null
                || stores == null
                || !stores.containsKey(usr)
                || signs.opaqueOf.get(fn).contains(usr)) {
            return false;
        }
        if (!seen.add(usr)) return false; // a store that reads the local itself (a cycle on this path)
        try {
            boolean sums = false;
            for (ClangSigns.Store st : stores.get(usr)) {
                if (st.op().equals("+=")) sums = true;
                else if (!st.op().equals("=")) return false;
                if (!independent(fn, s, st.value(), site, seen)) return false;
            }
            // a sum of values of unknown signs can cancel to 0 by the rounding of one term
            return !sums || s.nonNegative().contains(usr);
        } finally {
            seen.remove(usr);
        }
    }

    /** Whether {@code site} is a compound assignment ({@code sum += a*b}) to the local {@code usr}. */
    private static boolean updatedBy(ClangNode site, String usr) {
        if (site.kind != CXCursor_CompoundAssignOperator || site.children.isEmpty()) return false;
        ClangNode l = strip(site.children.get(0));
        return l != null && l.kind == CXCursor_DeclRefExpr && usr.equals(l.refUsr);
    }

    /** Whether {@code e} reads the value of {@code site}: contains it, or reads a local a store of which does. */
    private boolean reaches(ClangUnit.Function fn, ClangNode e, ClangNode site, Set<String> seen) {
        boolean[] hit = new boolean[1];
        e.forEach(n -> {
            if (hit[0]) return;
            if (n == site) {
                hit[0] = true;
            } else if (n.kind == CXCursor_DeclRefExpr && n.refUsr != null && updatedBy(site, n.refUsr)) {
                hit[0] = true;
            } else if (n.kind == CXCursor_DeclRefExpr && n.refUsr != null && seen.add(n.refUsr)) {
                Map<String, List<ClangSigns.Store>> stores = signs.storesOf.get(fn);
                List<ClangSigns.Store> of = stores == null ? null : stores.get(n.refUsr);
                if (of != null) {
                    for (ClangSigns.Store st : of) {
                        if (reaches(fn, st.value(), site, seen)) {
                            hit[0] = true;
                            return;
                        }
                    }
                }
            }
        });
        return hit[0];
    }
}
