package dev.numlint.cuda;

import static dev.numlint.cuda.ParseTrees.simpleName;
import static dev.numlint.cuda.ParseTrees.stripParens;
import static dev.numlint.cuda.SyntaxQueries.*;
import static dev.numlint.cuda.parser.CudaParser.*;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The strides by which the counters of the loops around an updated element move it, for {@link AccumulationSites}:
 * a loop whose counter (or a name its body steps once per iteration) moves the element only by a stride the loop
 * does not change and that is no constant ({@code y[j*C]}, {@code y[iy]} with {@code iy += incy}) sums into one
 * element only when that stride is 0; the condition of such a sum ({@code "C is 0"}) is what is read here.
 */
final class ElementStrides {
    private final FunctionBody a;

    ElementStrides(FunctionBody a) {
        this.a = a;
    }

    /**
     * The condition of a sum over {@code lp} (the {@code depth}th loop) into the element with subscripts
     * {@code indices}, when its counter moves the element only by a stride the loop does not change and that is no
     * constant ({@code y[j*C]}: {@code "C is 0"}; with the counter of a loop inside it in the same subscript,
     * {@code "C is 0 or its rows overlap"}); null when a counter of it moves the element by a constant, or in a form
     * not read here (as before: the loop moves the element).
     */
    String strideOf(Loop lp, int depth, List<ExpressionContext> indices) {
        String found = null;
        for (String iv : lp.induction) {
            for (ExpressionContext ix : indices) {
                String k = coefficient(ix, iv, lp.modified());
                if (k == null) continue;
                if (k.isEmpty() || k.equals(OTHER)) return null;
                if (found == null) found = k + (innerCounter(ix, depth) ? " is 0 or its rows overlap" : " is 0");
            }
        }
        return found;
    }

    /** Whether the subscript reads the counter of a loop inside the {@code depth}th. */
    private boolean innerCounter(ExpressionContext ix, int depth) {
        Set<String> n = new HashSet<>();
        names(ix, n);
        for (int j = depth + 1; j < a.loops.size(); j++) {
            for (String iv : a.loops.get(j).induction) if (n.contains(iv)) return true;
        }
        return false;
    }

    /**
     * A name of the subscripts that no loop counts but that a statement of {@code lp}'s body block steps once in
     * every iteration ({@code iy = iy + incy}, {@code iy += incy}, {@code k += 2}), by an amount the loop does not
     * change, written nowhere else in the loop, in a body without {@code continue} or {@code goto}, with a constant
     * coefficient in a subscript: the condition of a sum over the loop ({@code "incy is 0"}), {@code ""} when the
     * step is a non-zero constant (the loop moves the element), else null.
     */
    String bodyStride(Loop lp, int depth, List<ExpressionContext> indices, Set<String> moveNames) {
        StatementContext body = lp.node instanceof ForStmtContext f
                ? f.statement()
                : lp.node instanceof WhileStmtContext w
                        ? w.statement()
                        : lp.node instanceof DoStmtContext d ? d.statement() : null;
        if (!(body instanceof BlockStmtContext block) || jumpsBack(body)) return null;
        for (StatementContext st : block.compoundStatement().statement()) {
            if (!(st instanceof ExprStmtContext es) || es.commaExpression() == null) continue;
            if (es.commaExpression().expression().size() != 1) continue;
            if (!(stripParens(es.commaExpression().expression(0)) instanceof AssignExprContext as)) continue;
            if (as.expression().size() != 2) continue;
            String v = simpleName(as.expression(0));
            if (v == null || !moveNames.contains(v)) continue;
            boolean counted = false;
            for (Loop l : a.loops) if (l.induction.contains(v)) counted = true;
            if (counted || definitions(lp.node, v) != 1) continue;
            ExpressionContext amount = null;
            if (as.assignOp().PLUS_ASSIGN() != null || as.assignOp().MINUS_ASSIGN() != null) {
                amount = as.expression(1);
            } else if (as.assignOp().ASSIGN() != null
                    && stripParens(as.expression(1)) instanceof AddExprContext add
                    && add.PLUS() != null) {
                if (v.equals(simpleName(add.expression(0)))) amount = add.expression(1);
                else if (v.equals(simpleName(add.expression(1)))) amount = add.expression(0);
            }
            if (amount == null) continue;
            Set<String> read = new HashSet<>();
            names(amount, read);
            if (read.contains(v) || containsAny(amount, CallExprContext.class, IndexExprContext.class)) continue;
            boolean invariant = true;
            for (String n : read) if (lp.modified().contains(n)) invariant = false;
            if (!invariant) continue;
            boolean constant = true;
            for (ExpressionContext ix : indices) {
                String k = coefficient(ix, v, lp.modified());
                if (k != null && !k.isEmpty()) constant = false;
            }
            if (!constant) continue;
            Long step = literal(stripParens(amount));
            if (step != null) return step != 0 ? "" : null;
            if (read.isEmpty()) continue;
            String condition = innerCounter(indices.get(0), depth) ? " is 0 or its rows overlap" : " is 0";
            return a.text(stripParens(amount)) + condition;
        }
        return null;
    }

    /**
     * Whether a subscript is built of names, literals, sums, differences, products, signs and casts only: one whose
     * counter can move the element from one iteration to the next.
     */
    static boolean linearSubscript(org.antlr.v4.runtime.tree.ParseTree t) {
        if (t instanceof org.antlr.v4.runtime.tree.TerminalNode) return true;
        if (t instanceof MulExprContext m && (m.DIV() != null || m.MOD() != null)) return false;
        if (t instanceof UnaryExprContext u && u.MINUS() == null && u.PLUS() == null) return false;
        // a member of a named struct or pointer (m->nbEBands, s.n): a value, as a name is
        if (t instanceof MemberExprContext m) return m.qualifiedName() != null && ElementStrides.memberRoot(m) != null;
        if (t instanceof ExpressionContext
                && !(t instanceof PrimaryExprContext
                        || t instanceof AddExprContext
                        || t instanceof MulExprContext
                        || t instanceof UnaryExprContext
                        || t instanceof CastExprContext)) return false;
        for (int i = 0; i < t.getChildCount(); i++) if (!linearSubscript(t.getChild(i))) return false;
        return true;
    }

    /** How many declarations of locals {@link #followLocals} follows. */
    private static final int FOLLOWED = 8;

    /**
     * Adds to {@code moveNames} (the names of subscripts built of sums and products) the names that a local among
     * them holds: a local declared inside the loops from the {@code from}th on, whose one definition in them is that
     * declaration ({@code size_t i = tile * T + k;}, no other assignment, increment, address taken or name passed to
     * a call) with an initializer of that form. Each iteration of the loop it is declared in gives it the
     * initializer's value, so a counter the initializer reads moves the element as in the subscript itself.
     */
    void followLocals(int from, Set<String> moveNames) {
        if (from >= a.loops.size()) return;
        org.antlr.v4.runtime.ParserRuleContext outer = a.loops.get(from).node;
        List<String> work = new ArrayList<>(moveNames);
        Set<String> followed = new HashSet<>();
        while (!work.isEmpty() && followed.size() < FOLLOWED) {
            String n = work.remove(work.size() - 1);
            if (!followed.add(n)) continue;
            Local l = a.lookup(n);
            if (l == null || l.loopDepth <= from || definitions(outer, n) != 1) continue;
            ExpressionContext init = initializer(outer, n);
            if (init == null || !linearSubscript(init)) continue;
            Set<String> read = new HashSet<>();
            names(init, read);
            for (String r : read) if (moveNames.add(r)) work.add(r);
        }
    }

    /** The initializer expression of the plain declaration {@code name = e} (no pointer, array or reference) in {@code t}, else null. */
    private static ExpressionContext initializer(org.antlr.v4.runtime.tree.ParseTree t, String name) {
        if (t instanceof InitDeclaratorContext d) {
            if (d.declarator() == null || !name.equals(d.declarator().getText())) return null;
            InitializerContext i = d.initializer();
            return i == null || i.ASSIGN() == null || i.initializerClause() == null
                    ? null
                    : i.initializerClause().expression();
        }
        for (int k = 0; k < t.getChildCount(); k++) {
            ExpressionContext e = initializer(t.getChild(k), name);
            if (e != null) return e;
        }
        return null;
    }

    /** Whether a statement holds a {@code continue} or a {@code goto}: an iteration may skip a step after it. */
    private static boolean jumpsBack(org.antlr.v4.runtime.tree.ParseTree t) {
        if (t instanceof GotoStmtContext) return true;
        if (t instanceof JumpStmtContext j && j.CONTINUE() != null) return true;
        for (int i = 0; i < t.getChildCount(); i++) if (jumpsBack(t.getChild(i))) return true;
        return false;
    }

    /** {@link #coefficient}'s answer for a counter in a form not read here. */
    private static final String OTHER = "?";

    /**
     * The coefficient of the counter {@code iv} in the subscript {@code ix}, a sum of products: null when {@code ix}
     * does not read it, {@code ""} for a constant one (not 0), the product of the other factors' texts when they are
     * names or members of names that {@code modified} (the loop's writes) does not hold ({@code C},
     * {@code m->nbEBands}), {@link #OTHER} for anything else (iv in two terms, in a parenthesised sum, a factor that
     * changes).
     */
    private String coefficient(ExpressionContext ix, String iv, Set<String> modified) {
        Set<String> all = new HashSet<>();
        names(ix, all);
        if (!all.contains(iv)) return null;
        List<ExpressionContext> terms = new ArrayList<>();
        split(ix, terms, true);
        String found = null;
        for (ExpressionContext t : terms) {
            Set<String> n = new HashSet<>();
            names(t, n);
            if (!n.contains(iv)) continue;
            if (found != null) return OTHER;
            List<ExpressionContext> factors = new ArrayList<>();
            split(t, factors, false);
            int own = 0;
            List<String> stride = new ArrayList<>();
            for (ExpressionContext f : factors) {
                if (iv.equals(simpleName(f))) {
                    own++;
                    continue;
                }
                Set<String> fn = new HashSet<>();
                names(f, fn);
                if (fn.contains(iv)) return OTHER;
                Long k = literal(f);
                if (k != null) {
                    if (k == 0) return OTHER;
                    continue;
                }
                String root = memberRoot(f);
                if (root == null || modified.contains(root)) return OTHER;
                stride.add(a.text(f));
            }
            if (own != 1) return OTHER;
            found = String.join("*", stride);
        }
        return found == null ? OTHER : found;
    }

    /** The terms ({@code sums}) or factors of {@code e}: through parentheses, signs, casts and + - (or *). */
    private static void split(ExpressionContext e, List<ExpressionContext> out, boolean sums) {
        ExpressionContext x = stripParens(e);
        if (x instanceof CastExprContext cast) {
            split(cast.expression(), out, sums);
        } else if (x instanceof UnaryExprContext u && (u.MINUS() != null || u.PLUS() != null)) {
            split(u.expression(), out, sums);
        } else if (sums && x instanceof AddExprContext add) {
            split(add.expression(0), out, true);
            split(add.expression(1), out, true);
        } else if (!sums && x instanceof MulExprContext m && m.STAR() != null) {
            split(m.expression(0), out, false);
            split(m.expression(1), out, false);
        } else {
            out.add(x);
        }
    }

    /** The value of an integer literal ({@code 4}, {@code 2u}), else null. */
    private static Long literal(ExpressionContext e) {
        ExpressionContext x = stripParens(e);
        if (!(x instanceof PrimaryExprContext p && p.primary() instanceof LiteralPrimaryContext)) return null;
        String t = x.getText().toLowerCase(java.util.Locale.ROOT).replaceAll("[ul]+$", "");
        try {
            return t.startsWith("0x") ? Long.parseLong(t.substring(2), 16) : Long.parseLong(t);
        } catch (NumberFormatException notInteger) {
            return null;
        }
    }

    /** The variable a name or a member chain of a name reads ({@code C}, {@code m->nbEBands}, {@code s.n}), else null. */
    static String memberRoot(ExpressionContext e) {
        ExpressionContext x = stripParens(e);
        while (x instanceof MemberExprContext m && m.qualifiedName() != null) x = stripParens(m.expression());
        return simpleName(x);
    }
}
