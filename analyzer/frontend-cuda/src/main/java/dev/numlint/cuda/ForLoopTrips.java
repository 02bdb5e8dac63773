package dev.numlint.cuda;

import static dev.numlint.cuda.ParseTrees.declName;
import static dev.numlint.cuda.ParseTrees.simpleName;
import static dev.numlint.cuda.ParseTrees.stripParens;
import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.cuda.parser.CudaLexer;
import dev.numlint.knowledge.FloatExactness;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * The trip count of a for loop from the typed values of its init, condition and increment: a constant count
 * ({@code for (i = 0; i < 16; i++)}), a logarithmic loop ({@code k *= 2}: counted once), a loop over the dimensions
 * of a point (2 or 3 terms), an upper bound from a test against a constant of a counter that starts non-negative; its
 * induction variables; the whole-number bound of a counter that steps from one whole number to another; and, on
 * request, whether it is the clean-up loop of an unrolled loop ({@link CleanUpLoops}).
 * {@link FunctionAnalyzer} asks it once it has walked the init, condition and increment, before the body.
 */
final class ForLoopTrips {

    private final FunctionBody b;
    private final DefinitionIndex defs;
    private final CleanUpLoops cleanUps;

    ForLoopTrips(FunctionBody b, DefinitionIndex defs) {
        this.b = b;
        this.defs = defs;
        this.cleanUps = new CleanUpLoops(b, defs);
    }

    /** Sets the induction variables and the trip count of {@code l}, the loop {@code c}, and its counter's bound. */
    void count(ForStmtContext c, Loop l) {
        IdentityHashMap<ParserRuleContext, E> memo = b.memo;
        l.cleanUps = cleanUps; // a clean-up loop's bound, asked for by the sums it carries
        ForInitContext init = c.forInit();
        String initVar = null;
        Double from = null;
        boolean fromNonNeg = false;
        if (init.simpleDeclaration() != null) {
            List<InitDeclaratorContext> ds = init.simpleDeclaration().initDeclarator();
            if (!ds.isEmpty()) {
                initVar = declName(ds.get(0).declarator());
                InitializerContext ini = ds.get(0).initializer();
                if (ini != null
                        && ini.initializerClause() != null
                        && ini.initializerClause().expression() != null) {
                    E v = memo.get(ini.initializerClause().expression());
                    if (v != null) from = v.cval;
                    fromNonNeg = ValueModel.nonNegative(v);
                }
            }
        } else if (init.commaExpression() != null) {
            ExpressionContext e0 = init.commaExpression().expression(0);
            if (e0 instanceof AssignExprContext
                    && ((AssignExprContext) e0).assignOp().ASSIGN() != null) {
                AssignExprContext a = (AssignExprContext) e0;
                initVar = simpleName(a.expression(0));
                if (a.expression().size() > 1) {
                    E v = memo.get(a.expression(1));
                    if (v != null) from = v.cval;
                    fromNonNeg = ValueModel.nonNegative(v);
                }
            }
        }
        if (initVar != null) l.induction.add(initVar);
        Double to = null;
        boolean dims = false;
        boolean ne = false;
        int cmp = 0;
        if (c.condition() != null && c.condition().commaExpression() != null) {
            ExpressionContext ce = c.condition().commaExpression().expression(0);
            if (ce instanceof RelExprContext) {
                RelExprContext r = (RelExprContext) ce;
                String left = simpleName(r.expression(0));
                String right = simpleName(r.expression(1));
                int op = ((TerminalNode) r.getChild(1)).getSymbol().getType();
                if (left != null && left.equals(initVar)) {
                    E v = memo.get(r.expression(1));
                    to = v == null ? null : v.cval;
                    if (to == null && dev.numlint.cuda.facts.LoopNames.countsDimensions(simpleName(r.expression(1)))) {
                        dims = true;
                    }
                    cmp = op == CudaLexer.LT ? 1 : op == CudaLexer.LE ? 2 : op == CudaLexer.GT ? -1 : -2;
                } else if (right != null && right.equals(initVar)) {
                    E v = memo.get(r.expression(0));
                    to = v == null ? null : v.cval;
                    cmp = op == CudaLexer.GT ? 1 : op == CudaLexer.GE ? 2 : op == CudaLexer.LT ? -1 : -2;
                }
            } else if (ce instanceof EqExprContext && ((EqExprContext) ce).NE() != null) {
                EqExprContext r = (EqExprContext) ce;
                if (initVar != null && initVar.equals(simpleName(r.expression(0)))) {
                    E v = memo.get(r.expression(1));
                    to = v == null ? null : v.cval;
                    cmp = 1;
                    ne = true;
                }
            }
        }
        double step = 0;
        boolean log = false;
        if (c.commaExpression() != null) {
            for (ExpressionContext u : c.commaExpression().expression()) {
                String v = null;
                if (u instanceof PostIncExprContext) {
                    v = simpleName(((PostIncExprContext) u).expression());
                    if (v != null && v.equals(initVar)) step = ((PostIncExprContext) u).PLUS_PLUS() != null ? 1 : -1;
                } else if (u instanceof UnaryExprContext
                        && (((UnaryExprContext) u).PLUS_PLUS() != null
                                || ((UnaryExprContext) u).MINUS_MINUS() != null)) {
                    v = simpleName(((UnaryExprContext) u).expression());
                    if (v != null && v.equals(initVar)) step = ((UnaryExprContext) u).PLUS_PLUS() != null ? 1 : -1;
                } else if (u instanceof AssignExprContext) {
                    AssignExprContext a = (AssignExprContext) u;
                    v = simpleName(a.expression(0));
                    AssignOpContext op = a.assignOp();
                    if (op.STAR_ASSIGN() != null
                            || op.DIV_ASSIGN() != null
                            || op.SHL_ASSIGN() != null
                            || op.GE() != null) {
                        log = true;
                    } else if (v != null && v.equals(initVar) && a.expression().size() > 1) {
                        E sv = memo.get(a.expression(1));
                        if (sv != null && sv.cval != null) {
                            step = op.PLUS_ASSIGN() != null ? sv.cval : op.MINUS_ASSIGN() != null ? -sv.cval : 0;
                        }
                    }
                }
                if (v != null) l.induction.add(v);
            }
        }
        if (log) {
            l.trip = 1;
        } else if (dims) {
            l.trip = dev.numlint.cuda.facts.LoopNames.DIMENSION_TRIPS; // over the dimensions of a point (ndim, dims)
        } else if (from != null && to != null && step != 0) {
            double span = cmp > 0 ? to - from : from - to;
            if (Math.abs(cmp) == 2) span += 1;
            double s = Math.abs(step);
            l.trip = span <= 0 ? 0 : (long) Math.ceil(span / s);
        }
        long most = tripBound(c, initVar, fromNonNeg);
        if (most >= 0 && (l.trip < 0 || most < l.trip)) l.trip = most;
        if (init.simpleDeclaration() != null
                && initVar != null
                && from != null
                && to != null
                && !ne
                && cmp != 0
                && step != 0
                && (cmp > 0) == (step > 0)
                && FloatExactness.isInteger(from)
                && FloatExactness.isInteger(to)
                && FloatExactness.isInteger(step)
                && onlyStepped(c, initVar)) {
            // a counter from one whole number to another in whole steps holds whole numbers between them
            Local counter = b.lookup(initVar);
            double m = Math.max(Math.abs(from), Math.abs(to));
            if (counter != null
                    && (counter.type.isFpScalar() || counter.type.isInteger())
                    && m <= ValueModel.wholeLimit(counter.type)) {
                counter.intBound = m;
            }
        }
    }

    /** {@code v} is changed by the loop's increment once and nowhere else in the loop (body or condition). */
    private boolean onlyStepped(ForStmtContext c, String v) {
        return c.commaExpression() != null
                && defs.defs(c.commaExpression(), v) == 1
                && defs.defs(c.statement(), v) == 0
                && (c.condition() == null || defs.defs(c.condition(), v) == 0);
    }

    /**
     * An upper bound on the trip count from a test {@code v < B} or {@code v <= B} (or {@code B > v}) of the
     * condition's conjunction, with B constant, when the increment adds a constant S > 0 to v, nothing else in the
     * loop changes v and v cannot be negative when the loop starts (started at threadIdx.x, an unsigned or
     * non-negative value, and never given another value): at most ceil(B / S) trips, so
     * {@code for (k = threadIdx.x; k < 8; k += 8)} runs at most once per thread. -1 without such a test.
     */
    private long tripBound(ForStmtContext c, String initVar, boolean initNonNeg) {
        if (c.condition() == null || c.condition().commaExpression() == null || c.commaExpression() == null) return -1;
        IdentityHashMap<ParserRuleContext, E> memo = b.memo;
        Map<String, Double> steps = new HashMap<>();
        for (ExpressionContext u : c.commaExpression().expression()) {
            ExpressionContext x = stripParens(u);
            if (x instanceof PostIncExprContext && ((PostIncExprContext) x).PLUS_PLUS() != null) {
                String v = simpleName(((PostIncExprContext) x).expression());
                if (v != null) steps.put(v, 1.0);
            } else if (x instanceof UnaryExprContext && ((UnaryExprContext) x).PLUS_PLUS() != null) {
                String v = simpleName(((UnaryExprContext) x).expression());
                if (v != null) steps.put(v, 1.0);
            } else if (x instanceof AssignExprContext
                    && ((AssignExprContext) x).assignOp().PLUS_ASSIGN() != null
                    && ((AssignExprContext) x).expression().size() > 1) {
                String v = simpleName(((AssignExprContext) x).expression(0));
                E sv = memo.get(((AssignExprContext) x).expression(1));
                if (v != null && sv != null && sv.cval != null && sv.cval > 0) steps.put(v, sv.cval);
            }
        }
        List<ExpressionContext> tests = new ArrayList<>();
        conjuncts(c.condition().commaExpression().expression(0), tests);
        long best = -1;
        for (ExpressionContext t : tests) {
            if (!(t instanceof RelExprContext)) continue;
            RelExprContext r = (RelExprContext) t;
            int op = ((TerminalNode) r.getChild(1)).getSymbol().getType();
            String v;
            E bound;
            boolean inclusive;
            if ((op == CudaLexer.LT || op == CudaLexer.LE) && simpleName(r.expression(0)) != null) {
                v = simpleName(r.expression(0));
                bound = memo.get(r.expression(1));
                inclusive = op == CudaLexer.LE;
            } else if ((op == CudaLexer.GT || op == CudaLexer.GE) && simpleName(r.expression(1)) != null) {
                v = simpleName(r.expression(1));
                bound = memo.get(r.expression(0));
                inclusive = op == CudaLexer.GE;
            } else {
                continue;
            }
            Double step = steps.get(v);
            if (step == null || bound == null || bound.cval == null || !onlyStepped(c, v)) continue;
            boolean startsNonNeg;
            if (v.equals(initVar)) {
                startsNonNeg = initNonNeg;
            } else {
                // declared before the loop from a non-negative value and changed only by this increment
                Local lv = b.lookup(v);
                startsNonNeg = lv != null && lv.nonNegInit && lv.scopeNode != null && defs.defs(lv.scopeNode, v) == 2;
            }
            if (!startsNonNeg) continue;
            double bv = bound.cval;
            long n = bv < 0 || (bv == 0 && !inclusive)
                    ? 0
                    : inclusive ? (long) Math.floor(bv / step) + 1 : (long) Math.ceil(bv / step);
            if (best < 0 || n < best) best = n;
        }
        return best;
    }

    private static void conjuncts(ExpressionContext e, List<ExpressionContext> out) {
        ExpressionContext x = stripParens(e);
        if (x instanceof AndExprContext) {
            for (int i = 0; i < x.getChildCount(); i++) {
                if (x.getChild(i) instanceof ExpressionContext) conjuncts((ExpressionContext) x.getChild(i), out);
            }
        } else {
            out.add(x);
        }
    }
}
