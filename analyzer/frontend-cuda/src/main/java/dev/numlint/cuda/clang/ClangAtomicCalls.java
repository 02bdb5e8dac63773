package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.cuda.clang.ClangUnit.Function;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Every atomic read-modify-write of a value ({@code atomicAdd}, {@code atomicSub}, {@code atomicExch} and their
 * {@code _block}/{@code _system} forms) in a unit's functions, with what Clang knows of its operand
 * ({@link ClangUnit#atomicCalls()}): whether it is integral (an integer pointee, or an integer constant added to an
 * operand of unknown type, a counter), the pointee's type, and the template parameters of a template no
 * instantiation in view decides. The atomics' recall notice reads it for the sites no NL009 finding covers.
 */
public final class ClangAtomicCalls {
    private ClangAtomicCalls() {}

    /**
     * One atomic call.
     *
     * @param line      its line
     * @param name      the atomic's name
     * @param integral  its operand is an integer (the pointee), or it adds an integer constant to an operand of a type
     *                  not known (a counter): no floating sum to judge
     * @param pointee   the pointee's type as Clang gives it, or null
     * @param record    the pointee is a struct (float3, a user's vector): a call of an overload
     * @param unresolved the type parameters of the template it is in when no instantiation in view decides them
     */
    public record AtomicCall(
            int line, String name, boolean integral, String pointee, boolean record, List<String> unresolved) {}

    /** The read-modify-write atomics of a value whose type could be floating. */
    public static final Set<String> NAMES = Set.of(
            "atomicAdd",
            "atomicAdd_block",
            "atomicAdd_system",
            "atomicSub",
            "atomicSub_block",
            "atomicSub_system",
            "atomicExch",
            "atomicExch_block",
            "atomicExch_system",
            "unsafeAtomicAdd",
            "safeAtomicAdd");

    static List<AtomicCall> compute(ClangUnit unit) {
        List<AtomicCall> out = new ArrayList<>();
        unit.eachInFunctions((fn, n) -> {
            if (n.kind != CXCursor_CallExpr) return;
            String name = callee(n);
            if (!NAMES.contains(name)) return;
            List<ClangNode> args = arguments(n);
            if (args.size() < 2) return;
            ClangNode ptr = args.get(0);
            String type = pointee(ptr);
            int kind = pointeeKind(ptr);
            ClangNode value = args.get(1);
            ClangNode sv = strip(value);
            boolean counter = isIntegerConstant(value) || sv != null && isIntegerConstant(sv);
            boolean integral = integral(kind)
                    || unsignedKind(kind)
                    || (kind == CXType_Invalid || kind == CXType_Unexposed || kind == CXType_Dependent) && counter;
            // a call of an overload this file defines: its body's adds are judged there and at this call (ClangAtomics)
            // a template whose every instantiation in view adds an integer (T = int, or T = int2's member x)
            integral |= ClangInstantiations.integralInEvery(unit, fn, ptr, value);
            boolean record = kind == CXType_Record || kind == CXType_Elaborated;
            if (record && n.refUsr != null) {
                for (Function f : unit.functions()) if (n.refUsr.equals(f.node().usr)) integral = true;
            }
            out.add(new AtomicCall(
                    n.line,
                    name,
                    integral,
                    type == null ? null : type.replace("const ", ""),
                    record,
                    unresolvedParameters(fn)));
        });
        return List.copyOf(out);
    }

    /**
     * "type-parameter-0-K" of the pointer an atomic writes through, in a template pattern where its type is dependent
     * ({@code &out[i]} of a {@code T *out}, {@code &acc} of a {@code T acc}), or null. The indexes and offsets in it are
     * no part of what it points to: in {@code pr.res + dest} (a member of an object of a dependent class, and a {@code
     * V dest}) the {@code V} is the offset's, and the add is of the value's type (issue 26, session 78 round C: a graph
     * code's float adds judged integral because its vertex type is {@code int}).
     */
    static String pointerParam(ClangNode ptr) {
        if (ClangDependentTypes.integerRounding(ptr)) return null;
        return pointerParam(ptr, ptr);
    }

    private static String pointerParam(ClangNode n, ClangNode root) {
        // as ClangUnit.templateParam: a type named in a value's place is none, a T * passed to a call is a buffer
        if (n.kind == CXCursor_TypeRef || ClangSyntax.inSizeof(n, root)) return null;
        if (n.canon != null && n.canon.matches(PARAM)) return n.canon.replace("const ", "");
        if (n.pointee != null && n.pointee.matches(PARAM) && !ClangSyntax.callArgument(n, root))
            return n.pointee.replace("const ", "");
        for (int i = 0; i < n.children.size(); i++) {
            if (offset(n, i)) continue;
            String p = pointerParam(n.children.get(i), root);
            if (p != null) return p;
        }
        return null;
    }

    private static final String PARAM = "(const )?type-parameter-0-\\d+";

    /**
     * Whether child {@code i} of {@code n} is an index or an offset: a subscript's index, or an operand of {@code p + i}
     * or {@code p - i} that is a value (an integer, or of a template parameter's own type, which is no pointer).
     */
    private static boolean offset(ClangNode n, int i) {
        if (n.kind == CXCursor_ArraySubscriptExpr) return i == 1;
        boolean sum = n.kind == CXCursor_BinaryOperator
                && n.children.size() == 2
                && ("+".equals(n.spelling) || "-".equals(n.spelling));
        // with an operator+ overload in view (a library header's), Clang keeps a dependent p + i as a call of the
        // unresolved operator: its children are the left operand, the operator's reference and the right operand
        if (!sum && !(operatorCall(n) && i != 1)) return false;
        ClangNode c = strip(n.children.get(i));
        return c != null && (integral(c.canonKind) || c.canon != null && c.canon.matches(PARAM));
    }

    /** A call of {@code operator+} or {@code operator-} with its two operands ({@code a + b} of dependent types). */
    private static boolean operatorCall(ClangNode n) {
        if (n.kind != CXCursor_CallExpr || n.children.size() != 3) return false;
        if ("operator+".equals(n.spelling) || "operator-".equals(n.spelling)) return true;
        String[] name = {null};
        n.children.get(1).forEach(x -> {
            if (name[0] == null
                    && (x.kind == CXCursor_OverloadedDeclRef || x.kind == CXCursor_DeclRefExpr)
                    && !x.spelling.isEmpty()) name[0] = x.spelling;
        });
        return "operator+".equals(name[0]) || "operator-".equals(name[0]);
    }

    /** An integer literal, or a constant of an integer type ({@code 1}, {@code -1}, {@code 1u}). */
    private static boolean isIntegerConstant(ClangNode v) {
        if (v.kind == CXCursor_IntegerLiteral) return true;
        if (v.kind == CXCursor_UnaryOperator && v.children.size() == 1) {
            ClangNode c = strip(v.children.get(0));
            return c != null && c.kind == CXCursor_IntegerLiteral;
        }
        return false;
    }

    /** The written names of {@code fn}'s template type parameters when no instantiation in view decides them. */
    private static List<String> unresolvedParameters(Function fn) {
        if (!fn.template() || !fn.instantiations().isEmpty()) return List.of();
        List<String> names = new ArrayList<>();
        for (ClangNode c : fn.node().children) {
            if (c.kind == CXCursor_TemplateTypeParameter && c.spelling != null && !c.spelling.isEmpty())
                names.add(c.spelling);
        }
        return names;
    }
}
