package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.Set;

/**
 * A converted value whose only use is to be printed: an argument after the format of a print call, {@code
 * post("%s: sample rate %lu", name, (t_sampIdx)(x->x_sr / x->x_overlap))} (session 72 round C: 17 of 100 sampled
 * findings of an audio library were its objects' print methods). A print call is one of the C library's ({@code
 * printf}, {@code fprintf}, {@code sprintf}, {@code snprintf} and their {@code std::} forms) or any variadic function
 * given a string literal with a conversion ({@code %}) before the value: a project's own {@code post}, {@code
 * log_info}. A wrapped value changes the text printed, not a value the program computes with; the value reaches the
 * call directly (through parentheses and implicit conversions only), not through a variable that may be used again.
 */
final class ClangPrintedValues {
    private ClangPrintedValues() {}

    private static final Set<String> PRINTS = Set.of(
            "printf", "fprintf", "sprintf", "snprintf", "std::printf", "std::fprintf", "std::sprintf", "std::snprintf");

    /** The print call that is the only use of the value {@code cast} converts, as "post at line 12", or null. */
    static String printedBy(ClangUnit unit, ClangNode cast) {
        ClangNode c = cast;
        ClangNode p = cast.parent;
        while (p != null
                && (p.kind == CXCursor_ParenExpr || p.kind == CXCursor_UnexposedExpr && p.children.size() == 1)) {
            c = p;
            p = p.parent;
        }
        if (p == null || p.kind != CXCursor_CallExpr) return null;
        int at = p.children.indexOf(c);
        if (at < 1) return null; // the callee
        String name = callee(p);
        if (PRINTS.contains(name)) return name + " at line " + p.line;
        ClangNode head = p.children.isEmpty() ? null : p.children.get(0);
        String type = head == null ? null : head.type;
        if (type == null || !type.contains("...)")) return null;
        for (int i = 1; i < at; i++) {
            ClangNode a = strip(p.children.get(i));
            while (a != null && isExplicitCast(a)) a = strip(operandOf(a));
            String t = a != null && a.kind == CXCursor_StringLiteral ? unit.text(a) : null;
            if (t != null && t.contains("%")) return (name.isEmpty() ? "a print call" : name) + " at line " + p.line;
        }
        return null;
    }
}
