package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * The interval of a member read through a local pointer in straight-line code ({@code new->next_search =
 * new->line_len / 2;} a few statements after {@code new->line_len = SU_APT_LINE_LEN;}): the assignment to that member
 * through the same pointer that reaches the read, found by walking back through the statements before it as {@link
 * ClangFieldValues} does for a local structure (session 68 round B: a C signal library's constructor, a constant
 * stored in a freshly allocated decoder and read back two lines later, reported as an unguarded conversion because
 * other functions of the file store measured values in that member).
 *
 * <p>Memory behind a pointer may change through any other name for it, so every statement between the definition and
 * the read must be one that cannot write it: assignments to local variables, assignments through the same pointer to
 * members that do not overlap the one read, and calls of pure math functions ({@link ClangGuardedZeros#pureCall}).
 * Where the pointer holds an object its function made ({@link #fresh}: a local initialized by {@code new} or by a call
 * whose name says it allocates or constructs, {@code pd_new}, {@code malloc}, {@code foo_create}, and never assigned
 * again), a call of any function is harmless too unless it is given the object: the pointer, a member's address, an
 * array member, as a call changes the memory it is given and global memory, not a new object reached only through a
 * local (the Clang static analyzer's conservative call evaluation; session 72 round C: 43 errors of an audio
 * library's constructors, a default stored in the new object and read back after a clock query). Anything else
 * (another pointer's or array's store, the pointer itself reassigned, passed on or incremented), a loop around the
 * read, or a label between leaves the member unknown here (null).
 */
final class ClangPointedMembers {
    private ClangPointedMembers() {}

    /**
     * The interval of the member {@code path} ({@code .line_len}) read through the pointer {@code usr} at {@code at} in
     * {@code fn}: its reaching assignment's value, or null.
     */
    static double[] read(
            ClangUnit unit,
            ClangIntervals intervals,
            String usr,
            String path,
            ClangUnit.Function fn,
            ClangNode at,
            int depth) {
        if (usr == null || depth <= 0) return null;
        boolean fresh = fresh(unit, fn).contains(usr);
        ClangNode cur = at;
        for (ClangNode p = at.parent; p != null && p != fn.node(); cur = p, p = p.parent) {
            if (ClangSyntax.isLoop(p)) return null;
            if (p.kind != CXCursor_CompoundStmt) continue;
            if (ClangSyntax.labelled(cur) != cur) return null;
            for (int j = p.children.indexOf(cur) - 1; j >= 0; j--) {
                ClangNode st = p.children.get(j);
                if (ClangSyntax.labelled(st) != st) return null;
                ClangNode v = ClangFieldValues.assignedMember(st, path, l -> ClangFieldValues.rooted(l, usr));
                if (v != null) return harmless(v, usr, path, fresh) ? intervals.of(v, fn, depth - 1) : null;
                if (!harmless(st, usr, path, fresh)) return null;
            }
        }
        return null;
    }

    /**
     * Whether {@code n} cannot change the member {@code path} behind the pointer {@code usr}: it writes only local
     * variables and members of {@code usr} that do not overlap {@code path}, calls only pure math functions, and uses
     * {@code usr} only to reach members.
     */
    private static boolean harmless(ClangNode n, String usr, String path, boolean fresh) {
        boolean[] bad = new boolean[1];
        n.forEach(x -> {
            if (bad[0]) return;
            switch (x.kind) {
                case CXCursor_CallExpr -> bad[0] = !ClangGuardedZeros.pureCall(callee(x)) && !(fresh && !given(x, usr));
                case CXCursor_BinaryOperator, CXCursor_CompoundAssignOperator -> {
                    if (x.kind == CXCursor_BinaryOperator && !x.spelling.equals("=") || x.children.size() != 2) return;
                    bad[0] = !localTarget(x.children.get(0), usr, path);
                }
                case CXCursor_UnaryOperator -> {
                    if (x.children.size() == 1 && (x.spelling.equals("++") || x.spelling.equals("--")))
                        bad[0] = !localTarget(x.children.get(0), usr, path);
                }
                case CXCursor_DeclRefExpr -> {
                    // the pointer itself: only as the base of a member access
                    if (usr.equals(x.refUsr)) {
                        ClangNode m = x.parent;
                        while (m != null && (m.kind == CXCursor_UnexposedExpr || m.kind == CXCursor_ParenExpr))
                            m = m.parent;
                        bad[0] = m == null || m.kind != CXCursor_MemberRefExpr;
                    }
                }
                default -> {}
            }
        });
        return !bad[0];
    }

    private static final java.util.regex.Pattern MAKES =
            java.util.regex.Pattern.compile("(?i)\\w*(alloc|new|create|make)\\w*");

    /**
     * The pointer locals of {@code fn} that hold an object the function made: initialized by {@code new} or by a call
     * whose name says it allocates or constructs ({@code malloc}, {@code calloc}, {@code pd_new}, {@code
     * obj_create}), through casts, and never written again; one walk per function.
     */
    static java.util.Set<String> fresh(ClangUnit unit, ClangUnit.Function fn) {
        return unit.perFunction("fresh-objects", fn.node(), () -> {
            java.util.Set<String> made = new java.util.HashSet<>();
            java.util.Set<String> other = new java.util.HashSet<>();
            fn.node().forEach(x -> {
                if (x.kind == CXCursor_VarDecl && x.usr != null && !x.children.isEmpty()) {
                    ClangNode init = withoutCasts(x.children.get(x.children.size() - 1));
                    if (init != null
                            && (init.kind == CXCursor_CXXNewExpr
                                    || init.kind == CXCursor_CallExpr
                                            && MAKES.matcher(callee(init)).matches())) made.add(x.usr);
                }
                if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null && (written(x) || aliases(x)))
                    other.add(x.refUsr);
            });
            made.removeAll(other);
            return made;
        });
    }

    /** Whether the call {@code call} is given the object behind {@code usr}: the pointer, a member's address, an array. */
    private static boolean given(ClangNode call, String usr) {
        boolean[] hit = new boolean[1];
        for (ClangNode a : arguments(call)) {
            a.forEach(x -> {
                if (hit[0] || x.kind != CXCursor_DeclRefExpr || !usr.equals(x.refUsr)) return;
                ClangNode m = x.parent;
                while (m != null && (m.kind == CXCursor_UnexposedExpr || m.kind == CXCursor_ParenExpr)) m = m.parent;
                if (m == null || m.kind != CXCursor_MemberRefExpr) {
                    hit[0] = true; // the pointer itself
                    return;
                }
                ClangNode up = m.parent;
                while (up != null && up.kind == CXCursor_ParenExpr) up = up.parent;
                hit[0] = m.canonKind == CXType_ConstantArray
                        || up != null && up.kind == CXCursor_UnaryOperator && up.spelling.equals("&");
            });
        }
        return hit[0];
    }

    /** Whether the assigned {@code l} is a local scalar variable, or a member of {@code usr} apart from {@code path}. */
    private static boolean localTarget(ClangNode l, String usr, String path) {
        ClangNode t = strip(l);
        if (t == null) return false;
        if (t.kind == CXCursor_DeclRefExpr) return t.canonKind != CXType_Record;
        if (!ClangFieldValues.rooted(t, usr)) return false;
        String s = ClangFieldValues.suffix(t, ClangFieldValues.object(t), true);
        return s != null && !ClangFieldValues.overlap(s, path);
    }
}
