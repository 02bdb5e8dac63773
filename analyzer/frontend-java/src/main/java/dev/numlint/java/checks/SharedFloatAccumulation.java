package dev.numlint.java.checks;

import com.google.auto.service.AutoService;
import dev.numlint.java.JavaCheck;
import dev.numlint.java.JavaSyntax;
import dev.numlint.java.JavaUnit;
import dev.numlint.java.NumType;
import dev.numlint.java.Types;
import dev.numlint.knowledge.ConcurrentFloatApis;
import dev.numlint.model.Impact;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.jdt.core.dom.*;

/**
 * NL009 in Java source: float and double sums shared between threads, whose order of addition (and so whose value)
 * varies from run to run or with the pool's split.
 *
 * <ul>
 *   <li>compare-and-set loops that add on float or double bits ({@code Float.floatToIntBits(f + v)} stored with
 *       {@code AtomicIntegerArray.compareAndSet}, {@code AtomicLong.updateAndGet} with {@code doubleToLongBits});
 *       a loop that stores a maximum or minimum is exact in any order and not reported;
 *   <li>reads of a {@code DoubleAdder}, or of a {@code DoubleAccumulator} built with an addition;
 *   <li>{@code sum}, {@code average}, {@code summaryStatistics}, {@code reduce} with an addition and
 *       {@code collect(Collectors.summingDouble/averagingDouble/summarizingDouble)} on a parallel stream of doubles;
 *   <li>{@code Arrays.parallelPrefix} on a {@code double[]}/{@code float[]} with an addition;
 *   <li>{@code +=}/{@code -=} into a field, or into an array element not owned by the task (its index is neither the
 *       task's parameter nor a loop counter of the task), inside a task given to an executor, a fork/join pool, a
 *       thread or a parallel stream's {@code forEach}, also under {@code synchronized}.
 * </ul>
 *
 * <p>Like every rule, the consequence is followed: where the shared sum is read in the same compilation unit and
 * that value reaches a rounding, a narrowing, an index or a decision, the finding keeps the rule's level; otherwise
 * it is a note.
 */
@AutoService(JavaCheck.class)
public final class SharedFloatAccumulation implements JavaCheck {
    // the JDK's shared-sum APIs: one list for this check and the SpotBugs detector
    private static final Set<String> CAS = ConcurrentFloatApis.COMPARE_AND_SET;
    private static final Set<String> TO_BITS = ConcurrentFloatApis.TO_BITS;
    private static final Set<String> FROM_BITS = ConcurrentFloatApis.FROM_BITS;
    private static final Set<String> SUBMIT = ConcurrentFloatApis.SUBMIT;
    private static final Set<String> TASK_TYPES = ConcurrentFloatApis.TASK_SUPERCLASSES;

    @Override
    public String ruleId() {
        return "NL009";
    }

    @Override
    public void check(JavaUnit unit) {
        for (MethodInvocation m : unit.invocations()) {
            String n = m.getName().getIdentifier();
            if (CAS.contains(n)) casLoop(unit, m);
            else if ("parallelPrefix".equals(n)) prefix(unit, m);
            if (ConcurrentFloatApis.ADDER_READS.contains(n) || ConcurrentFloatApis.ACCUMULATOR_READS.contains(n))
                adderRead(unit, m);
            streamTerminal(unit, m);
        }
        Set<String> reported = new HashSet<>();
        for (ASTNode body : taskBodies(unit)) tasks(unit, body, reported);
    }

    /**
     * The catalog message {@code key} with {@code consequence}; when that would pass the one-line limit
     * ({@link dev.numlint.rules.Quote#MESSAGE}), the short consequence "the sum varies from run to run" (the full
     * one stays the finding's impact).
     */
    private static String fit(String key, String consequence, Object... args) {
        Object[] all = java.util.Arrays.copyOf(args, args.length + 2);
        all[args.length] = "consequence";
        all[args.length + 1] = consequence;
        String msg = JavaUnit.message("NL009", key, all);
        if (msg.length() <= dev.numlint.rules.Quote.MESSAGE) return msg;
        all[args.length + 1] = "the sum varies from run to run";
        return JavaUnit.message("NL009", key, all);
    }

    // ---- compare-and-set loops on float bits ---------------------------------------------------------------

    private void casLoop(JavaUnit unit, MethodInvocation m) {
        MethodInvocation bits = null;
        for (Object o : m.arguments()) {
            bits = sumToBits(unit, (Expression) o);
            if (bits != null) break;
        }
        if (bits == null) return;
        String type = bits.getName().getIdentifier().startsWith("float") ? "float" : "double";
        Expression receiver = m.getExpression();
        // the sum's value is read back through intBitsToFloat(x.get(i)) elsewhere in the unit
        String name = receiver == null ? null : JavaUnit.simpleName(receiver);
        boolean parameter = receiver instanceof SimpleName
                && Types.declarationOf((SimpleName) receiver) instanceof SingleVariableDeclaration;
        ASTNode method = enclosingMember(m);
        Impact worst = null;
        ASTNode worstRead = null;
        for (MethodInvocation r : unit.invocations()) {
            String read = r.getName().getIdentifier();
            if (!FROM_BITS.contains(read) || r.arguments().size() != 1) continue;
            if (read.startsWith("int") != type.equals("float")) continue; // float bits read back as float
            if (method != null && JavaUnit.isAncestor(method, r)) continue; // the loop's own read of the old value
            Expression arg = JavaSyntax.unparen((Expression) r.arguments().get(0));
            if (!(arg instanceof MethodInvocation)) continue;
            Expression from = ((MethodInvocation) arg).getExpression();
            if (!parameter && name != null && (from == null || !name.equals(JavaUnit.simpleName(from)))) continue;
            Impact i = unit.impacts().of(r);
            if (worst == null || i.kind().ordinal() < worst.kind().ordinal()) {
                worst = i;
                worstRead = r;
            }
        }
        Impact impact = worst != null ? worst : Impact.bounded("the sum leaves this file: a few ulp apart run to run");
        String consequence = worstRead != null
                ? "read at line " + unit.line(worstRead) + ", " + impact.consequence()
                : impact.consequence();
        String msg = fit("java-cas", consequence, "expr", unit.shortText(m, 28), "type", type);
        unit.report(ruleId(), m, msg, !unit.bindings(), null, impact);
    }

    /**
     * The {@code Float.floatToIntBits(x)} (or double form) inside {@code e} whose argument is a sum (directly, or a
     * local assigned a sum in the same method), or null: a compare-and-set that stores a maximum is exact.
     */
    private static MethodInvocation sumToBits(JavaUnit unit, Expression e) {
        MethodInvocation[] found = {null};
        e.accept(new ASTVisitor() {
            @Override
            public boolean visit(MethodInvocation c) {
                if (found[0] == null
                        && TO_BITS.contains(c.getName().getIdentifier())
                        && c.arguments().size() == 1
                        && isSum(unit, (Expression) c.arguments().get(0), 0)) found[0] = c;
                return found[0] == null;
            }
        });
        if (found[0] != null) return found[0];
        // the new value computed into a local before the call: next = Float.floatToIntBits(Float.intBitsToFloat(o) + v)
        Expression u = JavaSyntax.unparen(e);
        if (u instanceof SimpleName && Types.declarationOf((SimpleName) u) != null) {
            for (Expression def : definitions((SimpleName) u)) {
                if (def != e && !(JavaSyntax.unparen(def) instanceof SimpleName)) {
                    MethodInvocation f = sumToBits(unit, def);
                    if (f != null) return f;
                }
            }
        }
        return null;
    }

    /** A floating addition or subtraction, directly or as the value a local was given. */
    private static boolean isSum(JavaUnit unit, Expression e, int depth) {
        Expression u = JavaSyntax.unparen(e);
        if (u instanceof InfixExpression) {
            InfixExpression in = (InfixExpression) u;
            return (in.getOperator() == InfixExpression.Operator.PLUS
                            || in.getOperator() == InfixExpression.Operator.MINUS)
                    && unit.types().of(in).isFloating();
        }
        if (u instanceof SimpleName && depth < 3) {
            SimpleName n = (SimpleName) u;
            VariableDeclaration d = Types.declarationOf(n);
            if (d == null) return false;
            for (Expression def : definitions(n)) if (isSum(unit, def, depth + 1)) return true;
            ASTNode scope = enclosingMember(n);
            if (scope != null && compoundAdded(scope, n.getIdentifier())) return true;
        }
        return false;
    }

    /** Initializer and plain assignments of the local {@code n} in its method. */
    private static List<Expression> definitions(SimpleName n) {
        List<Expression> out = new ArrayList<>();
        VariableDeclaration d = Types.declarationOf(n);
        if (d == null) return out;
        if (d.getInitializer() != null) out.add(d.getInitializer());
        ASTNode scope = enclosingMember(n);
        if (scope == null) return out;
        String id = n.getIdentifier();
        scope.accept(new ASTVisitor() {
            @Override
            public boolean visit(Assignment a) {
                if (a.getOperator() == Assignment.Operator.ASSIGN && JavaSyntax.isName(a.getLeftHandSide(), id))
                    out.add(a.getRightHandSide());
                return true;
            }
        });
        return out;
    }

    private static boolean compoundAdded(ASTNode scope, String id) {
        boolean[] found = {false};
        scope.accept(new ASTVisitor() {
            @Override
            public boolean visit(Assignment a) {
                if ((a.getOperator() == Assignment.Operator.PLUS_ASSIGN
                                || a.getOperator() == Assignment.Operator.MINUS_ASSIGN)
                        && JavaSyntax.isName(a.getLeftHandSide(), id)) found[0] = true;
                return !found[0];
            }
        });
        return found[0];
    }

    // ---- DoubleAdder / DoubleAccumulator ---------------------------------------------------------------------

    private void adderRead(JavaUnit unit, MethodInvocation m) {
        Expression receiver = m.getExpression();
        if (receiver == null || !m.arguments().isEmpty()) return;
        String type = typeName(receiver);
        boolean adder = "DoubleAdder".equals(type);
        boolean accumulator = "DoubleAccumulator".equals(type);
        String n = m.getName().getIdentifier();
        if (adder && !ConcurrentFloatApis.ADDER_READS.contains(n)) return;
        if (accumulator && (!ConcurrentFloatApis.ACCUMULATOR_READS.contains(n) || !additiveAccumulator(unit, receiver)))
            return;
        if (!adder && !accumulator) return;
        if (receiver instanceof SimpleName
                && Types.declarationOf((SimpleName) receiver) != null
                && !addedFromTasks(unit, (SimpleName) receiver)) return; // a local added to in one thread
        Impact impact = unit.impacts().of(m);
        if (ConcurrentFloatApis.TRUNCATING_READS.contains(n))
            impact = Impact.amplified(
                    "truncated by " + n + "() at line " + unit.line(m) + ": 1 ulp can change the integer",
                    unit.location(m));
        String msg = fit("java-adder", impact.consequence(), "expr", unit.shortText(m, 28), "type", "double");
        unit.report(ruleId(), m, msg, !unit.bindings() || m.resolveMethodBinding() == null, null, impact);
    }

    /**
     * Some {@code name.add(...)}/{@code name.accumulate(...)} runs inside a task (a parallel stream's forEach, an
     * executor's or a thread's lambda): added to from one thread only, a DoubleAdder adds in program order.
     */
    private static boolean addedFromTasks(JavaUnit unit, SimpleName local) {
        String name = local.getIdentifier();
        ASTNode scope = enclosingMember(Types.declarationOf(local));
        List<ASTNode> bodies = unit.memo(SharedFloatAccumulation.class, () -> taskBodies(unit));
        for (ASTNode body : bodies) {
            if (scope != null && !JavaUnit.isAncestor(scope, body)) continue; // another method's local of that name
            boolean[] found = {false};
            body.accept(new ASTVisitor() {
                @Override
                public boolean visit(MethodInvocation c) {
                    String n = c.getName().getIdentifier();
                    if ((n.equals("add") || n.equals("accumulate"))
                            && c.getExpression() != null
                            && name.equals(JavaUnit.simpleName(c.getExpression()))) found[0] = true;
                    return !found[0];
                }
            });
            if (found[0]) return true;
        }
        return false;
    }

    /**
     * The accumulator read through {@code receiver} adds: the {@code new DoubleAccumulator(f, x)} assigned to its
     * name (a field's or local's initializer, or an assignment) has an adding {@code f}; when the unit creates none
     * under that name, some accumulator of the unit adds.
     */
    private static boolean additiveAccumulator(JavaUnit unit, Expression receiver) {
        String name = JavaUnit.simpleName(receiver);
        if (name == null) return additiveAccumulators(unit);
        Boolean[] additive = {null};
        unit.cu().accept(new ASTVisitor() {
            @Override
            public boolean visit(ClassInstanceCreation c) {
                if (!c.getType().toString().endsWith("DoubleAccumulator")
                        || c.arguments().isEmpty()) return true;
                ASTNode p = c.getParent();
                String assigned = p instanceof VariableDeclarationFragment
                        ? ((VariableDeclarationFragment) p).getName().getIdentifier()
                        : p instanceof Assignment ? JavaUnit.simpleName(((Assignment) p).getLeftHandSide()) : null;
                if (name.equals(assigned)) {
                    boolean adds = sumOperator((Expression) c.arguments().get(0));
                    additive[0] = additive[0] == null ? adds : additive[0] || adds;
                }
                return true;
            }
        });
        return additive[0] != null ? additive[0] : additiveAccumulators(unit);
    }

    /** Some {@code new DoubleAccumulator(f, x)} of the unit adds (f is not a maximum or minimum). */
    private static boolean additiveAccumulators(JavaUnit unit) {
        boolean[] additive = {false};
        unit.cu().accept(new ASTVisitor() {
            @Override
            public boolean visit(ClassInstanceCreation c) {
                if (c.getType().toString().endsWith("DoubleAccumulator")
                        && !c.arguments().isEmpty()
                        && sumOperator((Expression) c.arguments().get(0))) additive[0] = true;
                return true;
            }
        });
        return additive[0];
    }

    /** The simple name of the static type of {@code e}: from the binding, else from the declaration. */
    private static String typeName(Expression e) {
        ITypeBinding b = e.resolveTypeBinding();
        if (b != null && !b.isRecovered()) return b.getErasure().getName();
        Expression u = JavaSyntax.unparen(e);
        SimpleName n = u instanceof SimpleName
                ? (SimpleName) u
                : u instanceof FieldAccess ? ((FieldAccess) u).getName() : null;
        if (n == null) return null;
        Type t = Types.declaredType(n);
        if (t == null) return null;
        String s = t.toString();
        int lt = s.indexOf('<');
        if (lt >= 0) s = s.substring(0, lt);
        return s.substring(s.lastIndexOf('.') + 1);
    }

    /** {@code Double::sum}, {@code Float::sum}, {@code (a, b) -> a + b}: an addition; not max, min or others. */
    private static boolean sumOperator(Expression op) {
        Expression u = JavaSyntax.unparen(op);
        if (u instanceof ExpressionMethodReference) {
            ExpressionMethodReference r = (ExpressionMethodReference) u;
            String q = r.getExpression().toString();
            return r.getName().getIdentifier().equals("sum") && (q.endsWith("Double") || q.endsWith("Float"));
        }
        if (u instanceof LambdaExpression) {
            LambdaExpression l = (LambdaExpression) u;
            ASTNode body = l.getBody();
            if (body instanceof Block) {
                List<?> st = ((Block) body).statements();
                if (st.size() != 1 || !(st.get(0) instanceof ReturnStatement)) return false;
                body = ((ReturnStatement) st.get(0)).getExpression();
            }
            return body instanceof Expression
                    && JavaSyntax.unparen((Expression) body) instanceof InfixExpression
                    && ((InfixExpression) JavaSyntax.unparen((Expression) body)).getOperator()
                            == InfixExpression.Operator.PLUS;
        }
        return false;
    }

    // ---- parallel streams ----------------------------------------------------------------------------------

    private void streamTerminal(JavaUnit unit, MethodInvocation m) {
        String n = m.getName().getIdentifier();
        String op;
        if (ConcurrentFloatApis.STREAM_SUMS.contains(n)) {
            if (!m.arguments().isEmpty() || !doubleStream(m.getExpression())) return;
            op = n.equals("average") ? "averages" : "sums";
        } else
            switch (n) {
                case "reduce": {
                    List<?> args = m.arguments();
                    if (args.isEmpty()) return;
                    Expression f = (Expression) args.get(args.size() == 3 ? 1 : args.size() - 1);
                    if (!sumOperator(f)) return;
                    boolean doubles = doubleStream(m.getExpression())
                            || f instanceof ExpressionMethodReference
                            || args.size() >= 2
                                    && unit.types().of((Expression) args.get(0)).isFloating();
                    if (!doubles) return;
                    op = "reduces";
                    break;
                }
                case "collect": {
                    if (m.arguments().size() != 1
                            || !(JavaSyntax.unparen((Expression) m.arguments().get(0)) instanceof MethodInvocation))
                        return;
                    String c = ((MethodInvocation) JavaSyntax.unparen(
                                    (Expression) m.arguments().get(0)))
                            .getName()
                            .getIdentifier();
                    if (!ConcurrentFloatApis.SUMMING_COLLECTORS.contains(c)) return;
                    op = "collects";
                    break;
                }
                default:
                    return;
            }
        if (!parallel(m.getExpression())) return;
        Impact impact = follow(unit, m);
        String msg = fit("java-stream", impact.consequence(), "expr", "parallel()…" + n + "()", "op", op);
        unit.report(ruleId(), m.getName(), msg, !unit.bindings() || m.resolveMethodBinding() == null, null, impact);
    }

    /** The impact of a terminal's value, through {@code OptionalDouble.getAsDouble()}/{@code orElse} and getters. */
    private static Impact follow(JavaUnit unit, MethodInvocation m) {
        Expression e = m;
        while (e.getParent() instanceof MethodInvocation && ((MethodInvocation) e.getParent()).getExpression() == e) {
            String g = ((MethodInvocation) e.getParent()).getName().getIdentifier();
            if (!g.startsWith("getAs") && !g.startsWith("orElse") && !g.startsWith("get")) break;
            e = (Expression) e.getParent();
        }
        return unit.impacts().of(e);
    }

    /** The receiver chain of a stream terminal holds {@code parallel()} (nearer than any {@code sequential()}). */
    private static boolean parallel(Expression chain) {
        for (Expression e = chain; e != null; ) {
            e = JavaSyntax.unparen(e);
            if (!(e instanceof MethodInvocation)) return false;
            MethodInvocation c = (MethodInvocation) e;
            String n = c.getName().getIdentifier();
            if (n.equals("sequential")) return false;
            if (n.equals("parallel") || n.equals("parallelStream")) return true;
            if (n.equals("stream")
                    && c.arguments().size() == 2
                    && "true".equals(c.arguments().get(1).toString())) return true; // StreamSupport.stream(s, true)
            e = c.getExpression();
        }
        return false;
    }

    /** The chain is a DoubleStream: from its binding, else from a mapToDouble/asDoubleStream/DoubleStream source. */
    private static boolean doubleStream(Expression chain) {
        if (chain == null) return false;
        ITypeBinding b = chain.resolveTypeBinding();
        if (b != null && !b.isRecovered())
            return b.getErasure().getQualifiedName().equals("java.util.stream.DoubleStream");
        for (Expression e = chain; e != null; ) {
            e = JavaSyntax.unparen(e);
            if (!(e instanceof MethodInvocation))
                return e instanceof SimpleName && e.toString().equals("DoubleStream");
            MethodInvocation c = (MethodInvocation) e;
            String n = c.getName().getIdentifier();
            if (n.equals("mapToDouble") || n.equals("asDoubleStream") || n.equals("flatMapToDouble")) return true;
            if (n.startsWith("mapTo") || n.equals("mapToObj") || n.equals("boxed")) return false;
            e = c.getExpression();
        }
        return false;
    }

    // ---- Arrays.parallelPrefix -------------------------------------------------------------------------------

    private void prefix(JavaUnit unit, MethodInvocation m) {
        if (m.getExpression() == null || !m.getExpression().toString().endsWith("Arrays")) return;
        List<?> args = m.arguments();
        if (args.size() != 2 && args.size() != 4) return;
        if (!sumOperator((Expression) args.get(args.size() - 1))) return;
        Expression array = (Expression) args.get(0);
        String type = elementType(array);
        if (type == null) return;
        String name = JavaUnit.simpleName(array);
        ASTNode scope = enclosingMember(m);
        Impact impact = name == null || scope == null ? null : readsImpact(unit, scope, name, m);
        if (impact == null) impact = Impact.bounded("only stored: a few ulp apart between machines");
        String msg = fit("java-prefix", impact.consequence(), "expr", unit.shortText(m, 28), "type", type);
        unit.report(ruleId(), m, msg, !unit.bindings(), null, impact);
    }

    private static String elementType(Expression array) {
        ITypeBinding b = array.resolveTypeBinding();
        if (b != null && !b.isRecovered() && b.isArray()) {
            String el = b.getElementType().getName();
            return el.equals("double") || el.equals("float") ? el : null;
        }
        Expression u = JavaSyntax.unparen(array);
        if (!(u instanceof SimpleName)) return null;
        Type t = Types.declaredType((SimpleName) u);
        if (t == null) return null;
        String s = t.toString();
        return s.equals("double[]") ? "double" : s.equals("float[]") ? "float" : null;
    }

    // ---- tasks adding into shared state ----------------------------------------------------------------------

    /** Lambdas and anonymous classes handed to an executor, a thread or a parallel forEach; fork/join compute(). */
    private static List<ASTNode> taskBodies(JavaUnit unit) {
        List<ASTNode> out = new ArrayList<>();
        for (MethodInvocation m : unit.invocations()) {
            String n = m.getName().getIdentifier();
            boolean task = SUBMIT.contains(n) || n.equals("forEach") && parallel(m.getExpression());
            if (!task) continue;
            for (Object o : m.arguments()) taskArgument((Expression) o, out);
        }
        unit.cu().accept(new ASTVisitor() {
            @Override
            public boolean visit(ClassInstanceCreation c) {
                if (c.getType().toString().equals("Thread"))
                    for (Object o : c.arguments()) taskArgument((Expression) o, out);
                return true;
            }

            @Override
            public boolean visit(TypeDeclaration t) {
                if (taskClass(t) != null) {
                    for (MethodDeclaration md : t.getMethods()) {
                        String mn = md.getName().getIdentifier();
                        if (ConcurrentFloatApis.TASK_METHODS.contains(mn)
                                && md.parameters().isEmpty()
                                && md.getBody() != null) out.add(md.getBody());
                    }
                }
                return true;
            }
        });
        return out;
    }

    /**
     * What runs instances of {@code t} on other threads: "threads" (a Thread subclass), "fork/join tasks" (a
     * RecursiveAction, RecursiveTask ...), "pool tasks" (a Runnable or Callable, given to an executor or a thread);
     * null for other classes.
     */
    private static String taskClass(TypeDeclaration t) {
        Type sup = t.getSuperclassType();
        if (sup != null && TASK_TYPES.contains(baseName(sup)))
            return baseName(sup).equals("Thread") ? "threads" : "fork/join tasks";
        for (Object i : t.superInterfaceTypes())
            if (ConcurrentFloatApis.TASK_INTERFACES.contains(baseName((Type) i))) return "pool tasks";
        return null;
    }

    private static String baseName(Type t) {
        String s = t.toString();
        int lt = s.indexOf('<');
        if (lt >= 0) s = s.substring(0, lt);
        return s.substring(s.lastIndexOf('.') + 1);
    }

    private static void taskArgument(Expression a, List<ASTNode> out) {
        Expression u = JavaSyntax.unparen(a);
        if (u instanceof LambdaExpression) out.add(u);
        else if (u instanceof ClassInstanceCreation
                && ((ClassInstanceCreation) u).getAnonymousClassDeclaration() != null)
            out.add(((ClassInstanceCreation) u).getAnonymousClassDeclaration());
    }

    private void tasks(JavaUnit unit, ASTNode body, Set<String> reported) {
        ASTNode holder =
                body instanceof AnonymousClassDeclaration ? body.getParent().getParent() : body.getParent();
        String tasks = body instanceof Block
                ? taskClass((TypeDeclaration) body.getParent().getParent())
                : holder instanceof ClassInstanceCreation
                        ? "threads"
                        : holder instanceof MethodInvocation
                                        && ((MethodInvocation) holder)
                                                .getName()
                                                .getIdentifier()
                                                .startsWith("forEach")
                                ? "parallel stream tasks"
                                : "pool tasks";
        body.accept(new ASTVisitor() {
            @Override
            public boolean visit(Assignment a) {
                if (!adds(a)) return true;
                Expression lhs = JavaSyntax.unparen(a.getLeftHandSide());
                if (!unit.types().of(lhs).isFloating()) return true;
                Expression term = a.getOperator() == Assignment.Operator.ASSIGN
                        ? ((InfixExpression) JavaSyntax.unparen(a.getRightHandSide())).getRightOperand()
                        : a.getRightHandSide();
                // whole numbers added into a double are exact in any order below 2^53 (a centroid's coordinate sums)
                if (unit.types().of(lhs) == NumType.DOUBLE && SerialAccumulation.integerValued(unit, term)) return true;
                String target = sharedTarget(lhs, body);
                if (target == null || ownField(lhs, body)) return true;
                if (!reported.add(target + "@" + body.getStartPosition())) return true;
                Impact impact = readsImpact(unit, unit.cu(), target, body);
                if (impact == null) impact = Impact.bounded("only stored: a few ulp apart run to run");
                String msg = fit(
                        "java-task",
                        impact.consequence(),
                        "expr",
                        unit.shortText(a, 28),
                        "type",
                        unit.types().of(lhs).javaName(),
                        "tasks",
                        tasks);
                unit.report(ruleId(), a, msg, unit.types().typeOf(lhs).guessed(), null, impact);
                return true;
            }
        });
    }

    /** {@code x += v}, {@code x -= v} or {@code x = x + v}. */
    private static boolean adds(Assignment a) {
        if (a.getOperator() == Assignment.Operator.PLUS_ASSIGN || a.getOperator() == Assignment.Operator.MINUS_ASSIGN)
            return true;
        if (a.getOperator() != Assignment.Operator.ASSIGN) return false;
        Expression r = JavaSyntax.unparen(a.getRightHandSide());
        return r instanceof InfixExpression
                && (((InfixExpression) r).getOperator() == InfixExpression.Operator.PLUS
                        || ((InfixExpression) r).getOperator() == InfixExpression.Operator.MINUS)
                && ((InfixExpression) r)
                        .getLeftOperand()
                        .subtreeMatch(new ASTMatcher(), JavaSyntax.unparen(a.getLeftHandSide()));
    }

    /**
     * The name of the state outside the task that {@code lhs} adds into: a field, or an array declared outside the
     * task whose element is not owned by it. Null for the task's own locals and owned elements.
     */
    private static String sharedTarget(Expression lhs, ASTNode body) {
        if (lhs instanceof ArrayAccess) {
            Expression arr = lhs;
            while (arr instanceof ArrayAccess) {
                Expression idx = JavaSyntax.unparen(((ArrayAccess) arr).getIndex());
                if (idx instanceof SimpleName && owned((SimpleName) idx, body)) return null;
                arr = JavaSyntax.unparen(((ArrayAccess) arr).getArray());
            }
            if (arr instanceof SimpleName) {
                VariableDeclaration d = Types.declarationOf((SimpleName) arr);
                if (d != null && JavaUnit.isAncestor(body, d)) return null;
                return ((SimpleName) arr).getIdentifier();
            }
            return arr instanceof FieldAccess ? ((FieldAccess) arr).getName().getIdentifier() : null;
        }
        if (lhs instanceof FieldAccess) return ((FieldAccess) lhs).getName().getIdentifier();
        if (lhs instanceof QualifiedName) return ((QualifiedName) lhs).getName().getIdentifier();
        if (lhs instanceof SimpleName) {
            SimpleName n = (SimpleName) lhs;
            IBinding b = n.resolveBinding();
            if (b instanceof IVariableBinding && !((IVariableBinding) b).isField()) return null;
            VariableDeclaration d = Types.declarationOf(n);
            if (d != null) return null; // a local or parameter: the task's own
            return Types.fieldDeclaration(n, n.getIdentifier()) != null ? n.getIdentifier() : null;
        }
        return null;
    }

    /**
     * {@code lhs} is an instance field (not an array element) of the task class whose body {@code body} is: each
     * task object has its own ({@code partial += x} in a Runnable's run()).
     */
    private static boolean ownField(Expression lhs, ASTNode body) {
        if (!(body instanceof Block)) return false;
        if (lhs instanceof ArrayAccess) {
            // an array the task object allocates for itself (buf = new double[n] in its constructor)
            Expression arr = lhs;
            while (arr instanceof ArrayAccess) arr = JavaSyntax.unparen(((ArrayAccess) arr).getArray());
            return ownField(arr, body)
                    && allocatedBy((TypeDeclaration) body.getParent().getParent(), arr);
        }
        SimpleName n = lhs instanceof FieldAccess
                ? ((FieldAccess) lhs).getName()
                : lhs instanceof SimpleName ? (SimpleName) lhs : null;
        if (n == null) return false;
        if (lhs instanceof FieldAccess && !(((FieldAccess) lhs).getExpression() instanceof ThisExpression))
            return false;
        TypeDeclaration task = (TypeDeclaration) body.getParent().getParent();
        for (FieldDeclaration f : task.getFields()) {
            if (Modifier.isStatic(f.getModifiers())) continue;
            for (Object o : f.fragments())
                if (((VariableDeclarationFragment) o).getName().getIdentifier().equals(n.getIdentifier())) return true;
        }
        return false;
    }

    /** Every value the task class assigns to the field {@code arr} names is a new array it allocates. */
    private static boolean allocatedBy(TypeDeclaration task, Expression arr) {
        String name = JavaUnit.simpleName(arr);
        if (name == null) return false;
        boolean[] fresh = {false};
        boolean[] other = {false};
        task.accept(new ASTVisitor() {
            @Override
            public boolean visit(VariableDeclarationFragment f) {
                if (f.getName().getIdentifier().equals(name) && f.getInitializer() != null) note(f.getInitializer());
                return true;
            }

            @Override
            public boolean visit(Assignment a) {
                if (name.equals(JavaUnit.simpleName(a.getLeftHandSide()))) note(a.getRightHandSide());
                return true;
            }

            private void note(Expression v) {
                if (JavaSyntax.unparen(v) instanceof ArrayCreation) fresh[0] = true;
                else other[0] = true;
            }
        });
        return fresh[0] && !other[0];
    }

    /** The index is the task's own: its lambda parameter, or a counter of a loop inside the task. */
    private static boolean owned(SimpleName idx, ASTNode body) {
        VariableDeclaration d = Types.declarationOf(idx);
        if (d == null || !JavaUnit.isAncestor(body, d) && d.getParent() != body) return false;
        if (d.getParent() instanceof LambdaExpression) return true;
        ASTNode p = d.getParent();
        if (p instanceof VariableDeclarationExpression && p.getParent() instanceof ForStatement) return true;
        return false;
    }

    // ---- consequences ----------------------------------------------------------------------------------------

    /**
     * The worst impact among the reads of {@code name} ({@code name[i]}, {@code name}, {@code this.name}) in
     * {@code scope} outside {@code except}, or null when none is read there.
     */
    private static Impact readsImpact(JavaUnit unit, ASTNode scope, String name, ASTNode except) {
        Impact[] worst = {null};
        scope.accept(new ASTVisitor() {
            @Override
            public boolean visit(SimpleName n) {
                if (!n.getIdentifier().equals(name) || JavaUnit.isAncestor(except, n)) return false;
                if (n.getLocationInParent() == VariableDeclarationFragment.NAME_PROPERTY) return false;
                Expression read = n;
                if (n.getParent() instanceof FieldAccess && ((FieldAccess) n.getParent()).getName() == n)
                    read = (Expression) n.getParent();
                else if (n.getParent() instanceof QualifiedName && ((QualifiedName) n.getParent()).getName() == n)
                    read = (Expression) n.getParent();
                while (read.getParent() instanceof ArrayAccess && ((ArrayAccess) read.getParent()).getArray() == read)
                    read = (Expression) read.getParent();
                if (read.getParent() instanceof Assignment && ((Assignment) read.getParent()).getLeftHandSide() == read)
                    return false;
                if (!unit.types().of(read).isFloating()) return false;
                Impact i = unit.impacts().of(read);
                if (worst[0] == null || i.kind().ordinal() < worst[0].kind().ordinal()) worst[0] = i;
                return false;
            }
        });
        return worst[0];
    }

    private static ASTNode enclosingMember(ASTNode n) {
        for (ASTNode p = n.getParent(); p != null; p = p.getParent()) {
            if (p instanceof MethodDeclaration || p instanceof Initializer || p instanceof LambdaExpression) return p;
            if (p instanceof AbstractTypeDeclaration) return null;
        }
        return null;
    }
}
