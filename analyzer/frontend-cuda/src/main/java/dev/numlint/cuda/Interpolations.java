package dev.numlint.cuda;

import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.cuda.facts.LinearForms;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.antlr.v4.runtime.ParserRuleContext;

/**
 * The roundings of one function body that index a linear interpolation (the hand-written front end's fact; the
 * Clang front end's is {@code clang/ClangInterpolations}): {@code i = (int)floorf(x)} (or {@code floorf(x)}, or
 * {@code (int)x}) held in a variable {@code i}, whose fractional part {@code x - i} the function computes (the weight)
 * and whose neighbour {@code i + 1} it forms. The interpolant {@code (1-w)*a[i] + w*a[i+1]} is continuous in x: where
 * one ulp moves i to the next cell, w moves from 1 to 0 with it, so the sample moves by about one ulp of value. What
 * else the index does (a comparison, a store) is judged on its own by the def-use walk.
 */
final class Interpolations {
    private final Function<ParserRuleContext, String> text;
    private final IdentityHashMap<ParserRuleContext, E> memo;
    private final Supplier<List<AddExprContext>> adds;
    private final Function<String, List<ParserRuleContext>> definitions;
    private final Supplier<java.util.Map<String, List<ParserRuleContext>>> allDefinitions;

    Interpolations(
            Function<ParserRuleContext, String> text,
            IdentityHashMap<ParserRuleContext, E> memo,
            Supplier<List<AddExprContext>> adds,
            Supplier<java.util.Map<String, List<ParserRuleContext>>> allDefinitions) {
        this.text = text;
        this.memo = memo;
        this.adds = adds;
        this.allDefinitions = allDefinitions;
        this.definitions = v -> allDefinitions.get().getOrDefault(v, List.of());
    }

    /**
     * The index and the variables derived from it: its integer copy ({@code int x_low = (int)dx_low}) and flat
     * indices that hold it as a term ({@code idx = y_low*w + x_low}), a few steps deep.
     */
    private java.util.Set<String> derived(String i) {
        java.util.Set<String> out = new java.util.HashSet<>(List.of(i));
        for (int round = 0; round < 3; round++) {
            boolean grew = false;
            for (java.util.Map.Entry<String, List<ParserRuleContext>> e :
                    allDefinitions.get().entrySet()) {
                if (out.contains(e.getKey()) || e.getValue().size() != 1) continue;
                ExpressionContext v = value(e.getValue().get(0));
                if (v != null && termOfAny(v, out)) grew = out.add(e.getKey());
            }
            if (!grew) break;
        }
        return out;
    }

    private static ExpressionContext value(ParserRuleContext d) {
        if (d instanceof AssignExprContext as) return as.expression(1);
        if (d instanceof InitDeclaratorContext id
                && id.initializer() != null
                && id.initializer().initializerClause() != null)
            return id.initializer().initializerClause().expression();
        return null;
    }

    private static boolean termOfAny(ExpressionContext e, java.util.Set<String> names) {
        for (String n : names) if (term(e, n)) return true;
        return false;
    }

    /**
     * The variable that holds the rounding {@code rounding} of the value {@code operand} when it is the index of a
     * linear interpolation in this function (its weight {@code operand - i} and its neighbour {@code i + 1} are
     * formed), else null.
     */
    String index(ParserRuleContext rounding, ExpressionContext operand) {
        if (operand == null) return null;
        String i = holder(rounding);
        if (i == null) return null;
        String x = squash(operand);
        String raw = text.apply(operand);
        java.util.Set<String> family = derived(i);
        boolean weight = false, neighbour = false;
        for (AddExprContext a : adds.get()) {
            if (a.expression().size() != 2) continue;
            ExpressionContext l = ParseTrees.stripParens(a.expression(0)), r = ParseTrees.stripParens(a.expression(1));
            if (a.MINUS() != null && i.equals(name(r)) && sameValue(l, x)) weight = true;
            // the weight in another written form: (x - (i*v + o))/v for x = (x - o)/v, x*s - (float)i
            if (!weight && a.MINUS() != null && (fraction(a, raw, i) || fraction(enclosing(a), raw, i))) weight = true;
            if (a.PLUS() != null && (termOfAny(l, family) && one(r) || termOfAny(r, family) && one(l)))
                neighbour = true;
        }
        return weight && neighbour ? i : null;
    }

    /**
     * Whether the expression {@code e} is algebraically the fractional part {@code x - i} of the floored value (its
     * text {@code rawX}) over the index {@code i}, up to a sign and a constant ({@link LinearForms}), variables the
     * function defines once being read as their value.
     */
    boolean fraction(ParserRuleContext e, String rawX, String i) {
        if (!(e instanceof AddExprContext || e instanceof MulExprContext)) return false;
        return LinearForms.fraction(text.apply(e), rawX, i, v -> {
            ExpressionContext d = onlyDefinition(v);
            return d == null ? null : text.apply(d);
        });
    }

    /** The product or quotient that holds {@code e} (through parentheses), else null. */
    private static ParserRuleContext enclosing(ParserRuleContext e) {
        ParserRuleContext p = e.getParent();
        while (p instanceof PrimaryExprContext
                || p instanceof ParenPrimaryContext
                || p instanceof CommaExpressionContext c && c.expression().size() == 1) p = p.getParent();
        return p instanceof MulExprContext ? p : null;
    }

    /** The value of the variable {@code v} when the function defines it once, else null. */
    ExpressionContext onlyDefinition(String v) {
        List<ParserRuleContext> defs = definitions.apply(v);
        return defs.size() == 1 ? value(defs.get(0)) : null;
    }

    /**
     * Whether {@code f} (squashed text) is the fractional part of {@code v} over the index {@code i}: {@code v - i}
     * (through casts of i), or a variable the function defines once as it.
     */
    boolean fraction(String f, String v, String i) {
        if (f.equals(v + "-" + i)) return true;
        ExpressionContext d = f.matches("\\w+") ? onlyDefinition(f) : null;
        if (!(d instanceof AddExprContext a)
                || a.MINUS() == null
                || a.expression().size() != 2) return false;
        return v.equals(ParseTrees.simpleName(a.expression(0))) && i.equals(name(a.expression(1)));
    }

    /** Whether the comparison {@code cmp} of {@code operand} clamps it to an end of a table it interpolates. */
    boolean endClamp(ParserRuleContext cmp, ParserRuleContext operand) {
        return EndClamps.clamps(this, cmp, operand);
    }

    /** Whether {@code e} is the value {@code operand} (its text) or a local variable defined as it. */
    boolean weightOf(ExpressionContext e, String x) {
        return sameValue(ParseTrees.stripParens(e), x);
    }

    String squash(ParserRuleContext e) {
        return text.apply(e).replaceAll("[\\s()]", "");
    }

    private boolean sameValue(ExpressionContext e, String x) {
        if (squash(e).equals(x)) return true;
        String v = ParseTrees.simpleName(e);
        if (v == null) return false;
        List<ParserRuleContext> defs = definitions.apply(v);
        if (defs.size() != 1) return false;
        ParserRuleContext d = defs.get(0);
        ParserRuleContext value = d instanceof InitDeclaratorContext id
                ? id.initializer()
                : d instanceof AssignExprContext as ? as.expression(1) : null;
        if (value == null) return false;
        String s = squash(value);
        if (s.startsWith("=")) s = s.substring(1);
        return s.equals(x);
    }

    /** Whether {@code i} is {@code e} or one term of the sum {@code e} ({@code iy*width + ix} for ix). */
    private static boolean term(ExpressionContext e, String i) {
        ExpressionContext s = ParseTrees.stripParens(e);
        if (i.equals(name(s))) return true;
        return s instanceof AddExprContext a
                && a.PLUS() != null
                && a.expression().size() == 2
                && (term(a.expression(0), i) || term(a.expression(1), i));
    }

    /** The name {@code e} reads, through casts ({@code (float)i}). */
    private static String name(ExpressionContext e) {
        ExpressionContext s = ParseTrees.stripParens(e);
        while (s instanceof CastExprContext c) s = ParseTrees.stripParens(c.expression());
        if (s instanceof FunctionalCastExprContext f
                && f.argumentList() != null
                && f.argumentList().argument().size() == 1) {
            return ParseTrees.simpleName(f.argumentList().argument(0).expression());
        }
        return ParseTrees.simpleName(s);
    }

    private boolean one(ExpressionContext e) {
        E v = memo.get(e);
        return v != null && v.cval != null && v.cval == 1.0;
    }

    /** The local variable the rounding is written to, through casts and parentheses, or null. */
    private static String holder(ParserRuleContext rounding) {
        ParserRuleContext cur = rounding;
        while (true) {
            ParserRuleContext p = cur.getParent();
            if (p == null) return null;
            if (p instanceof PrimaryExprContext
                    || p instanceof ParenPrimaryContext
                    || p instanceof CastExprContext
                    || p instanceof ParenCastExprContext
                    || p instanceof NamedCastExprContext
                    || p instanceof FunctionalCastExprContext
                    || p instanceof ArgumentContext
                    || p instanceof InitializerClauseContext
                    || p instanceof InitializerContext
                    || p instanceof CommaExpressionContext
                            && ((CommaExpressionContext) p).expression().size() == 1) {
                cur = p;
            } else if (p instanceof ArgumentListContext && p.getParent() instanceof FunctionalCastExprContext) {
                cur = p;
            } else if (p instanceof InitDeclaratorContext d) {
                return ParseTrees.declName(d.declarator());
            } else if (p instanceof AssignExprContext a
                    && a.assignOp().ASSIGN() != null
                    && a.expression().size() == 2
                    && a.expression(1) == cur) {
                return ParseTrees.simpleName(a.expression(0));
            } else {
                return null;
            }
        }
    }
}
