package dev.numlint.cuda.clang;

import java.util.ArrayList;
import java.util.List;

/**
 * Explicit conversions whose floating operand the hand-written facts cannot type: a template parameter's value, or a
 * value read through a call of a function template or an object ({@link ClangSupplement} leaves those to Clang).
 */
final class ClangTemplateConversions {
    private ClangTemplateConversions() {}

    /** A dependent type of a value: "type-parameter-0-K", const or not. */
    private static final java.util.regex.Pattern VALUE_PARAM =
            java.util.regex.Pattern.compile("^(?:const )?type-parameter-0-(\\d+)$");

    /**
     * The indices of the parameters of depth 0 whose instantiations decide whether the dependent operand {@code op} is
     * floating (any of them floating makes it so), when {@code param}, the destination, is one of depth 0 too; null
     * when that is not known from them alone: an operand of known type, one that calls a function or holds a
     * floating literal (sqrt of an int is a double), or one that names a parameter of another depth.
     */
    static List<Integer> operandParameters(ClangNode op, String param) {
        ClangNode s = ClangSyntax.strip(op);
        if (s == null
                || ClangSyntax.floating(s.canonKind)
                || ClangSyntax.floating(op.canonKind)
                || !param.startsWith("type-parameter-0-")) return null;
        java.util.TreeSet<Integer> found = new java.util.TreeSet<>();
        boolean[] unknown = {false};
        s.forEach(x -> {
            if (x.kind == org.bytedeco.llvm.global.clang.CXCursor_CallExpr
                    || x.kind == org.bytedeco.llvm.global.clang.CXCursor_FloatingLiteral
                    || x.kind == org.bytedeco.llvm.global.clang.CXCursor_OverloadedDeclRef) unknown[0] = true;
            if (x.kind == org.bytedeco.llvm.global.clang.CXCursor_TypeRef
                    || ClangSyntax.inSizeof(x, s)
                    || x.canon == null) return;
            java.util.regex.Matcher m = VALUE_PARAM.matcher(x.canon);
            if (m.matches()) found.add(Integer.parseInt(m.group(1)));
            else if (x.canon.contains("type-parameter-") && !x.canon.contains("type-parameter-0-")) unknown[0] = true;
        });
        return unknown[0] || found.isEmpty() ? null : new ArrayList<>(found);
    }

    static boolean real(String t) {
        return t.equals("float") || t.equals("double") || t.equals("long double");
    }

    /** Whether Clang holds an explicit conversion of a template parameter's floating value at this position. */
    static boolean at(ClangUnit unit, int line, int column) {
        for (ClangUnit.Conversion c : unit.conversions()) {
            if (c.viaTemplate() && c.explicit() && c.node().line == line && unit.utf16Column(c.node()) == column)
                return true;
        }
        return false;
    }

    /**
     * Whether Clang holds an explicit conversion at this position whose operand reads floating data through a call of
     * a function template of this file or its headers ({@code (unsigned char)rintf(limit(v[i] * scale))} with
     * {@code template <typename F> F limit(F x)}), or through a call of an object or one of its methods ({@code
     * (unsigned int)masks(j, i)} of OpenCV's {@code cv::Mat_<float>}, {@code m.at(1, 2)}): the hand-written facts
     * cannot type the call's dependent return or a library class's operator and read the operand as integers and
     * constants.
     */
    static boolean throughCall(ClangUnit unit, int line, int column) {
        for (ClangUnit.Conversion c : unit.conversions()) {
            if (c.viaTemplate() || !c.explicit() || c.node().line != line || unit.utf16Column(c.node()) != column)
                continue;
            boolean[] found = {false};
            c.operand().forEach(n -> {
                if (!found[0]
                        && n.kind == org.bytedeco.llvm.global.clang.CXCursor_CallExpr
                        && (ClangSyntax.objectCall(n) || templateNamed(unit, ClangSyntax.callee(n)))
                        && ClangSyntax.floatData(n)) found[0] = true;
            });
            return found[0];
        }
        return false;
    }

    /**
     * Whether a conversion of a template pattern reads floating data as far as the pattern shows: an operand of a
     * template parameter's type (or one instantiated with floating types) does; one whose floating type is only guessed
     * from a math function it calls ({@link ClangUnit#GUESSED_FLOATING}) does only when a template parameter's value
     * is in it: {@code static_cast<size_t>(std::log2(size.half))} in a method of a class template's nested struct,
     * with {@code half} a {@code size_t} member that Clang leaves untyped in the pattern, converts a logarithm of an
     * integer, as the same cast of a {@code size_t} parameter does (session 54, stftPitchShift's RFFT.h).
     */
    static boolean floatData(ClangUnit.Conversion c) {
        if (!c.viaTemplate()) return false;
        return !ClangUnit.GUESSED_FLOATING.equals(c.from()) || ClangUnit.templateParam(c.operand()) != null;
    }

    /** Whether a function template of this file or of a header read in its parse has this name. */
    private static boolean templateNamed(ClangUnit unit, String name) {
        List<ClangUnit> units = new ArrayList<>(ClangIncludes.of(unit).values());
        units.add(unit);
        for (ClangUnit u : units) {
            if (u.failure() != null) continue;
            for (ClangUnit.Function f : u.functions())
                if (f.template() && f.node().spelling.equals(name)) return true;
        }
        return false;
    }
}
