package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * Whether an expression has one value for every value at most 0 of a local it reads: the local is read only in
 * conditional operators that compare it with a constant and, for every such value, pick a branch that does not read
 * it ({@code MIN(MAX(0, v), 64)}, {@code 255 - CLAMP(v, 0, 255)} of macros written as {@code ?:}, ft2-clone, session
 * 62 round F). A rounding by adding one half and truncating differs from rounding only where its result is at most
 * 0, so a clamp of this kind right after it makes both roundings equal ({@link ClangRoundingClamps}).
 */
final class ClangLowerClamps {
    /** Whether {@code e} has the same value for every value {@code <= 0} of the local {@code usr}. */
    static boolean settles(ClangNode e, String usr) {
        return settles(e, usr, java.util.Map.of());
    }

    /**
     * {@link #settles(ClangNode, String)} where the locals of {@code constants} (by USR) hold those values: the
     * {@code _b = (1)} of a statement-expression maximum {@code ({ typeof(a) _a = (a); typeof(b) _b = (b); _a > _b ?
     * _a : _b; })}.
     */
    static boolean settles(ClangNode e, String usr, java.util.Map<String, Double> constants) {
        return new ClangLowerClamps(constants, x -> x.kind == CXCursor_DeclRefExpr && usr.equals(x.refUsr)).flat(e, 0)
                && reads(e, usr);
    }

    /**
     * Whether the conditional {@code e} has the same value for every value {@code <= 0} of the expression {@code
     * value}, each copy of it in {@code e} (the same tree) read as that value: {@code CLIP(0, 51, (int)(qp + 0.5))}
     * of a macro that repeats its argument (session 74 round B: a video encoder's quantiser).
     */
    static boolean settlesCopies(ClangNode e, ClangNode value) {
        ClangLowerClamps c = new ClangLowerClamps(java.util.Map.of(), x -> sameTree(x, value));
        return c.flat(e, 0) && c.reads(e);
    }

    private final java.util.Map<String, Double> constants;

    /** Whether a node is the value (the local's reference, a copy of the expression). */
    private final java.util.function.Predicate<ClangNode> isValue;

    private ClangLowerClamps(java.util.Map<String, Double> constants, java.util.function.Predicate<ClangNode> isValue) {
        this.constants = constants;
        this.isValue = isValue;
    }

    /** Whether {@code n}, under wrappers, is the value. */
    private boolean local(ClangNode n) {
        ClangNode x = strip(n);
        return x != null && isValue.test(x);
    }

    /** Whether {@code e} reads the value. */
    private boolean reads(ClangNode e) {
        boolean[] r = new boolean[1];
        e.forEach(x -> r[0] |= !r[0] && isValue.test(x));
        return r[0];
    }

    /** The constant value of {@code n}: folded, or a local of {@link #constants}; null otherwise. */
    private Double value(ClangNode n) {
        Double k = folded(n);
        if (k != null) return k;
        ClangNode x = bare(n);
        return x != null && x.kind == CXCursor_DeclRefExpr && x.refUsr != null ? constants.get(x.refUsr) : null;
    }

    private boolean flat(ClangNode e, int depth) {
        if (e == null || depth > 32) return false;
        if (!reads(e)) return true;
        ClangNode n = strip(e);
        if (local(n) || n.kind == CXCursor_DeclRefExpr) return false;
        if (n.kind == CXCursor_ConditionalOperator && n.children.size() == 3) {
            ClangNode test = n.children.get(0), yes = n.children.get(1), no = n.children.get(2);
            int outcome = outcome(test);
            if (outcome > 0) return flat(yes, depth + 1);
            if (outcome < 0) return flat(no, depth + 1);
            if (outcome == 0
                    && (zeroAtBound(yes, no)
                            || Double.valueOf(0).equals(value(yes))
                                    && Double.valueOf(0).equals(atZero(no, 0)))) return true;
            return flat(test, depth + 1) && flat(yes, depth + 1) && flat(no, depth + 1);
        }
        if (n.kind == CXCursor_CallExpr) return false;
        if (n.kind == CXCursor_BinaryOperator && (n.spelling.equals("=") || n.spelling.equals(","))) return false;
        if (n.kind == CXCursor_CompoundAssignOperator) return false;
        if (n.kind == CXCursor_UnaryOperator && (n.spelling.equals("++") || n.spelling.equals("--"))) return false;
        for (ClangNode c : n.children) if (!flat(c, depth + 1)) return false;
        return true;
    }

    /**
     * The outcome of {@code test} for every value {@code <= 0} of the local: 1 always true, -1 always false, 0 true
     * below 0 and false at 0 ({@code v < 0}), 2 unknown.
     */
    private int outcome(ClangNode test) {
        ClangNode t = strip(test);
        if (t == null || t.kind != CXCursor_BinaryOperator || t.children.size() != 2) return 2;
        ClangNode a = strip(t.children.get(0)), b = strip(t.children.get(1));
        String op = t.spelling;
        Double k;
        if (local(a) && (k = value(b)) != null) {
            // v op k
        } else if (local(b) && (k = value(a)) != null) {
            op = switch (op) {
                case "<" -> ">";
                case ">" -> "<";
                case "<=" -> ">=";
                case ">=" -> "<=";
                default -> op;
            };
        } else return 2;
        return switch (op) {
            case ">" -> k >= 0 ? -1 : 2;
            case ">=" -> k > 0 ? -1 : 2;
            case "<" -> k > 0 ? 1 : k == 0 ? 0 : 2;
            case "<=" -> k >= 0 ? 1 : 2;
            default -> 2;
        };
    }

    /** {@code v < 0 ? 0 : v}: 0 below 0 and the local itself at 0, which is 0 too. */
    private boolean zeroAtBound(ClangNode yes, ClangNode no) {
        Double y = value(yes);
        return y != null
                && y == 0
                && (local(no) || !reads(no) && Double.valueOf(0).equals(value(no)));
    }

    /**
     * The value of {@code e} where the local is 0, when {@code e} is the local, a constant, or a conditional whose
     * test compares the local with a constant ({@code (v > 255) ? 255 : v} is 0); null otherwise.
     */
    private Double atZero(ClangNode e, int depth) {
        ClangNode n = strip(e);
        if (n == null || depth > 16) return null;
        if (local(n)) return 0.0;
        if (!reads(n)) return value(n);
        if (n.kind != CXCursor_ConditionalOperator || n.children.size() != 3) return null;
        ClangNode t = strip(n.children.get(0));
        if (t == null || t.kind != CXCursor_BinaryOperator || t.children.size() != 2) return null;
        ClangNode a = strip(t.children.get(0)), b = strip(t.children.get(1));
        Double k = local(a) ? value(b) : local(b) ? value(a) : null;
        if (k == null) return null;
        double l = local(a) ? 0 : k, r = local(a) ? k : 0;
        Boolean holds =
                switch (t.spelling) {
                    case "<" -> l < r;
                    case "<=" -> l <= r;
                    case ">" -> l > r;
                    case ">=" -> l >= r;
                    case "==" -> l == r;
                    case "!=" -> l != r;
                    default -> null;
                };
        return holds == null ? null : atZero(n.children.get(holds ? 1 : 2), depth + 1);
    }

    /**
     * Whether the local's value set by statement {@code at} of {@code block} is read only by the statement after it:
     * every later statement of the block that names the local first assigns it anew (without reading it), and a local
     * declared outside the block is read nowhere else in {@code fn} (a loop's next iteration assigns it at {@code at}
     * first, when no statement before it names it).
     */
    static boolean onlyStored(ClangNode block, int at, String usr, ClangUnit.Function fn) {
        if (block == null || fn == null) return false;
        boolean declaredHere = false;
        for (int k = 0; k <= at; k++) {
            ClangNode s = block.children.get(k);
            boolean[] decl = new boolean[1];
            s.forEach(x -> decl[0] |= x.kind == CXCursor_VarDecl && usr.equals(x.usr));
            if (decl[0]) declaredHere = true;
            else if (k < at && reads(s, usr) && !declaredHere) return false; // read before it in an iteration
        }
        for (int k = at + 2; k < block.children.size(); k++) {
            ClangNode s = strip(block.children.get(k));
            if (s == null || !reads(s, usr)) continue;
            return freshAssignment(s, usr);
        }
        if (declaredHere) return true;
        // a name before the block counts only inside a loop around the block, whose next iteration may read the value
        // (a = src[0]; offset = ref[0] - a * scale; before the loops that round a: session 77 round E, a JPEG
        // smoother's upsampling)
        java.util.List<ClangNode> loops = new java.util.ArrayList<>();
        for (ClangNode q = block.parent; q != null && q != fn.node(); q = q.parent) if (isLoop(q)) loops.add(q);
        boolean[] outside = new boolean[1];
        fn.node().forEach(x -> {
            if (x.kind != CXCursor_DeclRefExpr || !usr.equals(x.refUsr) || freshTarget(x, usr)) return;
            if (x.offset > block.endOffset) outside[0] = true;
            if (x.offset < block.offset && loops.stream().anyMatch(l -> l.contains(x) && !assignedBefore(x, l, usr)))
                outside[0] = true;
        });
        return !outside[0];
    }

    /** Whether {@code x} is the target of a plain assignment that does not read it ({@code a = mem[i];}). */
    private static boolean freshTarget(ClangNode x, String usr) {
        ClangNode p = outermost(x).parent;
        return p != null && freshAssignment(p, usr);
    }

    /** Whether {@code s} assigns the local whole without reading it ({@code a = mem[i]}). */
    private static boolean freshAssignment(ClangNode s, String usr) {
        return s.kind == CXCursor_BinaryOperator
                && s.spelling.equals("=")
                && s.children.size() == 2
                && local(s.children.get(0), usr)
                && !reads(s.children.get(1), usr);
    }

    /**
     * Whether a statement before {@code x} in a block of {@code loop} that holds it assigns the local afresh: each
     * iteration then reads that value there, not one a previous iteration left.
     */
    private static boolean assignedBefore(ClangNode x, ClangNode loop, String usr) {
        ClangNode c = x;
        for (ClangNode p = x.parent; p != null && p != loop; c = p, p = p.parent) {
            if (p.kind != CXCursor_CompoundStmt) continue;
            for (int k = p.children.indexOf(c) - 1; k >= 0; k--) {
                ClangNode s = strip(p.children.get(k));
                if (s != null && freshAssignment(s, usr)) return true;
            }
        }
        return false;
    }

    private static boolean local(ClangNode n, String usr) {
        ClangNode x = strip(n);
        return x != null && x.kind == CXCursor_DeclRefExpr && usr.equals(x.refUsr);
    }

    static boolean reads(ClangNode e, String usr) {
        boolean[] r = new boolean[1];
        e.forEach(x -> r[0] |= x.kind == CXCursor_DeclRefExpr && usr.equals(x.refUsr));
        return r[0];
    }
}
