package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.List;

/**
 * The floating type of a template pattern's dependent arithmetic that every instantiation shares ({@link
 * #arithmeticFloating}), for NL001's conversions of dependent operands ({@link ClangUnit#floatingType}).
 */
final class ClangTemplateArithmetic {
    private ClangTemplateArithmetic() {}

    /**
     * The floating type a dependent arithmetic operand has whatever arithmetic type its parameter is: {@code (1 - dr)
     * * d[0] + dr * d[1]} with {@code float dr} and {@code const T *d} is at least {@code float} by the usual
     * arithmetic conversions (double where a double operand is in it), so a cast of it to an unsigned type converts
     * floating data for every instantiation, an integer one too (session 58 round B: an image class template's
     * {@code Image<unsigned char>} blend was silent), also where an operator is a call not yet resolved ({@link
     * #unresolvedArithmetic}). Null when no operand of the sum or product is floating, or the operand is not built by
     * + - * / alone.
     */
    static String arithmeticFloating(ClangNode op) {
        ClangNode s = strip(op);
        // std::min(zMin + d[i], zMaxClamp): its arguments have one type, a floating one's where one is floating
        // (session 65 round D: a raster codec's cast to T of that call was reported at no level)
        if (s != null && s.kind == CXCursor_CallExpr && SAME_TYPE.contains(callee(s))) {
            for (ClangNode a : arguments(s)) {
                ClangNode x = strip(a);
                if (x != null && floating(x.canonKind)) return x.canonKind == CXType_Float ? "float" : "double";
                String r = a == null ? null : arithmeticFloating(a);
                if (r != null) return r;
            }
            return null;
        }
        if (s == null || s.kind != CXCursor_BinaryOperator && unresolvedArithmetic(s) == null) return null;
        String[] widest = new String[1];
        java.util.ArrayDeque<ClangNode> todo = new java.util.ArrayDeque<>(List.of(s));
        while (!todo.isEmpty()) {
            ClangNode n = strip(todo.pop());
            if (n == null) continue;
            if (floating(n.canonKind)) {
                if (widest[0] == null || n.canonKind != CXType_Float)
                    widest[0] = n.canonKind == CXType_Float ? "float" : "double";
            } else if (n.kind == CXCursor_BinaryOperator
                    && n.children.size() == 2
                    && "+-*/".contains(n.spelling)
                    && n.spelling.length() == 1) {
                todo.addAll(n.children);
            } else if (unresolvedArithmetic(n) != null) {
                todo.addAll(unresolvedArithmetic(n));
            }
        }
        return widest[0];
    }

    /**
     * The two operands of {@code a * b} (+ - * /) that a pattern holds as a call of an operator not yet resolved: a
     * header that declares {@code operator*(float3, float)} makes {@code 255.0 * (v - min_val)} with a dependent
     * {@code min_val} such a call (session 71 round A: an ultrasound simulator's debug dump, silent); libclang lists
     * the first operand, a reference to the overloaded operators, the second. Null for any other node.
     */
    private static List<ClangNode> unresolvedArithmetic(ClangNode n) {
        if (n.kind != CXCursor_CallExpr || n.canonKind != CXType_Dependent || n.children.size() != 3) return null;
        String[] op = {""};
        n.children.get(1).forEach(x -> {
            if (x.kind == CXCursor_OverloadedDeclRef && x.spelling.startsWith("operator"))
                op[0] = x.spelling.substring("operator".length());
        });
        return op[0].length() == 1 && "+-*/".contains(op[0]) ? List.of(n.children.get(0), n.children.get(2)) : null;
    }

    /** Functions whose arguments and result have one type: std::min, std::max, std::clamp. */
    private static final java.util.Set<String> SAME_TYPE = java.util.Set.of("min", "max", "clamp");
}
