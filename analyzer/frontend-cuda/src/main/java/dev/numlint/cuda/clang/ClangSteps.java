package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether the step of a sum can change from one iteration of its carrying loops to the next (the {@code varies} of a
 * {@link ClangSites.Sum}), by Clang's declarations and def-use, as the hand-written front end's
 * {@code AccumulationSites.variesWithLoop}: a term that reads only variables and fields of named structs that no
 * carrying loop declares, writes, increments, takes the address of or passes by reference ({@code ra += dir.z} with
 * {@code dir} a parameter the loop never changes), or calls whose value the intervals prove is one number, steps by a
 * constant: a stepping, not a sum of data. An element, another call, a pointer's target ({@code p->z}, {@code *p}) or a member of {@code this} may change with any store. The
 * carrying loops are those around the update inside the accumulator's declaration.
 */
final class ClangSteps {
    private static final java.util.Set<String> ASSIGNMENTS = java.util.Set.of(
            "operator=", "operator+=", "operator-=", "operator*=", "operator/=", "operator++", "operator--");

    private ClangSteps() {}

    /** Whether {@code term}, added to {@code lhs} by the update {@code update} in {@code fn}, varies with its loops. */
    static boolean varies(ClangUnit unit, ClangNode term, ClangNode lhs, ClangNode update, ClangUnit.Function fn) {
        List<ClangNode> loops = carryingLoops(lhs, update, fn);
        if (loops.isEmpty()) return true;
        ClangNode outermost = loops.get(loops.size() - 1);
        List<String> read = new ArrayList<>();
        boolean[] memory = new boolean[1];
        term.forEach(x -> {
            switch (x.kind) {
                    // a call whose value is one number (CppEphem's sec_per_day(), returning 86400.0: a wrap loop's
                    // while (secs < 0.0) secs += sec_per_day();, session 71 round H) steps by a constant
                case CXCursor_CallExpr -> memory[0] |= !oneValue(unit.interval(x, fn));
                case CXCursor_ArraySubscriptExpr, CXCursor_CXXThisExpr -> memory[0] = true;
                case CXCursor_UnaryOperator -> {
                    if (x.spelling.equals("*")) memory[0] = true;
                }
                case CXCursor_MemberRefExpr -> {
                    // s.f reads the struct s; p->f (and an implicit this->f, a member with no written base) reads
                    // memory that any store may change
                    ClangNode base = x.children.isEmpty() ? null : strip(x.children.get(0));
                    if (base == null || base.canonKind == CXType_Pointer) memory[0] = true;
                }
                case CXCursor_DeclRefExpr -> {
                    if (x.refUsr != null) read.add(x.refUsr);
                }
                default -> {}
            }
        });
        if (memory[0]) return true;
        for (String v : read) {
            if (declares(outermost, v)) return true; // declared inside the carrying loops
            if (changed(outermost, v)) return true; // written, incremented or aliased there (counters included)
        }
        return false;
    }

    private static boolean oneValue(double[] x) {
        return x[0] == x[1] && !Double.isInfinite(x[0]);
    }

    /**
     * Whether {@code loop} writes the variable {@code usr} or an object inside it (an assignment, compound
     * assignment, increment or decrement of it, a member or an element of it), takes its address or binds a
     * reference or a call's argument to it.
     */
    private static boolean changed(ClangNode loop, String usr) {
        boolean[] hit = new boolean[1];
        loop.forEach(n -> {
            if (hit[0]) return;
            if (n.kind == CXCursor_DeclRefExpr && usr.equals(n.refUsr) && aliases(n)) {
                hit[0] = true;
                return;
            }
            boolean assign = n.kind == CXCursor_BinaryOperator && n.spelling.equals("=")
                    || n.kind == CXCursor_CompoundAssignOperator;
            boolean step = n.kind == CXCursor_UnaryOperator && (n.spelling.equals("++") || n.spelling.equals("--"));
            if ((assign || step) && !n.children.isEmpty() && usr.equals(rootUsr(n.children.get(0)))) hit[0] = true;
            // an assignment operator of a class (operator=, operator+=) writes its first argument
            if (n.kind == CXCursor_CallExpr
                    && ASSIGNMENTS.contains(n.spelling)
                    && !n.children.isEmpty()
                    && usr.equals(rootUsr(n.children.get(0)))) hit[0] = true;
        });
        return hit[0];
    }
}
