package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.Set;

/**
 * A fractional part, never negative: {@code x - floor(x)}, or {@code x - (int)x} of an {@code x} that is never
 * negative, with the integer part written in the difference or kept in a variable or member set just before ({@code
 * degrees = fabs(degrees); dms->degrees = (int)degrees; dtemp = 60 * (degrees - dms->degrees);}, libnova's degrees to
 * degrees-minutes-seconds, session 54). A guard from below for the conversions of what the difference scales ({@link
 * ClangGuards}). Only the certain case: the same variable or member on both sides, and nothing between the integer
 * part's definition and the difference writes either.
 */
final class ClangFractions {
    private ClangFractions() {}

    private static final Set<String> FLOORS = Set.of("floor", "floorf", "floorl");
    private static final Set<String> TRUNCATIONS = Set.of("trunc", "truncf", "truncl");

    /** The guard the difference {@code d} = {@code a - b} is as a fractional part, or null. */
    static String of(ClangUnit unit, ClangNode d, ClangNode a, ClangNode b) {
        Boolean floor = part(d, a, b);
        if (floor == null) return null;
        if (!floor) {
            ClangUnit.Function fn = unit.functionOf(d);
            if (fn == null || unit.interval(strip(a), fn)[0] < 0) return null;
        }
        return "the fractional part '" + unit.text(d) + "' (line " + d.line + ")";
    }

    /**
     * Whether the difference {@code d} = {@code a - b} is {@code a} less its floor or its truncation, of either sign:
     * a value in (-1, 1) (the remainder {@code rem = v - (float)(uint32_t)v} a sample counter carries to the next
     * step), as small as a constant term of a sum ({@link ClangGuards}).
     */
    static boolean small(ClangNode d, ClangNode a, ClangNode b) {
        return part(d, a, b) != null;
    }

    private static final Set<String> CEILS = Set.of("ceil", "ceilf", "ceill");

    /**
     * Whether {@code a - b} is {@code ceil(x) - x} of one variable, member or element, both of one floating type (no
     * conversion between that could round): in [0, 1).
     */
    static boolean ceilingGap(ClangNode a, ClangNode b) {
        ClangNode c = strip(a);
        ClangNode y = strip(b);
        if (c == null
                || y == null
                || c.kind != CXCursor_CallExpr
                || arguments(c).size() != 1) return false;
        if (!CEILS.contains(callee(c).replace("std::", "")) || !floating(y.canonKind)) return false;
        ClangNode x = strip(arguments(c).get(0));
        String k = x == null ? null : ClangGuards.Path.key(x);
        return k != null
                && k.equals(ClangGuards.Path.key(y))
                && c.canonKind == y.canonKind
                && x.canonKind == y.canonKind;
    }

    /**
     * {@code found} when it is not null, else the interval of the difference {@code d} as a fractional part whose
     * integer part is written in it or kept in a variable or member set just before ({@code this->day =
     * floor(dayf); this->hour = 24.0 * (dayf - day);}, an astronomy library's calendar date, session 69 round B):
     * [0, 1] for a floor's, or a truncation's of a value never negative; [-1, 1] for a truncation's. Null otherwise.
     */
    static double[] or(double[] found, ClangNode d, java.util.function.Function<ClangNode, double[]> eval) {
        if (found != null || d.children.size() != 2 || !d.spelling.equals("-")) return found;
        Boolean floor = part(d, d.children.get(0), d.children.get(1));
        if (floor == null) return null;
        // the value's interval through the caller's evaluation (its depth bounds x = x - (int)x in a loop)
        boolean nonNegative = floor || eval.apply(strip(d.children.get(0)))[0] >= 0;
        return nonNegative ? new double[] {0, 1} : new double[] {-1, 1};
    }

    /** True when {@code a - b} is a floor's fractional part, false when a truncation's, null when neither. */
    private static Boolean part(ClangNode d, ClangNode a, ClangNode b) {
        ClangNode x = strip(a);
        if (x == null || !floating(x.canonKind)) return null;
        String key = ClangGuards.Path.key(x);
        ClangNode whole = strip(b);
        // (float)(uint32_t)v, (float)c: the whole part converted back explicitly
        while (whole != null && isExplicitCast(whole) && floating(whole.canonKind)) whole = strip(operandOf(whole));
        if (key == null || whole == null) return null;
        Boolean floor = integerPart(whole, key);
        if (floor == null) {
            ClangGuards.Path kept = ClangGuards.Path.of(whole);
            ClangNode value = kept == null ? null : definition(d, kept, ClangGuards.Path.of(x));
            // through copies of the integer part (ai = (int)aa; i = ai; af = aa - i: a rational approximation's
            // fraction, session 62 round B)
            for (int hop = 0; hop < 3 && value != null && integerPart(strip(value), key) == null; hop++) {
                ClangNode copy = strip(value);
                ClangGuards.Path from = copy == null || copy.kind != CXCursor_DeclRefExpr || !integral(copy.canonKind)
                        ? null
                        : ClangGuards.Path.of(copy);
                value = from == null ? null : definition(copy, from, ClangGuards.Path.of(x));
            }
            floor = value == null ? null : integerPart(strip(value), key);
        }
        return floor;
    }

    /**
     * A whole part taken of {@code operand} (under floating casts): {@code floor} true for a floor, false for a
     * truncation (an explicit conversion to an integer type, {@code trunc}, the value of an assignment to an integer
     * variable).
     */
    record Whole(boolean floor, ClangNode operand) {}

    /** {@code e} as the whole part of its operand, or null for anything else. */
    static Whole whole(ClangNode e) {
        ClangNode s = strip(e);
        if (s == null) return null;
        Boolean floor = null;
        ClangNode arg = null;
        if (isExplicitCast(s) && integral(s.canonKind)) {
            // (int)floor(x): the floor's whole number, converted (session 70 round F: a resampler's input index)
            Whole inner = operandOf(s) == null ? null : whole(operandOf(s));
            if (inner != null) return inner;
            floor = Boolean.FALSE;
            arg = operandOf(s);
        } else if (s.kind == CXCursor_BinaryOperator && s.spelling.equals("=") && s.children.size() == 2) {
            // frac = rc - (c = rc): the value of an assignment to an integer variable is the truncation it stored
            ClangNode v = strip(s.children.get(1));
            if (!integral(s.canonKind) || v == null || !floating(v.canonKind)) return null;
            floor = Boolean.FALSE;
            arg = v;
        } else if (s.kind == CXCursor_CallExpr && arguments(s).size() == 1) {
            String name = callee(s).replace("std::", "");
            floor = FLOORS.contains(name) ? Boolean.TRUE : TRUNCATIONS.contains(name) ? Boolean.FALSE : null;
            arg = arguments(s).get(0);
        }
        ClangNode a = strip(arg);
        while (a != null && isExplicitCast(a) && floating(a.canonKind)) a = strip(operandOf(a));
        return floor == null || a == null ? null : new Whole(floor, a);
    }

    /**
     * Whether {@code e} is the integer part of the variable, member or element {@code key}: true for its floor, false
     * for its truncation, null for anything else.
     */
    private static Boolean integerPart(ClangNode e, String key) {
        Whole w = whole(e);
        return w != null && key.equals(ClangGuards.Path.key(w.operand())) ? w.floor() : null;
    }

    /**
     * Whether {@code e}, read at {@code at}, is a whole part of the variable, member or element {@code x}, written
     * there or kept in a variable set just before (nothing between writes it or {@code x}, as {@link #definition}):
     * 1 for its floor, -1 for its truncation, 0 for anything else.
     */
    static int keptWholePart(ClangNode at, ClangNode e, ClangNode x) {
        String key = x == null ? null : ClangGuards.Path.key(x);
        if (key == null || e == null) return 0;
        Boolean floor = integerPart(e, key);
        if (floor == null) {
            ClangGuards.Path kept = ClangGuards.Path.of(strip(e));
            ClangNode value = kept == null ? null : definition(at, kept, ClangGuards.Path.of(x));
            floor = value == null ? null : integerPart(strip(value), key);
        }
        return floor == null ? 0 : floor ? 1 : -1;
    }

    /**
     * Whether {@code e} is a whole part of the variable {@code usr}: 1 for its floor ({@code floor(x)}), -1 for its
     * truncation ({@code (long)x}, {@code trunc(x)}), 0 for anything else.
     */
    static int wholePart(ClangNode e, String usr) {
        Whole w = whole(e);
        if (w == null || w.operand().kind != CXCursor_DeclRefExpr || !usr.equals(w.operand().refUsr)) return 0;
        return w.floor() ? 1 : -1;
    }

    /**
     * The value the nearest earlier statement of an enclosing block assigns to {@code kept} before {@code at}, when
     * no statement between writes {@code kept} or {@code x}; null otherwise.
     */
    private static ClangNode definition(ClangNode at, ClangGuards.Path kept, ClangGuards.Path x) {
        if (x == null) return null;
        ClangNode c = at;
        for (ClangNode p = at.parent; p != null; c = p, p = p.parent) {
            if (FUNCTIONS.contains(p.kind)) return null;
            if (p.kind != CXCursor_CompoundStmt) {
                if (isLoop(p)) return null; // a back edge could bring another value
                continue;
            }
            int i = p.children.indexOf(c);
            for (int k = i - 1; k >= 0; k--) {
                ClangNode s = p.children.get(k);
                ClangNode value = assigned(s, kept.key());
                if (value != null) return value;
                if (ClangGuards.writes(s, kept) || ClangGuards.writes(s, x)) return null;
            }
        }
        return null;
    }

    private static final Set<Integer> FUNCTIONS = ClangUnit.FUNCTION_KINDS;

    /** The value {@code s} assigns to {@code key} ({@code k = v;} or {@code int k = v;}), or null. */
    static ClangNode assigned(ClangNode s, String key) {
        if (s.kind == CXCursor_DeclStmt) {
            for (ClangNode v : s.children)
                if (v.kind == CXCursor_VarDecl && key.equals(v.usr) && !v.children.isEmpty())
                    return v.children.get(v.children.size() - 1);
            return null;
        }
        ClangNode e = strip(s);
        if (e != null && e.kind == CXCursor_BinaryOperator && e.spelling.equals("=") && e.children.size() == 2) {
            if (key.equals(ClangGuards.Path.key(e.children.get(0)))) return e.children.get(1);
        }
        return null;
    }

    /**
     * {@code x - q * c} or {@code x - c * q} with the same {@code x} (by its text), a constant {@code c > 0} and
     * {@code q} the whole part of {@code x / c}, written in the difference or kept in a variable set just before
     * (nothing between writes it or {@code x}; a conversion of {@code q} back to floating point is looked through):
     * {@code floor(x / c)} makes the difference x modulo c, in [0, c] (c itself when x / c rounds just below a whole
     * number; a residue of rounding below 0 is above -1 and truncates to 0); a truncation ({@code (short)(x / c)},
     * {@code trunc}) makes it the remainder, of the sign of x and below c in magnitude (rounding is monotonic: the
     * quotient of an x below a multiple of c never rounds to the next whole number down), so (-c, c). A sound-font
     * loader's {@code coarse = (short)(loopstart / 32768.); fine = (short)(loopstart - (float)coarse * 32768.);}
     * (session 58, round G). Null for any other difference.
     */
    static double[] modulo(ClangUnit unit, ClangNode minus) {
        if (!minus.spelling.equals("-") || !floating(minus.canonKind)) return null;
        String x = squash(unit.text(minus.children.get(0)));
        ClangNode prod = strip(minus.children.get(1));
        if (prod == null
                || prod.kind != CXCursor_BinaryOperator
                || !prod.spelling.equals("*")
                || prod.children.size() != 2) return null;
        for (int i = 0; i < 2; i++) {
            Double c = ClangSyntax.folded(prod.children.get(1 - i));
            ClangNode q = strip(prod.children.get(i));
            if (c == null || !(c > 0) || q == null) continue;
            if (isExplicitCast(q) && floating(q.canonKind)) q = strip(operandOf(q));
            Boolean floor = quotientPart(unit, q, x, c);
            if (floor == null && q != null && integral(q.canonKind)) {
                ClangGuards.Path kept = ClangGuards.Path.of(q);
                ClangNode value = kept == null
                        ? null
                        : definition(minus, kept, ClangGuards.Path.of(strip(minus.children.get(0))));
                floor = value == null ? null : quotientPart(unit, strip(value), x, c);
            }
            if (floor == null) continue;
            return floor ? new double[] {0, c} : new double[] {-Math.nextDown(c), Math.nextDown(c)};
        }
        return null;
    }

    /**
     * Whether {@code e} is a whole part of {@code x / c} ({@code x} by its text, {@code c} the constant): true for
     * its floor, false for its truncation (an explicit conversion to an integer type, {@code trunc}), null else.
     */
    private static Boolean quotientPart(ClangUnit unit, ClangNode e, String x, double c) {
        Whole w = whole(e);
        ClangNode q = w == null ? null : w.operand();
        if (q == null || q.kind != CXCursor_BinaryOperator || !q.spelling.equals("/") || q.children.size() != 2)
            return null;
        Double d = ClangSyntax.folded(q.children.get(1));
        if (d == null || d.doubleValue() != c) return null;
        return squash(unit.text(q.children.get(0))).equals(x) ? w.floor() : null;
    }

    /**
     * {@code r - ((r >> k) << k)} of one integer variable, member or element {@code r} and a constant {@code k} in [1,
     * 62], the shifted part written in the difference or kept in a variable set just before ({@code x_map = rx >> 16;
     * x_diff = (float)(rx - (x_map << 16)) / 65536;}: a 16.16 fixed-point coordinate's fraction, session 72 round B,
     * an image rotation's bilinear weights): the low k bits, in [0, 2^k - 1] (a right shift of a negative value floors
     * on every compiler numlint reads for, so its low bits are those of the two's complement). {@code k}, or -1.
     */
    static int lowBits(ClangNode d) {
        if (!d.spelling.equals("-") || d.children.size() != 2 || !integral(d.canonKind)) return -1;
        ClangNode r = strip(d.children.get(0));
        String key = r == null ? null : ClangGuards.Path.key(r);
        ClangNode back = strip(d.children.get(1));
        if (key == null || back == null || !integral(r.canonKind)) return -1;
        int k = shift(back, "<<");
        if (k < 0) return -1;
        ClangNode q = strip(back.children.get(0));
        if (q == null) return -1;
        if (shift(q, ">>") != k || !key.equals(ClangGuards.Path.key(strip(q.children.get(0))))) {
            ClangGuards.Path kept = ClangGuards.Path.of(q);
            ClangNode value = kept == null ? null : strip(definition(d, kept, ClangGuards.Path.of(r)));
            if (value == null
                    || shift(value, ">>") != k
                    || !key.equals(ClangGuards.Path.key(strip(value.children.get(0))))) return -1;
        }
        return k;
    }

    /**
     * {@code r - (float)((r >> k) << k)}, the same difference computed in a floating type from an integer {@code r}
     * (a gradient's {@code k1 = l - (float)((l >> 16) << 16)}, session 84 round AA): in [0, 2^k] when the shifted part
     * converts exactly (its significant bits, the integer's width less k, fit the floating type's mantissa). The
     * conversion of {@code r} rounds, but monotonically, and the part below it and the next multiple of 2^k are
     * representable: the difference stays between 0 and 2^k. {@code k}, or -1.
     */
    static int lowBitsInFloat(ClangNode d) {
        if (!d.spelling.equals("-") || d.children.size() != 2 || !floating(d.canonKind)) return -1;
        ClangNode r = strip(d.children.get(0));
        ClangNode back = withoutCasts(d.children.get(1));
        String key = r == null ? null : ClangGuards.Path.key(r);
        if (key == null || back == null || !integral(r.canonKind) || !integral(back.canonKind)) return -1;
        int k = shift(back, "<<");
        ClangNode q = k < 0 ? null : strip(back.children.get(0));
        if (q == null || shift(q, ">>") != k || !key.equals(ClangGuards.Path.key(strip(q.children.get(0))))) return -1;
        int mantissa = d.canonKind == CXType_Float ? 24 : d.canonKind == CXType_Double ? 53 : 0;
        return 8 * bytes(back.canonKind) - k <= mantissa ? k : -1;
    }

    /** The constant count of {@code n} when it is a shift {@code op} ({@code <<}, {@code >>}) in [1, 62], else -1. */
    private static int shift(ClangNode n, String op) {
        if (n == null || n.kind != CXCursor_BinaryOperator || !n.spelling.equals(op) || n.children.size() != 2)
            return -1;
        Double c = ClangSyntax.folded(n.children.get(1));
        return c != null && c >= 1 && c <= 62 && c == Math.rint(c) ? c.intValue() : -1;
    }

    /**
     * {@code x & c} (either order) with a constant {@code c >= 0} of an integer type: a field of bits, in [0, c]
     * (session 50 round M: {@code (pixel >> 5) & 63} of a packed RGB565 pixel). Null for any other operator.
     */
    static double[] masked(ClangNode and) {
        if (!and.spelling.equals("&") || and.children.size() != 2 || !integral(and.canonKind)) return null;
        for (int i = 0; i < 2; i++) {
            Double c = ClangSyntax.folded(and.children.get(i));
            if (c != null && c >= 0 && c < 0x1p53) return new double[] {0, c};
        }
        return null;
    }
}
