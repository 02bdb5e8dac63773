package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * A predicate method read as the test it returns: {@code assert(isClamped())} in a method of a class whose
 * {@code bool isClamped() const { return r >= 0.0f && r <= 1.0f && ...; }} tests the object's own members, checks
 * those members (session 83 round Z: a path tracer's colour packed to bytes, {@code uint32_t(r * 255.0f + 0.5f)} after
 * that assertion, a false NL001 error "nothing bounds 'r' below").
 *
 * <p>Only a call without arguments of a method of the same object (on the implicit {@code this} or an explicit one),
 * defined in this parse with a body of one {@code return} of a condition: its members are the caller's own, so the
 * returned condition holds where the call returned true. Anything else (another object's method, a call with
 * arguments, a body that does more than return) is no such predicate.
 */
final class ClangPredicates {
    private ClangPredicates() {}

    /** The condition the predicate called by {@code test} returns, else {@code test} itself. */
    static ClangNode tested(ClangUnit unit, ClangNode test) {
        ClangNode r = returned(unit, test);
        return r == null ? test : r;
    }

    /** The condition the predicate called by {@code test} returns, or null when {@code test} is no such call. */
    private static ClangNode returned(ClangUnit unit, ClangNode test) {
        ClangNode call = bare(test);
        if (call == null || call.kind != CXCursor_CallExpr || call.children.size() != 1) return null;
        ClangNode member = bare(call.children.get(0));
        if (member == null || member.kind != CXCursor_MemberRefExpr || member.refUsr == null) return null;
        for (ClangNode b : member.children) if (b.kind != CXCursor_CXXThisExpr) return null; // another object's
        for (ClangUnit u : ClangIncludes.sameParse(unit)) {
            if (u.failure() != null) continue;
            for (ClangUnit.Function fn : u.functions()) {
                if (!member.refUsr.equals(fn.node().usr) || fn.node().kind != CXCursor_CXXMethod) continue;
                ClangNode body = null;
                for (ClangNode c : fn.node().children) if (c.kind == CXCursor_CompoundStmt) body = c;
                if (body == null || body.children.size() != 1) return null;
                ClangNode ret = body.children.get(0);
                if (ret.kind != CXCursor_ReturnStmt || ret.children.size() != 1) return null;
                return ret.children.get(0);
            }
        }
        return null;
    }
}
