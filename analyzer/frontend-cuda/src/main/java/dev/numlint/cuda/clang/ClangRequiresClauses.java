package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A member or function template constrained to integer types by its requires clause ({@code auto popcount() const
 * requires(std::integral<ValueType>)} of a class template that is also instantiated with float): the function exists
 * only for the integer instantiations, so the floating ones its class is instantiated with are not its own.
 */
final class ClangRequiresClauses {
    private ClangRequiresClauses() {}

    /** {@code requires ... std::integral<T>} (and its signed and unsigned forms, {@code std::is_integral_v<T>}). */
    private static final Pattern INTEGRAL = Pattern.compile(
            "(?:std::)?(?:(?:un)?signed_integral|integral|is_integral_v|is_integral)\\s*<\\s*([A-Za-z_]\\w*)\\s*>");

    /**
     * Whether {@code fn}'s declaration, before its body, has a requires clause that constrains the template parameter
     * {@code param} ("type-parameter-0-K", of the enclosing class template or of the function) to integer types.
     */
    static boolean integralOnly(ClangUnit unit, ClangUnit.Function fn, String param) {
        if (fn == null || param == null || !param.matches("type-parameter-\\d+-\\d+")) return false;
        String head = head(unit, fn.node());
        int r = head.indexOf("requires");
        if (r < 0) return false;
        Set<String> names = new HashSet<>();
        Matcher m = INTEGRAL.matcher(head.substring(r));
        while (m.find()) names.add(m.group(1));
        if (names.isEmpty()) return false;
        String[] parts = param.split("-");
        int depth = Integer.parseInt(parts[2]);
        int index = Integer.parseInt(parts[3]);
        List<String> declared = parameters(fn.node(), depth);
        return index < declared.size() && names.contains(declared.get(index));
    }

    /** The declaration's text up to its body. */
    private static String head(ClangUnit unit, ClangNode fn) {
        String t = unit.text(fn);
        for (ClangNode c : fn.children) {
            if (c.kind == CXCursor_CompoundStmt && c.offset > fn.offset && c.offset - fn.offset <= t.length())
                return t.substring(0, c.offset - fn.offset);
        }
        return t;
    }

    /**
     * The names of the template parameters at {@code depth}: the outermost class template's (depth 0) from the
     * out-of-line definition's own template head or from the enclosing class template, else the function's own.
     */
    private static List<String> parameters(ClangNode fn, int depth) {
        List<List<String>> heads = new ArrayList<>();
        for (ClangNode p = fn.parent; p != null; p = p.parent) {
            if (p.kind == CXCursor_ClassTemplate || p.kind == CXCursor_ClassTemplatePartialSpecialization)
                heads.add(0, own(p));
        }
        List<String> own = own(fn);
        if (!own.isEmpty()) heads.add(own);
        return depth < heads.size() ? heads.get(depth) : List.of();
    }

    private static List<String> own(ClangNode n) {
        List<String> out = new ArrayList<>();
        for (ClangNode c : n.children) {
            if (c.kind == CXCursor_TemplateTypeParameter
                    || c.kind == CXCursor_NonTypeTemplateParameter
                    || c.kind == CXCursor_TemplateTemplateParameter) out.add(c.spelling);
        }
        return out;
    }
}
