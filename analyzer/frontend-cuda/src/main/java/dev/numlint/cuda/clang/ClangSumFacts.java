package dev.numlint.cuda.clang;

import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.cuda.facts.Site;
import java.util.List;

/**
 * The sums of the functions only Clang read, as {@link FunctionFacts.Accumulation}s ({@link ClangSupplement#missing}),
 * and the sites whose uses Clang's def-use follows.
 */
final class ClangSumFacts {
    private ClangSumFacts() {}

    /**
     * A sum of a function only Clang read: its carrying loops and their trip count from Clang's loops and def-use
     * (a reset in every iteration of a loop ends the sum there; reset in every iteration of the innermost loop, the
     * accumulator is rewritten, not summed).
     */
    static void sum(ClangUnit unit, FunctionFacts f, ClangSites.Sum s) {
        ClangNode n = s.node();
        String target = unit.text(s.target());
        ClangLoops.Carried c = unit.carriedBy(n.line, n.column, target);
        if (c == null || c.loopLines().isEmpty()) return;
        // no loop carries it and nothing resets it: every iteration updates another element, one term each
        boolean perElement = c.resetLine() == 0 && c.carrying().isEmpty();
        boolean rewritten = c.resetLine() != 0 && c.carrying().isEmpty();
        int outer = rewritten || perElement
                ? c.loopLines().get(c.loopLines().size() - 1)
                : c.carrying().get(0);
        long trip = rewritten ? 0 : c.trip();
        dev.numlint.cuda.facts.Site site = flowing(unit, n, s.in());
        if (unit.neverNegative(n.line, target)) site.storesNeverNegative(target);
        if (!rewritten && c.tripFrom() != null) site.withTripFrom(c.tripFrom());
        if (!rewritten && c.cleanUp() != null) site.inCleanUpLoop(c.cleanUp());
        if (!rewritten && !perElement && c.stride() != null) site.withStride(c.stride());
        if (!rewritten && !perElement && c.partials() != null) site.overPartialResults(c.partials());
        if (!rewritten && !perElement) site.inOpenMpReduction(ClangOpenMp.reduction(unit, outer, target));
        f.accumulations.add(new FunctionFacts.Accumulation(
                site,
                target,
                s.type(),
                s.doublePrecision(),
                outer,
                trip,
                false,
                s.wholeNumberTerm(),
                s.treeReduction(),
                s.elementwise() || perElement,
                s.varies(),
                dev.numlint.cuda.facts.LoopNames.measuresTime(rootName(s.target())),
                rewritten,
                s.viaFma(),
                s.gridStride(),
                rewritten ? FunctionFacts.ResultCheck.NONE : resultCheck(unit, s, outer),
                s.recurrence() && (rewritten || recurrentIn(s, outer)) || !rewritten && filtered(s, outer),
                ClangConstantSums.of(s)));
    }

    /**
     * Whether the loop at {@code outerLine} also scales the accumulator in place ({@link ClangRecurrences#scaled}): a
     * recursive filter's state, not a sum of data.
     */
    private static boolean filtered(ClangSites.Sum s, int outerLine) {
        for (ClangNode p = s.node().parent; p != null; p = p.parent) {
            if (ClangSyntax.isLoop(p) && p.line == outerLine) return ClangRecurrences.scaled(s.target(), p);
        }
        return false;
    }

    /** Whether the sum is a recurrence within the loop at {@code outerLine}, the outermost that carries it. */
    private static boolean recurrentIn(ClangSites.Sum s, int outerLine) {
        for (ClangNode p = s.node().parent; p != null; p = p.parent) {
            boolean loop = p.kind == org.bytedeco.llvm.global.clang.CXCursor_ForStmt
                    || p.kind == org.bytedeco.llvm.global.clang.CXCursor_WhileStmt
                    || p.kind == org.bytedeco.llvm.global.clang.CXCursor_DoStmt;
            if (loop && p.line == outerLine) {
                List<ClangNode> terms = s.viaFma()
                        ? ClangSyntax.arguments(ClangSyntax.strip(s.term())).subList(0, 2)
                        : List.of(s.term());
                return ClangRecurrences.in(s.target(), terms, p);
            }
        }
        return true;
    }

    /** The name of the variable an accumulator lies in ({@code elapsedMs} of {@code elapsedMs[k]}, {@code t.x}), or null. */
    private static String rootName(ClangNode n) {
        ClangNode x = n;
        for (int guard = 0; x != null && guard < 64; guard++) {
            if (x.kind == org.bytedeco.llvm.global.clang.CXCursor_DeclRefExpr) return x.spelling;
            if (x.children.isEmpty()) return null;
            x = x.children.get(0);
        }
        return null;
    }

    /** What a sum carried by the loop at {@code outerLine} adds, as a result check sees it ({@link ClangErrorMeasures}). */
    private static FunctionFacts.ResultCheck resultCheck(ClangUnit unit, ClangSites.Sum s, int outerLine) {
        for (ClangNode p = s.node().parent; p != null; p = p.parent) {
            boolean loop = p.kind == org.bytedeco.llvm.global.clang.CXCursor_ForStmt
                    || p.kind == org.bytedeco.llvm.global.clang.CXCursor_WhileStmt
                    || p.kind == org.bytedeco.llvm.global.clang.CXCursor_DoStmt;
            if (loop && p.line == outerLine)
                return ClangErrorMeasures.classify(unit, p, s.node(), unit.text(s.target()));
        }
        return FunctionFacts.ResultCheck.NONE;
    }

    /** A site whose uses Clang's def-use follows ({@link ClangUnit#uses}). */
    static Site flowing(ClangUnit unit, ClangNode n, ClangUnit.Function f) {
        return site(unit, n, f, unit.quoted(n), () -> unit.uses(n, f), () -> unit.drawn(n, f))
                .inStatementEndingAt(statementEnd(n));
    }

    /** A site at {@code n} without def-use (its uses are not followed). */
    static Site at(ClangUnit unit, ClangNode n, ClangUnit.Function f) {
        return site(unit, n, f, unit.quoted(n), null, null);
    }

    /** A site at {@code n} without def-use that a message quotes as {@code text} (an asm statement's instruction). */
    static Site named(ClangUnit unit, ClangNode n, ClangUnit.Function f, String text) {
        return site(unit, n, f, text, null, null);
    }

    private static Site site(
            ClangUnit unit,
            ClangNode n,
            ClangUnit.Function f,
            String text,
            java.util.function.Supplier<java.util.List<dev.numlint.cuda.facts.ValueUse>> uses,
            java.util.function.BooleanSupplier drawn) {
        // columns in UTF-16 code units, as every location numlint reports (Clang counts bytes)
        return new Site(
                n.line,
                unit.utf16Column(n),
                n.endLine,
                unit.utf16EndColumn(n),
                null,
                text,
                f.device(),
                f.host(),
                uses,
                drawn);
    }

    /**
     * The last line of the statement {@code n} is written in (the hand-written front end's
     * {@code FunctionBody.statementEnd}): the statement of a block or of an if's or loop's branch that holds it, or
     * the condition, initialisation or step of the if or loop that holds it; 0 outside any statement.
     */
    static int statementEnd(ClangNode n) {
        for (ClangNode x = n; x.parent != null; x = x.parent) {
            switch (x.parent.kind) {
                case org.bytedeco.llvm.global.clang.CXCursor_CompoundStmt,
                        org.bytedeco.llvm.global.clang.CXCursor_IfStmt,
                        org.bytedeco.llvm.global.clang.CXCursor_ForStmt,
                        org.bytedeco.llvm.global.clang.CXCursor_WhileStmt,
                        org.bytedeco.llvm.global.clang.CXCursor_DoStmt,
                        org.bytedeco.llvm.global.clang.CXCursor_SwitchStmt,
                        org.bytedeco.llvm.global.clang.CXCursor_CaseStmt,
                        org.bytedeco.llvm.global.clang.CXCursor_DefaultStmt,
                        org.bytedeco.llvm.global.clang.CXCursor_LabelStmt,
                        org.bytedeco.llvm.global.clang.CXCursor_CXXForRangeStmt -> {
                    return x.endLine;
                }
                default -> {}
            }
        }
        return 0;
    }
}
