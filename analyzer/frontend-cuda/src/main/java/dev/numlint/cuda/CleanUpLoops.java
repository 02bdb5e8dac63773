package dev.numlint.cuda;

import static dev.numlint.cuda.ParseTrees.declName;
import static dev.numlint.cuda.ParseTrees.simpleName;
import static dev.numlint.cuda.ParseTrees.stripParens;
import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.cuda.facts.CleanUpLoop;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * Clean-up (remainder) loops of the hand-written front end, as Clang's {@code ClangCleanUps} finds them:
 * {@code for (; i < n; i++)} after a loop that leaves at {@code i + 4 > n} ({@code i + 4 <= n}, {@code i < n - 3},
 * {@code i < t} with {@code t = (n >> 2) << 2}), or a loop whose counter starts at {@code 4*r} with {@code r = n >> 2}
 * ({@code n / 4 * 4}, {@code n & ~3}, {@code n - n % 4}): it runs at most k-1 times. Strict: the counter is written
 * by nothing between the loops, the loop before has no {@code break} of its own and the function no {@code goto},
 * and every name the bounds read is a parameter or a local written only by its declaration.
 */
final class CleanUpLoops {
    private final FunctionBody b;
    private final DefinitionIndex defs;

    CleanUpLoops(FunctionBody b, DefinitionIndex defs) {
        this.b = b;
        this.defs = defs;
    }

    /** The clean-up bound of the for statement {@code c}, or null. */
    CleanUpLoop of(ForStmtContext c) {
        ParserRuleContext root = root(c);
        if (root == null || c.condition() == null || c.condition().commaExpression() == null) return null;
        if (c.commaExpression() == null || c.commaExpression().expression().size() != 1) return null;
        ExpressionContext ce = stripParens(c.condition().commaExpression().expression(0));
        if (!(ce instanceof RelExprContext r)) return null;
        int op = ((TerminalNode) r.getChild(1)).getSymbol().getType();
        String var;
        ExpressionContext bound;
        int extra;
        if (op == dev.numlint.cuda.parser.CudaLexer.LT || op == dev.numlint.cuda.parser.CudaLexer.LE) {
            var = simpleName(r.expression(0));
            bound = r.expression(1);
            extra = op == dev.numlint.cuda.parser.CudaLexer.LE ? 1 : 0;
        } else {
            var = simpleName(r.expression(1));
            bound = r.expression(0);
            extra = op == dev.numlint.cuda.parser.CudaLexer.GE ? 1 : 0;
        }
        if (var == null || !countsUp(c.commaExpression().expression(0), var)) return null;
        if (defs.defs(c.statement(), var) != 0 || defs.defs(c.condition(), var) != 0) return null;
        if (contains(root, GotoStmtContext.class) || !stable(bound, root, var) || addressTaken(root, var)) return null;
        long[] start = start(c, var, bound, root);
        if (start == null) return null;
        long most = start[0] + extra;
        if (most < 0 || most > 1 << 20) return null;
        return new CleanUpLoop((int) start[1], most);
    }

    /** How far below the bound the counter starts, and the line of the loop before (0: none); null when unknown. */
    private long[] start(ForStmtContext c, String var, ExpressionContext bound, ParserRuleContext root) {
        if (!(c.getParent() instanceof CompoundStatementContext block)) return null;
        List<StatementContext> ss = block.statement();
        int at = ss.indexOf(c);
        ForInitContext init = c.forInit();
        ExpressionContext first = null;
        if (init.simpleDeclaration() != null) {
            List<InitDeclaratorContext> ds = init.simpleDeclaration().initDeclarator();
            if (ds.size() != 1 || !var.equals(declName(ds.get(0).declarator()))) return null;
            first = initializer(ds.get(0));
            if (first == null) return null;
        } else if (init.commaExpression() != null) {
            if (init.commaExpression().expression().size() != 1) return null;
            first = assigned(init.commaExpression().expression(0), var);
            if (first == null) return null;
        }
        if (first != null) {
            Long g = gap(first, bound, root, var, 0);
            if (g == null) {
                // for (i = 0; i < leftovers; i++) with leftovers = n - 8 * (n / 8), n % 8, n & 7
                Double from = constant(first);
                Long r = from == null || from < 0 ? null : remainder(bound, root, var, 0);
                if (r != null) g = Math.max(0, r - from.longValue());
            }
            return g == null ? null : new long[] {g, loopBefore(ss, at)};
        }
        for (int k = at - 1; k >= 0; k--) {
            StatementContext s = ss.get(k);
            if (s instanceof ExprStmtContext e
                    && e.commaExpression().expression().size() == 1
                    && assigned(e.commaExpression().expression(0), var) != null) {
                Long g = gap(assigned(e.commaExpression().expression(0), var), bound, root, var, 0);
                return g == null ? null : new long[] {g, loopBefore(ss, k)};
            }
            if (s instanceof ForStmtContext || s instanceof WhileStmtContext || s instanceof DoStmtContext) {
                Long g = exitGap(s, var, bound, root);
                if (g != null) return new long[] {g, s.start.getLine()};
            }
            if (defs.defs(s, var) != 0) return null;
        }
        return null;
    }

    private static int loopBefore(List<StatementContext> ss, int k) {
        for (int j = k - 1; j >= 0; j--) {
            StatementContext s = ss.get(j);
            if (s instanceof ForStmtContext || s instanceof WhileStmtContext || s instanceof DoStmtContext)
                return s.start.getLine();
        }
        return 0;
    }

    /** The value of {@code var = E} ({@code e}), or null. */
    private static ExpressionContext assigned(ExpressionContext e, String var) {
        if (!(e instanceof AssignExprContext a)
                || a.assignOp().ASSIGN() == null
                || a.expression().size() != 2) return null;
        return var.equals(simpleName(a.expression(0))) ? a.expression(1) : null;
    }

    private static ExpressionContext initializer(InitDeclaratorContext d) {
        InitializerContext ini = d.initializer();
        if (ini == null || ini.initializerClause() == null) return null;
        return ini.initializerClause().expression();
    }

    /**
     * How far below {@code bound} the counter is when the loop {@code s} leaves through its condition ({@code i < B}:
     * {@code i >= B}; {@code i + a <= B}: {@code i > B - a}); null when it may leave otherwise ({@code break}) or
     * its condition is no such test.
     */
    private Long exitGap(StatementContext s, String var, ExpressionContext bound, ParserRuleContext root) {
        CommaExpressionContext cond;
        StatementContext body;
        if (s instanceof ForStmtContext f) {
            // for (int i = 0; ...) counts its own i, not the one the clean-up loop goes on with (names, not symbols)
            if (f.forInit().simpleDeclaration() != null) return null;
            cond = f.condition() == null ? null : f.condition().commaExpression();
            body = f.statement();
        } else if (s instanceof WhileStmtContext w) {
            cond = w.condition().commaExpression();
            body = w.statement();
        } else {
            DoStmtContext d = (DoStmtContext) s;
            cond = d.commaExpression();
            body = d.statement();
        }
        if (cond == null || cond.expression().size() != 1 || breaks(body)) return null;
        if (!(stripParens(cond.expression(0)) instanceof RelExprContext r)) return null;
        int op = ((TerminalNode) r.getChild(1)).getSymbol().getType();
        boolean lt = op == dev.numlint.cuda.parser.CudaLexer.LT || op == dev.numlint.cuda.parser.CudaLexer.LE;
        boolean inclusive = op == dev.numlint.cuda.parser.CudaLexer.LE || op == dev.numlint.cuda.parser.CudaLexer.GE;
        ExpressionContext counter = stripParens(r.expression(lt ? 0 : 1));
        ExpressionContext other = r.expression(lt ? 1 : 0);
        long plus = 0;
        if (counter instanceof AddExprContext a && a.PLUS() != null) {
            Double k = constant(a.expression(1));
            ExpressionContext x = a.expression(0);
            if (k == null) {
                k = constant(a.expression(0));
                x = a.expression(1);
            }
            if (k == null || k < 0 || k != Math.rint(k)) return null;
            plus = k.longValue();
            counter = stripParens(x);
        }
        if (!var.equals(simpleName(counter)) || !stable(other, root, var)) return null;
        Long g = gap(other, bound, root, var, 0);
        if (g == null) return null;
        return Math.max(0, g + plus - (inclusive ? 1 : 0));
    }

    /** As {@code ClangCleanUps.gap}: the most {@code e} lies below {@code bound}, or null. */
    private Long gap(ExpressionContext e, ExpressionContext bound, ParserRuleContext root, String counter, int depth) {
        ExpressionContext x = stripParens(e);
        if (x == null || depth > 4) return null;
        if (same(x, bound)) return 0L;
        if (x instanceof CastExprContext k) return gap(k.expression(), bound, root, counter, depth + 1);
        if (x instanceof NamedCastExprContext k) return gap(k.expression(), bound, root, counter, depth + 1);
        String name = simpleName(x);
        if (name != null) {
            if (name.equals(counter)) return null;
            ExpressionContext v = singleValue(name, root);
            return v == null ? null : gap(v, bound, root, counter, depth + 1);
        }
        if (x instanceof AddExprContext a && a.MINUS() != null) {
            Double k = constant(a.expression(1));
            if (k != null && k >= 0 && k == Math.rint(k)) {
                Long g = gap(a.expression(0), bound, root, counter, depth + 1);
                return g == null ? null : g + k.longValue();
            }
            ExpressionContext m = stripParens(a.expression(1));
            if (!same(stripParens(a.expression(0)), bound)) return null;
            if (m instanceof MulExprContext mm && mm.MOD() != null && same(stripParens(mm.expression(0)), bound)) {
                Double q = constant(mm.expression(1));
                return q != null && q >= 1 && q == Math.rint(q) ? q.longValue() - 1 : null;
            }
            if (m instanceof BitAndExprContext ba && same(stripParens(ba.expression(0)), bound)) {
                Double q = constant(ba.expression(1));
                return q != null && q >= 0 && powerOfTwo(q.longValue() + 1) ? q.longValue() : null;
            }
            return null;
        }
        if (x instanceof MulExprContext m && m.STAR() != null) {
            Double ka = constant(m.expression(0));
            Double kb = constant(m.expression(1));
            Double k = kb != null ? kb : ka;
            ExpressionContext q = kb != null ? m.expression(0) : m.expression(1);
            if (k == null || k < 1 || k != Math.rint(k)) return null;
            return quotient(q, bound, k.longValue(), root, depth) ? k.longValue() - 1 : null;
        }
        if (x instanceof ShiftExprContext s && s.SHL() != null) {
            Double k = constant(s.expression(1));
            if (k == null || k < 0 || k > 30) return null;
            long f = 1L << k.longValue();
            return quotient(s.expression(0), bound, f, root, depth) ? f - 1 : null;
        }
        if (x instanceof BitAndExprContext ba) {
            Double ka = constant(ba.expression(0));
            Double kb = constant(ba.expression(1));
            Double mk = kb != null ? kb : ka;
            ExpressionContext other = kb != null ? ba.expression(0) : ba.expression(1);
            if (mk == null || !same(stripParens(other), bound)) return null;
            long mask = mk.longValue();
            long k = mask < 0 ? -mask : mask >= (1L << 31) && mask < (1L << 32) ? (1L << 32) - mask : 0;
            return k > 0 && powerOfTwo(k) ? k - 1 : null;
        }
        return null;
    }

    /** As {@code ClangCleanUps.remainder}: the largest value of a remainder ({@code n % k}, {@code n & (k-1)}, {@code n - k*(n/k)}). */
    private Long remainder(ExpressionContext e, ParserRuleContext root, String counter, int depth) {
        ExpressionContext x = stripParens(e);
        if (x == null || depth > 4) return null;
        if (x instanceof CastExprContext k) return remainder(k.expression(), root, counter, depth + 1);
        if (x instanceof NamedCastExprContext k) return remainder(k.expression(), root, counter, depth + 1);
        String name = simpleName(x);
        if (name != null) {
            if (name.equals(counter)) return null;
            ExpressionContext v = singleValue(name, root);
            return v == null ? null : remainder(v, root, counter, depth + 1);
        }
        if (x instanceof MulExprContext m && m.MOD() != null) {
            Double k = constant(m.expression(1));
            return k != null && k >= 1 && k == Math.rint(k) ? k.longValue() - 1 : null;
        }
        if (x instanceof BitAndExprContext ba) {
            Double k = constant(ba.expression(1));
            return k != null && k >= 0 && powerOfTwo(k.longValue() + 1) ? k.longValue() : null;
        }
        if (x instanceof AddExprContext a && a.MINUS() != null) {
            if (!stable(a.expression(0), root, counter)) return null;
            Long g = gap(a.expression(1), a.expression(0), root, counter, depth + 1);
            return g == null || g == 0 ? null : g;
        }
        return null;
    }

    /** {@code q} is {@code bound / k} or {@code bound >> s} with 2^s = k, directly or through a local. */
    private boolean quotient(ExpressionContext q, ExpressionContext bound, long k, ParserRuleContext root, int depth) {
        ExpressionContext x = stripParens(q);
        for (int d = depth; x != null && d < 6; d++) {
            if (x instanceof CastExprContext c) x = stripParens(c.expression());
            else if (x instanceof NamedCastExprContext c) x = stripParens(c.expression());
            else if (simpleName(x) != null) {
                ExpressionContext v = singleValue(simpleName(x), root);
                x = v == null ? null : stripParens(v);
            } else break;
        }
        if (x instanceof MulExprContext m && m.DIV() != null) {
            Double c = constant(m.expression(1));
            return c != null && c == k && same(stripParens(m.expression(0)), bound);
        }
        if (x instanceof ShiftExprContext s && s.SHL() == null) {
            Double c = constant(s.expression(1));
            return c != null
                    && c >= 0
                    && c < 31
                    && (1L << c.longValue()) == k
                    && same(stripParens(s.expression(0)), bound);
        }
        return false;
    }

    private static boolean powerOfTwo(long k) {
        return k > 0 && (k & (k - 1)) == 0;
    }

    private Double constant(ExpressionContext e) {
        ExpressionContext x = stripParens(e);
        E v = b.memo.get(x);
        if (v == null) v = b.memo.get(e);
        if (v != null && v.cval != null) return v.cval;
        // ~7: the complement of a whole constant (the value model leaves it unknown)
        if (x instanceof UnaryExprContext u && u.TILDE() != null) {
            Double c = constant(u.expression());
            if (c != null && c == Math.rint(c) && Math.abs(c) < 0x1p31) return (double) ~c.longValue();
        }
        return null;
    }

    private boolean same(ExpressionContext x, ExpressionContext y) {
        return b.text(stripParens(x))
                .replaceAll("\\s+", "")
                .equals(b.text(stripParens(y)).replaceAll("\\s+", ""));
    }

    /**
     * The initializer of the local {@code name} when it is declared once in the body with one and written nowhere
     * else; null otherwise (a parameter has none).
     */
    private ExpressionContext singleValue(String name, ParserRuleContext root) {
        List<InitDeclaratorContext> ds = new ArrayList<>();
        collect(root, InitDeclaratorContext.class, ds);
        ExpressionContext v = null;
        int decls = 0;
        for (InitDeclaratorContext d : ds) {
            if (!name.equals(declName(d.declarator()))) continue;
            decls++;
            v = initializer(d);
        }
        if (decls != 1 || v == null || defs.defs(root, name) != 1) return null;
        return v;
    }

    /**
     * Whether every name {@code e} reads (not the counter) keeps its value in the body: a parameter never written,
     * or a local written only by its declaration; {@code e} calls nothing and reads no member through a pointer.
     */
    private boolean stable(ExpressionContext e, ParserRuleContext root, String counter) {
        if (contains(e, CallExprContext.class) || contains(e, MemberExprContext.class)) return false;
        Set<String> names = new HashSet<>();
        names(e, names);
        if (names.contains(counter)) return false;
        for (String n : names) {
            int d = defs.defs(root, n);
            if (d == 0) continue;
            if (d > 1 || singleValue(n, root) == null) return false;
        }
        return true;
    }

    private static void names(ParseTree t, Set<String> out) {
        if (t instanceof NamePrimaryContext np) {
            out.add(np.qualifiedName().getText());
            return;
        }
        for (int i = 0; i < t.getChildCount(); i++) names(t.getChild(i), out);
    }

    /** {@code i++}, {@code ++i}, {@code i += c} with a constant c >= 1. */
    private boolean countsUp(ExpressionContext inc, String var) {
        ExpressionContext x = stripParens(inc);
        if (x instanceof PostIncExprContext p) return p.PLUS_PLUS() != null && var.equals(simpleName(p.expression()));
        if (x instanceof UnaryExprContext u) return u.PLUS_PLUS() != null && var.equals(simpleName(u.expression()));
        if (x instanceof AssignExprContext a
                && a.assignOp().PLUS_ASSIGN() != null
                && a.expression().size() == 2) {
            Double k = constant(a.expression(1));
            return k != null && k >= 1 && var.equals(simpleName(a.expression(0)));
        }
        return false;
    }

    /** A {@code break} that leaves {@code body}'s loop (not one of an inner loop or switch). */
    private static boolean breaks(ParseTree t) {
        if (t instanceof ForStmtContext
                || t instanceof WhileStmtContext
                || t instanceof DoStmtContext
                || t instanceof RangeForStmtContext
                || t instanceof SwitchStmtContext) return false;
        if (t instanceof JumpStmtContext j && j.BREAK() != null) return true;
        for (int i = 0; i < t.getChildCount(); i++) if (breaks(t.getChild(i))) return true;
        return false;
    }

    /** Whether {@code t} takes the address of {@code var} anywhere (a pointer could then move the counter). */
    private static boolean addressTaken(ParseTree t, String var) {
        if (t instanceof UnaryExprContext u && u.AMP() != null && var.equals(simpleName(u.expression()))) return true;
        for (int i = 0; i < t.getChildCount(); i++) if (addressTaken(t.getChild(i), var)) return true;
        return false;
    }

    private static ParserRuleContext root(ParserRuleContext c) {
        for (ParserRuleContext p = c; p != null; p = p.getParent()) if (p instanceof FunctionBodyContext) return p;
        return null;
    }

    private static boolean contains(ParseTree t, Class<?> kind) {
        if (kind.isInstance(t)) return true;
        for (int i = 0; i < t.getChildCount(); i++) if (contains(t.getChild(i), kind)) return true;
        return false;
    }

    private static <T> void collect(ParseTree t, Class<T> kind, List<T> out) {
        if (kind.isInstance(t)) out.add(kind.cast(t));
        for (int i = 0; i < t.getChildCount(); i++) collect(t.getChild(i), kind, out);
    }
}
