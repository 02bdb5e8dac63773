package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.knowledge.NumericFacts;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether the two sides of a test agree where it flips: an {@code if} (with or without {@code else}) or a {@code ?:}
 * whose condition is the comparison {@code a OP b} leaves the same state on both sides when {@code a == b} (the
 * boundary: {@code a} replaced by {@code b}, or {@code b} by {@code a}; {@code x != 0} gives {@code x := 0}). A swap
 * that orders two values ({@code if (a > b) { t = b; b = a; a = t; }}, {@code t} dead afterwards), symmetric arms
 * ({@code if (b1 <= b2) { lo = floor(b1); hi = ceil(b2); } else { lo = floor(b2); hi = ceil(b1); }}) and a skip-zero
 * whose terms carry the tested value as a factor ({@code if (t != 0) { t *= c; for (...) p[k] += w * t; }}) are such
 * tests: one ulp can flip them, but the flip changes nothing (continuous).
 *
 * <p>Each side is evaluated symbolically ({@link Poly}: constants folded, {@code x + 0}, {@code x * 0}, {@code x * 1},
 * {@code x - x} gone, operands ordered) over straight-line code: assignments and compound assignments to variables,
 * stores through {@code p[e]}, {@code *p}, {@code s.f}; declarations scoped to the side; nested ifs; counted loops
 * whose body is a no-op there; calls only of pure math functions (kept as terms); an atomic add of a zero term. Every
 * variable and place either side writes must end with the same value; a variable written on one side compares with its
 * value before the test, and a local whose values differ but is dead after the test ({@link ClangDefUse#deadAfter})
 * does not count. Anything else (a user call, a return, a break, volatile data, a counter {@code n++}) is unknown: the
 * test stays a consequence.
 */
final class ClangAgreeingSides {
    private static final Set<String> PURE = Set.of(
            "fabs",
            "fabsf",
            "abs",
            "sqrt",
            "sqrtf",
            "floor",
            "floorf",
            "ceil",
            "ceilf",
            "round",
            "roundf",
            "rint",
            "rintf",
            "trunc",
            "truncf",
            "fmin",
            "fminf",
            "fmax",
            "fmaxf",
            "min",
            "max",
            "exp",
            "expf",
            "log",
            "logf",
            "sin",
            "sinf",
            "cos",
            "cosf",
            "pow",
            "powf",
            "__float2int_rn",
            "__float2int_rd",
            "__float2int_ru",
            "__float2int_rz",
            "__saturatef");

    private final ClangUnit unit;
    private final Map<ClangNode, Boolean> memo = new IdentityHashMap<>();

    ClangAgreeingSides(ClangUnit unit) {
        this.unit = unit;
    }

    /** The evaluator cannot read a construct: the test stays a consequence. */
    private static final class Unknown extends RuntimeException {
        Unknown() {
            super(null, null, false, false);
        }
    }

    /** Whether the comparison {@code cmp} of {@code fn} is the condition of an if or ?: whose sides agree at its flip. */
    synchronized boolean agree(ClangNode cmp, ClangNode fn) {
        return memo.computeIfAbsent(cmp, c -> {
            try {
                return evaluate(c, fn);
            } catch (Unknown | ArithmeticException e) {
                return false;
            }
        });
    }

    /** {@link #agree} for the comparison spelled {@code text} at {@code line} (a hand-written front end's use). */
    boolean agreeAt(int line, String text) {
        Comparison c = comparisonAt(unit, line, text);
        return c != null && agree(c.node(), c.fn().node());
    }

    private boolean evaluate(ClangNode cmp, ClangNode fn) {
        if (cmp.kind != CXCursor_BinaryOperator || cmp.children.size() != 2) return false;
        ClangNode c = cmp;
        ClangNode p = cmp.parent;
        while (p != null && (p.kind == CXCursor_ParenExpr || p.kind == CXCursor_UnexposedExpr)) {
            c = p;
            p = p.parent;
        }
        if (p == null || p.children.isEmpty() || p.children.get(0) != c) return false;
        boolean conditional = p.kind == CXCursor_ConditionalOperator && p.children.size() == 3;
        if (!conditional && !(p.kind == CXCursor_IfStmt && p.children.size() >= 2 && p.children.size() <= 3))
            return false;
        // the boundary: a := b where a is a variable, else b := a
        State entry = new State(null);
        ClangNode a = strip(cmp.children.get(0));
        ClangNode b = strip(cmp.children.get(1));
        String ka = variable(a);
        String kb = variable(b);
        ClangNode[] returned = returned(p);
        Map<String, Poly> at = null; // the boundary of two terms that are not variables (fabs(l) > fabs(r))
        if (ka != null && !reads(b, a.refUsr)) entry.values.put(ka, value(b, entry));
        else if (kb != null && !reads(a, b.refUsr)) entry.values.put(kb, value(a, entry));
        else if (returned == null || (at = termBoundary(a, b, entry)) == null) return false;
        State yes = new State(entry);
        State no = new State(entry);
        if (returned != null) {
            // if (a > b) return x; else return y; (or return y; after the if): the values returned agree there
            Poly x = value(returned[0], yes);
            Poly y = value(returned[1], no);
            return at == null ? same(x, y) : same(x.substitute(at), y.substitute(at));
        }
        if (conditional) {
            Poly x = value(p.children.get(1), yes);
            Poly y = value(p.children.get(2), no);
            if (!same(x, y)) return false;
        } else {
            statement(p.children.get(1), yes);
            if (p.children.size() == 3) statement(p.children.get(2), no);
        }
        Set<String> keys = new HashSet<>(yes.values.keySet());
        keys.addAll(no.values.keySet());
        for (String k : keys) {
            if (yes.scoped.contains(k) || no.scoped.contains(k)) continue;
            if (same(yes.get(k), no.get(k))) continue;
            // a variable whose differing value no read sees (the swap's temporary)
            if (!k.startsWith("v:") || !unit.deadAfter(p, k.substring(2), fn)) return false;
        }
        return true;
    }

    /**
     * The values an if returns on its two sides, each side a lone {@code return e;} (the else side may be the return
     * right after the if): {@code if (fabs(l) > fabs(r)) return fabs(l); else return fabs(r);}, a larger-of-two whose
     * flip changes nothing (session 81 round M, a Galerkin solver's wave speed); else null.
     */
    private static ClangNode[] returned(ClangNode p) {
        if (p.kind != CXCursor_IfStmt || p.children.size() < 2 || p.children.size() > 3) return null;
        ClangNode x = returnValue(p.children.get(1));
        ClangNode y = null;
        if (p.children.size() == 3) {
            y = returnValue(p.children.get(2));
        } else if (p.parent != null && p.parent.kind == CXCursor_CompoundStmt) {
            int i = p.parent.children.indexOf(p);
            if (i >= 0 && i + 1 < p.parent.children.size()) y = returnValue(p.parent.children.get(i + 1));
        }
        return x == null || y == null ? null : new ClangNode[] {x, y};
    }

    private static ClangNode returnValue(ClangNode s) {
        ClangNode r = s.kind == CXCursor_CompoundStmt && s.children.size() == 1 ? s.children.get(0) : s;
        return r.kind == CXCursor_ReturnStmt && r.children.size() == 1 ? r.children.get(0) : null;
    }

    /** The boundary {@code a == b} of two terms, one of them a single term: that term's symbol bound to the other. */
    private Map<String, Poly> termBoundary(ClangNode a, ClangNode b, State entry) {
        Poly pa = value(a, entry);
        Poly pb = value(b, entry);
        String sa = pa.single();
        if (sa != null && !pb.allSymbols().contains(sa)) return Map.of(sa, pb);
        String sb = pb.single();
        return sb != null && !pa.allSymbols().contains(sb) ? Map.of(sb, pa) : null;
    }

    /** The state of one side: the values written, by variable ("v:" USR) or place ("m:" its key). */
    private static final class State {
        final State outer;
        final Map<String, Poly> values = new HashMap<>();
        final Set<String> scoped = new HashSet<>();
        boolean stored;

        State(State outer) {
            this.outer = outer;
            this.stored = outer != null && outer.stored;
        }

        Poly get(String k) {
            for (State s = this; s != null; s = s.outer) {
                Poly v = s.values.get(k);
                if (v != null) return v;
            }
            return Poly.symbol(k);
        }

        boolean has(String k) {
            for (State s = this; s != null; s = s.outer) if (s.values.containsKey(k)) return true;
            return false;
        }
    }

    private static boolean same(Poly x, Poly y) {
        return x.terms.equals(y.terms);
    }

    /** The key of a plain variable reference, or null. */
    private static String variable(ClangNode n) {
        if (n == null || n.kind != CXCursor_DeclRefExpr || n.refUsr == null || volatileType(n)) return null;
        return "v:" + n.refUsr;
    }

    private static boolean volatileType(ClangNode n) {
        return n.type != null && n.type.contains("volatile");
    }

    private static boolean reads(ClangNode e, String usr) {
        boolean[] hit = new boolean[1];
        e.forEach(x -> {
            if (usr.equals(x.refUsr)) hit[0] = true;
        });
        return hit[0];
    }

    // ------------------------------------------------------------------ statements

    private void statement(ClangNode s, State st) {
        switch (s.kind) {
            case CXCursor_CompoundStmt -> {
                State inner = new State(st);
                for (ClangNode c : s.children) statement(c, inner);
                close(inner, st);
            }
            case CXCursor_NullStmt -> {}
            case CXCursor_DeclStmt -> {
                for (ClangNode d : s.children) {
                    if (d.kind != CXCursor_VarDecl || d.usr == null || volatileType(d)) throw new Unknown();
                    String k = "v:" + d.usr;
                    ClangNode init = initializer(d);
                    st.values.put(k, init == null ? Poly.symbol("undef@" + d.offset) : value(init, st));
                    st.scoped.add(k);
                }
            }
            case CXCursor_IfStmt -> ifStatement(s, st);
            case CXCursor_ForStmt -> loop(s, st);
            default -> {
                if (!clang_isExpressionKind(s.kind)) throw new Unknown();
                value(s, st);
            }
        }
    }

    /** Moves what an inner block wrote to its outer state, leaving its own declarations behind. */
    private static void close(State inner, State outer) {
        for (var e : inner.values.entrySet())
            if (!inner.scoped.contains(e.getKey())) outer.values.put(e.getKey(), e.getValue());
        outer.stored |= inner.stored;
    }

    private static ClangNode initializer(ClangNode d) {
        ClangNode last = d.children.isEmpty() ? null : d.children.get(d.children.size() - 1);
        return last != null && clang_isExpressionKind(last.kind) ? last : null;
    }

    private void ifStatement(ClangNode s, State st) {
        if (s.children.size() < 2 || s.children.size() > 3) throw new Unknown();
        Poly cond = value(s.children.get(0), st);
        State yes = new State(st);
        State no = new State(st);
        statement(s.children.get(1), yes);
        if (s.children.size() == 3) statement(s.children.get(2), no);
        Set<String> keys = new HashSet<>(yes.values.keySet());
        keys.addAll(no.values.keySet());
        for (String k : keys) {
            if (yes.scoped.contains(k) || no.scoped.contains(k)) continue;
            Poly x = yes.get(k);
            Poly y = no.get(k);
            st.values.put(k, same(x, y) ? x : atom("phi", cond, x, y));
        }
        st.stored |= yes.stored || no.stored;
    }

    /**
     * A counted loop ({@code for (int i = a; i <= b; i++)}) whose body leaves every variable and place it writes as it
     * found them, whatever the counter: a no-op there. A counter declared outside the loop ends at an unknown value.
     */
    private void loop(ClangNode s, State st) {
        if (s.children.size() != 4) throw new Unknown();
        ClangNode init = s.children.get(0);
        ClangNode inc = strip(s.children.get(2));
        String counter;
        boolean declared = init.kind == CXCursor_DeclStmt;
        if (declared) {
            if (init.children.size() != 1 || init.children.get(0).kind != CXCursor_VarDecl) throw new Unknown();
            counter = "v:" + init.children.get(0).usr;
            ClangNode i0 = initializer(init.children.get(0));
            if (i0 != null) value(i0, st);
        } else {
            ClangNode in = strip(init);
            if (in == null || in.kind != CXCursor_BinaryOperator || !in.spelling.equals("=")) throw new Unknown();
            counter = variable(strip(in.children.get(0)));
            value(in.children.get(1), st);
        }
        if (counter == null || inc == null || !counterStep(inc, counter)) throw new Unknown();
        Poly cond = value(s.children.get(1), withCounter(st, counter, s));
        State body = withCounter(st, counter, s);
        statement(s.children.get(3), body);
        for (var e : body.values.entrySet()) {
            String k = e.getKey();
            if (k.equals(counter) || body.scoped.contains(k)) continue;
            if (!same(e.getValue(), st.get(k))) throw new Unknown();
        }
        if (!declared) st.values.put(counter, atom("loop@" + s.offset, cond));
    }

    private static State withCounter(State st, String counter, ClangNode loop) {
        State b = new State(st);
        b.values.put(counter, Poly.symbol("i@" + loop.offset));
        b.scoped.add(counter);
        return b;
    }

    private static boolean counterStep(ClangNode inc, String counter) {
        if (inc.children.isEmpty()) return false;
        String k = variable(strip(inc.children.get(0)));
        if (!counter.equals(k)) return false;
        if (inc.kind == CXCursor_UnaryOperator) return inc.spelling.equals("++") || inc.spelling.equals("--");
        return inc.kind == CXCursor_CompoundAssignOperator
                && (inc.spelling.equals("+=") || inc.spelling.equals("-="))
                && inc.children.size() == 2
                && strip(inc.children.get(1)).kind == CXCursor_IntegerLiteral;
    }

    // ------------------------------------------------------------------ expressions

    private Poly value(ClangNode n, State st) {
        if (n == null) throw new Unknown();
        if (volatileType(n)) throw new Unknown();
        switch (n.kind) {
            case CXCursor_ParenExpr:
                if (n.children.size() != 1) throw new Unknown();
                return value(n.children.get(0), st);
            case CXCursor_UnexposedExpr:
                if (n.children.size() != 1) throw new Unknown();
                return converted(n, value(n.children.get(0), st), n.children.get(0));
            case CXCursor_CStyleCastExpr:
            case CXCursor_CXXStaticCastExpr:
            case CXCursor_CXXFunctionalCastExpr: {
                ClangNode op = operandOf(n);
                return converted(n, value(op, st), op);
            }
            case CXCursor_IntegerLiteral:
            case CXCursor_FloatingLiteral:
                return literal(n);
            case CXCursor_DeclRefExpr: {
                if (n.value != null) return literal(n);
                String k = variable(n);
                if (k == null) throw new Unknown();
                return st.get(k);
            }
            case CXCursor_ArraySubscriptExpr:
            case CXCursor_MemberRefExpr:
                return read(place(n, st), st);
            case CXCursor_UnaryOperator:
                return unary(n, st);
            case CXCursor_BinaryOperator:
                return binary(n, st);
            case CXCursor_CompoundAssignOperator:
                return assign(n, st);
            case CXCursor_ConditionalOperator: {
                if (n.children.size() != 3) throw new Unknown();
                Poly c = value(n.children.get(0), st);
                Poly x = value(n.children.get(1), st);
                Poly y = value(n.children.get(2), st);
                return same(x, y) ? x : atom("?", c, x, y);
            }
            case CXCursor_CallExpr:
                return call(n, st);
            default:
                throw new Unknown();
        }
    }

    private static Poly literal(ClangNode n) {
        if (n.value == null) throw new Unknown();
        double v = n.value;
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return Poly.constant((long) v);
        return Poly.symbol("#" + v);
    }

    /** A conversion to {@code to}'s type: a constant converts, anything else is a term of the type unless unchanged. */
    private static Poly converted(ClangNode to, Poly v, ClangNode from) {
        if (to.canon == null || from == null || to.canon.equals(from.canon) || v.zero()) return v;
        if (!v.symbolic()) return v; // an integral constant (a fractional one is a term of its own)
        return atom("(" + to.canon + ")", v);
    }

    private Poly unary(ClangNode n, State st) {
        if (n.children.size() != 1) throw new Unknown();
        ClangNode x = n.children.get(0);
        return switch (n.spelling) {
            case "-" -> value(x, st).times(Poly.constant(-1));
            case "+" -> value(x, st);
            case "!", "~" -> atom(n.spelling, value(x, st));
            case "*" -> read(place(n, st), st);
            default -> throw new Unknown(); // ++, --, & and the rest
        };
    }

    private Poly binary(ClangNode n, State st) {
        if (n.children.size() != 2) throw new Unknown();
        if (n.spelling.equals("=")) return assign(n, st);
        if (n.spelling.equals("&&") || n.spelling.equals("||") || n.spelling.equals(",")) throw new Unknown();
        Poly x = value(n.children.get(0), st);
        Poly y = value(n.children.get(1), st);
        return combine(n.spelling, x, y);
    }

    private static Poly combine(String op, Poly x, Poly y) {
        return switch (op) {
            case "+" -> x.plus(y, 1);
            case "-" -> x.plus(y, -1);
            case "*" -> x.times(y);
            case "/", "%" -> {
                // a divisor that is 0 at the boundary (w * (v / w) at w == 0): not a number, not 0
                if (y.zero()) throw new Unknown();
                yield op.equals("/") && same(y, Poly.constant(1)) ? x : atom(op, x, y);
            }
            default -> atom(op, x, y);
        };
    }

    /** An assignment or compound assignment: the place written and the value it gets. */
    private Poly assign(ClangNode n, State st) {
        if (n.children.size() != 2) throw new Unknown();
        ClangNode l = strip(n.children.get(0));
        String k = variable(l);
        if (k == null) k = place(l, st);
        Poly v = value(n.children.get(1), st);
        if (!n.spelling.equals("=")) {
            String op = n.spelling.substring(0, n.spelling.length() - 1);
            v = combine(op, k.startsWith("v:") ? st.get(k) : read(k, st), v);
        }
        v = converted(l, v, strip(n.children.get(1)));
        if (k.startsWith("m:")) st.stored = true;
        st.values.put(k, v);
        return v;
    }

    /** The key of an element, member or pointer target. */
    private String place(ClangNode n, State st) {
        if (n == null || volatileType(n)) throw new Unknown();
        if (n.kind == CXCursor_ArraySubscriptExpr && n.children.size() == 2)
            return "m:" + base(n.children.get(0), st) + "[" + key(value(n.children.get(1), st)) + "]";
        if (n.kind == CXCursor_UnaryOperator && n.spelling.equals("*") && n.children.size() == 1)
            return "m:*" + key(value(n.children.get(0), st));
        if (n.kind == CXCursor_MemberRefExpr && n.children.size() == 1)
            return "m:" + base(n.children.get(0), st) + "." + n.spelling;
        throw new Unknown();
    }

    /** The base of an element or member: a pointer's value, or the place of an array or struct it names. */
    private String base(ClangNode b, State st) {
        ClangNode s = strip(b);
        if (s != null && s.kind == CXCursor_DeclRefExpr) {
            String k = variable(s);
            if (k == null) throw new Unknown();
            return st.has(k) ? key(st.get(k)) : k;
        }
        return place(s, st);
    }

    /** A place's value: what this side stored there, or its value before the test while nothing may alias it. */
    private static Poly read(String k, State st) {
        if (st.has(k)) return st.get(k);
        if (st.stored) throw new Unknown(); // a store through another key may have written it
        return Poly.symbol(k);
    }

    private Poly call(ClangNode n, State st) {
        String name = callee(n);
        String base = name.startsWith("std::") ? name.substring(5) : name;
        List<ClangNode> args = arguments(n);
        if (ClangUnit.ATOMIC_ADDS.contains(base)
                && args.size() == 2
                && value(args.get(1), st).zero()) {
            ClangNode at = strip(args.get(0));
            if (at == null || at.kind != CXCursor_UnaryOperator || !at.spelling.equals("&") || at.children.size() != 1)
                throw new Unknown();
            place(strip(at.children.get(0)), st);
            return Poly.symbol("old@" + n.offset);
        }
        if (!PURE.contains(base) && !NumericFacts.TRANSCENDENTAL.contains(base)) throw new Unknown();
        Poly[] vs = new Poly[args.size()];
        for (int i = 0; i < vs.length; i++) vs[i] = value(args.get(i), st);
        return atom(base, vs);
    }

    /** An opaque term: a function of polynomials, equal wherever its name and arguments are. */
    private static Poly atom(String name, Poly... args) {
        StringBuilder b = new StringBuilder(name).append('(');
        for (Poly a : args) b.append(key(a)).append(';');
        return Poly.symbol(b.append(')').toString());
    }

    /** A polynomial as part of a symbol's name (without the separator of a monomial's symbols). */
    private static String key(Poly p) {
        return p.terms.toString().replace(Poly.SEP, "\u0002");
    }

    /**
     * Marks the comparisons of the hand-written facts whose if or ?: agrees on both sides where it flips
     * ({@link ClangAgreeingSides}, matched by line and text): continuous, as Clang's own uses mark them.
     */
    static void relabel(ClangUnit unit, java.util.List<dev.numlint.cuda.facts.Site> sites) {
        for (dev.numlint.cuda.facts.Site site : sites) {
            site.mapUses(u -> u.kind() == dev.numlint.cuda.facts.ValueUse.Kind.COMPARISON
                            && u.text() != null
                            && unit.sidesAgreeAt(u.line(), u.text())
                    ? new dev.numlint.cuda.facts.ValueUse(
                            dev.numlint.cuda.facts.ValueUse.Kind.AGREEING_SIDES,
                            u.line(),
                            u.column(),
                            u.text(),
                            null,
                            u.via(),
                            u.randomVariate())
                    : u);
        }
    }
}
