package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The lines of a device function whose floating-point arithmetic computes continuous random variates (the fact the
 * hand-written front end's {@code RandomVariates.variateLines} computes from tokens; the PTX layer's decisions on
 * them are made on another draw of the same distribution, {@code LayerMerge}). A line counts when every binary
 * {@code + - * /} of it lies in the value of a definition ({@code float r = ...}, {@code x = ...}, {@code p->x *= ...},
 * {@code a[i] = ...}) of a variable that is not an integer, whose value is a continuous variate ({@link
 * ClangRandom#continuous}: a read of an integer variable is discrete and carries none), or inside a subscript (index
 * arithmetic), at least one of them in such a value outside a subscript; and every place on the way from the
 * operator to the function that could decide something with a value of its own reads a continuous variate too: a
 * call's argument, an explicit cast's operand, a comparison, the condition of {@code ?:}, an operand of {@code &&} or
 * {@code ||}. An operator in an atomic's argument rules its line out (the order of atomics is the run's). A compound
 * assignment's own operator ({@code x += u * d}) lies in no definition's value, so its line does not count, as in
 * the hand-written lines. Only functions that run on the device, in a unit that draws. Computed on request, memoized
 * per function.
 */
final class ClangVariateLines {
    private final ClangUnit unit;
    private final ClangRandom random;
    private final Map<ClangUnit.Function, Set<Integer>> lines = new HashMap<>();
    private Boolean draws;

    ClangVariateLines(ClangUnit unit, ClangRandom random) {
        this.unit = unit;
        this.random = random;
    }

    /** The variate lines of {@code fn} (empty for host code and in a unit that never draws). */
    synchronized Set<Integer> of(ClangUnit.Function fn) {
        Set<Integer> known = lines.get(fn);
        if (known != null) return known;
        if (draws == null) draws = random.anyDraw();
        Set<Integer> out = fn.device() && draws ? compute(fn) : Set.of();
        lines.put(fn, out);
        return out;
    }

    private Set<Integer> compute(ClangUnit.Function fn) {
        // the values of the definitions that assign a continuous variate to a variable that is not an integer
        Map<ClangNode, Boolean> values = new IdentityHashMap<>();
        List<ClangNode> ops = new ArrayList<>();
        fn.node().forEach(x -> {
            ClangNode value = null;
            ClangNode target = null;
            if (x.kind == CXCursor_VarDecl && !x.children.isEmpty()) {
                ClangNode init = x.children.get(x.children.size() - 1);
                if (clang_isExpressionKind(init.kind)) {
                    value = init;
                    target = x;
                }
            } else if (assignment(x)) {
                value = x.children.get(1);
                target = root(x.children.get(0));
            }
            if (value != null && target != null && !ClangRandom.integral(target) && random.continuous(value, fn))
                values.put(value, Boolean.TRUE);
            if (arithmetic(x)) ops.add(x);
        });
        if (values.isEmpty()) return Set.of();
        Map<Integer, List<ClangNode>> byLine = new TreeMap<>();
        for (ClangNode op : ops)
            byLine.computeIfAbsent(operatorLine(op), k -> new ArrayList<>()).add(op);
        Map<ClangNode, Boolean> guards = new IdentityHashMap<>();
        Set<Integer> out = new TreeSet<>();
        lines:
        for (Map.Entry<Integer, List<ClangNode>> e : byLine.entrySet()) {
            boolean any = false;
            for (ClangNode op : e.getValue()) {
                boolean inValue = false;
                boolean inSubscript = false;
                for (ClangNode c = op, p = op.parent; p != null && c != fn.node(); c = p, p = p.parent) {
                    if (values.containsKey(c)) inValue = true;
                    if (p.kind == CXCursor_ArraySubscriptExpr && p.children.size() == 2 && p.children.get(1) == c)
                        inSubscript = true;
                    ClangNode guard = guard(p, c);
                    if (guard == NEVER) continue lines;
                    if (guard != null && !guards.computeIfAbsent(guard, g -> random.continuous(g, fn))) continue lines;
                }
                if (!inValue && !inSubscript) continue lines;
                any |= inValue && !inSubscript;
            }
            if (any) out.add(e.getKey());
        }
        return out;
    }

    /** Marks an atomic's argument: no operator in it computes a variate. */
    private static final ClangNode NEVER =
            new ClangNode(0, "", "", 0, "", 0, null, 0, 0, 0, 0, -1, -1, null, null, null, null);

    /**
     * What must read a variate for an operator inside {@code c}, the child of {@code p}, to compute one: the argument
     * of a call (of an atomic: {@link #NEVER}), the operand of an explicit cast, the comparison, the condition of
     * {@code ?:}, the operand of {@code &&} or {@code ||}; null when {@code p} decides nothing.
     */
    private static ClangNode guard(ClangNode p, ClangNode c) {
        if (p.kind == CXCursor_CallExpr && !p.children.isEmpty() && p.children.get(0) != c) {
            String name = callee(p);
            return name.startsWith("atomic") || name.startsWith("__atomic") ? NEVER : c;
        }
        if (isExplicitCast(p) && p.children.get(p.children.size() - 1) == c) return c;
        if (p.kind == CXCursor_BinaryOperator) {
            switch (p.spelling) {
                case "<", ">", "<=", ">=", "==", "!=" -> {
                    return p;
                }
                case "&&", "||" -> {
                    return c;
                }
                default -> {
                    return null;
                }
            }
        }
        if (p.kind == CXCursor_ConditionalOperator && !p.children.isEmpty() && p.children.get(0) == c) return c;
        return null;
    }

    /** A plain or arithmetic compound assignment ({@code = += -= *= /=}) with its two operands. */
    private static boolean assignment(ClangNode x) {
        if (x.children.size() != 2) return false;
        if (x.kind == CXCursor_BinaryOperator) return x.spelling.equals("=");
        return x.kind == CXCursor_CompoundAssignOperator
                && (x.spelling.equals("+=")
                        || x.spelling.equals("-=")
                        || x.spelling.equals("*=")
                        || x.spelling.equals("/="));
    }

    /** A binary {@code + - * /} or an arithmetic compound assignment. */
    private static boolean arithmetic(ClangNode x) {
        if (x.children.size() != 2) return false;
        if (x.kind == CXCursor_CompoundAssignOperator) return assignment(x);
        if (x.kind != CXCursor_BinaryOperator) return false;
        return switch (x.spelling) {
            case "+", "-", "*", "/" -> true;
            default -> false;
        };
    }

    /**
     * The variable an assignment's target names ({@code x}, {@code p->x}, {@code a[i]}, {@code *((float4 *)v)}: x,
     * p, a, v), or null.
     */
    private static ClangNode root(ClangNode lhs) {
        ClangNode n = lhs;
        for (int depth = 0; n != null && depth < 16; depth++) {
            n = strip(n);
            if (n == null) return null;
            if (n.kind == CXCursor_DeclRefExpr) return n;
            if (n.children.isEmpty()) return null;
            // a member's or element's base, a dereference's or cast's operand (its last child: a cast's first is
            // the type)
            n = n.kind == CXCursor_ArraySubscriptExpr || n.kind == CXCursor_MemberRefExpr
                    ? n.children.get(0)
                    : n.children.get(n.children.size() - 1);
        }
        return null;
    }

    /** The line of a binary operator's own token (its node's line is its first operand's). */
    private int operatorLine(ClangNode op) {
        ClangNode l = op.children.get(0);
        ClangNode r = op.children.get(1);
        if (op.offset < 0 || l.endOffset < op.offset || r.offset < l.endOffset) return op.line;
        byte[] b = unit.text(op).getBytes(StandardCharsets.UTF_8);
        int from = l.endOffset - op.offset;
        int to = Math.min(r.offset - op.offset, b.length);
        int at = -1;
        for (int i = from; i < to && at < 0; i++) {
            if (b[i] == op.spelling.charAt(0)) at = i;
        }
        if (at < 0) return op.line;
        int line = op.line;
        for (int i = 0; i < at; i++) if (b[i] == '\n') line++;
        return line;
    }
}
