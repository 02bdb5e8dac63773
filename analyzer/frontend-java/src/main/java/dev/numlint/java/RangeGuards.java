package dev.numlint.java;

import static dev.numlint.java.JavaSyntax.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jdt.core.dom.*;

/**
 * The range of a simple name at a use, from what guards it before the use: enclosing conditions, if-clamps
 * ({@code if (v < 0) v = 0;}), early exits ({@code if (v > max) continue;}), counting loops, the last definition
 * (and, for an if/else chain that assigns on every path, each path's definition). The ranges of the expressions it
 * meets (initializers, bounds) come from the evaluator it is handed, never from the class it was split out of.
 */
final class RangeGuards {
    private static final int MAX_DEPTH = RangeEvaluator.MAX_DEPTH;
    private final Types types;
    private final RangeEvaluator eval;

    RangeGuards(Types types, RangeEvaluator eval) {
        this.types = types;
        this.eval = eval;
    }

    /**
     * One path's definition of a variable before a use: the statement that assigns it last on that path and the
     * variable's range at the end of the path (its clamps included).
     */
    public record PathDefinition(Statement definition, Range range) {}

    /**
     * When the last statement before {@code use} that assigns its variable is an if/else chain every branch of which
     * assigns it (or exits), the definition of each branch that reaches the use, with the variable's range there;
     * otherwise (one definition, or paths not followed) an empty list.
     */
    public List<PathDefinition> pathDefinitions(SimpleName use) {
        String id = use.getIdentifier();
        Range typeR = Range.ofType(types.of(use));
        ASTNode child = use;
        for (ASTNode p = use.getParent(); p != null; child = p, p = p.getParent()) {
            if (p instanceof MethodDeclaration
                    || p instanceof LambdaExpression
                    || p instanceof AbstractTypeDeclaration
                    || p instanceof AnonymousClassDeclaration
                    || p instanceof Initializer) return List.of();
            if ((p instanceof ForStatement
                            || p instanceof WhileStatement
                            || p instanceof DoStatement
                            || p instanceof EnhancedForStatement)
                    && assignedIn(p, id)) return List.of(); // loop-carried
            if (p instanceof Block) {
                List<?> stmts = ((Block) p).statements();
                for (int i = stmts.indexOf(child) - 1; i >= 0; i--) {
                    Statement st = (Statement) stmts.get(i);
                    if (!assignedIn(st, id)) continue;
                    if (!(st instanceof IfStatement)) return List.of();
                    List<PathDefinition> paths = branches((IfStatement) st, id, typeR, 0);
                    return paths == null ? List.of() : paths;
                }
            }
        }
        return List.of();
    }

    /** The definitions of {@code id} on the branches of an if/else chain that reach past it; null if not followed. */
    List<PathDefinition> branches(IfStatement is, String id, Range typeR, int depth) {
        if (is.getElseStatement() == null || depth > MAX_DEPTH - 3) return null;
        List<PathDefinition> out = new ArrayList<>();
        List<PathDefinition> then = branchEnd(is.getThenStatement(), id, typeR, depth);
        if (then == null) return null;
        out.addAll(then);
        List<PathDefinition> rest = is.getElseStatement() instanceof IfStatement
                ? branches((IfStatement) is.getElseStatement(), id, typeR, depth + 1)
                : branchEnd(is.getElseStatement(), id, typeR, depth);
        if (rest == null) return null;
        out.addAll(rest);
        return out;
    }

    /**
     * The definition of {@code id} that leaves branch {@code b}: none when the branch exits (return, throw ...), the
     * last plain assignment with the clamps after it, or the paths of a nested if/else chain; null if not followed.
     */
    private List<PathDefinition> branchEnd(Statement b, String id, Range typeR, int depth) {
        List<?> stmts = b instanceof Block ? ((Block) b).statements() : List.of(b);
        if (!stmts.isEmpty() && exits((Statement) stmts.get(stmts.size() - 1))) return List.of();
        List<Object[]> clamps = new ArrayList<>();
        List<Range> facts = new ArrayList<>();
        for (int i = stmts.size() - 1; i >= 0; i--) {
            Statement st = (Statement) stmts.get(i);
            int r = statementEffect(st, id, clamps, facts, depth + 1);
            if (r == 1) {
                Range base = baseOf(st, id, depth + 1);
                return List.of(new PathDefinition(st, applyClamps(base, typeR, clamps, facts)));
            }
            if (r == 2) {
                if (!(st instanceof IfStatement) || !clamps.isEmpty() || !facts.isEmpty()) return null;
                return branches((IfStatement) st, id, typeR, depth + 1);
            }
        }
        return null; // the branch keeps the value from before the chain: not followed
    }

    /** A base range narrowed by the type, then by the clamps (in reverse program order) and the facts after it. */
    private static Range applyClamps(Range base, Range typeR, List<Object[]> clamps, List<Range> facts) {
        Range r = base == null ? typeR : base.and(typeR);
        for (int i = clamps.size() - 1; i >= 0; i--) {
            boolean lower = (Boolean) clamps.get(i)[0];
            Range b = (Range) clamps.get(i)[1];
            if (lower) r = new Range(b.lo(), Math.max(r.hi(), b.hi()), b.loGuard() || !b.loBounded(), r.hiGuard());
            else r = new Range(Math.min(r.lo(), b.lo()), b.hi(), r.loGuard(), b.hiGuard() || !b.hiBounded());
        }
        for (Range f : facts) r = r.and(f);
        return r;
    }

    // ---- names: guards before the use ----------------------------------------------------------------------

    Range nameRange(SimpleName name, Map<String, Range> assume, int depth) {
        String id = name.getIdentifier();
        Range typeR = Range.ofType(types.of(name));
        if (assume.containsKey(id)) return assume.get(id).and(typeR);
        if (depth > MAX_DEPTH - 3) return typeR;
        // Walk backwards from the use: statements before it in its blocks, enclosing conditions.
        List<Range> facts = new ArrayList<>(); // "value is within" facts, applied after the base
        List<Object[]> clamps = new ArrayList<>(); // {Boolean lower, Range bound} in reverse program order
        Range base = null;
        ASTNode child = name;
        outer:
        for (ASTNode p = name.getParent(); p != null; child = p, p = p.getParent()) {
            switch (p.getNodeType()) {
                case ASTNode.CONDITIONAL_EXPRESSION: {
                    ConditionalExpression c = (ConditionalExpression) p;
                    if (child == c.getThenExpression()) facts.add(factAbout(id, c.getExpression(), true, depth));
                    else if (child == c.getElseExpression()) facts.add(factAbout(id, c.getExpression(), false, depth));
                    break;
                }
                case ASTNode.INFIX_EXPRESSION: {
                    InfixExpression in = (InfixExpression) p;
                    if (in.getOperator() == InfixExpression.Operator.CONDITIONAL_AND && child != in.getLeftOperand()) {
                        facts.add(factAbout(id, in.getLeftOperand(), true, depth));
                    }
                    break;
                }
                case ASTNode.IF_STATEMENT: {
                    IfStatement is = (IfStatement) p;
                    if (child == is.getThenStatement()) facts.add(factAbout(id, is.getExpression(), true, depth));
                    else if (child == is.getElseStatement()) facts.add(factAbout(id, is.getExpression(), false, depth));
                    break;
                }
                case ASTNode.WHILE_STATEMENT: {
                    WhileStatement ws = (WhileStatement) p;
                    if (child == ws.getBody()) facts.add(factAbout(id, ws.getExpression(), true, depth));
                    if (assignedIn(ws.getBody(), id)) break outer; // loop-carried: value depends on earlier iterations
                    break;
                }
                case ASTNode.FOR_STATEMENT:
                case ASTNode.DO_STATEMENT:
                case ASTNode.ENHANCED_FOR_STATEMENT: {
                    if (p instanceof ForStatement) {
                        Range lv = loopVariable((ForStatement) p, id, child, depth);
                        if (lv != null) {
                            base = lv;
                            break outer;
                        }
                    }
                    Statement body = p instanceof ForStatement
                            ? ((ForStatement) p).getBody()
                            : p instanceof DoStatement
                                    ? ((DoStatement) p).getBody()
                                    : ((EnhancedForStatement) p).getBody();
                    if (child == body && assignedIn(body, id)) {
                        // an assignment later in the body flows into the next iteration; only statements before the
                        // use within this iteration were considered (enough for clamp-then-cast code)
                        if (base == null) break outer;
                    }
                    if (p instanceof EnhancedForStatement
                            && ((EnhancedForStatement) p)
                                    .getParameter()
                                    .getName()
                                    .getIdentifier()
                                    .equals(id)) break outer;
                    break;
                }
                case ASTNode.BLOCK:
                case ASTNode.SWITCH_STATEMENT: {
                    List<?> stmts = p instanceof Block ? ((Block) p).statements() : ((SwitchStatement) p).statements();
                    int idx = stmts.indexOf(child);
                    for (int i = idx - 1; i >= 0; i--) {
                        Statement s = (Statement) stmts.get(i);
                        int r = statementEffect(s, id, clamps, facts, depth);
                        if (r == 1) {
                            base = baseOf(s, id, depth);
                            break outer;
                        }
                        if (r == 2) {
                            // an if/else chain that assigns on every path: the union of the paths' ranges (a
                            // clamp on every path bounds the value by construction)
                            List<PathDefinition> paths =
                                    s instanceof IfStatement ? branches((IfStatement) s, id, typeR, depth + 1) : null;
                            base = Range.ALL;
                            if (paths != null && !paths.isEmpty()) {
                                base = paths.get(0).range();
                                for (PathDefinition d : paths) base = base.or(d.range());
                            }
                            break outer;
                        }
                    }
                    break;
                }
                case ASTNode.METHOD_DECLARATION:
                case ASTNode.LAMBDA_EXPRESSION:
                case ASTNode.TYPE_DECLARATION:
                case ASTNode.ANONYMOUS_CLASS_DECLARATION:
                case ASTNode.INITIALIZER:
                    break outer;
                default:
                    break;
            }
        }
        return applyClamps(base, typeR, clamps, facts);
    }

    /** Range of a counting loop's variable inside the body: for (int i = A; i < B; i++) gives [A, B). */
    private Range loopVariable(ForStatement f, String id, ASTNode child, int depth) {
        if (child != f.getBody() || f.initializers().size() != 1) return null;
        Object i0 = f.initializers().get(0);
        if (!(i0 instanceof VariableDeclarationExpression)) return null;
        Expression init = null;
        for (Object o : ((VariableDeclarationExpression) i0).fragments()) {
            VariableDeclarationFragment vf = (VariableDeclarationFragment) o;
            if (vf.getName().getIdentifier().equals(id)) init = vf.getInitializer();
        }
        if (init == null || f.updaters().size() != 1 || assignedIn(f.getBody(), id)) return null;
        Object u = f.updaters().get(0);
        boolean up = u instanceof PostfixExpression
                        && ((PostfixExpression) u).getOperator() == PostfixExpression.Operator.INCREMENT
                || u instanceof PrefixExpression
                        && ((PrefixExpression) u).getOperator() == PrefixExpression.Operator.INCREMENT;
        boolean down = u instanceof PostfixExpression
                        && ((PostfixExpression) u).getOperator() == PostfixExpression.Operator.DECREMENT
                || u instanceof PrefixExpression
                        && ((PrefixExpression) u).getOperator() == PrefixExpression.Operator.DECREMENT;
        if (!up && !down) return null;
        Range start = eval.of(init, Map.of(), depth + 1);
        Range cond = f.getExpression() == null ? Range.ALL : factAbout(id, f.getExpression(), true, depth);
        if (up) return new Range(start.lo(), Double.POSITIVE_INFINITY, start.loGuard(), false).and(cond);
        return new Range(Double.NEGATIVE_INFINITY, start.hi(), false, start.hiGuard()).and(cond);
    }

    /**
     * The effect of statement {@code s} (before the use) on {@code id}: 0 = none or a recorded clamp/exit fact,
     * 1 = assigns the base value (plain assignment or declaration), 2 = changes it in a way we do not follow.
     */
    private int statementEffect(Statement s, String id, List<Object[]> clamps, List<Range> facts, int depth) {
        if (s instanceof VariableDeclarationStatement) {
            for (Object f : ((VariableDeclarationStatement) s).fragments()) {
                if (((VariableDeclarationFragment) f).getName().getIdentifier().equals(id)) return 1;
            }
            return assignedIn(s, id) ? 2 : 0;
        }
        if (s instanceof ExpressionStatement) {
            Expression e = ((ExpressionStatement) s).getExpression();
            if (e instanceof Assignment) {
                Assignment a = (Assignment) e;
                if (isName(a.getLeftHandSide(), id)) return a.getOperator() == Assignment.Operator.ASSIGN ? 1 : 2;
            }
            return assignedIn(s, id) ? 2 : 0;
        }
        if (s instanceof IfStatement) {
            IfStatement is = (IfStatement) s;
            if (clampChain(is, id, clamps, depth)) return 0;
            if (is.getElseStatement() == null
                    && exits(is.getThenStatement())
                    && !assignedIn(is.getThenStatement(), id)) {
                facts.add(factAbout(id, is.getExpression(), false, depth));
                return 0;
            }
            return assignedIn(s, id) ? 2 : 0;
        }
        return assignedIn(s, id) ? 2 : 0;
    }

    /** if (v < A) v = A; [else] if (v > B) v = B; (any order, with or without else). */
    private boolean clampChain(IfStatement is, String id, List<Object[]> clamps, int depth) {
        List<Object[]> found = new ArrayList<>();
        Statement cur = is;
        while (cur instanceof IfStatement) {
            IfStatement i = (IfStatement) cur;
            Object[] c = clamp(i.getExpression(), single(i.getThenStatement()), id, depth);
            if (c == null) return false;
            found.add(c);
            cur = i.getElseStatement();
        }
        if (cur != null) return false;
        // in program order the chain applies all its clamps; record in reverse
        for (int i = found.size() - 1; i >= 0; i--) clamps.add(found.get(i));
        return true;
    }

    private Object[] clamp(Expression cond, Statement then, String id, int depth) {
        if (!(then instanceof ExpressionStatement)) return null;
        Expression e = ((ExpressionStatement) then).getExpression();
        if (!(e instanceof Assignment)) return null;
        Assignment a = (Assignment) e;
        if (a.getOperator() != Assignment.Operator.ASSIGN || !isName(a.getLeftHandSide(), id)) return null;
        cond = unparen(cond);
        if (!(cond instanceof InfixExpression)) return null;
        InfixExpression in = (InfixExpression) cond;
        if (in.getOperator() == InfixExpression.Operator.CONDITIONAL_OR) {
            // if (Float.isNaN(v) || v < 0) v = 0;  -- any disjunct that compares v establishes the bound
            List<Expression> ds = new ArrayList<>();
            ds.add(in.getLeftOperand());
            ds.add(in.getRightOperand());
            for (Object o : in.extendedOperands()) ds.add((Expression) o);
            Object[] found = null;
            for (Expression d : ds) {
                Object[] c = clamp(d, then, id, depth);
                if (c != null) {
                    if (found != null && (Boolean) found[0] != (Boolean) c[0]) return null;
                    found = c;
                }
            }
            return found;
        }
        if (!in.extendedOperands().isEmpty()) return null;
        InfixExpression.Operator op = in.getOperator();
        boolean nameLeft = isName(in.getLeftOperand(), id);
        boolean nameRight = isName(in.getRightOperand(), id);
        if (!nameLeft && !nameRight) return null;
        boolean less = op == InfixExpression.Operator.LESS || op == InfixExpression.Operator.LESS_EQUALS;
        boolean greater = op == InfixExpression.Operator.GREATER || op == InfixExpression.Operator.GREATER_EQUALS;
        if (!less && !greater) return null;
        boolean lowerClamp = nameLeft ? less : greater; // v < A  or  A > v
        Range bound = eval.of(a.getRightHandSide(), Map.of(), depth + 1);
        if (!bound.isPoint()) {
            // clamped to a non-constant bound: treat as guarded on that side
            bound = lowerClamp
                    ? new Range(bound.lo(), bound.hi(), true, bound.hiGuard())
                    : new Range(bound.lo(), bound.hi(), bound.loGuard(), true);
        }
        return new Object[] {lowerClamp, bound};
    }

    private Range baseOf(Statement s, String id, int depth) {
        Expression init = null;
        if (s instanceof VariableDeclarationStatement) {
            for (Object f : ((VariableDeclarationStatement) s).fragments()) {
                VariableDeclarationFragment vf = (VariableDeclarationFragment) f;
                if (vf.getName().getIdentifier().equals(id)) init = vf.getInitializer();
            }
        } else if (s instanceof ExpressionStatement
                && ((ExpressionStatement) s).getExpression() instanceof Assignment) {
            init = ((Assignment) ((ExpressionStatement) s).getExpression()).getRightHandSide();
        }
        return init == null ? Range.ALL : eval.of(init, Map.of(), depth + 1);
    }

    /** What {@code cond} being {@code value} says about {@code id}. */
    private Range factAbout(String id, Expression cond, boolean value, int depth) {
        Map<String, Range> m = facts(cond, value, Map.of(), depth);
        Range r = m.get(id);
        return r == null ? Range.ALL : r;
    }

    Map<String, Range> facts(Expression cond, boolean value, Map<String, Range> assume, int depth) {
        Map<String, Range> out = new HashMap<>(assume);
        addFacts(unparen(cond), value, out, depth);
        return out;
    }

    private void addFacts(Expression cond, boolean value, Map<String, Range> out, int depth) {
        cond = unparen(cond);
        if (cond instanceof PrefixExpression
                && ((PrefixExpression) cond).getOperator() == PrefixExpression.Operator.NOT) {
            addFacts(((PrefixExpression) cond).getOperand(), !value, out, depth);
            return;
        }
        if (!(cond instanceof InfixExpression)) return;
        InfixExpression in = (InfixExpression) cond;
        InfixExpression.Operator op = in.getOperator();
        if ((op == InfixExpression.Operator.CONDITIONAL_AND && value)
                || (op == InfixExpression.Operator.CONDITIONAL_OR && !value)) {
            addFacts(in.getLeftOperand(), value, out, depth);
            addFacts(in.getRightOperand(), value, out, depth);
            for (Object o : in.extendedOperands()) addFacts((Expression) o, value, out, depth);
            return;
        }
        if (!in.extendedOperands().isEmpty()) return;
        Expression l = unparen(in.getLeftOperand());
        Expression r = unparen(in.getRightOperand());
        // normalise to  name OP bound
        SimpleName n;
        Expression bound;
        if (l instanceof SimpleName) {
            n = (SimpleName) l;
            bound = r;
        } else if (r instanceof SimpleName) {
            n = (SimpleName) r;
            bound = l;
            op = flip(op);
        } else {
            return;
        }
        if (op == null) return;
        if (!value) op = negate(op);
        if (op == null) return;
        Range b = eval.of(bound, Map.of(), depth + 1);
        boolean sym = !b.isPoint();
        if (!sym && types.of(n).isIntegral()) {
            // i < 256 means i <= 255 for an integer i
            if (op == InfixExpression.Operator.LESS) b = Range.point(Math.ceil(b.lo()) - 1);
            else if (op == InfixExpression.Operator.GREATER) b = Range.point(Math.floor(b.lo()) + 1);
        }
        Range fact;
        if (op == InfixExpression.Operator.LESS || op == InfixExpression.Operator.LESS_EQUALS) {
            fact = new Range(Double.NEGATIVE_INFINITY, sym ? Double.POSITIVE_INFINITY : b.hi(), false, sym);
        } else if (op == InfixExpression.Operator.GREATER || op == InfixExpression.Operator.GREATER_EQUALS) {
            fact = new Range(sym ? Double.NEGATIVE_INFINITY : b.lo(), Double.POSITIVE_INFINITY, sym, false);
        } else if (op == InfixExpression.Operator.EQUALS && !sym) {
            fact = Range.point(b.lo());
        } else {
            return;
        }
        out.merge(n.getIdentifier(), fact, Range::and);
    }
}
