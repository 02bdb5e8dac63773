package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/** Whether a statement writes a variable, member or element a guard tests ({@link ClangGuards.Path}). */
final class ClangPathWrites {
    private ClangPathWrites() {}

    /**
     * Whether {@code s} assigns (or increments, or takes the address of) the variable {@code usr}, an object it lies
     * in, or a variable its path names (the base, an index); for a path through a pointer or an array, whether
     * {@code s} passes its base to a call.
     */
    static boolean writes(ClangNode s, ClangGuards.Path usr) {
        boolean[] hit = new boolean[1];
        s.forEach(x -> {
            if (hit[0] || x.children.isEmpty()) return;
            boolean assign = x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")
                    || x.kind == CXCursor_CompoundAssignOperator
                    || x.kind == CXCursor_UnaryOperator
                            && (x.spelling.equals("++") || x.spelling.equals("--") || x.spelling.equals("&"));
            if (!assign) return;
            ClangNode l = strip(x.children.get(0));
            String k = ClangGuards.Path.key(l);
            if (k != null && (usr.within(k) || usr.parts().contains(k))) hit[0] = true;
        });
        if (!hit[0] && usr.indirect()) {
            boolean byAccessor = usr.key().contains("(");
            s.forEach(x -> {
                // an element's accessor reads (its assignment is one above)
                if (hit[0] || x.kind != CXCursor_CallExpr || ClangGuards.Path.accessor(x)) return;
                for (ClangNode a : arguments(x)) {
                    // a copy of a value (roundf(s[i].x), ceil(p->x - q->x): no address, no lvalue that a
                    // reference parameter could bind) writes nothing
                    if (!address(a.canonKind) && !lvalue(a)) continue;
                    String r = rootUsr(a);
                    if (r != null && usr.parts().contains(r)) hit[0] = true;
                }
                // an element read through an accessor: any other method of its object may change it
                ClangNode f = byAccessor && !x.children.isEmpty() ? strip(x.children.get(0)) : null;
                if (f != null && f.kind == CXCursor_MemberRefExpr && f.children.size() == 1) {
                    String r = rootUsr(f.children.get(0));
                    if (r != null && usr.parts().contains(r)) hit[0] = true;
                }
            });
        }
        return hit[0];
    }

    /** Whether {@code a} as written is an lvalue a reference parameter could bind: a variable, member or element. */
    private static boolean lvalue(ClangNode a) {
        ClangNode e = a;
        while (e != null && e.kind == CXCursor_ParenExpr && e.children.size() == 1) e = e.children.get(0);
        return e != null
                && (e.kind == CXCursor_DeclRefExpr
                        || e.kind == CXCursor_MemberRefExpr
                        || e.kind == CXCursor_ArraySubscriptExpr
                        || e.kind == CXCursor_UnaryOperator && "*".equals(e.spelling));
    }
}
