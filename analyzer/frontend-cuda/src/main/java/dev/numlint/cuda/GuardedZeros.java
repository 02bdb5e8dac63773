package dev.numlint.cuda;

import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.knowledge.NumericFacts;
import java.util.List;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * Tests of a weight against zero that guard only terms carrying that weight (the hand-written front end's reading;
 * {@code clang/ClangGuardedZeros} is Clang's). {@code w = max(0, 1 - |y - yy|/T); if (w > 0) { s += w; acc += w * v; }}
 * (also written out, {@code img[k] = img[k] + w}) or, in a loop, {@code if (w == 0) continue;} followed only by such terms
 * (in a function that returns nothing, {@code if (w == 0) return;} followed only by such terms to its end): the test
 * flips only where w crosses 0, and
 * there every term it adds or drops is {@code w * v ~ 0}, so the sums are continuous in w. The guarded side may
 * declare locals, run nested loops and ifs, and add or subtract (to any place, also atomically) products that have w
 * as a factor; it
 * may not count, store, assign anything else, call a function that is not pure math or a texture fetch, or leave the
 * enclosing loop; the other side does nothing.
 */
final class GuardedZeros {
    private GuardedZeros() {}

    /**
     * Whether the comparison {@code cmp} of the variable {@code operand} reads (one of its two operands) with zero is
     * such a guard.
     */
    static boolean guards(ParserRuleContext cmp, ParserRuleContext operand) {
        String w = operand instanceof ExpressionContext e ? ParseTrees.simpleName(e) : null;
        if (w == null || cmp.getChildCount() != 3) return false;
        ParseTree other = cmp.getChild(0) == operand ? cmp.getChild(2) : cmp.getChild(0);
        if (!(other instanceof ExpressionContext o)
                || !zero(ParseTrees.stripParens(o).getText())) return false;
        // the test, alone or joined with others by && or ||: where its flip changes the outcome, w is ~0 too
        ParserRuleContext top = cmp;
        while (top.getParent() instanceof AndExprContext
                || top.getParent() instanceof OrExprContext
                || ContinuousSelections.isParens(top.getParent())) top = top.getParent();
        if (!(top.getParent() instanceof CommaExpressionContext c)
                || c.expression().size() != 1) return false;
        if (!(c.getParent() instanceof ConditionContext) || !(c.getParent().getParent() instanceof IfStmtContext s))
            return false;
        if (s.statement().size() != 1) return false; // an else does something of its own
        if (onlyTerms(s.statement(0), w, false)) return true;
        // if (w == 0) continue; at the top of a loop's body, the rest of the body only terms; or if (w == 0) return;
        // in a function's body, the rest of the function only terms
        boolean skip = isContinue(s.statement(0));
        if (!skip && !isReturn(s.statement(0))) return false;
        if (!(s.getParent() instanceof CompoundStatementContext body)) return false;
        if (skip
                ? !(body.getParent() instanceof BlockStmtContext block)
                        || !(block.getParent() instanceof ForStmtContext
                                || block.getParent() instanceof WhileStmtContext
                                || block.getParent() instanceof RangeForStmtContext)
                : !(body.getParent() instanceof FunctionBodyContext)) return false;
        List<StatementContext> ss = body.statement();
        for (int k = ss.indexOf(s) + 1; k < ss.size(); k++) if (!onlyTerms(ss.get(k), w, false)) return false;
        return true;
    }

    private static boolean zero(String t) {
        return t.matches("(0+\\.?0*|\\.0+)([eE][-+]?\\d+)?[fFlLuU]*");
    }

    /** {@code return;}: a function that returns nothing, leaving early. */
    private static boolean isReturn(StatementContext st) {
        while (st instanceof BlockStmtContext b
                && b.compoundStatement().statement().size() == 1)
            st = b.compoundStatement().statement(0);
        return st instanceof ReturnStmtContext r && r.commaExpression() == null && r.bracedInitList() == null;
    }

    private static boolean isContinue(StatementContext st) {
        while (st instanceof BlockStmtContext b
                && b.compoundStatement().statement().size() == 1)
            st = b.compoundStatement().statement(0);
        return st instanceof JumpStmtContext j && j.CONTINUE() != null;
    }

    /**
     * Whether {@code st} does nothing observable but add or subtract terms with {@code w} as a factor; {@code nested}:
     * inside a loop of its own, whose break or continue only drops terms.
     */
    private static boolean onlyTerms(StatementContext st, String w, boolean nested) {
        if (st instanceof EmptyStmtContext) return true;
        if (st instanceof BlockStmtContext b) {
            for (StatementContext x : b.compoundStatement().statement()) if (!onlyTerms(x, w, nested)) return false;
            return true;
        }
        if (st instanceof JumpStmtContext) return nested;
        if (st instanceof DeclStmtContext d) return pure(d.simpleDeclaration()) && !declares(d.simpleDeclaration(), w);
        if (st instanceof IfStmtContext s) {
            if (!pure(s.condition())) return false;
            for (StatementContext x : s.statement()) if (!onlyTerms(x, w, nested)) return false;
            return true;
        }
        if (st instanceof ForStmtContext f) {
            // a counted loop of its own: a declared counter, a pure test, the counter stepped
            if (f.forInit().simpleDeclaration() == null || !pure(f.forInit().simpleDeclaration())) return false;
            if (f.condition() != null && !pure(f.condition())) return false;
            if (f.commaExpression() != null)
                for (ExpressionContext e : f.commaExpression().expression()) if (!step(e, f)) return false;
            return onlyTerms(f.statement(), w, true);
        }
        if (st instanceof ExprStmtContext e) {
            for (ExpressionContext x : e.commaExpression().expression())
                if (!term(x, w) && !atomicTerm(x, w)) return false;
            return true;
        }
        return false;
    }

    /**
     * {@code P += E} or {@code P -= E}, or written out ({@code P = P + E}, {@code P = E + P}, {@code P = P - E}), E a
     * product with w as a factor, nothing else changed on the way.
     */
    private static boolean term(ExpressionContext x, String w) {
        if (!(x instanceof AssignExprContext a) || a.expression().size() != 2) return false;
        if (a.assignOp().ASSIGN() != null) {
            if (w.equals(ParseTrees.simpleName(a.expression(0)))) return false;
            ExpressionContext r = ParseTrees.stripParens(a.expression(1));
            if (!(r instanceof AddExprContext sum) || sum.expression().size() != 2) return false;
            String place = a.expression(0).getText();
            ExpressionContext e = sum.expression(0).getText().equals(place)
                    ? sum.expression(1)
                    : sum.PLUS() != null && sum.expression(1).getText().equals(place) ? sum.expression(0) : null;
            return e != null && pure(a.expression(0)) && pure(e) && factor(e, w) && !dividesBy(e, w);
        }
        if (a.assignOp().PLUS_ASSIGN() == null && a.assignOp().MINUS_ASSIGN() == null) return false;
        if (w.equals(ParseTrees.simpleName(a.expression(0)))) return false;
        return pure(a.expression(0))
                && pure(a.expression(1))
                && factor(a.expression(1), w)
                && !dividesBy(a.expression(1), w);
    }

    /** {@code atomicAdd(P, E)} (or another atomic add or subtraction), E a product with w as a factor. */
    private static boolean atomicTerm(ExpressionContext x, String w) {
        if (!(x instanceof CallExprContext c) || c.argumentList() == null) return false;
        String name = ParseTrees.calleeName(c.expression());
        if (name == null
                || !ATOMIC_TERMS.contains(name)
                || c.argumentList().argument().size() != 2) return false;
        ExpressionContext place = c.argumentList().argument(0).expression();
        ExpressionContext term = c.argumentList().argument(1).expression();
        return place != null && term != null && pure(place) && pure(term) && factor(term, w) && !dividesBy(term, w);
    }

    /** The atomic reductions that add or subtract their operand. */
    static final java.util.Set<String> ATOMIC_TERMS = java.util.Set.of(
            "atomicAdd", "atomicAdd_block", "atomicAdd_system", "unsafeAtomicAdd", "safeAtomicAdd", "atomicSub");

    /** Whether {@code t} divides by something that reads {@code w} ({@code w * (v / w)} is not 0 at w = 0). */
    private static boolean dividesBy(ParseTree t, String w) {
        if (t instanceof MulExprContext m && m.DIV() != null && reads(m.expression(1), w)) return true;
        for (int i = 0; i < t.getChildCount(); i++) if (dividesBy(t.getChild(i), w)) return true;
        return false;
    }

    private static boolean reads(ParseTree t, String w) {
        if (t instanceof TerminalNode n) return n.getText().equals(w);
        for (int i = 0; i < t.getChildCount(); i++) if (reads(t.getChild(i), w)) return true;
        return false;
    }

    /** Whether {@code w} is a factor of {@code e} (a product, a numerator, a negation, through parentheses). */
    private static boolean factor(ExpressionContext e, String w) {
        ExpressionContext x = ParseTrees.stripParens(e);
        if (w.equals(ParseTrees.simpleName(x))) return true;
        if (x instanceof UnaryExprContext u && (u.MINUS() != null || u.PLUS() != null))
            return factor(u.expression(), w);
        if (x instanceof MulExprContext m) {
            if (m.STAR() != null) return factor(m.expression(0), w) || factor(m.expression(1), w);
            if (m.DIV() != null) return factor(m.expression(0), w);
        }
        return false;
    }

    /** The loop's own counter stepped: {@code i++}, {@code ++i}, {@code i += k} of a counter its init declares. */
    private static boolean step(ExpressionContext e, ForStmtContext f) {
        String v = null;
        if (e instanceof PostIncExprContext p) v = ParseTrees.simpleName(p.expression());
        else if (e instanceof UnaryExprContext u && (u.PLUS_PLUS() != null || u.MINUS_MINUS() != null))
            v = ParseTrees.simpleName(u.expression());
        else if (e instanceof AssignExprContext a
                && a.expression().size() == 2
                && (a.assignOp().PLUS_ASSIGN() != null || a.assignOp().MINUS_ASSIGN() != null)
                && pure(a.expression(1))) v = ParseTrees.simpleName(a.expression(0));
        return v != null && declares(f.forInit().simpleDeclaration(), v);
    }

    private static boolean declares(SimpleDeclarationContext d, String v) {
        for (InitDeclaratorContext i : d.initDeclarator())
            if (v.equals(ParseTrees.declName(i.declarator()))) return true;
        return false;
    }

    /**
     * Whether evaluating {@code t} changes nothing: no assignment, increment, allocation or throw, and calls only of
     * math builtins, min/max and texture fetches.
     */
    private static boolean pure(ParseTree t) {
        if (t instanceof AssignExprContext
                || t instanceof PostIncExprContext
                || t instanceof NewExprContext
                || t instanceof DeleteExprContext
                || t instanceof ThrowExprContext
                || t instanceof LaunchExprContext
                || t instanceof LambdaPrimaryContext
                || t instanceof StmtExprPrimaryContext) return false;
        if (t instanceof UnaryExprContext u && (u.PLUS_PLUS() != null || u.MINUS_MINUS() != null)) return false;
        if (t instanceof CallExprContext c) {
            String name = ParseTrees.calleeName(c.expression());
            if (name == null) return false;
            String base = name.startsWith("std::") ? name.substring(5) : name;
            if (!(Builtins.FUNCS.containsKey(base)
                    || NumericFacts.SELECTION.contains(base)
                    || base.startsWith("tex")
                    || base.startsWith("__ldg"))) return false;
        }
        if (t instanceof TerminalNode) return true;
        for (int i = 0; i < t.getChildCount(); i++) if (!pure(t.getChild(i))) return false;
        return true;
    }
}
