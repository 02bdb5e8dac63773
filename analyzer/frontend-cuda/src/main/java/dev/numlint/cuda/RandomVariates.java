package dev.numlint.cuda;

import static dev.numlint.cuda.RandomDraws.*;

import dev.numlint.cuda.parser.CudaLexer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The random state of one function body, read from its tokens: the definitions of each local, parameter and
 * member ({@code x = ...}, {@code p->x += ...}, {@code *((float4*)v) = ...}, a call writing through {@code &s})
 * and whether each assigns a random variate: a value computed from a draw, from a variate parameter, or from a
 * variable or member that holds a variate where it is read. A read sees the last plain definition before it in
 * token order and the random updates since; inside a loop it also sees what the loop assigns later (the value of
 * one iteration feeds the next), unless a plain definition inside the loop comes first. Reads inside a subscript
 * do not count: a table entry at a random index is one of the table's values, not a continuous variate.
 */
final class RandomVariates {
    /** One definition: of the whole variable ({@code member} null) or of one member. */
    private static final class Def {
        final String member;
        final int start;
        final int end;
        final boolean plain;
        final boolean element;
        final int rhsFrom;
        final int rhsTo;
        boolean drawn;
        /** Drawn, and continuous: not read only through integers ({@link #variateLines}). */
        boolean continuous;

        Def(String member, int start, int end, boolean plain, boolean element, int rhsFrom, int rhsTo) {
            this.member = member;
            this.start = start;
            this.end = end;
            this.plain = plain;
            this.element = element;
            this.rhsFrom = rhsFrom;
            this.rhsTo = rhsTo;
        }
    }

    private static final int MAX_PASSES = 6;

    private final List<PToken> t;
    private final int open;
    private final int close;
    private final FileScope scope;
    private final Set<String> generatorVars;
    private final List<String> paramNames;
    /** Definitions by base name, in token order. */
    private final Map<String, List<Def>> defs = new HashMap<>();
    /** Token ranges [first, last] of the loops of the body. */
    private final List<int[]> loops = new ArrayList<>();
    /**
     * While {@link #variateLines} runs: the integer variables of the body, whose values are discrete (a voxel
     * index floored from a random position); a read of one is no continuous variate. Null otherwise.
     */
    private Set<String> discrete;

    /**
     * Reads the body between the braces {@code open} and {@code close} of the function {@code name} with the
     * parameters {@code paramNames}, seeded with the translation unit's facts in {@code scope}.
     */
    RandomVariates(
            List<PToken> t,
            int open,
            int close,
            String name,
            List<String> paramNames,
            FileScope scope,
            Set<String> generatorVars) {
        this.t = t;
        this.open = open;
        this.close = Math.min(close, t.size() - 1);
        this.scope = scope;
        this.generatorVars = generatorVars;
        this.paramNames = paramNames;
        List<Set<String>> seeds = name == null ? null : scope.variateParams.get(name);
        if (seeds != null) {
            for (int k = 0; k < Math.min(seeds.size(), paramNames.size()); k++) {
                String p = paramNames.get(k);
                if (p == null) continue;
                for (String key : seeds.get(k)) {
                    Def d = new Def(key.isEmpty() ? null : key, -1, -1, true, false, 0, 0);
                    d.drawn = true;
                    defs.computeIfAbsent(p, x -> new ArrayList<>()).add(d);
                }
            }
        }
        if (defs.isEmpty() && !mayDraw()) return; // nothing random can reach a value of this body
        findLoops();
        findDefs();
        evaluate();
    }

    /** Whether the body calls a generator, a function known to return a draw, or one that writes a variate. */
    private boolean mayDraw() {
        for (int i = open + 1; i < close; i++) {
            if (ty(i) != CudaLexer.IDENTIFIER) continue;
            String n = text(i);
            if (generatorVars.contains(n) || scope.variateWrites.containsKey(n)) return true;
            if (ty(i + 1) == CudaLexer.LPAREN && draws(n, scope)) return true;
            if ((ty(i + 1) == CudaLexer.DOT || ty(i + 1) == CudaLexer.ARROW)
                    && ty(i + 2) == CudaLexer.IDENTIFIER
                    && ty(i + 3) == CudaLexer.LPAREN
                    && isGeneratorMember(n, text(i + 2))) return true;
        }
        return false;
    }

    private int ty(int i) {
        return i >= 0 && i < t.size() ? t.get(i).getType() : -1;
    }

    private String text(int i) {
        return t.get(i).getText();
    }

    private int match(int i) {
        return Decls.match(t, i, close + 1);
    }

    /** The opening bracket of the {@code )} or {@code ]} at {@code i}. */
    private int matchBack(int i) {
        int c = ty(i);
        int o = c == CudaLexer.RPAREN ? CudaLexer.LPAREN : CudaLexer.LBRACKET;
        int depth = 0;
        for (int j = i; j > open; j--) {
            int y = ty(j);
            if (y == c) depth++;
            else if (y == o && --depth == 0) return j;
        }
        return open;
    }

    private void findLoops() {
        Set<Integer> doWhile = new HashSet<>();
        for (int i = open + 1; i < close; i++) {
            int y = ty(i);
            if ((y == CudaLexer.FOR || y == CudaLexer.WHILE) && !doWhile.contains(i)) {
                if (ty(i + 1) != CudaLexer.LPAREN) continue;
                int pe = match(i + 1);
                int b = pe + 1;
                int end = ty(b) == CudaLexer.LBRACE ? match(b) : statementEnd(t, b, close);
                loops.add(new int[] {i, end});
            } else if (y == CudaLexer.DO) {
                int b = i + 1;
                int be = ty(b) == CudaLexer.LBRACE ? match(b) : statementEnd(t, b, close);
                int w = be + 1;
                if (ty(w) == CudaLexer.WHILE && ty(w + 1) == CudaLexer.LPAREN) {
                    doWhile.add(w);
                    loops.add(new int[] {i, match(w + 1)});
                } else {
                    loops.add(new int[] {i, be});
                }
            }
        }
    }

    private void findDefs() {
        for (int a = open + 1; a < close; a++) {
            int y = ty(a);
            boolean plainOp = y == CudaLexer.ASSIGN;
            boolean compound = y == CudaLexer.PLUS_ASSIGN
                    || y == CudaLexer.MINUS_ASSIGN
                    || y == CudaLexer.STAR_ASSIGN
                    || y == CudaLexer.DIV_ASSIGN;
            if (plainOp || compound) {
                int s = lhsStart(a);
                if (s < 0) continue;
                String[] key = lvalue(s, a);
                if (key == null) continue;
                boolean element = key[2] != null;
                int end = expressionEnd(t, a + 1, close);
                Def d = new Def(key[1], s, end, plainOp && !element, element, a + 1, end);
                defs.computeIfAbsent(key[0], x -> new ArrayList<>()).add(d);
            } else if (y == CudaLexer.IDENTIFIER && callParen(a) > 0 && !memberName(a)) {
                List<Set<String>> w = scope.variateWrites.get(text(a));
                if (w == null) continue;
                int lp = callParen(a);
                int pe = match(lp);
                List<int[]> args = args(lp, pe);
                for (int k = 0; k < Math.min(w.size(), args.size()); k++) {
                    if (w.get(k).isEmpty()) continue;
                    String[] b = argBase(args.get(k)[0], args.get(k)[1]);
                    if (b == null) continue;
                    for (String m : w.get(k)) {
                        String member = b[1] != null ? b[1] : m.isEmpty() ? null : m;
                        if (b[1] != null && !m.isEmpty()) continue;
                        Def d = new Def(member, a, pe, false, false, 0, 0);
                        d.drawn = true;
                        defs.computeIfAbsent(b[0], x -> new ArrayList<>()).add(d);
                    }
                }
            }
        }
    }

    /**
     * The opening parenthesis of the call whose callee is the name at {@code i} ({@code f(...)}, {@code
     * f<A, B>(...)}), or -1.
     */
    private int callParen(int i) {
        if (ty(i + 1) == CudaLexer.LPAREN) return i + 1;
        if (ty(i + 1) != CudaLexer.LT) return -1;
        int depth = 0;
        for (int j = i + 1; j < close; j++) {
            int y = ty(j);
            if (y == CudaLexer.LT) depth++;
            else if (y == CudaLexer.GT && --depth == 0) return ty(j + 1) == CudaLexer.LPAREN ? j + 1 : -1;
            else if (y == CudaLexer.SEMI || y == CudaLexer.LBRACE || y == CudaLexer.RPAREN) return -1;
        }
        return -1;
    }

    /** Whether the identifier at {@code i} follows {@code .} or {@code ->}. */
    private boolean memberName(int i) {
        return ty(i - 1) == CudaLexer.DOT || ty(i - 1) == CudaLexer.ARROW;
    }

    /** The first token of the assigned expression before the assignment operator at {@code a}, or -1. */
    private int lhsStart(int a) {
        int j = a - 1;
        while (j > open) {
            int y = ty(j);
            if (y == CudaLexer.RBRACKET) {
                j = matchBack(j) - 1;
            } else if (y == CudaLexer.RPAREN) {
                int m = matchBack(j);
                if (ty(m - 1) == CudaLexer.IDENTIFIER) return -1; // a call's result
                j = m - 1;
                break;
            } else if (y == CudaLexer.IDENTIFIER) {
                j--;
                if (ty(j) == CudaLexer.DOT || ty(j) == CudaLexer.ARROW) {
                    j--;
                    continue;
                }
                break;
            } else {
                break;
            }
        }
        if (j == a - 1) return -1;
        while (j > open && ty(j) == CudaLexer.STAR) j--;
        return j + 1;
    }

    /**
     * The assigned variable of tokens {@code [s, a)}: {base, member or null, "[" for an element or null}; the
     * base is the first name that is not a type ({@code *((float4*)v)} assigns v, {@code (*v).x} v's x).
     */
    private String[] lvalue(int s, int a) {
        int depth = 0;
        int dot = -1;
        boolean element = false;
        for (int i = s; i < a; i++) {
            int y = ty(i);
            if (y == CudaLexer.LPAREN || y == CudaLexer.LBRACKET) {
                if (y == CudaLexer.LBRACKET && depth == 0 && dot < 0) element = true;
                depth++;
            } else if (y == CudaLexer.RPAREN || y == CudaLexer.RBRACKET) {
                depth--;
            } else if ((y == CudaLexer.DOT || y == CudaLexer.ARROW) && depth == 0 && dot < 0) {
                dot = i;
            }
        }
        String base = null;
        int bracket = 0;
        for (int i = s; i < (dot < 0 ? a : dot); i++) {
            int y = ty(i);
            if (y == CudaLexer.LBRACKET) bracket++;
            else if (y == CudaLexer.RBRACKET) bracket--;
            else if (y == CudaLexer.IDENTIFIER && bracket == 0 && !scope.isTypeName(text(i))) {
                base = text(i);
                break;
            }
        }
        if (base == null) return null;
        String member = dot >= 0 && ty(dot + 1) == CudaLexer.IDENTIFIER ? text(dot + 1) : null;
        if (dot >= 0 && member == null) return null;
        return new String[] {base, member, element ? "[" : null};
    }

    /** The argument ranges [from, to) of the call whose parentheses are {@code lp} and {@code rp}. */
    private List<int[]> args(int lp, int rp) {
        List<int[]> out = new ArrayList<>();
        int depth = 0;
        int from = lp + 1;
        for (int i = lp + 1; i < rp; i++) {
            int y = ty(i);
            if (y == CudaLexer.LPAREN || y == CudaLexer.LBRACKET || y == CudaLexer.LBRACE) depth++;
            else if (y == CudaLexer.RPAREN || y == CudaLexer.RBRACKET || y == CudaLexer.RBRACE) depth--;
            else if (y == CudaLexer.COMMA && depth == 0) {
                out.add(new int[] {from, i});
                from = i + 1;
            }
        }
        if (rp > lp + 1) out.add(new int[] {from, rp});
        return out;
    }

    /**
     * The variable an argument names or points to: {@code &s}, {@code (float3*)&s}, {@code &s.m}, {@code s},
     * {@code s.m}: {base, member or null}; null for any other expression.
     */
    private String[] argBase(int from, int to) {
        int k = from;
        while (k < to && ty(k) == CudaLexer.LPAREN) {
            int m = match(k);
            if (m > k + 1 && ty(m - 1) == CudaLexer.STAR && typeOnly(k + 1, m)) k = m + 1; // a pointer cast
            else k++;
        }
        if (ty(k) == CudaLexer.AMP) k++;
        if (k >= to || ty(k) != CudaLexer.IDENTIFIER) return null;
        String s = text(k);
        String member = null;
        if (k + 2 < to
                && (ty(k + 1) == CudaLexer.DOT || ty(k + 1) == CudaLexer.ARROW)
                && ty(k + 2) == CudaLexer.IDENTIFIER) {
            member = text(k + 2);
            k += 3;
        } else {
            k++;
        }
        while (k < to && ty(k) == CudaLexer.RPAREN) k++;
        return k == to ? new String[] {s, member} : null;
    }

    /** Tokens {@code [from, to)} spell a type: names, keywords and {@code *}. */
    private boolean typeOnly(int from, int to) {
        for (int i = from; i < to; i++) {
            if (ty(i) != CudaLexer.STAR && !WORD.matcher(text(i)).matches()) return false;
        }
        return true;
    }

    private void evaluate() {
        List<Def> all = new ArrayList<>();
        for (List<Def> l : defs.values()) all.addAll(l);
        all.sort((x, y) -> Integer.compare(x.start, y.start));
        for (int pass = 0; pass < MAX_PASSES; pass++) {
            boolean changed = false;
            for (Def d : all) {
                if (d.drawn || d.rhsTo <= d.rhsFrom) continue;
                if (drawnIn(d.rhsFrom, d.rhsTo)) {
                    d.drawn = true;
                    changed = true;
                }
            }
            if (!changed) break;
        }
    }

    /** Whether tokens {@code [from, to)} compute a value from a draw or read a variate. */
    boolean drawnIn(int from, int to) {
        for (int i = from; i < to; i++) {
            int y = ty(i);
            if (y == CudaLexer.LBRACKET) {
                i = match(i);
                continue;
            }
            if (y != CudaLexer.IDENTIFIER || memberName(i)) continue;
            String n = text(i);
            if (ty(i + 1) == CudaLexer.LPAREN) {
                if (draws(n, scope) || generatorVars.contains(n)) return true;
                continue;
            }
            if (discrete != null && discrete.contains(n)) continue;
            boolean address = ty(i - 1) == CudaLexer.AMP;
            if ((ty(i + 1) == CudaLexer.DOT || ty(i + 1) == CudaLexer.ARROW) && ty(i + 2) == CudaLexer.IDENTIFIER) {
                if (ty(i + 3) == CudaLexer.LPAREN) {
                    if (isGeneratorMember(n, text(i + 2))) return true;
                    continue;
                }
                if (!address && variateAt(n, text(i + 2), i, false)) return true;
                continue;
            }
            if (!address && variateAt(n, null, i, false)) return true;
        }
        return false;
    }

    /**
     * Whether the variable {@code base} (its {@code member}, or the whole of it when null) holds a random variate
     * where it is read at token {@code at}. {@code wholeOnly}: a whole read counts only definitions of the whole
     * variable, not of its members.
     */
    boolean variateAt(String base, String member, int at, boolean wholeOnly) {
        List<Def> ds = defs.get(base);
        if (ds == null) return false;
        Def last = null;
        for (Def d : ds) {
            if (d.end >= at || !d.plain || d.member != null && !d.member.equals(member)) continue;
            if (last == null || d.start > last.start) last = d;
        }
        boolean continuous = discrete != null;
        if (last != null && (continuous ? last.continuous : last.drawn)) return true;
        int since = last == null ? Integer.MIN_VALUE : last.start;
        for (Def d : ds) {
            if (!(continuous ? d.continuous : d.drawn) || d.start < 0) continue;
            if (d.member != null && (member != null ? !d.member.equals(member) : wholeOnly)) continue;
            if (d.end < at && d.start > since) return true; // a random update since the last plain definition
            for (int[] loop : loops) {
                // carried from the previous iteration: the loop assigns it, and no plain definition inside the
                // loop precedes the read
                if (loop[0] <= at && at <= loop[1] && since < loop[0] && d.start >= loop[0] && d.end <= loop[1])
                    return true;
            }
        }
        return false;
    }

    /**
     * The lines of the body whose floating-point arithmetic computes random variates: every binary {@code + - *
     * /} (or compound assignment) of the line outside a subscript lies in the right-hand side of a definition
     * that assigns a variate, and every place on the way that could decide something with a value of its own
     * reads a variate too: a call argument, the operand of a cast, a comparison, the condition of {@code ?:}, an
     * operand of {@code &&}/{@code ||}. Subscripts are integer index arithmetic and only need the casts and
     * calls in them to be random. An atomic's argument is never a variate: its order depends on the run. What
     * the PTX layer reports on such a line (an fma formed across statements) is, like the source layer's site,
     * another draw of the same distribution. {@code integers}: the integer variables of the body; a variate read
     * only through one of them (a voxel index floored from a random position) is discrete, and a deterministic
     * offset added to it is the same in every draw that lands there: such a line does not count.
     */
    Set<Integer> variateLines(Set<String> integers) {
        discrete = integers;
        try {
            return variateLines();
        } finally {
            discrete = null;
        }
    }

    private Set<Integer> variateLines() {
        // which definitions assign a continuous variate: as evaluate(), reads of integers not counted
        List<Def> all = new ArrayList<>();
        for (Map.Entry<String, List<Def>> e : defs.entrySet()) {
            for (Def d : e.getValue()) {
                boolean integer = discrete.contains(e.getKey());
                d.continuous = d.drawn && !integer && d.rhsTo <= d.rhsFrom; // a seed or a call writing it
                if (d.drawn && !integer && d.rhsTo > d.rhsFrom) all.add(d);
            }
        }
        all.sort((x, y) -> Integer.compare(x.start, y.start));
        for (int pass = 0; pass < MAX_PASSES; pass++) {
            boolean changed = false;
            for (Def d : all) {
                if (!d.continuous && drawnIn(d.rhsFrom, d.rhsTo)) {
                    d.continuous = true;
                    changed = true;
                }
            }
            if (!changed) break;
        }
        List<Def> drawnDefs = new ArrayList<>();
        for (Def d : all) {
            if (d.continuous) drawnDefs.add(d);
        }
        if (drawnDefs.isEmpty()) return Set.of();
        List<int[]> guards = new ArrayList<>();
        Set<Integer> never = new HashSet<>();
        Map<Integer, List<Integer>> opsByLine = new java.util.TreeMap<>();
        Set<Integer> inSubscript = new HashSet<>();
        int brackets = 0;
        for (int i = open + 1; i < close; i++) {
            int y = ty(i);
            if (y == CudaLexer.LBRACKET) brackets++;
            else if (y == CudaLexer.RBRACKET) brackets--;
            if (arithmetic(i)) {
                opsByLine
                        .computeIfAbsent(t.get(i).getLine(), x -> new ArrayList<>())
                        .add(i);
                if (brackets > 0) inSubscript.add(i);
            }
            guardsAt(i, guards, never);
        }
        Set<Integer> out = new java.util.TreeSet<>();
        lines:
        for (Map.Entry<Integer, List<Integer>> e : opsByLine.entrySet()) {
            boolean any = false;
            for (int k : e.getValue()) {
                if (never.contains(k)) continue lines;
                boolean inRhs = false;
                for (Def d : drawnDefs) {
                    if (d.rhsFrom <= k && k < d.rhsTo) {
                        inRhs = true;
                        break;
                    }
                }
                if (!inRhs && !inSubscript.contains(k)) continue lines;
                any |= inRhs && !inSubscript.contains(k);
            }
            if (!any) continue;
            for (int k : e.getValue()) {
                for (int[] g : guards) {
                    if (g[0] > k || k >= g[1]) continue;
                    if (g[2] == 0) g[2] = drawnIn(g[0], g[1]) ? 2 : 1; // evaluated once
                    if (g[2] == 1) continue lines;
                }
            }
            out.add(e.getKey());
        }
        return out;
    }

    /** A binary {@code + - * /} (after an operand) or a compound arithmetic assignment at {@code i}. */
    private boolean arithmetic(int i) {
        int y = ty(i);
        if (y == CudaLexer.PLUS_ASSIGN
                || y == CudaLexer.MINUS_ASSIGN
                || y == CudaLexer.STAR_ASSIGN
                || y == CudaLexer.DIV_ASSIGN) return true;
        if (y != CudaLexer.PLUS && y != CudaLexer.MINUS && y != CudaLexer.STAR && y != CudaLexer.DIV) return false;
        int p = ty(i - 1);
        return p == CudaLexer.IDENTIFIER
                || p == CudaLexer.FLOATING_LITERAL
                || p == CudaLexer.INTEGER_LITERAL
                || p == CudaLexer.RPAREN
                || p == CudaLexer.RBRACKET;
    }

    /**
     * The ranges {from, to, 0} that token {@code i} opens and that must read a variate for an operator in them to
     * compute one (the third element caches whether they do): the arguments of a call (of an atomic: never,
     * its tokens go to {@code never}), the operand of a cast, a
     * comparison, the condition of {@code ?:}, the operands of {@code &&} and {@code ||}.
     */
    private void guardsAt(int i, List<int[]> guards, Set<Integer> never) {
        int y = ty(i);
        if (y == CudaLexer.IDENTIFIER && !memberName(i) && callParen(i) > 0) {
            int lp = callParen(i);
            boolean atomic = text(i).startsWith("atomic") || text(i).startsWith("__atomic");
            for (int[] a : args(lp, match(lp))) {
                guards.add(new int[] {a[0], a[1], 0});
                if (atomic) {
                    for (int k = a[0]; k < a[1]; k++) never.add(k);
                }
            }
        } else if (y == CudaLexer.LPAREN && castType(i)) {
            int c = match(i);
            int end = operandEnd(c + 1);
            if (end > c + 1) guards.add(new int[] {c + 1, end, 0});
        } else if (y == CudaLexer.LT
                || y == CudaLexer.GT
                || y == CudaLexer.LE
                || y == CudaLexer.GE
                || y == CudaLexer.EQ
                || y == CudaLexer.NE) {
            guards.add(new int[] {operandBack(i), operandForward(i), 0});
        } else if (y == CudaLexer.QUESTION) {
            guards.add(new int[] {operandBack(i), i, 0});
        } else if (y == CudaLexer.AND_AND || y == CudaLexer.OR_OR) {
            guards.add(new int[] {operandBack(i), i, 0});
            guards.add(new int[] {i + 1, operandForward(i), 0});
        }
    }

    /** Whether the parentheses opening at {@code o} hold a type and are followed by an operand: a cast. */
    private boolean castType(int o) {
        int p = ty(o - 1);
        if (p == CudaLexer.IDENTIFIER || p == CudaLexer.RPAREN || p == CudaLexer.RBRACKET) return false;
        int c = match(o);
        if (c <= o + 1) return false;
        boolean type = false;
        for (int k = o + 1; k < c; k++) {
            int y = ty(k);
            if (y == CudaLexer.STAR) continue;
            if (y == CudaLexer.IDENTIFIER
                    ? scope.isTypeName(text(k))
                    : LOWER_WORD.matcher(text(k)).matches()) {
                type = true;
            } else {
                return false;
            }
        }
        int n = ty(c + 1);
        return type
                && (n == CudaLexer.IDENTIFIER
                        || n == CudaLexer.LPAREN
                        || n == CudaLexer.FLOATING_LITERAL
                        || n == CudaLexer.INTEGER_LITERAL);
    }

    /** The end (exclusive) of the operand of a cast starting at {@code s}: a name with its members, calls and
     * subscripts, a parenthesized expression, or a literal. */
    private int operandEnd(int s) {
        int y = ty(s);
        if (y == CudaLexer.LPAREN) return match(s) + 1;
        if (y != CudaLexer.IDENTIFIER) return s + 1;
        int j = s + 1;
        while (j < close) {
            int n = ty(j);
            if ((n == CudaLexer.DOT || n == CudaLexer.ARROW) && ty(j + 1) == CudaLexer.IDENTIFIER) j += 2;
            else if (n == CudaLexer.LBRACKET || n == CudaLexer.LPAREN) j = match(j) + 1;
            else break;
        }
        return j;
    }

    /** Whether token type {@code y} ends an operand of a comparison or condition. */
    private static boolean operandBoundary(int y) {
        return y == CudaLexer.COMMA
                || y == CudaLexer.SEMI
                || y == CudaLexer.QUESTION
                || y == CudaLexer.COLON
                || y == CudaLexer.AND_AND
                || y == CudaLexer.OR_OR
                || y == CudaLexer.ASSIGN
                || y == CudaLexer.PLUS_ASSIGN
                || y == CudaLexer.MINUS_ASSIGN
                || y == CudaLexer.STAR_ASSIGN
                || y == CudaLexer.DIV_ASSIGN
                || y == CudaLexer.RETURN
                || y == CudaLexer.LBRACE
                || y == CudaLexer.RBRACE;
    }

    /** The first token of the expression around the operator at {@code k}, within its brackets. */
    private int operandBack(int k) {
        int j = k - 1;
        while (j > open) {
            int y = ty(j);
            if (y == CudaLexer.RPAREN || y == CudaLexer.RBRACKET) {
                j = matchBack(j) - 1;
                continue;
            }
            if (y == CudaLexer.LPAREN || y == CudaLexer.LBRACKET || operandBoundary(y)) break;
            j--;
        }
        return j + 1;
    }

    /** The end (exclusive) of the expression around the operator at {@code k}, within its brackets. */
    private int operandForward(int k) {
        int j = k + 1;
        while (j < close) {
            int y = ty(j);
            if (y == CudaLexer.LPAREN || y == CudaLexer.LBRACKET) {
                j = match(j) + 1;
                continue;
            }
            if (y == CudaLexer.RPAREN || y == CudaLexer.RBRACKET || operandBoundary(y)) break;
            j++;
        }
        return j;
    }

    /** Whether a {@code return} of the body returns a variate. */
    boolean returnsVariate() {
        for (int i = open + 1; i < close; i++) {
            if (ty(i) == CudaLexer.RETURN && drawnIn(i + 1, statementEnd(t, i + 1, close))) return true;
        }
        return false;
    }

    /** What the body writes through each pointer parameter that is a variate (keys as in variateParams). */
    List<Set<String>> writes(List<CType> paramTypes) {
        List<Set<String>> out = new ArrayList<>();
        for (int k = 0; k < paramNames.size(); k++) {
            Set<String> w = new LinkedHashSet<>();
            String p = paramNames.get(k);
            CType type = k < paramTypes.size() ? paramTypes.get(k) : null;
            if (p != null && type != null && type.kind == CType.Kind.POINTER) {
                for (Def d : defs.getOrDefault(p, List.of())) {
                    if (d.drawn && d.start >= 0 && !d.element) w.add(d.member == null ? "" : d.member);
                }
            }
            out.add(w);
        }
        return out;
    }

    /**
     * Records, for each call of a function of {@code defined}, what each argument carries that is a variate
     * (intersected with the other call sites into {@code params}); a function named otherwise than in a call
     * (a template argument list, a function pointer) goes to {@code opaque}: its call sites are not all known.
     */
    void callSites(Set<String> defined, Map<String, List<Set<String>>> params, Set<String> opaque) {
        for (int i = open + 1; i < close; i++) {
            if (ty(i) != CudaLexer.IDENTIFIER || !defined.contains(text(i)) || memberName(i)) continue;
            String g = text(i);
            int lp = callParen(i);
            if (lp < 0) {
                opaque.add(g);
                continue;
            }
            List<Set<String>> site = new ArrayList<>();
            for (int[] r : args(lp, match(lp))) site.add(carried(r[0], r[1]));
            params.merge(g, site, dev.numlint.cuda.facts.CallSiteKeys::intersect);
        }
    }

    /** What the argument {@code [from, to)} carries that is a variate: keys as in variateParams. */
    private Set<String> carried(int from, int to) {
        Set<String> out = new LinkedHashSet<>();
        String[] b = argBase(from, to);
        if (b == null) {
            if (drawnIn(from, to)) out.add("");
            return out;
        }
        if (b[1] != null) {
            if (variateAt(b[0], b[1], from, false)) out.add("");
            return out;
        }
        if (variateAt(b[0], null, from, true)) out.add("");
        Set<String> members = new LinkedHashSet<>();
        for (Def d : defs.getOrDefault(b[0], List.of())) if (d.member != null) members.add(d.member);
        for (String m : members) if (variateAt(b[0], m, from, false)) out.add(m);
        return out;
    }
}
