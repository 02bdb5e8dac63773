package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.List;
import java.util.Map;

/**
 * A ring buffer's write pointer: the increment of a for header steps it ({@code i++, outptr++}) and the loop's body
 * wraps it back to the buffer's start when it reaches the end ({@code if (outptr >= bufEnd) outptr = ringBuf_;}). An
 * update {@code *outptr += x} then meets an element twice only where the loop runs past the ring's length: a sum
 * over the loop only under that condition, which {@link ClangElements#strided} names ("it runs past the end of the
 * ring (outptr >= bufEnd)"), as it names a stride that may be 0 (session 60: an audio library's band-limited step
 * inserted into its ring had been a false warning "the error grows with n").
 */
final class ClangElementRings {
    private ClangElementRings() {}

    /**
     * Adds to {@code strided} the loop of {@code chain} that steps the pointer {@code p} (an update's {@code *p}) as a
     * ring's, with the condition of a sum over it.
     */
    static void ring(ClangNode p, List<ClangNode> chain, Map<ClangNode, String> strided) {
        ClangNode x = strip(p);
        if (x == null || x.kind != CXCursor_DeclRefExpr || x.refUsr == null || x.canonKind != CXType_Pointer) return;
        String usr = x.refUsr;
        for (ClangNode loop : chain) {
            if (loop.kind != CXCursor_ForStmt || loop.children.size() != 4) continue;
            ClangNode wrap = wrap(loop, usr);
            if (wrap == null) continue;
            ClangNode test = wrap.children.get(0);
            strided.putIfAbsent(loop, "it runs past the end of the ring (" + textOf(test) + ")");
        }
    }

    /**
     * The wrap {@code if (p >= end) p = start;} of the body of {@code loop}, when the header's increment steps
     * {@code p} up by one ({@code p++}, {@code ++p}, {@code p += 1}) and nothing else in the loop writes it; else null.
     */
    private static ClangNode wrap(ClangNode loop, String usr) {
        int[] header = new int[1];
        loop.children.get(2).forEach(n -> {
            if (ClangLoops.writes(n, usr) && ClangCounterSteps.stepSign(n, usr) > 0) header[0]++;
        });
        if (header[0] != 1) return null;
        ClangNode body = loop.children.get(3);
        List<ClangNode> sts = body.kind == CXCursor_CompoundStmt ? body.children : List.of(body);
        ClangNode found = null;
        for (ClangNode st : sts) {
            if (st.kind != CXCursor_IfStmt || st.children.size() != 2) continue;
            ClangNode test = bare(st.children.get(0));
            ClangNode set = bare(soleStatement(st.children.get(1)));
            if (test == null || set == null || test.kind != CXCursor_BinaryOperator || test.children.size() != 2)
                continue;
            if (!List.of(">=", "==", ">").contains(test.spelling)) continue;
            ClangNode l = bare(test.children.get(0));
            if (l == null || l.kind != CXCursor_DeclRefExpr || !usr.equals(l.refUsr)) continue;
            if (set.kind != CXCursor_BinaryOperator || !set.spelling.equals("=") || set.children.size() != 2) continue;
            ClangNode target = bare(set.children.get(0)), start = bare(set.children.get(1));
            if (target == null || target.kind != CXCursor_DeclRefExpr || !usr.equals(target.refUsr)) continue;
            boolean named = start != null
                    && (start.kind == CXCursor_DeclRefExpr || ClangElementBases.thisMemberIn(start, loop));
            if (named) found = st;
        }
        if (found == null) return null;
        // no write of the pointer but the header's step and the wrap's assignment
        ClangNode wrap = found;
        int[] writes = new int[1];
        loop.forEach(n -> {
            if (ClangLoops.writes(n, usr) || n.kind == CXCursor_VarDecl && usr.equals(n.usr)) writes[0]++;
        });
        return writes[0] == 2 ? wrap : null;
    }

    /**
     * A ring whose slots the loop clears in turn: an update {@code B[e] += t} in {@code loop}, whose body also clears
     * {@code B[c] = 0} and steps {@code c = (c + 1) & (S - 1)} (or {@code % S}), both as statements of the body itself
     * (every iteration runs them; no {@code continue}, {@code goto} or {@code return} in it, no {@code break} of it),
     * nothing else in the loop writing {@code c} or {@code B}, and the subscript {@code e} within [0, S) ({@code x &
     * (S - 1)}, a shift of such a value, through the definitions of locals in the loop's body, else its interval).
     * Every S consecutive iterations clear every slot once, so a slot sums the terms of at most S iterations, however
     * long the loop runs; and where {@code e} follows {@code c} ({@code n = (int) floorf(delay + outpos) & MASK}) a
     * slot gathers one term per pass unless the offset from {@code c} varies: a delay line's overlap-add (session 62
     * round B: an organ's rotary-speaker and vibrato effects, 12 false "the error grows with n"). Null when not so.
     *
     * @param slots S
     * @param clear the statement that clears, as written, and its line
     * @param follows the position {@code c} as written when {@code e} reads it, else null
     */
    record Cleared(long slots, String clear, String follows) {
        /** The condition of a sum of more than one term per slot and pass, for {@link ClangElements#strided}. */
        String condition() {
            return "its offset from '" + follows + "' varies (" + clear + " clears the ring's " + slots
                    + " slots in turn)";
        }

        /** The reason of the trip bound S, for a site's {@code tripFrom}. */
        String reason() {
            return clear + " clearing the ring's " + slots + " slots in turn";
        }
    }

    static Cleared cleared(ClangUnit unit, ClangUnit.Function fn, ClangNode lhs, ClangNode loop) {
        ClangNode x = strip(lhs);
        if (x == null || x.kind != CXCursor_ArraySubscriptExpr || x.children.size() != 2) return null;
        ClangNode base = strip(x.children.get(0));
        String baseKey = base == null ? null : ClangGuards.Path.key(base);
        if (baseKey == null) return null;
        ClangNode body = loop.children.isEmpty()
                ? null
                : loop.kind == CXCursor_DoStmt ? loop.children.get(0) : loop.children.get(loop.children.size() - 1);
        if (body == null || body.kind != CXCursor_CompoundStmt || leaves(loop)) return null;
        for (ClangNode st : body.children) {
            ClangNode clear = bare(st);
            if (clear == null || !ClangSyntax.assignment(clear) || !clear.spelling.equals("=")) continue;
            Double zero = constant(clear.children.get(1));
            ClangNode slot = strip(clear.children.get(0));
            if (zero == null || zero != 0 || slot == null || slot.kind != CXCursor_ArraySubscriptExpr) continue;
            if (slot.children.size() != 2 || !baseKey.equals(ClangGuards.Path.key(strip(slot.children.get(0)))))
                continue;
            ClangNode c = strip(slot.children.get(1));
            String at = c == null ? null : ClangGuards.Path.key(c);
            if (at == null) continue;
            long ring = -1;
            for (ClangNode step : body.children) {
                long r = ringStep(bare(step), at);
                if (r > 0) ring = r;
            }
            if (ring < 2 || writesOf(loop, at) != 1 || writesOf(loop, baseKey) != 0) continue;
            ClangNode e = x.children.get(1);
            long[] in = range(unit, fn, e, loop, 0);
            if (in == null || in[0] < 0 || in[1] > ring - 1) continue;
            return new Cleared(
                    ring,
                    "'" + unit.text(clear) + "' (line " + clear.line + ")",
                    reads(e, at, loop, 0) ? unit.text(c) : null);
        }
        return null;
    }

    /**
     * The range of the integer subscript {@code e} in {@code loop}: a mask {@code x & M} (M >= 0: [0, M]), a remainder
     * {@code x % N} of a value >= 0, a right shift by a constant of a value >= 0, a sum or difference, a conversion,
     * a local through its definition in the loop's body that reaches {@code e} ({@link #definition}), else its interval;
     * null when unknown.
     */
    private static long[] range(ClangUnit unit, ClangUnit.Function fn, ClangNode e, ClangNode loop, int depth) {
        ClangNode n = bare(e);
        if (n == null || depth > 8) return null;
        Double k = constant(n);
        if (k != null)
            return k == Math.rint(k) && Math.abs(k) < 1e15 ? new long[] {k.longValue(), k.longValue()} : null;
        if (n.kind == CXCursor_CStyleCastExpr || n.kind == CXCursor_CXXStaticCastExpr) {
            ClangNode o = operandOf(n);
            return o != null && integral(o.canonKind) ? range(unit, fn, o, loop, depth + 1) : interval(unit, fn, n);
        }
        if (n.kind == CXCursor_DeclRefExpr && integral(n.canonKind) && n.refUsr != null) {
            ClangNode d = definition(n, loop);
            if (d != null) return range(unit, fn, d, loop, depth + 1);
            return writesOf(loop, ClangGuards.Path.key(n)) == 0 ? interval(unit, fn, n) : null;
        }
        if (n.kind == CXCursor_BinaryOperator && n.children.size() == 2) {
            Double m = constant(n.children.get(1));
            if (n.spelling.equals("&")) {
                if (m == null) m = constant(n.children.get(0));
                return m != null && m >= 0 && m < 1e15 ? new long[] {0, m.longValue()} : null;
            }
            long[] a = range(unit, fn, n.children.get(0), loop, depth + 1);
            if (n.spelling.equals("%") && m != null && m >= 1 && a != null && a[0] >= 0)
                return new long[] {0, Math.min(a[1], m.longValue() - 1)};
            if (n.spelling.equals(">>") && m != null && m >= 0 && m < 63 && a != null && a[0] >= 0)
                return new long[] {a[0] >> m.longValue(), a[1] >> m.longValue()};
            long[] b = n.spelling.equals("+") || n.spelling.equals("-")
                    ? range(unit, fn, n.children.get(1), loop, depth + 1)
                    : null;
            if (a == null || b == null) return null;
            return n.spelling.equals("+")
                    ? new long[] {a[0] + b[0], a[1] + b[1]}
                    : new long[] {a[0] - b[1], a[1] - b[0]};
        }
        return interval(unit, fn, n);
    }

    private static long[] interval(ClangUnit unit, ClangUnit.Function fn, ClangNode n) {
        double[] r = unit.interval(n, fn);
        if (r == null || Double.isNaN(r[0]) || Double.isNaN(r[1]) || Math.abs(r[0]) > 1e15 || Math.abs(r[1]) > 1e15)
            return null;
        return new long[] {(long) Math.floor(r[0]), (long) Math.ceil(r[1])};
    }

    /** Whether {@code e} reads the path {@code key}, itself or through the definitions of locals in {@code loop}. */
    private static boolean reads(ClangNode e, String key, ClangNode loop, int depth) {
        if (e == null || depth > 8) return false;
        boolean[] hit = {false};
        e.forEach(n -> {
            if (hit[0]) return;
            if (key.equals(ClangGuards.Path.key(n))) hit[0] = true;
            else if (n.kind == CXCursor_DeclRefExpr && n.refUsr != null) {
                ClangNode d = definition(n, loop);
                if (d != null && reads(d, key, loop, depth + 1)) hit[0] = true;
            }
        });
        return hit[0];
    }

    /**
     * The value the local {@code ref} reads in {@code loop}'s body: the nearest statement before it, in the blocks
     * around it inside the loop, that writes it, when that is its declaration with an initializer or an assignment
     * {@code v = E}; null otherwise (a compound assignment, an increment, a write in a branch, none in the loop).
     */
    private static ClangNode definition(ClangNode ref, ClangNode loop) {
        String usr = ref.refUsr;
        ClangNode c = ref;
        for (ClangNode p = ref.parent; p != null && p != loop; c = p, p = p.parent) {
            if (p.kind != CXCursor_CompoundStmt) continue;
            for (int k = p.children.indexOf(c) - 1; k >= 0; k--) {
                ClangNode st = p.children.get(k);
                ClangNode value = ClangFractions.assigned(st, usr); // v = E; or T v = E;
                if (value != null) return clang_isExpressionKind(value.kind) ? value : null;
                boolean[] w = {false};
                st.forEach(n -> w[0] |= ClangLoops.writes(n, usr));
                if (w[0]) return null;
            }
        }
        return null;
    }

    /** S of {@code c = (c + 1) & (S - 1)} or {@code c = (c + 1) % S} stepping the path {@code key}, else -1. */
    private static long ringStep(ClangNode st, String key) {
        if (st == null || !ClangSyntax.assignment(st) || !st.spelling.equals("=")) return -1;
        if (!key.equals(ClangGuards.Path.key(strip(st.children.get(0))))) return -1;
        ClangNode r = bare(st.children.get(1));
        if (r == null || r.kind != CXCursor_BinaryOperator || r.children.size() != 2) return -1;
        Double k = constant(r.children.get(1));
        ClangNode sum = bare(r.children.get(0));
        if (k == null || k != Math.rint(k) || k < 1 || k > (1L << 40)) return -1;
        if (sum == null || sum.kind != CXCursor_BinaryOperator || !sum.spelling.equals("+") || sum.children.size() != 2)
            return -1;
        Double one = constant(sum.children.get(1));
        ClangNode same = strip(sum.children.get(0));
        if (one == null || one != 1 || same == null || !key.equals(ClangGuards.Path.key(same))) return -1;
        long m = k.longValue();
        if (r.spelling.equals("%")) return m;
        return r.spelling.equals("&") && ((m + 1) & m) == 0 ? m + 1 : -1;
    }

    /** How many assignments, compound assignments, increments and decrements in {@code loop} write {@code key}. */
    private static int writesOf(ClangNode loop, String key) {
        int[] n = {0};
        loop.forEach(w -> {
            boolean write = ClangSyntax.assignment(w)
                    || w.kind == CXCursor_UnaryOperator && (w.spelling.equals("++") || w.spelling.equals("--"));
            if (write && !w.children.isEmpty() && key.equals(ClangGuards.Path.key(strip(w.children.get(0))))) n[0]++;
            if (w.kind == CXCursor_UnaryOperator && w.spelling.equals("&") && !w.children.isEmpty()) {
                String k = ClangGuards.Path.key(strip(w.children.get(0)));
                if (key.equals(k)) n[0] += 2; // its address taken: written where this cannot see
            }
        });
        return n[0];
    }

    /** Whether an iteration of {@code loop} can end early: a continue or break of it, a return, a goto. */
    private static boolean leaves(ClangNode loop) {
        boolean[] out = {false};
        loop.forEach(n -> {
            if (n.kind == CXCursor_ReturnStmt || n.kind == CXCursor_GotoStmt) out[0] = true;
            if ((n.kind == CXCursor_ContinueStmt || n.kind == CXCursor_BreakStmt)
                    && innermostLoop(n) == loop
                    && !(n.kind == CXCursor_BreakStmt && inSwitch(n, loop))) out[0] = true;
        });
        return out[0];
    }

    /** Whether the break {@code n} leaves a switch inside {@code loop}. */
    private static boolean inSwitch(ClangNode n, ClangNode loop) {
        for (ClangNode p = n.parent; p != null && p != loop; p = p.parent)
            if (p.kind == CXCursor_SwitchStmt) return true;
        return false;
    }

    private static String textOf(ClangNode test) {
        ClangNode a = bare(test.children.get(0)), b = bare(test.children.get(1));
        return name(a) + " " + test.spelling + " " + name(b);
    }

    private static String name(ClangNode n) {
        return n == null || n.spelling == null || n.spelling.isEmpty() ? "its end" : n.spelling;
    }
}
