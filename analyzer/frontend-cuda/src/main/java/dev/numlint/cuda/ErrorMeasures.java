package dev.numlint.cuda;

import static dev.numlint.cuda.ParseTrees.calleeName;
import static dev.numlint.cuda.ParseTrees.declName;
import static dev.numlint.cuda.ParseTrees.simpleName;
import static dev.numlint.cuda.ParseTrees.stripParens;
import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.cuda.facts.FunctionFacts;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;

/**
 * The error measures of a result check: a loop that compares a computed array with a reference element by element
 * and sums a non-negative measure of each difference ({@code err += d * d}, {@code err += fabs(x[i] - y[i])}, with
 * {@code d = x[i] - y[i]} of two different arrays at one index), possibly with the companion norm of the reference
 * in the same loop ({@code ref += r * r}, {@code ref += fabs(r)} of an element). A sum of non-negative terms cannot
 * cancel: its relative error is at most (n-1)*2^-24 of itself, whatever the order. Whether the sum only feeds a
 * relative error, a tolerance test or a print is the check's question ({@code SerialAccumulation}); this class
 * answers what the terms are.
 */
final class ErrorMeasures {
    private final FunctionBody a;
    /** The loop that carries the sum: definitions of the locals a term reads are looked up in it. */
    private final ParserRuleContext loop;

    private ErrorMeasures(FunctionBody a, ParserRuleContext loop) {
        this.a = a;
        this.loop = loop;
    }

    /**
     * What the accumulation {@code c} (adding {@code addend} to {@code acc}) sums, in the loop {@code loop}:
     * {@link FunctionFacts.ResultCheck#RELATIVE} for an error measure or reference norm whose companion is summed in
     * the same loop, {@link FunctionFacts.ResultCheck#ABSOLUTE} for an error measure alone, else
     * {@link FunctionFacts.ResultCheck#NONE}.
     */
    static FunctionFacts.ResultCheck classify(
            FunctionBody a, ParserRuleContext loop, AssignExprContext c, String acc, ExpressionContext addend) {
        if (!adds(c)) return FunctionFacts.ResultCheck.NONE;
        ErrorMeasures m = new ErrorMeasures(a, loop);
        boolean error = m.errorTerm(addend, 0);
        boolean norm = !error && m.normTerm(addend, 0);
        if (!error && !norm) return FunctionFacts.ResultCheck.NONE;
        // the companion: another sum of the same loop, of the other kind
        for (AssignExprContext other : m.sums()) {
            if (other == c) continue;
            String target = a.fullText(other.expression(0));
            if (target.equals(acc)) continue;
            ExpressionContext t = m.addend(other, target);
            if (t == null) continue;
            if (error ? m.normTerm(t, 0) : m.errorTerm(t, 0)) return FunctionFacts.ResultCheck.RELATIVE;
        }
        return error ? FunctionFacts.ResultCheck.ABSOLUTE : FunctionFacts.ResultCheck.NONE;
    }

    /** {@code s += t} or {@code s = s + t} / {@code s = t + s}: an addition, not {@code s -= t}. */
    private static boolean adds(AssignExprContext c) {
        if (c.assignOp().PLUS_ASSIGN() != null) return true;
        if (c.assignOp().ASSIGN() == null || c.expression().size() < 2) return false;
        ExpressionContext r = stripParens(c.expression(1));
        return r instanceof AddExprContext && ((AddExprContext) r).PLUS() != null;
    }

    /** The term {@code c} adds to {@code target}, or null when it is no sum. */
    private ExpressionContext addend(AssignExprContext c, String target) {
        if (c.expression().size() < 2) return null;
        if (c.assignOp().PLUS_ASSIGN() != null) return c.expression(1);
        if (c.assignOp().ASSIGN() == null) return null;
        ExpressionContext r = stripParens(c.expression(1));
        if (!(r instanceof AddExprContext) || ((AddExprContext) r).PLUS() == null) return null;
        AddExprContext s = (AddExprContext) r;
        if (a.fullText(stripParens(s.expression(0))).equals(target)) return s.expression(1);
        if (a.fullText(stripParens(s.expression(1))).equals(target)) return s.expression(0);
        return null;
    }

    /** The additions to a scalar in the loop ({@code s += t}, {@code s = s + t}). */
    private List<AssignExprContext> sums() {
        List<AssignExprContext> out = new ArrayList<>();
        collect(loop, AssignExprContext.class, out);
        out.removeIf(c -> simpleName(c.expression(0)) == null || !adds(c));
        return out;
    }

    private static <T extends ParseTree> void collect(ParseTree t, Class<T> kind, List<T> out) {
        if (kind.isInstance(t)) out.add(kind.cast(t));
        for (int i = 0; i < t.getChildCount(); i++) collect(t.getChild(i), kind, out);
    }

    /** Absolute-value functions of C, CUDA and C++. */
    private static final Set<String> ABS = Set.of("fabs", "fabsf", "fabsl", "abs", "std::abs", "std::fabs");

    private static final int MAX_DEPTH = 8;

    /**
     * A non-negative measure of a difference: {@code d * d}, {@code fabs(d)} (a sum of such terms too), or a local
     * the loop defines so, where {@code d} is a {@linkplain #difference difference} of a computed and a reference
     * element.
     */
    private boolean errorTerm(ExpressionContext e, int depth) {
        if (depth > MAX_DEPTH) return false;
        e = uncast(e);
        if (e instanceof MulExprContext && ((MulExprContext) e).STAR() != null) {
            MulExprContext m = (MulExprContext) e;
            return same(m.expression(0), m.expression(1)) && difference(m.expression(0), depth + 1);
        }
        if (e instanceof AddExprContext && ((AddExprContext) e).PLUS() != null) {
            AddExprContext s = (AddExprContext) e;
            return errorTerm(s.expression(0), depth + 1) && errorTerm(s.expression(1), depth + 1);
        }
        ExpressionContext arg = absArgument(e);
        if (arg != null) return difference(arg, depth + 1);
        ExpressionContext def = definition(e);
        return def != null && errorTerm(def, depth + 1);
    }

    /** A non-negative measure of a reference element: {@code r * r}, {@code fabs(r)} or a local defined so. */
    private boolean normTerm(ExpressionContext e, int depth) {
        if (depth > MAX_DEPTH) return false;
        e = uncast(e);
        if (e instanceof MulExprContext && ((MulExprContext) e).STAR() != null) {
            MulExprContext m = (MulExprContext) e;
            Elem x = element(m.expression(0), depth + 1);
            return same(m.expression(0), m.expression(1)) && x != null && !x.arrays.isEmpty();
        }
        ExpressionContext arg = absArgument(e);
        if (arg != null) {
            Elem x = element(arg, depth + 1);
            return x != null && !x.arrays.isEmpty();
        }
        ExpressionContext def = definition(e);
        return def != null && normTerm(def, depth + 1);
    }

    /**
     * {@code x[i] - y[i]}: elements of two different arrays at the same index (directly or through locals the loop
     * defines from such elements, {@code ref = a[n] + b[n]; diff = c[n] - ref}), or a local defined so.
     */
    private boolean difference(ExpressionContext e, int depth) {
        if (depth > MAX_DEPTH) return false;
        e = uncast(e);
        if (e instanceof AddExprContext && ((AddExprContext) e).MINUS() != null) {
            AddExprContext s = (AddExprContext) e;
            Elem l = element(s.expression(0), depth + 1);
            Elem r = element(s.expression(1), depth + 1);
            if (l == null || r == null || l.arrays.isEmpty() || r.arrays.isEmpty()) return false;
            if (!l.index.equals(r.index)) return false;
            for (String n : l.arrays) if (r.arrays.contains(n)) return false;
            return true;
        }
        ExpressionContext def = definition(e);
        return def != null && difference(def, depth + 1);
    }

    /** The arrays an element value reads and their common index; no arrays for a constant. */
    private record Elem(Set<String> arrays, String index) {}

    /**
     * An element value: {@code x[i]} (or a field of it), a literal, or a sum, difference or product of element values
     * at one index; a local the loop defines so. Null for anything else.
     */
    private Elem element(ExpressionContext e, int depth) {
        if (depth > MAX_DEPTH) return null;
        e = uncast(e);
        while (e instanceof MemberExprContext && ((MemberExprContext) e).DOT() != null) {
            e = stripParens(((MemberExprContext) e).expression());
        }
        if (e instanceof IndexExprContext) {
            StringBuilder idx = new StringBuilder();
            ExpressionContext b = e;
            while (b instanceof IndexExprContext) {
                idx.insert(0, "[" + a.fullText(((IndexExprContext) b).commaExpression()) + "]");
                b = stripParens(((IndexExprContext) b).expression());
            }
            String base = simpleName(b);
            if (base == null) return null;
            Set<String> arrays = new HashSet<>();
            arrays.add(base);
            return new Elem(arrays, idx.toString());
        }
        if (e instanceof PrimaryExprContext && ((PrimaryExprContext) e).primary() instanceof LiteralPrimaryContext) {
            return new Elem(new HashSet<>(), null);
        }
        ExpressionContext l = null;
        ExpressionContext r = null;
        if (e instanceof AddExprContext) {
            l = ((AddExprContext) e).expression(0);
            r = ((AddExprContext) e).expression(1);
        } else if (e instanceof MulExprContext && ((MulExprContext) e).MOD() == null) {
            l = ((MulExprContext) e).expression(0);
            r = ((MulExprContext) e).expression(1);
        }
        if (l != null) {
            Elem x = element(l, depth + 1);
            Elem y = element(r, depth + 1);
            if (x == null || y == null) return null;
            if (x.index != null && y.index != null && !x.index.equals(y.index)) return null;
            Set<String> arrays = new HashSet<>(x.arrays);
            arrays.addAll(y.arrays);
            return new Elem(arrays, x.index != null ? x.index : y.index);
        }
        ExpressionContext def = definition(e);
        return def == null ? null : element(def, depth + 1);
    }

    /** The argument of {@code fabs(x)}, {@code fabsf(x)}, {@code std::abs(x)}, or null. */
    private static ExpressionContext absArgument(ExpressionContext e) {
        if (!(e instanceof CallExprContext)) return null;
        CallExprContext call = (CallExprContext) e;
        String name = calleeName(call.expression());
        if (name == null || !ABS.contains(name)) return null;
        if (call.argumentList() == null || call.argumentList().argument().size() != 1) return null;
        return call.argumentList().argument(0).expression();
    }

    /**
     * The value the loop gives the local {@code e} names: its only definition in the loop ({@code float d = ...;}
     * or {@code d = ...;}); null for anything else or when the loop defines it more than once.
     */
    private ExpressionContext definition(ExpressionContext e) {
        String name = simpleName(e);
        if (name == null || a.lookup(name) == null) return null;
        List<ExpressionContext> defs = new ArrayList<>();
        boolean[] other = {false};
        definitions(loop, name, defs, other);
        return defs.size() == 1 && !other[0] ? defs.get(0) : null;
    }

    private void definitions(ParseTree t, String name, List<ExpressionContext> defs, boolean[] other) {
        if (t instanceof InitDeclaratorContext) {
            InitDeclaratorContext d = (InitDeclaratorContext) t;
            if (name.equals(declName(d.declarator()))) {
                InitializerContext init = d.initializer();
                if (init != null
                        && init.initializerClause() != null
                        && init.initializerClause().expression() != null) {
                    defs.add(init.initializerClause().expression());
                } else if (init != null) {
                    other[0] = true;
                }
            }
        } else if (t instanceof AssignExprContext) {
            AssignExprContext c = (AssignExprContext) t;
            if (name.equals(simpleName(c.expression(0)))) {
                if (c.assignOp().ASSIGN() != null && c.expression().size() > 1) defs.add(c.expression(1));
                else other[0] = true;
            }
        } else if (t instanceof PostIncExprContext) {
            if (name.equals(simpleName(((PostIncExprContext) t).expression()))) other[0] = true;
        } else if (t instanceof UnaryExprContext) {
            UnaryExprContext u = (UnaryExprContext) t;
            if ((u.PLUS_PLUS() != null || u.MINUS_MINUS() != null || u.AMP() != null)
                    && name.equals(simpleName(u.expression()))) {
                other[0] = true;
            }
        }
        for (int i = 0; i < t.getChildCount(); i++) definitions(t.getChild(i), name, defs, other);
    }

    private boolean same(ExpressionContext x, ExpressionContext y) {
        return a.fullText(uncast(x)).equals(a.fullText(uncast(y)));
    }

    /** Without parentheses and floating casts ({@code (double) x}, {@code static_cast<double>(x)}). */
    private static ExpressionContext uncast(ExpressionContext e) {
        e = stripParens(e);
        while (true) {
            if (e instanceof CastExprContext) e = stripParens(((CastExprContext) e).expression());
            else if (e instanceof NamedCastExprContext) e = stripParens(((NamedCastExprContext) e).expression());
            else return e;
        }
    }
}
