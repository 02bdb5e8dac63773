package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Atomic adds of a kernel into an element that no other thread of the launch adds to: the element {@code
 * p[e]} (or {@code p + e}) of a pointer parameter the kernel never writes, at an index {@code e} that is an affine
 * function of the threads' global indices ({@code blockIdx.d * blockDim.d + threadIdx.d}, read directly or through
 * locals defined once) distinct for distinct threads. Row-major indices count when each lower index is bounded by a
 * test the add is reached through: {@code i + j * (nx - 1) + k * (nx - 1) * (ny - 1)} after {@code if (i >= nx - 1
 * || j >= ny - 1) return;} (the stride of the next index is at least the bound of this one). Every dimension whose
 * thread or block index the kernel reads must be in the index (a kernel that reads only x is launched in x: its
 * other extents are 1), the add runs at most once per thread (in no loop), and every atomic of the kernel into the
 * same pointer adds at the same index, or, with one global index of constant stride {@code c}, at constant offsets
 * less than {@code c} apart ({@code idx * 3 + 0}, {@code idx * 3 + 1}, {@code idx * 3 + 2}). Such an element receives the adds of one thread, in that thread's program
 * order, so no order varies from run to run (session 55: two QES-Public kernels' {@code atomicAdd(&d_Pot_u[cell],
 * v)} were reported as run-dependent sums).
 */
final class ClangThreadElements {
    private ClangThreadElements() {}

    private static final Pattern BUILT_IN = Pattern.compile("(threadIdx|blockIdx|blockDim|gridDim)\\.([xyz])");
    private static final String[] DIMS = {"x", "y", "z"};
    private static final int DEPTH = 8;
    /** The depth with digits: an index built from four digits through locals nests deeper (session 80 round G). */
    private static final int DIGITS_DEPTH = 24;

    /** The pointer and the index an atomic adds at, as polynomials. */
    record Target(String base, Poly index, String text) {}

    /** An upper bound {@code x < bound} that holds where the add runs. */
    private record Bound(Poly x, Poly bound) {}

    /**
     * Why the floating atomic add {@code a} (atomicAdd and its variants) adds into an element no other thread of the
     * launch adds to ("the index 'cell' differs from thread to thread"), or null when that is not shown.
     */
    static String distinct(ClangUnit unit, ClangUnit.Atomic a) {
        ClangUnit.Function fn = a.in();
        if (fn == null || !kernel(fn) || a.name().startsWith("atomicCAS") || inLoop(a.node(), fn.node())) return null;
        String affine = affine(unit, fn, a);
        return affine != null ? affine : ClangThreadDigits.distinct(unit, fn, a);
    }

    /** Why {@code a} adds into its own thread's element by an affine index of the global indices, or null. */
    private static String affine(ClangUnit unit, ClangUnit.Function fn, ClangUnit.Atomic a) {
        Target t = target(unit, fn, a.node(), null);
        if (t == null) return null;
        // the other adds into the same pointer: at the same index, or at a constant offset from it (the components
        // of a thread's own vertex, idx * 3 + 0, idx * 3 + 1, idx * 3 + 2: session 66 round A, a cloth solver)
        long lowest = 0;
        long highest = 0;
        for (ClangUnit.Atomic other : unit.atomics()) {
            if (other == a || other.in() == null || other.in().node() != fn.node()) continue;
            Target o = target(unit, fn, other.node(), null);
            if (o == null) return null; // an add the analysis cannot place may be into the same memory
            if (!o.base.equals(t.base) || o.index.terms.equals(t.index.terms)) continue;
            Poly offset = o.index.plus(t.index, -1);
            if (offset.terms.size() != 1 || !offset.terms.containsKey("")) return null;
            lowest = Math.min(lowest, offset.terms.get(""));
            highest = Math.max(highest, offset.terms.get(""));
        }
        List<String> used = new ArrayList<>();
        List<Poly> strides = new ArrayList<>();
        Poly rest = t.index;
        for (String d : DIMS) {
            Poly stride = coefficient(t.index, "T." + d, null);
            Poly block = coefficient(t.index, "B." + d, "D." + d);
            if (stride == null || block == null) return null;
            if (stride.zero() && block.zero()) continue;
            if (stride.zero() || !stride.terms.equals(block.terms)) return null; // not the global index's stride
            used.add(d);
            strides.add(stride);
            rest = rest.plus(global(d).times(stride), -1);
        }
        if (used.isEmpty()) return null;
        if (highest > lowest) {
            // offsets within one stride of a single global index keep every (thread, offset) apart: c * g + k
            Poly c = strides.get(0);
            if (used.size() != 1 || c.terms.size() != 1 || !c.terms.containsKey("")) return null;
            if (highest - lowest >= Math.abs(c.terms.get(""))) return null;
        }
        for (String m : rest.terms.keySet()) {
            for (String s : Poly.symbols(m)) if (s.startsWith("T.") || s.startsWith("B.")) return null;
        }
        for (String d : readDims(unit, fn)) if (!used.contains(d)) return null;
        List<Bound> bounds = bounds(unit, fn, a.node());
        if (!ordered(used, strides, bounds, new ArrayList<>(), new boolean[used.size()])) return null;
        return "the index '" + t.text + "' differs from thread to thread";
    }

    private static boolean kernel(ClangUnit.Function fn) {
        for (ClangNode c : fn.node().children) if (c.kind == CXCursor_CUDAGlobalAttr) return true;
        return false;
    }

    private static boolean inLoop(ClangNode n, ClangNode top) {
        for (ClangNode p = n.parent; p != null && p != top; p = p.parent) {
            if (p.kind == CXCursor_ForStmt
                    || p.kind == CXCursor_WhileStmt
                    || p.kind == CXCursor_DoStmt
                    || p.kind == CXCursor_CXXForRangeStmt
                    || p.kind == CXCursor_GotoStmt) return true;
        }
        // a label a goto can jump back to
        boolean[] label = new boolean[1];
        top.forEach(x -> {
            if (x.kind == CXCursor_LabelStmt || x.kind == CXCursor_GotoStmt) label[0] = true;
        });
        return label[0];
    }

    /**
     * The pointer parameter and index that the atomic call {@code call} adds at, or null; {@code digits}, when not
     * null, reads divisions of the thread's index and locals assigned more than once (see {@link ClangThreadDigits}).
     */
    static Target target(ClangUnit unit, ClangUnit.Function fn, ClangNode call, ClangThreadDigits digits) {
        List<ClangNode> args = arguments(call);
        if (args.isEmpty()) return null;
        ClangNode p = strip(args.get(0));
        ClangNode base;
        ClangNode index;
        if (p != null && p.kind == CXCursor_UnaryOperator && "&".equals(p.spelling) && p.children.size() == 1) {
            ClangNode e = strip(p.children.get(0));
            if (e == null || e.kind != CXCursor_ArraySubscriptExpr || e.children.size() != 2) return null;
            base = strip(e.children.get(0));
            index = e.children.get(1);
        } else if (p != null && p.kind == CXCursor_BinaryOperator && "+".equals(p.spelling) && p.children.size() == 2) {
            base = strip(p.children.get(0));
            index = p.children.get(1);
        } else {
            return null;
        }
        if (base == null || base.kind != CXCursor_DeclRefExpr || base.refUsr == null) return null;
        if (!parameter(fn, base.refUsr) || ClangStepBounds.writes(fn.node(), base.refUsr) != 0) return null;
        Poly e = poly(unit, fn, index, 0, digits);
        return e == null
                ? null
                : new Target(
                        base.refUsr,
                        e,
                        unit.text(strip(index)).replaceAll("\\s+", " ").trim());
    }

    static boolean parameter(ClangUnit.Function fn, String usr) {
        for (ClangNode c : fn.node().children) if (c.kind == CXCursor_ParmDecl && usr.equals(c.usr)) return true;
        return false;
    }

    /**
     * The integer expression {@code e} as a polynomial in the built-in indices ({@code T.x} for threadIdx.x, {@code
     * B.x}, {@code D.x}, {@code G.x}), parameters the kernel never writes and the initializers of locals it never
     * writes after them; null when not such.
     */
    private static Poly poly(ClangUnit unit, ClangUnit.Function fn, ClangNode e, int depth) {
        return poly(unit, fn, e, depth, null);
    }

    /** {@link #poly(ClangUnit, ClangUnit.Function, ClangNode, int)}, with {@code digits}' symbols when not null. */
    static Poly poly(ClangUnit unit, ClangUnit.Function fn, ClangNode e, int depth, ClangThreadDigits digits) {
        ClangNode s = strip(e);
        if (s == null || depth > (digits == null ? DEPTH : DIGITS_DEPTH)) return null;
        if (isExplicitCast(s)) {
            ClangNode op = operandOf(s);
            return op != null && integral(s.canonKind) && strip(op) != null && integral(strip(op).canonKind)
                    ? poly(unit, fn, op, depth + 1, digits)
                    : null;
        }
        // a built-in index: a pseudo-object member to Clang, unsigned int
        Matcher m = BUILT_IN.matcher(squash(unit.text(s)));
        if (m.matches()) {
            String k =
                    switch (m.group(1)) {
                        case "threadIdx" -> "T.";
                        case "blockIdx" -> "B.";
                        case "blockDim" -> "D.";
                        default -> "G.";
                    };
            return Poly.symbol(k + m.group(2));
        }
        if (!integral(s.canonKind)) return null;
        if (s.value != null) {
            double v = s.value;
            return v == Math.rint(v) && Math.abs(v) < 1e15 ? Poly.constant((long) v) : null;
        }
        try {
            switch (s.kind) {
                case CXCursor_BinaryOperator -> {
                    if (s.children.size() != 2) return null;
                    Poly a = poly(unit, fn, s.children.get(0), depth + 1, digits);
                    Poly b = a == null ? null : poly(unit, fn, s.children.get(1), depth + 1, digits);
                    if (b == null) return null;
                    if (digits != null && (s.spelling.equals("/") || s.spelling.equals("%")))
                        return digits.divide(a, b, s.spelling);
                    return Poly.binary(s.spelling, a, b);
                }
                case CXCursor_UnaryOperator -> {
                    if (s.children.size() != 1) return null;
                    Poly a = poly(unit, fn, s.children.get(0), depth + 1, digits);
                    return a == null ? null : Poly.unary(s.spelling, a);
                }
                case CXCursor_DeclRefExpr -> {
                    Poly v = variable(unit, fn, s.refUsr, depth, digits);
                    return v != null || digits == null ? v : digits.bounded(s, depth);
                }
                case CXCursor_CallExpr -> {
                    return inlined(unit, fn, s, depth, digits);
                }
                default -> {
                    return null;
                }
            }
        } catch (ArithmeticException overflow) {
            return null;
        }
    }

    /**
     * A call of a function of the same parse whose body is one {@code return e;} of its parameters, none written
     * ({@code IX(i, j, N)} returning {@code i + (N + 2) * j}: session 70 round A, a fluid solver's splat kernel):
     * {@code e} with each parameter replaced by its argument's polynomial; else null.
     */
    private static Poly inlined(
            ClangUnit unit, ClangUnit.Function fn, ClangNode call, int depth, ClangThreadDigits digits) {
        List<ClangNode> args = arguments(call);
        ClangUnit.Function f = ClangReferenceClamps.definition(unit, callee(call), args.size());
        if (f == null || f.node() == fn.node()) return null;
        ClangNode body = null;
        for (ClangNode c : f.node().children) if (c.kind == CXCursor_CompoundStmt) body = c;
        if (body == null || body.children.size() != 1) return null;
        ClangNode ret = body.children.get(0);
        if (ret.kind != CXCursor_ReturnStmt || ret.children.size() != 1) return null;
        Poly e = poly(unit, f, ret.children.get(0), depth + 1);
        if (e == null) return null;
        List<ClangNode> params = ClangCallSites.parameters(f.node());
        Map<String, Poly> bind = new java.util.HashMap<>();
        for (int k = 0; k < params.size(); k++) {
            Poly a = poly(unit, fn, args.get(k), depth + 1, digits);
            if (a == null || params.get(k).usr == null) return null;
            bind.put(params.get(k).usr, a);
        }
        for (String m : e.terms.keySet())
            for (String sym : Poly.symbols(m))
                if (!bind.containsKey(sym) && !sym.matches("[TBDG]\\.[xyz]")) return null; // a global, a member
        return e.substitute(bind);
    }

    private static Poly variable(
            ClangUnit unit, ClangUnit.Function fn, String usr, int depth, ClangThreadDigits digits) {
        if (usr == null) return null;
        if (ClangStepBounds.writes(fn.node(), usr) != 0) return digits == null ? null : digits.assigned(usr, depth);
        if (parameter(fn, usr)) return Poly.symbol(usr);
        ClangNode[] decl = new ClangNode[1];
        int[] count = new int[1];
        fn.node().forEach(x -> {
            if (x.kind == CXCursor_VarDecl && usr.equals(x.usr)) {
                decl[0] = x;
                count[0]++;
            }
        });
        ClangNode d = decl[0];
        if (count[0] != 1 || d.children.isEmpty() || d.type.contains("&") || d.type.contains("static")) return null;
        ClangNode init = d.children.get(d.children.size() - 1);
        if (!clang_isExpressionKind(init.kind)) return null;
        if (digits == null) return poly(unit, fn, init, depth + 1, null);
        Poly known = digits.local(usr);
        if (known != null) return known;
        Poly p = poly(unit, fn, init, depth + 1, digits);
        digits.local(usr, p);
        return p;
    }

    /**
     * The sum of the coefficients of the monomials of {@code p} that hold the symbol {@code s} once (and {@code with}
     * once, when not null), with those symbols taken out; null when one holds it twice.
     */
    private static Poly coefficient(Poly p, String s, String with) {
        Poly out = Poly.constant(0);
        for (Map.Entry<String, Long> e : p.terms.entrySet()) {
            List<String> syms = new ArrayList<>(Poly.symbols(e.getKey()));
            int k = syms.indexOf(s);
            if (k < 0) continue;
            syms.remove(k);
            if (syms.contains(s)) return null;
            if (with != null) {
                int w = syms.indexOf(with);
                if (w < 0) return null; // blockIdx without its blockDim: no global index
                syms.remove(w);
            }
            Poly m = Poly.constant(e.getValue());
            for (String r : syms) m = m.times(Poly.symbol(r));
            out = out.plus(m, 1);
        }
        return out;
    }

    static Poly global(String d) {
        return Poly.symbol("B." + d).times(Poly.symbol("D." + d)).plus(Poly.symbol("T." + d), 1);
    }

    /** The dimensions whose thread or block index the kernel reads anywhere. */
    static List<String> readDims(ClangUnit unit, ClangUnit.Function fn) {
        List<String> out = new ArrayList<>();
        Matcher m =
                Pattern.compile("\\b(threadIdx|blockIdx)\\s*\\.\\s*([xyz])\\b").matcher(unit.text(fn.node()));
        while (m.find()) if (!out.contains(m.group(2))) out.add(m.group(2));
        return out;
    }

    /**
     * Whether the dimensions, in some order, nest as a row-major index: the first's stride a positive constant, each
     * next stride at least the one before times the bound of the index before ({@code (nx - 1)} after {@code i < nx
     * - 1}, or {@code nx}).
     */
    private static boolean ordered(
            List<String> dims, List<Poly> strides, List<Bound> bounds, List<Integer> order, boolean[] taken) {
        if (order.size() == dims.size()) {
            Poly first = strides.get(order.get(0));
            if (!first.terms.keySet().equals(java.util.Set.of("")) || first.terms.get("") <= 0) return false;
            for (int k = 1; k < order.size(); k++) {
                Poly prev = strides.get(order.get(k - 1));
                Poly bound = boundOf(global(dims.get(order.get(k - 1))), bounds);
                if (bound == null || !atLeast(strides.get(order.get(k)), prev, bound)) return false;
            }
            return true;
        }
        for (int i = 0; i < dims.size(); i++) {
            if (taken[i]) continue;
            taken[i] = true;
            order.add(i);
            boolean ok = ordered(dims, strides, bounds, order, taken);
            order.remove(order.size() - 1);
            taken[i] = false;
            if (ok) return true;
        }
        return false;
    }

    /** Whether {@code next - prev * bound} is {@code prev} times a constant >= 0. */
    private static boolean atLeast(Poly next, Poly prev, Poly bound) {
        Poly d;
        try {
            d = next.plus(prev.times(bound), -1);
        } catch (ArithmeticException overflow) {
            return false;
        }
        if (d.zero()) return true;
        String key = prev.terms.firstKey();
        Long num = d.terms.get(key);
        long den = prev.terms.get(key);
        if (num == null || num % den != 0 || num / den < 0) return false;
        try {
            return prev.times(Poly.constant(num / den)).terms.equals(d.terms);
        } catch (ArithmeticException overflow) {
            return false;
        }
    }

    /**
     * The bound of the global index {@code g}: of {@code g} itself (which is not negative), or of an index offset from
     * it by what no thread changes ({@code i = g + cx - r}), bounded on both sides, {@code L <= i < U}: then {@code i
     * - L} lies in {@code [0, U - L)}, and U - L is the width a row's stride must reach (session 70 round A: a fluid
     * solver's splat, {@code if (i >= 1 && i <= N && ...)} before {@code atomicAdd(&u0[i + (N + 2) * j], ...)}).
     */
    private static Poly boundOf(Poly g, List<Bound> bounds) {
        for (Bound b : bounds) if (b.x.terms.equals(g.terms)) return b.bound;
        for (Bound upper : bounds) {
            Poly offset = upper.x.plus(g, -1);
            boolean fixed = true;
            for (String m : offset.terms.keySet())
                for (String sym : Poly.symbols(m)) fixed &= !sym.startsWith("T.") && !sym.startsWith("B.");
            if (!fixed || offset.zero()) continue;
            for (Bound lower : bounds) {
                // a lower bound L <= i is recorded as L < i + 1
                if (!lower.bound.terms.equals(upper.x.plus(Poly.constant(1), 1).terms)) continue;
                try {
                    return upper.bound.plus(lower.x, -1);
                } catch (ArithmeticException overflow) {
                    return null;
                }
            }
        }
        return null;
    }

    /**
     * The upper bounds that hold where {@code at} runs: the conditions of the ifs around it ({@code if (i < n &&
     * ...)}), and the early exits before it in the blocks around it ({@code if (i >= n || ...) return;}).
     */
    private static List<Bound> bounds(ClangUnit unit, ClangUnit.Function fn, ClangNode at) {
        List<Bound> out = new ArrayList<>();
        for (ClangNode c = at, p = at.parent; p != null && c != fn.node(); c = p, p = p.parent) {
            if (p.kind == CXCursor_IfStmt && p.children.size() >= 2 && p.children.get(1) == c) {
                List<ClangNode> terms = new ArrayList<>();
                operands(p.children.get(0), "&&", terms, 0);
                for (ClangNode t : terms) bound(unit, fn, t, false, out);
            } else if (p.kind == CXCursor_CompoundStmt) {
                for (ClangNode s : p.children) {
                    if (s == c) break;
                    if (s.kind != CXCursor_IfStmt || s.children.size() != 2 || !exits(s.children.get(1))) continue;
                    List<ClangNode> terms = new ArrayList<>();
                    operands(s.children.get(0), "||", terms, 0);
                    for (ClangNode t : terms) bound(unit, fn, t, true, out);
                }
            }
        }
        return out;
    }

    /** Whether {@code s} is {@code return;} or a block of it alone. */
    private static boolean exits(ClangNode s) {
        if (s.kind == CXCursor_ReturnStmt) return true;
        return s.kind == CXCursor_CompoundStmt
                && s.children.size() == 1
                && s.children.get(0).kind == CXCursor_ReturnStmt;
    }

    /** The bound the comparison {@code t} gives where it holds ({@code negated}: where it does not). */
    private static void bound(ClangUnit unit, ClangUnit.Function fn, ClangNode t, boolean negated, List<Bound> out) {
        ClangNode c = strip(t);
        if (c == null || c.kind != CXCursor_BinaryOperator || c.children.size() != 2) return;
        String op = c.spelling;
        if (negated) op = negatedComparison(op);
        if (op == null || !List.of("<", "<=", ">", ">=").contains(op)) return;
        Poly a = poly(unit, fn, c.children.get(0), 0);
        Poly b = a == null ? null : poly(unit, fn, c.children.get(1), 0);
        if (b == null) return;
        try {
            switch (op) {
                case "<" -> out.add(new Bound(a, b));
                case "<=" -> out.add(new Bound(a, b.plus(Poly.constant(1), 1)));
                case ">" -> out.add(new Bound(b, a));
                default -> out.add(new Bound(b, a.plus(Poly.constant(1), 1)));
            }
        } catch (ArithmeticException overflow) {
            // no bound
        }
    }
}
