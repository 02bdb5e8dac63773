package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.knowledge.NumericFacts;
import java.math.BigDecimal;
import java.util.TreeSet;

/**
 * Floating values known to take one of a few exact values: a constant, {@code copysign(c, x)} with constant c (±c
 * whatever x is), a comparison or a bool converted to a number (0 or 1), a conditional between such values
 * ({@code (u > 0) ? 1 : 0}), a sum, difference, product or negation of such values computed without rounding
 * ({@code 0.5*(1.0 + copysign(1.0, u))} is 0 or 1), and a local whose every definition is one of these (set to 0.0
 * or 1.0 in the branches of an if: the union of their values). A product by a
 * factor whose every value is zero or a power of two is exact (barring overflow and underflow, which an fma shares),
 * so fusing it into an fma changes nothing, as a product by a constant power of two.
 */
final class ClangValueSets {
    /** The most values a set holds before it is given up. */
    private static final int MAX = 8;

    private static final int DEPTH = 3;

    private ClangValueSets() {}

    /** Whether every value {@code x} can take is zero or a power of two (in magnitude). */
    /**
     * Whether {@code s} is a division by a nonzero constant power of two ({@code size / 2.0}): as exact as the product
     * by its reciprocal, barring underflow.
     */
    static boolean byPowerOfTwo(ClangNode s) {
        if (s.kind != CXCursor_BinaryOperator || !s.spelling.equals("/") || s.children.size() != 2) return false;
        ClangNode d = strip(s.children.get(1));
        return d != null && d.value != null && d.value != 0 && NumericFacts.isPowerOfTwoOrZero(Math.abs(d.value));
    }

    static boolean powerOfTwoFactor(ClangNode x, ClangUnit.Function fn) {
        TreeSet<Double> v = values(x, fn, DEPTH);
        if (v == null) return false;
        for (double d : v) if (!NumericFacts.isPowerOfTwoOrZero(Math.abs(d))) return false;
        return true;
    }

    /** The finite set of exact values {@code x} takes, or null when it is not known to be one. */
    static TreeSet<Double> values(ClangNode x, ClangUnit.Function fn) {
        return values(x, fn, DEPTH);
    }

    private static TreeSet<Double> values(ClangNode x, ClangUnit.Function fn, int depth) {
        if (x == null || depth < 0) return null;
        if (x.value != null) return one(x.value);
        if (x.kind == CXCursor_ParenExpr && x.children.size() == 1) return values(x.children.get(0), fn, depth);
        if (x.kind == CXCursor_UnexposedExpr && x.children.size() == 1) {
            // an implicit conversion: bool or a comparison to a number, int to float, float to double
            ClangNode c = x.children.get(0);
            TreeSet<Double> v = values(c, fn, depth);
            return v == null ? null : converted(v, x.canonKind);
        }
        if (isExplicitCast(x)) {
            TreeSet<Double> v = values(operandOf(x), fn, depth);
            return v == null ? null : converted(v, x.canonKind);
        }
        if (x.canonKind == CXType_Bool
                || x.kind == CXCursor_BinaryOperator && (isComparison(x.spelling) || logical(x.spelling))
                || x.kind == CXCursor_UnaryOperator && "!".equals(x.spelling)) {
            return bits();
        }
        if (x.kind == CXCursor_UnaryOperator && x.children.size() == 1) {
            TreeSet<Double> v = values(x.children.get(0), fn, depth);
            if (v == null) return null;
            if ("+".equals(x.spelling)) return v;
            if (!"-".equals(x.spelling)) return null;
            TreeSet<Double> out = new TreeSet<>();
            for (double d : v) out.add(-d);
            return out;
        }
        if (x.kind == CXCursor_ConditionalOperator && x.children.size() == 3) {
            TreeSet<Double> a = values(x.children.get(1), fn, depth);
            TreeSet<Double> b = values(x.children.get(2), fn, depth);
            if (a == null || b == null) return null;
            TreeSet<Double> out = new TreeSet<>(a);
            out.addAll(b);
            return out.size() > MAX ? null : out;
        }
        if (x.kind == CXCursor_BinaryOperator
                && x.children.size() == 2
                && (floating(x.canonKind) || integral(x.canonKind))) {
            return arithmetic(x, fn, depth);
        }
        if (x.kind == CXCursor_CallExpr && floating(x.canonKind)) {
            String base = callee(x).replace("std::", "");
            var args = arguments(x);
            if ((base.equals("copysign") || base.equals("copysignf")) && args.size() == 2) {
                TreeSet<Double> c = values(args.get(0), fn, depth);
                if (c == null) return null;
                TreeSet<Double> out = new TreeSet<>();
                for (double d : c) {
                    out.add(Math.abs(d));
                    out.add(-Math.abs(d));
                }
                return out.size() > MAX ? null : out;
            }
            return null;
        }
        if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null && depth > 0) {
            ClangNode def = ClangWholeNumbers.onlyDefinition(x.refUsr, fn);
            if (def != null) return values(def, fn, depth - 1);
            // every definition reaching a read is one of the local's definitions: the union of their values
            TreeSet<Double> out = new TreeSet<>();
            for (ClangNode d : everyDefinition(x.refUsr, fn)) {
                TreeSet<Double> v = values(d, fn, depth - 1);
                if (v == null) return null;
                out.addAll(v); // each converted to the local's type (the initializer's or assignment's cast)
                if (out.size() > MAX) return null;
            }
            return out.isEmpty() ? null : out;
        }
        return null;
    }

    /**
     * The values stored into a local of {@code fn}: its initializer and the right-hand side of each plain assignment
     * ({@code double e = 0.0; if (c) e = 1.0;}); empty when it is written otherwise (a compound assignment, an
     * increment), declared without an initializer, a parameter or a global, or aliased (its address taken, a
     * reference bound to it, passed to a call). Whatever definition reaches a read is one of these.
     */
    private static java.util.List<ClangNode> everyDefinition(String usr, ClangUnit.Function fn) {
        ClangBodyIndex.Variable v = ClangBodyIndex.of(fn).of(usr);
        if (v.decls().isEmpty()) return java.util.List.of();
        java.util.List<ClangNode> out = new java.util.ArrayList<>();
        for (ClangNode d : v.decls()) {
            if (d.kind != CXCursor_VarDecl || d.children.isEmpty()) return java.util.List.of();
            ClangNode init = d.children.get(d.children.size() - 1);
            if (!clang_isExpressionKind(init.kind)) return java.util.List.of();
            out.add(init);
        }
        for (ClangNode w : v.writes()) {
            if (w.kind != CXCursor_BinaryOperator || !w.spelling.equals("=") || w.children.size() != 2)
                return java.util.List.of();
            out.add(w.children.get(1));
        }
        for (ClangNode r : v.refs()) if (aliases(r)) return java.util.List.of();
        return out;
    }

    private static boolean logical(String op) {
        return op.equals("&&") || op.equals("||");
    }

    private static TreeSet<Double> one(double v) {
        TreeSet<Double> s = new TreeSet<>();
        s.add(v);
        return s;
    }

    private static TreeSet<Double> bits() {
        TreeSet<Double> s = new TreeSet<>();
        s.add(0.0);
        s.add(1.0);
        return s;
    }

    /** The values after a conversion to {@code kind}; null when one of them does not survive it unchanged. */
    private static TreeSet<Double> converted(TreeSet<Double> v, int kind) {
        if (kind == CXType_Half) return null;
        for (double d : v) {
            if (!Double.isFinite(d)) return null;
            if (kind == CXType_Float && (double) (float) d != d) return null;
            if (kind == CXType_Bool) return d == 0 && v.size() == 1 ? one(0) : bits();
            if (integral(kind) && (d != Math.rint(d) || Math.abs(d) > 0x1p31)) return null;
            if (unsignedKind(kind) && d < 0) return null; // wraps
        }
        return v;
    }

    /** Every combination of the operands' values, each exact in the operation's type; null otherwise. */
    private static TreeSet<Double> arithmetic(ClangNode x, ClangUnit.Function fn, int depth) {
        String op = x.spelling;
        if (!(op.equals("+") || op.equals("-") || op.equals("*"))) return null;
        TreeSet<Double> a = values(x.children.get(0), fn, depth);
        TreeSet<Double> b = a == null ? null : values(x.children.get(1), fn, depth);
        if (b == null) return null;
        TreeSet<Double> out = new TreeSet<>();
        for (double p : a) {
            for (double q : b) {
                BigDecimal exact =
                        switch (op) {
                            case "+" -> new BigDecimal(p).add(new BigDecimal(q));
                            case "-" -> new BigDecimal(p).subtract(new BigDecimal(q));
                            default -> new BigDecimal(p).multiply(new BigDecimal(q));
                        };
                double r = exact.doubleValue();
                if (!Double.isFinite(r) || new BigDecimal(r).compareTo(exact) != 0) return null;
                if (x.canonKind == CXType_Float && (double) (float) r != r) return null;
                if (integral(x.canonKind) && Math.abs(r) >= 0x1p31) return null; // may overflow the integer type
                out.add(r == 0 ? 0.0 : r);
                if (out.size() > MAX) return null;
            }
        }
        return out;
    }
}
