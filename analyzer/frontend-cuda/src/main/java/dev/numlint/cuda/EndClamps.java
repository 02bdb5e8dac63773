package dev.numlint.cuda;

import static dev.numlint.cuda.parser.CudaParser.*;

import java.util.ArrayList;
import java.util.List;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;

/**
 * A test that clamps a value to an end of the table it otherwise interpolates (the hand-written front end's reading;
 * {@code clang/ClangEndClamps} is Clang's): {@code if (v <= 0) P = a[E(0)]; else if (v >= L) P = a[E(M)]; else { i =
 * (int)v; w = v - i; P = (1-w)*a[E(i)] + w*a[E(i+1)]; }} with {@code L = float(M)}. At the bound the interpolation's
 * index is the bound and its weight 0, so it gives exactly the entry the clamp writes: the test flips between two
 * branches that agree where it flips (continuous). The interpolation is {@link Interpolations}' (the weight is the
 * fractional part of the same value, the neighbour {@code i + 1} is read); the clamp writes the place the
 * interpolation writes, from the subscript the interpolation reads with the index replaced by the bound (an integer
 * constant, or {@code M} for a bound written {@code float(M)}, {@code (float)M} or through a variable holding it).
 */
final class EndClamps {
    private EndClamps() {}

    static boolean clamps(Interpolations interp, ParserRuleContext cmp, ParserRuleContext operand) {
        if (!(cmp instanceof RelExprContext rel) || !(operand instanceof ExpressionContext o)) return false;
        String v = ParseTrees.simpleName(o);
        if (v == null || rel.expression().size() != 2) return false;
        ExpressionContext bound = rel.expression(0) == operand ? rel.expression(1) : rel.expression(0);
        ParserRuleContext q = cmp;
        while (q.getParent() instanceof PrimaryExprContext
                || q.getParent() instanceof ParenPrimaryContext
                || q.getParent() instanceof CommaExpressionContext c
                        && c.expression().size() == 1
                        && c.getParent() instanceof ParenPrimaryContext) q = q.getParent();
        if (!(q.getParent() instanceof CommaExpressionContext c)
                || c.expression().size() != 1) return false;
        if (!(c.getParent() instanceof ConditionContext) || !(c.getParent().getParent() instanceof IfStmtContext s))
            return false;
        if (s.statement().size() != 2) return false;
        AssignExprContext clamp = assignment(s.statement(0));
        if (clamp == null || !(ParseTrees.stripParens(clamp.expression(1)) instanceof IndexExprContext end))
            return false;
        // the interpolation: the last branch of the else-if chain
        StatementContext last = s.statement(1);
        while (last instanceof IfStmtContext e && e.statement().size() == 2) last = e.statement(1);
        if (!(last instanceof BlockStmtContext block)) return false;
        String place = squash(interp, clamp.expression(0));
        String index = null;
        ExpressionContext lerp = null;
        for (StatementContext st : block.compoundStatement().statement()) {
            if (st instanceof DeclStmtContext d && index == null) index = roundingOf(interp, d, v);
            AssignExprContext a = assignment(st);
            if (a != null && squash(interp, a.expression(0)).equals(place)) lerp = a.expression(1);
        }
        if (index == null || lerp == null || writes(interp, block, place) != 1) return false;
        // the interpolant (1 - f) * A[Y] + f * A[Y'] (factors and terms in any order), f the fractional part v - i
        if (!(ParseTrees.stripParens(lerp) instanceof AddExprContext sum)
                || sum.PLUS() == null
                || sum.expression().size() != 2) return false;
        String array = squash(interp, end.expression());
        String written = end.commaExpression().getText();
        List<String> ends = ends(interp, bound);
        for (int k = 0; k < 2; k++) {
            List<ExpressionContext> near = factors(sum.expression(k)), far = factors(sum.expression(1 - k));
            String f = null;
            boolean at = false;
            for (ExpressionContext x : near) {
                if (x instanceof AddExprContext d
                        && d.MINUS() != null
                        && d.expression().size() == 2
                        && one(d.expression(0))) f = squash(interp, d.expression(1));
                if (x instanceof IndexExprContext s2
                        && squash(interp, s2.expression()).equals(array))
                    for (String b : ends)
                        at |= s2.commaExpression()
                                .getText()
                                .replaceAll("\\b" + java.util.regex.Pattern.quote(index) + "\\b", b)
                                .equals(written);
            }
            if (f == null || !at || !interp.fraction(f, v, index)) continue;
            boolean weight = false, other = false;
            for (ExpressionContext x : far) {
                if (squash(interp, x).equals(f)) weight = true;
                if (x instanceof IndexExprContext s2
                        && squash(interp, s2.expression()).equals(array)) other = true;
            }
            if (weight && other) return true;
        }
        return false;
    }

    /** The factors of a product (through parentheses), or the expression itself. */
    private static List<ExpressionContext> factors(ExpressionContext e) {
        List<ExpressionContext> out = new ArrayList<>();
        ExpressionContext x = ParseTrees.stripParens(e);
        if (x instanceof MulExprContext m && m.STAR() != null) {
            out.addAll(factors(m.expression(0)));
            out.addAll(factors(m.expression(1)));
        } else {
            out.add(x);
        }
        return out;
    }

    private static boolean one(ExpressionContext e) {
        return ParseTrees.stripParens(e).getText().matches("1(\\.0*)?[fFlL]?");
    }

    /** How many statements of {@code block} (at its top) assign {@code place} (any assignment operator). */
    private static int writes(Interpolations interp, BlockStmtContext block, String place) {
        int n = 0;
        for (StatementContext st : block.compoundStatement().statement())
            if (st instanceof ExprStmtContext e)
                for (ExpressionContext x : e.commaExpression().expression())
                    if (x instanceof AssignExprContext a
                            && !a.expression().isEmpty()
                            && squash(interp, a.expression(0)).equals(place)) n++;
        return n;
    }

    /** The index variable {@code d} declares as a rounding of {@code v} that indexes a linear interpolation, or null. */
    private static String roundingOf(Interpolations interp, DeclStmtContext d, String v) {
        for (InitDeclaratorContext id : d.simpleDeclaration().initDeclarator()) {
            if (id.initializer() == null || id.initializer().initializerClause() == null) continue;
            ExpressionContext e =
                    ParseTrees.stripParens(id.initializer().initializerClause().expression());
            // (int)v, int(v), (int)floorf(v), floorf(v): the innermost rounding of v
            ParserRuleContext rounding = null;
            ExpressionContext operand = null;
            for (int k = 0; k < 3 && e != null; k++) {
                if (v.equals(ParseTrees.simpleName(e))) break;
                rounding = e;
                if (e instanceof CastExprContext cast) e = ParseTrees.stripParens(cast.expression());
                else if (e instanceof FunctionalCastExprContext f
                        && f.argumentList() != null
                        && f.argumentList().argument().size() == 1)
                    e = ParseTrees.stripParens(f.argumentList().argument(0).expression());
                else if (e instanceof CallExprContext call
                        && call.argumentList() != null
                        && call.argumentList().argument().size() == 1
                        && String.valueOf(ParseTrees.calleeName(call.expression()))
                                .startsWith("floor"))
                    e = ParseTrees.stripParens(call.argumentList().argument(0).expression());
                else e = null;
            }
            if (e == null || rounding == null || !v.equals(ParseTrees.simpleName(e))) continue;
            operand = e;
            String i = interp.index(rounding, operand);
            if (i != null) return i;
        }
        return null;
    }

    /**
     * The texts the index takes at the bound: an integer constant ({@code 0.0f} is {@code 0}), or {@code M} and
     * {@code (M)} for a bound {@code float(M)}, {@code (float)M} or a variable defined once as one of them.
     */
    private static List<String> ends(Interpolations interp, ExpressionContext bound) {
        List<String> out = new ArrayList<>();
        ExpressionContext b = ParseTrees.stripParens(bound);
        String t = b.getText().replaceAll("[fFlL]$", "");
        try {
            double d = Double.parseDouble(t);
            if (d >= 0 && d == Math.rint(d) && d < 1e9) out.add(Long.toString((long) d));
            return out;
        } catch (NumberFormatException e) {
            // not a literal
        }
        String name = ParseTrees.simpleName(b);
        if (name != null) {
            ExpressionContext def = interp.onlyDefinition(name);
            if (def == null) return out;
            b = ParseTrees.stripParens(def);
        }
        if (b instanceof CastExprContext cast) b = ParseTrees.stripParens(cast.expression());
        else if (b instanceof FunctionalCastExprContext f
                && f.argumentList() != null
                && f.argumentList().argument().size() == 1)
            b = ParseTrees.stripParens(f.argumentList().argument(0).expression());
        out.add(b.getText());
        out.add("(" + b.getText() + ")");
        return out;
    }

    private static List<IndexExprContext> subscripts(ParseTree t) {
        List<IndexExprContext> out = new ArrayList<>();
        collect(t, out);
        return out;
    }

    private static void collect(ParseTree t, List<IndexExprContext> out) {
        if (t instanceof IndexExprContext x) out.add(x);
        for (int k = 0; k < t.getChildCount(); k++) collect(t.getChild(k), out);
    }

    private static String squash(Interpolations interp, ParserRuleContext e) {
        return interp.squash(e);
    }

    /** The one plain assignment that is the whole statement (braces allowed), or null. */
    private static AssignExprContext assignment(StatementContext st) {
        while (st instanceof BlockStmtContext b
                && b.compoundStatement().statement().size() == 1)
            st = b.compoundStatement().statement(0);
        if (!(st instanceof ExprStmtContext e)
                || e.commaExpression().expression().size() != 1) return null;
        return e.commaExpression().expression(0) instanceof AssignExprContext a
                        && a.assignOp().ASSIGN() != null
                        && a.expression().size() == 2
                ? a
                : null;
    }
}
