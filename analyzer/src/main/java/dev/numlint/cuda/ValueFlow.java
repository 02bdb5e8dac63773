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
    private static final int MAX_DEPTH = 4;
    private static final int MAX_USES = 32;

    private final IdentityHashMap<ParserRuleContext, E> memo;
    private final Function<ParserRuleContext, String> text;
    /** Declared types of local variables, by their init-declarator. */
    final IdentityHashMap<ParserRuleContext, CType> declTypes = new IdentityHashMap<>();

    private ParserRuleContext root;
    private Map<String, List<ParserRuleContext>> reads;
    private Map<String, List<ParserRuleContext>> defNodes;
    private ContinuousSelections selections;
    /** Whether a call of the named function draws a random number ({@link RandomDraws}). */
    private final Predicate<String> drawCall;
    /** Whether a subtree computes its value from a random draw; null while being decided (a cycle). */
    private final IdentityHashMap<ParserRuleContext, Boolean> drawn = new IdentityHashMap<>();

    ValueFlow(
            IdentityHashMap<ParserRuleContext, E> memo,
            Function<ParserRuleContext, String> text,
            Predicate<String> drawCall) {
        this.memo = memo;
        this.text = text;
        this.drawCall = drawCall;
    }

    void setRoot(ParserRuleContext root) {
        this.root = root;
    }

    /** The uses of the value computed at {@code site} (for an assignment: of the assigned variable), in source order. */
    List<ValueUse> uses(ParserRuleContext site) {
        List<ValueUse> out = new ArrayList<>();
        Set<String> visited = new HashSet<>();
        try {
            if (site instanceof AssignExprContext) {
                AssignExprContext a = (AssignExprContext) site;
                String v = FunctionAnalyzer.simpleName(a.expression(0));
                if (v != null) followVar(v, a, 0, visited, out, true);
                else out.add(use(ValueUse.Kind.STORE, a, null, null, drawn(a.expression(1))));
            } else {
                trace(site, 0, visited, out, null, true);
            }
        } catch (RuntimeException | StackOverflowError e) {
            // a construct the walk does not know: what was found so far stands
        }
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
            ParserRuleContext p = cur.getParent();
            if (p == null) return;
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
                if (a.MINUS() != null) {
                    // a difference of products only when the value is one of the products (a factor of it), not a
                    // value minus one product (s - a*b) nor a sum that is subtracted
                    ExpressionContext other = a.expression(0) == cur ? a.expression(1) : a.expression(0);
                    if (direct
                            && isProduct(other)
                            && cur instanceof ExpressionContext
                            && isFactorProduct((ExpressionContext) cur))
                        out.add(use(ValueUse.Kind.DIFFERENCE_OF_PRODUCTS, p, null, via));
                }
                direct = false; // a sum or difference with something else is another value
                cur = p;
            } else if (p instanceof CastExprContext
                    || p instanceof ParenCastExprContext
                    || p instanceof NamedCastExprContext
                    || p instanceof FunctionalCastExprContext) {
                E r = memo.get(p);
                if (r != null && r.type.isInteger())
                    out.add(use(
                            ValueUse.Kind.INTEGER_CONVERSION,
                            p,
                            r.type.name,
                            via,
                            drawn(component != null ? component : cur)));
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
                String name = FunctionAnalyzer.calleeName(cc.expression());
                if (name == null) {
                    out.add(use(ValueUse.Kind.CALL, cc, null, via, drawn(component != null ? component : cur)));
                    return;
                }
                String base = name.startsWith("std::") ? name.substring(5) : name;
                if (NumericFacts.ROUNDING.contains(base)) {
                    out.add(use(ValueUse.Kind.ROUNDING, cc, base, via, drawn(component != null ? component : cur)));
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
                    out.add(use(ValueUse.Kind.INDEX, p, null, via, drawn(component != null ? component : cur)));
                return;
            } else if (p instanceof RelExprContext || p instanceof EqExprContext) {
                ParserRuleContext sel =
                        p instanceof RelExprContext ? selections().selected((RelExprContext) p) : null;
                if (sel != null) {
                    // a running max/min or a clamp: continuous, the selected value is followed on
                    followSelected(sel, depth, visited, out, via, direct);
                    return;
                }
                // compared with a fresh random draw (either side: u * I0 >= I is u >= I / I0): one ulp shifts the
                // outcome's probability, it decides no single outcome
                boolean variate = drawn(component != null ? component : cur);
                ValueUse.Kind kind = !variate && component == null && drawn(p)
                        ? ValueUse.Kind.RANDOM_DRAW
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
                    out.add(use(
                            ValueUse.Kind.INTEGER_CONVERSION,
                            a,
                            lhs.type.name,
                            via,
                            drawn(component != null ? component : cur)));
                }
                if (FunctionAnalyzer.stripParens(a.expression(0)) instanceof CondExprContext) {
                    followSelected(a, depth, visited, out, via, direct); // (c ? x : y) = v assigns x or y
                    return;
                }
                String v = FunctionAnalyzer.simpleName(a.expression(0));
                if (v != null) followVar(v, a, depth + 1, visited, out, direct);
                else out.add(use(ValueUse.Kind.STORE, a, null, via, drawn(component != null ? component : cur)));
                return;
            } else if (p instanceof InitDeclaratorContext) {
                CType t = declTypes.get(p);
                if (t != null && t.isInteger())
                    out.add(use(
                            ValueUse.Kind.INTEGER_CONVERSION,
                            p,
                            t.name,
                            via,
                            drawn(component != null ? component : cur)));
                String v = FunctionAnalyzer.declName(((InitDeclaratorContext) p).declarator());
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
        ExpressionContext lhs = FunctionAnalyzer.stripParens(a.expression(0));
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
            String v = FunctionAnalyzer.simpleName(t);
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
        String target = text.apply(FunctionAnalyzer.stripParens(as.expression(0)));
        for (ArgumentContext a : cc.argumentList().argument()) {
            if (a.expression() != null
                    && text.apply(FunctionAnalyzer.stripParens(a.expression())).equals(target)) return true;
        }
        return false;
    }

    /** The operand that carries the value into a subtraction is itself a floating product or quotient. */
    private boolean isFactorProduct(ExpressionContext e) {
        ExpressionContext p = FunctionAnalyzer.stripParens(e);
        if (!(p instanceof MulExprContext) || ((MulExprContext) p).MOD() != null) return false;
        E v = memo.get(p);
        return v != null && v.type.isFpScalar() && v.cval == null;
    }

    /** A floating product (not a constant) as the other operand of a subtraction. */
    private boolean isProduct(ExpressionContext e) {
        ExpressionContext p = FunctionAnalyzer.stripParens(e);
        if (!(p instanceof MulExprContext) || ((MulExprContext) p).STAR() == null) return false;
        E v = memo.get(p);
        return v != null && v.type.isFpScalar() && v.cval == null;
    }

    /** Follows the variable {@code v} assigned at {@code def} to its reads until the next assignment of it. */
    private void followVar(
            String v, ParserRuleContext def, int depth, Set<String> visited, List<ValueUse> out, boolean direct) {
        if (depth > MAX_DEPTH
                || out.size() >= MAX_USES
                || !visited.add(v + "@" + def.start.getTokenIndex() + (direct ? "" : "~"))) return;
        index();
        int defEnd = def.stop == null ? def.start.getTokenIndex() : def.stop.getTokenIndex();
        // the next assignment of v ends the value's life, after its own right-hand side (x = (x + y) * 0.5f reads it)
        ParserRuleContext killNode = null;
        for (ParserRuleContext d : defNodes.getOrDefault(v, List.of())) {
            int ds = d.start.getTokenIndex();
            if (ds > defEnd && (killNode == null || ds < killNode.start.getTokenIndex())) killNode = d;
        }
        int killEnd = killNode == null ? Integer.MAX_VALUE : end(killNode);
        ParserRuleContext loop = enclosingLoop(def);
        // the next iteration sees the value only when no later assignment in the loop replaces it
        boolean carries = loop != null && (killNode == null || killNode.start.getTokenIndex() > end(loop));
        for (ParserRuleContext r : reads.getOrDefault(v, List.of())) {
            int ti = r.start.getTokenIndex();
            boolean after = ti > defEnd && ti <= killEnd;
            boolean carried = carries
                    && ti >= loop.start.getTokenIndex()
                    && ti < def.start.getTokenIndex()
                    && !assignedBetween(v, loop.start.getTokenIndex(), ti);
            if (!after && !carried) continue;
            ParserRuleContext e = r.getParent();
            if (e instanceof PrimaryExprContext
                    && e.getParent() instanceof AssignExprContext
                    && ((AssignExprContext) e.getParent()).expression(0) == e) {
                continue;
            }
            trace(e, depth, visited, out, v, direct);
            if (out.size() >= MAX_USES) return;
        }
    }

    private static int end(ParserRuleContext c) {
        return c.stop == null ? c.start.getTokenIndex() : c.stop.getTokenIndex();
    }

    /** Whether an assignment of {@code v} starts at or after token {@code from} and ends before token {@code to}. */
    private boolean assignedBetween(String v, int from, int to) {
        for (ParserRuleContext d : defNodes.getOrDefault(v, List.of())) {
            if (d.start.getTokenIndex() >= from && end(d) < to) return true;
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
        if (root != null) collect(root);
    }

    private void collect(ParseTree t) {
        if (t instanceof NamePrimaryContext) {
            QualifiedNameContext q = ((NamePrimaryContext) t).qualifiedName();
            if (q.nameComponent().size() == 1 && q.SCOPE().isEmpty()) {
                reads.computeIfAbsent(q.nameComponent(0).IDENTIFIER().getText(), k -> new ArrayList<>())
                        .add((ParserRuleContext) t);
            }
        } else if (t instanceof AssignExprContext
                && ((AssignExprContext) t).assignOp().ASSIGN() != null) {
            String n = FunctionAnalyzer.simpleName(((AssignExprContext) t).expression(0));
            if (n != null) {
                defNodes.computeIfAbsent(n, k -> new ArrayList<>()).add((ParserRuleContext) t);
            }
        } else if (t instanceof InitDeclaratorContext) {
            String n = FunctionAnalyzer.declName(((InitDeclaratorContext) t).declarator());
            if (n != null) {
                defNodes.computeIfAbsent(n, k -> new ArrayList<>()).add((ParserRuleContext) t);
            }
        }
        for (int i = 0; i < t.getChildCount(); i++) collect(t.getChild(i));
    }

    /**
     * The constant a variable is compared with ({@code fCount > 0.79f}, a macro the preprocessor resolved): its value
     * as text, the detail of the comparison use; null when the compared operand is no plain variable (the value
     * scaled or summed first) or the other operand no constant.
     */
    private String comparedConstant(ParserRuleContext cmp, ParserRuleContext operand) {
        if (!(operand instanceof ExpressionContext)
                || FunctionAnalyzer.simpleName((ExpressionContext) operand) == null) {
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
        } catch (RuntimeException | StackOverflowError e) {
            r = false;
        }
        drawn.put(node, r);
        return r;
    }

    private boolean drawnIn(ParseTree t) {
        if (t instanceof CallExprContext) {
            CallExprContext cc = (CallExprContext) t;
            String name = FunctionAnalyzer.calleeName(cc.expression());
            if (name != null && drawCall.test(name)) return true;
            ExpressionContext callee = FunctionAnalyzer.stripParens(cc.expression());
            if (callee instanceof MemberExprContext) {
                MemberExprContext m = (MemberExprContext) callee;
                String object = FunctionAnalyzer.simpleName(m.expression());
                if (m.qualifiedName() != null
                        && RandomDraws.isGeneratorMember(
                                object, m.qualifiedName().getText())) return true;
            }
        } else if (t instanceof NamePrimaryContext) {
            QualifiedNameContext q = ((NamePrimaryContext) t).qualifiedName();
            if (q.nameComponent().size() == 1 && q.SCOPE().isEmpty()) {
                ParserRuleContext def =
                        reachingDef(q.nameComponent(0).IDENTIFIER().getText(), (ParserRuleContext) t);
                if (def instanceof InitDeclaratorContext) {
                    InitDeclaratorContext d = (InitDeclaratorContext) def;
                    return d.initializer() != null && drawn(d.initializer());
                }
                if (def instanceof AssignExprContext) return drawn(((AssignExprContext) def).expression(1));
            }
            return false;
        }
        for (int i = 0; i < t.getChildCount(); i++) {
            if (drawnIn(t.getChild(i))) return true;
        }
        return false;
    }

    /** The last plain assignment or declaration of {@code v} that ends before {@code read} (token order), or null. */
    private ParserRuleContext reachingDef(String v, ParserRuleContext read) {
        index();
        int at = read.start.getTokenIndex();
        ParserRuleContext best = null;
        for (ParserRuleContext d : defNodes.getOrDefault(v, List.of())) {
            int end = d.stop == null ? d.start.getTokenIndex() : d.stop.getTokenIndex();
            if (end < at && (best == null || d.start.getTokenIndex() > best.start.getTokenIndex())) best = d;
        }
        return best;
    }
}
