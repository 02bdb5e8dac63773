package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;

/**
 * Expressions written wholly in a macro's body ({@code #define GET_FIELD(c, name) ... (c)->name = val[0];}): every
 * use of the macro is a copy of one written site, as the hand-written front end's {@code Site#expandedFrom} records
 * them. Clang gives code of a macro's body the location of the macro's use (the file location), code of an argument
 * its own: an expression whose variable references all lie at the one use of a macro, where the source names the
 * macro and not the variable, is the body's.
 */
final class ClangMacroSites {
    private ClangMacroSites() {}

    /** The macro whose body holds the whole of {@code e} (it and every variable it reads), or null. */
    static String of(ClangUnit unit, ClangNode e) {
        List<ClangNode> refs = new ArrayList<>();
        e.forEach(x -> {
            if (x.kind == CXCursor_DeclRefExpr) refs.add(x);
        });
        if (refs.isEmpty()) return null;
        String macro = null;
        for (ClangNode r : refs) {
            // the expression itself at the same point: (unsigned)(NOW * 0.5) is written at the use, NOW's only
            if (r.offset < 0 || r.offset != e.offset) return null;
            String name = leadingIdentifier(unit.text(r));
            // the reference written where it is (x), or a qualified one (std::x): no macro's
            if (name == null || name.equals(r.spelling)) return null;
            if (macro != null && !macro.equals(name)) return null;
            macro = name;
        }
        return macro;
    }

    /** The identifier {@code t} starts with, when what follows it is no scope operator ({@code ::}); else null. */
    private static String leadingIdentifier(String t) {
        if (t == null || t.isEmpty() || !Character.isJavaIdentifierStart(t.charAt(0)) || t.charAt(0) == '$')
            return null;
        int i = 1;
        while (i < t.length() && Character.isJavaIdentifierPart(t.charAt(i)) && t.charAt(i) != '$') i++;
        String rest = t.substring(i).stripLeading();
        return rest.startsWith("::") ? null : t.substring(0, i);
    }

    /**
     * The expression as its tree reads ({@code val[0]}, {@code p->x * 2}): the text of a macro's body that the
     * source does not hold at the use; null for a construct not rendered here.
     */
    static String render(ClangNode n) {
        if (n == null) return null;
        List<ClangNode> ch = n.children;
        switch (n.kind) {
            case CXCursor_DeclRefExpr -> {
                return n.spelling;
            }
            case CXCursor_IntegerLiteral -> {
                return n.value == null ? null : Long.toString(n.value.longValue());
            }
            case CXCursor_FloatingLiteral -> {
                return n.value == null ? null : Double.toString(n.value);
            }
            case CXCursor_ParenExpr -> {
                String x = ch.size() == 1 ? render(ch.get(0)) : null;
                return x == null ? null : "(" + x + ")";
            }
            case CXCursor_UnexposedExpr -> {
                return ch.size() == 1 ? render(ch.get(0)) : null;
            }
            case CXCursor_ArraySubscriptExpr -> {
                String a = ch.size() == 2 ? render(ch.get(0)) : null;
                String b = a == null ? null : render(ch.get(1));
                return b == null ? null : a + "[" + b + "]";
            }
            case CXCursor_MemberRefExpr -> {
                if (ch.size() != 1) return null;
                String b = render(ch.get(0));
                ClangNode base = strip(ch.get(0));
                return b == null ? null : b + (base.canonKind == CXType_Pointer ? "->" : ".") + n.spelling;
            }
            case CXCursor_BinaryOperator, CXCursor_CompoundAssignOperator -> {
                String a = ch.size() == 2 ? render(ch.get(0)) : null;
                String b = a == null ? null : render(ch.get(1));
                return b == null ? null : a + " " + n.spelling + " " + b;
            }
            case CXCursor_UnaryOperator -> {
                String x = ch.size() == 1 ? render(ch.get(0)) : null;
                return x == null ? null : n.spelling + x;
            }
            case CXCursor_CStyleCastExpr -> {
                String x = render(operandOf(n));
                return x == null ? null : "(" + n.type + ")" + x;
            }
            case CXCursor_CallExpr -> {
                // floorf(h1) of a macro's body (setBfree's x_ifloorf(h1), session 62: quoted as the macro's name)
                String f = callee(n);
                if (f.isEmpty()) return null;
                List<String> args = new java.util.ArrayList<>();
                for (ClangNode a : arguments(n)) {
                    String x = render(a);
                    if (x == null) return null;
                    args.add(x);
                }
                return f + "(" + String.join(", ", args) + ")";
            }
            default -> {
                return null;
            }
        }
    }
}
