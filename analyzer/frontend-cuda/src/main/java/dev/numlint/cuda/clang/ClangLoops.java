package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@link ClangUnit}'s loop facts: constant trip counts, the bound a fixed-size array puts on a loop that indexes it
 * with its counter, and which loops carry a sum into an accumulator (def-use of resets).
 */
final class ClangLoops {
    private final ClangUnit unit;

    private final ClangStepBounds stepBounds;
    private final ClangSweeps sweeps;
    private final ClangOutParams outParams;

    ClangLoops(ClangUnit unit) {
        this.unit = unit;
        this.stepBounds = new ClangStepBounds(unit);
        this.sweeps = new ClangSweeps(unit);
        this.outParams = new ClangOutParams(unit);
    }

    /**
     * The parts of {@code for (i = a; i < b; i++)}: the counter's USR, its constant start (null when not constant),
     * the condition, and the body; counting up by one ({@code ++}, {@code += 1}) with the counter on the left of a
     * comparison. Null for any other shape. {@code op} and {@code bound}: the comparison's operator ({@code <},
     * {@code <=}, ...) and its right operand, also where the comparison is a call of an overloaded operator: in a
     * template, {@code j < this->model->n} is type-dependent, and where an {@code operator<} is declared in scope
     * (a library's {@code bool operator<(const Event &, const Event &)}), Clang keeps it as a call of that operator,
     * resolved only at instantiation (session 39: an integrator's per-variable update read as a serial sum).
     */
    record Header(String var, Double start, ClangNode cond, ClangNode body, String op, ClangNode bound) {}

    /**
     * The operator of a comparison through an overloaded operator with both operands, else null: a call whose
     * children are the left operand, the callee and the right operand, the callee named {@code operator<} and the
     * like (libclang gives the call of a type-dependent one no spelling: the callee's reference names it).
     */
    private static String comparisonCall(ClangNode c) {
        if (c.kind != CXCursor_CallExpr || c.children.size() != 3) return null;
        ClangNode callee = c.children.get(1);
        String name = callee.ref != null && callee.ref.startsWith("operator")
                ? callee.ref
                : c.spelling != null && c.spelling.startsWith("operator") ? c.spelling : null;
        if (name == null) return null;
        String op = name.substring("operator".length()).strip();
        return isComparison(op) ? op : null;
    }

    static Header header(ClangNode loop) {
        if (loop.kind != CXCursor_ForStmt) return null;
        ClangNode init = null;
        ClangNode cond = null;
        ClangNode inc = null;
        List<ClangNode> ch = loop.children;
        // children: init, condition, increment, body (absent parts are simply missing)
        for (ClangNode c : ch) {
            if (c.kind == CXCursor_DeclStmt && init == null && cond == null) init = c;
            else if (cond == null
                    && (c.kind == CXCursor_BinaryOperator && isComparison(c.spelling) || comparisonCall(c) != null))
                cond = c;
            else if (cond != null
                    && inc == null
                    && (c.kind == CXCursor_UnaryOperator || c.kind == CXCursor_CompoundAssignOperator)) inc = c;
            else if (c.kind == CXCursor_BinaryOperator && init == null && c.spelling.equals("=")) init = c;
        }
        if (init == null || cond == null || inc == null) return null;
        ClangNode body = ch.get(ch.size() - 1);
        if (body == init || body == cond || body == inc) return null;
        Double a = null;
        String var = null;
        if (init.kind == CXCursor_DeclStmt && init.children.size() == 1) {
            ClangNode vd = init.children.get(0);
            var = vd.usr;
            ClangNode v = vd.children.isEmpty() ? null : vd.children.get(vd.children.size() - 1);
            a = constant(v);
        } else if (init.kind == CXCursor_BinaryOperator && init.children.size() == 2) {
            ClangNode l = strip(init.children.get(0));
            var = l == null ? null : l.refUsr;
            a = constant(init.children.get(1));
        }
        String op = cond.kind == CXCursor_BinaryOperator ? cond.spelling : comparisonCall(cond);
        if (var == null || cond.kind == CXCursor_BinaryOperator && cond.children.size() != 2) return null;
        // an operator call's children: the left operand first and the right one last (the callee between)
        ClangNode lhs = strip(cond.children.get(0));
        ClangNode bound = cond.children.get(cond.children.size() - 1);
        if (lhs == null || !var.equals(lhs.refUsr)) return null;
        String step = inc.spelling;
        boolean up = step.equals("++")
                || inc.kind == CXCursor_CompoundAssignOperator
                        && step.equals("+=")
                        && inc.children.size() == 2
                        && Double.valueOf(1.0).equals(inc.children.get(1).value);
        if (!up) return null;
        return new Header(var, a, cond, body, op, bound);
    }

    /**
     * The trip count of {@code for (i = a; i < b; i++)} (also {@code <=}, {@code ++i}, {@code i += 1}) with
     * constant a and b, else -1.
     */
    static long forTrip(ClangNode loop) {
        Header h = header(loop);
        if (h == null || h.start() == null) return -1;
        Double b = constant(h.bound());
        if (b == null) return -1;
        double a = h.start();
        double n =
                switch (h.op()) {
                    case "<", "!=" -> b - a;
                    case "<=" -> b - a + 1;
                    default -> -1;
                };
        return n < 0 || n > 1e15 ? (n < 0 && n != -1 ? 0 : -1) : (long) n;
    }

    /** An array type of constant size, as Clang spells it ({@code int[2]}, {@code const float [16]}). */
    private static final java.util.regex.Pattern CONSTANT_ARRAY =
            java.util.regex.Pattern.compile("^[^\\[]*\\[(\\d{1,9})\\]$");

    /**
     * The trip count of a range-for over a named array of constant size ({@code int indices[] = { d.left, d.right };
     * for (int idx : indices)}: 2; session 76 round E, a vehicle's differential averaged over its two wheels), else -1.
     * A braced list ({@code for (float x : {a, b, c})}) is left as it was: a loop of unknown length.
     */
    static long rangeTrip(ClangNode loop) {
        if (loop.kind != CXCursor_CXXForRangeStmt || loop.children.size() != 3) return -1;
        ClangNode r = strip(loop.children.get(1));
        if (r == null || r.kind != CXCursor_DeclRefExpr || r.canon == null) return -1;
        java.util.regex.Matcher m = CONSTANT_ARRAY.matcher(r.canon.trim());
        return m.matches() ? Long.parseLong(m.group(1)) : -1;
    }

    /** The loop's constant trip count ({@link #forTrip}), else the bound of an array it indexes ({@link #arrayBound}). */
    static long tripBound(ClangNode loop) {
        long t = forTrip(loop);
        return t >= 0 ? t : arrayBound(loop);
    }

    /**
     * The most iterations of {@code for (i = a; i < n; i++)} (constant {@code a >= 0}, any bound) whose body reads or
     * writes an array of constant size N at {@code [i]} in every iteration (outside any branch, or in both branches
     * of an {@code if}), and neither writes {@code i} nor continues: {@code i} cannot reach N without an access past
     * the array's end, so the loop runs at most N - a times ({@code float w[6]; for (a = 0; a < kernel_size; a++) s
     * += v[a] * w[a];}). -1 when not so. Arrays that are function parameters are pointers and bound nothing; nor do
     * arrays of fewer than two elements (a struct's {@code float v[1]} tail indexed past its end).
     */
    static long arrayBound(ClangNode loop) {
        Header h = header(loop);
        if (h == null || h.start() == null || h.start() < 0) return -1;
        String var = h.var();
        boolean[] spoiled = new boolean[1];
        long[] best = {-1};
        h.body().forEach(n -> {
            if (spoiled[0]) return;
            if (n.kind == CXCursor_ContinueStmt && innermostLoop(n) == loop || writes(n, var)) {
                spoiled[0] = true;
                return;
            }
            long len = indexedLength(n, var);
            if (len < 0 || innermostLoop(n) != loop || !everyIteration(n, loop, var)) return;
            if (best[0] < 0 || len < best[0]) best[0] = len;
        });
        if (spoiled[0] || best[0] < 0) return -1;
        return Math.max(0, best[0] - h.start().longValue());
    }

    /** The constant length of the array {@code n} subscripts with the variable {@code var} itself, or -1. */
    private static long indexedLength(ClangNode n, String var) {
        if (n.kind != CXCursor_ArraySubscriptExpr || n.children.size() != 2) return -1;
        ClangNode idx = strip(n.children.get(1));
        if (idx == null || idx.kind != CXCursor_DeclRefExpr || !var.equals(idx.refUsr)) return -1;
        ClangNode base = strip(n.children.get(0));
        if (base == null
                || base.kind != CXCursor_DeclRefExpr
                        && base.kind != CXCursor_MemberRefExpr
                        && base.kind != CXCursor_ArraySubscriptExpr) return -1;
        if (base.canonKind != CXType_ConstantArray || base.canon == null) return -1;
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("\\[(\\d{1,9})\\]").matcher(base.canon);
        long len = m.find() ? Long.parseLong(m.group(1)) : -1;
        // a one-element (or empty) trailing array is the old C idiom for a variable-length tail: it bounds nothing
        return len >= 2 ? len : -1;
    }

    /**
     * Whether the subscript {@code n} runs in every iteration of {@code loop}: no branch, switch, conditional
     * operator or short circuit lies between them, except an {@code if} whose other branch subscripts an array with
     * {@code var} too.
     */
    private static boolean everyIteration(ClangNode n, ClangNode loop, String var) {
        ClangNode c = n;
        for (ClangNode p = n.parent; p != null && p != loop; c = p, p = p.parent) {
            if (p.kind == CXCursor_IfStmt) {
                if (p.children.indexOf(c) == 0) continue; // the condition runs every time
                if (p.children.size() != 3) return false;
                ClangNode other = p.children.get(1) == c ? p.children.get(2) : p.children.get(1);
                boolean[] also = new boolean[1];
                other.forEach(x -> {
                    if (indexedLength(x, var) >= 0 && innermostLoop(x) == loop) also[0] = true;
                });
                if (!also[0]) return false;
            } else if (p.kind == CXCursor_SwitchStmt
                    || p.kind == CXCursor_CaseStmt
                    || p.kind == CXCursor_DefaultStmt
                    || p.kind == CXCursor_ConditionalOperator
                    || p.kind == CXCursor_LambdaExpr
                    || p.kind == CXCursor_BinaryOperator && (p.spelling.equals("&&") || p.spelling.equals("||"))) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code n} writes the variable {@code var} ({@code =}, a compound assignment, ++, --) or takes its address. */
    /**
     * The initialization of a for header ({@code i = 0}, {@code int i = 0}, {@code i = 0, o = 0}), which runs once
     * before the iterations; null when the loop is no for loop or has none (libclang leaves absent parts out).
     */
    static ClangNode initialization(ClangNode loop) {
        if (loop.kind != CXCursor_ForStmt || loop.children.size() < 3) return null;
        ClangNode c0 = loop.children.get(0);
        boolean init = loop.children.size() == 4
                || c0.kind == CXCursor_DeclStmt
                || c0.kind == CXCursor_BinaryOperator && (c0.spelling.equals("=") || c0.spelling.equals(","));
        return init ? c0 : null;
    }

    static boolean writes(ClangNode n, String var) {
        boolean assign = n.kind == CXCursor_BinaryOperator && n.spelling.equals("=")
                || n.kind == CXCursor_CompoundAssignOperator;
        boolean unary = n.kind == CXCursor_UnaryOperator
                && (n.spelling.equals("++") || n.spelling.equals("--") || n.spelling.equals("&"));
        if ((!assign && !unary) || n.children.isEmpty()) return false;
        ClangNode target = strip(n.children.get(0));
        return target != null && target.kind == CXCursor_DeclRefExpr && var.equals(target.refUsr);
    }

    // ------------------------------------------------------------------ def-use: accumulator resets

    /**
     * Which loops really carry the sum into the accumulator updated at {@code line} (the compound assignment or
     * {@code s = s + x} whose left side is {@code target}): the loops around it inside the innermost one that resets
     * the accumulator before the update ({@code s = 0}, {@code s = <expression without s>}, {@code memset(&s, ...)},
     * a declaration) in each of its iterations. Null when the update is not found.
     */
    public Carried carriedBy(int line, int column, String target) {
        String want = squash(target);
        ClangNode acc = null;
        ClangUnit.Function in = null;
        for (ClangUnit.Function fn : unit.functions()) {
            if (line < fn.startLine() || line > fn.endLine()) continue;
            ClangNode[] hit = new ClangNode[1];
            fn.node().forEach(n -> {
                if (hit[0] != null || n.line != line) return;
                boolean update = n.kind == CXCursor_CompoundAssignOperator
                        || n.kind == CXCursor_BinaryOperator && n.spelling.equals("=")
                        || overloadedUpdate(n);
                if (update
                        && !n.children.isEmpty()
                        && squash(unit.text(n.children.get(0))).equals(want)) hit[0] = n;
            });
            if (hit[0] != null) {
                acc = hit[0];
                in = fn;
                break;
            }
        }
        if (acc == null) return null;
        ClangNode lhs = acc.children.get(0);
        String root = rootUsr(lhs);
        if (root == null) return null;
        List<ClangNode> chain = new ArrayList<>(); // outermost first
        for (ClangNode p = acc.parent; p != null; p = p.parent) {
            if (isLoop(p)) chain.add(0, p);
            if (ClangUnit.FUNCTION_KINDS.contains(p.kind)) break;
        }
        if (chain.isEmpty()) return null;
        ClangNode accNode = acc;
        int resetDepth = -1;
        int resetLine = 0;
        for (int i = chain.size() - 1; i >= 0 && resetDepth < 0; i--) {
            ClangNode loop = chain.get(i);
            ClangNode inner = i + 1 < chain.size() ? chain.get(i + 1) : null;
            ClangNode[] found = new ClangNode[1];
            java.util.Set<Long> elements = new java.util.HashSet<>();
            ClangNode[] firstElement = new ClangNode[1];
            // before the update in the tree's order, not by offset: in a macro's expansion every node has the
            // offset of the macro's name (session 62 round B: 'xa = ...; xa += ...;' in a delay line's macro)
            boolean[] passed = {false};
            loop.forEach(n -> {
                if (n == accNode) passed[0] = true;
                if (found[0] != null || passed[0] || n.offset < 0) return;
                if (n == loop || inner != null && inner.contains(n)) return;
                // in every iteration that reaches the update: outside branches, or in the branch that holds the update
                // a statement of a do-while's body runs at least once: do { p = ...; } while (...); before p += x
                // (session 63 round I, a Monte Carlo sampler's cumulative probability)
                ClangNode at = ClangSinglePass.doBodyStatement(n, loop, accNode) ? innermostLoop(n) : n;
                if (innermostLoop(at) != loop || !dominates(ClangOutParams.anchor(at), accNode, loop)) return;
                if (resets(n, root, want)) found[0] = n;
                Long k = elementReset(n, root);
                if (k != null && elements.add(k) && firstElement[0] == null) firstElement[0] = n;
                // if (c) s = a; else s = 0; rewrites s on every path: a reset, though neither branch dominates
                if (n.kind == CXCursor_IfStmt && !n.contains(accNode) && everyBranchResets(n, root, want)) found[0] = n;
            });
            // d[0] = d[1] = 0.0f; before d[i & 1] += x: every element of a float d[2] restarts (session 58 round G)
            if (found[0] == null && firstElement[0] != null && covers(elements, root, in)) found[0] = firstElement[0];
            // a sweep for (j...) acc[j] = 0 in the loop's body resets every element, before or after the update
            if (found[0] == null) found[0] = sweeps.in(loop, inner, accNode, lhs);
            if (found[0] != null) {
                resetDepth = i;
                resetLine = found[0].line;
            }
        }
        List<Integer> lines = new ArrayList<>();
        long trip = 1;
        Set<String> from = new java.util.LinkedHashSet<>();
        // a loop whose iterations update distinct elements (m[i][j] in the i and j loops, P[index] with index =
        // k*X*Y + j*X + i in the k, j and i loops) moves to another element: it carries no sum
        Set<ClangNode> moving = ClangElements.moving(lhs, acc, chain);
        List<Integer> movingLines = new ArrayList<>();
        for (ClangNode l : chain) if (moving.contains(l)) movingLines.add(l.line);
        // the carrying loops whose counter moves the element by a stride that may be 0 (y[j*C], y[iy], iy += incy)
        Map<ClangNode, String> strided = ClangElements.strided(lhs, acc, chain);
        // a ring the loop clears a slot at a time (ClangElementRings): where the update's index follows the cleared
        // position, one term per slot and pass unless the offset varies (a condition, as a stride's); else a slot
        // gathers the terms of at most as many iterations as the ring has slots (a bound on the trip count, below)
        Map<ClangNode, ClangElementRings.Cleared> rings = new java.util.HashMap<>();
        for (ClangNode l : chain) {
            if (moving.contains(l) || strided.containsKey(l)) continue;
            ClangElementRings.Cleared r = ClangElementRings.cleared(unit, in, lhs, l);
            if (r != null && r.follows() != null) strided.put(l, r.condition());
            else if (r != null) rings.put(l, r);
        }
        String stride = null;
        boolean allStrided = true;
        for (int i = resetDepth + 1; i < chain.size(); i++) {
            if (moving.contains(chain.get(i))) continue;
            String s = strided.get(chain.get(i));
            if (s == null) allStrided = false;
            else if (stride == null) stride = s;
            lines.add(chain.get(i).line);
            long t = chain.get(i).kind == CXCursor_ForStmt ? tripBound(chain.get(i)) : rangeTrip(chain.get(i));
            // a counter that starts non-negative and steps by S past a constant bound B: at most ceil(B / S) trips
            long stepped = chain.get(i).kind == CXCursor_ForStmt ? stepBounds.of(chain.get(i), in) : -1;
            if (stepped >= 0 && (t < 0 || stepped < t)) t = stepped;
            if (t < 0 && chain.get(i).kind == CXCursor_ForStmt) t = dimensionTrips(chain.get(i));
            if (t < 0 && chain.get(i).kind == CXCursor_ForStmt) t = boundTrips(chain.get(i), in);
            // a logarithmic loop (offset /= 2, mask <<= 1, k *= 2) counts once, as the hand-written ForLoopTrips does
            if (t < 0 && logarithmic(chain.get(i))) t = 1;
            // every path through the body leaves the loop: one pass (ClangSinglePass, a solver's for (;;))
            if (ClangSinglePass.of(chain.get(i))) t = 1;
            // a ring the loop clears a slot at a time: a slot gathers the terms of at most as many iterations as the
            // ring has slots
            ClangElementRings.Cleared ring = t < 0 ? rings.get(chain.get(i)) : null;
            if (ring != null) {
                t = ring.slots();
                from.add(ring.reason());
            }
            if (t < 0 && chain.get(i).kind == CXCursor_ForStmt && in.template()) {
                Trip tt = templateTrip(chain.get(i), in);
                if (tt != null) {
                    t = tt.trip();
                    from.add(tt.instantiation());
                }
            }
            trip = trip < 0 || t < 0 ? -1 : trip * t;
        }
        List<Integer> all = new ArrayList<>();
        for (ClangNode l : chain) all.add(l.line);
        // the one carrying loop, the innermost around the update, is a clean-up loop: at most k-1 terms
        ClangNode innermost = chain.get(chain.size() - 1);
        dev.numlint.cuda.facts.CleanUpLoop cleanUp = lines.size() == 1 && lines.get(0) == innermost.line
                ? new ClangCleanUps(unit).of(innermost, in.node())
                : null;
        Boolean recurrent = null;
        if (resetDepth >= 0
                && !lines.isEmpty()
                && acc.kind == CXCursor_CompoundAssignOperator
                && acc.children.size() == 2) {
            ClangNode carrier = null;
            for (ClangNode l : chain) {
                if (l.line == lines.get(0)) {
                    carrier = l;
                    break;
                }
            }
            if (carrier != null) recurrent = ClangRecurrences.in(lhs, List.of(acc.children.get(1)), carrier);
        }
        String partials = null;
        if (lines.size() == 1) {
            for (ClangNode l : chain) {
                if (l.line == lines.get(0)) {
                    partials = ClangPartialResults.of(unit, l, acc);
                    break;
                }
            }
        }
        return new Carried(
                all,
                lines,
                resetDepth < 0 ? 0 : resetLine,
                lines.isEmpty() ? 0 : trip,
                trip < 0 || from.isEmpty() ? null : String.join("; ", from),
                cleanUp,
                recurrent,
                List.copyOf(movingLines),
                allStrided ? stride : null,
                partials);
    }

    /**
     * Whether {@code n} is an update through an overloaded operator, {@code s += e} or {@code s -= e} whose operand
     * has a class type (blitz's {@code r2 += r[j]*r[j]}, an expression template, in PKDGRAV3): Clang holds a call of
     * {@code operator+=} (the updated value, the operator, the operand), where a built-in update is a compound
     * assignment.
     */
    private boolean overloadedUpdate(ClangNode n) {
        if (n.kind != CXCursor_CallExpr || n.children.size() != 3) return false;
        String op = squash(unit.text(n.children.get(1)));
        return op.equals("+=") || op.equals("-=");
    }

    /**
     * The trips of {@code for (d = 0; d < ndim; d++)} whose bound is a variable named for spatial dimensions
     * ({@link dev.numlint.cuda.facts.LoopNames#countsDimensions}, as the hand-written ForLoopTrips), else -1.
     */
    /**
     * The most iterations of {@code for (i = a; i < n; i++)} (constant {@code a}) whose bound's interval ends below
     * 16: {@code n = e->band[j].end} where every store of that field writes a constant from 4 to 8
     * (session 52: a Vorbis envelope's window sums, "the error grows with n" over at most 8 terms). -1 when not so.
     */
    private long boundTrips(ClangNode loop, ClangUnit.Function in) {
        Header h = header(loop);
        if (h == null || h.start() == null || !h.op().equals("<") && !h.op().equals("<=")) return -1;
        // a clean-up loop (n & 3 terms after an unrolled one) is its own kind of short sum, a note
        if (new ClangCleanUps(unit).of(loop, in.node()) != null) return -1;
        double hi = unit.interval(h.bound(), in)[1];
        // a short sum only (under NL004's default min-trip-count): a bound is a count the messages would misstate
        if (Double.isNaN(hi) || hi >= 16) return -1;
        long t = (long) Math.floor(hi) - (long) Math.ceil(h.start()) + (h.op().equals("<=") ? 1 : 0);
        return Math.max(0, t);
    }

    private static long dimensionTrips(ClangNode loop) {
        Header h = header(loop);
        if (h == null) return -1;
        ClangNode b = strip(h.bound());
        return b != null
                        && b.kind == CXCursor_DeclRefExpr
                        && b.value == null
                        && dev.numlint.cuda.facts.LoopNames.countsDimensions(b.spelling)
                ? dev.numlint.cuda.facts.LoopNames.DIMENSION_TRIPS
                : -1;
    }

    /**
     * Whether a for loop's increment multiplies, divides or shifts a counter ({@code offset /= 2}, {@code mask <<= 1},
     * {@code k *= 2}, also as an operand of a comma): a logarithmic loop, which the hand-written front end counts
     * once ({@code ForLoopTrips}), so that a butterfly reduction over the lanes of a warp is no long sum.
     */
    static boolean logarithmic(ClangNode loop) {
        if (loop.kind != CXCursor_ForStmt || loop.children.isEmpty()) return false;
        List<ClangNode> ch = loop.children;
        for (ClangNode c : ch.subList(0, ch.size() - 1)) {
            if (scales(c)) return true;
            if (c.kind == CXCursor_BinaryOperator && c.spelling.equals(",")) {
                for (ClangNode o : c.children) if (scales(o)) return true;
            }
        }
        return false;
    }

    private static boolean scales(ClangNode n) {
        return n.kind == CXCursor_CompoundAssignOperator
                && (n.spelling.equals("*=")
                        || n.spelling.equals("/=")
                        || n.spelling.equals("<<=")
                        || n.spelling.equals(">>="));
    }

    /** A loop's trip count in the instantiation of its template that runs it longest. */
    record Trip(long trip, String instantiation) {}

    /**
     * The trip count of {@code for (i = a; i < Config::kSize; i++)} in the function template {@code fn}, whose bound
     * is a constant static member of a template argument ({@link ClangUnit#memberConstants}): in each instantiation
     * of this file a constant, and the largest of them (the longest sum) with the arguments that give it. Null when
     * the bound is not such a constant in every instantiation, or there is none.
     */
    private Trip templateTrip(ClangNode loop, ClangUnit.Function fn) {
        Header h = header(loop);
        if (h == null || h.start() == null || fn.instantiations().isEmpty()) return null;
        ClangNode bound = h.bound();
        long best = -1;
        String which = null;
        for (List<String> args : fn.instantiations()) {
            Double b = valueIn(bound, args, 0);
            if (b == null) return null;
            double n =
                    switch (h.op()) {
                        case "<", "!=" -> b - h.start();
                        case "<=" -> b - h.start() + 1;
                        default -> -1;
                    };
            if (n < 0 || n > 1e15) return null;
            if ((long) n > best) {
                best = (long) n;
                which = String.join(
                        ", ", args.stream().filter(java.util.Objects::nonNull).toList());
            }
        }
        return best < 0 ? null : new Trip(best, which);
    }

    /**
     * The value of {@code e}, a template pattern's expression, in the instantiation with type arguments {@code args}:
     * constants, {@code T::member} of a template type parameter whose argument has that constant static member, and
     * sums, differences and products of such values. Null when not known.
     */
    private Double valueIn(ClangNode e, List<String> args, int depth) {
        if (e == null || depth > 16) return null;
        if (e.value != null) return e.value;
        switch (e.kind) {
            case CXCursor_ParenExpr, CXCursor_UnexposedExpr -> {
                return e.children.size() == 1 ? valueIn(e.children.get(0), args, depth + 1) : null;
            }
            case CXCursor_DeclRefExpr -> {
                // Config::kKernelSize: a dependent reference qualified by the template's type parameter K
                ClangNode q = e.children.isEmpty() ? null : e.children.get(0);
                String prefix = "type-parameter-0-";
                if (q == null || q.kind != CXCursor_TypeRef || !q.canon.startsWith(prefix)) return null;
                int k;
                try {
                    k = Integer.parseInt(q.canon.substring(prefix.length()));
                } catch (NumberFormatException x) {
                    return null;
                }
                if (k >= args.size() || args.get(k) == null) return null;
                String text = unit.text(e);
                int c = text.lastIndexOf("::");
                if (c < 0) return null;
                return unit.memberConstants()
                        .get(args.get(k) + "::" + text.substring(c + 2).trim());
            }
            case CXCursor_BinaryOperator -> {
                if (e.children.size() != 2) return null;
                Double a = valueIn(e.children.get(0), args, depth + 1);
                Double b = a == null ? null : valueIn(e.children.get(1), args, depth + 1);
                if (b == null) return null;
                return switch (e.spelling) {
                    case "+" -> a + b;
                    case "-" -> a - b;
                    case "*" -> a * b;
                    default -> null;
                };
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * The loops around an update (outermost first), the ones that carry its sum, the line of the reset that ends the
     * others (0 when none), the carrying loops' trip count (-1 unknown, 0 when none carries it: the accumulator
     * is reset in every iteration of the innermost loop), and the template arguments of the instantiation whose
     * constants give that count (the longest), or null when the count is the code's own; and, when the one carrying
     * loop is a clean-up loop ({@link ClangCleanUps}), its bound, else null; and, when a reset ends the sum inside
     * the loops around it and the update is a compound assignment, whether its term reads the accumulator within the
     * outermost loop that still carries it ({@link ClangRecurrences#in}), else null (not decided here); and the loops
     * whose iterations update distinct elements of an element accumulator ({@link ClangElements}), which carry
     * nothing; and, when every carrying loop moves the element by a stride that may be 0 ({@link
     * ClangElements#strided}), the condition of a sum over the outermost of them ({@code "C is 0"}), else null; and,
     * when the one carrying loop adds one partial result per worker ({@link ClangPartialResults}), what counts them,
     * else null.
     */
    public record Carried(
            List<Integer> loopLines,
            List<Integer> carrying,
            int resetLine,
            long trip,
            String tripFrom,
            dev.numlint.cuda.facts.CleanUpLoop cleanUp,
            Boolean recurrentWhereCarried,
            List<Integer> moving,
            String stride,
            String partials) {}

    /**
     * Whether the statement restarts the accumulator on every path through it: a reset itself, a block with a reset
     * among its own statements, or an {@code if} with an {@code else} whose branches both do.
     */
    private boolean everyBranchResets(ClangNode st, String root, String target) {
        if (st == null) return false;
        if (st.kind == CXCursor_IfStmt) {
            return st.children.size() == 3
                    && alwaysResets(st.children.get(1), root, target)
                    && alwaysResets(st.children.get(2), root, target);
        }
        return false;
    }

    private boolean alwaysResets(ClangNode st, String root, String target) {
        if (st.kind == CXCursor_CompoundStmt) {
            for (ClangNode c : st.children) if (alwaysResets(c, root, target)) return true;
            return false;
        }
        // a chain of assignments sets every variable it names (if (r) l = s = rb[k]; else l = s = 0;, session 82: a
        // sound chip's reverb-fed left and right sums)
        for (ClangNode v = st;
                v != null && v.kind == CXCursor_BinaryOperator && v.spelling.equals("=") && v.children.size() == 2;
                v = strip(v.children.get(1))) if (resets(v, root, target)) return true;
        return everyBranchResets(st, root, target);
    }

    /**
     * The constant index of an element of the one-dimensional array {@code root} that {@code n} sets to a value not
     * read from the array ({@code d[1] = 0.0f}, either assignment of {@code d[0] = d[1] = 0.0f}); null otherwise.
     */
    private static Long elementReset(ClangNode n, String root) {
        if (n.kind != CXCursor_BinaryOperator || !n.spelling.equals("=") || n.children.size() != 2) return null;
        ClangNode l = strip(n.children.get(0));
        if (l == null || l.kind != CXCursor_ArraySubscriptExpr || l.children.size() != 2) return null;
        ClangNode base = strip(l.children.get(0));
        Double k = folded(l.children.get(1));
        if (base == null || base.kind != CXCursor_DeclRefExpr || !root.equals(base.refUsr) || k == null) return null;
        // the value: a chain of such element assignments ends in something that does not read the array
        ClangNode v = strip(n.children.get(1));
        while (v != null && v.kind == CXCursor_BinaryOperator && v.spelling.equals("=") && v.children.size() == 2) {
            if (elementReset(v, root) == null) return null;
            v = strip(v.children.get(1));
        }
        return v == null || mentions(v, root) ? null : k.longValue();
    }

    /** Whether {@code e} is {@code root} or an element of it with constant indices ({@code M[1][0]}). */
    private static boolean constantElement(ClangNode e, String root) {
        ClangNode x = strip(e);
        while (x != null && x.kind == CXCursor_ArraySubscriptExpr && x.children.size() == 2) {
            if (folded(x.children.get(1)) == null) return false;
            x = strip(x.children.get(0));
        }
        return x != null && x.kind == CXCursor_DeclRefExpr && root.equals(x.refUsr);
    }

    /** Whether {@code elements} are every index of {@code root}, a local array of one dimension declared in {@code fn}. */
    private static boolean covers(java.util.Set<Long> elements, String root, ClangUnit.Function fn) {
        if (fn == null) return false;
        long[] size = {-1};
        fn.node().forEach(x -> {
            if (x.kind != CXCursor_VarDecl || !root.equals(x.usr) || x.canon == null) return;
            java.util.regex.Matcher m =
                    java.util.regex.Pattern.compile("^[^\\[]*\\[(\\d+)\\]$").matcher(x.canon);
            if (m.matches()) size[0] = Long.parseLong(m.group(1));
        });
        if (size[0] <= 0 || size[0] > 64) return false;
        for (long i = 0; i < size[0]; i++) if (!elements.contains(i)) return false;
        return true;
    }

    /**
     * Whether the call {@code n} (named {@code name}) sets every element of the container {@code root} to a value
     * that does not read it: a member {@code v.setZero()}, {@code v.setConstant(c)}, {@code v.fill(c)} (Eigen, {@code
     * std::array}), {@code v.assign(n, c)}, or {@code std::fill(v.begin(), v.end(), c)} / {@code std::fill_n(v.data(),
     * n, c)} (session 66 round A: a cloth solver's {@code rhs.setZero()} in each iteration, read as a sum over the
     * iterations).
     */
    private static boolean containerReset(ClangNode n, String name, String root) {
        List<ClangNode> args = arguments(n);
        ClangNode callee = n.children.isEmpty() ? null : strip(n.children.get(0));
        boolean member = callee != null && callee.kind == CXCursor_MemberRefExpr && !callee.children.isEmpty();
        if (member) {
            if (!root.equals(rootUsr(callee.children.get(0)))) return false;
            return switch (name) {
                case "setZero" -> args.isEmpty();
                case "setConstant", "fill" -> args.size() == 1 && !reads(args.get(0), root);
                case "assign" -> args.size() == 2 && !reads(args.get(1), root);
                default -> false;
            };
        }
        boolean fill = (name.equals("fill") || name.equals("std::fill")) && args.size() == 3;
        boolean fillN = (name.equals("fill_n") || name.equals("std::fill_n")) && args.size() == 3;
        if (!fill && !fillN || reads(args.get(2), root)) return false;
        return root.equals(rootUsr(args.get(0)));
    }

    private static boolean reads(ClangNode e, String root) {
        boolean[] r = new boolean[1];
        e.forEach(x -> {
            if (root.equals(x.refUsr)) r[0] = true;
        });
        return r[0];
    }

    /** Whether {@code n} restarts the accumulator: an assignment not reading it, a memset of it, a declaration. */
    private boolean resets(ClangNode n, String root, String target) {
        // a pointer pointed at the same buffer again restarts nothing summed through it (*dp += x)
        boolean throughPointer = !target.matches("[A-Za-z_]\\w*");
        if (n.kind == CXCursor_VarDecl)
            return root.equals(n.usr) && !(throughPointer && repoints(n, innermostLoop(n), root));
        // a C++ object assigned whole (u = make_float2(0, 0)) is a call of its class's operator=: left, '=', right
        boolean assignment = n.kind == CXCursor_BinaryOperator && n.spelling.equals("=") && n.children.size() == 2;
        boolean objectAssignment = n.kind == CXCursor_CallExpr
                && n.children.size() == 3
                && squash(unit.text(n.children.get(1))).equals("=");
        if (assignment || objectAssignment) {
            ClangNode l = n.children.get(0);
            String lt = squash(unit.text(l));
            if (!root.equals(rootUsr(l))) return false;
            // the whole variable, or the same element
            if (!lt.equals(target) && strip(l).kind != CXCursor_DeclRefExpr) return false;
            if (throughPointer && repoints(n, innermostLoop(n), root)) return false;
            // a chain of assignments (M[0][0] = M[1][1] = M[0][1] = 0.0) stores its last value in each element
            // it names: the others are written, not read (session 67 round B, an optical-flow code's 2x2 matrix)
            ClangNode value = n.children.get(n.children.size() - 1);
            for (ClangNode v = strip(value);
                    v != null
                            && v.kind == CXCursor_BinaryOperator
                            && v.spelling.equals("=")
                            && v.children.size() == 2
                            && constantElement(v.children.get(0), root);
                    v = strip(v.children.get(1))) value = v.children.get(1);
            boolean[] reads = new boolean[1];
            value.forEach(x -> {
                if (root.equals(x.refUsr)) reads[0] = true;
            });
            return !reads[0];
        }
        if (n.kind == CXCursor_CallExpr) {
            // hitSlab(ray, &tnear, &tfar): the callee defines tnear through its address before reading it
            if (target.matches("[A-Za-z_]\\w*") && outParams.defines(n, root)) return true;
            String name = callee(n);
            if (containerReset(n, name, root)) return true;
            if (!name.equals("memset") && !name.equals("std::memset") && !name.equals("__builtin_memset")) return false;
            List<ClangNode> args = arguments(n);
            if (args.size() != 3) return false;
            ClangNode v = args.get(1).value != null ? args.get(1) : strip(args.get(1));
            if (v == null || v.value == null || v.value != 0) return false;
            return root.equals(rootUsr(args.get(0)));
        }
        return false;
    }
}
