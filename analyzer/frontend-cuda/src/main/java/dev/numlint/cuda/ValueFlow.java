package dev.numlint.cuda;

import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.cuda.facts.ValueUse;
import dev.numlint.knowledge.NumericFacts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;

/**
 * Def-use of one function body for the impact analysis: from an expression, climbs the tree to what consumes its
 * value (a cast, a subscript, a comparison, a call, an assignment ...) and follows assignments to local variables to
 * their later reads (and, inside a loop, to the reads of the next iteration), a few assignments deep. Built lazily:
 * only sites a check asks about pay for it.
 */
final class ValueFlow {
    // patterns compiled once (String.matches and replaceAll compile theirs on every call)
    private static final java.util.regex.Pattern WHITESPACE = java.util.regex.Pattern.compile("\\s+");

    private static final int MAX_DEPTH = 4;
    private static final int MAX_USES = 32;

    private final IdentityHashMap<ParserRuleContext, E> memo;
    private final Function<ParserRuleContext, String> text;
    /** Declared types of local variables, by their init-declarator. */
    final IdentityHashMap<ParserRuleContext, CType> declTypes = new IdentityHashMap<>();

    private ParserRuleContext root;
    private Map<String, List<ParserRuleContext>> reads;
    private Map<String, List<ParserRuleContext>> defNodes;
    private List<AddExprContext> adds;
    /** Assignments (any operator) and declarations, in token order. */
    private List<ParserRuleContext> assignments;

    private ContinuousSelections selections;
    private Interpolations interpolations;
    /**
     * While the walk follows the index of a linear interpolation ({@link Interpolations}): the floored value's text
     * (its weight, {@code x - i}, ends the walk there: the value's own walk reaches the weight), else null.
     */
    private String interpolated;
    /** While {@link #interpolated} is set: the floored value's own text and the index variable. */
    private String interpolatedRaw, interpolatedIndex;
    /** Whether a call of the named function draws a random number ({@link RandomDraws}). */
    private final Predicate<String> drawCall;
    /** Whether a subtree computes its value from a random draw; null while being decided (a cycle). */
    private final IdentityHashMap<ParserRuleContext, Boolean> drawn = new IdentityHashMap<>();

    ValueFlow(
            IdentityHashMap<ParserRuleContext, E> memo,
            Function<ParserRuleContext, String> text,
            Predicate<String> drawCall,
            java.util.function.Supplier<RandomVariates> variates) {
        this.memo = memo;
        this.text = text;
        this.drawCall = drawCall;
        this.variatesSource = variates;
        this.colours = new ColourChannels(memo, text, () -> {
            index();
            return assignments;
        });
        this.pairs = new ComplexPairs(text, () -> {
            index();
            return adds;
        });
    }

    /** Whether a conversion quantises a colour to an 8-bit channel. */
    private final ColourChannels colours;

    /** The companion components of complex products and 2-D rotations. */
    private final ComplexPairs pairs;

    /** {@link ComplexPairs#pairedComponent}. */
    boolean pairedComponent(AddExprContext a) {
        return pairs.pairedComponent(a);
    }

    /** The random state of the body's variables and members, read from its tokens (built on first use). */
    private final java.util.function.Supplier<RandomVariates> variatesSource;

    private RandomVariates variates;

    private RandomVariates variates() {
        if (variates == null) variates = variatesSource.get();
        return variates;
    }

    /** {@code name} (or its {@code member}) holds a random variate where it is read; false where nothing draws. */
    private boolean variateAt(String name, String member, int at) {
        RandomVariates v = variates();
        return v != null && v.variateAt(name, member, at, false);
    }

    void setRoot(ParserRuleContext root) {
        this.root = root;
    }

    private ParserRuleContext tracing; // what uses() follows: the largest sum of squares the site is in (SquareSums)
    boolean droppedFixedSign; // the last uses() dropped a test against 0 that cannot flip (SquareSums)

    /** The uses of the value computed at {@code site} (for an assignment: of the assigned variable), in source order. */
    List<ValueUse> uses(ParserRuleContext site) {
        List<ValueUse> out = new ArrayList<>();
        Set<String> visited = new HashSet<>();
        tracing = SquareSums.top(site);
        droppedFixedSign = false;
        try {
            if (site instanceof AssignExprContext) {
                AssignExprContext a = (AssignExprContext) site;
                String v = ParseTrees.simpleName(a.expression(0));
                if (v != null) followVar(v, a, 0, visited, out, true);
                else out.add(use(ValueUse.Kind.STORE, a, null, null, drawn(a.expression(1))));
            } else {
                trace(tracing, 0, visited, out, null, true);
            }
        } catch (dev.numlint.model.WorkBudget.Exceeded e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            // a construct the walk does not know: what was found so far stands
        }
        tracing = null;
        out.sort(Comparator.comparingInt(ValueUse::line).thenComparingInt(ValueUse::column));
        return out;
    }

    /**
     * Climbs from {@code node} to the consumers of its value. {@code direct}: the value is still the hazard's value
     * itself, only copied, negated, converted or scaled, so that it can be one product of a difference of products;
     * after a sum or a function of it, it is another value.
     */
    private void trace(
            ParserRuleContext node, int depth, Set<String> visited, List<ValueUse> out, String via, boolean direct) {
        ParserRuleContext cur = node;
        // the argument of a vector or struct constructor (float4(x, y, z, w)) that carries the value: the other
        // components are other values, drawn or not
        ParserRuleContext component = null;
        while (out.size() < MAX_USES) {
            dev.numlint.model.WorkBudget.check();
            ParserRuleContext p = cur.getParent();
            if (p == null) return;
            // the interpolation's weight in another written form ((x - (i*v + o))/v): the value's own walk follows it
            if (interpolatedIndex != null && interpolations().fraction(p, interpolatedRaw, interpolatedIndex)) return;
            if (p instanceof PrimaryExprContext
                    || p instanceof ParenPrimaryContext
                    || p instanceof MulExprContext
                    || p instanceof ArgumentContext
                    || p instanceof InitializerClauseContext
                    || p instanceof InitializerContext
                    || p instanceof PostIncExprContext) {
                cur = p;
            } else if (p instanceof CommaExpressionContext) {
                List<ExpressionContext> es = ((CommaExpressionContext) p).expression();
                if (es.get(es.size() - 1) != cur) return;
                cur = p;
            } else if (p instanceof UnaryExprContext) {
                UnaryExprContext u = (UnaryExprContext) p;
                if (u.BANG() != null) {
                    out.add(use(ValueUse.Kind.BRANCH, p, null, via, drawn(component != null ? component : cur)));
                    return;
                }
                if (u.AMP() != null || u.STAR() != null) return;
                cur = p;
            } else if (p instanceof AddExprContext) {
                AddExprContext a = (AddExprContext) p;
                // the interpolation's weights x - i and (i + 1) - x: the value's own walk follows them
                if (interpolated != null
                        && a.MINUS() != null
                        && interpolations().weightOf(a.expression(a.expression(1) == cur ? 0 : 1), interpolated))
                    return;
                if (a.MINUS() != null) {
                    // a difference of products only when the value is one of the products (a factor of it), not a
                    // value minus one product (s - a*b) nor a sum that is subtracted
                    ExpressionContext other = a.expression(0) == cur ? a.expression(1) : a.expression(0);
                    if (direct
                            && isProduct(other)
                            && cur instanceof ExpressionContext
                            && isFactorProduct((ExpressionContext) cur)
                            && !pairedComponent(a)) out.add(use(ValueUse.Kind.DIFFERENCE_OF_PRODUCTS, p, null, via));
                }
                direct = false; // a sum or difference with something else is another value
                cur = p;
            } else if (p instanceof CastExprContext
                    || p instanceof ParenCastExprContext
                    || p instanceof NamedCastExprContext
                    || p instanceof FunctionalCastExprContext) {
                E r = memo.get(p);
                if (r != null
                        && r.type.isInteger()
                        && interpolated == null
                        && interpolation(p, ParseTrees.castOperand(p), r.type.name, depth, visited, out, via)) return;
                if (r != null
                        && r.type.isInteger()
                        && integerUse(
                                p,
                                r.type,
                                colours.colourChannel(p, r.type),
                                out,
                                via,
                                component != null ? component : cur)) return;
                cur = p;
            } else if (p instanceof ArgumentListContext) {
                ParserRuleContext call = p.getParent();
                if (call instanceof FunctionalCastExprContext) {
                    if (component == null) component = cur;
                    cur = p;
                    continue;
                }
                if (!(call instanceof CallExprContext)) {
                    out.add(use(ValueUse.Kind.CALL, call, null, via, drawn(component != null ? component : cur)));
                    return;
                }
                CallExprContext cc = (CallExprContext) call;
                String name = ParseTrees.calleeName(cc.expression());
                if (name == null) {
                    out.add(use(ValueUse.Kind.CALL, cc, null, via, drawn(component != null ? component : cur)));
                    return;
                }
                String base = name.startsWith("std::") ? name.substring(5) : name;
                if (NumericFacts.ROUNDING.contains(base)) {
                    if (interpolated == null && interpolation(cc, argumentOf(cc), base, depth, visited, out, via))
                        return;
                    out.add(use(
                            interpolated != null ? ValueUse.Kind.INTERPOLATION : ValueUse.Kind.ROUNDING,
                            cc,
                            base,
                            via,
                            drawn(component != null ? component : cur)));
                    direct = false;
                    cur = cc;
                } else if (NumericFacts.SELECTION.contains(base) || NumericFacts.SELECTION.contains(name)) {
                    // fmaxf(v, 0.0f) clamps, m = fmaxf(m, x) keeps a running maximum: both move the result by no
                    // more than the value moves, so it is followed on; a min or max of two computed values selects
                    if (!continuousCall(cc, cur))
                        out.add(use(ValueUse.Kind.SELECTION, cc, base, via, drawn(component != null ? component : cc)));
                    cur = cc;
                } else if (NumericFacts.ATOMIC_REDUCTIONS.contains(base)) {
                    out.add(use(ValueUse.Kind.ATOMIC, cc, base, via));
                    return;
                } else if (Builtins.SAME_AS_ARG.contains(name)
                        || Builtins.FUNCS.containsKey(base)
                                && (Builtins.FUNCS.get(base).isFpScalar()
                                        || Builtins.FUNCS.get(base).kind == CType.Kind.VECTOR)) {
                    direct = false;
                    CType rt = Builtins.FUNCS.get(base);
                    if (component == null && rt != null && rt.kind == CType.Kind.VECTOR) component = cur; // make_float4
                    cur = cc; // math on the value: its result carries the difference on
                } else {
                    out.add(use(ValueUse.Kind.CALL, cc, base, via, drawn(component != null ? component : cur)));
                    return;
                }
            } else if (p instanceof IndexExprContext) {
                if (((IndexExprContext) p).expression() != cur)
                    out.add(use(
                            interpolated != null ? ValueUse.Kind.INTERPOLATION : ValueUse.Kind.INDEX,
                            p,
                            null,
                            via,
                            drawn(component != null ? component : cur)));
                return;
            } else if (p instanceof RelExprContext || p instanceof EqExprContext) {
                ParserRuleContext sel =
                        p instanceof RelExprContext ? selections().selected((RelExprContext) p) : null;
                if (sel != null) {
                    // a running max/min or a clamp: continuous, the selected value is followed on (recorded, as the
                    // Clang path records it: the source proves the comparison continuous, Consequences.continuous)
                    out.add(use(ValueUse.Kind.SELECTION, p, "a min/max", via));
                    followSelected(sel, depth, visited, out, via, direct);
                    return;
                }
                AssignExprContext best =
                        p instanceof RelExprContext ? selections().bestCandidate((RelExprContext) p) : null;
                if (best != null) {
                    // if (cost < best) { best = cost; bestIdx = i; }: a flip only at a near tie, either candidate as
                    // good; the best value is followed on
                    out.add(use(
                            ValueUse.Kind.BEST_CANDIDATE, p, null, via, drawn(component != null ? component : cur)));
                    followSelected(best, depth, visited, out, via, direct);
                    return;
                }
                // == or != against a sentinel (FLT_MAX, -INFINITY, HUGE_VAL: what a running min/max starts from): a
                // computed value of ordinary size cannot reach it by an ulp, the test only asks whether it was set
                if (p instanceof EqExprContext && sentinel((EqExprContext) p, cur)) return;
                // an unsigned value tested against 0 by < or >= (jj < 0 of a size_t): constant, decides nothing
                if (p instanceof RelExprContext r && ConstantComparisons.unsignedAgainstZero(r, memo)) return;
                // a sum of squares, only copied, tested against 0: fused or not, the test cannot flip (SquareSums)
                if (direct && component == null && SquareSums.testsZero(tracing, comparedConstant(p, cur))) {
                    droppedFixedSign = true;
                    return;
                }
                // compared with a fresh random draw (either side: u * I0 >= I is u >= I / I0): one ulp shifts the
                // outcome's probability, it decides no single outcome
                boolean variate = drawn(component != null ? component : cur);
                ValueUse.Kind kind = !variate && component == null && drawn(p)
                        ? ValueUse.Kind.RANDOM_DRAW
                        : GuardedZeros.guards(p, cur)
                                ? ValueUse.Kind.ZERO_TERM
                                : interpolations().endClamp(p, cur)
                                        ? ValueUse.Kind.END_CLAMP
                                        : ValueUse.Kind.COMPARISON;
                out.add(use(kind, p, kind == ValueUse.Kind.COMPARISON ? comparedConstant(p, cur) : null, via, variate));
                return;
            } else if (p instanceof AndExprContext || p instanceof OrExprContext || p instanceof ConditionContext) {
                out.add(use(ValueUse.Kind.BRANCH, p, null, via, drawn(component != null ? component : cur)));
                return;
            } else if (p instanceof CondExprContext) {
                if (((CondExprContext) p).expression(0) == cur) {
                    out.add(use(ValueUse.Kind.BRANCH, p, null, via, drawn(component != null ? component : cur)));
                    return;
                }
                cur = p;
            } else if (p instanceof AssignExprContext) {
                AssignExprContext a = (AssignExprContext) p;
                if (a.expression(0) == cur) return;
                E lhs = memo.get(a.expression(0));
                if (lhs != null && lhs.type.isInteger()) {
                    // pixel.x = v * 255.0f into an 8-bit element
                    boolean colour = a.assignOp().ASSIGN() != null
                            && lhs.type.size == 1
                            && a.expression(1) != null
                            && colours.channelRange(a.expression(1));
                    if (integerUse(a, lhs.type, colour, out, via, component != null ? component : cur)) return;
                }
                if (ParseTrees.stripParens(a.expression(0)) instanceof CondExprContext) {
                    followSelected(a, depth, visited, out, via, direct); // (c ? x : y) = v assigns x or y
                    return;
                }
                String v = ParseTrees.simpleName(a.expression(0));
                if (v != null) followVar(v, a, depth + 1, visited, out, direct);
                else out.add(use(ValueUse.Kind.STORE, a, null, via, drawn(component != null ? component : cur)));
                return;
            } else if (p instanceof InitDeclaratorContext) {
                CType t = declTypes.get(p);
                if (t != null
                        && t.isInteger()
                        && interpolated == null
                        && cur instanceof ExpressionContext
                        && interpolation(cur, (ExpressionContext) cur, t.name, depth, visited, out, via)) return;
                if (t != null && t.isInteger())
                    out.add(use(
                            interpolated != null ? ValueUse.Kind.INTERPOLATION : ValueUse.Kind.INTEGER_CONVERSION,
                            p,
                            t.name,
                            via,
                            drawn(component != null ? component : cur)));
                String v = ParseTrees.declName(((InitDeclaratorContext) p).declarator());
                if (v != null) followVar(v, p, depth + 1, visited, out, direct);
                return;
            } else if (p instanceof ReturnStmtContext) {
                out.add(use(ValueUse.Kind.RETURN, p, null, via, drawn(component != null ? component : cur)));
                return;
            } else if (p instanceof InitItemContext || p instanceof BracedInitListContext) {
                out.add(use(ValueUse.Kind.STORE, p, null, via, drawn(component != null ? component : cur)));
                return;
            } else {
                return;
            }
        }
    }

    private Interpolations interpolations() {
        if (interpolations == null) {
            index();
            interpolations = new Interpolations(text, memo, () -> adds, () -> defNodes);
        }
        return interpolations;
    }

    /**
     * When {@code rounding} (of {@code operand}) is the index of a linear interpolation ({@link Interpolations}),
     * records it and follows the index on, its subscripts and exact conversions being the interpolation's own: true.
     */
    private boolean interpolation(
            ParserRuleContext rounding,
            ExpressionContext operand,
            String detail,
            int depth,
            Set<String> visited,
            List<ValueUse> out,
            String via) {
        String index = interpolations().index(rounding, operand);
        if (index == null) return false;
        int at = out.size();
        out.add(use(ValueUse.Kind.INTERPOLATION, rounding, detail, via));
        interpolated = interpolations().squash(operand);
        interpolatedRaw = text.apply(operand);
        interpolatedIndex = index;
        try {
            trace(rounding, depth, visited, out, via, false);
        } finally {
            interpolated = interpolatedRaw = interpolatedIndex = null;
        }
        // the index itself stored or returned: what leaves the function jumps a cell, the rounding decides it
        for (int k = at + 1; k < out.size(); k++) {
            ValueUse.Kind kind = out.get(k).kind();
            if (kind == ValueUse.Kind.STORE || kind == ValueUse.Kind.RETURN) {
                ValueUse.Kind decided =
                        rounding instanceof CallExprContext ? ValueUse.Kind.ROUNDING : ValueUse.Kind.INTEGER_CONVERSION;
                out.set(at, use(decided, rounding, detail, via));
                break;
            }
        }
        return true;
    }

    private static ExpressionContext argumentOf(CallExprContext cc) {
        if (cc.argumentList() == null || cc.argumentList().argument().size() != 1) return null;
        return cc.argumentList().argument(0).expression();
    }

    private ContinuousSelections selections() {
        if (selections == null) {
            index();
            selections = new ContinuousSelections(text, memo, v -> defNodes.getOrDefault(v, List.of()));
        }
        return selections;
    }

    /** Follows the value a continuous selection produces: the conditional expression, or the assigned variables. */
    private void followSelected(
            ParserRuleContext sel, int depth, Set<String> visited, List<ValueUse> out, String via, boolean direct) {
        // a sign selection or a projection onto a ball: the branches' values are reached by the def-use walk itself
        if (sel instanceof RelExprContext) return;
        if (sel instanceof CondExprContext) {
            trace(sel, depth, visited, out, via, direct);
            return;
        }
        AssignExprContext a = (AssignExprContext) sel;
        ExpressionContext lhs = ParseTrees.stripParens(a.expression(0));
        List<ExpressionContext> targets = new ArrayList<>();
        if (lhs instanceof CondExprContext) {
            // ((a > b) ? a : b) = x: the larger bound is assigned
            CondExprContext c = (CondExprContext) lhs;
            targets.addAll(c.commaExpression().expression());
            targets.add(c.expression(1));
        } else {
            targets.add(lhs);
        }
        for (ExpressionContext t : targets) {
            String v = ParseTrees.simpleName(t);
            if (v != null) followVar(v, a, depth + 1, visited, out, direct);
            else out.add(use(ValueUse.Kind.STORE, a, null, via, drawn(a.expression(1))));
        }
    }

    /**
     * A min or max that is continuous in the value: every other argument is a constant ({@code fmaxf(v, 0.0f)}, a
     * clamp), or the call updates one of its own arguments ({@code m = fmaxf(m, x)}, a running maximum).
     */
    private boolean continuousCall(CallExprContext cc, ParserRuleContext arg) {
        if (cc.argumentList() == null || cc.argumentList().argument().size() < 2) return false;
        boolean constants = true;
        for (ArgumentContext a : cc.argumentList().argument()) {
            if (a == arg) continue;
            E v = a.expression() == null ? null : memo.get(a.expression());
            if (v == null || v.cval == null) constants = false;
        }
        if (constants) return true;
        ParserRuleContext q = cc;
        while (q.getParent() instanceof PrimaryExprContext
                || q.getParent() instanceof ParenPrimaryContext
                || q.getParent() instanceof CommaExpressionContext
                        && q.getParent().getParent() instanceof ParenPrimaryContext) q = q.getParent();
        if (!(q.getParent() instanceof AssignExprContext)) return false;
        AssignExprContext as = (AssignExprContext) q.getParent();
        if (as.assignOp().ASSIGN() == null || as.expression().size() != 2 || as.expression(1) != q) return false;
        String target = text.apply(ParseTrees.stripParens(as.expression(0)));
        for (ArgumentContext a : cc.argumentList().argument()) {
            if (a.expression() != null
                    && text.apply(ParseTrees.stripParens(a.expression())).equals(target)) return true;
        }
        return false;
    }

    /**
     * Records the conversion of the value to the integer {@code type} at {@code at}: a colour channel (the value ends
     * there; true) or an integer conversion, judged as a random variate when {@code carrier} is one (false: the walk
     * goes on).
     */
    private boolean integerUse(
            ParserRuleContext at,
            CType type,
            boolean colour,
            List<ValueUse> out,
            String via,
            ParserRuleContext carrier) {
        if (colour) {
            out.add(use(ValueUse.Kind.QUANTISED, at, "an 8-bit colour channel", via));
            return true;
        }
        out.add(use(
                interpolated != null ? ValueUse.Kind.INTERPOLATION : ValueUse.Kind.INTEGER_CONVERSION,
                at,
                type.name,
                via,
                drawn(carrier)));
        return false;
    }

    /** The operand carrying the value into a subtraction is a floating product or quotient (not an exact scaling). */
    private boolean isFactorProduct(ExpressionContext e) {
        ExpressionContext p = ParseTrees.stripParens(e);
        if (!(p instanceof MulExprContext) || ((MulExprContext) p).MOD() != null) return false;
        E v = memo.get(p);
        return v != null && v.type.isFpScalar() && v.cval == null && !exactScaling((MulExprContext) p);
    }

    /** A floating product, not a constant nor an exact scaling ({@code s*0.25f}), as a subtraction's operand. */
    private boolean isProduct(ExpressionContext e) {
        ExpressionContext p = ParseTrees.stripParens(e);
        if (!(p instanceof MulExprContext) || ((MulExprContext) p).STAR() == null) return false;
        E v = memo.get(p);
        return v != null && v.type.isFpScalar() && v.cval == null && !exactScaling((MulExprContext) p);
    }

    /** One factor of {@code m} is the constant zero or a power of two: the product is exact. */
    private boolean exactScaling(MulExprContext m) {
        if (m.STAR() == null) return false;
        for (ExpressionContext f : m.expression()) {
            E v = memo.get(f);
            if (v != null && v.cval != null && NumericFacts.isPowerOfTwoOrZero(v.cval)) return true;
        }
        return false;
    }

    /** Follows the variable {@code v} assigned at {@code def} to its reads until the next assignment of it. */
    private void followVar(
            String v, ParserRuleContext def, int depth, Set<String> visited, List<ValueUse> out, boolean direct) {
        if (depth > MAX_DEPTH
                || out.size() >= MAX_USES
                || !visited.add(v + "@" + def.start.getTokenIndex() + (direct ? "" : "~"))) return;
        index();
        int defEnd = def.stop == null ? def.start.getTokenIndex() : def.stop.getTokenIndex();
        // the next assignment of v ends the value's life, after its own right-hand side (x = (x + y) * 0.5f reads it);
        // definitions and reads are in token order (collected in tree pre-order), so both are found by binary search
        // (a linear walk per site made one long function quadratic)
        List<ParserRuleContext> defs = defNodes.getOrDefault(v, List.of());
        int k = firstStartAbove(defs, defEnd);
        ParserRuleContext killNode = k < defs.size() ? defs.get(k) : null;
        int killEnd = killNode == null ? Integer.MAX_VALUE : end(killNode);
        ParserRuleContext loop = enclosingLoop(def);
        // the next iteration sees the value only when no later assignment in the loop replaces it
        boolean carries = loop != null && (killNode == null || killNode.start.getTokenIndex() > end(loop));
        List<ParserRuleContext> rs = reads.getOrDefault(v, List.of());
        if (carries) {
            int from = loop.start.getTokenIndex();
            for (int i = firstStartAbove(rs, from - 1); i < rs.size(); i++) {
                ParserRuleContext r = rs.get(i);
                int ti = r.start.getTokenIndex();
                if (ti >= def.start.getTokenIndex()) break;
                if (assignedBetween(v, from, ti)) continue;
                if (followRead(r, v, depth, visited, out, direct)) return;
            }
        }
        for (int i = firstStartAbove(rs, defEnd); i < rs.size(); i++) {
            ParserRuleContext r = rs.get(i);
            if (r.start.getTokenIndex() > killEnd) break;
            if (followRead(r, v, depth, visited, out, direct)) return;
        }
    }

    /** Traces one read of {@code v}; true when enough uses were found. */
    private boolean followRead(
            ParserRuleContext r, String v, int depth, Set<String> visited, List<ValueUse> out, boolean direct) {
        dev.numlint.model.WorkBudget.check();
        ParserRuleContext e = r.getParent();
        if (e instanceof PrimaryExprContext
                && e.getParent() instanceof AssignExprContext
                && ((AssignExprContext) e.getParent()).expression(0) == e) {
            return false;
        }
        trace(e, depth, visited, out, v, direct);
        return out.size() >= MAX_USES;
    }

    /** The index of the first node of {@code nodes} (in token order) whose start token lies after {@code index}. */
    private static int firstStartAbove(List<ParserRuleContext> nodes, int index) {
        int lo = 0;
        int hi = nodes.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (nodes.get(mid).start.getTokenIndex() > index) hi = mid;
            else lo = mid + 1;
        }
        return lo;
    }

    private static int end(ParserRuleContext c) {
        return c.stop == null ? c.start.getTokenIndex() : c.stop.getTokenIndex();
    }

    /** Whether an assignment of {@code v} starts at or after token {@code from} and ends before token {@code to}. */
    private boolean assignedBetween(String v, int from, int to) {
        List<ParserRuleContext> defs = defNodes.getOrDefault(v, List.of());
        for (int i = firstStartAbove(defs, from - 1); i < defs.size(); i++) {
            ParserRuleContext d = defs.get(i);
            if (d.start.getTokenIndex() >= to) break;
            if (end(d) < to) return true;
        }
        return false;
    }

    private static ParserRuleContext enclosingLoop(ParserRuleContext c) {
        for (ParserRuleContext p = c.getParent(); p != null; p = p.getParent()) {
            if (p instanceof ForStmtContext
                    || p instanceof WhileStmtContext
                    || p instanceof DoStmtContext
                    || p instanceof RangeForStmtContext) {
                return p;
            }
            if (p instanceof LambdaContext) return null;
        }
        return null;
    }

    /** Reads (single-name primaries) and definitions (plain assignments, declarations) by name, in token order. */
    private void index() {
        if (reads != null) return;
        reads = new HashMap<>();
        defNodes = new HashMap<>();
        adds = new ArrayList<>();
        assignments = new ArrayList<>();
        if (root != null) collect(root);
    }

    private void collect(ParseTree t) {
        dev.numlint.model.WorkBudget.check();
        if (t instanceof AddExprContext) adds.add((AddExprContext) t);
        if (t instanceof AssignExprContext) assignments.add((ParserRuleContext) t);
        if (t instanceof NamePrimaryContext) {
            QualifiedNameContext q = ((NamePrimaryContext) t).qualifiedName();
            if (q.nameComponent().size() == 1 && q.SCOPE().isEmpty()) {
                reads.computeIfAbsent(q.nameComponent(0).IDENTIFIER().getText(), k -> new ArrayList<>())
                        .add((ParserRuleContext) t);
            }
        } else if (t instanceof AssignExprContext
                && ((AssignExprContext) t).assignOp().ASSIGN() != null) {
            String n = ParseTrees.simpleName(((AssignExprContext) t).expression(0));
            if (n != null) {
                defNodes.computeIfAbsent(n, k -> new ArrayList<>()).add((ParserRuleContext) t);
            }
        } else if (t instanceof InitDeclaratorContext) {
            assignments.add((ParserRuleContext) t);
            String n = ParseTrees.declName(((InitDeclaratorContext) t).declarator());
            if (n != null) {
                defNodes.computeIfAbsent(n, k -> new ArrayList<>()).add((ParserRuleContext) t);
            }
        }
        for (int i = 0; i < t.getChildCount(); i++) collect(t.getChild(i));
    }

    /**
     * Whether the operand of {@code eq} that does not hold {@code cur} is a sentinel: a largest finite value or an
     * infinity, written by name or as a constant of magnitude 1e37 or more.
     */
    private boolean sentinel(EqExprContext eq, ParserRuleContext cur) {
        for (int i = 0; i < 2; i++) {
            ExpressionContext side = eq.expression(i), other = eq.expression(1 - i);
            if (side == null || other == null || !encloses(side, cur)) continue;
            E o = memo.get(ParseTrees.stripParens(other));
            if (o != null
                    && o.cval != null
                    && Math.abs(o.cval) >= dev.numlint.knowledge.NumericFacts.SENTINEL_MAGNITUDE) return true;
            return dev.numlint.knowledge.NumericFacts.isSentinel(other.getText());
        }
        return false;
    }

    private static boolean encloses(ParseTree outer, ParseTree inner) {
        for (ParseTree t = inner; t != null; t = t.getParent()) if (t == outer) return true;
        return false;
    }

    /**
     * The constant a variable is compared with ({@code fCount > 0.79f}, a macro the preprocessor resolved): its value
     * as text, the detail of the comparison use; null when the compared operand is no plain variable (the value
     * scaled or summed first) or the other operand no constant.
     */
    private String comparedConstant(ParserRuleContext cmp, ParserRuleContext operand) {
        if (!(operand instanceof ExpressionContext) || ParseTrees.simpleName((ExpressionContext) operand) == null) {
            return null;
        }
        for (int i = 0; i < cmp.getChildCount(); i++) {
            if (cmp.getChild(i) instanceof ExpressionContext && cmp.getChild(i) != operand) {
                E o = memo.get((ExpressionContext) cmp.getChild(i));
                return o == null || o.cval == null ? null : Double.toString(o.cval);
            }
        }
        return null;
    }

    private ValueUse use(ValueUse.Kind kind, ParserRuleContext at, String detail, String via) {
        return use(kind, at, detail, via, false);
    }

    private ValueUse use(ValueUse.Kind kind, ParserRuleContext at, String detail, String via, boolean random) {
        return new ValueUse(
                kind, at.start.getLine(), at.start.getCharPositionInLine() + 1, text.apply(at), detail, via, random);
    }

    /**
     * Whether the value of {@code node} is computed from a random draw: it calls a generator ({@link RandomDraws}),
     * or reads a local variable whose reaching assignment in this function is computed from one.
     */
    boolean drawn(ParserRuleContext node) {
        if (node == null) return false;
        if (drawn.containsKey(node)) return Boolean.TRUE.equals(drawn.get(node));
        drawn.put(node, null); // a cycle through a variable's own definition draws nothing
        boolean r = false;
        try {
            r = drawnIn(node);
        } catch (dev.numlint.model.WorkBudget.Exceeded e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            r = false;
        }
        drawn.put(node, r);
        return r;
    }

    private boolean drawnIn(ParseTree t) {
        if (t instanceof CallExprContext) {
            CallExprContext cc = (CallExprContext) t;
            String name = ParseTrees.calleeName(cc.expression());
            if (name != null && drawCall.test(name)) return true;
            ExpressionContext callee = ParseTrees.stripParens(cc.expression());
            if (callee instanceof MemberExprContext) {
                MemberExprContext m = (MemberExprContext) callee;
                String object = ParseTrees.simpleName(m.expression());
                if (m.qualifiedName() != null
                        && RandomDraws.isGeneratorMember(
                                object, m.qualifiedName().getText())) return true;
            }
        } else if (t instanceof IndexExprContext) {
            // a table entry at a random index is one of the table's values, not a continuous variate
            return drawnIn(((IndexExprContext) t).expression());
        } else if (t instanceof MemberExprContext) {
            MemberExprContext m = (MemberExprContext) t;
            ExpressionContext b = ParseTrees.stripParens(m.expression());
            if (b instanceof UnaryExprContext && ((UnaryExprContext) b).STAR() != null)
                b = ParseTrees.stripParens(((UnaryExprContext) b).expression()); // (*v).x
            String base = ParseTrees.simpleName(b);
            if (base != null
                    && m.qualifiedName() != null
                    && m.qualifiedName().nameComponent().size() == 1
                    && !(m.getParent() instanceof CallExprContext
                            && ((CallExprContext) m.getParent()).expression() == m)) {
                // a member of a variable or of what a parameter points to: p->x, v.x
                return variateAt(base, m.qualifiedName().getText(), m.start.getTokenIndex()) || drawnByDef(base, m);
            }
        } else if (t instanceof NamePrimaryContext) {
            QualifiedNameContext q = ((NamePrimaryContext) t).qualifiedName();
            if (q.nameComponent().size() == 1 && q.SCOPE().isEmpty()) {
                String name = q.nameComponent(0).IDENTIFIER().getText();
                // a parameter holding a variate at every call site, a value carried from the previous iteration
                if (variateAt(name, null, ((ParserRuleContext) t).start.getTokenIndex())) return true;
                return drawnByDef(name, (ParserRuleContext) t);
            }
            return false;
        }
        for (int i = 0; i < t.getChildCount(); i++) {
            if (drawnIn(t.getChild(i))) return true;
        }
        return false;
    }

    /** Whether the plain assignment or declaration of {@code name} that reaches {@code read} assigns a draw. */
    private boolean drawnByDef(String name, ParserRuleContext read) {
        ParserRuleContext def = reachingDef(name, read);
        if (def instanceof InitDeclaratorContext) {
            InitDeclaratorContext d = (InitDeclaratorContext) def;
            return d.initializer() != null && drawn(d.initializer());
        }
        return def instanceof AssignExprContext && drawn(((AssignExprContext) def).expression(1));
    }

    /** The last plain assignment or declaration of {@code v} that ends before {@code read} (token order), or null. */
    private ParserRuleContext reachingDef(String v, ParserRuleContext read) {
        index();
        int at = read.start.getTokenIndex();
        // the definition ending before the read with the latest start: definitions are in token order, so the
        // walk goes back from the last one starting before the read (a forward walk per read was quadratic)
        List<ParserRuleContext> defs = defNodes.getOrDefault(v, List.of());
        for (int i = firstStartAbove(defs, at - 1) - 1; i >= 0; i--) {
            dev.numlint.model.WorkBudget.check();
            if (end(defs.get(i)) < at) return defs.get(i);
        }
        return null;
    }
}
