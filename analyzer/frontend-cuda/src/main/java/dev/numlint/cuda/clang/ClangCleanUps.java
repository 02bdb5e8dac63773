package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.cuda.facts.CleanUpLoop;
import java.util.List;

/**
 * Clean-up (remainder) loops, from Clang's AST: {@code for (; i < n; i++)} after a loop that stops at
 * {@code i + 4 > n} ({@code for (i = 0; i + 4 <= n; i += 4)}, {@code i < n - 3}, {@code i < (n >> 2) << 2}), or
 * {@code for (i = 4*r; i < n; i++)} with {@code r = n >> 2} ({@code n / 4 * 4}, {@code n & ~3}, {@code n - n % 4}):
 * the counter starts at most k-1 below the bound, so the loop runs at most k-1 times. The counter and the variables
 * of the bounds must keep their values: the counter is written by nothing between the two loops, the loop before has
 * no {@code break} (it leaves only when its condition fails) and the function no {@code goto}, and every variable
 * the bounds read is written nowhere but in its declaration. The hand-written front end's analogue is
 * {@code CleanUpLoops}.
 */
final class ClangCleanUps {
    private final ClangUnit unit;

    ClangCleanUps(ClangUnit unit) {
        this.unit = unit;
    }

    /** The clean-up bound of the for loop {@code loop} in the function {@code fn} (its node), or null. */
    CleanUpLoop of(ClangNode loop, ClangNode fn) {
        if (loop.kind != CXCursor_ForStmt || fn == null) return null;
        // children: init, condition, increment, body (absent parts are simply missing); the condition is the first
        // comparison, and at most one part (the initialization) comes before it
        List<ClangNode> ch = loop.children;
        int ci = -1;
        for (int k = 0; k < ch.size() - 1 && k < 2; k++) {
            if (ch.get(k).kind == CXCursor_BinaryOperator && isComparison(ch.get(k).spelling)) {
                ci = k;
                break;
            }
        }
        if (ci < 0 || ci + 2 >= ch.size()) return null;
        ClangNode init = ci == 1 ? ch.get(0) : null;
        if (init != null
                && init.kind != CXCursor_DeclStmt
                && !(init.kind == CXCursor_BinaryOperator && init.spelling.equals("="))) return null;
        ClangNode cond = ch.get(ci);
        ClangNode inc = ch.get(ci + 1);
        if (inc.kind != CXCursor_UnaryOperator && inc.kind != CXCursor_CompoundAssignOperator) return null;
        if (cond.children.size() != 2) return null;
        ClangNode body = ch.get(ch.size() - 1);
        if (body == inc) return null;
        // i < N, i <= N (one more), N > i
        ClangNode l = strip(cond.children.get(0));
        ClangNode r = strip(cond.children.get(1));
        String var;
        ClangNode bound;
        int extra;
        switch (cond.spelling) {
            case "<", "<=" -> {
                var = l == null ? null : l.refUsr;
                bound = cond.children.get(1);
                extra = cond.spelling.equals("<=") ? 1 : 0;
                if (l == null || l.kind != CXCursor_DeclRefExpr) return null;
            }
            case ">", ">=" -> {
                var = r == null ? null : r.refUsr;
                bound = cond.children.get(0);
                extra = cond.spelling.equals(">=") ? 1 : 0;
                if (r == null || r.kind != CXCursor_DeclRefExpr) return null;
            }
            default -> {
                return null;
            }
        }
        if (var == null || !countsUp(inc, var)) return null;
        Writes w = writes(fn);
        if (w.hasGoto || !stable(bound, w, var) || w.addressTaken.contains(var)) return null;
        // the body does not move the counter, nor the bound
        if (writesVar(body, var)) return null;
        Start s = start(loop, init, var, bound, fn);
        if (s == null) return null;
        long most = s.gap() + extra;
        if (most < 0 || most > 1 << 20) return null;
        return new CleanUpLoop(s.after(), most);
    }

    /** Where the counter starts: the most it lies below the bound, and the line of the loop before (0: none). */
    private record Start(long gap, int after) {}

    private Start start(ClangNode loop, ClangNode init, String var, ClangNode bound, ClangNode fn) {
        ClangNode block = loop.parent;
        boolean inBlock = block != null && block.kind == CXCursor_CompoundStmt;
        // a loop that starts from its own initialization may be a branch's statement ('if constexpr (remain) for
        // (int i = count * vstep; i < vsize; i++)': session 62 round A)
        if (!inBlock && init == null) return null;
        int at = inBlock ? block.children.indexOf(loop) : -1;
        if (init != null) {
            ClangNode value = initialValue(init, var);
            Long g = value == null ? null : gap(value, bound, fn, var, 0);
            if (g == null && value != null) {
                // for (i = 0; i < leftovers; i++) with leftovers = n - 8 * (n / 8), n % 8, n & 7
                Double from = constant(value);
                Long r = from == null || from < 0 ? null : remainder(bound, fn, var, 0);
                if (r != null) g = Math.max(0, r - from.longValue());
            }
            return g == null ? null : new Start(g, inBlock ? loopBefore(block, at) : 0);
        }
        for (int k = at - 1; k >= 0; k--) {
            ClangNode s = block.children.get(k);
            if (s.kind == CXCursor_BinaryOperator && s.spelling.equals("=") && s.children.size() == 2) {
                ClangNode t = strip(s.children.get(0));
                if (t != null && t.kind == CXCursor_DeclRefExpr && var.equals(t.refUsr)) {
                    Long g = gap(s.children.get(1), bound, fn, var, 0);
                    return g == null ? null : new Start(g, loopBefore(block, k));
                }
            }
            if (s.kind == CXCursor_ForStmt || s.kind == CXCursor_WhileStmt || s.kind == CXCursor_DoStmt) {
                Long g = exitGap(s, var, bound, fn);
                if (g != null) return new Start(g, s.line);
            }
            if (writesVar(s, var)) return null;
        }
        return null;
    }

    /** The line of the nearest loop among the statements before index {@code k} of {@code block}, 0 when none. */
    private static int loopBefore(ClangNode block, int k) {
        for (int j = k - 1; j >= 0; j--) {
            ClangNode s = block.children.get(j);
            if (s.kind == CXCursor_ForStmt || s.kind == CXCursor_WhileStmt || s.kind == CXCursor_DoStmt) return s.line;
        }
        return 0;
    }

    /** The value {@code init} gives the counter ({@code i = E}, {@code int i = E}), or null. */
    private static ClangNode initialValue(ClangNode init, String var) {
        if (init.kind == CXCursor_BinaryOperator && init.children.size() == 2) {
            ClangNode t = strip(init.children.get(0));
            return t != null && var.equals(t.refUsr) ? init.children.get(1) : null;
        }
        if (init.kind == CXCursor_DeclStmt && init.children.size() == 1) {
            ClangNode d = init.children.get(0);
            if (!var.equals(d.usr) || d.children.isEmpty()) return null;
            ClangNode v = d.children.get(d.children.size() - 1);
            return clang_isExpressionKind(v.kind) ? v : null;
        }
        return null;
    }

    /**
     * How far below {@code bound} the counter is when the loop {@code l} leaves through its condition: {@code i < B}
     * leaves at {@code i >= B}, {@code i + a <= B} at {@code i > B - a}. Null when the loop can leave otherwise
     * ({@code break}), or its condition is no such test of the counter.
     */
    private Long exitGap(ClangNode l, String var, ClangNode bound, ClangNode fn) {
        ClangNode cond = null;
        for (ClangNode c : l.children) {
            if (c.kind == CXCursor_BinaryOperator && isComparison(c.spelling)) {
                cond = c;
                break;
            }
        }
        if (l.kind == CXCursor_DoStmt)
            cond = l.children.isEmpty() ? null : strip(l.children.get(l.children.size() - 1));
        if (cond == null || cond.kind != CXCursor_BinaryOperator || cond.children.size() != 2) return null;
        if (breaks(l)) return null;
        String op = cond.spelling;
        ClangNode counterSide;
        ClangNode other;
        switch (op) {
            case "<", "<=" -> {
                counterSide = cond.children.get(0);
                other = cond.children.get(1);
            }
            case ">", ">=" -> {
                counterSide = cond.children.get(1);
                other = cond.children.get(0);
                op = op.equals(">") ? "<" : "<=";
            }
            default -> {
                return null;
            }
        }
        // the counter, or the counter plus a constant
        long plus = 0;
        ClangNode c = strip(counterSide);
        if (c != null && c.kind == CXCursor_BinaryOperator && c.spelling.equals("+") && c.children.size() == 2) {
            ClangNode a = strip(c.children.get(0));
            Double k = constant(c.children.get(1));
            if (k == null) {
                k = constant(c.children.get(0));
                a = strip(c.children.get(1));
            }
            if (k == null || k < 0 || k != Math.rint(k)) return null;
            plus = k.longValue();
            c = a;
        }
        if (c == null || c.kind != CXCursor_DeclRefExpr || !var.equals(c.refUsr)) return null;
        if (!stable(other, writes(fn), var)) return null;
        Long g = gap(other, bound, fn, var, 0);
        if (g == null) return null;
        // i + a < B leaves at i >= B - a; i + a <= B at i >= B - a + 1
        long gap = g + plus - (op.equals("<=") ? 1 : 0);
        return Math.max(0, gap);
    }

    /**
     * The most {@code e} lies below {@code bound}: 0 for the bound itself, K for {@code bound - K}, k-1 for
     * {@code bound / k * k}, {@code (bound >> s) << s}, {@code bound & ~(k-1)}, {@code bound - bound % k}, and
     * {@code k * r} with a variable {@code r} that holds {@code bound / k} or {@code bound >> s}; through variables
     * that hold such a value and are written nowhere else. Null when not known.
     */
    private Long gap(ClangNode e, ClangNode bound, ClangNode fn, String counter, int depth) {
        ClangNode x = strip(e);
        if (x == null || depth > 4) return null;
        if (same(x, bound)) return 0L;
        if (x.kind == CXCursor_CStyleCastExpr || x.kind == CXCursor_CXXStaticCastExpr) {
            return gap(operandOf(x), bound, fn, counter, depth + 1);
        }
        if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null && !x.refUsr.equals(counter)) {
            ClangNode v = singleValue(x.refUsr, fn);
            return v == null ? null : gap(v, bound, fn, counter, depth + 1);
        }
        if (x.kind != CXCursor_BinaryOperator || x.children.size() != 2) return null;
        ClangNode a = x.children.get(0);
        ClangNode b = x.children.get(1);
        Double ka = constant(a);
        Double kb = constant(b);
        switch (x.spelling) {
            case "-" -> {
                if (kb != null && kb >= 0 && kb == Math.rint(kb)) {
                    Long g = gap(a, bound, fn, counter, depth + 1);
                    return g == null ? null : g + kb.longValue();
                }
                // n - n % k, n - (n & (k-1))
                ClangNode m = strip(b);
                if (same(strip(a), bound) && m != null && m.kind == CXCursor_BinaryOperator && m.children.size() == 2) {
                    Double k = constant(m.children.get(1));
                    if (k == null || !same(strip(m.children.get(0)), bound)) return null;
                    if (m.spelling.equals("%") && k >= 1 && k == Math.rint(k)) return k.longValue() - 1;
                    if (m.spelling.equals("&") && k >= 0 && powerOfTwo(k.longValue() + 1)) return k.longValue();
                }
                return null;
            }
            case "*" -> {
                Double k = kb != null ? kb : ka;
                ClangNode q = kb != null ? a : b;
                if (k == null || k < 1 || k != Math.rint(k)) return null;
                return quotient(q, bound, k.longValue(), fn, depth) ? k.longValue() - 1 : null;
            }
            case "<<" -> {
                if (kb == null || kb < 0 || kb > 30) return null;
                long k = 1L << kb.longValue();
                return quotient(a, bound, k, fn, depth) ? k - 1 : null;
            }
            case "&" -> {
                Double m = kb != null ? kb : ka;
                ClangNode other = kb != null ? a : b;
                if (m == null || !same(strip(other), bound)) return null;
                long mask = m.longValue();
                long k = mask < 0 ? -mask : mask >= (1L << 31) && mask < (1L << 32) ? (1L << 32) - mask : 0;
                return k > 0 && powerOfTwo(k) ? k - 1 : null;
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * The largest value of {@code e} when it is a remainder: {@code n % k} (k-1), {@code n & (k-1)} (k-1), or
     * {@code n - m} with {@code m} rounding {@code n} down to a multiple of k ({@link #gap}); through locals written
     * once. Null otherwise.
     */
    private Long remainder(ClangNode e, ClangNode fn, String counter, int depth) {
        ClangNode x = strip(e);
        if (x == null || depth > 4) return null;
        if (x.kind == CXCursor_CStyleCastExpr || x.kind == CXCursor_CXXStaticCastExpr)
            return remainder(operandOf(x), fn, counter, depth + 1);
        if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null && !x.refUsr.equals(counter)) {
            ClangNode v = singleValue(x.refUsr, fn);
            return v == null ? null : remainder(v, fn, counter, depth + 1);
        }
        if (x.kind != CXCursor_BinaryOperator || x.children.size() != 2) return null;
        Double k = constant(x.children.get(1));
        switch (x.spelling) {
            case "%" -> {
                return k != null && k >= 1 && k == Math.rint(k) ? k.longValue() - 1 : null;
            }
            case "&" -> {
                return k != null && k >= 0 && powerOfTwo(k.longValue() + 1) ? k.longValue() : null;
            }
            case "-" -> {
                if (!stable(x.children.get(0), writes(fn), counter)) return null;
                Long g = gap(x.children.get(1), x.children.get(0), fn, counter, depth + 1);
                return g == null || g == 0 ? null : g;
            }
            default -> {
                return null;
            }
        }
    }

    /** Whether {@code q} is {@code bound / k} or {@code bound >> s} with 2^s = k, directly or through a variable. */
    private boolean quotient(ClangNode q, ClangNode bound, long k, ClangNode fn, int depth) {
        ClangNode x = strip(q);
        for (int d = depth; x != null && d < 6; d++) {
            if (x.kind == CXCursor_CStyleCastExpr || x.kind == CXCursor_CXXStaticCastExpr) {
                x = strip(operandOf(x));
            } else if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null) {
                x = strip(singleValue(x.refUsr, fn));
            } else {
                break;
            }
        }
        if (x == null || x.kind != CXCursor_BinaryOperator || x.children.size() != 2) return false;
        if (!same(strip(x.children.get(0)), bound)) return false;
        Double c = constant(x.children.get(1));
        if (c == null) return false;
        return x.spelling.equals("/") && c == k
                || x.spelling.equals(">>") && c >= 0 && c < 31 && (1L << c.longValue()) == k;
    }

    private static boolean powerOfTwo(long k) {
        return k > 0 && (k & (k - 1)) == 0;
    }

    /** Whether two expressions are the same: the same variable, or the same text. */
    private boolean same(ClangNode x, ClangNode y) {
        ClangNode a = strip(x);
        ClangNode b = strip(y);
        if (a == null || b == null) return false;
        if (a.kind == CXCursor_DeclRefExpr && b.kind == CXCursor_DeclRefExpr)
            return a.refUsr != null && a.refUsr.equals(b.refUsr);
        return squash(unit.text(a)).equals(squash(unit.text(b))) && sameTree(a, b);
    }

    /**
     * The value of the local {@code usr} when its declaration gives it one and nothing else in {@code fn} writes it
     * (or takes its address), else null.
     */
    private static ClangNode singleValue(String usr, ClangNode fn) {
        ClangNode[] decl = new ClangNode[1];
        boolean[] written = new boolean[1];
        fn.forEach(n -> {
            if (n.kind == CXCursor_VarDecl && usr.equals(n.usr)) decl[0] = n;
            else if (ClangLoops.writes(n, usr)) written[0] = true;
        });
        if (decl[0] == null || written[0] || decl[0].children.isEmpty()) return null;
        ClangNode v = decl[0].children.get(decl[0].children.size() - 1);
        return clang_isExpressionKind(v.kind) ? v : null;
    }

    /**
     * Whether every variable {@code e} reads (other than the counter) keeps its value in {@code fn}: nothing writes
     * it or takes its address, nor assigns a member {@code e} reads ({@code q->n}); {@code e} calls nothing.
     */
    private boolean stable(ClangNode e, Writes w, String counter) {
        java.util.Set<String> vars = new java.util.HashSet<>();
        java.util.Set<String> members = new java.util.HashSet<>();
        boolean[] calls = new boolean[1];
        e.forEach(n -> {
            if (n.kind == CXCursor_DeclRefExpr && n.refUsr != null) vars.add(n.refUsr);
            if (n.kind == CXCursor_MemberRefExpr) members.add(squash(unit.text(n)));
            if (n.kind == CXCursor_CallExpr) calls[0] = true;
        });
        if (calls[0] || vars.contains(counter)) return false;
        for (String v : vars) if (w.variables.contains(v)) return false;
        for (String m : members) if (w.targets.contains(m)) return false;
        return true;
    }

    /**
     * What a function writes, read once per function (a kernel of a few thousand lines has hundreds of loops, and
     * each loop's checks walked the whole function: quadratic): the variables assigned, stepped or whose address is
     * taken ({@link ClangLoops#writes}), the squashed text of every assignment's or step's target, the variables
     * whose address is taken, and whether it holds a goto.
     */
    private record Writes(
            java.util.Set<String> variables,
            java.util.Set<String> targets,
            java.util.Set<String> addressTaken,
            boolean hasGoto) {}

    /** {@code fn}'s {@link Writes}, kept with its body's index ({@link ClangBodyIndex#derived}). */
    private Writes writes(ClangNode fn) {
        return ClangBodyIndex.of(fn).derived("clean-up writes", "", () -> readWrites(fn));
    }

    private Writes readWrites(ClangNode fn) {
        java.util.Set<String> variables = new java.util.HashSet<>();
        java.util.Set<String> targets = new java.util.HashSet<>();
        java.util.Set<String> address = new java.util.HashSet<>();
        boolean[] jump = new boolean[1];
        fn.forEach(n -> {
            if (n.kind == CXCursor_GotoStmt || n.kind == CXCursor_IndirectGotoStmt) jump[0] = true;
            boolean assign = n.kind == CXCursor_BinaryOperator && n.spelling.equals("=")
                    || n.kind == CXCursor_CompoundAssignOperator;
            boolean step = n.kind == CXCursor_UnaryOperator && (n.spelling.equals("++") || n.spelling.equals("--"));
            boolean addressOf = n.kind == CXCursor_UnaryOperator && n.spelling.equals("&");
            if ((!assign && !step && !addressOf) || n.children.isEmpty()) return;
            ClangNode t = strip(n.children.get(0));
            if (t == null) return;
            if (t.kind == CXCursor_DeclRefExpr && t.refUsr != null) {
                variables.add(t.refUsr); // ClangLoops.writes
                if (addressOf) address.add(t.refUsr);
            }
            if (assign || step) targets.add(squash(unit.text(t)));
        });
        return new Writes(variables, targets, address, jump[0]);
    }

    /** Whether {@code inc} counts {@code var} up: {@code i++}, {@code ++i}, {@code i += c} with a constant c >= 1. */
    private static boolean countsUp(ClangNode inc, String var) {
        if (inc.children.isEmpty()) return false;
        ClangNode t = strip(inc.children.get(0));
        if (t == null || t.kind != CXCursor_DeclRefExpr || !var.equals(t.refUsr)) return false;
        if (inc.kind == CXCursor_UnaryOperator) return inc.spelling.equals("++");
        if (inc.kind != CXCursor_CompoundAssignOperator || !inc.spelling.equals("+=") || inc.children.size() != 2)
            return false;
        Double k = constant(inc.children.get(1));
        return k != null && k >= 1;
    }

    /** Whether anything in {@code n} writes {@code var} or takes its address. */
    private static boolean writesVar(ClangNode n, String var) {
        boolean[] w = new boolean[1];
        n.forEach(x -> {
            if (!w[0] && ClangLoops.writes(x, var)) w[0] = true;
        });
        return w[0];
    }

    /** Whether the loop {@code l} holds a {@code break} of its own (not one of an inner loop or switch). */
    private static boolean breaks(ClangNode l) {
        boolean[] b = new boolean[1];
        l.forEach(n -> {
            if (b[0] || n.kind != CXCursor_BreakStmt) return;
            for (ClangNode p = n.parent; p != null; p = p.parent) {
                if (p == l) {
                    b[0] = true;
                    return;
                }
                if (p.kind == CXCursor_ForStmt
                        || p.kind == CXCursor_WhileStmt
                        || p.kind == CXCursor_DoStmt
                        || p.kind == CXCursor_SwitchStmt) return;
            }
        });
        return b[0];
    }
}
