package dev.numlint.cuda;

import static dev.numlint.cuda.ParseTrees.calleeName;
import static dev.numlint.cuda.ParseTrees.simpleName;
import static dev.numlint.cuda.ParseTrees.stripParens;
import static dev.numlint.cuda.SyntaxQueries.*;
import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.knowledge.NumericFacts;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.antlr.v4.runtime.ParserRuleContext;

/**
 * The accumulation facts of a function body ({@link FunctionFacts.Accumulation}, read by the NL004 check): a
 * floating-point variable or element updated from itself inside a loop ({@code s += x}, {@code s = s + x},
 * {@code s = fmaf(a, b, s)}), with the loops that carry it and their trip counts, whether it is restarted in every
 * iteration, compensated (Kahan), fed whole-number terms, an element-wise update or a constant step.
 * {@link FunctionAnalyzer} calls it for each assignment while it walks the body ({@link FunctionBody}: its scopes and
 * loops).
 */
final class AccumulationSites {
    private final FunctionBody a;

    /** The assignments of a loop ({@link #assignments}): the storages given a value, and what each value reads. */
    private record Assignments(
            List<String> keys, List<Set<String>> from, java.util.Map<String, List<Integer>> byRoot) {}

    private final java.util.IdentityHashMap<ParserRuleContext, Assignments> assignmentsIn =
            new java.util.IdentityHashMap<>();

    /** The strides by which the loops' counters move an updated element. */
    private final ElementStrides strides;

    AccumulationSites(FunctionBody a) {
        this.a = a;
        this.strides = new ElementStrides(a);
    }

    /**
     * A plain assignment {@code c} of {@code rc} to a floating variable or element: an accumulation when it adds to
     * the target ({@code s = s + x}, {@code s = x + s}) or is an fma into it ({@code s = fmaf(a, b, s)}).
     */
    void assignment(AssignExprContext c, ExpressionContext rc) {
        ExpressionContext r = stripParens(rc);
        if (r instanceof AddExprContext) {
            AddExprContext add = (AddExprContext) r;
            String target = a.text(c.expression(0));
            String l0 = a.text(stripParens(add.expression(0)));
            String r0 = a.text(stripParens(add.expression(1)));
            if (target.equals(l0) || (add.PLUS() != null && target.equals(r0))) {
                accumulation(c, c.expression(0), target.equals(l0) ? add.expression(1) : add.expression(0), false);
            }
        } else if (r instanceof CallExprContext) {
            CallExprContext call = (CallExprContext) r;
            String callee = calleeName(call.expression());
            if (callee != null
                    && NumericFacts.FMA_FUNCTIONS.contains(callee.startsWith("std::") ? callee.substring(5) : callee)
                    && call.argumentList() != null
                    && call.argumentList().argument().size() == 3) {
                ArgumentContext acc = call.argumentList().argument(2);
                ArgumentContext first = call.argumentList().argument(0);
                if (acc.expression() != null
                        && first.expression() != null
                        && a.text(stripParens(acc.expression())).equals(a.text(c.expression(0)))) {
                    accumulation(c, c.expression(0), first.expression(), true);
                }
            }
        }
    }

    void accumulation(AssignExprContext c, ExpressionContext target, ExpressionContext addend, boolean viaFma) {
        if (a.loops.isEmpty()) return;
        // a for-loop's own step (for (x = lo; x <= hi; x += h)) is its counter, not a sum of data: every port takes
        // the same steps in the same order (session 10 evaluation: niftyreg's PSF sampling loops)
        if (inForIncrement(c)) return;
        ExpressionContext t = stripParens(target);
        List<ExpressionContext> indices = new ArrayList<>();
        ExpressionContext b = t;
        while (true) {
            if (b instanceof IndexExprContext) {
                indices.add(((IndexExprContext) b).commaExpression().expression(0));
                b = ((IndexExprContext) b).expression();
            } else if (b instanceof MemberExprContext && ((MemberExprContext) b).DOT() != null) {
                b = ((MemberExprContext) b).expression();
            } else {
                break;
            }
        }
        String base = simpleName(b);
        if (base == null) return;
        int declDepth = 0;
        Local l = a.lookup(base);
        if (l != null) declDepth = l.loopDepth;
        if (declDepth >= a.loops.size()) return;
        Set<String> idxNames = new HashSet<>();
        for (ExpressionContext ix : indices) names(ix, idxNames);
        // the names of subscripts built of sums and products only: a loop whose counter is one of them may move the
        // element (Clang's ClangElements proves it where Clang reads the function); through a division, a modulo,
        // a shift or another array (A[i/2], h[bin[i]]) two iterations can meet the same element
        Set<String> moveNames = new HashSet<>();
        for (ExpressionContext ix : indices) if (ElementStrides.linearSubscript(ix)) names(ix, moveNames);
        // through a local declared in the loops from such a subscript (i = tile*T + k; out[3*i] +=)
        strides.followLocals(declDepth, moveNames);
        String tt = a.text(target);
        // a.loops that overwrite the accumulator in every iteration (for an element acc[k], also a sweep
        // for (k...) acc[k] = 0 in the loop's body) start a new sum: only the a.loops inside the innermost such loop
        // carry it
        List<String> idxTexts = new ArrayList<>();
        for (ExpressionContext ix : indices) idxTexts.add(a.text(stripParens(ix)));
        int from = declDepth;
        for (int i = declDepth; i < a.loops.size(); i++) {
            Loop lp = a.loops.get(i);
            if (indices.isEmpty()
                    ? lp.overwritten(a.scope.outParams).contains(base) || resetBefore(lp, c, base)
                    : resetsElements(lp.node, base, idxTexts)) {
                from = i + 1;
            }
        }
        boolean rewritten = from >= a.loops.size();
        long trip = 1;
        boolean unknown = false;
        Loop outer = null;
        boolean gridStride = false;
        // the outermost loop whose counter moves the element by a stride that may be 0 (y[j*C], y[iy] with
        // iy += incy in the body), and the condition of a sum over it
        Loop strided = null;
        String stride = null;
        for (int i = Math.min(from, a.loops.size() - 1); i < a.loops.size(); i++) {
            Loop lp = a.loops.get(i);
            boolean carries = true;
            for (String iv : lp.induction) if (moveNames.contains(iv)) carries = false;
            String s = carries ? null : strides.strideOf(lp, i, indices);
            if (carries) {
                // a name the loop's body steps once per iteration: a counter of the loop ("" when its step is a
                // non-zero constant)
                s = strides.bodyStride(lp, i, indices, moveNames);
                if (s != null) carries = false;
                if ("".equals(s)) s = null;
            }
            if (s != null && strided == null) {
                strided = lp;
                stride = s;
            }
            if (!carries) continue;
            if (outer == null) outer = lp;
            if (!gridStride) gridStride = stepsByLaunchSize(lp.node, base);
            if (lp.trip < 0) unknown = true;
            else trip *= lp.trip;
        }
        // every loop moves the element: one term per element, cited at the innermost loop (Clang's facts, where they
        // read the function, may find a loop that meets an element twice: c[i + j] in the i loop)
        boolean perElement = outer == null;
        // every loop moves the element, one of them by a stride that may be 0: a sum over that loop only if it is
        if (!perElement) stride = null;
        if (perElement && strided != null) {
            perElement = false;
            outer = strided;
            trip = Math.max(outer.trip, -1);
            unknown = outer.trip < 0;
        }
        if (perElement) {
            outer = a.loops.get(a.loops.size() - 1);
            trip = Math.max(outer.trip, -1);
            unknown = outer.trip < 0;
        }
        // carried by the innermost loop alone, a clean-up loop after an unrolled one: at most k-1 terms
        Loop innermost = a.loops.get(a.loops.size() - 1);
        dev.numlint.cuda.facts.CleanUpLoop cleanUp = null;
        if (outer == innermost && !rewritten) cleanUp = innermost.cleanUp();
        List<ExpressionContext> terms = new ArrayList<>();
        ExpressionContext rhs = c.expression().size() > 1 ? stripParens(c.expression(1)) : null;
        if (viaFma && rhs instanceof CallExprContext && ((CallExprContext) rhs).argumentList() != null) {
            List<ArgumentContext> args = ((CallExprContext) rhs).argumentList().argument();
            for (int k = 0; k < 2 && k < args.size(); k++) {
                if (args.get(k).expression() != null) terms.add(args.get(k).expression());
            }
        } else {
            terms.add(addend);
        }
        boolean recurrence = recurrence(t, terms, outer);
        E add = a.memo.get(addend);
        boolean whole = add != null && add.cval != null && add.cval == Math.rint(add.cval) && Math.abs(add.cval) < 65536
                || exactWholeTerms(addend, ty(target));
        CType ty = ty(target);
        boolean dbl = ty.kind == CType.Kind.DOUBLE || ty.kind == CType.Kind.LONG_DOUBLE;
        dev.numlint.cuda.facts.Site site = a.site(c);
        if (cleanUp != null) site.inCleanUpLoop(cleanUp);
        if (stride != null) site.withStride(stride);
        a.facts.accumulations.add(new FunctionFacts.Accumulation(
                site,
                tt,
                ty.toString(),
                dbl,
                outer.line,
                unknown ? -1 : trip,
                a.compensated.contains(base),
                whole,
                !indices.isEmpty() && mentions(addend, base),
                stride == null && (perElement || elementwiseUpdate(idxNames, moveNames, addend, declDepth)),
                variesWithLoop(addend, declDepth),
                dev.numlint.cuda.facts.LoopNames.measuresTime(base),
                rewritten,
                viaFma,
                gridStride,
                ErrorMeasures.classify(a, outer.node, c, tt, addend),
                recurrence,
                indices.isEmpty() && c.assignOp().PLUS_ASSIGN() != null ? constantSum(base, addend) : null));
    }

    /** Whether {@code c} lies in the increment clause of the for statement that encloses it most closely. */
    private static boolean inForIncrement(ParserRuleContext c) {
        for (ParserRuleContext p = c.getParent(); p != null; p = p.getParent()) {
            if (p instanceof ForStmtContext f) {
                CommaExpressionContext inc = f.commaExpression();
                return inc != null
                        && c.getStart().getTokenIndex() >= inc.getStart().getTokenIndex()
                        && c.getStop() != null
                        && inc.getStop() != null
                        && c.getStop().getTokenIndex() <= inc.getStop().getTokenIndex();
            }
        }
        return false;
    }

    /**
     * Whether the added terms depend on the accumulator's current value: they read it, or the array or struct it
     * lives in ({@code J[k] = J[k] + 0.25*lambda*D} with {@code D} computed from {@code dN[k] = J[iN[i]*cols+j] - Jc}
     * in the same iteration), directly or through values assigned from it anywhere in the carrying loop
     * {@code loop}. Such a loop is a recurrence (an explicit time step, a remaining-length countdown): every step
     * needs the value the previous one produced, so no port can add its terms in another order. A struct member is
     * told apart from its siblings ({@code f.t += len} does not depend on {@code f.pscat}); an array is one storage.
     * Values passed by address to calls are not followed.
     */
    private boolean recurrence(ExpressionContext target, List<ExpressionContext> terms, Loop loop) {
        String acc = storage(target);
        if (acc == null || !dependsOn(acc, terms, loop.node)) return false;
        return !(terms.size() == 1 && runningMean(acc, terms.get(0), loop));
    }

    /**
     * {@code acc += (x - acc) / n} where {@code x} owes nothing to {@code acc} and {@code n} changes with the
     * carrying loop (its counter, {@code i + 1}, a count the loop increments): Welford's running mean, the sum of the
     * {@code x} divided by their count written one step at a time. Its error grows as a sum's does and a port
     * computes it as a reduction, so it is no recurrence. A constant weight ({@code m += alpha*(x - m)}, an
     * exponential average) forgets old rounding errors and stays one.
     */
    private boolean runningMean(String acc, ExpressionContext term, Loop loop) {
        ExpressionContext t = stripParens(term);
        if (!(t instanceof MulExprContext) || ((MulExprContext) t).DIV() == null) return false;
        ExpressionContext num = stripParens(((MulExprContext) t).expression(0));
        if (!(num instanceof AddExprContext) || ((AddExprContext) num).MINUS() == null) return false;
        if (!acc.equals(storage(((AddExprContext) num).expression(1)))) return false;
        if (dependsOn(acc, List.of(((AddExprContext) num).expression(0)), loop.node)) return false;
        Set<String> divisor = new HashSet<>();
        reads(((MulExprContext) t).expression(1), divisor);
        for (String n : divisor) {
            if (loop.induction.contains(n) || loop.modified().contains(n)) return true;
        }
        return false;
    }

    /**
     * Whether {@code exprs} read the storage {@code acc} ({@link #storage}), directly or through values assigned
     * anywhere in {@code loop} (in any order: a value of the previous iteration counts).
     */
    private boolean dependsOn(String acc, List<ExpressionContext> exprs, ParserRuleContext loop) {
        Set<String> needed = new HashSet<>();
        for (ExpressionContext e : exprs) reads(e, needed);
        Assignments as = assignmentsIn.computeIfAbsent(loop, l -> {
            Assignments x = new Assignments(new ArrayList<>(), new ArrayList<>(), new java.util.HashMap<>());
            assignments(l, x.keys(), x.from());
            for (int k = 0; k < x.keys().size(); k++) {
                x.byRoot()
                        .computeIfAbsent(root(x.keys().get(k)), r -> new ArrayList<>())
                        .add(k);
            }
            return x;
        });
        // a worklist over the storages read: two storages can share memory only under one root variable
        boolean[] used = new boolean[as.keys().size()];
        java.util.ArrayDeque<String> work = new java.util.ArrayDeque<>(needed);
        while (!work.isEmpty()) {
            String n = work.poll();
            if (overlaps(n, acc)) return true;
            for (int k : as.byRoot().getOrDefault(root(n), List.of())) {
                if (used[k] || !overlaps(n, as.keys().get(k))) continue;
                used[k] = true;
                for (String r : as.from().get(k)) if (needed.add(r)) work.add(r);
            }
        }
        return false;
    }

    /** The variable a storage ({@link #storage}) belongs to: {@code f} of {@code f.t}. */
    private static String root(String storage) {
        int dot = storage.indexOf('.');
        return dot < 0 ? storage : storage.substring(0, dot);
    }

    /** Whether two storages ({@link #storage}) share memory: equal, or one a member of the other. */
    private static boolean overlaps(String x, String y) {
        return x.equals(y) || memberOf(x, y) || memberOf(y, x);
    }

    private static boolean memberOf(String x, String y) {
        return x.length() > y.length() && x.charAt(y.length()) == '.' && x.startsWith(y);
    }

    /**
     * The storage an lvalue or value names: the variable, with its members ({@code f.t}, {@code p->x} as
     * {@code p.x}) and without its indices ({@code J[k]} is {@code J}, {@code a[i].x} is {@code a.x}); null for
     * anything else.
     */
    private static String storage(ExpressionContext e) {
        ExpressionContext x = stripParens(e);
        if (x instanceof IndexExprContext) return storage(((IndexExprContext) x).expression());
        if (x instanceof MemberExprContext) {
            MemberExprContext m = (MemberExprContext) x;
            String b = storage(m.expression());
            return b == null || m.qualifiedName() == null
                    ? null
                    : b + "." + m.qualifiedName().getText();
        }
        if (x instanceof UnaryExprContext && ((UnaryExprContext) x).STAR() != null) {
            return storage(((UnaryExprContext) x).expression());
        }
        return simpleName(x);
    }

    /** The storages {@code t} reads ({@link #storage}), with those its indices read. */
    private static void reads(org.antlr.v4.runtime.tree.ParseTree t, Set<String> out) {
        if (t instanceof org.antlr.v4.runtime.tree.TerminalNode || t instanceof LambdaContext) return;
        if (t instanceof ExpressionContext) {
            String st = storage((ExpressionContext) t);
            if (st != null) {
                out.add(st);
                indexReads((ExpressionContext) t, out);
                return;
            }
        }
        for (int i = 0; i < t.getChildCount(); i++) reads(t.getChild(i), out);
    }

    private static void indexReads(ExpressionContext e, Set<String> out) {
        ExpressionContext x = stripParens(e);
        if (x instanceof IndexExprContext) {
            reads(((IndexExprContext) x).commaExpression(), out);
            indexReads(((IndexExprContext) x).expression(), out);
        } else if (x instanceof MemberExprContext) {
            indexReads(((MemberExprContext) x).expression(), out);
        } else if (x instanceof UnaryExprContext && ((UnaryExprContext) x).STAR() != null) {
            indexReads(((UnaryExprContext) x).expression(), out);
        }
    }

    /**
     * The assignments and initialised declarations in {@code t}: the storage each gives a value, and the storages
     * that value reads (a compound assignment reads its target too).
     */
    private static void assignments(org.antlr.v4.runtime.tree.ParseTree t, List<String> keys, List<Set<String>> from) {
        if (t instanceof org.antlr.v4.runtime.tree.TerminalNode || t instanceof LambdaContext) return;
        if (t instanceof AssignExprContext) {
            AssignExprContext as = (AssignExprContext) t;
            String k = storage(as.expression(0));
            if (k != null) {
                Set<String> r = new HashSet<>();
                if (as.expression().size() > 1) reads(as.expression(1), r);
                if (as.bracedInitList() != null) reads(as.bracedInitList(), r);
                if (as.assignOp().ASSIGN() == null) r.add(k);
                keys.add(k);
                from.add(r);
            }
        } else if (t instanceof InitDeclaratorContext) {
            InitDeclaratorContext d = (InitDeclaratorContext) t;
            String k = ParseTrees.declName(d.declarator());
            if (k != null && d.initializer() != null) {
                Set<String> r = new HashSet<>();
                reads(d.initializer(), r);
                keys.add(k);
                from.add(r);
            }
        }
        for (int i = 0; i < t.getChildCount(); i++) assignments(t.getChild(i), keys, from);
    }

    /**
     * {@code acc += addend} where the addend is a constant expression or a choice between a constant and zero
     * ({@code w > t ? c : 0}, {@code w > t ? 0 : c}) and the function gives {@code acc} no other value than a
     * constant initialiser ({@code float fCount = 0;}) and this update; null for anything else.
     */
    private FunctionFacts.ConstantSum constantSum(String acc, ExpressionContext addend) {
        Double step = constantTerm(addend);
        if (step == null) return null;
        List<PToken> toks = a.tokens();
        Double initial = null;
        int updates = 0;
        for (int i = 0; i < toks.size(); i++) {
            PToken t = toks.get(i);
            if (t.getType() != dev.numlint.cuda.parser.CudaLexer.IDENTIFIER
                    || !t.getText().equals(acc)) continue;
            int prev = i > 0 ? toks.get(i - 1).getType() : -1;
            if (prev == dev.numlint.cuda.parser.CudaLexer.DOT || prev == dev.numlint.cuda.parser.CudaLexer.ARROW) {
                continue; // a member of that name: another variable
            }
            if (prev == dev.numlint.cuda.parser.CudaLexer.PLUS_PLUS
                    || prev == dev.numlint.cuda.parser.CudaLexer.MINUS_MINUS
                    || prev == dev.numlint.cuda.parser.CudaLexer.AMP) {
                return null;
            }
            int next = i + 1 < toks.size() ? toks.get(i + 1).getType() : -1;
            switch (next) {
                case dev.numlint.cuda.parser.CudaLexer.PLUS_ASSIGN -> updates++;
                case dev.numlint.cuda.parser.CudaLexer.ASSIGN -> {
                    if (initial != null) return null;
                    StringBuilder v = new StringBuilder();
                    int j = i + 2;
                    for (; j < toks.size(); j++) {
                        int ty = toks.get(j).getType();
                        if (ty == dev.numlint.cuda.parser.CudaLexer.SEMI
                                || ty == dev.numlint.cuda.parser.CudaLexer.COMMA) {
                            break;
                        }
                        v.append(toks.get(j).getText());
                    }
                    initial = Literals.value(v.toString());
                    if (initial == null) return null;
                }
                case dev.numlint.cuda.parser.CudaLexer.PLUS_PLUS,
                        dev.numlint.cuda.parser.CudaLexer.MINUS_MINUS,
                        dev.numlint.cuda.parser.CudaLexer.MINUS_ASSIGN,
                        dev.numlint.cuda.parser.CudaLexer.STAR_ASSIGN,
                        dev.numlint.cuda.parser.CudaLexer.DIV_ASSIGN,
                        dev.numlint.cuda.parser.CudaLexer.MOD_ASSIGN -> {
                    return null;
                }
                default -> {}
            }
        }
        return initial != null && updates == 1 ? new FunctionFacts.ConstantSum(initial, step) : null;
    }

    private Double constantTerm(ExpressionContext addend) {
        ExpressionContext e = stripParens(addend);
        E v = a.memo.get(e);
        if (v != null && v.cval != null) return v.cval;
        if (!(e instanceof CondExprContext)) return null;
        CondExprContext c = (CondExprContext) e;
        if (c.commaExpression().expression().size() != 1) return null;
        E x = a.memo.get(c.commaExpression().expression(0));
        E y = a.memo.get(c.expression(1));
        if (x == null || y == null || x.cval == null || y.cval == null) return null;
        if (y.cval == 0) return x.cval;
        if (x.cval == 0) return y.cval;
        return null;
    }

    private static final java.util.regex.Pattern LAUNCH_SIZE =
            java.util.regex.Pattern.compile("\\b(gridDim|blockDim)\\b");
    private static final java.util.regex.Pattern STEP =
            java.util.regex.Pattern.compile("\\b([A-Za-z_]\\w*)\\s*(?:\\+=\\s*([^;{}]+)|=\\s*\\1\\s*\\+\\s*([^;{}]+))");

    /**
     * Whether {@code loop} steps an integer by the grid or block size ({@code i += blockDim.x * gridDim.x}, or by a
     * local computed from them, {@code i += gridSize}): each thread then sums its share of a parallel reduction, in
     * another order than a serial CPU loop. {@code acc} (the accumulator) is not a step.
     */
    private boolean stepsByLaunchSize(ParserRuleContext loop, String acc) {
        String loopText = a.text(loop);
        java.util.regex.Matcher m = STEP.matcher(loopText);
        while (m.find()) {
            String var = m.group(1);
            if (var.equals(acc)) continue;
            Local l = a.lookup(var);
            if (l != null && l.type != null && !l.type.isInteger()) continue;
            String step = m.group(2) != null ? m.group(2) : m.group(3);
            if (LAUNCH_SIZE.matcher(step).find()) return true;
            java.util.regex.Matcher n =
                    java.util.regex.Pattern.compile("\\b[A-Za-z_]\\w*\\b").matcher(step);
            while (n.find()) {
                if (launchSizeLocal(n.group())) return true;
            }
        }
        return false;
    }

    /** A local of the function whose initialiser or assignment reads gridDim or blockDim. */
    private boolean launchSizeLocal(String name) {
        if (a.lookup(name) == null) return false;
        java.util.regex.Matcher d = java.util.regex.Pattern.compile(
                        "\\b" + java.util.regex.Pattern.quote(name) + "\\s*=\\s*([^;{}]+)")
                .matcher(a.functionText());
        while (d.find()) if (LAUNCH_SIZE.matcher(d.group(1)).find()) return true;
        return false;
    }

    /**
     * Whether every iteration of {@code loop} gives the elements {@code base[...]} a fresh value: an assignment in
     * its body, outside any condition, whose indices are the accumulator's own index expressions or induction
     * variables of {@code for} loops around the assignment inside the body (a sweep {@code for (j...) sum[j] = 0.f}),
     * of a constant, or, for the accumulator's own element, of a value that owes nothing to the array
     * ({@code field[i] = rawfield[i]; ... field[i] += rawfield[i + n];}: at most two terms, no sum the loop carries;
     * see {@link #dependsOn}).
     */
    /**
     * Whether a statement before the update, in a block around it inside {@code lp}, overwrites {@code base} in every
     * iteration of {@code lp} that reaches the update ({@code if (g > 0) { r2 = 0; for (j...) r2 += r[j]*r[j]; }}
     * restarts the sum in each iteration: the j loop carries it, not lp). A label between them (a {@code case}, a
     * {@code goto} target) can enter the block past the reset.
     */
    private boolean resetBefore(Loop lp, ParserRuleContext update, String base) {
        ParserRuleContext child = update;
        for (ParserRuleContext p = update.getParent(); p != null && p != lp.node; child = p, p = p.getParent()) {
            if (!(p instanceof CompoundStatementContext block)) continue;
            Set<String> out = new HashSet<>();
            for (StatementContext s : block.statement()) {
                if (s == child) break;
                if (s instanceof LabelStmtContext || s instanceof GotoLabelStmtContext) out.clear();
                else collectOverwritten(s, out, a.scope.outParams);
            }
            if (out.contains(base)) return true;
        }
        return false;
    }

    private boolean resetsElements(ParserRuleContext loop, String base, List<String> idxTexts) {
        StatementContext body = loop instanceof ForStmtContext
                ? ((ForStmtContext) loop).statement()
                : loop instanceof WhileStmtContext
                        ? ((WhileStmtContext) loop).statement()
                        : loop instanceof DoStmtContext ? ((DoStmtContext) loop).statement() : null;
        return body != null && resets(body, base, idxTexts, new HashSet<>(), loop);
    }

    private boolean resets(
            StatementContext s, String base, List<String> idxTexts, Set<String> sweep, ParserRuleContext loop) {
        if (s instanceof BlockStmtContext) {
            for (StatementContext x : ((BlockStmtContext) s).compoundStatement().statement()) {
                if (resets(x, base, idxTexts, sweep, loop)) return true;
            }
        } else if (s instanceof ForStmtContext) {
            ForStmtContext f = (ForStmtContext) s;
            Set<String> inner = new HashSet<>(sweep);
            if (f.commaExpression() != null) collectModified(f.commaExpression(), inner);
            return resets(f.statement(), base, idxTexts, inner, loop);
        } else if (s instanceof ExprStmtContext && ((ExprStmtContext) s).commaExpression() != null) {
            for (ExpressionContext e : ((ExprStmtContext) s).commaExpression().expression()) {
                if (!(e instanceof AssignExprContext)) continue;
                AssignExprContext as = (AssignExprContext) e;
                if (as.assignOp().ASSIGN() == null || as.expression().size() < 2) continue;
                List<String> ix = new ArrayList<>();
                ExpressionContext b = stripParens(as.expression(0));
                while (b instanceof IndexExprContext) {
                    ix.add(a.text(
                            stripParens(((IndexExprContext) b).commaExpression().expression(0))));
                    b = stripParens(((IndexExprContext) b).expression());
                }
                if (!base.equals(simpleName(b)) || ix.size() != idxTexts.size()) continue;
                // a constant resets any element; a value that owes nothing to the array, directly or through values
                // the loop computes (field[i] = rawfield[i], not xj[x] resampled from arrayX), resets the
                // accumulator's own element
                boolean own = ix.equals(idxTexts);
                if (!constant(as.expression(1)) && !(own && !dependsOn(base, List.of(as.expression(1)), loop)))
                    continue;
                boolean all = true;
                for (int k = 0; k < ix.size(); k++) {
                    if (!ix.get(k).equals(idxTexts.get(k)) && !sweep.contains(ix.get(k))) all = false;
                }
                if (all) return true;
            }
        }
        return false;
    }

    /** A literal, possibly signed, cast or parenthesised ({@code 0}, {@code 0.0f}, {@code (float) 0}, {@code -1}). */
    private static boolean constant(ExpressionContext e) {
        ExpressionContext p = stripParens(e);
        while (true) {
            if (p instanceof CastExprContext) p = stripParens(((CastExprContext) p).expression());
            else if (p instanceof UnaryExprContext
                    && (((UnaryExprContext) p).MINUS() != null || ((UnaryExprContext) p).PLUS() != null)) {
                p = stripParens(((UnaryExprContext) p).expression());
            } else break;
        }
        return p instanceof PrimaryExprContext && ((PrimaryExprContext) p).primary() instanceof LiteralPrimaryContext;
    }

    /** Names of macro constants (all capitals): values that do not change from one iteration to the next. */
    private static final java.util.regex.Pattern MACRO_CONSTANT = java.util.regex.Pattern.compile("[A-Z][A-Z0-9_]*");

    /**
     * Accumulators of measured times ({@code elapsedMs += t}, {@code totalTime += dt}) in benchmark code: their
     * summation order changes nothing anyone compares, so NL004 would be noise there.
     */

    /**
     * {@code u[i] += du[i]} inside {@code for (iter...) for (i...)}: the element index follows an enclosing loop and
     * the added term reads only names from outside the a.loops (no call, not the induction variable of the a.loops
     * that carry the sum). Each element gets one
     * term per outer iteration (an iterative solver's update), in the same order on CPU and GPU: no reduction.
     * {@code hist[i] += data[k][i]} over {@code k} mentions k and stays a finding.
     */
    private boolean elementwiseUpdate(
            Set<String> idxNames, Set<String> moveNames, ExpressionContext addend, int declDepth) {
        if (moveNames.isEmpty() || containsAny(addend, CallExprContext.class)) return false;
        int element = -1;
        Set<String> carrying = new HashSet<>();
        for (int i = declDepth; i < a.loops.size(); i++) {
            Loop lp = a.loops.get(i);
            boolean byIndex = false;
            for (String iv : lp.induction) if (moveNames.contains(iv)) byIndex = true;
            if (byIndex) element = i;
            else carrying.addAll(lp.induction);
        }
        if (element < 0) return false;
        Set<String> used = new HashSet<>();
        names(addend, used);
        for (String n : used) {
            if (carrying.contains(n)) return false;
            if (idxNames.contains(n)) continue; // the element index itself
            // a value computed inside the a.loops (a weight, a fetched sample) may be data summed over the outer
            // loop, as in a backprojection over angles: only arrays and values from outside the a.loops qualify
            Local l = a.lookup(n);
            if (l != null && l.loopDepth > declDepth) return false;
        }
        return true;
    }

    private CType ty(ExpressionContext target) {
        E t = a.memo.get(target);
        return t == null ? CType.UNKNOWN : t.type;
    }

    /**
     * Whether the added term can change from one iteration to the next: it reads an induction variable, a name
     * declared or modified inside the a.loops that carry the accumulator, an array element, a pointer target or a
     * call result. {@code angle += dy * 0.2f} in an event loop that never changes {@code dy} steps by a constant:
     * no summation over data, so no NL004.
     */
    private boolean variesWithLoop(ExpressionContext addend, int declDepth) {
        Set<String> used = new HashSet<>();
        if (!stepNames(addend, used)) return true;
        for (String n : used) {
            Local l = a.lookup(n);
            if (l != null && l.loopDepth > declDepth) return true; // declared inside the accumulating a.loops
            // unknown: keep, except ALL_CAPS names (macro constants from unread headers: M_PI, FLT_EPSILON)
            if (l == null
                    && a.scope.globals.get(n) == null
                    && !a.f.paramNames.contains(n)
                    && !MACRO_CONSTANT.matcher(n).matches()) {
                return true;
            }
            for (int i = declDepth; i < a.loops.size(); i++) {
                Loop lp = a.loops.get(i);
                if (lp.induction.contains(n) || lp.modified().contains(n)) return true;
            }
        }
        // unary * (pointer target) may change with any store
        return containsDeref(addend);
    }

    /**
     * The names a term reads, when it reads only names and fields of named structs ({@code fvz * fCa.z},
     * {@code geo.dVoxelX}): false when it reads an array element, calls, or follows a pointer, which may change
     * with any store.
     */
    private static boolean stepNames(org.antlr.v4.runtime.tree.ParseTree t, Set<String> out) {
        if (t instanceof IndexExprContext || t instanceof CallExprContext) return false;
        if (t instanceof MemberExprContext) {
            MemberExprContext m = (MemberExprContext) t;
            // s.f reads the struct s (modified in the loop when any field is); p->f reads memory
            return m.DOT() != null && stepNames(m.expression(), out);
        }
        if (t instanceof org.antlr.v4.runtime.tree.TerminalNode) {
            org.antlr.v4.runtime.Token k = ((org.antlr.v4.runtime.tree.TerminalNode) t).getSymbol();
            if (k.getType() == dev.numlint.cuda.parser.CudaLexer.IDENTIFIER) out.add(k.getText());
            return true;
        }
        for (int i = 0; i < t.getChildCount(); i++) if (!stepNames(t.getChild(i), out)) return false;
        return true;
    }

    /**
     * Whole-number terms (an integer expression, possibly cast to a floating type) added to a floating accumulator:
     * every partial sum is exact below 2^53 (double) or 2^24 (float), so the order of summation does not matter.
     */
    private boolean exactWholeTerms(ExpressionContext addend, CType acc) {
        if (!acc.isFpScalar()) return false;
        ExpressionContext e = stripParens(addend);
        while (e instanceof CastExprContext) e = stripParens(((CastExprContext) e).expression());
        E v = a.memo.get(e);
        return v != null && v.type != null && v.type.isInteger();
    }
}
