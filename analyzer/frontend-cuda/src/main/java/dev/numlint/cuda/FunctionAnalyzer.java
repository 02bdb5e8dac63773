package dev.numlint.cuda;

import static dev.numlint.cuda.ParseTrees.calleeName;
import static dev.numlint.cuda.ParseTrees.declName;
import static dev.numlint.cuda.ParseTrees.simpleName;
import static dev.numlint.cuda.ParseTrees.stripParens;
import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.cuda.facts.SourceDialect;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * The second level: walks one parsed function body with a scope of typed variables and computes its
 * {@link FunctionFacts} once: typed sites of conversions, divisions, contractions, accumulations (with their loops,
 * trip counts, guards and compensated sums), math calls, promotions, atomics, long doubles and tensor-core math.
 * Each site can follow its value through def-use ({@link ValueFlow}). The rules themselves are the checks in
 * {@link dev.numlint.cuda.checks}. Types are computed bottom-up (literal suffixes, declarations, usual arithmetic
 * conversions, the CUDA math table: {@link ValueModel}, {@link CallResults}); unknown types (template parameters,
 * system-header types) produce no sites.
 *
 * <p>This class is the walk: statements, declarations and expressions in order, with the scopes and loops of the
 * body ({@link FunctionBody}) and the reaching definitions of intervals ({@link ReachingDefinitions}). What a site is
 * and when it is recorded are the fact classes it calls ({@link ConversionSites}, {@link ContractionSites},
 * {@link AccumulationSites}, {@link PromotionSites}, {@link CallResults}, {@link ForLoopTrips}); they never call back.
 */
final class FunctionAnalyzer {
    private final FunctionBody body;
    private final List<PToken> toks;
    private final TokenFacts tokens;
    private final DefinitionIndex definitions;
    private final ReachingDefinitions reach;
    private final DeclaredTypes types;
    /** Parameter intervals from every call site ({@link CallSiteRanges}), by parameter index, or null. */
    private final double[][] paramRanges;
    /** Member/element lvalues assigned a range-limited value (rgba.x = __saturatef(rgba.x)). */
    private final ConversionSites conversions;

    private final PromotionSites promotions;
    private final ContractionSites contractions;
    private final AccumulationSites sums;
    private final CallResults callResults;
    private final ForLoopTrips trips;
    private final NameValues names;
    /** The function body, for how often a name is given a value. */
    private ParseTree bodyRoot;

    /** The random state of the body ({@link RandomVariates}), read once on first request. */
    private RandomVariates variates;

    /** Local generators and distributions of the body ({@code dist(gen)} draws). */
    private final Set<String> generatorVars;

    FunctionAnalyzer(FileScope scope, TopLevelSplitter.FunctionDef f, List<PToken> toks, SourceDialect dialect) {
        this(scope, f, toks, dialect, null, null);
    }

    /** The call sites this body makes are reported to {@code calls}; {@code paramRanges} as {@link #paramRanges}. */
    FunctionAnalyzer(
            FileScope scope,
            TopLevelSplitter.FunctionDef f,
            List<PToken> toks,
            SourceDialect dialect,
            CallSiteRanges calls,
            double[][] paramRanges) {
        this.paramRanges = paramRanges;
        this.toks = toks;
        IdentityHashMap<ParserRuleContext, E> memo = new IdentityHashMap<>(Math.max(32, toks.size() / 2));
        BodyText text = new BodyText(toks);
        // generators: library and project functions, and local <random> distributions and engines (dist(gen))
        // a translation unit that never draws declares no generator variable (RandomDraws.propagate looked at
        // every name before a declarator in its tokens, this body's among them): its bodies are not scanned again
        Set<String> generatorVars = scope.draws ? RandomDraws.generatorVariables(toks) : Set.of();
        this.generatorVars = generatorVars;
        ValueFlow flow = new ValueFlow(
                memo,
                text::text,
                name -> RandomDraws.draws(name, scope) || generatorVars.contains(name),
                () -> scope.draws || !generatorVars.isEmpty() ? variates() : null);
        this.tokens = new TokenFacts(toks);
        this.body = new FunctionBody(scope, f, text, memo, flow, tokens.compensated);
        this.definitions = new DefinitionIndex(toks);
        this.reach = new ReachingDefinitions(toks, scope, calls, definitions);
        this.types = new DeclaredTypes(toks, scope, f);
        this.conversions = new ConversionSites(body);
        this.promotions = new PromotionSites(body);
        this.contractions = new ContractionSites(body, promotions);
        this.sums = new AccumulationSites(body);
        this.callResults = new CallResults(body, conversions, calls, dialect);
        this.trips = new ForLoopTrips(body, definitions);
        this.names = new NameValues(body, reach, tokens.guardedVars);
    }

    private RandomVariates variates() {
        if (variates == null) {
            TopLevelSplitter.FunctionDef f = body.f;
            variates = new RandomVariates(
                    toks,
                    0,
                    toks.size() - 2,
                    f.className == null ? f.name : null,
                    f.paramNames,
                    body.scope,
                    generatorVars);
        }
        return variates;
    }

    /**
     * The lines of this function, if it runs on the device, whose arithmetic computes random variates ({@link
     * RandomVariates#variateLines}); empty for host code.
     */
    Set<Integer> variateLines() {
        // a translation unit that never draws has no random variates: its functions are not scanned for them
        if (!body.f.runsOnDevice() || !body.scope.draws) return Set.of();
        return variates().variateLines(body.integers);
    }

    // ------------------------------------------------------------------ driver
    FunctionFacts analyze(FunctionBodyContext root) {
        TopLevelSplitter.FunctionDef f = body.f;
        body.flow.setRoot(root);
        bodyRoot = root;
        definitions.setRoot(root);
        Map<String, Local> params = new HashMap<>();
        for (int i = 0; i < f.paramNames.size(); i++) {
            String n = f.paramNames.get(i);
            if (n == null) continue;
            Local p = new Local(n, f.paramTypes.get(i), 0, null, f.line);
            params.put(n, p);
            if (FunctionBody.integral(f.paramTypes.get(i))) body.integers.add(n);
            if (f.refParams.get(i)) reach.alias(n); // a reference parameter: another name may write it
            else if (paramRanges != null && i < paramRanges.length && paramRanges[i] != null) {
                E v = E.of(CType.DOUBLE);
                v.lo = paramRanges[i][0];
                v.hi = paramRanges[i][1];
                reach.define(p, v); // the union of what every call site passes
            }
        }
        body.scopes.push(params);
        if (f.longDoubleLine > 0 && body.host) {
            conversions.longDouble(
                    new Reporter.Pos(f.longDoubleLine, f.longDoubleCol, f.longDoubleLine, 0),
                    f.longDoubleWhat,
                    f.longDoubleWhat);
        }
        block(root.compoundStatement());
        body.scopes.pop();
        new TensorMathFacts(toks, body.facts, body.device, body.host, body::text).scan();
        return body.facts;
    }

    private void block(CompoundStatementContext c) {
        body.scopes.push(new HashMap<>());
        for (StatementContext s : c.statement()) statement(s);
        popScope();
    }

    /** Leaves a scope: its locals' reaching definitions go with it. */
    private void popScope() {
        reach.leave(body.scopes.pop().values());
    }

    // ------------------------------------------------------------------ statements
    private void statement(StatementContext s) {
        dev.numlint.model.WorkBudget.check();
        if (s instanceof BlockStmtContext) {
            block(((BlockStmtContext) s).compoundStatement());
        } else if (s instanceof ExprStmtContext) {
            CommaExpressionContext ce = ((ExprStmtContext) s).commaExpression();
            List<ParserRuleContext> mine = new ArrayList<>();
            for (ExpressionContext e : ce.expression()) {
                ExpressionContext p = stripParens(e);
                if (p instanceof AssignExprContext
                        && ((AssignExprContext) p).assignOp().ASSIGN() != null
                        && ((AssignExprContext) p).bracedInitList() == null
                        && simpleName(((AssignExprContext) p).expression(0)) != null) {
                    mine.add(p);
                }
            }
            reach.topAssigns.addAll(mine);
            ReachingDefinitions.Writes w = reach.writtenBy(ce, reach.topAssigns);
            w.forget();
            commaExpr(ce);
            w.forget();
            mine.forEach(reach.topAssigns::remove);
        } else if (s instanceof DeclStmtContext) {
            SimpleDeclarationContext d = ((DeclStmtContext) s).simpleDeclaration();
            ReachingDefinitions.Writes w = reach.writtenBy(d, Set.of(d));
            w.forget();
            simpleDeclaration(d);
            w.forget();
        } else if (s instanceof IfStmtContext) {
            IfStmtContext c = (IfStmtContext) s;
            body.scopes.push(new HashMap<>());
            ReachingDefinitions.Writes w = reach.writtenBy(c.condition(), Set.of());
            w.forget();
            condition(c.condition());
            w.forget();
            IdentityHashMap<Local, double[]> before = reach.state();
            scoped(c.statement(0));
            if (c.statement().size() > 1) {
                IdentityHashMap<Local, double[]> afterThen = reach.state();
                reach.restore(before);
                scoped(c.statement(1));
                reach.join(afterThen);
            } else {
                reach.join(before);
            }
            body.scopes.pop();
        } else if (s instanceof ForStmtContext) {
            forStmt((ForStmtContext) s);
            reach.modifiedBy(s).forget();
        } else if (s instanceof WhileStmtContext) {
            WhileStmtContext c = (WhileStmtContext) s;
            ReachingDefinitions.Writes mod = reach.modifiedBy(c);
            mod.forget();
            body.scopes.push(new HashMap<>());
            Loop l = new Loop(c.start.getLine(), c);
            condition(c.condition());
            mod.forget();
            loop(l, c.statement());
            body.scopes.pop();
            mod.forget();
        } else if (s instanceof DoStmtContext) {
            DoStmtContext c = (DoStmtContext) s;
            ReachingDefinitions.Writes mod = reach.modifiedBy(c);
            mod.forget();
            loop(new Loop(c.start.getLine(), c), c.statement());
            ReachingDefinitions.Writes w = reach.writtenBy(c.commaExpression(), Set.of());
            w.forget();
            commaExpr(c.commaExpression());
            w.forget();
            // the loop leaves only after its condition: the body's end state holds there unless a jump leaves earlier
            if (!reach.isEmpty() && jumps(c)) mod.forget();
        } else if (s instanceof RangeForStmtContext) {
            RangeForStmtContext c = (RangeForStmtContext) s;
            body.scopes.push(new HashMap<>());
            if (c.expression() != null) expr(c.expression());
            ReachingDefinitions.Writes mod = reach.modifiedBy(c);
            mod.forget();
            CType base = types.specType(c.declSpecifierSeq());
            body.declare(declName(c.declarator()), base == null ? CType.UNKNOWN : base, null, c.start.getLine());
            Loop rl = new Loop(c.start.getLine(), c);
            String rv = declName(c.declarator());
            if (rv != null) rl.induction.add(rv);
            loop(rl, c.statement());
            body.scopes.pop();
            mod.forget();
        } else if (s instanceof SwitchStmtContext) {
            SwitchStmtContext c = (SwitchStmtContext) s;
            body.scopes.push(new HashMap<>());
            ReachingDefinitions.Writes mod = reach.modifiedBy(c);
            mod.forget();
            condition(c.condition());
            mod.forget();
            reach.enterSwitch(mod);
            scoped(c.statement());
            reach.leaveSwitch();
            mod.forget();
            body.scopes.pop();
        } else if (s instanceof AsmStmtContext) {
            reach.forgetWrittenIn(s);
        } else if (s instanceof ReturnStmtContext) {
            ReturnStmtContext c = (ReturnStmtContext) s;
            if (c.commaExpression() != null) {
                TopLevelSplitter.FunctionDef f = body.f;
                E v = commaExpr(c.commaExpression());
                ExpressionContext last = c.commaExpression()
                        .expression(c.commaExpression().expression().size() - 1);
                conversions.convert(f.ret, v, last, () -> "return from '" + f.name + "'", false);
                promotions.promotion(f.ret, v, last, () -> "the float return value of '" + f.name + "'");
            } else if (c.bracedInitList() != null) {
                braced(c.bracedInitList());
            }
        } else if (s instanceof TryStmtContext) {
            ReachingDefinitions.Writes mod = reach.modifiedBy(s);
            for (CompoundStatementContext b : ((TryStmtContext) s).compoundStatement()) {
                mod.forget(); // a handler starts from any point of the try block
                block(b);
            }
            mod.forget();
        } else if (s instanceof LabelStmtContext) {
            LabelStmtContext c = (LabelStmtContext) s;
            if (c.expression() != null) expr(c.expression());
            // a case label is entered from the switch as well as from the statement before it
            reach.caseLabel();
        } else if (s instanceof TypedefStmtContext) {
            TypedefStmtContext c = (TypedefStmtContext) s;
            CType base = types.specType(c.declSpecifierSeq());
            for (InitDeclaratorContext d : c.initDeclaratorList().initDeclarator()) {
                String n = declName(d.declarator());
                if (n != null)
                    body.scope.typedefs.putIfAbsent(
                            n, DeclaredTypes.declType(base, d.declarator()).alias(n));
            }
        }
    }

    /** The body of loop {@code l}, walked with {@code l} around it. */
    private void loop(Loop l, StatementContext s) {
        body.loops.add(l);
        scoped(s);
        body.loops.remove(body.loops.size() - 1);
    }

    /** Whether {@code c} holds a break, continue or goto (which may leave a loop before its condition). */
    private static boolean jumps(ParserRuleContext c) {
        for (int i = 0; i < c.getChildCount(); i++) {
            ParseTree x = c.getChild(i);
            if (x instanceof JumpStmtContext || x instanceof GotoStmtContext) return true;
            if (x instanceof ParserRuleContext && jumps((ParserRuleContext) x)) return true;
        }
        return false;
    }

    private void scoped(StatementContext s) {
        body.scopes.push(new HashMap<>());
        statement(s);
        popScope();
    }

    private void condition(ConditionContext c) {
        if (c.commaExpression() != null) {
            commaExpr(c.commaExpression());
        } else {
            CType base = types.specType(c.declSpecifierSeq());
            E v = expr(c.expression());
            CType t = DeclaredTypes.declType(base == null ? v.type : base, c.declarator());
            body.declare(declName(c.declarator()), t, v.cval, c.start.getLine());
        }
    }

    private void forStmt(ForStmtContext c) {
        body.scopes.push(new HashMap<>());
        Loop l = new Loop(c.start.getLine(), c);
        ForInitContext init = c.forInit();
        if (init.simpleDeclaration() != null) simpleDeclaration(init.simpleDeclaration());
        else if (init.commaExpression() != null) commaExpr(init.commaExpression());
        reach.modifiedBy(c).forget(); // the condition and the body see every iteration's values
        if (c.condition() != null) condition(c.condition());
        if (c.commaExpression() != null) commaExpr(c.commaExpression());
        trips.count(c, l);
        loop(l, c.statement());
        body.scopes.pop();
    }

    // ------------------------------------------------------------------ declarations
    private void simpleDeclaration(SimpleDeclarationContext d) {
        CType base = types.specType(d.declSpecifierSeq());
        boolean isConst = DeclaredTypes.hasConst(d.declSpecifierSeq());
        // a static local keeps its value from the previous call (its initializer runs once); an extern one is global
        boolean lasting = false;
        for (DeclSpecifierContext ds : d.declSpecifierSeq().declSpecifier()) {
            StorageSpecifierContext st = ds.storageSpecifier();
            if (st != null && (st.STATIC() != null || st.EXTERN() != null || st.THREAD_LOCAL() != null)) lasting = true;
        }
        for (InitDeclaratorContext id : d.initDeclarator()) {
            DeclaratorContext dc = id.declarator();
            String name = declName(dc);
            if (DeclaredTypes.isFunctionDeclarator(dc)) continue;
            CType t = DeclaredTypes.declType(base, dc);
            InitializerContext ini = id.initializer();
            E v = null;
            ExpressionContext initExpr = null;
            if (ini != null) {
                if (ini.initializerClause() != null) {
                    if (ini.initializerClause().expression() != null) {
                        initExpr = ini.initializerClause().expression();
                        v = expr(initExpr);
                    } else {
                        braced(ini.initializerClause().bracedInitList());
                    }
                } else if (ini.bracedInitList() != null) {
                    braced(ini.bracedInitList());
                } else if (ini.argumentList() != null) {
                    List<ArgumentContext> args = ini.argumentList().argument();
                    for (ArgumentContext a : args) argument(a);
                    if (args.size() == 1 && args.get(0).expression() != null) {
                        initExpr = args.get(0).expression();
                        v = body.memo.get(initExpr);
                    }
                }
            }
            if (base == null) t = DeclaredTypes.declType(v == null ? CType.UNKNOWN : v.type, dc); // auto
            int line = dc.start.getLine();
            if (v != null && initExpr != null) {
                conversions.convert(t, v, initExpr, () -> "initialization of '" + name + "'", false);
                if (v.guarded && tokens.writes(name) <= 1) tokens.assigned(name, t, name, v.guard, line);
                promotions.promotion(t, v, initExpr, () -> "float '" + name + "'");
            }
            if (t.kind == CType.Kind.LONG_DOUBLE && body.host) {
                conversions.longDouble(
                        Reporter.Pos.of(dc.start, dc.stop),
                        "'" + name + "'",
                        "long double " + name,
                        ConversionSites.longDoubleOrigin(d.declSpecifierSeq(), base));
            }
            body.flow.declTypes.put(id, t);
            if (lasting && name != null) reach.alias(name);
            Local l = body.declare(name, t, isConst && v != null ? v.cval : null, line);
            if (l != null && v != null && initExpr != null) reach.define(l, v);
            if (l != null && v != null && initExpr != null && tokens.writes(name) == 1 && !reach.aliased(name)) {
                // the initializer is the variable's only definition: its interval is the variable's
                E held = E.of(t);
                if (t.isInteger()) Intervals.set(held, ValueModel.trunc(v.lo), ValueModel.trunc(v.hi));
                else if (t.isFloating()) Intervals.set(held, v.lo, v.hi);
                l.lo = held.lo;
                l.hi = held.hi;
                // a float value held in a double (double da = a): exact products, fused or not
                l.floatValued = t.isFpScalar() && promotions.floatValued(initExpr);
            }
            if (l != null && v != null && initExpr != null) {
                l.scopeNode = DeclaredTypes.declarationScope(d, bodyRoot);
                l.nonNegInit = v.nonNeg || v.type.isUnsignedInt() || (v.cval != null && v.cval >= 0);
                // set once from a whole number (float r = (float) k, k a bounded counter): r is that whole number;
                // from one of a few exact values (float up = u > 0 ? 1.0f : 0.0f): r takes those values
                boolean once = l.scopeNode != null && definitions.defs(l.scopeNode, name) == 1;
                Double m = E.wholeBound(v);
                if (m != null && (t.isFpScalar() || t.isInteger()) && m <= ValueModel.wholeLimit(t) && once)
                    l.intBound = m;
                if (once) l.values = ValueSets.converted(ValueSets.of(v), t);
            }
            if (l != null && initExpr != null && t.isFpScalar() && tokens.uses(name) == 2) {
                ExpressionContext p = stripParens(initExpr);
                if (p instanceof MulExprContext
                        && ((MulExprContext) p).STAR() != null
                        && v.type.kind == t.kind // a double product stored in a float is rounded: no fusing
                        && !contractions.exactProduct((MulExprContext) p)) {
                    l.product = body.text(p);
                }
            }
        }
    }

    private void braced(BracedInitListContext b) {
        if (b == null) return;
        for (InitItemContext it : b.initItem()) {
            InitializerClauseContext c = it.initializerClause();
            if (c.expression() != null) expr(c.expression());
            else braced(c.bracedInitList());
            for (ExpressionContext e : it.expression()) expr(e);
        }
    }

    // ------------------------------------------------------------------ expressions
    private E commaExpr(CommaExpressionContext c) {
        E last = E.UNKNOWN;
        for (ExpressionContext e : c.expression()) last = expr(e);
        return last;
    }

    private E argument(ArgumentContext a) {
        if (a.expression() != null) return expr(a.expression());
        braced(a.bracedInitList());
        return E.UNKNOWN;
    }

    private E expr(ExpressionContext e) {
        dev.numlint.model.WorkBudget.check();
        E r;
        try {
            r = exprInner(e);
        } catch (dev.numlint.model.WorkBudget.Exceeded ex) {
            throw ex;
        } catch (RuntimeException ex) {
            r = E.UNKNOWN;
        }
        if (r != E.UNKNOWN) {
            if (r.cval != null && !r.cval.isNaN()) {
                r.lo = r.cval;
                r.hi = r.cval;
            } else {
                Intervals.byType(r);
            }
        }
        body.memo.put(e, r);
        return r;
    }

    private E exprInner(ExpressionContext e) {
        if (e instanceof PrimaryExprContext) return primary(((PrimaryExprContext) e).primary());
        if (e instanceof MulExprContext) return mul((MulExprContext) e);
        if (e instanceof AddExprContext) return add((AddExprContext) e);
        if (e instanceof AssignExprContext) return assign((AssignExprContext) e);
        if (e instanceof CallExprContext) return call((CallExprContext) e);
        if (e instanceof IndexExprContext) {
            IndexExprContext c = (IndexExprContext) e;
            E base = expr(c.expression());
            commaExpr(c.commaExpression());
            CType t = base.type.kind == CType.Kind.POINTER ? base.type.elem : CType.UNKNOWN;
            return guardedText(leaf(t, null), c);
        }
        if (e instanceof MemberExprContext) {
            MemberExprContext c = (MemberExprContext) e;
            E base = expr(c.expression());
            CType bt = base.type;
            if (c.ARROW() != null && bt.kind == CType.Kind.POINTER) bt = bt.elem;
            String m = c.qualifiedName() != null ? c.qualifiedName().getStop().getText() : null;
            CType t = m == null ? CType.UNKNOWN : bt.member(m, body.scope.structs);
            return guardedText(leaf(t, null), c);
        }
        if (e instanceof UnaryExprContext) {
            UnaryExprContext c = (UnaryExprContext) e;
            return ValueModel.unary(c, expr(c.expression()), tokens.guardedVars);
        }
        if (e instanceof PostIncExprContext)
            return ValueModel.postIncrement(expr(((PostIncExprContext) e).expression()));
        if (e instanceof CastExprContext) {
            CastExprContext c = (CastExprContext) e;
            return conversions.cast(
                    types.typeOf(c.typeId()),
                    expr(c.expression()),
                    c,
                    c.expression(),
                    () -> "(" + body.text(c.typeId()) + ")");
        }
        if (e instanceof ParenCastExprContext) {
            ParenCastExprContext c = (ParenCastExprContext) e;
            E v = commaExpr(c.commaExpression());
            ExpressionContext last = c.commaExpression()
                    .expression(c.commaExpression().expression().size() - 1);
            return conversions.cast(types.typeOf(c.typeId()), v, c, last, () -> "(" + body.text(c.typeId()) + ")");
        }
        if (e instanceof NamedCastExprContext) {
            NamedCastExprContext c = (NamedCastExprContext) e;
            E v = expr(c.expression());
            if (c.STATIC_CAST() == null) return E.of(types.typeOf(c.typeId()));
            return conversions.cast(
                    types.typeOf(c.typeId()), v, c, c.expression(), () -> "static_cast<" + body.text(c.typeId()) + ">");
        }
        if (e instanceof FunctionalCastExprContext) {
            FunctionalCastExprContext c = (FunctionalCastExprContext) e;
            int typeEnd = c.builtinType(c.builtinType().size() - 1).stop.getTokenIndex();
            CType t = types.specType(c.start.getTokenIndex(), typeEnd);
            if (c.argumentList() != null
                    && c.argumentList().argument().size() == 1
                    && c.argumentList().argument(0).expression() != null) {
                ExpressionContext a = c.argumentList().argument(0).expression();
                E v = expr(a);
                return conversions.cast(t, v, c, a, () -> body.text(c.start.getTokenIndex(), typeEnd));
            }
            if (c.argumentList() != null)
                for (ArgumentContext a : c.argumentList().argument()) argument(a);
            braced(c.bracedInitList());
            return E.of(t == null ? CType.UNKNOWN : t);
        }
        if (e instanceof CondExprContext) {
            CondExprContext c = (CondExprContext) e;
            expr(c.expression(0));
            E a = commaExpr(c.commaExpression());
            E b = expr(c.expression(1));
            return ValueModel.conditional(c.expression(0), a, b);
        }
        if (e instanceof RelExprContext
                || e instanceof EqExprContext
                || e instanceof AndExprContext
                || e instanceof OrExprContext) {
            for (int i = 0; i < e.getChildCount(); i++) {
                if (e.getChild(i) instanceof ExpressionContext) expr((ExpressionContext) e.getChild(i));
            }
            return E.of(CType.BOOL);
        }
        if (e instanceof ShiftExprContext
                || e instanceof BitAndExprContext
                || e instanceof BitOrExprContext
                || e instanceof BitXorExprContext) {
            E a = expr((ExpressionContext) e.getChild(0));
            E b = expr((ExpressionContext) e.getChild(e.getChildCount() - 1));
            return ValueModel.bitwise(e, a, b);
        }
        if (e instanceof SizeofExprContext) {
            SizeofExprContext c = (SizeofExprContext) e;
            if (c.expression() != null) expr(c.expression());
            return E.of(Builtins.TYPES.get("size_t"));
        }
        if (e instanceof LaunchExprContext) {
            LaunchExprContext c = (LaunchExprContext) e;
            expr(c.expression());
            for (ArgumentListContext al : c.argumentList()) for (ArgumentContext a : al.argument()) argument(a);
            return E.UNKNOWN;
        }
        if (e instanceof NewExprContext) {
            NewExprContext c = (NewExprContext) e;
            for (ArgumentListContext al : c.argumentList()) for (ArgumentContext a : al.argument()) argument(a);
            return E.of(CType.pointer(types.typeOf(c.typeId())));
        }
        if (e instanceof DeleteExprContext) {
            expr(((DeleteExprContext) e).expression());
            return E.of(CType.VOID);
        }
        if (e instanceof ThrowExprContext) {
            if (((ThrowExprContext) e).expression() != null) expr(((ThrowExprContext) e).expression());
            return E.UNKNOWN;
        }
        if (e instanceof PtrMemberExprContext) {
            PtrMemberExprContext c = (PtrMemberExprContext) e;
            expr(c.expression(0));
            expr(c.expression(1));
            return E.UNKNOWN;
        }
        return E.UNKNOWN;
    }

    private E guardedText(E r, ExpressionContext c) {
        if (!tokens.guardedTexts.isEmpty() && r.type.isFpScalar() && tokens.guardedTexts.containsKey(body.text(c))) {
            r.guarded = true;
            r.guard = tokens.guardedTexts.get(body.text(c));
            r.compared = true;
        }
        return r;
    }

    private E leaf(CType t, String var) {
        return ValueModel.leaf(t, var, tokens.guardedVars);
    }

    private E primary(PrimaryContext p) {
        if (p instanceof LiteralPrimaryContext) return ValueModel.literal(((LiteralPrimaryContext) p).literal());
        if (p instanceof StringPrimaryContext) return E.of(CType.pointer(CType.CHAR));
        if (p instanceof KeywordPrimaryContext) {
            KeywordPrimaryContext k = (KeywordPrimaryContext) p;
            StructInfo cls = body.cls;
            if (k.THIS() != null) return E.of(cls == null ? CType.UNKNOWN : CType.pointer(CType.struct(cls.name)));
            if (k.NULLPTR() != null) return E.of(CType.pointer(CType.VOID));
            E r = E.of(CType.BOOL);
            r.cval = k.TRUE() != null ? 1.0 : 0.0;
            return r;
        }
        if (p instanceof ParenPrimaryContext) {
            E v = commaExpr(((ParenPrimaryContext) p).commaExpression());
            E r = ValueModel.copy(v);
            r.var = v.var;
            return r;
        }
        if (p instanceof LambdaPrimaryContext) {
            lambda(((LambdaPrimaryContext) p).lambda());
            return E.UNKNOWN;
        }
        if (p instanceof BracedCtorPrimaryContext) {
            BracedCtorPrimaryContext b = (BracedCtorPrimaryContext) p;
            braced(b.bracedInitList());
            CType t = body.scope.lookupType(b.qualifiedName().getStop().getText());
            return E.of(t == null ? CType.UNKNOWN : t);
        }
        if (p instanceof NamePrimaryContext) {
            QualifiedNameContext q = ((NamePrimaryContext) p).qualifiedName();
            return names.value(q);
        }
        if (p instanceof StmtExprPrimaryContext) {
            block(((StmtExprPrimaryContext) p).compoundStatement());
            return E.UNKNOWN;
        }
        return E.UNKNOWN;
    }

    private void lambda(LambdaContext l) {
        boolean saveD = body.device;
        boolean saveH = body.host;
        if (!l.DEVICE().isEmpty()) {
            body.device = true;
            body.host = !l.HOST().isEmpty();
        }
        Map<String, Local> ps = new HashMap<>();
        if (l.parameterList() != null) {
            for (ParameterContext pc : l.parameterList().parameter()) {
                CType base = types.specType(pc.declSpecifierSeq());
                if (pc.declarator() != null) {
                    String n = declName(pc.declarator());
                    if (n != null)
                        ps.put(
                                n,
                                new Local(
                                        n,
                                        DeclaredTypes.declType(base, pc.declarator()),
                                        body.loops.size(),
                                        null,
                                        pc.start.getLine()));
                }
            }
        }
        // a lambda body runs per call: loops outside it do not carry its accumulators
        List<Loop> saved = new ArrayList<>(body.loops);
        body.loops.clear();
        body.scopes.push(ps);
        // the body runs when the lambda is called, not here: what it defines reaches nothing after it
        IdentityHashMap<Local, double[]> before = reach.state();
        block(l.compoundStatement());
        reach.restore(before);
        body.scopes.pop();
        body.loops.addAll(saved);
        body.device = saveD;
        body.host = saveH;
    }

    private E mul(MulExprContext c) {
        E a = expr(c.expression(0));
        E b = expr(c.expression(1));
        int op = ((TerminalNode) c.getChild(1)).getSymbol().getType();
        E r = Squares.bound(ValueModel.arith(a, b, op), c);
        if (op == dev.numlint.cuda.parser.CudaLexer.DIV
                && body.device
                && r.type.kind == CType.Kind.FLOAT
                && r.cval == null
                && !dev.numlint.knowledge.FloatExactness.exactFloatDivisor(b.cval)) {
            body.facts.divisions.add(new FunctionFacts.Division(body.site(c), null));
        }
        return r;
    }

    private E add(AddExprContext c) {
        E a = expr(c.expression(0));
        E b = expr(c.expression(1));
        int op = ((TerminalNode) c.getChild(1)).getSymbol().getType();
        E r = ValueModel.arith(a, b, op);
        if (r.type.isFpScalar()) contractions.sum(c, op, r.type);
        return r;
    }

    // ------------------------------------------------------------------ assignments and accumulation
    private E assign(AssignExprContext c) {
        E lhs = expr(c.expression(0));
        AssignOpContext op = c.assignOp();
        if (c.bracedInitList() != null) {
            braced(c.bracedInitList());
            return lhs;
        }
        ExpressionContext rc = c.expression(1);
        E rhs = expr(rc);
        CType lt = lhs.type;
        if (op.ASSIGN() != null && reach.topAssigns.contains(c))
            reach.define(body.lookup(simpleName(c.expression(0))), rhs);
        if (op.ASSIGN() != null) {
            conversions.convert(lt, rhs, rc, () -> "assignment to '" + body.text(c.expression(0)) + "'", false);
            promotions.promotion(lt, rhs, rc, () -> "'" + body.text(c.expression(0)) + "'");
            String name = simpleName(c.expression(0)) != null ? lhs.var : null;
            if (rhs.guarded) tokens.assigned(name, lt, body.text(c.expression(0)), rhs.guard, c.start.getLine());
            // s = s + x / s = x + s / s = fmaf(a, b, s)
            if (lt.isFpScalar()) sums.assignment(c, rc);
        } else if (op.PLUS_ASSIGN() != null || op.MINUS_ASSIGN() != null) {
            if (lt.isFpScalar()) {
                contractions.accumulated(c, rc, op.MINUS_ASSIGN() != null, lt);
                sums.accumulation(c, c.expression(0), rc, false);
            }
            promotions.promotionCompound(lt, rhs, c);
        } else if (op.STAR_ASSIGN() != null || op.DIV_ASSIGN() != null) {
            promotions.promotionCompound(lt, rhs, c);
            if (op.DIV_ASSIGN() != null
                    && body.device
                    && lt.kind == CType.Kind.FLOAT
                    && rhs.type.kind != CType.Kind.DOUBLE
                    && !dev.numlint.knowledge.FloatExactness.exactFloatDivisor(rhs.cval)) {
                body.facts.divisions.add(new FunctionFacts.Division(body.site(c), null));
            }
        }
        E r = E.of(lt);
        r.var = lhs.var;
        return r;
    }

    // ------------------------------------------------------------------ calls
    private E call(CallExprContext c) {
        List<E> args = new ArrayList<>();
        List<ExpressionContext> argCtx = new ArrayList<>();
        if (c.argumentList() != null) {
            for (ArgumentContext a : c.argumentList().argument()) {
                args.add(argument(a));
                argCtx.add(a.expression());
            }
        }
        String name = calleeName(c.expression());
        if (name != null) return callResults.result(c, name, args, argCtx);
        ExpressionContext callee = c.expression();
        if (callee instanceof MemberExprContext) {
            MemberExprContext m = (MemberExprContext) callee;
            E base = expr(m.expression());
            CType bt = base.type;
            if (m.ARROW() != null && bt.kind == CType.Kind.POINTER) bt = bt.elem;
            if (bt.kind == CType.Kind.STRUCT && m.qualifiedName() != null) {
                StructInfo s = body.scope.structs.get(bt.name);
                if (s != null) {
                    CType rt = s.methods.get(m.qualifiedName().getStop().getText());
                    if (rt != null) return ValueModel.codeCall(rt, args);
                }
            }
        } else {
            expr(callee);
        }
        return E.UNKNOWN;
    }
}
