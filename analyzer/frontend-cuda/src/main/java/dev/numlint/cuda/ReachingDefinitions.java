package dev.numlint.cuda;

import static dev.numlint.cuda.ParseTrees.calleeName;
import static dev.numlint.cuda.ParseTrees.declName;
import static dev.numlint.cuda.ParseTrees.simpleName;
import static dev.numlint.cuda.SyntaxQueries.names;
import static dev.numlint.cuda.SyntaxQueries.storedName;
import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.cuda.parser.CudaLexer;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * Reaching definitions of intervals ({@link Intervals}) while {@link FunctionAnalyzer} walks a body: for a local of
 * arithmetic type, the interval of the definition that reaches the walk's current point, where the walk knows it,
 * and the few exact values ({@link E#set}) the reaching definitions take where they are known (their union at a join). The
 * walk follows the structured control flow: an assignment statement {@code x = e;} gives {@code x} the interval of
 * {@code e}; any other write (a compound assignment, an increment, a nested or conditional assignment, {@code x}
 * passed to a function that is not a math builtin) forgets it; the two branches of an if join (the union of their
 * intervals); a loop, a switch and a try forget every name they write, on entry and on exit (a do-while without
 * break, continue or goto keeps the state its body and condition end with). A local without an entry has {@link
 * Local#lo}/{@link Local#hi} (its only definition's interval, or unknown). Names in {@link #aliased} never have an
 * entry.
 */
final class ReachingDefinitions {
    private final List<PToken> toks;
    private final FileScope scope;
    /** Where the body's calls of functions of the translation unit are recorded (by-value parameters), or null. */
    private final CallSiteRanges calls;

    private final DefinitionIndex defs;
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
    final Set<ParserRuleContext> topAssigns = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

    ReachingDefinitions(List<PToken> toks, FileScope scope, CallSiteRanges calls, DefinitionIndex defs) {
        this.toks = toks;
        this.scope = scope;
        this.calls = calls;
        this.defs = defs;
        for (int i = 0; i < toks.size(); i++) aliasing(i, toks.get(i).getType());
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

    /** {@code name} may change without a write the walk sees (a reference parameter, a static local). */
    void alias(String name) {
        aliased.add(name);
    }

    boolean aliased(String name) {
        return aliased.contains(name);
    }

    /** Whether the walk keeps reaching definitions for {@code l}: an arithmetic scalar not in {@link #aliased}. */
    private boolean tracks(Local l) {
        return !reachOff && !aliased.contains(l.name) && (l.type.isInteger() || l.type.isFpScalar());
    }

    /** The interval of the definition of {@code l} that reaches the walk's point, or null. */
    double[] interval(Local l) {
        double[] r = reach.get(l);
        return r == null || r.length == 2 ? r : new double[] {r[0], r[1]};
    }

    /**
     * The few exact values ({@link E#set}) the definitions of {@code l} that reach the walk's point take (0.0 set
     * before an if, 1.0 in one branch: 0 or 1), or null when one of them is not known to be few.
     */
    double[] values(Local l) {
        double[] r = reach.get(l);
        return r == null || r.length == 2 ? null : java.util.Arrays.copyOfRange(r, 2, r.length);
    }

    boolean isEmpty() {
        return reach.isEmpty();
    }

    /** {@code l} is given the value {@code v} (converted to its type) by a definition the walk sees. */
    void define(Local l, E v) {
        if (l == null || !tracks(l)) return;
        E held = E.of(l.type);
        if (l.type.isInteger()) Intervals.set(held, ValueModel.trunc(v.lo), ValueModel.trunc(v.hi));
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
        reach.put(l, entry(held.lo, held.hi, ValueSets.converted(ValueSets.of(v), l.type)));
    }

    /** A reaching definition: its interval, then its few exact values when they are known. */
    private static double[] entry(double lo, double hi, double[] values) {
        if (values == null) return new double[] {lo, hi};
        double[] r = new double[values.length + 2];
        r[0] = lo;
        r[1] = hi;
        System.arraycopy(values, 0, r, 2, values.length);
        return r;
    }

    /** Forgets the reaching definitions of these names. */
    void forget(Set<String> names) {
        if (!names.isEmpty() && !reach.isEmpty()) reach.keySet().removeIf(l -> names.contains(l.name));
    }

    /** Forgets the names {@code t} writes (an asm statement). */
    void forgetWrittenIn(ParseTree t) {
        forget(writtenIn(t, Set.of()));
    }

    /** A scope's locals go: their reaching definitions with them. */
    void leave(Collection<Local> gone) {
        if (!reach.isEmpty()) for (Local l : gone) reach.remove(l);
    }

    /** The names {@code within} writes other than by the assignments and declarations in {@code skip}. */
    Writes writtenBy(ParserRuleContext within, Set<? extends ParseTree> skip) {
        return new Writes(within, () -> writtenIn(within, skip));
    }

    /** What {@code node} may modify. */
    Writes modifiedBy(ParserRuleContext node) {
        return new Writes(node);
    }

    /**
     * The names a statement writes, walked only when there is a reaching definition to forget: most bodies have
     * none, and the walk of every loop for every enclosing statement is the reaching definitions' main cost.
     */
    final class Writes {
        private final java.util.function.Supplier<Set<String>> walk;
        private final ParserRuleContext modifying;
        private Set<String> names;

        /** The names a walk of {@code within} finds ({@link #writtenIn}): it can only find names among its tokens. */
        private final ParserRuleContext within;

        private Writes(ParserRuleContext within, java.util.function.Supplier<Set<String>> walk) {
            this.walk = walk;
            this.modifying = null;
            this.within = within;
        }

        /**
         * What {@code node} may modify ({@link SyntaxQueries#collectModified}), asked of the body's definition
         * positions ({@link DefinitionIndex}) for the names that have a reaching definition, instead of a walk of
         * the node.
         */
        private Writes(ParserRuleContext node) {
            this.walk = null;
            this.modifying = node;
            this.within = null;
        }

        void forget() {
            if (reach.isEmpty()) return;
            if (modifying != null) {
                reach.keySet().removeIf(l -> defs.defs(modifying, l.name) > 0);
                return;
            }
            if (names == null) {
                if (!mentionsReached(within)) return;
                names = walk.get();
            }
            ReachingDefinitions.this.forget(names);
        }
    }

    /** A switch starts: a case label in its body forgets what {@code w} finds. */
    void enterSwitch(Writes w) {
        switchWrites.push(w);
    }

    void leaveSwitch() {
        switchWrites.pop();
    }

    /** A case label is entered from the switch as well as from the statement before it. */
    void caseLabel() {
        if (!switchWrites.isEmpty()) switchWrites.peek().forget();
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
    IdentityHashMap<Local, double[]> state() {
        return new IdentityHashMap<>(reach);
    }

    /** Puts back a state {@link #state} returned. */
    void restore(IdentityHashMap<Local, double[]> state) {
        reach.clear();
        reach.putAll(state);
    }

    /** The reaching definitions where control joins from the walk's current state and {@code other}: unions. */
    void join(IdentityHashMap<Local, double[]> other) {
        Set<Local> all = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        all.addAll(reach.keySet());
        all.addAll(other.keySet());
        for (Local l : all) {
            double[] a = reach.getOrDefault(l, entry(l.lo, l.hi, l.values));
            double[] b = other.getOrDefault(l, entry(l.lo, l.hi, l.values));
            double[] values = a.length == 2 || b.length == 2
                    ? null
                    : ValueSets.union(
                            java.util.Arrays.copyOfRange(a, 2, a.length), java.util.Arrays.copyOfRange(b, 2, b.length));
            reach.put(l, entry(Math.min(a[0], b[0]), Math.max(a[1], b[1]), values));
        }
    }

    /** Names written in {@code t} other than by the assignments and declarations in skip. */
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
}
