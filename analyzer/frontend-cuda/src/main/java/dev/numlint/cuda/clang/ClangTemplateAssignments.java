package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.List;

/** Implicit conversions to a template parameter, which a template's pattern holds no node for. */
final class ClangTemplateAssignments {
    private ClangTemplateAssignments() {}

    /**
     * Implicit conversions to a template parameter in a pattern, where Clang's pattern has no node for them (the
     * destination is dependent): an assignment to a place of a type parameter's type ({@code dst[i] = x * s} with
     * {@code D *dst}, or an element of a {@code std::vector<D>}), or a variable of that type with an initialiser
     * ({@code D v = x * s}); each instantiation in view that binds the parameter to an integer type converts, as for
     * an explicit cast (session 65 round B: a sample-format converter's {@code dst[i] = ((float(v) - off) / scale) *
     * scaleD + offD} with {@code D} uint8_t and uint16_t was reported at no level).
     */
    static void of(ClangUnit unit, ClangUnit.Function fn, ClangNode n, List<ClangUnit.Conversion> out) {
        ClangNode dest;
        ClangNode value;
        if ((n.kind == CXCursor_BinaryOperator && n.spelling.equals("=") || n.kind == CXCursor_CompoundAssignOperator)
                && n.children.size() == 2) {
            dest = n.children.get(0);
            value = n.children.get(1);
        } else if (n.kind == CXCursor_VarDecl && !n.children.isEmpty()) {
            dest = n;
            value = n.children.get(n.children.size() - 1);
            if (value.kind < CXCursor_FirstExpr || value.kind > CXCursor_LastExpr) return;
        } else {
            return;
        }
        String param = parameterPlace(dest);
        // a value of a known type: a floating one, or another type parameter's (S to D); not a dependent call's
        // result, whose type may be the destination's own (out[i] = store<OUT>(v))
        String from = value.canon == null ? "" : value.canon;
        java.util.regex.Matcher other = PARAMETER.matcher(from);
        boolean known = other.matches() ? !other.group(1).equals(param) : !from.contains("dependent");
        if (param != null && known && unit.floatingType(value, fn) != null)
            ClangTemplates.conversions(unit, fn, value, value, param, written(dest), out);
    }

    private static final java.util.regex.Pattern PARAMETER =
            java.util.regex.Pattern.compile("(?:const )?(type-parameter-[01]-\\d+)(?: const)?");

    /** An element of a standard container of a type parameter: {@code vector<type-parameter-0-1, allocator<...>>}. */
    private static final java.util.regex.Pattern CONTAINER = java.util.regex.Pattern.compile(
            "(?:const )?(?:std::)?(?:vector|array|valarray|deque)<(type-parameter-[01]-\\d+)[,>].*");

    private static final java.util.regex.Pattern ELEMENT =
            java.util.regex.Pattern.compile(".*?<\\s*(?:const\\s+)?([A-Za-z_]\\w*)\\s*[,>].*");

    /** The parameter's name as the place's type is written ({@code D}, the element of {@code std::vector<D>}). */
    private static String written(ClangNode dest) {
        String t = dest.type == null ? "" : dest.type.replaceFirst("^const ", "");
        if (t.matches("[A-Za-z_]\\w*")) return t;
        ClangNode base = dest.children.isEmpty() ? null : dest.children.get(0);
        java.util.regex.Matcher m = ELEMENT.matcher(base == null || base.type == null ? "" : base.type);
        return m.matches() ? m.group(1) : "a template parameter";
    }

    /** The type parameter a place has as its type ("type-parameter-0-K"), or null. */
    private static String parameterPlace(ClangNode dest) {
        java.util.regex.Matcher m = PARAMETER.matcher(dest.canon == null ? "" : dest.canon);
        if (m.matches()) return m.group(1);
        if (dest.kind != CXCursor_ArraySubscriptExpr || dest.children.isEmpty()) return null;
        ClangNode base = dest.children.get(0);
        m = CONTAINER.matcher(base.canon == null ? "" : base.canon);
        return m.matches() ? m.group(1) : null;
    }
}
