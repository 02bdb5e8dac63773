package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.cuda.facts.FunctionFacts;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The error measures of a result check, on Clang's tree (the hand-written front end's {@code ErrorMeasures} answers
 * the same question on its own): a loop that compares a computed array with a reference element by element and sums
 * a non-negative measure of each difference ({@code err += d * d}, {@code err += fabs(x[i] - y[i])}, with
 * {@code d = x[i] - y[i]} of two different arrays at one index), possibly with the companion norm of the reference in
 * the same loop ({@code ref += r * r}, {@code ref += fabs(r)}). Whether the sum only feeds a relative error, a
 * tolerance test or a print is the check's question ({@code SerialAccumulation}).
 */
final class ClangErrorMeasures {
    /** Absolute-value functions of C, CUDA and C++. */
    private static final Set<String> ABS = Set.of("fabs", "fabsf", "fabsl", "abs", "std::abs", "std::fabs");

    private static final int MAX_DEPTH = 8;

    private final ClangUnit unit;
    /** The loop that carries the sum: definitions of the locals a term reads are looked up in it. */
    private final ClangNode loop;

    private ClangErrorMeasures(ClangUnit unit, ClangNode loop) {
        this.unit = unit;
        this.loop = loop;
    }

    /**
     * What the sum {@code update} into {@code target} adds, in the loop {@code loop}: RELATIVE for an error measure or
     * reference norm whose companion is summed in the same loop, ABSOLUTE for an error measure alone, else NONE.
     */
    static FunctionFacts.ResultCheck classify(ClangUnit unit, ClangNode loop, ClangNode update, String target) {
        if (loop == null || !adds(update)) return FunctionFacts.ResultCheck.NONE;
        ClangErrorMeasures m = new ClangErrorMeasures(unit, loop);
        ClangNode addend = m.addend(update, target);
        if (addend == null) return FunctionFacts.ResultCheck.NONE;
        boolean error = m.errorTerm(addend, 0);
        boolean norm = !error && m.normTerm(addend, 0);
        if (!error && !norm) return FunctionFacts.ResultCheck.NONE;
        // the companion: another sum of the same loop, of the other kind
        for (ClangNode other : m.sums()) {
            if (other == update) continue;
            String t = m.squashed(other.children.get(0));
            if (t.equals(target.replaceAll("\\s", ""))) continue;
            ClangNode a = m.addend(other, t);
            if (a == null) continue;
            if (error ? m.normTerm(a, 0) : m.errorTerm(a, 0)) return FunctionFacts.ResultCheck.RELATIVE;
        }
        return error ? FunctionFacts.ResultCheck.ABSOLUTE : FunctionFacts.ResultCheck.NONE;
    }

    /** {@code s += t} or {@code s = s + t} / {@code s = t + s}: an addition, not {@code s -= t}. */
    private static boolean adds(ClangNode c) {
        if (c.children.size() != 2) return false;
        if (c.kind == CXCursor_CompoundAssignOperator) return c.spelling.equals("+=");
        if (c.kind != CXCursor_BinaryOperator || !c.spelling.equals("=")) return false;
        ClangNode r = strip(c.children.get(1));
        return r != null && r.kind == CXCursor_BinaryOperator && r.spelling.equals("+") && r.children.size() == 2;
    }

    /** The term {@code c} adds to {@code target}, or null when it is no sum. */
    private ClangNode addend(ClangNode c, String target) {
        if (!adds(c)) return null;
        if (c.kind == CXCursor_CompoundAssignOperator) return c.children.get(1);
        ClangNode s = strip(c.children.get(1));
        String t = target.replaceAll("\\s", "");
        if (squashed(s.children.get(0)).equals(t)) return s.children.get(1);
        if (squashed(s.children.get(1)).equals(t)) return s.children.get(0);
        return null;
    }

    /** The additions to a plain variable in the loop ({@code s += t}, {@code s = s + t}). */
    private List<ClangNode> sums() {
        List<ClangNode> out = new ArrayList<>();
        loop.forEach(x -> {
            if (!adds(x)) return;
            ClangNode l = strip(x.children.get(0));
            if (l != null && l.kind == CXCursor_DeclRefExpr) out.add(x);
        });
        return out;
    }

    /**
     * A non-negative measure of a difference: {@code d * d}, {@code fabs(d)} (a sum of such terms too), or a local
     * the loop defines so, where {@code d} is a {@linkplain #difference difference} of a computed and a reference
     * element.
     */
    private boolean errorTerm(ClangNode e, int depth) {
        if (depth > MAX_DEPTH) return false;
        e = uncast(e);
        if (binary(e, "*")) {
            return same(e.children.get(0), e.children.get(1)) && difference(e.children.get(0), depth + 1);
        }
        if (binary(e, "+")) return errorTerm(e.children.get(0), depth + 1) && errorTerm(e.children.get(1), depth + 1);
        ClangNode arg = absArgument(e);
        if (arg != null) return difference(arg, depth + 1);
        ClangNode def = definition(e);
        return def != null && errorTerm(def, depth + 1);
    }

    /** A non-negative measure of a reference element: {@code r * r}, {@code fabs(r)} or a local defined so. */
    private boolean normTerm(ClangNode e, int depth) {
        if (depth > MAX_DEPTH) return false;
        e = uncast(e);
        if (binary(e, "*")) {
            Elem x = element(e.children.get(0), depth + 1);
            return same(e.children.get(0), e.children.get(1)) && x != null && !x.arrays.isEmpty();
        }
        ClangNode arg = absArgument(e);
        if (arg != null) {
            Elem x = element(arg, depth + 1);
            return x != null && !x.arrays.isEmpty();
        }
        ClangNode def = definition(e);
        return def != null && normTerm(def, depth + 1);
    }

    /**
     * {@code x[i] - y[i]}: elements of two different arrays at the same index (directly or through locals the loop
     * defines from such elements), or a local defined so.
     */
    private boolean difference(ClangNode e, int depth) {
        if (depth > MAX_DEPTH) return false;
        e = uncast(e);
        if (binary(e, "-")) {
            Elem l = element(e.children.get(0), depth + 1);
            Elem r = element(e.children.get(1), depth + 1);
            if (l == null || r == null || l.arrays.isEmpty() || r.arrays.isEmpty()) return false;
            if (!l.index.equals(r.index)) return false;
            for (String n : l.arrays) if (r.arrays.contains(n)) return false;
            return true;
        }
        ClangNode def = definition(e);
        return def != null && difference(def, depth + 1);
    }

    /** The arrays an element value reads and their common index; no arrays for a constant. */
    private record Elem(Set<String> arrays, String index) {}

    /**
     * An element value: {@code x[i]} (or a field of it), a literal, or a sum, difference or product of element values
     * at one index; a local the loop defines so. Null for anything else.
     */
    private Elem element(ClangNode e, int depth) {
        if (depth > MAX_DEPTH) return null;
        e = uncast(e);
        while (e.kind == CXCursor_MemberRefExpr
                && e.children.size() == 1
                && !unit.text(e).contains("->")) {
            e = uncast(e.children.get(0));
        }
        if (e.kind == CXCursor_ArraySubscriptExpr && e.children.size() == 2) {
            StringBuilder idx = new StringBuilder();
            ClangNode b = e;
            while (b.kind == CXCursor_ArraySubscriptExpr && b.children.size() == 2) {
                idx.insert(0, "[" + squashed(b.children.get(1)) + "]");
                b = uncast(b.children.get(0));
            }
            if (b.kind != CXCursor_DeclRefExpr) return null;
            Set<String> arrays = new HashSet<>();
            arrays.add(b.spelling);
            return new Elem(arrays, idx.toString());
        }
        if (e.kind == CXCursor_IntegerLiteral || e.kind == CXCursor_FloatingLiteral) {
            return new Elem(new HashSet<>(), null);
        }
        if (binary(e, "+") || binary(e, "-") || binary(e, "*") || binary(e, "/")) {
            Elem x = element(e.children.get(0), depth + 1);
            Elem y = element(e.children.get(1), depth + 1);
            if (x == null || y == null) return null;
            if (x.index != null && y.index != null && !x.index.equals(y.index)) return null;
            Set<String> arrays = new HashSet<>(x.arrays);
            arrays.addAll(y.arrays);
            return new Elem(arrays, x.index != null ? x.index : y.index);
        }
        ClangNode def = definition(e);
        return def == null ? null : element(def, depth + 1);
    }

    private static boolean binary(ClangNode e, String op) {
        return e.kind == CXCursor_BinaryOperator && e.spelling.equals(op) && e.children.size() == 2;
    }

    /** The argument of {@code fabs(x)}, {@code fabsf(x)}, {@code std::abs(x)}, or null. */
    private static ClangNode absArgument(ClangNode e) {
        if (e.kind != CXCursor_CallExpr) return null;
        String name = callee(e);
        if (!ABS.contains(name) && !ABS.contains(name.replace("std::", ""))) return null;
        List<ClangNode> args = arguments(e);
        return args.size() == 1 ? args.get(0) : null;
    }

    /**
     * The value the loop gives the local {@code e} names: its only definition in the loop ({@code float d = ...;} or
     * {@code d = ...;}); null for anything else or when the loop defines it more than once or otherwise.
     */
    private ClangNode definition(ClangNode e) {
        ClangNode r = uncast(e);
        if (r.kind != CXCursor_DeclRefExpr || r.refUsr == null) return null;
        String usr = r.refUsr;
        List<ClangNode> defs = new ArrayList<>();
        boolean[] other = {false};
        loop.forEach(x -> {
            if (x.kind == CXCursor_VarDecl && usr.equals(x.usr) && !x.children.isEmpty()) {
                ClangNode init = x.children.get(x.children.size() - 1);
                if (clang_isExpressionKind(init.kind)) defs.add(init);
                else other[0] = true;
            } else if ((x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")
                            || x.kind == CXCursor_CompoundAssignOperator)
                    && x.children.size() == 2) {
                ClangNode l = strip(x.children.get(0));
                if (l != null && l.kind == CXCursor_DeclRefExpr && usr.equals(l.refUsr)) {
                    if (x.kind == CXCursor_BinaryOperator) defs.add(x.children.get(1));
                    else other[0] = true;
                }
            } else if (x.kind == CXCursor_UnaryOperator
                    && (x.spelling.equals("++") || x.spelling.equals("--") || x.spelling.equals("&"))
                    && x.children.size() == 1) {
                ClangNode o = strip(x.children.get(0));
                if (o != null && o.kind == CXCursor_DeclRefExpr && usr.equals(o.refUsr)) other[0] = true;
            }
        });
        return defs.size() == 1 && !other[0] ? defs.get(0) : null;
    }

    private boolean same(ClangNode x, ClangNode y) {
        return squashed(uncast(x)).equals(squashed(uncast(y)));
    }

    private String squashed(ClangNode n) {
        return unit.text(n).replaceAll("\\s", "");
    }

    /** Without parentheses, implicit conversions and floating casts ({@code (double) x}). */
    private static ClangNode uncast(ClangNode e) {
        for (int guard = 0; guard < 16; guard++) {
            ClangNode s = strip(e);
            if (s == null) return e;
            e = s;
            if (isExplicitCast(e) && floating(e.canonKind)) {
                ClangNode op = operandOf(e);
                if (op == null) return e;
                e = op;
            } else {
                return e;
            }
        }
        return e;
    }
}
