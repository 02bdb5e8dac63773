package dev.numlint.cuda;

import static dev.numlint.cuda.ParseTrees.calleeName;
import static dev.numlint.cuda.ParseTrees.declName;
import static dev.numlint.cuda.ParseTrees.simpleName;
import static dev.numlint.cuda.ParseTrees.stripParens;
import static dev.numlint.cuda.SyntaxQueries.*;
import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.cuda.facts.Site;
import dev.numlint.cuda.facts.SourceDialect;
import dev.numlint.cuda.parser.CudaLexer;
import dev.numlint.knowledge.FloatExactness;
import dev.numlint.knowledge.NumericFacts;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * The second level: walks one parsed function body with a scope of typed variables and computes its
 * {@link FunctionFacts} once: typed sites of conversions, divisions, contractions, accumulations (with their loops,
 * trip counts, guards and compensated sums), math calls, promotions, atomics, long doubles and tensor-core math.
 * Each site can follow its value through def-use ({@link ValueFlow}). The rules themselves are the checks in
 * {@link dev.numlint.cuda.checks}. Types are computed bottom-up (literal suffixes, declarations, usual arithmetic
 * conversions, the CUDA math table); unknown types (template parameters, system-header types) produce no sites.
 */
final class FunctionAnalyzer {
    private static final Set<String> ATOMIC_ADDS =
            Set.of("atomicAdd", "atomicAdd_block", "atomicAdd_system", "unsafeAtomicAdd", "safeAtomicAdd");

    /** A local variable or parameter. */
    static final class Local {
        final String name;
        final CType type;
        final int loopDepth;
        final Double cval;
        final int line;
        /** A single-use temporary holding a floating product (its text), or null. */
        String product;
        /**
         * The interval of the variable's only definition, its initializer ({@link Intervals}); unknown otherwise. The
         * walk's reaching definitions ({@link FunctionAnalyzer#reach}) take precedence where they know the variable.
         */
        double lo = Double.NEGATIVE_INFINITY;

        double hi = Double.POSITIVE_INFINITY;
        /**
         * Every value the variable holds is a whole number of at most this magnitude (a loop counter with constant
         * integer bounds and step, or a variable set once from such values), or null.
         */
        Double intBound;
        /** The variable's initial value cannot be negative (threadIdx.x, an unsigned value, a constant >= 0). */
        boolean nonNegInit;
        /** The block (or for statement) its declaration belongs to: where it can be given a value, or null. */
        ParseTree scopeNode;

        Local(String name, CType type, int loopDepth, Double cval, int line) {
            this.name = name;
            this.type = type;
            this.loopDepth = loopDepth;
            this.cval = cval;
            this.line = line;
        }
    }

    /** A loop: its line, constant trip count (-1 unknown, 1 for logarithmic loops) and induction variables. */
    static final class Loop {
        final int line;
        /** The loop statement, for the names it modifies (computed on first use). */
        final ParserRuleContext node;

        long trip = -1;
        final Set<String> induction = new HashSet<>();
        private Set<String> modified;
        private Set<String> overwritten;

        Loop(int line, ParserRuleContext node) {
            this.line = line;
            this.node = node;
        }

        /** Names assigned, incremented or passed by name/address to a call anywhere in the loop. */
        Set<String> modified() {
            if (modified == null) {
                modified = new HashSet<>();
                if (node != null) collectModified(node, modified);
            }
            return modified;
        }

        /**
         * Names assigned a value that does not read them, unconditionally in every iteration: {@code t = f(k);}
         * as a statement of the loop body (not inside an if, switch or inner loop).
         */
        Set<String> overwritten(Map<String, java.util.BitSet> outParams) {
            if (overwritten == null) {
                overwritten = new HashSet<>();
                StatementContext body = node instanceof ForStmtContext
                        ? ((ForStmtContext) node).statement()
                        : node instanceof WhileStmtContext
                                ? ((WhileStmtContext) node).statement()
                                : node instanceof DoStmtContext ? ((DoStmtContext) node).statement() : null;
                if (body != null) collectOverwritten(body, overwritten, outParams);
            }
            return overwritten;
        }
    }

    final FileScope scope;
    final TopLevelSplitter.FunctionDef f;
    private final List<PToken> toks;
    private final Deque<Map<String, Local>> scopes = new ArrayDeque<>();
    final List<Loop> loops = new ArrayList<>();
    private final Map<String, Integer> useCounts = new HashMap<>();
    /**
     * How often each name is written: assigned ({@code =}, {@code +=} ...), incremented or decremented, or has its
     * address taken. A local whose count is 1 has its initializer as its only definition.
     */
    private final Map<String, Integer> defCounts = new HashMap<>();

    private final Set<String> guardedVars = new HashSet<>();

    /**
     * Reaching definitions of intervals ({@link Intervals}): for a local of arithmetic type, the interval of the
     * definition that reaches the walk's current point, where the walk knows it. The walk follows the structured
     * control flow: an assignment statement {@code x = e;} gives {@code x} the interval of {@code e}; any other write
     * (a compound assignment, an increment, a nested or conditional assignment, {@code x} passed to a function that
     * is not a math builtin) forgets it; the two branches of an if join (the union of their intervals); a loop, a
     * switch and a try forget every name they write, on entry and on exit (a do-while without break, continue or goto
     * keeps the state its body and condition end with). A local without an entry has {@link Local#lo}/{@link
     * Local#hi} (its only definition's interval, or unknown). Names in {@link #aliased} never have an entry.
     */
    private final IdentityHashMap<Local, double[]> reach = new IdentityHashMap<>();
    /**
     * Names whose value may change without a write the walk sees: the address taken ({@code &x}), bound to or being a
     * reference ({@code float &r = x}), an asm operand, {@code __shared__} (other threads write it) or volatile.
     */
    private final Set<String> aliased = new HashSet<>();
    /** No reaching definitions at all: the body has a goto or a lambda capturing by reference. */
    private boolean reachOff;
    /** For each enclosing switch, the names its body writes (a case label forgets them). */
    private final Deque<Writes> switchWrites = new ArrayDeque<>();
    /** The assignments {@code x = e} that are whole expressions of the statement being walked. */
    private final Set<ParserRuleContext> topAssigns = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    /** Parameter intervals from every call site ({@link CallSiteRanges}), by parameter index, or null. */
    private final double[][] paramRanges;
    /** Member/element lvalues assigned a range-limited value (rgba.x = __saturatef(rgba.x)). */
    private final Set<String> guardedTexts = new HashSet<>();

    final Set<String> compensated = new HashSet<>();
    final IdentityHashMap<ParserRuleContext, E> memo;
    final FunctionFacts facts;
    private final SourceDialect dialect;
    private final ValueFlow flow;
    private boolean device;
    private boolean host;
    private final boolean hostDevice;
    private final StructInfo cls;
    private final AccumulationSites sums = new AccumulationSites(this);
    /** The function body, for how often a name is given a value. */
    private ParseTree bodyRoot;

    private final PromotionSites promotions = new PromotionSites(this);

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
        this.calls = calls;
        this.paramRanges = paramRanges;
        this.dialect = dialect;
        this.scope = scope;
        this.f = f;
        this.toks = toks;
        this.memo = new IdentityHashMap<>(Math.max(32, toks.size() / 2));
        this.device = f.runsOnDevice();
        this.host = f.runsOnHost();
        this.hostDevice = f.device && f.host;
        this.cls = f.className == null ? null : scope.structs.get(f.className);
        this.facts = new FunctionFacts(fname());
        // generators: library and project functions, and local <random> distributions and engines (dist(gen))
        // a translation unit that never draws declares no generator variable (RandomDraws.propagate looked at
        // every name before a declarator in its tokens, this body's among them): its bodies are not scanned again
        Set<String> generatorVars = scope.draws ? RandomDraws.generatorVariables(toks) : Set.of();
        this.generatorVars = generatorVars;
        this.flow = new ValueFlow(
                memo,
                this::text,
                name -> RandomDraws.draws(name, scope) || generatorVars.contains(name),
                () -> scope.draws || !generatorVars.isEmpty() ? variates() : null);
        prescan();
    }

    /** Where this body's calls of functions of the translation unit are recorded, or null. */
    private final CallSiteRanges calls;

    /** The random state of the body ({@link RandomVariates}), read once on first request. */
    private RandomVariates variates;

    /** The parameters and locals declared with an integer type, or as a pointer to or array of integers. */
    private final Set<String> integers = new HashSet<>();

    /** An integer type, or a pointer to or array of integers. */
    private static boolean integral(CType t) {
        return t != null && (t.isInteger() || t.kind == CType.Kind.POINTER && t.elem != null && t.elem.isInteger());
    }

    /** Local generators and distributions of the body ({@code dist(gen)} draws). */
    private final Set<String> generatorVars;

    private RandomVariates variates() {
        if (variates == null) {
            variates = new RandomVariates(
                    toks, 0, toks.size() - 2, f.className == null ? f.name : null, f.paramNames, scope, generatorVars);
        }
        return variates;
    }

    /**
     * The lines of this function, if it runs on the device, whose arithmetic computes random variates ({@link
     * RandomVariates#variateLines}); empty for host code.
     */
    Set<Integer> variateLines() {
        // a translation unit that never draws has no random variates: its functions are not scanned for them
        if (!f.runsOnDevice() || !scope.draws) return Set.of();
        return variates().variateLines(integers);
    }

    /** Tokens after a name that write it: assignments, compound assignments, increments. */
    private static boolean writesAfter(int type) {
        return SyntaxQueries.assignsOrSteps(type);
    }

    /** Tokens before a name that write it or may: increments, and taking its address ({@code sincosf(a, &s, &c)}). */
    private static boolean writesBefore(int type) {
        return type == CudaLexer.PLUS_PLUS || type == CudaLexer.MINUS_MINUS || type == CudaLexer.AMP;
    }

    /**
     * Whether the name at token {@code i} is (or may be) written there: assigned, incremented, its address taken
     * ({@code &x}, {@code &(x)}), read into ({@code in >> x}), or passed as a bare argument to a function other than
     * a math builtin ({@code f(a, x)}: a C++ reference parameter may write it).
     */
    private boolean writes(int i) {
        int n = toks.size();
        int next = i + 1 < n ? toks.get(i + 1).getType() : -1;
        if (writesAfter(next)) return true;
        int p = i - 1;
        while (p >= 0 && toks.get(p).getType() == CudaLexer.LPAREN) p--;
        int prev = p >= 0 ? toks.get(p).getType() : -1;
        if (writesBefore(prev)) return true;
        if (prev == CudaLexer.GT && p > 0 && toks.get(p - 1).getType() == CudaLexer.GT) return true;
        int before = i > 0 ? toks.get(i - 1).getType() : -1;
        if (!(before == CudaLexer.LPAREN || before == CudaLexer.COMMA)
                || !(next == CudaLexer.RPAREN || next == CudaLexer.COMMA)) return false;
        // a bare argument: of a call by name (not a cast, not a math function, which take values)
        int depth = 0;
        for (int k = i - 1; k >= 0 && k > i - 400; k--) {
            int ty = toks.get(k).getType();
            if (ty == CudaLexer.RPAREN) depth++;
            else if (ty == CudaLexer.LPAREN && depth-- == 0) {
                if (k == 0 || toks.get(k - 1).getType() != CudaLexer.IDENTIFIER) return false;
                String callee = toks.get(k - 1).getText();
                return !Builtins.FUNCS.containsKey(callee) && !Builtins.CLAMPS.contains(callee);
            }
        }
        return false;
    }

    /** Token-level facts: use counts, range-guarded variables, compensated (Kahan) sums. */
    private void prescan() {
        int n = toks.size();
        for (int i = 0; i < n; i++) {
            PToken t = toks.get(i);
            int ty = t.getType();
            aliasing(i, ty);
            if (ty == CudaLexer.IDENTIFIER) {
                useCounts.merge(t.getText(), 1, Integer::sum);
                if (writes(i)) defCounts.merge(t.getText(), 1, Integer::sum);
                if (Builtins.CLAMPS.contains(t.getText())
                        && i + 1 < n
                        && toks.get(i + 1).getType() == CudaLexer.LPAREN) {
                    // x = fmaxf(...): the assigned variable is range-limited (the arguments are not: fminf(a, b)
                    // bounds its result, not a and b)
                    if (i >= 2
                            && toks.get(i - 1).getType() == CudaLexer.ASSIGN
                            && toks.get(i - 2).getType() == CudaLexer.IDENTIFIER) {
                        guardedVars.add(toks.get(i - 2).getText());
                    }
                }
            } else if (ty == CudaLexer.LT || ty == CudaLexer.GT || ty == CudaLexer.LE || ty == CudaLexer.GE) {
                if (i > 0 && toks.get(i - 1).getType() == CudaLexer.IDENTIFIER)
                    guardedVars.add(toks.get(i - 1).getText());
                if (i + 1 < n && toks.get(i + 1).getType() == CudaLexer.IDENTIFIER)
                    guardedVars.add(toks.get(i + 1).getText());
                if (i + 2 < n
                        && toks.get(i + 1).getType() == CudaLexer.MINUS
                        && toks.get(i + 2).getType() == CudaLexer.IDENTIFIER) {
                    guardedVars.add(toks.get(i + 2).getText());
                }
            } else if (ty == CudaLexer.LPAREN
                    && i + 5 < n
                    && toks.get(i + 1).getType() == CudaLexer.IDENTIFIER
                    && toks.get(i + 2).getType() == CudaLexer.MINUS
                    && toks.get(i + 3).getType() == CudaLexer.IDENTIFIER
                    && toks.get(i + 4).getType() == CudaLexer.RPAREN
                    && (toks.get(i + 5).getType() == CudaLexer.MINUS
                            || toks.get(i + 5).getType() == CudaLexer.PLUS)) {
                // (t - sum) - y : Kahan/compensated summation
                compensated.add(toks.get(i + 1).getText());
                compensated.add(toks.get(i + 3).getText());
            }
        }
    }

    private int ty(int i) {
        return i >= 0 && i < toks.size() ? toks.get(i).getType() : -1;
    }

    /** Prescan of token {@code i} for {@link #aliased} and {@link #reachOff}. */
    private void aliasing(int i, int ty) {
        if (ty == CudaLexer.GOTO) {
            reachOff = true;
        } else if (ty == CudaLexer.LBRACKET
                && (ty(i + 1) == CudaLexer.AMP || ty(i + 1) == CudaLexer.ASSIGN && ty(i + 2) == CudaLexer.COMMA)) {
            reachOff = true; // [&], [&x], [=, &x]: a lambda that may write a local whenever it is called
        } else if (ty == CudaLexer.ASM || ty == CudaLexer.SHARED || ty == CudaLexer.VOLATILE) {
            // every name up to the end of the statement: asm operands, __shared__ or volatile variables
            int depth = 0;
            for (int k = i + 1; k < toks.size(); k++) {
                int x = ty(k);
                if (x == CudaLexer.LPAREN || x == CudaLexer.LBRACE || x == CudaLexer.LBRACKET) depth++;
                else if (x == CudaLexer.RPAREN || x == CudaLexer.RBRACE || x == CudaLexer.RBRACKET) depth--;
                if (depth < 0 || x == CudaLexer.SEMI && depth == 0) break;
                if (x == CudaLexer.IDENTIFIER) aliased.add(toks.get(k).getText());
            }
        } else if ((ty == CudaLexer.AMP || ty == CudaLexer.AND_AND) && ty(i + 1) == CudaLexer.IDENTIFIER) {
            int next = ty(i + 2);
            if (next == CudaLexer.ASSIGN || next == CudaLexer.LPAREN || next == CudaLexer.LBRACE) {
                // T &r = x; T &r(x); auto &&r{x}: the reference and every name of what it is bound to
                aliased.add(toks.get(i + 1).getText());
                int depth = 0;
                for (int k = i + 3; k < toks.size(); k++) {
                    int x = ty(k);
                    if (x == CudaLexer.LPAREN || x == CudaLexer.LBRACE || x == CudaLexer.LBRACKET) depth++;
                    else if (x == CudaLexer.RPAREN || x == CudaLexer.RBRACE || x == CudaLexer.RBRACKET) depth--;
                    if (depth < 0 || depth == 0 && (x == CudaLexer.SEMI || x == CudaLexer.COMMA)) break;
                    if (x == CudaLexer.IDENTIFIER) aliased.add(toks.get(k).getText());
                }
            }
            if (ty == CudaLexer.AMP) {
                int p = i - 1;
                int b = ty(p);
                // after ')' it may be a cast's operand: (char *)&x
                boolean binary = b == CudaLexer.IDENTIFIER
                        || b == CudaLexer.RBRACKET
                        || b == CudaLexer.INTEGER_LITERAL
                        || b == CudaLexer.FLOATING_LITERAL
                        || b == CudaLexer.CHAR_LITERAL;
                if (!binary) aliased.add(toks.get(i + 1).getText()); // &x: may be written through the pointer
            }
        } else if (ty == CudaLexer.AMP && ty(i + 1) == CudaLexer.LPAREN) {
            // &(x), &((x))
            int k = i + 1;
            while (ty(k) == CudaLexer.LPAREN) k++;
            int b = ty(i - 1);
            boolean binary = b == CudaLexer.IDENTIFIER || b == CudaLexer.RBRACKET;
            if (!binary && ty(k) == CudaLexer.IDENTIFIER)
                aliased.add(toks.get(k).getText());
        }
    }

    /** Whether the walk keeps reaching definitions for {@code l}: an arithmetic scalar not in {@link #aliased}. */
    private boolean tracks(Local l) {
        return !reachOff && !aliased.contains(l.name) && (l.type.isInteger() || l.type.isFpScalar());
    }

    /** {@code l} is given the value {@code v} (converted to its type) by a definition the walk sees. */
    private void define(Local l, E v) {
        if (l == null || !tracks(l)) return;
        E held = E.of(l.type);
        if (l.type.isInteger()) Intervals.set(held, trunc(v.lo), trunc(v.hi));
        else Intervals.set(held, v.lo, v.hi);
        if (held.lo == Double.NEGATIVE_INFINITY
                && held.hi == Double.POSITIVE_INFINITY
                && l.lo == Double.NEGATIVE_INFINITY
                && l.hi == Double.POSITIVE_INFINITY) {
            // nothing known: the same as no reaching definition (a read falls back to l's own, unbounded,
            // interval), and an empty map spares every statement the walk for what it writes
            reach.remove(l);
            return;
        }
        reach.put(l, new double[] {held.lo, held.hi});
    }

    /** Forgets the reaching definitions of these names. */
    private void forget(Set<String> names) {
        if (!names.isEmpty() && !reach.isEmpty()) reach.keySet().removeIf(l -> names.contains(l.name));
    }

    /**
     * The names a statement writes, walked only when there is a reaching definition to forget: most bodies have
     * none, and the walk of every loop for every enclosing statement is the reaching definitions' main cost.
     */
    private final class Writes {
        private final java.util.function.Supplier<Set<String>> walk;
        private final ParserRuleContext modifying;
        private Set<String> names;

        /** The names a walk of {@code within} finds ({@link #writtenIn}): it can only find names among its tokens. */
        private final ParserRuleContext within;

        Writes(ParserRuleContext within, java.util.function.Supplier<Set<String>> walk) {
            this.walk = walk;
            this.modifying = null;
            this.within = within;
        }

        /**
         * What {@code node} may modify ({@link SyntaxQueries#collectModified}), asked of the body's definition
         * positions ({@link #defs}) for the names that have a reaching definition, instead of a walk of the node.
         */
        Writes(ParserRuleContext node) {
            this.walk = null;
            this.modifying = node;
            this.within = null;
        }

        void forget() {
            if (reach.isEmpty()) return;
            if (modifying != null) {
                reach.keySet().removeIf(l -> defs(modifying, l.name) > 0);
                return;
            }
            if (names == null) {
                if (!mentionsReached(within)) return;
                names = walk.get();
            }
            FunctionAnalyzer.this.forget(names);
        }
    }

    /** Whether a token of {@code c} is the name of a variable with a reaching definition (true when unsure). */
    private boolean mentionsReached(ParserRuleContext c) {
        if (c == null || c.start == null || c.stop == null) return true;
        int from = c.start.getTokenIndex();
        int to = c.stop.getTokenIndex();
        if (from < 0 || to >= toks.size() || toks.get(from) != c.start || toks.get(to) != c.stop) return true;
        for (int i = from; i <= to; i++) {
            String t = toks.get(i).getText();
            for (Local l : reach.keySet()) if (l.name.equals(t)) return true;
        }
        return false;
    }

    /** The state of the reaching definitions, to restore or join. */
    private IdentityHashMap<Local, double[]> reachState() {
        return new IdentityHashMap<>(reach);
    }

    /** The reaching definitions where control joins from the walk's current state and {@code other}: unions. */
    private void join(IdentityHashMap<Local, double[]> other) {
        Set<Local> all = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        all.addAll(reach.keySet());
        all.addAll(other.keySet());
        for (Local l : all) {
            double[] a = reach.getOrDefault(l, new double[] {l.lo, l.hi});
            double[] b = other.getOrDefault(l, new double[] {l.lo, l.hi});
            reach.put(l, new double[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
        }
    }

    /** Names written in {@code t} (see {@link #reach}) other than by the assignments and declarations in skip. */
    private Set<String> writtenIn(ParseTree t, Set<? extends ParseTree> skip) {
        Set<String> out = new HashSet<>();
        if (t != null) written(t, skip, out);
        return out;
    }

    private void written(ParseTree t, Set<? extends ParseTree> skip, Set<String> out) {
        if (t instanceof TerminalNode) return;
        if (t instanceof AssignExprContext) {
            if (!skip.contains(t)) {
                String n = storedName(((AssignExprContext) t).expression(0));
                if (n != null) out.add(n);
            }
        } else if (t instanceof PostIncExprContext) {
            String n = storedName(((PostIncExprContext) t).expression());
            if (n != null) out.add(n);
        } else if (t instanceof UnaryExprContext) {
            UnaryExprContext u = (UnaryExprContext) t;
            if (u.PLUS_PLUS() != null || u.MINUS_MINUS() != null || u.AMP() != null) {
                String n = storedName(u.expression());
                if (n != null) out.add(n);
            }
        } else if (t instanceof CallExprContext) {
            // a name passed to a function may be changed through a reference parameter; math builtins take values
            CallExprContext c = (CallExprContext) t;
            String callee = calleeName(c.expression());
            String shortName = callee != null && callee.startsWith("std::") ? callee.substring(5) : callee;
            boolean values =
                    shortName != null && (Builtins.FUNCS.containsKey(shortName) || Builtins.CLAMPS.contains(shortName));
            if (!values && c.argumentList() != null) {
                List<ArgumentContext> args = c.argumentList().argument();
                for (int i = 0; i < args.size(); i++) {
                    ArgumentContext a = args.get(i);
                    String n = a.expression() == null ? null : simpleName(a.expression());
                    // a parameter the file's only definition of the callee takes by value cannot write it
                    if (n != null && (calls == null || callee == null || !calls.byValue(callee, i, scope))) out.add(n);
                }
            }
        } else if (t instanceof SimpleDeclarationContext && !skip.contains(t)) {
            for (InitDeclaratorContext d : ((SimpleDeclarationContext) t).initDeclarator()) {
                String n = declName(d.declarator());
                if (n != null) out.add(n);
            }
        } else if (t instanceof AsmStmtContext) {
            names(t, out);
        } else if (t instanceof ShiftExprContext && ((ShiftExprContext) t).SHL() == null) {
            String n = simpleName(((ShiftExprContext) t).expression(1)); // in >> x
            if (n != null) out.add(n);
        }
        for (int i = 0; i < t.getChildCount(); i++) written(t.getChild(i), skip, out);
    }

    private String fname() {
        return f.className != null ? f.className + "::" + f.name : f.name;
    }

    // ------------------------------------------------------------------ driver
    FunctionFacts analyze(FunctionBodyContext body) {
        flow.setRoot(body);
        bodyRoot = body;
        Map<String, Local> params = new HashMap<>();
        for (int i = 0; i < f.paramNames.size(); i++) {
            String n = f.paramNames.get(i);
            if (n == null) continue;
            Local p = new Local(n, f.paramTypes.get(i), 0, null, f.line);
            params.put(n, p);
            if (integral(f.paramTypes.get(i))) integers.add(n);
            if (f.refParams.get(i)) aliased.add(n); // a reference parameter: another name may write it
            else if (paramRanges != null && i < paramRanges.length && paramRanges[i] != null) {
                E v = E.of(CType.DOUBLE);
                v.lo = paramRanges[i][0];
                v.hi = paramRanges[i][1];
                define(p, v); // the union of what every call site passes
            }
        }
        scopes.push(params);
        if (f.longDoubleLine > 0 && host) {
            reportLongDouble(
                    new Reporter.Pos(f.longDoubleLine, f.longDoubleCol, f.longDoubleLine, 0),
                    f.longDoubleWhat,
                    f.longDoubleWhat);
        }
        block(body.compoundStatement());
        scopes.pop();
        new TensorMathFacts(toks, facts, device, host, (a, b) -> text(null, a, b)).scan();
        return facts;
    }

    private void block(CompoundStatementContext c) {
        scopes.push(new HashMap<>());
        for (StatementContext s : c.statement()) statement(s);
        popScope();
    }

    /** Leaves a scope: its locals' reaching definitions go with it. */
    private void popScope() {
        Map<String, Local> gone = scopes.pop();
        if (!reach.isEmpty()) for (Local l : gone.values()) reach.remove(l);
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
            topAssigns.addAll(mine);
            Writes w = new Writes(ce, () -> writtenIn(ce, topAssigns));
            w.forget();
            commaExpr(ce);
            w.forget();
            mine.forEach(topAssigns::remove);
        } else if (s instanceof DeclStmtContext) {
            SimpleDeclarationContext d = ((DeclStmtContext) s).simpleDeclaration();
            Writes w = new Writes(d, () -> writtenIn(d, Set.of(d)));
            w.forget();
            simpleDeclaration(d);
            w.forget();
        } else if (s instanceof IfStmtContext) {
            IfStmtContext c = (IfStmtContext) s;
            scopes.push(new HashMap<>());
            Writes w = new Writes(c.condition(), () -> writtenIn(c.condition(), Set.of()));
            w.forget();
            condition(c.condition());
            w.forget();
            IdentityHashMap<Local, double[]> before = reachState();
            scoped(c.statement(0));
            if (c.statement().size() > 1) {
                IdentityHashMap<Local, double[]> afterThen = reachState();
                reach.clear();
                reach.putAll(before);
                scoped(c.statement(1));
                join(afterThen);
            } else {
                join(before);
            }
            scopes.pop();
        } else if (s instanceof ForStmtContext) {
            forStmt((ForStmtContext) s);
            new Writes(s).forget();
        } else if (s instanceof WhileStmtContext) {
            WhileStmtContext c = (WhileStmtContext) s;
            Writes mod = new Writes(c);
            mod.forget();
            scopes.push(new HashMap<>());
            Loop l = new Loop(c.start.getLine(), c);
            condition(c.condition());
            mod.forget();
            loops.add(l);
            scoped(c.statement());
            loops.remove(loops.size() - 1);
            scopes.pop();
            mod.forget();
        } else if (s instanceof DoStmtContext) {
            DoStmtContext c = (DoStmtContext) s;
            Writes mod = new Writes(c);
            mod.forget();
            Loop l = new Loop(c.start.getLine(), c);
            loops.add(l);
            scoped(c.statement());
            loops.remove(loops.size() - 1);
            Writes w = new Writes(c.commaExpression(), () -> writtenIn(c.commaExpression(), Set.of()));
            w.forget();
            commaExpr(c.commaExpression());
            w.forget();
            // the loop leaves only after its condition: the body's end state holds there unless a jump leaves earlier
            if (!reach.isEmpty() && jumps(c)) mod.forget();
        } else if (s instanceof RangeForStmtContext) {
            RangeForStmtContext c = (RangeForStmtContext) s;
            scopes.push(new HashMap<>());
            if (c.expression() != null) expr(c.expression());
            Writes mod = new Writes(c);
            mod.forget();
            CType base = specType(c.declSpecifierSeq());
            declare(declName(c.declarator()), base == null ? CType.UNKNOWN : base, null, c.start.getLine());
            Loop rl = new Loop(c.start.getLine(), c);
            String rv = declName(c.declarator());
            if (rv != null) rl.induction.add(rv);
            loops.add(rl);
            scoped(c.statement());
            loops.remove(loops.size() - 1);
            scopes.pop();
            mod.forget();
        } else if (s instanceof SwitchStmtContext) {
            SwitchStmtContext c = (SwitchStmtContext) s;
            scopes.push(new HashMap<>());
            Writes mod = new Writes(c);
            mod.forget();
            condition(c.condition());
            mod.forget();
            switchWrites.push(mod);
            scoped(c.statement());
            switchWrites.pop();
            mod.forget();
            scopes.pop();
        } else if (s instanceof AsmStmtContext) {
            forget(writtenIn(s, Set.of()));
        } else if (s instanceof ReturnStmtContext) {
            ReturnStmtContext c = (ReturnStmtContext) s;
            if (c.commaExpression() != null) {
                E v = commaExpr(c.commaExpression());
                ExpressionContext last = c.commaExpression()
                        .expression(c.commaExpression().expression().size() - 1);
                convert(f.ret, v, last, () -> "return from '" + f.name + "'", false);
                promotions.promotion(f.ret, v, last, () -> "the float return value of '" + f.name + "'");
            } else if (c.bracedInitList() != null) {
                braced(c.bracedInitList());
            }
        } else if (s instanceof TryStmtContext) {
            Writes mod = new Writes(s);
            for (CompoundStatementContext b : ((TryStmtContext) s).compoundStatement()) {
                mod.forget(); // a handler starts from any point of the try block
                block(b);
            }
            mod.forget();
        } else if (s instanceof LabelStmtContext) {
            LabelStmtContext c = (LabelStmtContext) s;
            if (c.expression() != null) expr(c.expression());
            // a case label is entered from the switch as well as from the statement before it
            if (!switchWrites.isEmpty()) switchWrites.peek().forget();
        } else if (s instanceof TypedefStmtContext) {
            TypedefStmtContext c = (TypedefStmtContext) s;
            CType base = specType(c.declSpecifierSeq());
            for (InitDeclaratorContext d : c.initDeclaratorList().initDeclarator()) {
                String n = declName(d.declarator());
                if (n != null)
                    scope.typedefs.putIfAbsent(n, declType(base, d.declarator()).alias(n));
            }
        }
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
        scopes.push(new HashMap<>());
        statement(s);
        popScope();
    }

    private void condition(ConditionContext c) {
        if (c.commaExpression() != null) {
            commaExpr(c.commaExpression());
        } else {
            CType base = specType(c.declSpecifierSeq());
            E v = expr(c.expression());
            CType t = declType(base == null ? v.type : base, c.declarator());
            declare(declName(c.declarator()), t, v.cval, c.start.getLine());
        }
    }

    private void forStmt(ForStmtContext c) {
        scopes.push(new HashMap<>());
        Loop l = new Loop(c.start.getLine(), c);
        ForInitContext init = c.forInit();
        String initVar = null;
        Double from = null;
        boolean fromNonNeg = false;
        if (init.simpleDeclaration() != null) {
            simpleDeclaration(init.simpleDeclaration());
            List<InitDeclaratorContext> ds = init.simpleDeclaration().initDeclarator();
            if (!ds.isEmpty()) {
                initVar = declName(ds.get(0).declarator());
                InitializerContext ini = ds.get(0).initializer();
                if (ini != null
                        && ini.initializerClause() != null
                        && ini.initializerClause().expression() != null) {
                    E v = memo.get(ini.initializerClause().expression());
                    if (v != null) from = v.cval;
                    fromNonNeg = nonNegative(v);
                }
            }
        } else if (init.commaExpression() != null) {
            commaExpr(init.commaExpression());
            ExpressionContext e0 = init.commaExpression().expression(0);
            if (e0 instanceof AssignExprContext
                    && ((AssignExprContext) e0).assignOp().ASSIGN() != null) {
                AssignExprContext a = (AssignExprContext) e0;
                initVar = simpleName(a.expression(0));
                if (a.expression().size() > 1) {
                    E v = memo.get(a.expression(1));
                    if (v != null) from = v.cval;
                    fromNonNeg = nonNegative(v);
                }
            }
        }
        new Writes(c).forget(); // the condition and the body see every iteration's values
        if (initVar != null) l.induction.add(initVar);
        Double to = null;
        boolean dims = false;
        boolean ne = false;
        int cmp = 0;
        if (c.condition() != null) {
            condition(c.condition());
            if (c.condition().commaExpression() != null) {
                ExpressionContext ce = c.condition().commaExpression().expression(0);
                if (ce instanceof RelExprContext) {
                    RelExprContext r = (RelExprContext) ce;
                    String left = simpleName(r.expression(0));
                    String right = simpleName(r.expression(1));
                    int op = ((TerminalNode) r.getChild(1)).getSymbol().getType();
                    if (left != null && left.equals(initVar)) {
                        E v = memo.get(r.expression(1));
                        to = v == null ? null : v.cval;
                        if (to == null
                                && DIMENSIONS
                                        .matcher(String.valueOf(simpleName(r.expression(1))))
                                        .matches()) {
                            dims = true;
                        }
                        cmp = op == CudaLexer.LT ? 1 : op == CudaLexer.LE ? 2 : op == CudaLexer.GT ? -1 : -2;
                    } else if (right != null && right.equals(initVar)) {
                        E v = memo.get(r.expression(0));
                        to = v == null ? null : v.cval;
                        cmp = op == CudaLexer.GT ? 1 : op == CudaLexer.GE ? 2 : op == CudaLexer.LT ? -1 : -2;
                    }
                } else if (ce instanceof EqExprContext && ((EqExprContext) ce).NE() != null) {
                    EqExprContext r = (EqExprContext) ce;
                    if (initVar != null && initVar.equals(simpleName(r.expression(0)))) {
                        E v = memo.get(r.expression(1));
                        to = v == null ? null : v.cval;
                        cmp = 1;
                        ne = true;
                    }
                }
            }
        }
        double step = 0;
        boolean log = false;
        if (c.commaExpression() != null) {
            commaExpr(c.commaExpression());
            for (ExpressionContext u : c.commaExpression().expression()) {
                String v = null;
                if (u instanceof PostIncExprContext) {
                    v = simpleName(((PostIncExprContext) u).expression());
                    if (v != null && v.equals(initVar)) step = ((PostIncExprContext) u).PLUS_PLUS() != null ? 1 : -1;
                } else if (u instanceof UnaryExprContext
                        && (((UnaryExprContext) u).PLUS_PLUS() != null
                                || ((UnaryExprContext) u).MINUS_MINUS() != null)) {
                    v = simpleName(((UnaryExprContext) u).expression());
                    if (v != null && v.equals(initVar)) step = ((UnaryExprContext) u).PLUS_PLUS() != null ? 1 : -1;
                } else if (u instanceof AssignExprContext) {
                    AssignExprContext a = (AssignExprContext) u;
                    v = simpleName(a.expression(0));
                    AssignOpContext op = a.assignOp();
                    if (op.STAR_ASSIGN() != null
                            || op.DIV_ASSIGN() != null
                            || op.SHL_ASSIGN() != null
                            || op.GE() != null) {
                        log = true;
                    } else if (v != null && v.equals(initVar) && a.expression().size() > 1) {
                        E sv = memo.get(a.expression(1));
                        if (sv != null && sv.cval != null) {
                            step = op.PLUS_ASSIGN() != null ? sv.cval : op.MINUS_ASSIGN() != null ? -sv.cval : 0;
                        }
                    }
                }
                if (v != null) l.induction.add(v);
            }
        }
        if (log) {
            l.trip = 1;
        } else if (dims) {
            l.trip = 3; // a loop over the dimensions of a point or vector (ndim, dims): 2 or 3 terms
        } else if (from != null && to != null && step != 0) {
            double span = cmp > 0 ? to - from : from - to;
            if (Math.abs(cmp) == 2) span += 1;
            double s = Math.abs(step);
            l.trip = span <= 0 ? 0 : (long) Math.ceil(span / s);
        }
        long most = tripBound(c, initVar, fromNonNeg);
        if (most >= 0 && (l.trip < 0 || most < l.trip)) l.trip = most;
        if (init.simpleDeclaration() != null
                && initVar != null
                && from != null
                && to != null
                && !ne
                && cmp != 0
                && step != 0
                && (cmp > 0) == (step > 0)
                && FloatExactness.isInteger(from)
                && FloatExactness.isInteger(to)
                && FloatExactness.isInteger(step)
                && onlyStepped(c, initVar)) {
            // a counter from one whole number to another in whole steps holds whole numbers between them
            Local counter = lookup(initVar);
            double m = Math.max(Math.abs(from), Math.abs(to));
            if (counter != null
                    && (counter.type.isFpScalar() || counter.type.isInteger())
                    && m <= wholeLimit(counter.type)) {
                counter.intBound = m;
            }
        }
        loops.add(l);
        scoped(c.statement());
        loops.remove(loops.size() - 1);
        scopes.pop();
    }

    /**
     * The block or for statement a declaration belongs to: every statement that can give the declared name a value
     * lies inside it (a nested declaration of the same name counts too, which only errs on the safe side).
     */
    private ParseTree declarationScope(ParserRuleContext d) {
        for (ParserRuleContext p = d.getParent(); p != null; p = p.getParent()) {
            if (p instanceof CompoundStatementContext || p instanceof ForStmtContext) return p;
        }
        return bodyRoot;
    }

    private static boolean nonNegative(E v) {
        return v != null && (v.nonNeg || v.type.isUnsignedInt() || (v.cval != null && v.cval >= 0));
    }

    /** {@code v} is changed by the loop's increment once and nowhere else in the loop (body or condition). */
    private boolean onlyStepped(ForStmtContext c, String v) {
        return c.commaExpression() != null
                && defs(c.commaExpression(), v) == 1
                && defs(c.statement(), v) == 0
                && (c.condition() == null || defs(c.condition(), v) == 0);
    }

    /**
     * An upper bound on the trip count from a test {@code v < B} or {@code v <= B} (or {@code B > v}) of the
     * condition's conjunction, with B constant, when the increment adds a constant S > 0 to v, nothing else in the
     * loop changes v and v cannot be negative when the loop starts (started at threadIdx.x, an unsigned or
     * non-negative value, and never given another value): at most ceil(B / S) trips, so
     * {@code for (k = threadIdx.x; k < 8; k += 8)} runs at most once per thread. -1 without such a test.
     */
    private long tripBound(ForStmtContext c, String initVar, boolean initNonNeg) {
        if (c.condition() == null || c.condition().commaExpression() == null || c.commaExpression() == null) return -1;
        Map<String, Double> steps = new HashMap<>();
        for (ExpressionContext u : c.commaExpression().expression()) {
            ExpressionContext x = stripParens(u);
            if (x instanceof PostIncExprContext && ((PostIncExprContext) x).PLUS_PLUS() != null) {
                String v = simpleName(((PostIncExprContext) x).expression());
                if (v != null) steps.put(v, 1.0);
            } else if (x instanceof UnaryExprContext && ((UnaryExprContext) x).PLUS_PLUS() != null) {
                String v = simpleName(((UnaryExprContext) x).expression());
                if (v != null) steps.put(v, 1.0);
            } else if (x instanceof AssignExprContext
                    && ((AssignExprContext) x).assignOp().PLUS_ASSIGN() != null
                    && ((AssignExprContext) x).expression().size() > 1) {
                String v = simpleName(((AssignExprContext) x).expression(0));
                E sv = memo.get(((AssignExprContext) x).expression(1));
                if (v != null && sv != null && sv.cval != null && sv.cval > 0) steps.put(v, sv.cval);
            }
        }
        List<ExpressionContext> tests = new ArrayList<>();
        conjuncts(c.condition().commaExpression().expression(0), tests);
        long best = -1;
        for (ExpressionContext t : tests) {
            if (!(t instanceof RelExprContext)) continue;
            RelExprContext r = (RelExprContext) t;
            int op = ((TerminalNode) r.getChild(1)).getSymbol().getType();
            String v;
            E bound;
            boolean inclusive;
            if ((op == CudaLexer.LT || op == CudaLexer.LE) && simpleName(r.expression(0)) != null) {
                v = simpleName(r.expression(0));
                bound = memo.get(r.expression(1));
                inclusive = op == CudaLexer.LE;
            } else if ((op == CudaLexer.GT || op == CudaLexer.GE) && simpleName(r.expression(1)) != null) {
                v = simpleName(r.expression(1));
                bound = memo.get(r.expression(0));
                inclusive = op == CudaLexer.GE;
            } else {
                continue;
            }
            Double step = steps.get(v);
            if (step == null || bound == null || bound.cval == null || !onlyStepped(c, v)) continue;
            boolean startsNonNeg;
            if (v.equals(initVar)) {
                startsNonNeg = initNonNeg;
            } else {
                // declared before the loop from a non-negative value and changed only by this increment
                Local lv = lookup(v);
                startsNonNeg = lv != null && lv.nonNegInit && lv.scopeNode != null && defs(lv.scopeNode, v) == 2;
            }
            if (!startsNonNeg) continue;
            double b = bound.cval;
            long n = b < 0 || (b == 0 && !inclusive)
                    ? 0
                    : inclusive ? (long) Math.floor(b / step) + 1 : (long) Math.ceil(b / step);
            if (best < 0 || n < best) best = n;
        }
        return best;
    }

    private static void conjuncts(ExpressionContext e, List<ExpressionContext> out) {
        ExpressionContext x = stripParens(e);
        if (x instanceof AndExprContext) {
            for (int i = 0; i < x.getChildCount(); i++) {
                if (x.getChild(i) instanceof ExpressionContext) conjuncts((ExpressionContext) x.getChild(i), out);
            }
        } else {
            out.add(x);
        }
    }

    // ------------------------------------------------------------------ declarations
    private CType specType(DeclSpecifierSeqContext d) {
        if (d == null) return CType.UNKNOWN;
        return Decls.specType(
                toks.subList(d.start.getTokenIndex(), d.stop.getTokenIndex() + 1), scope, f.templateParams);
    }

    private static CType declType(CType base, DeclaratorContext d) {
        CType t = base == null ? CType.UNKNOWN : base;
        if (d == null) return t;
        for (PtrOperatorContext p : d.ptrOperator()) {
            if (p.STAR() != null) t = CType.pointer(t);
        }
        for (DeclaratorSuffixContext s : d.noPtrDeclarator().declaratorSuffix()) {
            if (s.LBRACKET() != null) t = CType.pointer(t);
        }
        return t;
    }

    private static boolean isFunctionDeclarator(DeclaratorContext d) {
        for (DeclaratorSuffixContext s : d.noPtrDeclarator().declaratorSuffix()) {
            if (s.LPAREN() != null) return true;
        }
        return false;
    }

    private static boolean hasConst(DeclSpecifierSeqContext d) {
        for (DeclSpecifierContext s : d.declSpecifier()) {
            if (s.cvQualifier() != null && s.cvQualifier().CONST() != null) return true;
            if (s.storageSpecifier() != null && s.storageSpecifier().CONSTEXPR() != null) return true;
        }
        return false;
    }

    private void simpleDeclaration(SimpleDeclarationContext d) {
        CType base = specType(d.declSpecifierSeq());
        boolean isConst = hasConst(d.declSpecifierSeq());
        // a static local keeps its value from the previous call (its initializer runs once); an extern one is global
        boolean lasting = false;
        for (DeclSpecifierContext ds : d.declSpecifierSeq().declSpecifier()) {
            StorageSpecifierContext st = ds.storageSpecifier();
            if (st != null && (st.STATIC() != null || st.EXTERN() != null || st.THREAD_LOCAL() != null)) lasting = true;
        }
        for (InitDeclaratorContext id : d.initDeclarator()) {
            DeclaratorContext dc = id.declarator();
            String name = declName(dc);
            if (isFunctionDeclarator(dc)) continue;
            CType t = declType(base, dc);
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
                        v = memo.get(initExpr);
                    }
                }
            }
            if (base == null) t = declType(v == null ? CType.UNKNOWN : v.type, dc); // auto
            int line = dc.start.getLine();
            if (v != null && initExpr != null) {
                convert(t, v, initExpr, () -> "initialization of '" + name + "'", false);
                promotions.promotion(t, v, initExpr, () -> "float '" + name + "'");
            }
            if (t.kind == CType.Kind.LONG_DOUBLE && host) {
                reportLongDouble(
                        Reporter.Pos.of(dc.start, dc.stop),
                        "'" + name + "'",
                        "long double " + name,
                        longDoubleOrigin(d.declSpecifierSeq(), base));
            }
            flow.declTypes.put(id, t);
            if (lasting && name != null) aliased.add(name);
            Local l = declare(name, t, isConst && v != null ? v.cval : null, line);
            if (l != null && v != null && initExpr != null) define(l, v);
            if (l != null
                    && v != null
                    && initExpr != null
                    && defCounts.getOrDefault(name, 0) == 1
                    && !aliased.contains(name)) {
                // the initializer is the variable's only definition: its interval is the variable's
                E held = E.of(t);
                if (t.isInteger()) Intervals.set(held, trunc(v.lo), trunc(v.hi));
                else if (t.isFloating()) Intervals.set(held, v.lo, v.hi);
                l.lo = held.lo;
                l.hi = held.hi;
            }
            if (l != null && v != null && initExpr != null) {
                l.scopeNode = declarationScope(d);
                l.nonNegInit = v.nonNeg || v.type.isUnsignedInt() || (v.cval != null && v.cval >= 0);
                // set once from a whole number (float r = (float) k, k a bounded counter): r is that whole number
                Double m = E.wholeBound(v);
                if (m != null
                        && (t.isFpScalar() || t.isInteger())
                        && m <= wholeLimit(t)
                        && l.scopeNode != null
                        && defs(l.scopeNode, name) == 1) {
                    l.intBound = m;
                }
            }
            if (l != null && initExpr != null && t.isFpScalar() && useCounts.getOrDefault(name, 0) == 2) {
                ExpressionContext p = stripParens(initExpr);
                if (p instanceof MulExprContext
                        && ((MulExprContext) p).STAR() != null
                        && v.type.kind == t.kind // a double product stored in a float is rounded: no fusing
                        && !exactProduct((MulExprContext) p)) {
                    l.product = text(p);
                }
            }
        }
    }

    private Local declare(String name, CType t, Double cval, int line) {
        if (name == null) return null;
        if (integral(t)) integers.add(name);
        Local l = new Local(name, t, loops.size(), cval, line);
        scopes.peek().put(name, l);
        return l;
    }

    Local lookup(String name) {
        for (Map<String, Local> m : scopes) {
            Local l = m.get(name);
            if (l != null) return l;
        }
        return null;
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
        memo.put(e, r);
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
            CType t = m == null ? CType.UNKNOWN : bt.member(m, scope.structs);
            return guardedText(leaf(t, null), c);
        }
        if (e instanceof UnaryExprContext) return unary((UnaryExprContext) e);
        if (e instanceof PostIncExprContext) {
            E v = expr(((PostIncExprContext) e).expression());
            E r = E.of(v.type);
            copyLeaves(r, v);
            return r;
        }
        if (e instanceof CastExprContext) {
            CastExprContext c = (CastExprContext) e;
            return cast(
                    typeOf(c.typeId()), expr(c.expression()), c, c.expression(), () -> "(" + text(c.typeId()) + ")");
        }
        if (e instanceof ParenCastExprContext) {
            ParenCastExprContext c = (ParenCastExprContext) e;
            E v = commaExpr(c.commaExpression());
            ExpressionContext last = c.commaExpression()
                    .expression(c.commaExpression().expression().size() - 1);
            return cast(typeOf(c.typeId()), v, c, last, () -> "(" + text(c.typeId()) + ")");
        }
        if (e instanceof NamedCastExprContext) {
            NamedCastExprContext c = (NamedCastExprContext) e;
            E v = expr(c.expression());
            if (c.STATIC_CAST() == null) return E.of(typeOf(c.typeId()));
            return cast(typeOf(c.typeId()), v, c, c.expression(), () -> "static_cast<" + text(c.typeId()) + ">");
        }
        if (e instanceof FunctionalCastExprContext) {
            FunctionalCastExprContext c = (FunctionalCastExprContext) e;
            CType t = Decls.specType(
                    toks.subList(
                            c.start.getTokenIndex(),
                            c.builtinType(c.builtinType().size() - 1).stop.getTokenIndex() + 1),
                    scope,
                    f.templateParams);
            if (c.argumentList() != null
                    && c.argumentList().argument().size() == 1
                    && c.argumentList().argument(0).expression() != null) {
                ExpressionContext a = c.argumentList().argument(0).expression();
                E v = expr(a);
                return cast(
                        t,
                        v,
                        c,
                        a,
                        () -> text(
                                c,
                                c.start.getTokenIndex(),
                                c.builtinType(c.builtinType().size() - 1).stop.getTokenIndex()));
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
            E r = E.of(CType.arith(a.type, b.type));
            if (a.type.kind == CType.Kind.POINTER || a.type.kind == CType.Kind.STRUCT) r.type = a.type;
            copyLeaves(r, a);
            copyLeaves(r, b);
            r.promoter = a.promoter != null ? a.promoter : b.promoter;
            r.guarded = containsRelational(c.expression(0)) || (a.guarded && b.guarded);
            r.compared |= containsRelational(c.expression(0));
            Intervals.set(r, Math.min(a.lo, b.lo), Math.max(a.hi, b.hi));
            r.nonNeg = a.nonNeg && b.nonNeg;
            if (a.cval != null && b.cval != null && a.cval >= 0 && b.cval >= 0) r.nonNeg = true;
            return r;
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
            CType t = a.type.isInteger() ? CType.promote(a.type) : CType.UNKNOWN;
            E r = E.of(t);
            if (a.cval != null && b.cval != null && e instanceof ShiftExprContext) {
                long x = a.cval.longValue();
                long y = b.cval.longValue();
                r.cval = (double) (((ShiftExprContext) e).SHL() != null ? x << y : x >> y);
            }
            return r;
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
            return E.of(CType.pointer(typeOf(c.typeId())));
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
        if (!guardedTexts.isEmpty() && r.type.isFpScalar() && guardedTexts.contains(text(c))) {
            r.guarded = true;
            r.compared = true;
        }
        return r;
    }

    private E leaf(CType t, String var) {
        E r = E.of(t);
        if (t.isFpScalar() || t.kind == CType.Kind.VECTOR && t.elem.isFpScalar()) {
            r.fpLeaf = true;
            r.f32Leaf = t.kind == CType.Kind.FLOAT || (t.kind == CType.Kind.VECTOR && t.elem.kind == CType.Kind.FLOAT);
            r.dblVar = t.kind == CType.Kind.DOUBLE;
        }
        r.var = var;
        if (var != null && guardedVars.contains(var)) {
            r.guarded = true;
            r.compared = true;
        }
        return r;
    }

    private static void copyLeaves(E to, E from) {
        to.fpLeaf |= from.fpLeaf;
        to.f32Leaf |= from.f32Leaf;
        to.dblVar |= from.dblVar;
        to.guarded |= from.guarded;
        to.compared |= from.compared;
        if (to.promotedVar == null) to.promotedVar = from.promotedVar;
    }

    private CType typeOf(TypeIdContext t) {
        if (t == null) return CType.UNKNOWN;
        CType base = specType(t.declSpecifierSeq());
        if (base == null) base = CType.UNKNOWN;
        AbstractDeclaratorContext a = t.abstractDeclarator();
        if (a != null) {
            for (PtrOperatorContext p : a.ptrOperator()) {
                if (p.STAR() != null) base = CType.pointer(base);
            }
            if (a.LPAREN().size() > 0) base = CType.pointer(CType.UNKNOWN);
        }
        return base;
    }

    private E primary(PrimaryContext p) {
        if (p instanceof LiteralPrimaryContext) {
            LiteralContext l = ((LiteralPrimaryContext) p).literal();
            String s = l.getText();
            if (l.CHAR_LITERAL() != null) return E.of(CType.CHAR);
            boolean fl = l.FLOATING_LITERAL() != null;
            E r = E.of(Literals.type(s, fl));
            r.cval = Literals.value(s);
            if (r.cval != null && r.cval >= 0) r.nonNeg = true;
            if (fl && r.type.kind == CType.Kind.DOUBLE) r.dblLiteral = s;
            return r;
        }
        if (p instanceof StringPrimaryContext) return E.of(CType.pointer(CType.CHAR));
        if (p instanceof KeywordPrimaryContext) {
            KeywordPrimaryContext k = (KeywordPrimaryContext) p;
            if (k.THIS() != null) return E.of(cls == null ? CType.UNKNOWN : CType.pointer(CType.struct(cls.name)));
            if (k.NULLPTR() != null) return E.of(CType.pointer(CType.VOID));
            E r = E.of(CType.BOOL);
            r.cval = k.TRUE() != null ? 1.0 : 0.0;
            return r;
        }
        if (p instanceof ParenPrimaryContext) {
            E v = commaExpr(((ParenPrimaryContext) p).commaExpression());
            E r = copy(v);
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
            CType t = scope.lookupType(b.qualifiedName().getStop().getText());
            return E.of(t == null ? CType.UNKNOWN : t);
        }
        if (p instanceof NamePrimaryContext) {
            QualifiedNameContext q = ((NamePrimaryContext) p).qualifiedName();
            return name(q);
        }
        if (p instanceof StmtExprPrimaryContext) {
            block(((StmtExprPrimaryContext) p).compoundStatement());
            return E.UNKNOWN;
        }
        return E.UNKNOWN;
    }

    private static E copy(E v) {
        E r = E.of(v.type);
        r.cval = v.cval;
        copyLeaves(r, v);
        r.promoter = v.promoter;
        r.nonNeg = v.nonNeg;
        r.dblLiteral = v.dblLiteral;
        r.lo = v.lo;
        r.hi = v.hi;
        r.intMag = v.intMag;
        return r;
    }

    private E name(QualifiedNameContext q) {
        List<NameComponentContext> cs = q.nameComponent();
        if (cs.size() != 1 || q.SCOPE().size() > 0) {
            String last = cs.get(cs.size() - 1).IDENTIFIER().getText();
            FileScope.Var g = scope.globals.get(last);
            if (g != null && cs.size() > 1) {
                E r = leaf(g.type(), last);
                r.cval = g.constValue();
                return r;
            }
            return E.UNKNOWN;
        }
        String n = cs.get(0).IDENTIFIER().getText();
        Local l = lookup(n);
        if (l != null) {
            E r = leaf(l.type, n);
            double[] reaching = reach.get(l);
            r.lo = reaching != null ? reaching[0] : l.lo;
            r.hi = reaching != null ? reaching[1] : l.hi;
            r.intMag = l.intBound;
            if (l.cval != null) {
                r.cval = l.cval;
                r.fpLeaf = false;
                r.f32Leaf = false;
                r.dblVar = false;
                r.nonNeg = l.cval >= 0;
            }
            return r;
        }
        if (cls != null) {
            CType ft = cls.fields.get(n);
            if (ft != null) return leaf(ft, n);
        }
        FileScope.Var g = scope.globals.get(n);
        if (g != null) {
            E r = leaf(g.type(), n);
            if (g.constValue() != null) {
                r.cval = g.constValue();
                r.fpLeaf = r.f32Leaf = r.dblVar = false;
            }
            return r;
        }
        CType b = Builtins.builtinVariable(n);
        if (b != null) {
            E r = E.of(b);
            Double value = Builtins.builtinValue(n);
            if (value != null) Intervals.set(r, value, value); // the interval only: other rules see no constant
            return r;
        }
        return E.UNKNOWN;
    }

    private void lambda(LambdaContext l) {
        boolean saveD = device;
        boolean saveH = host;
        if (!l.DEVICE().isEmpty()) {
            device = true;
            host = !l.HOST().isEmpty();
        }
        Map<String, Local> ps = new HashMap<>();
        if (l.parameterList() != null) {
            for (ParameterContext pc : l.parameterList().parameter()) {
                CType base = specType(pc.declSpecifierSeq());
                if (pc.declarator() != null) {
                    String n = declName(pc.declarator());
                    if (n != null)
                        ps.put(
                                n,
                                new Local(n, declType(base, pc.declarator()), loops.size(), null, pc.start.getLine()));
                }
            }
        }
        // a lambda body runs per call: loops outside it do not carry its accumulators
        List<Loop> saved = new ArrayList<>(loops);
        loops.clear();
        scopes.push(ps);
        // the body runs when the lambda is called, not here: what it defines reaches nothing after it
        IdentityHashMap<Local, double[]> before = reachState();
        block(l.compoundStatement());
        reach.clear();
        reach.putAll(before);
        scopes.pop();
        loops.addAll(saved);
        device = saveD;
        host = saveH;
    }

    private E unary(UnaryExprContext c) {
        E v = expr(c.expression());
        if (c.STAR() != null) {
            CType t = v.type.kind == CType.Kind.POINTER ? v.type.elem : CType.UNKNOWN;
            return leaf(t, v.var);
        }
        if (c.AMP() != null) {
            E r = E.of(v.type.isUnknown() ? CType.UNKNOWN : CType.pointer(v.type));
            r.var = v.var;
            return r;
        }
        if (c.BANG() != null) return E.of(CType.BOOL);
        E r = copy(v);
        if (c.MINUS() != null) {
            Intervals.set(r, -v.hi, -v.lo);
            if (v.cval != null) r.cval = -v.cval;
            r.nonNeg = r.cval != null && r.cval >= 0;
            r.dblLiteral = v.dblLiteral == null ? null : "-" + v.dblLiteral;
        }
        if (c.TILDE() != null) {
            r.cval = null;
            r.type = CType.promote(v.type);
            r.lo = Double.NEGATIVE_INFINITY;
            r.hi = Double.POSITIVE_INFINITY;
            r.intMag = null;
        }
        if (c.PLUS_PLUS() != null || c.MINUS_MINUS() != null) {
            r.cval = null;
            r.lo = Double.NEGATIVE_INFINITY;
            r.hi = Double.POSITIVE_INFINITY;
            r.intMag = null;
        }
        return r;
    }

    /** Result of a binary arithmetic operator: type, constant folding, leaf flags and double promotion. */
    private E arith(E a, E b, int op) {
        CType t = CType.arith(a.type, b.type);
        E r = E.of(t);
        copyLeaves(r, a);
        copyLeaves(r, b);
        Intervals.arith(r, a, b, op);
        // a range-limited value keeps its range through scaling (clamped * 255.0f, x / h under x > 0) and through
        // sums with constants or other range-limited values (clamped * 255.0f + 0.5f), but not through a sum with an
        // unbounded operand: source.x + fminf(a, b) * ray.x can be anything
        if (op == CudaLexer.PLUS || op == CudaLexer.MINUS) {
            r.guarded = (a.guarded || a.cval != null) && (b.guarded || b.cval != null) && (a.guarded || b.guarded);
        }
        if (a.cval != null && b.cval != null) {
            double x = a.cval;
            double y = b.cval;
            boolean integer = t.isInteger();
            switch (op) {
                case CudaLexer.PLUS:
                    r.cval = x + y;
                    break;
                case CudaLexer.MINUS:
                    r.cval = x - y;
                    break;
                case CudaLexer.STAR:
                    r.cval = x * y;
                    break;
                case CudaLexer.DIV:
                    r.cval = y == 0 ? null : integer ? (double) ((long) x / (long) y) : x / y;
                    break;
                case CudaLexer.MOD:
                    r.cval = y == 0 ? null : (double) ((long) x % (long) y);
                    break;
                default:
                    break;
            }
        }
        if (t.kind == CType.Kind.DOUBLE && r.cval == null) {
            // an integer combined with a double literal (i + 0.5) keeps the literal as the reason for double
            if (a.type.isInteger() && b.dblLiteral != null) r.dblLiteral = b.dblLiteral;
            else if (b.type.isInteger() && a.dblLiteral != null) r.dblLiteral = a.dblLiteral;
        }
        if (t.kind == CType.Kind.DOUBLE) {
            if (a.dblVar || b.dblVar) {
                r.promoter = null;
            } else if (a.type.kind == CType.Kind.FLOAT && a.f32Leaf && b.type.kind == CType.Kind.DOUBLE) {
                r.promoter = b.dblLiteral != null ? "the double literal " + b.dblLiteral : b.promoter;
                r.promotedVar = a.var;
            } else if (b.type.kind == CType.Kind.FLOAT && b.f32Leaf && a.type.kind == CType.Kind.DOUBLE) {
                r.promoter = a.dblLiteral != null ? "the double literal " + a.dblLiteral : a.promoter;
                r.promotedVar = b.var;
            } else {
                r.promoter = a.promoter != null ? a.promoter : b.promoter;
            }
        }
        if (op == CudaLexer.STAR || op == CudaLexer.DIV) {
            r.nonNeg = a.nonNeg && b.nonNeg;
        } else if (op == CudaLexer.PLUS) {
            r.nonNeg = a.nonNeg && b.nonNeg;
        }
        if (r.cval != null) r.nonNeg = r.cval >= 0;
        r.intMag = wholeResult(E.wholeBound(a), E.wholeBound(b), op, t);
        return r;
    }

    /**
     * The magnitude bound of a whole-number result of {@code a op b} in type {@code t}: sums, differences and products
     * of whole numbers are whole (and exact while they stay below 2^24 in float, 2^53 in double); an integer quotient
     * or remainder is bounded by its operands. Null when the result may be fractional, unbounded or rounded.
     */
    private static Double wholeResult(Double a, Double b, int op, CType t) {
        if (a == null || b == null || !(t.isFpScalar() || t.isInteger())) return null;
        double m;
        switch (op) {
            case CudaLexer.PLUS, CudaLexer.MINUS -> m = a + b;
            case CudaLexer.STAR -> m = a * b;
            case CudaLexer.DIV -> {
                if (!t.isInteger()) return null;
                m = a;
            }
            case CudaLexer.MOD -> m = Math.min(a, b);
            default -> {
                return null;
            }
        }
        return m <= wholeLimit(t) ? m : null;
    }

    /**
     * The largest whole number {@code t} holds, and computes with, exactly: 2^24 in float, 2^53 in double, the
     * largest value of a 32-bit int (beyond it a product may overflow).
     */
    static double wholeLimit(CType t) {
        if (t.kind == CType.Kind.FLOAT) return FloatExactness.FLOAT_INTEGER_LIMIT;
        if (t.isFpScalar()) return FloatExactness.DOUBLE_INTEGER_LIMIT;
        if (t.isInteger()) return t.size >= 8 ? FloatExactness.DOUBLE_INTEGER_LIMIT : Integer.MAX_VALUE;
        return 0;
    }

    private E mul(MulExprContext c) {
        E a = expr(c.expression(0));
        E b = expr(c.expression(1));
        int op = ((TerminalNode) c.getChild(1)).getSymbol().getType();
        E r = arith(a, b, op);
        if (op == CudaLexer.DIV && device && r.type.kind == CType.Kind.FLOAT && r.cval == null) {
            facts.divisions.add(new FunctionFacts.Division(site(c), null));
        }
        return r;
    }

    private E add(AddExprContext c) {
        E a = expr(c.expression(0));
        E b = expr(c.expression(1));
        int op = ((TerminalNode) c.getChild(1)).getSymbol().getType();
        E r = arith(a, b, op);
        if (r.type.isFpScalar()) {
            String prod = productOperand(c.expression(0));
            if (prod == null) prod = productOperand(c.expression(1));
            if (prod != null) {
                boolean both = productOperand(c.expression(0)) != null && productOperand(c.expression(1)) != null;
                // -a*b + c*d is a difference of products too
                boolean difference =
                        both && (op == CudaLexer.MINUS) != (negated(c.expression(0)) != negated(c.expression(1)));
                contraction(c, prod, op == CudaLexer.MINUS, difference, false, difference && flow.pairedComponent(c));
            }
        }
        return r;
    }

    /** The product text when {@code e} (parentheses stripped) is a floating multiplication or a single-use product temporary. */
    private String productOperand(ExpressionContext e) {
        ExpressionContext p = stripParens(e);
        if (p instanceof MulExprContext && ((MulExprContext) p).STAR() != null) {
            E v = memo.get(p);
            if (v != null && v.type.isFpScalar() && v.cval == null && !exactProduct((MulExprContext) p)) return text(p);
        }
        String n = simpleName(p);
        if (n != null) {
            Local l = lookup(n);
            if (l != null && l.product != null) return n + " = " + l.product + " (line " + l.line + ")";
        }
        return null;
    }

    /**
     * A product that is exact, so fusing it changes nothing: a power-of-two factor (0.5f*x, 2*x, x*1.0f), two
     * whole-number constants whose product float holds exactly, or a double product of two values float holds
     * ({@code (double) a * b}, {@code (p / 2.0) * (p / 2.0)}: 24 + 24 significant bits fit in 53).
     */
    private boolean exactProduct(MulExprContext m) {
        E a = memo.get(m.expression(0));
        E b = memo.get(m.expression(1));
        for (E v : new E[] {a, b}) {
            if (v != null && v.cval != null && NumericFacts.isPowerOfTwoOrZero(v.cval)) return true;
        }
        E r = memo.get(m);
        if (r != null
                && (r.type.kind == CType.Kind.DOUBLE || r.type.kind == CType.Kind.LONG_DOUBLE)
                && promotions.floatValued(m.expression(0))
                && promotions.floatValued(m.expression(1))) return true;
        if (a != null
                && b != null
                && a.cval != null
                && b.cval != null
                && NumericFacts.isExactFloatInteger(a.cval * b.cval)) return true;
        // whole numbers whose product the type holds exactly ({@code i * i} of a float counter from -R to R)
        Double ma = E.wholeBound(a);
        Double mb = E.wholeBound(b);
        return r != null && ma != null && mb != null && r.type.isFpScalar() && ma * mb <= wholeLimit(r.type);
    }

    private void contraction(
            ParserRuleContext c, String prod, boolean subtract, boolean differenceOfProducts, boolean accumulates) {
        contraction(c, prod, subtract, differenceOfProducts, accumulates, false);
    }

    private void contraction(
            ParserRuleContext c,
            String prod,
            boolean subtract,
            boolean differenceOfProducts,
            boolean accumulates,
            boolean pairedComponent) {
        facts.contractions.add(new FunctionFacts.Contraction(
                site(c), prod, subtract, differenceOfProducts, accumulates, pairedComponent));
    }

    /**
     * A product whose sign a minus flips: an odd number of negated factors ({@code -a*b}, {@code -(a*b)},
     * {@code (-a)*b}, {@code a*(-b)}). A square ({@code (-a)*(-a)}, {@code x*x}) cannot be negative, and two negated
     * factors make a positive product: {@code (-a)*(-a) + b*b} is a sum of squares, which cannot cancel.
     */
    private static boolean negated(ExpressionContext e) {
        ExpressionContext p = stripParens(e);
        if (p instanceof UnaryExprContext && ((UnaryExprContext) p).MINUS() != null) {
            return !negated(((UnaryExprContext) p).expression());
        }
        if (p instanceof MulExprContext && ((MulExprContext) p).STAR() != null) {
            ExpressionContext l = stripParens(((MulExprContext) p).expression(0));
            ExpressionContext r = stripParens(((MulExprContext) p).expression(1));
            if (l.getText().equals(r.getText())) return false; // a square
            return negated(l) != negated(r);
        }
        return false;
    }

    private static boolean containsRelational(ParseTree t) {
        if (t instanceof RelExprContext) return true;
        if (t instanceof TerminalNode) return false;
        for (int i = 0; i < t.getChildCount(); i++) if (containsRelational(t.getChild(i))) return true;
        return false;
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
        if (op.ASSIGN() != null && topAssigns.contains(c)) define(lookup(simpleName(c.expression(0))), rhs);
        if (op.ASSIGN() != null) {
            convert(lt, rhs, rc, () -> "assignment to '" + text(c.expression(0)) + "'", false);
            promotions.promotion(lt, rhs, rc, () -> "'" + text(c.expression(0)) + "'");
            if (rhs.guarded) {
                if (lhs.var != null && simpleName(c.expression(0)) != null) guardedVars.add(lhs.var);
                else if (lt.isFpScalar()) guardedTexts.add(text(c.expression(0)));
            }
            // s = s + x / s = x + s / s = fmaf(a, b, s)
            ExpressionContext r = stripParens(rc);
            if (r instanceof AddExprContext && lt.isFpScalar()) {
                AddExprContext a = (AddExprContext) r;
                String target = text(c.expression(0));
                String l0 = text(stripParens(a.expression(0)));
                String r0 = text(stripParens(a.expression(1)));
                if (target.equals(l0) || (a.PLUS() != null && target.equals(r0))) {
                    sums.accumulation(c, c.expression(0), target.equals(l0) ? a.expression(1) : a.expression(0), false);
                }
            } else if (r instanceof CallExprContext && lt.isFpScalar()) {
                CallExprContext call = (CallExprContext) r;
                String callee = calleeName(call.expression());
                if (callee != null
                        && NumericFacts.FMA_FUNCTIONS.contains(
                                callee.startsWith("std::") ? callee.substring(5) : callee)
                        && call.argumentList() != null
                        && call.argumentList().argument().size() == 3) {
                    ArgumentContext acc = call.argumentList().argument(2);
                    ArgumentContext first = call.argumentList().argument(0);
                    if (acc.expression() != null
                            && first.expression() != null
                            && text(stripParens(acc.expression())).equals(text(c.expression(0)))) {
                        sums.accumulation(c, c.expression(0), first.expression(), true);
                    }
                }
            }
        } else if (op.PLUS_ASSIGN() != null || op.MINUS_ASSIGN() != null) {
            if (lt.isFpScalar()) {
                String prod = productOperand(rc);
                if (prod != null) contraction(c, prod, op.MINUS_ASSIGN() != null, false, true);
                sums.accumulation(c, c.expression(0), rc, false);
            }
            promotions.promotionCompound(lt, rhs, c);
        } else if (op.STAR_ASSIGN() != null || op.DIV_ASSIGN() != null) {
            promotions.promotionCompound(lt, rhs, c);
            if (op.DIV_ASSIGN() != null
                    && device
                    && lt.kind == CType.Kind.FLOAT
                    && rhs.type.kind != CType.Kind.DOUBLE) {
                facts.divisions.add(new FunctionFacts.Division(site(c), null));
            }
        }
        E r = E.of(lt);
        r.var = lhs.var;
        return r;
    }

    /** Loop bounds that count spatial dimensions ({@code d < ndim}, {@code k < dims}): 2-3 iterations. */
    private static final java.util.regex.Pattern DIMENSIONS =
            java.util.regex.Pattern.compile("(?i)(n_?|num_?)?dim(s|ension|ensions)?|n?dims?|rank");

    // ------------------------------------------------------------------ conversions
    private E cast(CType target, E v, ParserRuleContext whole, ExpressionContext operand, Supplier<String> castText) {
        if (target == null) target = CType.UNKNOWN;
        convert(target, v, operand, castText, true, whole);
        if (target.kind == CType.Kind.LONG_DOUBLE && host) {
            reportLongDouble(pos(whole), "cast " + text(whole), text(whole));
        }
        E r = E.of(target);
        r.guarded = v.guarded;
        r.compared = v.compared;
        // a conversion to an integer truncates toward zero (an out-of-range value leaves the type's range: set())
        if (target.isInteger()) Intervals.set(r, trunc(v.lo), trunc(v.hi));
        else if (target.isFloating()) Intervals.set(r, v.lo, v.hi);
        r.nonNeg = v.nonNeg || target.isUnsignedInt();
        if (v.cval != null) {
            r.cval = target.isInteger() ? (double) (long) (double) v.cval : v.cval;
        }
        if (target.isFloating()) {
            r.fpLeaf = v.fpLeaf;
            r.f32Leaf = target.kind == CType.Kind.FLOAT && v.fpLeaf;
            r.dblVar = target.kind == CType.Kind.DOUBLE && v.fpLeaf;
            r.var = v.var;
        }
        // a whole number converted to a type that holds it exactly stays the same whole number
        if (v.intMag != null && (target.isFpScalar() || target.isInteger()) && v.intMag <= wholeLimit(target)) {
            r.intMag = v.intMag;
        }
        return r;
    }

    private static double trunc(double x) {
        return x < 0 ? Math.ceil(x) : Math.floor(x);
    }

    private void convert(CType target, E v, ExpressionContext src, Supplier<String> how, boolean explicit) {
        convert(target, v, src, how, explicit, src);
    }

    private void convert(
            CType target, E v, ExpressionContext src, Supplier<String> howS, boolean explicit, ParserRuleContext at) {
        if (target == null || v == null || !v.type.isFpScalar() || target.kind != CType.Kind.INT) return;
        boolean unsigned = target.unsigned;
        if (!unsigned && !target.isNarrowSigned()) return;
        // a clamp or a bounded function keeps the value range-limited, but scaled past the target's range it guards
        // nothing: (short)(fmaxf(fminf(x, 1), -1) * 40000.0f). Only the interval sees that, and only when no
        // comparison it does not see narrows the value further
        boolean guarded = v.guarded;
        double[] range = Intervals.ofType(target);
        if (guarded
                && !v.compared
                && range != null
                && !Double.isInfinite(v.lo)
                && !Double.isInfinite(v.hi)
                && !FunctionFacts.Conversion.within(v.lo, v.hi, range[0], range[1])) {
            guarded = false;
        }
        facts.conversions.add(new FunctionFacts.Conversion(
                site(at),
                howS.get(),
                text(src),
                v.type.toString(),
                target.name,
                unsigned,
                target.size,
                v.cval,
                guarded,
                v.fpLeaf,
                v.nonNeg || v.lo >= 0,
                v.lo,
                v.hi,
                explicit));
    }

    private void reportLongDouble(Reporter.Pos pos, String what, String snippet) {
        reportLongDouble(pos, what, snippet, null);
    }

    private void reportLongDouble(Reporter.Pos pos, String what, String snippet, String origin) {
        facts.longDoubles.add(new FunctionFacts.LongDouble(
                pos.site(snippet, device, host, null),
                what,
                origin,
                f.longDoubleSpecialisation ? "a specialisation for long double" : null));
    }

    /** The macro that the {@code long} of a declaration's specifiers comes from, or null. */
    private static String longMacro(ParseTree t) {
        if (t instanceof TerminalNode n) {
            org.antlr.v4.runtime.Token tk = n.getSymbol();
            return tk.getType() == CudaLexer.LONG && tk instanceof PToken p ? p.fromMacro : null;
        }
        for (int i = 0; i < t.getChildCount(); i++) {
            String m = longMacro(t.getChild(i));
            if (m != null) return m;
        }
        return null;
    }

    /**
     * What introduces the long double type of a declaration: the macro its specifiers come from ("macro REALXP"),
     * the typedef name ("typedef real"), or the declaration itself (its variables are one finding).
     */
    private static String longDoubleOrigin(DeclSpecifierSeqContext specs, CType base) {
        org.antlr.v4.runtime.Token first = specs.start;
        String macro = longMacro(specs);
        if (macro != null) return "macro " + macro;
        if (base != null && base.name != null && !base.name.equals(CType.LONG_DOUBLE.name)) {
            return "typedef " + base.name;
        }
        return "declaration " + first.getLine() + ":" + first.getCharPositionInLine();
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
        if (name == null) {
            ExpressionContext callee = c.expression();
            if (callee instanceof MemberExprContext) {
                MemberExprContext m = (MemberExprContext) callee;
                E base = expr(m.expression());
                CType bt = base.type;
                if (m.ARROW() != null && bt.kind == CType.Kind.POINTER) bt = bt.elem;
                if (bt.kind == CType.Kind.STRUCT && m.qualifiedName() != null) {
                    StructInfo s = scope.structs.get(bt.name);
                    if (s != null) {
                        CType rt = s.methods.get(m.qualifiedName().getStop().getText());
                        if (rt != null) return leafCall(rt, args);
                    }
                }
            } else {
                expr(callee);
            }
            return E.UNKNOWN;
        }
        if (calls != null && calls.records(name) && lookup(name) == null) calls.record(c, name, args);
        String shortName = name.startsWith("std::") ? name.substring(5) : name;
        // facts about the call itself
        if (shortName.equals("__fdividef") || shortName.equals("fdividef")) {
            facts.divisions.add(new FunctionFacts.Division(site(c), shortName));
        } else {
            boolean fast = Builtins.FAST_INTRINSICS.contains(shortName);
            String mapped = device ? fastMapped(shortName, args) : null;
            boolean fsqrt = device && isFloatSqrt(shortName, args);
            boolean transcendental = Builtins.TRANSCENDENTAL.contains(name);
            if (fast || mapped != null || fsqrt || transcendental) {
                facts.calls.add(
                        new FunctionFacts.MathCall(site(c), name, shortName, fast, mapped, fsqrt, transcendental));
            }
        }
        if (ATOMIC_ADDS.contains(shortName) && !args.isEmpty()) atomic(c, args);
        // result type
        if (Builtins.CONVERSION_INTRINSICS.contains(shortName)) {
            E r = E.of(Builtins.FUNCS.get(shortName));
            r.guarded = true;
            return r;
        }
        if (Builtins.SAME_AS_ARG.contains(name)
                || Builtins.SAME_AS_ARG.contains(shortName) && name.startsWith("std::")) {
            E first = args.isEmpty() ? E.UNKNOWN : args.get(0);
            CType t = first.type;
            if (ATOMIC_ADDS.contains(shortName) || shortName.startsWith("atomic") || shortName.startsWith("__ld")) {
                t = t.kind == CType.Kind.POINTER ? t.elem : CType.UNKNOWN;
            } else if (args.size() >= 2 && (shortName.equals("min") || shortName.equals("max"))) {
                t = CType.arith(args.get(0).type, args.get(1).type);
            }
            if (shortName.startsWith("__shfl") && args.size() >= 2)
                t = args.get(shortName.endsWith("_sync") ? 1 : 0).type;
            E r = leafCall(t, args);
            Intervals.call(r, shortName, args);
            if (Builtins.CLAMPS.contains(name) || Builtins.CLAMPS.contains(shortName)) r.guarded = true;
            if (shortName.equals("fabs") || shortName.equals("abs")) r.nonNeg = true;
            if (args.size() == 1 && args.get(0).cval != null && (shortName.equals("fabs") || shortName.equals("abs"))) {
                r.cval = Math.abs(args.get(0).cval);
            }
            return r;
        }
        CType bt = Builtins.FUNCS.get(shortName);
        if (bt != null && lookup(shortName) == null && !scope.functions.containsKey(shortName)) {
            E r = drawResult(leafCall(bt, args), shortName);
            Intervals.call(r, shortName, args);
            // a comparison of the argument narrows nothing the fixed interval of sin, tanh, ... does not hold
            if (Intervals.fixed(shortName)) r.compared = false;
            if (Builtins.CLAMPS.contains(shortName)) r.guarded = true;
            if (Builtins.BOUNDED.contains(shortName)) r.guarded = true; // sin, cos, tanh, erf: in [-1, 1]
            if (Builtins.NON_NEGATIVE.contains(shortName)) r.nonNeg = true;
            if (bt.kind == CType.Kind.DOUBLE && Builtins.DOUBLE_MATH.contains(shortName)) {
                boolean floatArg = false;
                boolean dblArg = false;
                String fv = null;
                for (E a : args) {
                    if (a.type.kind == CType.Kind.FLOAT && a.f32Leaf) {
                        floatArg = true;
                        if (fv == null) fv = a.var;
                    }
                    if (a.dblVar) dblArg = true;
                    if (a.promoter != null && r.promoter == null) r.promoter = a.promoter;
                }
                if (floatArg && !dblArg && dialect.floatOverloads() && allFloat(args)) {
                    // C++ and CUDA: sin(float) is the float overload, no double involved
                    r.type = CType.FLOAT;
                    r.f32Leaf = true;
                    r.dblVar = false;
                    r.fpLeaf = true;
                } else if (floatArg && !dblArg) {
                    r.f32Leaf = true;
                    r.dblVar = false; // a float promoted by the call, not deliberate double data
                    r.promoter = shortName + "(), not " + shortName + "f()";
                    r.promotedVar = fv;
                }
                if (dblArg) r.promoter = null;
            }
            boolean allConst = !args.isEmpty();
            for (E a : args) if (a.cval == null) allConst = false;
            if (allConst && args.size() == 1) {
                r.fpLeaf = r.f32Leaf = r.dblVar = false;
                r.cval = constMath(shortName, args.get(0).cval);
            }
            return r;
        }
        if (Builtins.TYPES.containsKey(name) || scope.isTypeName(name)) { // functional cast / constructor: float2(...)
            CType t = scope.lookupType(name);
            if (args.size() == 1 && t != null && t.kind == CType.Kind.INT && argCtx.get(0) != null) {
                return cast(t, args.get(0), c, argCtx.get(0), () -> name);
            }
            return E.of(t == null ? CType.UNKNOWN : t);
        }
        List<FileScope.FuncSig> sigs = scope.functions.get(shortName);
        if (sigs == null && cls != null) {
            CType mt = cls.methods.get(shortName);
            if (mt != null) return leafCall(mt, args);
        }
        if (sigs != null) {
            FileScope.FuncSig sig = null;
            for (FileScope.FuncSig s : sigs) {
                if (s.params().size() == args.size()) {
                    if (sig != null && !sig.ret().name.equals(s.ret().name)) {
                        sig = null;
                        break;
                    }
                    sig = s;
                }
            }
            if (sig != null) {
                for (int i = 0; i < args.size(); i++) {
                    if (argCtx.get(i) != null) {
                        int ai = i + 1;
                        convert(
                                sig.params().get(i),
                                args.get(i),
                                argCtx.get(i),
                                () -> "argument " + ai + " of " + shortName + "()",
                                false);
                    }
                }
                return drawResult(leafCall(sig.ret(), args), shortName);
            }
        }
        return E.UNKNOWN;
    }

    private static Double constMath(String f, double x) {
        switch (f) {
            case "sqrt":
            case "sqrtf":
                return Math.sqrt(x);
            case "exp":
            case "expf":
                return Math.exp(x);
            case "log":
            case "logf":
                return Math.log(x);
            case "floor":
            case "floorf":
                return Math.floor(x);
            case "ceil":
            case "ceilf":
                return Math.ceil(x);
            default:
                return null;
        }
    }

    /** A floating random draw (curand_uniform(&s), rand_uniform01(t)) is floating data whatever its arguments. */
    private E drawResult(E r, String name) {
        if (r.type.isFpScalar() && RandomDraws.draws(name, scope)) {
            r.fpLeaf = true;
            r.f32Leaf = r.type.kind == CType.Kind.FLOAT;
            r.dblVar = r.type.kind == CType.Kind.DOUBLE;
        }
        return r;
    }

    private E leafCall(CType t, List<E> args) {
        E r = E.of(t == null ? CType.UNKNOWN : t);
        boolean anyFp = false;
        for (E a : args) {
            anyFp |= a.fpLeaf;
            r.guarded |= a.guarded;
            r.compared |= a.compared;
        }
        if (r.type.isFpScalar()) {
            // a floating result computed from integers only (ceil(n / 256.0)) is integer-derived
            r.fpLeaf = anyFp || args.isEmpty();
            r.f32Leaf = r.fpLeaf && r.type.kind == CType.Kind.FLOAT;
            r.dblVar = r.fpLeaf && r.type.kind == CType.Kind.DOUBLE;
        }
        return r;
    }

    private static String fastMapped(String n, List<E> args) {
        String m = Builtins.FAST_MATH_MAPPED.get(n);
        if (m != null) return m;
        if (!args.isEmpty() && args.get(0).type.kind == CType.Kind.FLOAT) {
            return Builtins.FAST_MATH_MAPPED.get(n + "f");
        }
        return null;
    }

    private static boolean isFloatSqrt(String n, List<E> args) {
        return n.equals("sqrtf") || (n.equals("sqrt") && !args.isEmpty() && args.get(0).type.kind == CType.Kind.FLOAT);
    }

    /** Whether every argument is a float (so C++ overload resolution picks the float version). */
    private static boolean allFloat(List<E> args) {
        for (E a : args) if (a.type.kind != CType.Kind.FLOAT) return false;
        return !args.isEmpty();
    }

    private void atomic(CallExprContext c, List<E> args) {
        CType target = args.get(0).type;
        CType elem = target.kind == CType.Kind.POINTER ? target.elem : null;
        boolean inferred = false;
        if (elem == null || elem.isUnknown()) {
            if (args.size() > 1 && args.get(1).type.isFpScalar() && args.get(1).fpLeaf) {
                elem = args.get(1).type;
                inferred = true;
            } else {
                return;
            }
        }
        boolean fp = elem.isFloating() || (elem.kind == CType.Kind.VECTOR && elem.elem.isFloating());
        Double addend = args.size() > 1 ? args.get(1).cval : null;
        facts.atomics.add(new FunctionFacts.Atomic(site(c), elem.toString(), fp, inferred, addend));
    }

    // ------------------------------------------------------------------ sites
    Site site(ParserRuleContext c) {
        return pos(c).inMacro(macroBody(c)).site(text(c), device, host, () -> flow.uses(c), () -> flow.drawn(c));
    }

    /**
     * The macro whose body holds every token of {@code c} (none passed as an argument from the source), or null: the
     * expression is then written once, in the {@code #define}, however often the macro is used.
     */
    static String macroBody(ParserRuleContext c) {
        String macro = null;
        java.util.ArrayDeque<org.antlr.v4.runtime.tree.ParseTree> todo = new java.util.ArrayDeque<>();
        todo.push(c);
        while (!todo.isEmpty()) {
            org.antlr.v4.runtime.tree.ParseTree t = todo.pop();
            if (t instanceof org.antlr.v4.runtime.tree.TerminalNode n) {
                if (!(n.getSymbol() instanceof PToken p) || p.fromMacro == null) return null;
                if (macro == null) macro = p.fromMacro;
                else if (!macro.equals(p.fromMacro)) return null;
                continue;
            }
            for (int i = t.getChildCount() - 1; i >= 0; i--) todo.push(t.getChild(i));
        }
        return macro;
    }

    // ------------------------------------------------------------------ text
    private int line(ParserRuleContext c) {
        return c.start.getLine();
    }

    /**
     * {@link SyntaxQueries#definitions} from one walk of the body: the positions of every name's definitions, counted
     * within the asked subtree's token range (loops and scopes are asked about many names).
     */
    private Map<String, int[]> defPositions;

    private int defs(ParseTree t, String name) {
        if (!(t instanceof ParserRuleContext c) || c.start == null || c.stop == null || bodyRoot == null) {
            return SyntaxQueries.definitions(t, name);
        }
        if (defPositions == null)
            defPositions = SyntaxQueries.definitionPositions(bodyRoot, SyntaxQueries.definitionMarks(toks));
        int[] at = defPositions.get(name);
        if (at == null) return 0;
        int from = java.util.Arrays.binarySearch(at, c.start.getTokenIndex());
        int to = java.util.Arrays.binarySearch(at, c.stop.getTokenIndex() + 1);
        from = from < 0 ? -from - 1 : firstOf(at, from);
        to = to < 0 ? -to - 1 : firstOf(at, to);
        return to - from;
    }

    /** The first index holding the value at {@code i} in sorted {@code a} (binarySearch may land on any). */
    private static int firstOf(int[] a, int i) {
        while (i > 0 && a[i - 1] == a[i]) i--;
        return i;
    }

    /** Line and columns of {@code c} for a finding. */
    private static Reporter.Pos pos(ParserRuleContext c) {
        return Reporter.Pos.of(c.start, c.stop);
    }

    private String functionText;

    /** The function's tokens (after preprocessing). */
    List<PToken> tokens() {
        return toks;
    }

    /** The whole text of {@code c}, its tokens joined without spaces ({@link #text} shortens long texts). */
    String fullText(ParserRuleContext c) {
        StringBuilder sb = new StringBuilder();
        int to = c.stop == null ? c.start.getTokenIndex() : c.stop.getTokenIndex();
        for (int i = c.start.getTokenIndex(); i <= to && i < toks.size(); i++)
            sb.append(toks.get(i).getText());
        return sb.toString();
    }

    /** The text of the whole function (computed on first use). */
    String functionText() {
        if (functionText == null) functionText = text(null, 0, toks.size() - 1);
        return functionText;
    }

    String text(ParserRuleContext c) {
        if (c == null) return "";
        return text(c, c.start.getTokenIndex(), c.stop == null ? c.start.getTokenIndex() : c.stop.getTokenIndex());
    }

    String text(ParserRuleContext unused, int a, int b) {
        StringBuilder sb = new StringBuilder();
        int prev = -1;
        for (int i = a; i <= b && i < toks.size(); i++) {
            PToken t = toks.get(i);
            int ty = t.getType();
            boolean word = isWord(ty);
            if (prev >= 0 && word && isWord(prev)) sb.append(' ');
            else if (prev >= 0
                    && (isBinary(ty) || isBinary(prev))
                    && !(ty == CudaLexer.LT || ty == CudaLexer.GT || prev == CudaLexer.LT || prev == CudaLexer.GT))
                sb.append(' ');
            else if (prev == CudaLexer.COMMA) sb.append(' ');
            sb.append(t.getText());
            prev = ty;
            if (sb.length() > 120) {
                sb.append(" ...");
                break;
            }
        }
        return sb.toString().replace("( ", "(");
    }

    private static boolean isWord(int ty) {
        return ty == CudaLexer.IDENTIFIER
                || ty == CudaLexer.INTEGER_LITERAL
                || ty == CudaLexer.FLOATING_LITERAL
                || (ty > CudaLexer.DIRECTIVE && ty < CudaLexer.LAUNCH_OPEN);
    }

    private static boolean isBinary(int ty) {
        switch (ty) {
            case CudaLexer.ASSIGN:
            case CudaLexer.PLUS_ASSIGN:
            case CudaLexer.MINUS_ASSIGN:
            case CudaLexer.STAR_ASSIGN:
            case CudaLexer.DIV_ASSIGN:
            case CudaLexer.EQ:
            case CudaLexer.NE:
            case CudaLexer.AND_AND:
            case CudaLexer.OR_OR:
            case CudaLexer.LE:
            case CudaLexer.GE:
            case CudaLexer.QUESTION:
                return true;
            default:
                return false;
        }
    }
}
