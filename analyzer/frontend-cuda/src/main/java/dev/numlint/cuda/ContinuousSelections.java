package dev.numlint.cuda;

import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.cuda.parser.CudaLexer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * Comparisons that only select between the values they compare, so that a flip moves the result by no more than
 * the values differ at the flip, which is what moved it: a running maximum or minimum ({@code if (x > m) m = x;},
 * {@code m = x > m ? x : m}), a clamp ({@code v > 0 ? v : 0}, {@code if (v < c) v = c; else if (v > d) v = d;}) and
 * the update of the larger (smaller) of two bounds ({@code if (x > a && x > b) ((a > b) ? a : b) = x;}). Such a
 * comparison is continuous, not a decision: the impact analysis follows the selected value on instead. A comparison
 * that picks between other values, or guards a branch that does other work, is not one of them.
 */
final class ContinuousSelections {
    private final Function<ParserRuleContext, String> text;
    private final IdentityHashMap<ParserRuleContext, E> memo;
    /** Plain assignments and initializations by variable, for the copies a bound may be compared through. */
    private final Function<String, List<ParserRuleContext>> definitions;

    ContinuousSelections(
            Function<ParserRuleContext, String> text,
            IdentityHashMap<ParserRuleContext, E> memo,
            Function<String, List<ParserRuleContext>> definitions) {
        this.text = text;
        this.memo = memo;
        this.definitions = definitions;
    }

    /**
     * Where the value selected by the comparison {@code rel} goes on when {@code rel} is a continuous selection: the
     * conditional expression ({@code v > 0 ? v : 0}) or the assignment of the guarded branch ({@code m = x}); null
     * when the comparison decides something.
     */
    ParserRuleContext selected(RelExprContext rel) {
        ParserRuleContext q = outerParens(rel);
        ParserRuleContext p = q.getParent();
        if (p instanceof CondExprContext && ((CondExprContext) p).expression(0) == q) {
            CondExprContext c = (CondExprContext) p;
            ExpressionContext first = single(c.commaExpression());
            if (first == null) return null;
            if (signSelection(rel, first, c.expression(1))) return rel;
            return matchesOperands(rel, first, c.expression(1)) ? c : null;
        }
        IfStmtContext whole = ifOf(q);
        if (whole != null && (signSelection(rel, whole) || ratioClip(rel, whole))) return rel;
        // if (v < 0) P = 0; else P = v;: both branches write one place, each one of the compared values (max(v, 0))
        if (whole != null && whole.statement().size() == 2) {
            AssignExprContext t = assignmentOf(whole.statement(0)), e = assignmentOf(whole.statement(1));
            if (t != null
                    && e != null
                    && t.assignOp().ASSIGN() != null
                    && e.assignOp().ASSIGN() != null
                    && t(t.expression(0)).equals(t(e.expression(0)))
                    && matchesOperands(rel, t.expression(1), e.expression(1))) return t;
        }
        // a conjunction of comparisons of one value with several bounds: x > a && x > b
        ParserRuleContext top = q;
        while (top.getParent() instanceof AndExprContext || isParens(top.getParent())) top = top.getParent();
        IfStmtContext stmt = ifOf(top);
        if (stmt == null) return null;
        AssignExprContext a = guardedAssignment(stmt);
        if (a == null || !elseIsSelection(stmt)) return null;
        return selectsWith(top, a) ? a : null;
    }

    /**
     * The assignment {@code best = cost} when the comparison {@code rel} is the whole condition of an if without else
     * that keeps the best candidate: {@code if (cost < best) { best = cost; bestIdx = i; }} (either order, any
     * relational operator; assignments may be joined by commas). Its branch holds that one assignment of one compared operand to the other, and only plain
     * assignments of other places (the candidate's payload: an index, an axis, a position) from values that call
     * nothing and read neither the place they assign nor the compared operands' places. A flip of the comparison
     * then happens only at a near tie between two candidates, either of which is as good. Null otherwise (a single
     * assignment is a running min/max, {@link #selected}).
     */
    AssignExprContext bestCandidate(RelExprContext rel) {
        ParserRuleContext q = outerParens(rel);
        IfStmtContext s = ifOf(q);
        if (s == null || s.statement().size() != 1) return null;
        List<StatementContext> body = new ArrayList<>();
        StatementContext then = s.statement(0);
        if (then instanceof BlockStmtContext b)
            body.addAll(b.compoundStatement().statement());
        else body.add(then);
        // the assignments, also those a comma joins (best = c, bestAxis = a, bestPos = i;)
        List<ExpressionContext> assigns = new ArrayList<>();
        for (StatementContext st : body) {
            if (!(st instanceof ExprStmtContext e) || e.commaExpression() == null) return null;
            assigns.addAll(e.commaExpression().expression());
        }
        if (assigns.size() < 2) return null;
        String x = t(rel.expression(0));
        String y = t(rel.expression(1));
        AssignExprContext best = null;
        for (ExpressionContext e : assigns) {
            if (!(e instanceof AssignExprContext a)
                    || a.assignOp().ASSIGN() == null
                    || a.expression().size() != 2) return null;
            if (matchesOperands(rel, a.expression(0), a.expression(1))) {
                if (best != null) return null;
                best = a;
                continue;
            }
            String place = t(a.expression(0));
            if (place.equals(x) || place.equals(y)) return null;
            if (containsCall(a.expression(1))) return null;
            String value = t(a.expression(1));
            if (mentions(value, root(place)) || mentions(x, root(place)) || mentions(y, root(place))) return null;
        }
        return best;
    }

    /** The variable a place is rooted in: {@code p} of {@code p.x}, {@code p->x}, {@code p[i]}. */
    private static String root(String place) {
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("^[A-Za-z_]\\w*").matcher(place);
        return m.find() ? m.group() : place;
    }

    private static boolean containsCall(org.antlr.v4.runtime.tree.ParseTree t) {
        if (t instanceof CallExprContext) return true;
        for (int i = 0; i < t.getChildCount(); i++) if (containsCall(t.getChild(i))) return true;
        return false;
    }

    /**
     * A sign test that only picks the sign of a value odd in the tested operand: {@code v > 0 ? k/v : -k/v},
     * {@code if (s > 0) w = k/s; else w = -k/s;}. Both branches compute {@code k/|v|} (or {@code k*|v|}), which is
     * continuous in {@code v}: a flip of the test at {@code v = 0} gives the same value. The value itself is followed
     * into both branches by the ordinary def-use walk.
     */
    private boolean signSelection(RelExprContext rel, ExpressionContext a, ExpressionContext b) {
        String v = comparedWithZero(rel);
        if (v == null) return false;
        Factors fa = factors(a);
        Factors fb = factors(b);
        if (fa == null || fb == null || fa.negative == fb.negative || !fa.texts.equals(fb.texts)) return false;
        int hits = 0;
        for (String f : fa.texts) {
            if (f.equals(v) || f.equals("/" + v)) hits++;
            else if (mentions(f, v)) return false;
        }
        return hits == 1;
    }

    private boolean signSelection(RelExprContext rel, IfStmtContext s) {
        if (s.statement().size() != 2) return false;
        AssignExprContext then = guardedAssignment(s);
        AssignExprContext other = assignmentOf(s.statement(1));
        if (then == null || other == null) return false;
        if (!t(then.expression(0)).equals(t(other.expression(0)))) return false;
        return signSelection(rel, then.expression(1), other.expression(1));
    }

    /** Whether the expression text {@code f} mentions {@code v} as a whole name, not inside another name. */
    private static boolean mentions(String f, String v) {
        return java.util.regex.Pattern.compile("(?<![\\w.])" + java.util.regex.Pattern.quote(v) + "(?![\\w])")
                .matcher(f)
                .find();
    }

    /** The operand compared with zero ({@code v > 0}, {@code 0.0f <= v}), as text; null for another comparison. */
    private String comparedWithZero(RelExprContext rel) {
        for (int i = 0; i < 2; i++) {
            E c = memo.get(ParseTrees.stripParens(rel.expression(i)));
            if (c != null && c.cval != null && c.cval.doubleValue() == 0.0) return t(rel.expression(1 - i));
        }
        return null;
    }

    /** A product or quotient flattened to its factors ("/x" for a divisor), with the parity of unary minuses. */
    private record Factors(List<String> texts, boolean negative) {}

    private Factors factors(ExpressionContext e) {
        List<String> out = new ArrayList<>();
        boolean[] neg = {false};
        if (!flatten(e, false, out, neg)) return null;
        out.sort(null);
        return new Factors(out, neg[0]);
    }

    private boolean flatten(ExpressionContext e, boolean divisor, List<String> out, boolean[] neg) {
        ExpressionContext x = ParseTrees.stripParens(e);
        if (x instanceof UnaryExprContext && ((UnaryExprContext) x).MINUS() != null) {
            neg[0] = !neg[0];
            return flatten(((UnaryExprContext) x).expression(), divisor, out, neg);
        }
        if (x instanceof MulExprContext) {
            MulExprContext m = (MulExprContext) x;
            if (m.MOD() != null) return false;
            return flatten(m.expression(0), divisor, out, neg)
                    && flatten(m.expression(1), m.DIV() != null != divisor, out, neg);
        }
        out.add((divisor ? "/" : "") + t(x));
        return out.size() <= 16;
    }

    /**
     * A projection onto a ball: {@code if (n > g) { float r = g / n; x *= r; y *= r; }}. At {@code n == g} the
     * factor is 1, so the guarded scaling is continuous in {@code n}: a flip changes the result by no more than the
     * factor differs from 1 there, which is what moved it.
     */
    private boolean ratioClip(RelExprContext rel, IfStmtContext s) {
        if (s.statement().size() != 1) return false;
        boolean greater = greater(rel);
        String big = t(rel.expression(greater ? 0 : 1));
        String small = t(rel.expression(greater ? 1 : 0));
        String ratio = small + "/" + big;
        List<StatementContext> body = new ArrayList<>();
        StatementContext then = s.statement(0);
        if (then instanceof BlockStmtContext)
            body.addAll(((BlockStmtContext) then).compoundStatement().statement());
        else body.add(then);
        List<String> ratios = new ArrayList<>(List.of(ratio));
        int scaled = 0;
        for (StatementContext st : body) {
            String local = ratioLocal(st, ratio);
            if (local != null) {
                ratios.add(local);
                continue;
            }
            AssignExprContext a = assignmentOf(st);
            if (a == null || a.assignOp().STAR_ASSIGN() == null || !ratios.contains(t(a.expression(1)))) return false;
            scaled++;
        }
        return scaled > 0;
    }

    /** The name of the local {@code st} declares as {@code ratio} ({@code float r = g / n;}), or null. */
    private String ratioLocal(StatementContext st, String ratio) {
        if (!(st instanceof DeclStmtContext)) return null;
        String flat = this.text.apply(st).replaceAll("\\s+", "");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                        "(?:const)?(?:float|double|auto)(\\w+)=\\(?(.*?)\\)?;")
                .matcher(flat);
        if (!m.matches()) return null;
        return m.group(2)
                        .replace("(", "")
                        .replace(")", "")
                        .equals(ratio.replace("(", "").replace(")", ""))
                ? m.group(1)
                : null;
    }

    /** The single plain or compound assignment that is the whole statement {@code st} (braces allowed). */
    private static AssignExprContext assignmentOf(StatementContext st) {
        while (st instanceof BlockStmtContext) {
            List<StatementContext> ss =
                    ((BlockStmtContext) st).compoundStatement().statement();
            if (ss.size() != 1) return null;
            st = ss.get(0);
        }
        if (!(st instanceof ExprStmtContext)) return null;
        ExpressionContext e = single(((ExprStmtContext) st).commaExpression());
        if (!(e instanceof AssignExprContext)) return null;
        AssignExprContext a = (AssignExprContext) e;
        return a.expression().size() == 2 ? a : null;
    }

    /** The if statement whose whole condition is {@code cond}, or null. */
    private static IfStmtContext ifOf(ParserRuleContext cond) {
        ParserRuleContext p = cond.getParent();
        if (!(p instanceof CommaExpressionContext)
                || ((CommaExpressionContext) p).expression().size() != 1) return null;
        if (!(p.getParent() instanceof ConditionContext)) return null;
        ParserRuleContext s = p.getParent().getParent();
        return s instanceof IfStmtContext ? (IfStmtContext) s : null;
    }

    /** The one plain assignment that is the whole then-branch of {@code s} ({@code m = x;} or {@code { m = x; }}). */
    private static AssignExprContext guardedAssignment(IfStmtContext s) {
        StatementContext then = s.statement(0);
        while (then instanceof BlockStmtContext) {
            List<StatementContext> ss =
                    ((BlockStmtContext) then).compoundStatement().statement();
            if (ss.size() != 1) return null;
            then = ss.get(0);
        }
        if (!(then instanceof ExprStmtContext)) return null;
        ExpressionContext e = single(((ExprStmtContext) then).commaExpression());
        if (!(e instanceof AssignExprContext)) return null;
        AssignExprContext a = (AssignExprContext) e;
        if (a.assignOp().ASSIGN() == null || a.expression().size() != 2) return null;
        return a;
    }

    /** No else, or an else that is itself such a selection: {@code if (v < 0) v = 0; else if (v > 1) v = 1;}. */
    private boolean elseIsSelection(IfStmtContext s) {
        if (s.statement().size() < 2) return true;
        StatementContext e = s.statement(1);
        if (!(e instanceof IfStmtContext)) return false;
        IfStmtContext inner = (IfStmtContext) e;
        AssignExprContext a = guardedAssignment(inner);
        ConditionContext c = inner.condition();
        if (a == null || c.commaExpression() == null) return false;
        ExpressionContext cond = single(c.commaExpression());
        return cond != null && elseIsSelection(inner) && selectsWith(cond, a);
    }

    /**
     * Whether the assignment {@code a} guarded by the condition {@code cond} only moves a compared value: one
     * comparison whose operands the assignment exchanges ({@code x > m} with {@code m = x}, {@code v < c} with
     * {@code v = c}), or a conjunction {@code x > a && x > b} that assigns {@code x} to the larger bound.
     */
    private boolean selectsWith(ParserRuleContext cond, AssignExprContext a) {
        List<RelExprContext> conj = new ArrayList<>();
        if (!conjuncts(cond, conj) || conj.isEmpty()) return false;
        ExpressionContext lhs = ParseTrees.stripParens(a.expression(0));
        ExpressionContext rhs = a.expression(1);
        if (conj.size() == 1) {
            RelExprContext r = conj.get(0);
            return matchesOperands(r, lhs, rhs) || matchesOperands(r, rhs, lhs);
        }
        // x OP b1 && x OP b2 ...: the common operand x, every bound on the same side of it
        String x = null;
        for (ExpressionContext cand : conj.get(0).expression()) {
            boolean everywhere = true;
            for (RelExprContext r : conj)
                everywhere &=
                        t(r.expression(0)).equals(t(cand)) || t(r.expression(1)).equals(t(cand));
            if (everywhere) x = t(cand);
        }
        if (x == null) return false;
        int side = 0;
        List<String> bounds = new ArrayList<>();
        for (RelExprContext r : conj) {
            boolean greater = greater(r);
            int s;
            if (x.equals(t(r.expression(0)))) {
                bounds.add(t(r.expression(1)));
                s = greater ? 1 : -1;
            } else {
                bounds.add(t(r.expression(0)));
                s = greater ? -1 : 1;
            }
            if (side != 0 && s != side) return false;
            side = s;
        }
        if (!x.equals(t(rhs))) return false;
        // the assigned place is the extreme bound: ((a > b) ? a : b) = x for x above both; unparenthesized,
        // (a > b) ? a : b = x is C++'s (a > b) ? a : (b = x), which assigns b only when a is not the larger (the
        // parser groups it as C would, so only the parenthesized form is the selection)
        if (!(lhs instanceof CondExprContext) || a.expression(0) instanceof CondExprContext || bounds.size() != 2)
            return false;
        CondExprContext sel = (CondExprContext) lhs;
        ExpressionContext sc = ParseTrees.stripParens(sel.expression(0));
        ExpressionContext first = single(sel.commaExpression());
        if (!(sc instanceof RelExprContext) || first == null) return false;
        RelExprContext scr = (RelExprContext) sc;
        String f = t(first);
        String s2 = t(sel.expression(1));
        String cl = t(scr.expression(0));
        String cr = t(scr.expression(1));
        if (!(f.equals(cl) && s2.equals(cr)) && !(f.equals(cr) && s2.equals(cl))) return false;
        boolean picksLarger = greater(scr) == f.equals(cl);
        if (picksLarger != (side > 0)) return false;
        return (holds(f, bounds.get(0), a) && holds(s2, bounds.get(1), a))
                || (holds(f, bounds.get(1), a) && holds(s2, bounds.get(0), a));
    }

    /** {@code a > b} or {@code a >= b}. */
    private static boolean greater(RelExprContext r) {
        int op = ((TerminalNode) r.getChild(1)).getSymbol().getType();
        return op == CudaLexer.GT || op == CudaLexer.GE;
    }

    /** The conjuncts of {@code c}: comparisons joined by &&. */
    private static boolean conjuncts(ParserRuleContext c, List<RelExprContext> out) {
        if (c instanceof ExpressionContext) c = ParseTrees.stripParens((ExpressionContext) c);
        if (c instanceof AndExprContext) {
            return conjuncts(((AndExprContext) c).expression(0), out)
                    && conjuncts(((AndExprContext) c).expression(1), out);
        }
        if (c instanceof RelExprContext) {
            out.add((RelExprContext) c);
            return true;
        }
        return false;
    }

    /**
     * Whether the variable {@code var} holds the value {@code bound} at {@code use}: it is the bound, or a copy of
     * it whose only definition before {@code use} is {@code var = bound} ({@code zeroY = d[1];}).
     */
    private boolean holds(String var, String bound, ParserRuleContext use) {
        if (var.equals(bound)) return true;
        ParserRuleContext only = null;
        for (ParserRuleContext d : definitions.apply(var)) {
            if (d.start.getTokenIndex() >= use.start.getTokenIndex()) continue;
            if (d instanceof InitDeclaratorContext && ((InitDeclaratorContext) d).initializer() == null) continue;
            if (only != null) return false;
            only = d;
        }
        if (only instanceof AssignExprContext) {
            AssignExprContext a = (AssignExprContext) only;
            return a.expression().size() == 2 && t(a.expression(1)).equals(bound);
        }
        if (only instanceof InitDeclaratorContext) {
            InitializerContext ini = ((InitDeclaratorContext) only).initializer();
            return ini != null
                    && ini.initializerClause() != null
                    && ini.initializerClause().expression() != null
                    && t(ini.initializerClause().expression()).equals(bound);
        }
        return false;
    }

    /** The comparison's operands are {@code a} and {@code b}, in either order (constants by value). */
    private boolean matchesOperands(RelExprContext rel, ExpressionContext a, ExpressionContext b) {
        ExpressionContext x = rel.expression(0);
        ExpressionContext y = rel.expression(1);
        return (same(x, a) && same(y, b)) || (same(x, b) && same(y, a));
    }

    /** The same expression, or equal constants ({@code 0} and {@code 0.0f}). */
    private boolean same(ExpressionContext a, ExpressionContext b) {
        if (t(a).equals(t(b))) return true;
        E x = memo.get(ParseTrees.stripParens(a));
        E y = memo.get(ParseTrees.stripParens(b));
        if (x == null) x = memo.get(a);
        if (y == null) y = memo.get(b);
        return x != null && y != null && x.cval != null && Objects.equals(x.cval, y.cval);
    }

    private String t(ExpressionContext e) {
        return text.apply(ParseTrees.stripParens(e));
    }

    private static ExpressionContext single(CommaExpressionContext c) {
        return c != null && c.expression().size() == 1 ? c.expression(0) : null;
    }

    /** Whether {@code p} is a pair of parentheses around one expression (as the parser nests them). */
    static boolean isParens(ParserRuleContext p) {
        return p instanceof PrimaryExprContext && ((PrimaryExprContext) p).primary() instanceof ParenPrimaryContext
                || p instanceof ParenPrimaryContext
                || p instanceof CommaExpressionContext
                        && ((CommaExpressionContext) p).expression().size() == 1
                        && p.getParent() instanceof ParenPrimaryContext;
    }

    /** {@code e} with the parentheses around it: the node its consumer holds. */
    private static ParserRuleContext outerParens(ParserRuleContext e) {
        ParserRuleContext q = e;
        while (isParens(q.getParent())) q = q.getParent();
        return q;
    }
}
