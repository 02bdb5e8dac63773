package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.function.Function;

/**
 * A global variable read right after the function assigned it: {@code PSTRICKS_size_x = 5.; PSTRICKS_size_y = 3.;
 * term->xmax = PSTRICKS_size_x * PSTRICKS_XMAX / 5.;} (session 84 round AC: a plotting program's terminal options,
 * false NL001 errors "nothing bounds 'PSTRICKS_size_x' below"). The global holds the assigned value where nothing
 * between the assignment and the read can change it: the statements between, and the read's own statement, call no
 * function (a callee may write any global) and write only named variables that are neither the global nor a
 * reference, so no pointer or reference reaches it; no label is passed (a jump to it skips the assignment), and the
 * walk leaves no loop (a later iteration may write the global after the read). The assignment is a statement of its
 * own, {@code g = e;}, in a block around the read.
 */
final class ClangGlobalReads {
    private ClangGlobalReads() {}

    /** The interval of the value the function last assigned the global {@code ref} reads, or null. */
    static double[] reaching(ClangNode ref, ClangUnit.Function fn, Function<ClangNode, double[]> eval) {
        if (ref.kind != CXCursor_DeclRefExpr || ref.refUsr == null) return null;
        if (!floating(ref.canonKind) && !integral(ref.canonKind) || local(fn, ref.refUsr)) return null;
        ClangNode cur = ref;
        ClangNode stmt = null;
        for (ClangNode p = ref.parent; p != null && p != fn.node(); cur = p, p = p.parent) {
            if (isLoop(p) || p.kind == CXCursor_LambdaExpr) return null;
            if (p.kind != CXCursor_CompoundStmt) continue;
            if (stmt == null) {
                stmt = cur; // the read's own statement: no call runs in it before the read
                if (!quiet(stmt, ref, ref)) return null;
            }
            if (labelled(cur) != cur) return null;
            for (int j = p.children.indexOf(cur) - 1; j >= 0; j--) {
                ClangNode st = p.children.get(j);
                ClangNode value = assigned(labelled(st), ref.refUsr); // case K: g = 5.; runs on entry, as what follows
                if (value != null) return eval.apply(value);
                if (labelled(st) != st || !quiet(st, ref, null)) return null;
            }
        }
        return null;
    }

    /** Whether {@code usr} is a local or a parameter of {@code fn}. */
    private static boolean local(ClangUnit.Function fn, String usr) {
        boolean[] hit = {false};
        fn.node().forEach(x -> {
            if ((x.kind == CXCursor_VarDecl || x.kind == CXCursor_ParmDecl) && usr.equals(x.usr)) hit[0] = true;
        });
        return hit[0];
    }

    /** {@code e} of a statement {@code usr = e;}, or null. */
    private static ClangNode assigned(ClangNode st, String usr) {
        ClangNode x = strip(st);
        if (x == null || x.kind != CXCursor_BinaryOperator || !x.spelling.equals("=") || x.children.size() != 2)
            return null;
        ClangNode l = strip(x.children.get(0));
        return l != null && l.kind == CXCursor_DeclRefExpr && usr.equals(l.refUsr) ? x.children.get(1) : null;
    }

    /**
     * Whether {@code st} calls nothing and writes only named variables other than the global that are no references,
     * or objects of another arithmetic type, an integer against a floating one or two floating ones, no character
     * type (a store to an {@code unsigned int} member
     * cannot change a {@code float}: the aliasing rules of C and C++; gnuplot's {@code term->xmax = ...} between
     * {@code PSTRICKS_size_y = 3.} and its read), except {@code read}'s own statement, whose one write may be anything
     * once the read is evaluated.
     */
    private static boolean quiet(ClangNode st, ClangNode global, ClangNode read) {
        String usr = global.refUsr;
        boolean[] bad = {false};
        st.forEach(x -> {
            if (bad[0]) return;
            if (x.kind == CXCursor_CallExpr || x.kind == CXCursor_GotoStmt || x.kind == CXCursor_LabelStmt) {
                bad[0] = true;
                return;
            }
            boolean write = x.kind == CXCursor_CompoundAssignOperator
                    || x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")
                    || x.kind == CXCursor_UnaryOperator && (x.spelling.equals("++") || x.spelling.equals("--"));
            if (!write || x.children.isEmpty()) return;
            ClangNode target = strip(x.children.get(0));
            // the read's statement stores its value (term->xmax = g * k): the store follows the read
            if (read != null && x == strip(st) && x.kind == CXCursor_BinaryOperator) return;
            if (target != null
                    && target.kind != CXCursor_DeclRefExpr
                    && (integral(target.canonKind) || floating(target.canonKind))
                    && target.canonKind != global.canonKind
                    // an int and an unsigned int may alias: an integer against a floating type, or two floating types
                    && (floating(target.canonKind) || floating(global.canonKind))
                    && bytes(target.canonKind) > 1) return;
            bad[0] = target == null
                    || target.kind != CXCursor_DeclRefExpr
                    || usr.equals(target.refUsr)
                    || target.type != null && target.type.contains("&");
        });
        return !bad[0];
    }
}
