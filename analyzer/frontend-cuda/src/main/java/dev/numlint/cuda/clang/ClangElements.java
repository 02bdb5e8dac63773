package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which loops around an update of an element ({@code A[e] += t}) move it to another element in every iteration: the
 * loops that cannot carry a sum into it. A loop L moves the element when two different iterations of L (in one
 * iteration of the loops around L, with any iterations of the loops inside it) cannot address the same element: a
 * subscript {@code e} is an affine function of the loops' counters, directly or through the one definition of a
 * local reaching the update from inside the loops ({@code index = (dimX*dimY)*k + j*dimX + i} in the i loop's body),
 * with coefficients and bounds that the loops do not change, and the coefficient c of L's counter exceeds in
 * magnitude everything the counters of the loops inside L can add: |c| > sum |c_w| * (hi_w - lo_w), each inner
 * counter w running over [lo_w, hi_w] by its loop's header (the row-major {@code k*X*Y + j*X + i} with i in [0, X)
 * and j in [0, Y)). The bounds of the loops around the update give their symbols lower bounds (the update runs only
 * when every loop around it does: {@code i < dimX} from 0 makes dimX at least 1), with which a polynomial in those
 * symbols is shown non-negative. Anything else moves nothing (conservative): a subscript through a division, a
 * modulo, another array ({@code h[bin[i]]}), a call, a counter written in the body, a local assigned twice in the
 * loops, a base pointer the loops change. With several subscripts ({@code m[i][j]}) the element moves when one of
 * them does (distinct rows, also of a pointer array, are taken as distinct memory).
 */
final class ClangElements {
    private ClangElements() {}

    /** How many definitions of locals a subscript is followed through. */
    private static final int DEPTH = 8;

    /**
     * The loops of {@code chain} (those around {@code update}, outermost first) that move the element {@code lhs}
     * that it updates; empty when {@code lhs} is no element or nothing is proven.
     */
    static Set<ClangNode> moving(ClangNode lhs, ClangNode update, List<ClangNode> chain) {
        Set<ClangNode> out = moves(lhs, update, chain, null);
        out.addAll(ClangElementIncrements.moving(lhs, chain));
        return out;
    }

    /**
     * The loops of {@code chain} that {@link #moving} does not prove to move the element {@code lhs}, but whose
     * counter moves it by a loop-invariant stride that is no constant ({@code y[j*C]} in the j loop, {@code y[iy]}
     * with {@code iy += incy} in the body, {@code a[i + c*m->n]} in the c loop): one term per element unless the
     * stride is 0 (or, with the counters of loops inside it in the subscript, small enough for two rows to overlap).
     * Each such loop maps to the condition of a sum over it ({@code "C is 0"}, {@code "n is 0 or its rows overlap"}).
     * The subscript is affine in the counters, each counter's coefficient one product of a constant and symbols the
     * loops do not change, at least one of them no constant.
     */
    static Map<ClangNode, String> strided(ClangNode lhs, ClangNode update, List<ClangNode> chain) {
        Map<ClangNode, String> strided = new java.util.LinkedHashMap<>();
        Set<ClangNode> moving = moves(lhs, update, chain, strided);
        strided.keySet().removeAll(moving);
        strided.keySet().removeAll(ClangElementIncrements.moving(lhs, chain));
        return strided;
    }

    private static Set<ClangNode> moves(
            ClangNode lhs, ClangNode update, List<ClangNode> chain, Map<ClangNode, String> strided) {
        Set<ClangNode> out = new HashSet<>();
        if (chain.isEmpty()) return out;
        List<ClangNode> subscripts = new ArrayList<>();
        ClangNode x = ClangElementBases.element(lhs, subscripts);
        // *p += t; p++;: the element p[0] of a pointer the body steps (session 56, an AMBE synthesizer's *Ss += ...)
        ClangNode deref = subscripts.isEmpty() ? ClangElementBases.dereferenced(lhs) : null;
        if (deref != null) x = deref;
        if (subscripts.isEmpty() && deref == null || x == null) return out;
        int d = ClangElementBases.freshIn(x, chain); // a buffer allocated in a loop's body
        if (d >= 0) {
            out.addAll(chain.subList(0, d + 1));
            out.addAll(moves(lhs, update, chain.subList(d + 1, chain.size()), strided));
            return out;
        }
        Context cx = new Context(chain, update);
        String stepped = ClangElementBases.steppedBase(x, cx);
        Poly row = stepped == null && !fixedBase(x, cx) ? ClangElementBases.rowStart(x, cx) : null;
        if (stepped == null && row == null && !fixedBase(x, cx)) {
            // *outptr += x with outptr++ in the header and a wrap to the ring's start: a sum only past its end
            if (deref != null && strided != null) ClangElementRings.ring(x, chain, strided);
            // a pointer declared in a loop's body, of no address proven apart: one address for the loops inside it
            int k = ClangElementBases.declaredIn(x, chain);
            if (k >= 0) out.addAll(moves(lhs, update, chain.subList(k + 1, chain.size()), strided));
            return out;
        }
        if (deref != null) {
            // the pointer itself must be stepped: p[0] of a fixed pointer is one element
            if (stepped == null) return out;
            Poly p = Poly.symbol(stepped);
            for (int q = 0; q < chain.size(); q++) {
                if (cx.injective(p, q)) out.add(chain.get(q));
            }
            return out;
        }
        for (int k = 0; k < subscripts.size(); k++) {
            ClangNode s = subscripts.get(k);
            Poly p = cx.poly(s, update, chain.size() - 1, 0);
            // w[loc[i]]: a scatter through a table (ClangElementScatters)
            if (p == null && strided != null && k == subscripts.size() - 1)
                ClangElementScatters.scatter(s, cx, out, strided);
            if (p == null && strided != null) ClangElementScatters.displaced(s, cx, out, strided); // grid(i0, j0)
            if (p == null) continue;
            // the subscript applied to a stepped pointer addresses the element pointer + subscript
            if (stepped != null && k == subscripts.size() - 1) p = p.plus(Poly.symbol(stepped), 1);
            // applied to a row pointer (r = &B[e] in a loop's body), the element B[e + subscript]
            if (row != null && k == subscripts.size() - 1) p = p.plus(row, 1);
            for (int q = 0; q < chain.size(); q++) {
                if (!out.contains(chain.get(q)) && cx.injective(p, q)) out.add(chain.get(q));
            }
            if (strided == null) continue;
            for (int q = 0; q < chain.size(); q++) {
                if (out.contains(chain.get(q)) || strided.containsKey(chain.get(q))) continue;
                String c = ClangElementStrides.strided(cx, p, q);
                if (c != null) strided.put(chain.get(q), c);
            }
        }
        return out;
    }

    /**
     * Whether the array or pointer {@code b} that is subscripted has one address through the loops: an array variable
     * or an array member of a struct variable (whatever is stored into them), or a pointer the loops do not write.
     */
    static boolean fixedBase(ClangNode b, Context cx) {
        ClangNode x = strip(b);
        if (x == null) return false;
        if (x.kind == CXCursor_DeclRefExpr) {
            return array(x.canonKind) || x.canonKind == CXType_Record || x.refUsr != null && cx.invariant(x.refUsr);
        }
        if (ClangElementBases.thisMember(x, cx)) return true;
        // (*tab)[i] of a pointer to an array the loops neither move nor repoint (session 63 round I, a Monte Carlo
        // code's table rescaled in place)
        if (x.kind == CXCursor_UnaryOperator && x.spelling.equals("*") && x.children.size() == 1)
            return ClangElementBases.pointedOnce(strip(x.children.get(0)), cx);
        if (x.kind == CXCursor_MemberRefExpr && x.children.size() == 1) {
            ClangNode owner = strip(x.children.get(0));
            // r.m of a struct r: inside r; a pointer member (s.p, q->p) is a value the loops must not write
            if (owner != null && array(x.canonKind) && owner.canonKind == CXType_Record) return fixedBase(owner, cx);
            String root = rootUsr(x);
            return root != null && cx.invariant(root);
        }
        return false;
    }

    static boolean array(int kind) {
        return kind == CXType_ConstantArray
                || kind == CXType_IncompleteArray
                || kind == CXType_VariableArray
                || kind == CXType_DependentSizedArray;
    }

    /** The loops around one update and what their headers say. */
    static final class Context {
        final List<ClangNode> chain;
        final ClangNode update;
        /** The counters of the loops (their USRs) that step monotonically, to the loop's place in the chain. */
        final Map<String, Integer> counters = new HashMap<>();
        /** For the counters of loops with a header ({@link ClangLoops#header}): the values' span, hi - lo. */
        final Map<String, Poly> spans = new HashMap<>();
        /** Lower bounds of the symbols the loops' bounds name. */
        final Map<String, Long> lower = new HashMap<>();

        /**
         * Counters of a loop w that keep stepping one way through the iterations of a loop q around w ({@link
         * #runsAcross}): the counter to the outermost such q.
         */
        final Map<String, Integer> running = new HashMap<>();

        private final Map<String, Boolean> invariant = new HashMap<>();

        /** The source names of the symbols the polynomials hold (variables by USR, member reads), for messages. */
        final Map<String, String> names = new HashMap<>();

        /**
         * The counters that a statement of their loop's body steps by an amount the loops do not change
         * ({@link ClangElementStrides#bodyCounters}): the counter to its step (a constant, or a stride that may be
         * 0).
         */
        final Map<String, Poly> steps = new HashMap<>();

        Context(List<ClangNode> chain, ClangNode update) {
            this.chain = chain;
            this.update = update;
            for (int q = 0; q < chain.size(); q++) {
                for (String c : strictCounters(chain.get(q))) {
                    if (counters.putIfAbsent(c, q) == null) ClangElementStrides.headerStep(this, chain.get(q), c);
                }
            }
            for (int q = 0; q < chain.size(); q++) ClangElementStrides.bodyCounters(this, chain.get(q), q);
            for (var e : counters.entrySet()) {
                int from = e.getValue();
                while (from > 0 && runsAcross(e.getKey(), from - 1, e.getValue())) from--;
                if (from < e.getValue()) running.put(e.getKey(), from);
            }
            for (int q = 0; q < chain.size(); q++) {
                ClangLoops.Header h = ClangLoops.header(chain.get(q));
                if (h == null || h.start() == null || !Integer.valueOf(q).equals(counters.get(h.var()))) continue;
                double st = h.start();
                if (st != Math.rint(st) || Math.abs(st) > 1e12) continue;
                String op = h.op();
                if (!op.equals("<") && !op.equals("<=")) continue;
                Poly bound = poly(h.bound(), null, -1, DEPTH);
                if (bound == null) continue;
                // values lo..hi with lo = start, hi = bound - 1 (<) or bound (<=); the update runs only when hi >= lo
                Poly span = bound.plus(Poly.constant((long) st + (op.equals("<") ? 1 : 0)), -1);
                spans.put(h.var(), span);
                // a bound s + c: s >= lo - c (+ 1 for <), when that is the bound's one symbol
                if (bound.terms.size() <= 2) {
                    String sym = null;
                    long c = bound.terms.getOrDefault("", 0L);
                    for (var e : bound.terms.entrySet()) {
                        if (!e.getKey().isEmpty()
                                && e.getValue() == 1
                                && !e.getKey().contains(Poly.SEP)) sym = e.getKey();
                    }
                    if (sym != null && bound.terms.size() == (c == 0 ? 1 : 2)) {
                        long lo = (long) st - c + (op.equals("<") ? 1 : 0);
                        lower.merge(sym, lo, Math::max);
                    }
                }
            }
        }

        /**
         * The polynomial of the integer expression {@code e} read at {@code at}, in the counters of the loops up to
         * {@code deepest} of the chain, symbols the loops do not write, and definitions of locals followed; null when
         * not such. {@code deepest} -1: symbols only (a loop bound).
         */
        Poly poly(ClangNode e, ClangNode at, int deepest, int depth) {
            ClangNode s = strip(e);
            if (s == null || depth > DEPTH) return null;
            if (isExplicitCast(s)) {
                ClangNode op = operandOf(s);
                return op != null && integral(s.canonKind) && integral(strip(op).canonKind)
                        ? poly(op, at, deepest, depth)
                        : null;
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
                        Poly a = poly(s.children.get(0), at, deepest, depth);
                        Poly b = a == null ? null : poly(s.children.get(1), at, deepest, depth);
                        return b == null ? null : Poly.binary(s.spelling, a, b);
                    }
                    case CXCursor_UnaryOperator -> {
                        if (s.children.size() != 1) return null;
                        Poly a = poly(s.children.get(0), at, deepest, depth);
                        return a == null ? null : Poly.unary(s.spelling, a);
                    }
                    case CXCursor_DeclRefExpr -> {
                        if (s.refUsr != null) names.putIfAbsent(s.refUsr, s.spelling);
                        return variable(s.refUsr, at, deepest, depth);
                    }
                    case CXCursor_MemberRefExpr -> {
                        return member(s);
                    }
                    case CXCursor_ArraySubscriptExpr -> {
                        return ClangElementBases.element(this, s, depth);
                    }
                    default -> {
                        return null;
                    }
                }
            } catch (ArithmeticException overflow) {
                return null;
            }
        }

        private Poly variable(String usr, ClangNode at, int deepest, int depth) {
            if (usr == null) return null;
            Integer q = counters.get(usr);
            if (q != null) {
                // a counter of a loop inside the point it is read at has no value there that the update sees
                return q <= deepest ? Poly.symbol(usr) : null;
            }
            if (invariant(usr)) {
                Poly sized = sizedBefore(usr, depth);
                return sized != null ? sized : Poly.symbol(usr);
            }
            if (at == null) return null;
            // a local assigned once inside the loops: its definition, read where the definition runs
            ClangNode def = onlyWrite(usr, false);
            if (def == null || def.offset < 0 || def.offset >= at.offset) return null;
            ClangNode value = def.kind == CXCursor_VarDecl
                    ? (def.children.isEmpty() ? null : def.children.get(def.children.size() - 1))
                    : def.kind == CXCursor_BinaryOperator && def.spelling.equals("=") && def.children.size() == 2
                            ? def.children.get(1)
                            : null;
            if (value == null) return null;
            ClangNode loop = innermostLoop(def);
            int p = chain.indexOf(loop);
            if (p < 0 || p > deepest) return null;
            ClangNode body = loop.children.get(loop.children.size() - 1);
            if (!body.contains(def) || !body.contains(at) && at != body) return null;
            if (!dominates(ClangOutParams.anchor(def), at, loop)) return null;
            return poly(value, def, p, depth + 1);
        }

        /**
         * A member read {@code m->n} or {@code s.n} of a variable the loops do not change ({@link #invariant}), pass
         * to no call, and whose member of that name they never assign: a symbol (its key holds no USR separator).
         */
        Poly member(ClangNode s) {
            if (ClangElementBases.thisMember(s, this)) return Poly.symbol("\u0002this\u0002" + s.spelling);
            if (s.children.size() != 1) return null;
            ClangNode owner = strip(s.children.get(0));
            if (owner == null || owner.kind != CXCursor_DeclRefExpr || owner.refUsr == null) return null;
            String usr = owner.refUsr;
            if (!invariant(usr)) return null;
            boolean[] bad = new boolean[1];
            chain.get(0).forEach(n -> {
                if (bad[0]) return;
                boolean assign = assignment(n);
                if (assign && !n.children.isEmpty()) {
                    ClangNode t = strip(n.children.get(0));
                    if (t != null && t.kind == CXCursor_MemberRefExpr && s.spelling.equals(t.spelling)) bad[0] = true;
                }
                if (n.kind == CXCursor_CallExpr) {
                    for (int k = 1; k < n.children.size(); k++) {
                        n.children.get(k).forEach(a -> {
                            if (a.kind == CXCursor_DeclRefExpr && usr.equals(a.refUsr) && !ClangElementBases.read(a))
                                bad[0] = true;
                        });
                    }
                }
            });
            if (bad[0]) return null;
            String key = "\u0002" + usr + "\u0002" + s.spelling;
            names.putIfAbsent(key, owner.spelling + (owner.canonKind == CXType_Pointer ? "->" : ".") + s.spelling);
            return Poly.symbol(key);
        }

        /**
         * The value of the local {@code usr} declared before the loops with an initializer and never written after it
         * ({@code const int pitch = nx + 4;}), as a polynomial in parameters and locals that the function never writes
         * at all (so that they hold the same values in the loops as at the declaration); null when not such. The
         * declaration's scope holds every use, so it runs before them.
         */
        private Poly sizedBefore(String usr, int depth) {
            if (sized.containsKey(usr)) return sized.get(usr);
            Poly p = sizedFrom(usr, depth);
            if (depth == 0 || p != null) sized.put(usr, p);
            return p;
        }

        private final Map<String, Poly> sized = new HashMap<>();

        private Poly sizedFrom(String usr, int depth) {
            ClangNode fn = function();
            if (fn == null || depth >= DEPTH) return null;
            ClangNode[] decl = new ClangNode[1];
            int[] writes = new int[1];
            fn.forEach(n -> {
                if (n.kind == CXCursor_VarDecl && usr.equals(n.usr)) {
                    decl[0] = n;
                    writes[0]++;
                } else if (ClangLoops.writes(n, usr)
                        || n.kind == CXCursor_DeclRefExpr && usr.equals(n.refUsr) && aliases(n)) writes[0] += 2;
            });
            ClangNode d = decl[0];
            if (writes[0] != 1 || d == null || d.children.isEmpty() || d.offset < 0 || d.offset >= chain.get(0).offset)
                return null;
            Poly value = poly(d.children.get(d.children.size() - 1), null, -1, depth + 1);
            if (value == null) return null;
            for (String m : value.terms.keySet()) {
                for (String sym : Poly.symbols(m)) {
                    if (!unwritten(fn, sym)) return null;
                }
            }
            return value;
        }

        /** Whether {@code usr} is a parameter or local of {@code fn} that nothing in it writes or takes the address of. */
        private static boolean unwritten(ClangNode fn, String usr) {
            if (ClangElementBases.templateConstant(fn, usr)) return true;
            boolean[] declared = new boolean[1];
            boolean[] written = new boolean[1];
            fn.forEach(n -> {
                if (n.kind == CXCursor_ParmDecl && usr.equals(n.usr)) declared[0] = true;
                else if (n.kind == CXCursor_VarDecl && usr.equals(n.usr)) {
                    if (declared[0]) written[0] = true; // declared twice: not one value
                    declared[0] = true;
                } else if (ClangLoops.writes(n, usr)
                        || n.kind == CXCursor_DeclRefExpr && usr.equals(n.refUsr) && aliases(n)) written[0] = true;
            });
            return declared[0] && !written[0];
        }

        /** The function around the loops, or null. */
        private ClangNode function() {
            ClangNode fn = chain.get(0);
            while (fn != null && !ClangUnit.FUNCTION_KINDS.contains(fn.kind)) fn = fn.parent;
            return fn;
        }

        /**
         * The one write of the local {@code usr} inside the outermost loop (an assignment or its declaration), else
         * null. {@code bareDeclarations}: whether a declaration without an initializer counts as a write; it does
         * not where the use must be dominated by the assignment ({@code int i; ... i = ix * n1 + iz;}, as
         * {@link #variable} requires).
         */
        ClangNode onlyWrite(String usr, boolean bareDeclarations) {
            ClangNode outer = chain.get(0);
            ClangNode[] found = new ClangNode[1];
            int[] count = new int[1];
            outer.forEach(n -> {
                boolean decl = n.kind == CXCursor_VarDecl && usr.equals(n.usr) && (bareDeclarations || initialized(n));
                if (decl || ClangLoops.writes(n, usr)) {
                    count[0]++;
                    found[0] = n;
                }
                if (n.kind == CXCursor_DeclRefExpr && usr.equals(n.refUsr) && aliases(n)) count[0] += 2;
            });
            return count[0] == 1 ? found[0] : null;
        }

        /** Whether a variable's declaration has an initializer (an expression after its type's references). */
        private static boolean initialized(ClangNode decl) {
            if (decl.children.isEmpty()) return false;
            int k = decl.children.get(decl.children.size() - 1).kind;
            return k >= CXCursor_FirstExpr && k <= CXCursor_LastExpr;
        }

        /**
         * Whether the variable {@code usr} keeps its value through the loops: nothing in them writes it or takes its
         * address, and when a call in them could write it (a global, or a local whose address is taken anywhere in the
         * function) there is no call in them.
         */
        boolean invariant(String usr) {
            return invariant.computeIfAbsent(usr, u -> {
                boolean[] written = new boolean[1];
                boolean[] call = new boolean[1];
                chain.get(0).forEach(n -> {
                    if (n.kind == CXCursor_CallExpr) call[0] = true;
                    if (written[0]) return;
                    if (n.kind == CXCursor_VarDecl && u.equals(n.usr)
                            || ClangLoops.writes(n, u)
                            || n.kind == CXCursor_DeclRefExpr && u.equals(n.refUsr) && aliases(n)) written[0] = true;
                });
                if (written[0]) return false;
                if (!call[0]) return true;
                ClangNode fn = chain.get(0);
                while (fn != null && !ClangUnit.FUNCTION_KINDS.contains(fn.kind)) fn = fn.parent;
                if (fn == null) return false;
                // a non-type template parameter (T of template<int T>) is a constant: no call can write it
                if (ClangElementBases.templateConstant(fn, u)) return true;
                boolean[] local = new boolean[1];
                boolean[] escapes = new boolean[1];
                fn.forEach(n -> {
                    if ((n.kind == CXCursor_VarDecl || n.kind == CXCursor_ParmDecl) && u.equals(n.usr)) local[0] = true;
                    if (n.kind == CXCursor_DeclRefExpr && u.equals(n.refUsr) && aliases(n)) escapes[0] = true;
                });
                return local[0] && !escapes[0];
            });
        }

        /**
         * The variables a for loop steps monotonically ({@code ++}, {@code --}, {@code += c}, {@code -= c} by a
         * non-zero constant, once in its header after the initialization, written nowhere else in the loop), so that
         * its iterations see different values of each: {@code i} and {@code j} of {@code for (i = 1, j = 1; i < n;
         * i += 2, j++)}, {@code i} of {@code for (i = m; i-- > 0;)}.
         */
        private List<String> strictCounters(ClangNode loop) {
            List<String> out = new ArrayList<>();
            if (loop.kind == CXCursor_DoStmt && loop.children.size() == 2) return ClangCounterSteps.doCounters(loop);
            if (loop.kind != CXCursor_ForStmt || loop.children.size() < 3) return out;
            java.util.Set<String> vars = new java.util.LinkedHashSet<>(loopVariables(loop));
            // for (; i < n; i++), the remainder after an unrolled loop: no initialization, the increment steps i
            ClangNode h0 = loop.children.get(0);
            if (loop.children.size() == 3
                    && h0.kind != CXCursor_DeclStmt
                    && !(h0.kind == CXCursor_BinaryOperator && (h0.spelling.equals("=") || h0.spelling.equals(",")))) {
                for (ClangNode part : loop.children.subList(0, 2)) {
                    part.forEach(x -> {
                        if (x.children.isEmpty()) return;
                        ClangNode t = strip(x.children.get(0));
                        if (t != null
                                && t.kind == CXCursor_DeclRefExpr
                                && t.refUsr != null
                                && ClangCounterSteps.stepSign(x, t.refUsr) != 0) vars.add(t.refUsr);
                    });
                }
            }
            for (String var : vars) {
                int[] steps = new int[1];
                boolean[] bad = new boolean[1];
                // the header after its initialization: the increment, or the condition of for (i = m; i-- > 0;)
                int first = ClangLoops.initialization(loop) != null ? 1 : 0;
                int last = loop.children.size() - 1;
                for (ClangNode part : loop.children.subList(first, last))
                    part.forEach(x -> {
                        if (!ClangLoops.writes(x, var)) return;
                        if (ClangCounterSteps.stepSign(x, var) != 0 || strideOfTest(x, var, loop)) steps[0]++;
                        else bad[0] = true;
                    });
                loop.children.get(last).forEach(x -> {
                    if (ClangLoops.writes(x, var)) bad[0] = true;
                });
                if (!bad[0] && steps[0] == 1) out.add(var);
            }
            return out;
        }

        /**
         * Whether {@code x} steps the counter {@code var} of the for loop {@code loop} by a stride the loops do not
         * change ({@code i = i + inc}, {@code i += inc}) while the loop's test compares {@code var} with values the
         * loops do not change either, and its body has no break or goto: a zero stride would repeat the test's
         * outcome forever, so in a loop that runs twice the stride is not 0 and the iterations see distinct values.
         */
        private boolean strideOfTest(ClangNode x, String var, ClangNode loop) {
            ClangCounterSteps.Step st = loop.children.size() == 4 ? ClangCounterSteps.step(x, var) : null;
            ClangNode stride = st == null ? null : st.amount();
            if (stride == null || !integral(strip(stride) == null ? -1 : strip(stride).canonKind)) return false;
            if (!invariantExpression(stride, null)) return false;
            ClangNode test = strip(loop.children.get(1));
            if (test == null
                    || test.kind != CXCursor_BinaryOperator
                    || !List.of("<", "<=", ">", ">=", "!=").contains(test.spelling)
                    || !invariantExpression(test, var)) return false;
            boolean[] reads = new boolean[1];
            test.forEach(n -> {
                if (n.kind == CXCursor_DeclRefExpr && var.equals(n.refUsr)) reads[0] = true;
            });
            return reads[0] && !ClangCounterSteps.exits(loop.children.get(3));
        }

        /** Whether {@code e} reads only constants and variables the loops do not change (besides {@code except}), calling nothing. */
        boolean invariantExpression(ClangNode e, String except) {
            boolean[] ok = {true};
            e.forEach(n -> {
                if (n.kind == CXCursor_CallExpr) ok[0] = false;
                if (n.kind == CXCursor_DeclRefExpr
                        && n.refUsr != null
                        && !n.refUsr.equals(except)
                        && !invariant(n.refUsr)) ok[0] = false;
            });
            return ok[0];
        }

        /**
         * Whether the counter {@code var} of the loop {@code w} of the chain keeps stepping one way through the
         * iterations of the loop {@code q} around it ({@code b} of {@code for (p = 0, b = 0; ...) for (q = p + 1;
         * ...; ++b, ++q)}): it is not declared inside q, every write of it inside q, except q's initialization, steps
         * it by a constant of one sign, it is a local whose address is not taken, and w's body has no break or goto (w's increment ends every
         * iteration that updates). Two iterations of q then update at different values of it.
         */
        private boolean runsAcross(String var, int q, int w) {
            ClangNode loop = chain.get(q);
            ClangNode init = null;
            if (loop.kind == CXCursor_ForStmt && loop.children.size() == 4) init = loop.children.get(0);
            ClangNode skip = init;
            int[] signs = new int[3];
            boolean[] bad = new boolean[1];
            loop.forEach(x -> {
                if (bad[0]) return;
                if (skip != null && skip.contains(x)) return;
                if (x.kind == CXCursor_DeclRefExpr && var.equals(x.refUsr) && aliases(x)) bad[0] = true;
                // declared inside q (for (int i = 0; ...) in its body): a new variable in each iteration
                if (x.kind == CXCursor_VarDecl && var.equals(x.usr)) bad[0] = true;
                if (!ClangLoops.writes(x, var)) return;
                int s = ClangCounterSteps.stepSign(x, var);
                if (s == 0) bad[0] = true;
                else signs[s + 1]++;
            });
            if (bad[0] || signs[0] > 0 && signs[2] > 0) return false;
            ClangNode body = chain.get(w).children.get(chain.get(w).children.size() - 1);
            if (ClangCounterSteps.exits(body)) return false;
            ClangNode fn = function();
            if (fn == null) return false;
            boolean[] local = new boolean[1];
            boolean[] escapes = new boolean[1];
            fn.forEach(n -> {
                if ((n.kind == CXCursor_VarDecl || n.kind == CXCursor_ParmDecl) && var.equals(n.usr)) local[0] = true;
                if (n.kind == CXCursor_DeclRefExpr && var.equals(n.refUsr) && aliases(n)) escapes[0] = true;
            });
            return local[0] && !escapes[0];
        }

        /**
         * Whether {@code p} takes a distinct value in every iteration of the loop {@code q} through a counter running
         * across it ({@link #running}): that counter is the one counter of a loop from q inwards that {@code p}
         * reads, with a coefficient of magnitude at least 1.
         */
        private boolean runs(Poly p, int q) {
            String run = null;
            Poly c = new Poly();
            for (var e : p.terms.entrySet()) {
                List<String> syms = Poly.symbols(e.getKey());
                String counter = null;
                int counted = 0;
                boolean outer = false;
                for (String s : syms) {
                    Integer k = counters.get(s);
                    if (k != null && k >= q) {
                        counted++;
                        counter = s;
                    } else if (k != null) {
                        outer = true;
                    }
                }
                if (counted == 0) continue; // fixed in one iteration of the loops around q
                if (outer) return false; // ours times an outer counter: not decided here
                if (counted > 1 || (run != null && !run.equals(counter))) return false;
                Integer from = running.get(counter);
                if (from == null || from > q) return false;
                run = counter;
                List<String> rest = new ArrayList<>(syms);
                rest.remove(counter);
                Poly t = new Poly();
                t.terms.put(String.join(Poly.SEP, rest), e.getValue());
                c = c.plus(t, 1);
            }
            return run != null && magnitude(c) != null;
        }

        /**
         * The subscript {@code p} split by the counters of the loop {@code q} and of the loops inside it: the counter
         * of q it holds ({@code counter}, null when none), that counter's coefficient ({@code own}) and each inner
         * counter's coefficient ({@code inner}); terms of the loops around q are fixed in one iteration of q and left
         * out. Null when {@code p} is no affine function of those counters: a product of two counters, or two
         * counters of q's own header.
         */
        Split split(Poly p, int q) {
            Poly cq = new Poly();
            String seen = null;
            Map<String, Poly> inner = new TreeMap<>();
            for (var e : p.terms.entrySet()) {
                List<String> syms = Poly.symbols(e.getKey());
                int counted = 0;
                int which = -1;
                String counter = null;
                for (String s : syms) {
                    Integer k = counters.get(s);
                    if (k != null) {
                        counted++;
                        which = k;
                        counter = s;
                    }
                }
                if (counted > 1) return null; // i*j: not affine
                if (counted == 0 || which < q) continue; // fixed in one iteration of the loops around q
                // two counters of the loop itself (i and j of one header): not decided here
                if (which == q && seen != null && !seen.equals(counter)) return null;
                if (which == q) seen = counter;
                List<String> rest = new ArrayList<>(syms);
                rest.remove(counter);
                Poly c = new Poly();
                c.terms.put(String.join(Poly.SEP, rest), e.getValue());
                if (which == q) cq = cq.plus(c, 1);
                else inner.merge(counter, c, (a, b) -> a.plus(b, 1));
            }
            return new Split(seen, cq, inner);
        }

        /** {@link #split}'s result. */
        record Split(String counter, Poly own, Map<String, Poly> inner) {}

        /** Whether distinct iterations of the loop {@code q} give {@code p} distinct values. */
        boolean injective(Poly p, int q) {
            if (runs(p, q)) return true;
            Split split = split(p, q);
            if (split == null) return false;
            String seen = split.counter();
            Poly cq = split.own();
            Map<String, Poly> inner = split.inner();
            // a body counter whose step may be 0 (iy += incy) may stay on one element; not one whose step the loops'
            // bounds keep from 0 (o += step with j < step inside: the update runs only where step is at least 1)
            if (seen != null
                    && steps.containsKey(seen)
                    && steps.get(seen).symbolic()
                    && magnitude(steps.get(seen)) == null) return false;
            // values of a body counter two iterations apart differ by a multiple of its constant step
            if (seen != null && steps.containsKey(seen)) cq = cq.times(steps.get(seen));
            Poly mag = magnitude(cq);
            if (mag == null) return false;
            // |c_q| - 1 - sum |c_w| * span_w >= 0: q's coefficient outweighs the loops inside it
            Poly slack = mag.plus(Poly.constant(1), -1);
            boolean spanned = true;
            for (var e : inner.entrySet()) {
                Poly cw = magnitude(e.getValue());
                Poly span = spans.get(e.getKey());
                if (cw == null || span == null) {
                    spanned = false;
                    break;
                }
                slack = slack.plus(cw.times(span), -1);
            }
            if (spanned && nonNegative(slack)) return true;
            return mixedRadix(seen, mag, inner);
        }

        /** How many counters {@link #mixedRadix} orders at most (their permutations are tried). */
        private static final int MAX_ORDERED = 6;

        /**
         * Whether the counters of loop q ({@code counter}, coefficient magnitude {@code mag}) and of the loops inside
         * it ({@code inner}) address the elements as the digits of a mixed-radix number, in some order w_1 .. w_m
         * with q = w_t: for every s >= t, |c_s| - 1 >= sum over r < s of |c_r| * span_r. Then two iterations that
         * differ in q's counter differ in a digit at or above t, and the highest digit in which they differ
         * outweighs all below it: different elements. A column sweep (i outside, rows j inside, {@code j*pitch + i}
         * with pitch at least the i range) is such, with q's coefficient the smallest.
         */
        private boolean mixedRadix(String counter, Poly mag, Map<String, Poly> inner) {
            if (inner.isEmpty() || inner.size() + 1 > MAX_ORDERED) return false;
            List<String> names = new ArrayList<>();
            List<Poly> coef = new ArrayList<>();
            names.add(counter);
            coef.add(mag);
            for (var e : inner.entrySet()) {
                Poly cw = magnitude(e.getValue());
                if (cw == null) return false;
                names.add(e.getKey());
                coef.add(cw);
            }
            int[] order = new int[names.size()];
            for (int k = 0; k < order.length; k++) order[k] = k;
            try {
                return permutations(order, 0, o -> digits(o, names, coef));
            } catch (ArithmeticException overflow) {
                return false;
            }
        }

        /** Whether {@code test} holds for some permutation of {@code a} from position {@code k} on. */
        private static boolean permutations(int[] a, int k, java.util.function.Predicate<int[]> test) {
            if (k == a.length) return test.test(a);
            for (int x = k; x < a.length; x++) {
                int t = a[k];
                a[k] = a[x];
                a[x] = t;
                boolean ok = permutations(a, k + 1, test);
                a[x] = a[k];
                a[k] = t;
                if (ok) return true;
            }
            return false;
        }

        /** The mixed-radix test of {@link #mixedRadix} for the order {@code o} (indices, q is 0). */
        private boolean digits(int[] o, List<String> names, List<Poly> coef) {
            Poly below = Poly.constant(0);
            boolean fromQ = false;
            for (int s = 0; s < o.length; s++) {
                int w = o[s];
                fromQ |= w == 0;
                if (fromQ && !nonNegative(coef.get(w).plus(Poly.constant(1), -1).plus(below, -1))) return false;
                if (s == o.length - 1) break;
                Poly span = spans.get(names.get(w));
                if (span == null) return false;
                below = below.plus(coef.get(w).times(span), 1);
            }
            return true;
        }

        /** {@code c} or {@code -c}, whichever is at least 1 wherever the loops run; null when neither is proven. */
        private Poly magnitude(Poly c) {
            if (c.zero()) return null;
            if (nonNegative(c.plus(Poly.constant(1), -1))) return c;
            Poly neg = Poly.constant(0).plus(c, -1);
            return nonNegative(neg.plus(Poly.constant(1), -1)) ? neg : null;
        }

        /**
         * Whether {@code p} is at least 0 for every value of its symbols at or above their lower bounds (all
         * non-negative): every monomial with a symbol has a non-negative coefficient (so p grows with each symbol),
         * and p at the lower bounds is at least 0.
         */
        boolean nonNegative(Poly p) {
            long at = 0;
            try {
                for (var e : p.terms.entrySet()) {
                    long v = e.getValue();
                    for (String s : Poly.symbols(e.getKey())) {
                        Long lo = lower.get(s);
                        if (lo == null || lo < 0 || e.getValue() < 0) return false;
                        v = Math.multiplyExact(v, lo);
                    }
                    at = Math.addExact(at, v);
                }
            } catch (ArithmeticException overflow) {
                return false;
            }
            return at >= 0;
        }
    }
}
