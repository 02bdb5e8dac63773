package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.List;
import java.util.Map;

/** Calls of a project's clamp helpers, as guards of the value they return ({@link ClangGuards}). */
final class ClangClampHelpers {
    private ClangClampHelpers() {}

    private static final java.util.Set<String> LOWER = java.util.Set.of("max", "fmax", "fmaxf");
    private static final java.util.Set<String> UPPER = java.util.Set.of("min", "fmin", "fminf");

    /**
     * A call of a clamp helper of this file, as a guard: a function (a template or not) whose body is one {@code return}
     * of {@code min(max(p, lo), hi)}, {@code max(min(p, hi), lo)} (fminf/fmaxf alike) or a nested conditional of its
     * parameter {@code p}; it limits both bounds. "clip() in [0, 255]" when both bounds are constants, else with the
     * bounds as written ("clip() (between F(minval<I>()) and F(maxval<I>()))": the destination type's, for a helper
     * instantiated with it). Null for anything else, a helper that clamps one side included.
     */
    static String clampHelper(ClangUnit unit, ClangNode call) {
        ClangNode lambda = lambda(unit, call);
        if (lambda != null) {
            Bounds b = bounds(unit, lambda);
            return b == null ? null : describe(unit, strip(call.children.get(0)).spelling, call, b);
        }
        String name = callee(call);
        if (name.isEmpty() || ClangUnit.CLAMPS.contains(name)) return null;
        return withSummaries(unit, name, b -> describe(unit, name, call, b));
    }

    /**
     * The lambda expression a call of a local closure runs, or null: {@code auto clamp = [](float x) { return x < 0 ? 0
     * : x > 1 ? 1 : x; };} before {@code image[i] = clamp(rgb.x) * 255.0} (session 84 round AB: a ray tracer's pixel
     * clamp, a false NL001 error). The call is the closure's {@code operator()}, on a variable of the function whose
     * initializer is the lambda expression (a closure type has no assignment: the variable keeps that lambda).
     */
    private static ClangNode lambda(ClangUnit unit, ClangNode call) {
        if (!"operator()".equals(call.spelling) || call.children.size() < 2) return null;
        ClangNode obj = strip(call.children.get(0));
        ClangUnit.Function fn = unit.functionOf(call);
        if (obj == null || obj.kind != CXCursor_DeclRefExpr || obj.refUsr == null || fn == null) return null;
        ClangNode[] found = {null};
        fn.node().forEach(n -> {
            if (n.kind != CXCursor_VarDecl || !obj.refUsr.equals(n.usr) || n.children.isEmpty()) return;
            ClangNode init = strip(n.children.get(n.children.size() - 1));
            if (init != null && init.kind == CXCursor_LambdaExpr) found[0] = init;
        });
        return found[0];
    }

    /** The arguments of {@code call}: after the closure and its call operator for a lambda's ({@link #lambda}). */
    private static List<ClangNode> args(ClangNode call) {
        return "operator()".equals(call.spelling) && call.children.size() >= 2
                ? call.children.subList(2, call.children.size())
                : arguments(call);
    }

    /**
     * {@link #helpers}, else {@code f} of the bounds the parse summarised for a helper of a header that is no unit of
     * this parse ({@link #summary}), or null.
     */
    private static <T> T withSummaries(ClangUnit unit, String name, java.util.function.Function<Bounds, T> f) {
        T t = helpers(unit, name, f);
        if (t != null) return t;
        String kind = ClangHeaderHelpers.of(unit).get(name);
        Bounds b = kind == null ? null : Bounds.parse(kind);
        return b == null ? null : f.apply(b);
    }

    /**
     * The bounds of a clamp helper, each a parameter's index ({@code param[k] >= 0}) or, for a bound written in the
     * helper, its constant value and text (either may be null).
     */
    record Bounds(int[] param, Double[] constant, String[] text, int swappable) {
        /**
         * "clamp A B [S]", each side a parameter's index or "=" and a constant, S the index of a parameter that may
         * trade places with the lower bound's ({@link #summary}), or null.
         */
        static Bounds parse(String summary) {
            String[] w = summary.split(" ");
            if (w.length != 3 && w.length != 4 || !w[0].equals("clamp")) return null;
            int[] param = new int[2];
            Double[] constant = new Double[2];
            try {
                for (int k = 0; k < 2; k++) {
                    if (w[k + 1].startsWith("=")) {
                        param[k] = -1;
                        constant[k] = Double.valueOf(w[k + 1].substring(1));
                    } else param[k] = Integer.parseInt(w[k + 1]);
                }
                int swappable = w.length == 4 ? Integer.parseInt(w[3]) : -1;
                return new Bounds(param, constant, new String[2], swappable);
            } catch (NumberFormatException bad) {
                return null;
            }
        }
    }

    /**
     * The summary of a definition read from another file of the parse (a header that is no unit here, {@link
     * ClangHeaderHelpers}): "clamp A B" when it is a clamp helper whose bounds are parameters or constants, else null.
     */
    static String summary(ClangNode fn, Map<String, String> known) {
        Bounds b = bounds(null, fn, known);
        if (b == null) return null;
        StringBuilder out = new StringBuilder("clamp");
        for (int k = 0; k < 2; k++) {
            if (b.param()[k] >= 0) out.append(' ').append(b.param()[k]);
            else if (b.constant()[k] != null) out.append(" =").append(b.constant()[k]);
            else return null;
        }
        if (b.swappable() >= 0) out.append(' ').append(b.swappable());
        return out.toString();
    }

    /**
     * The lower bound of a call of a clamp helper: the index of the argument it clamps (the one parameter that is no
     * bound), and the bound as the call's argument for it ({@code arg}) or as a constant of the helper.
     */
    record Lower(int value, ClangNode arg, Double constant) {}

    /**
     * {@link Lower} of {@code call} when it calls a clamp helper of this parse or a summarised one, else null. The
     * argument at {@code clamped} is the value where the helper's lower bound and its value are the two operands of
     * one max ({@code x265_clip3(minVal, maxVal, a)} = {@code min(max(minVal, a), maxVal)}: either is the bound).
     */
    static Lower lower(ClangUnit unit, ClangNode call, int clamped) {
        String name = callee(call);
        if (name.isEmpty() || ClangUnit.CLAMPS.contains(name)) return null;
        return withSummaries(unit, name, b -> {
            List<ClangNode> args = arguments(call);
            int value = -1;
            for (int i = 0; i < args.size(); i++) {
                if (i == b.param()[0] || i == b.param()[1]) continue;
                if (value >= 0) return null; // two arguments that are no bound
                value = i;
            }
            int at = b.param()[0];
            if (value < 0 || at >= args.size()) return null;
            if (clamped == at && value == b.swappable()) return new Lower(at, args.get(value), null);
            return at >= 0 ? new Lower(value, args.get(at), null) : new Lower(value, null, b.constant()[0]);
        });
    }

    /** The bounds of {@code fn} when it is a clamp helper ({@code u}: its unit, null for a summarised one). */
    private static Bounds bounds(ClangUnit u, ClangNode fn) {
        return bounds(u, fn, Map.of());
    }

    /** {@link #bounds(ClangUnit, ClangNode)} with {@code known}: min and max helpers by name, as the summaries say. */
    private static Bounds bounds(ClangUnit u, ClangNode fn, Map<String, String> known) {
        ClangNode body = null;
        for (ClangNode c : fn.children) if (c.kind == CXCursor_CompoundStmt) body = c;
        if (body == null || body.children.isEmpty() || body.children.size() > 3) return null;
        List<ClangNode> ps = ClangCallSites.parameters(fn);
        java.util.Set<String> params = new java.util.HashSet<>();
        for (ClangNode p : ps) if (p.usr != null) params.add(p.usr);
        ClangNode[] chained = ifElseReturns(body, params);
        ClangNode ret = body.children.get(body.children.size() - 1);
        if (chained == null && (ret.kind != CXCursor_ReturnStmt || ret.children.size() != 1)) return null;
        String[] swappable = {null};
        ClangNode[] bounds = chained != null
                ? chained
                : body.children.size() == 1
                        ? clamp(
                                u,
                                known,
                                ClangTemplates.returnedValue(ret.children.get(0)),
                                params,
                                valueParameter(ps),
                                swappable)
                        : body.children.size() == 2
                                ? ifClamp(body.children.get(0), strip(ret.children.get(0)), params)
                                : ifReturns(body, strip(ret.children.get(0)), params);
        if (bounds == null) return null;
        int swap = -1;
        for (int i = 0; swappable[0] != null && i < ps.size(); i++) if (swappable[0].equals(ps.get(i).usr)) swap = i;
        int[] param = {-1, -1};
        Double[] constant = new Double[2];
        String[] text = new String[2];
        for (int k = 0; k < 2; k++) {
            ClangNode b = strip(bounds[k]);
            for (int i = 0; b != null && b.kind == CXCursor_DeclRefExpr && i < ps.size(); i++) {
                if (ps.get(i).usr != null && ps.get(i).usr.equals(b.refUsr)) param[k] = i;
            }
            if (param[k] < 0) {
                constant[k] = constant(bounds[k]);
                text[k] = u == null ? null : u.text(bounds[k]);
            }
        }
        return new Bounds(param, constant, text, param[0] >= 0 ? swap : -1);
    }

    /** A parameter's name that says it is a lower bound ({@code minVal}, {@code lo}, {@code lower}). */
    private static final java.util.regex.Pattern LOWER_NAME =
            java.util.regex.Pattern.compile("(?i)(?:.*(?:min|lower|floor).*|lo|low|l|mn|lb|a_min|from)");

    /**
     * The USR of the parameter a clamp helper most likely clamps where its body cannot tell (both operands of its
     * inner max are parameters): the first parameter whose name says no lower bound ({@code x265_clip3(minVal,
     * maxVal, a)}: {@code a}), else the first ({@code bl_clamp(a, b, c)}).
     */
    private static String valueParameter(List<ClangNode> ps) {
        for (ClangNode p : ps) {
            if (p.usr != null
                    && !LOWER_NAME.matcher(p.spelling).matches()
                    && !p.spelling.toLowerCase().contains("max")) return p.usr;
        }
        return ps.isEmpty() ? null : ps.get(0).usr;
    }

    /** The guard a call of the clamp helper {@code name} with bounds {@code b} gives, or null. */
    private static String describe(ClangUnit unit, String name, ClangNode call, Bounds b) {
        // a bound that is a parameter (dtClamp(v, mn, mx)) is the call's argument for it
        String[] text = new String[2];
        Double[] value = new Double[2];
        List<ClangNode> args = args(call);
        for (int k = 0; k < 2; k++) {
            int at = b.param()[k];
            if (at >= args.size()) return null;
            text[k] = at >= 0 ? unit.text(args.get(at)) : b.text()[k];
            value[k] = at >= 0 ? constant(args.get(at)) : b.constant()[k];
        }
        if (value[0] != null && value[1] != null)
            return name + "() in [" + bound(value[0]) + ", " + bound(value[1]) + "]";
        if (text[0] == null || text[1] == null) return null;
        return name + "() (between " + text[0] + " and " + text[1] + ")";
    }

    /**
     * {lo, hi} of {@code if (v < lo) v = lo; else if (v > hi) v = hi;} before {@code return v;} with {@code v} a
     * parameter (either test first, {@code <=} and {@code >=} alike; bc7enc_rdo's {@code clampf}), or null.
     */
    private static ClangNode[] ifClamp(ClangNode st, ClangNode ret, java.util.Set<String> params) {
        if (st.kind != CXCursor_IfStmt || st.children.size() != 3 || ret == null || ret.kind != CXCursor_DeclRefExpr)
            return null;
        ClangNode inner = soleStatement(st.children.get(2));
        if (inner == null || inner.kind != CXCursor_IfStmt || inner.children.size() != 2) return null;
        if (ret.refUsr == null || !params.contains(ret.refUsr)) return null;
        ClangNode[] out = new ClangNode[2];
        for (ClangNode branch : List.of(st, inner)) {
            ClangNode t = strip(branch.children.get(0));
            ClangNode set = soleStatement(branch.children.get(1));
            ClangNode a = set == null ? null : strip(set);
            if (a == null || a.kind != CXCursor_BinaryOperator || !a.spelling.equals("=") || a.children.size() != 2)
                return null;
            ClangNode lhs = strip(a.children.get(0));
            if (lhs == null || !ret.refUsr.equals(lhs.refUsr)) return null;
            Sided b = sided(t, ret.refUsr, a.children.get(1));
            if (b == null || out[b.side()] != null) return null;
            out[b.side()] = b.bound();
        }
        return out[0] != null && out[1] != null ? out : null;
    }

    /**
     * {lo, hi} of {@code if (v < lo) return lo; if (v > hi) return hi; return v;} with {@code v} a parameter (either
     * test first, {@code <=} and {@code >=} alike, the bound on either side; session 75 round G: a rasterizer's
     * {@code clamp_01}), or null.
     */
    private static ClangNode[] ifReturns(ClangNode body, ClangNode ret, java.util.Set<String> params) {
        if (ret == null || ret.kind != CXCursor_DeclRefExpr || ret.refUsr == null || !params.contains(ret.refUsr))
            return null;
        ClangNode[] out = new ClangNode[2];
        for (int k = 0; k < 2; k++) {
            ClangNode st = body.children.get(k);
            if (st.kind != CXCursor_IfStmt || st.children.size() != 2) return null;
            ClangNode r = soleStatement(st.children.get(1));
            ClangNode t = strip(st.children.get(0));
            if (r == null || r.kind != CXCursor_ReturnStmt || r.children.size() != 1) return null;
            Sided b = sided(t, ret.refUsr, r.children.get(0));
            if (b == null || out[b.side()] != null) return null;
            out[b.side()] = b.bound();
        }
        return out;
    }

    /**
     * {lo, hi} of {@code if (v < lo) return lo; else if (v > hi) return hi; else return v;} (the last return inside
     * the chain or after it) with {@code v} a parameter (either test first, {@code <=} and {@code >=} alike, the bound
     * on either side; session 78 round A: a renderer's {@code Clamp(val, low, high)} template, whose clamp of
     * {@code 255.f * v + 0.5f} to [0, 255] before a {@code uint8_t} conversion was not seen), or null.
     */
    private static ClangNode[] ifElseReturns(ClangNode body, java.util.Set<String> params) {
        if (body.children.size() > 2) return null;
        ClangNode st = body.children.get(0);
        ClangNode[][] tests = new ClangNode[2][];
        ClangNode last = null;
        for (int k = 0; k < 2; k++) {
            if (st == null || st.kind != CXCursor_IfStmt || st.children.size() < 2) return null;
            ClangNode r = soleStatement(st.children.get(1));
            if (r == null || r.kind != CXCursor_ReturnStmt || r.children.size() != 1) return null;
            tests[k] = new ClangNode[] {strip(st.children.get(0)), r.children.get(0)};
            ClangNode els = st.children.size() == 3 ? soleStatement(st.children.get(2)) : null;
            if (k == 0 && els == null) return null;
            if (k == 0) st = els;
            else last = els;
        }
        ClangNode ret = body.children.size() == 1 ? last : last == null ? body.children.get(1) : null;
        if (ret == null || ret.kind != CXCursor_ReturnStmt || ret.children.size() != 1) return null;
        ClangNode v = strip(ret.children.get(0));
        if (v == null || v.kind != CXCursor_DeclRefExpr || v.refUsr == null || !params.contains(v.refUsr)) return null;
        ClangNode[] out = new ClangNode[2];
        for (ClangNode[] t : tests) {
            Sided b = sided(t[0], v.refUsr, t[1]);
            if (b == null || out[b.side()] != null) return null;
            out[b.side()] = b.bound();
        }
        return out;
    }

    /** A bound of a clamp and its side (0 lower, 1 upper). */
    private record Sided(int side, ClangNode bound) {}

    /**
     * The bound that the test {@code t} compares the variable {@code usr} with, when the branch gives it {@code value}
     * (that bound), and its side: {@code v < b} (or {@code b > v}) sets the lower bound, {@code v > b} the upper
     * ({@code <=} and {@code >=} alike); else null.
     */
    private static Sided sided(ClangNode t, String usr, ClangNode value) {
        if (t == null || t.kind != CXCursor_BinaryOperator || t.children.size() != 2) return null;
        ClangNode l = strip(t.children.get(0)), r = strip(t.children.get(1));
        boolean left = l != null && usr.equals(l.refUsr);
        if (!left && (r == null || !usr.equals(r.refUsr))) return null;
        ClangNode bound = left ? t.children.get(1) : t.children.get(0);
        if (!ClangSyntax.sameTree(strip(bound), strip(value))) return null;
        boolean less = t.spelling.startsWith("<");
        if (!less && !t.spelling.startsWith(">") || t.spelling.length() > 2) return null;
        return new Sided(less == left ? 0 : 1, bound);
    }

    /**
     * The interval a call of a clamp helper of this parse returns: from the lower bound's least value to the upper
     * bound's greatest ({@code saturate(x)} = {@code clampf(x, 0, 1.0f)} is in [0, 1]; a NaN passes a clamp, and
     * converts to 0 on x86 and the GPU alike up to 32 bits, as NL001's clamp rule takes it), or null.
     */
    static double[] interval(ClangUnit unit, ClangNode call, java.util.function.Function<ClangNode, double[]> eval) {
        ClangNode lambda = lambda(unit, call);
        String name = callee(call);
        if (lambda == null && (name.isEmpty() || ClangUnit.CLAMPS.contains(name))) return null;
        java.util.function.Function<Bounds, double[]> of = b -> {
            List<ClangNode> args = args(call);
            double[] r = new double[2];
            for (int k = 0; k < 2; k++) {
                int at = b.param()[k];
                if (at >= args.size()) return null;
                double[] v = at >= 0
                        ? eval.apply(args.get(at))
                        : b.constant()[k] == null ? null : new double[] {b.constant()[k], b.constant()[k]};
                if (v == null) return null;
                r[k] = k == 0 ? v[0] : v[1];
            }
            return Double.isInfinite(r[0]) && Double.isInfinite(r[1]) || r[0] > r[1] ? null : r;
        };
        if (lambda == null) return helpers(unit, name, of);
        Bounds b = bounds(unit, lambda);
        return b == null ? null : of.apply(b);
    }

    /**
     * The first answer of {@code f} for the bounds of a clamp helper named {@code name}: the unit's functions and
     * those of the project headers read in its parse (recast's dtClamp in DetourCommon.h), each with the unit whose
     * text it is; null when none answers.
     */
    private static <T> T helpers(ClangUnit unit, String name, java.util.function.Function<Bounds, T> f) {
        for (ClangUnit u : ClangIncludes.sameParse(unit)) {
            if (u.failure() != null) continue;
            for (ClangUnit.Function fn : u.functions()) {
                if (!fn.node().spelling.equals(name)) continue;
                Bounds b = bounds(u, fn.node());
                T t = b == null ? null : f.apply(b);
                if (t != null) return t;
            }
        }
        return null;
    }

    /**
     * {lo, hi} of a two-sided clamp of one of {@code params}, or null. Where both operands of the inner min or max are
     * parameters ({@code min(c, max(b, a))}), the clamped value is the helper's first parameter, {@code first}, as in
     * {@code clamp(v, lo, hi)} (blend2d's {@code bl_clamp(a, b, c)}).
     */
    private static ClangNode[] clamp(
            ClangUnit unit,
            Map<String, String> known,
            ClangNode e,
            java.util.Set<String> params,
            String first,
            String[] swappable) {
        if (e == null) return null;
        if (e.kind == CXCursor_CallExpr) {
            String outer = callee(e);
            boolean upper = isMin(unit, known, outer);
            if (!upper && !isMax(unit, known, outer)) return null;
            List<ClangNode> args = arguments(e);
            if (args.size() != 2) return null;
            for (int i = 0; i < 2; i++) {
                ClangNode inner = strip(args.get(i));
                if (inner == null || inner.kind != CXCursor_CallExpr) continue;
                String in = callee(inner);
                if (!(upper ? isMax(unit, known, in) : isMin(unit, known, in))) continue;
                List<ClangNode> ia = arguments(inner);
                if (ia.size() != 2) continue;
                boolean both = reads(ia.get(0), params) && reads(ia.get(1), params);
                for (int j = 0; j < 2; j++) {
                    if (!reads(ia.get(j), params)) continue;
                    if (both && first != null && !reads(ia.get(j), java.util.Set.of(first))) continue;
                    ClangNode innerBound = ia.get(1 - j);
                    ClangNode outerBound = args.get(1 - i);
                    // the value and the inner bound are the two operands of one call: either may be the value
                    ClangNode v = strip(ia.get(j));
                    if (both && upper && v != null && v.kind == CXCursor_DeclRefExpr) swappable[0] = v.refUsr;
                    return upper ? new ClangNode[] {innerBound, outerBound} : new ClangNode[] {outerBound, innerBound};
                }
            }
            return null;
        }
        if (e.kind == CXCursor_ConditionalOperator && e.children.size() == 3) {
            // x < lo ? lo : (x > hi ? hi : x): a conditional whose other branch is a conditional ending in the
            // parameter
            ClangNode a = strip(e.children.get(1));
            ClangNode b = strip(e.children.get(2));
            ClangNode nested = b != null && b.kind == CXCursor_ConditionalOperator ? b : a;
            ClangNode bound = nested == b ? a : b;
            if (nested == null || nested.kind != CXCursor_ConditionalOperator || nested.children.size() != 3)
                return null;
            ClangNode x = strip(nested.children.get(2));
            ClangNode y = strip(nested.children.get(1));
            ClangNode other = reads(x, params) ? y : reads(y, params) ? x : null;
            if (other == null || !reads(strip(e.children.get(0)), params)) return null;
            // the value's own variable as a bound (v > mx ? v : v) is no bound
            ClangNode value = other == y ? x : y;
            if (sameVariable(other, value) || sameVariable(bound, value)) return null;
            Double p = constant(bound);
            Double q = constant(other);
            if (p != null && q != null && p > q) return new ClangNode[] {other, bound};
            return new ClangNode[] {bound, other};
        }
        return null;
    }

    private static boolean sameVariable(ClangNode a, ClangNode b) {
        ClangNode x = strip(a), y = strip(b);
        return x != null
                && y != null
                && x.kind == CXCursor_DeclRefExpr
                && y.kind == CXCursor_DeclRefExpr
                && x.refUsr != null
                && x.refUsr.equals(y.refUsr);
    }

    private static boolean isMin(ClangUnit unit, Map<String, String> known, String name) {
        return UPPER.contains(name)
                || "min".equals(known.get(name))
                || unit != null && "min".equals(ClangTemplates.minMaxHelper(unit, name));
    }

    private static boolean isMax(ClangUnit unit, Map<String, String> known, String name) {
        return LOWER.contains(name)
                || "max".equals(known.get(name))
                || unit != null && "max".equals(ClangTemplates.minMaxHelper(unit, name));
    }

    /** Whether {@code e} (under casts and wrappers) is one of {@code params}, or a test that reads one. */
    private static boolean reads(ClangNode e, java.util.Set<String> params) {
        boolean[] found = new boolean[1];
        if (e != null)
            e.forEach(x -> {
                if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null && params.contains(x.refUsr)) found[0] = true;
            });
        return found[0];
    }

    static String bound(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
