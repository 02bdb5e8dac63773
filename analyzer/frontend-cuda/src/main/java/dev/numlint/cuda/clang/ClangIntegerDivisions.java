package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Integer divisions whose quotient goes on in floating-point arithmetic ({@code c * h * h * (1 / 24)} with double
 * {@code c}, {@code double third = 1 / 3;}, {@code pow(x, 1 / 3)}, {@code ceil(n / 2)}): the division truncates
 * toward zero before any conversion, so the fraction is lost. Found by Clang's types: a {@code /} of two integer
 * operands, followed up through parentheses and integer {@code + - *} (which keep it integer) to a conversion to a
 * floating type (an implicit one, an explicit cast, or the argument of a rounding function whose integral overload
 * converts it: {@code std::ceil(int)}). A modulus, shift, bit operation, comparison, selection, index, integer cast
 * or integer call on the way makes the quotient an integer on purpose: not followed (clang-tidy's
 * bugprone-integer-division draws the same line). One named analysis of a {@link ClangSupplement}.
 */
final class ClangIntegerDivisions {
    /** Rounding functions: applied to a quotient, they show that a fraction was meant. */
    static final Set<String> ROUNDINGS = Set.of(
            "ceil",
            "ceilf",
            "floor",
            "floorf",
            "round",
            "roundf",
            "trunc",
            "truncf",
            "rint",
            "rintf",
            "nearbyint",
            "nearbyintf",
            "lround",
            "lroundf",
            "llround",
            "llroundf",
            "lrint",
            "lrintf",
            "llrint",
            "llrintf");

    private final ClangUnit unit;

    ClangIntegerDivisions(ClangUnit unit) {
        this.unit = unit;
    }

    /**
     * One integer division in a floating context.
     *
     * @param node     the {@code /} operator
     * @param dividend the dividend's compile-time value, or null
     * @param divisor  the divisor's compile-time value, or null
     * @param target   the floating type the quotient is converted to ("double", "float")
     * @param rounding the rounding function applied to the quotient ("ceil"), or null
     * @param indexed  the quotient is a term or factor of integer arithmetic with a variable before the conversion
     *                 ({@code (float)(i - n / 2)}, a centred index): an integer quotient is meant there
     * @param nonNegative the quotient cannot be negative (an unsigned division, or Clang's interval of it), where
     *                 truncation is floor
     * @param unread   the local the converted quotient initialises or is assigned to is written again before any read
     *                 ({@code double t_mu = 41 / 2;} replaced in the loop below it): the value decides nothing
     */
    record Division(
            ClangNode node,
            Double dividend,
            Double divisor,
            String target,
            String rounding,
            boolean indexed,
            boolean nonNegative,
            boolean unread,
            ClangUnit.Function in) {}

    List<Division> compute() {
        List<Division> out = new ArrayList<>();
        for (ClangUnit.Function fn : unit.functions()) {
            fn.node().forEach(n -> {
                if (n.kind != CXCursor_BinaryOperator || !"/".equals(n.spelling) || n.children.size() != 2) return;
                if (!ClangSyntax.integral(n.canonKind)) return;
                ClangNode a = ClangSyntax.strip(n.children.get(0));
                ClangNode b = ClangSyntax.strip(n.children.get(1));
                if (a == null || b == null) return;
                if (!ClangSyntax.integral(a.canonKind) || !ClangSyntax.integral(b.canonKind)) return;
                Double divisor = ClangSyntax.constant(n.children.get(1));
                if (divisor != null && divisor == 0) return;
                String[] context = floatingContext(n);
                if (context == null) return;
                // ceil((n + b - 1) / b): the division is already the ceiling (a grid's block count), ceil() changes
                // nothing (session 52: five warnings on a heat solver's launch grids, judged false)
                if (context[1] != null && context[1].startsWith("ceil") && ceilingDivision(a, b)) return;
                // 0xffffff / 2 + 1: an all-ones mask halved inside integer arithmetic is a power of two on purpose
                // (2^23, a 24-bit sample's full scale; session 57, two false warnings in a module player)
                if (context[3] != null && maskHalved(ClangSyntax.constant(n.children.get(0)), divisor)) return;
                out.add(new Division(
                        n,
                        ClangSyntax.constant(n.children.get(0)),
                        divisor,
                        context[0],
                        context[1],
                        context[2] != null,
                        ClangSyntax.unsignedKind(n.canonKind) || unit.interval(n, fn)[0] >= 0,
                        unread(n, fn),
                        fn));
            });
        }
        return List.copyOf(out);
    }

    /** {@code 2^k - 1} (k at least 4) divided by a power of two: halving or quartering an all-ones mask. */
    private static boolean maskHalved(Double dividend, Double divisor) {
        if (dividend == null || divisor == null || dividend < 15 || dividend > 0x1p62 || divisor < 2) return false;
        long a = dividend.longValue() + 1, b = divisor.longValue();
        return a == dividend + 1 && b == divisor && Long.bitCount(a) == 1 && Long.bitCount(b) == 1;
    }

    /** Whether the value of the expression holding {@code division} is stored into a local no read sees. */
    private boolean unread(ClangNode division, ClangUnit.Function fn) {
        ClangNode c = division;
        for (ClangNode p = c.parent; p != null && p != fn.node(); c = p, p = p.parent) {
            if (p.kind == CXCursor_VarDecl && p.usr != null && p.parent != null && p.parent.kind == CXCursor_DeclStmt)
                return p.children.get(p.children.size() - 1) == c && unit.deadAfter(p.parent, p.usr, fn.node());
            if (p.kind == CXCursor_BinaryOperator && "=".equals(p.spelling) && p.children.size() == 2) {
                ClangNode v = ClangSyntax.strip(p.children.get(0));
                return p.children.get(1) == c
                        && v != null
                        && v.kind == CXCursor_DeclRefExpr
                        && v.refUsr != null
                        && unit.deadAfter(p, v.refUsr, fn.node());
            }
            if (!ClangSyntax.clang_isExpressionKind(p.kind)) return false;
        }
        return false;
    }

    /**
     * Where the quotient becomes floating: {target type, rounding function or null, "indexed" or null, "term" (a term
     * of an integer sum or difference before the conversion) or null}; null when it stays an integer (or the way up
     * leaves what is followed).
     */
    private static String[] floatingContext(ClangNode division) {
        ClangNode c = division;
        String indexed = null;
        String term = null;
        for (ClangNode p = c.parent; p != null; c = p, p = p.parent) {
            if (p.kind == CXCursor_ParenExpr) continue;
            if (p.kind == CXCursor_UnexposedExpr && p.children.size() == 1) {
                if (ClangSyntax.floating(p.canonKind))
                    return new String[] {typeName(p), rounding(p.parent), indexed, term};
                if (ClangSyntax.integral(p.canonKind)) continue;
                return null;
            }
            if (ClangSyntax.isExplicitCast(p)) {
                return ClangSyntax.floating(p.canonKind)
                        ? new String[] {typeName(p), rounding(p.parent), indexed, term}
                        : null;
            }
            if (p.kind == CXCursor_BinaryOperator
                    && ClangSyntax.integral(p.canonKind)
                    && ("+".equals(p.spelling) || "-".equals(p.spelling) || "*".equals(p.spelling))) {
                for (ClangNode o : p.children) {
                    if (o != c && ClangSyntax.constant(o) == null) indexed = "indexed";
                }
                if (!"*".equals(p.spelling)) term = "term";
                continue;
            }
            if (p.kind == CXCursor_UnaryOperator && ClangSyntax.integral(p.canonKind) && "-".equals(p.spelling))
                continue;
            // std::ceil(n / 2): the integral overload converts inside; the call's argument is the quotient itself
            if (p.kind == CXCursor_CallExpr
                    && ClangSyntax.floating(p.canonKind)
                    && ClangSyntax.arguments(p).contains(c)
                    && rounding(p) != null) return new String[] {typeName(p), rounding(p), indexed, term};
            return null;
        }
        return null;
    }

    /**
     * Whether {@code a / b} is the ceiling-division idiom: the dividend adds {@code b - 1} to a value ({@code (n + b -
     * 1) / b}, {@code (n + (b - 1)) / b}, {@code (b - 1 + n) / b}), compared as written without blanks and
     * parentheses.
     */
    private boolean ceilingDivision(ClangNode a, ClangNode b) {
        String x = unit.text(a), d = unit.text(b);
        if (x == null || d == null) return false;
        x = x.replaceAll("[\\s()]", "");
        d = d.replaceAll("[\\s()]", "");
        if (d.isEmpty()) return false;
        String less = d + "-1";
        return x.endsWith("+" + less) && x.length() > less.length() + 1 || x.startsWith(less + "+");
    }

    /** The rounding function whose argument the converted quotient is, or null. */
    private static String rounding(ClangNode p) {
        while (p != null && (p.kind == CXCursor_ParenExpr || p.kind == CXCursor_UnexposedExpr)) p = p.parent;
        if (p == null || p.kind != CXCursor_CallExpr) return null;
        String f = ClangSyntax.callee(p).replace("std::", "");
        return ROUNDINGS.contains(f) ? f : null;
    }

    private static String typeName(ClangNode n) {
        return switch (n.canonKind) {
            case CXType_Float -> "float";
            case CXType_Double -> "double";
            case CXType_LongDouble -> "long double";
            default -> n.canon;
        };
    }
}
