package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static dev.numlint.knowledge.ValueBounds.unknown;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.knowledge.ValueBounds;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Value intervals of expressions in a {@link ClangUnit}: what an expression's own construction proves about its value
 * (constants, integer types, functions with a bounded result, clamps, + - * / % of these, the sign of a product of
 * paired factors ({@link ClangSquares}: {@code -x * x}), the definition of a local or value parameter that reaches the
 * use, narrowed by a guard ({@code if (r < 0) r = 0;}), a for counter stepped up from its initializer, the elements of
 * a local array or heap buffer ({@link ClangLocalArrays}), the thread's index in the grid), the interval arithmetic of
 * {@link ValueBounds} on Clang's nodes. A value the analysis cannot bound is {@code [-inf, inf]}.
 */
final class ClangIntervals {
    private static final double INF = ValueBounds.INF;
    private static final int DEPTH = 10; // 8 ran out on pow(a_rec * (g + a), k) of a counter (session 53)

    private final ClangUnit unit;
    private final ClangCallSites callSites;
    private final ClangLocalArrays arrays;

    /** Members of local structures ({@link ClangFieldValues}). */
    final ClangFieldValues fields;

    ClangIntervals(ClangUnit unit) {
        this.unit = unit;
        this.callSites = new ClangCallSites(unit, this);
        this.arrays = new ClangLocalArrays(unit, this);
        this.fields = new ClangFieldValues(unit, this);
    }

    /** The variables each statement writes, read once ({@link ClangWrites}). */
    private final ClangWrites writes = new ClangWrites();

    private boolean writesIn(ClangNode n, String usr) {
        return writes.in(n, usr);
    }

    /** {@link #of} with a depth left: for {@link ClangLocalArrays}' stored values. */
    double[] of(ClangNode n, ClangUnit.Function fn, int depth) {
        return eval(n, fn, depth);
    }

    /** The parameter intervals from call sites this analysis reads ({@link ClangCallSites}). */
    ClangCallSites callSites() {
        return callSites;
    }

    /** The interval of the value of {@code n} in {@code fn}. */
    double[] of(ClangNode n, ClangUnit.Function fn) {
        return ClangIntervalMemo.query(() -> eval(n, fn, DEPTH));
    }

    private double[] eval(ClangNode n, ClangUnit.Function fn, int depth) {
        return n == null || depth < 0 ? unknown() : ClangIntervalMemo.of(n, fn, depth, () -> typed(n, fn, depth));
    }

    private double[] typed(ClangNode n, ClangUnit.Function fn, int depth) {
        double[] r = raw(n, fn, depth);
        if (Double.isNaN(r[0])) r[0] = -INF;
        if (Double.isNaN(r[1])) r[1] = INF;
        // an integer value outside its type's range wraps or overflows: the whole type
        if (integral(n.canonKind)) {
            double[] t = ValueBounds.ofInteger(bytes(n.canonKind), unsignedKind(n.canonKind));
            // signed overflow is undefined, compilers assume none: 2 * w + 1, w >= 2, is at least 5 (session 76)
            if (t != null && signedArithmetic(n) && r[0] <= t[1] && r[1] >= t[0])
                return new double[] {Math.max(r[0], t[0]), Math.min(r[1], t[1])};
            if (t != null && (r[0] < t[0] || r[1] > t[1])) return t;
        } else if (n.canonKind == CXType_Bool) {
            if (r[0] < 0 || r[1] > 1) return new double[] {0, 1};
        }
        return r;
    }

    private double[] raw(ClangNode n, ClangUnit.Function fn, int depth) {
        if (n.value != null) return new double[] {n.value, n.value};
        switch (n.kind) {
            case CXCursor_ParenExpr, CXCursor_UnexposedExpr -> {
                if (n.children.size() != 1) return unknown();
                if (ClangGridIndexes.signedIndex(unit, n, n.children.get(0)))
                    return new double[] {0, Integer.MAX_VALUE};
                double[] x = eval(n.children.get(0), fn, depth);
                return integral(n.canonKind) ? truncated(x) : x;
            }
            case CXCursor_CStyleCastExpr, CXCursor_CXXStaticCastExpr, CXCursor_CXXFunctionalCastExpr -> {
                ClangNode op = n.children.isEmpty() ? null : n.children.get(n.children.size() - 1);
                if (ClangGridIndexes.signedIndex(unit, n, op)) return new double[] {0, Integer.MAX_VALUE};
                double[] x = eval(op, fn, depth);
                return integral(n.canonKind) ? truncated(x) : x;
            }
            case CXCursor_UnaryOperator -> {
                if (n.children.size() != 1) return unknown();
                double[] x = eval(n.children.get(0), fn, depth);
                return switch (n.spelling) {
                    case "-" -> new double[] {-x[1], -x[0]};
                    case "+" -> x;
                    case "!" -> new double[] {0, 1};
                    case "*" -> forwarded(n, fn, depth); // *pd read back right after '*pd = (float)*ps;'
                    default -> unknown();
                };
            }
            case CXCursor_BinaryOperator -> {
                double[] mask = ClangFractions.masked(n);
                if (mask == null) mask = ClangShifts.of(n, e -> eval(e, fn, depth - 1)); // (hi << 8) + lo, x >> k
                int low = mask == null ? ClangFractions.lowBits(n) : -1; // r - ((r >> k) << k): the low k bits
                if (low > 0) mask = new double[] {0, Math.pow(2, low) - 1};
                low = mask == null ? ClangFractions.lowBitsInFloat(n) : -1; // l - (float)((l >> 16) << 16)
                if (low > 0) mask = new double[] {0, Math.pow(2, low)};
                if (mask != null) return mask;
                if (n.spelling.equals("=") && n.children.size() == 2) { // an assignment's value (rc = col = 0)
                    double[] v = eval(n.children.get(1), fn, depth - 1);
                    return integral(n.canonKind) ? truncated(v) : v; // converted as a cast converts
                }
                if (n.children.size() != 2 || n.spelling.length() != 1 || "+-*/%".indexOf(n.spelling.charAt(0)) < 0)
                    return comparison(n) ? new double[] {0, 1} : unknown();
                double[] frac = ClangFractions.modulo(unit, n);
                if (frac == null && fn != null)
                    frac = ClangFractions.or(fractionalPart(n, fn), n, e -> eval(e, fn, depth - 1));
                if (frac != null) return frac;
                double[] lerp = fn == null ? null : convexCombination(n, fn, depth);
                if (lerp == null) lerp = ClangConvexWeights.lerp(this, n, fn, e -> eval(e, fn, depth - 1));
                if (lerp != null) return lerp;
                double[] ratio = n.spelling.equals("/") ? ClangExtremes.ratio(unit, n, fn) : null;
                if (ratio == null && n.spelling.equals("/") && fn != null)
                    ratio = ClangCounterRatios.ratio(unit, n, (loop, ref) -> counter(loop, ref, fn, depth));
                if (ratio == null && n.spelling.equals("/")) ratio = ClangCounterRatios.offsetRatio(n);
                if (ratio == null && n.spelling.equals("*") && fn != null) // i * d, d = 255.0 / n before the loop
                ratio = ClangCounterRatios.scaled(unit, n, (loop, ref) -> counter(loop, ref, fn, depth));
                if (ratio == null) ratio = ClangLoopMeans.of(unit, n, fn, e -> eval(e, fn, depth - 1)); // s / n, a mean
                if (ratio != null) return ratio;
                double[] a = eval(n.children.get(0), fn, depth - 1);
                double[] b = eval(n.children.get(1), fn, depth - 1);
                double[] r = ValueBounds.arith(n.spelling.charAt(0), a, b, integral(n.canonKind));
                int sign = n.spelling.equals("*") ? ClangSquares.sign(unit, n) : 0;
                // the reads of one variable on both sides (ClangSameSigns: r / ((r << 1) / k), k > 0)
                if (sign == 0 && r[0] < 0 && r[1] > 0 && (n.spelling.equals("*") || n.spelling.equals("/")))
                    sign = ClangSameSigns.sign(this, n, fn, depth - 1);
                if (sign > 0) r[0] = Math.max(r[0], 0);
                if (sign < 0) r[1] = Math.min(r[1], 0);
                // N + k + 1 - m with m = min(N + 1, cap): at least k (ClangMinDifferences)
                if (r[0] < 0 && (n.spelling.equals("-") || n.spelling.equals("+")) && fn != null) {
                    double least = ClangMinDifferences.lower(n, fn, e -> eval(e, fn, depth - 1));
                    // signed overflow is undefined: a relation of ints holds below the type's upper limit
                    double[] t = integral(n.canonKind) && !unsignedKind(n.canonKind)
                            ? ValueBounds.ofInteger(bytes(n.canonKind), false)
                            : null;
                    if (least > r[0] && least <= r[1]) r = new double[] {least, t == null ? r[1] : t[1]};
                }
                // k1 * a + k2 * b + ... of bilinear weights k1 = 1 - fx - fy + fx * fy, ...: exact at the corners
                double[] m = r[0] < r[1] && n.spelling.charAt(0) != '/' && n.spelling.charAt(0) != '%'
                        ? ClangMultilinear.bound(this, n, fn, e -> eval(e, fn, depth - 1))
                        : null;
                return m == null ? r : new double[] {Math.max(r[0], m[0]), Math.min(r[1], m[1])};
            }
            case CXCursor_StmtExpr -> { // ({ typeof (x) _x = (x); ...; value; }): its last expression's
                ClangNode v = stmtExprValue(n);
                return v == null ? byType(n) : eval(v, fn, depth - 1);
            }
            case CXCursor_ConditionalOperator -> {
                if (n.children.size() != 3) return unknown();
                // a floating branch too, its finite values (x > 1 ? 1 : x is at most 1): a NaN is no value here
                double[] a = underTest(
                        n.children.get(0), true, n.children.get(1), eval(n.children.get(1), fn, depth - 1), true);
                double[] b = underTest(
                        n.children.get(0), false, n.children.get(2), eval(n.children.get(2), fn, depth - 1), true);
                return new double[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])};
            }
            case CXCursor_CallExpr -> {
                String name = callee(n);
                if (name.startsWith("std::")) name = name.substring(5);
                List<double[]> args = new ArrayList<>();
                for (int i = 1; i < n.children.size(); i++) args.add(eval(n.children.get(i), fn, depth - 1));
                ClangExtremes.logOfInteger(name, n, args);
                double[] x = ClangAccumulations.interval(name, n, e -> eval(e, fn, depth - 1));
                if (x == null) x = ClangSquares.ofCall(unit, name, n, args);
                if (x == null) x = ValueBounds.call(name, args);
                if (x == null) x = ClangClampHelpers.interval(unit, n, e -> eval(e, fn, depth - 1));
                if (x == null) x = ClangLibraryValues.interval(unit, n, fn, e -> eval(e, fn, depth - 1));
                if (x == null) x = ClangPushedElements.interval(n, fn, e -> eval(e, fn, depth - 1));
                if (x == null) x = returned(n, args, depth - 1);
                return x == null ? byType(n) : x;
            }
            case CXCursor_DeclRefExpr -> {
                double[] ranged = fn == null ? null : ClangRangeLoops.element(n, fn);
                if (ranged != null) return ranged;
                double[] local = fn == null ? null : reachingDefinition(n, fn, depth);
                if (local == null && fn != null) local = parameter(n, fn);
                if (local == null && fn != null) local = ClangGlobalReads.reaching(n, fn, e -> eval(e, fn, depth - 1));
                if (local == null) local = stored(n);
                double[] r = local != null ? local : byType(n);
                if (fn == null) return r;
                double[] w = ClangWrapLoops.interval(n, fn); // while (d < 0) d += 360; return d;
                if (w != null) r = new double[] {Math.max(r[0], w[0]), Math.min(r[1], w[1])};
                return ClangLoopBoundValues.narrowed(this, n, fn, ClangExitBounds.narrowed(unit, n, fn, r), depth);
            }
            case CXCursor_MemberRefExpr -> {
                double[] x = fn == null ? null : fields.read(n, fn, depth);
                if (x == null) x = stored(n);
                return x != null ? x : byType(n);
            }
            case CXCursor_ArraySubscriptExpr -> {
                double[] local = fn == null ? null : arrays.element(n, fn, depth);
                if (local == null) local = ClangForwardedStores.of(this, n, fn, depth);
                if (local == null && fn != null) local = fields.read(n, fn, depth);
                if (local != null) return local;
                // an element of a field or static global array: what every store of the file to its elements wrote
                ClangNode base = n.children.isEmpty() ? null : strip(n.children.get(0));
                while (base != null && base.kind == CXCursor_ArraySubscriptExpr && !base.children.isEmpty())
                    base = strip(base.children.get(0));
                boolean array = base != null
                        && (base.canonKind == CXType_ConstantArray || base.canonKind == CXType_IncompleteArray);
                double[] x = array ? stored(base) : null;
                if (x == null && array && base.kind == CXCursor_DeclRefExpr) x = ClangTables.bounds(unit, base);
                return x != null ? x : byType(n);
            }
            default -> {
                return byType(n);
            }
        }
    }

    private double[] forwarded(ClangNode n, ClangUnit.Function fn, int depth) {
        double[] x = ClangForwardedStores.of(this, n, fn, depth);
        return x != null ? x : unknown();
    }

    /**
     * The interval of a parameter of {@code fn} that the function neither writes nor aliases: the union of what its
     * call sites pass ({@link ClangCallSites}), or null.
     */
    private double[] parameter(ClangNode ref, ClangUnit.Function fn) {
        if (ref.refUsr == null) return null;
        java.util.Map<String, double[]> bound = BOUND.get();
        if (!bound.isEmpty()) {
            double[] b = bound.get(ref.refUsr);
            return b == null ? null : b.clone();
        }
        List<ClangNode> ps = ClangCallSites.parameters(fn.node());
        int index = -1;
        for (int i = 0; i < ps.size(); i++) if (ref.refUsr.equals(ps.get(i).usr)) index = i;
        if (index < 0) return null;
        return changedIn(fn, ref.refUsr) ? null : callSites.param(fn, index);
    }

    /**
     * The interval every store of this file to the field or static global {@code ref} names proves ({@link
     * ClangStores}), or null.
     */
    private double[] stored(ClangNode ref) {
        if (binding() || ClangLocalArrays.assuming()) return null;
        ClangStores.Stored s = unit.stores(ref);
        return s == null ? null : new double[] {s.lo(), s.hi()};
    }

    /**
     * {@code x - floor(x)}, directly or through a local {@code k = floor(x)} (an int one too: {@code int x0 =
     * floor(x); float w = x - (float)x0;}), with {@code x} and {@code k} written nowhere else in {@code fn}: the
     * fractional part, in [0, 1] (session 50 round J: the weights of a bilinear interpolation); {@code x - (long)x},
     * {@code x - trunc(x)}: of the sign of x, in [-1, 1] (session 59 round D: a pitch bend's fraction of a halftone);
     * {@code ceil(x) - x}: in [0, 1) (session 64 round F).
     * Null for any other difference.
     */
    private double[] fractionalPart(ClangNode minus, ClangUnit.Function fn) {
        if (!minus.spelling.equals("-") || !floating(minus.canonKind)) return null;
        if (ClangFractions.ceilingGap(minus.children.get(0), minus.children.get(1))) return new double[] {0, 1};
        ClangNode x = uncastAll(minus.children.get(0));
        if (x == null || x.kind != CXCursor_DeclRefExpr || x.refUsr == null) return null;
        Definitions defs = definitions(fn);
        int whole = ClangFractions.wholePart(minus.children.get(1), x.refUsr);
        ClangNode f = uncastAll(minus.children.get(1));
        if (whole == 0 && f != null && f.kind == CXCursor_DeclRefExpr && f.refUsr != null) {
            // the local's one definition: its declaration's initializer, and no write after it
            ClangNode init = defs.initial().get(f.refUsr);
            if (init == null
                    || defs.written().contains(f.refUsr)
                    || !unaliasedLocals(fn).contains(f.refUsr)) return null;
            whole = ClangFractions.wholePart(init, x.refUsr);
        }
        if (whole == 0 || defs.written().contains(x.refUsr)) return null;
        // x - floor(x) in [0, 1); x - (long)x, x - trunc(x) of the sign of x, in (-1, 1): in [0, 1) where a test
        // proves x not negative (if (src_x >= 0 && ...) { int x0 = (int)src_x; float fx = src_x - x0; }, session 83)
        boolean up = whole > 0 || ClangSignGuards.provesThroughParts(unit, x, fn, true);
        return up ? new double[] {0, 1} : new double[] {-1, 1};
    }

    /**
     * The initializers of {@code fn}'s variable declarations, and the variables (USRs) written or aliased after
     * their declaration: once per function.
     */
    record Definitions(java.util.Map<String, ClangNode> initial, Set<String> written) {}

    Definitions definitions(ClangUnit.Function fn) {
        return unit.perFunction("interval-definitions", fn.node(), () -> {
            java.util.Map<String, ClangNode> init = new java.util.HashMap<>();
            Set<String> written = new HashSet<>();
            fn.node().forEach(d -> {
                if (d.kind == CXCursor_VarDecl && d.usr != null && !d.children.isEmpty())
                    init.put(d.usr, d.children.get(d.children.size() - 1));
                if (d.kind == CXCursor_DeclRefExpr && d.refUsr != null && (ClangSyntax.written(d) || aliases(d)))
                    written.add(d.refUsr);
            });
            return new Definitions(init, written);
        });
    }

    /**
     * {@code a * (1 - w) + b * w} (the factors in either order) with {@code w} in [0, 1]: a point between {@code a}
     * and {@code b}, in the hull of their intervals (a linear interpolation; the rounding of the products and the sum
     * moves it by a few ulp, kept by a margin of 2^-20 of the bounds). Null for any other sum.
     */
    private double[] convexCombination(ClangNode plus, ClangUnit.Function fn, int depth) {
        if (!plus.spelling.equals("+") || !floating(plus.canonKind)) return null;
        if (!product(strip(plus.children.get(0))) || !product(strip(plus.children.get(1)))) return null;
        // the complement's product first or second: a * (1 - w) + b * w, a * w + b * (1 - w) (session 78 round D: a
        // gradient's blend of two bars' colours, written both ways in one function; only one order was seen)
        for (int s = 0; s < 4; s++) {
            ClangNode l = strip(plus.children.get(s / 2));
            ClangNode r = strip(plus.children.get(1 - s / 2));
            int i = s % 2;
            for (int j = 0; j < 2; j++) {
                ClangNode w = strip(r.children.get(j));
                ClangNode u = strip(l.children.get(i));
                if (w == null || u == null || !ClangConvexWeights.complement(unit, this, u, w, fn)) continue;
                double[] ww = eval(w, fn, depth - 1);
                if (ww[0] < 0 || ww[1] > 1) continue;
                double[] a = eval(l.children.get(1 - i), fn, depth - 1);
                double[] b = eval(r.children.get(1 - j), fn, depth - 1);
                double lo = Math.min(a[0], b[0]);
                double hi = Math.max(a[1], b[1]);
                return ClangConvexWeights.rounded(lo, hi, plus.canonKind);
            }
        }
        return null;
    }

    private static boolean product(ClangNode n) {
        return n != null && n.kind == CXCursor_BinaryOperator && n.spelling.equals("*") && n.children.size() == 2;
    }

    /** The interval of an integer conversion of a value in {@code x}: truncated toward zero. */
    private static double[] truncated(double[] x) {
        return new double[] {trunc(x[0]), trunc(x[1])};
    }

    private static double trunc(double v) {
        return Double.isInfinite(v) ? v : v < 0 ? Math.ceil(v) : Math.floor(v);
    }

    private static boolean comparison(ClangNode n) {
        return isComparison(n.spelling)
                || n.spelling.equals("==")
                || n.spelling.equals("&&")
                || n.spelling.equals("||");
    }

    /** An integer-typed value without more knowledge: its type's values; any other: unknown. */
    /**
     * What a call of a function this unit, or a unit read from the same parse, defines returns: the union of its
     * return statements' intervals in it (a getter {@code float get_nbits() const { return nbits; }} of an unsigned
     * char member: [0, 255]; a helper {@code double sq(double v) { return v * v; }}: [0, inf]); null when the callee
     * is not defined there, returns nothing, or the union is unbounded on both sides.
     * Not memoised: the depth bounds a chain of calls and a recursion, and the answer never depends on which thread
     * asked first.
     */
    private double[] returned(ClangNode call, List<double[]> args, int depth) {
        if (call.refUsr == null || depth < 0) return null;
        Callee c = defining(call.refUsr);
        return c == null
                ? null
                : bound(c.function(), args, () -> c.unit().intervals.returnedBy(c.function(), depth));
    }

    /**
     * {@code body}'s answer with the arguments' intervals bound to the parameters of {@code callee} that it neither
     * writes nor aliases: a helper's return seen for this call ({@code flerpf(u8, u8, frac)} is in [0, 255]), not for
     * every caller.
     */
    <T> T bound(ClangUnit.Function callee, List<double[]> args, java.util.function.Supplier<T> body) {
        List<ClangNode> ps = ClangCallSites.parameters(callee.node());
        java.util.Map<String, double[]> bound = BOUND.get();
        java.util.Map<String, double[]> saved = new java.util.HashMap<>();
        if (args != null && ps.size() == args.size()) {
            for (int i = 0; i < ps.size(); i++) {
                String usr = ps.get(i).usr;
                double[] a = args.get(i);
                if (usr == null || a[0] == -INF && a[1] == INF || changedIn(callee, usr)) continue;
                saved.put(usr, bound.get(usr));
                bound.put(usr, a.clone());
            }
        }
        try {
            return body.get();
        } finally {
            saved.forEach((usr, old) -> {
                if (old == null) bound.remove(usr);
                else bound.put(usr, old);
            });
        }
    }

    /** A function this unit or its parse defines, with its unit. */
    record Callee(ClangUnit.Function function, ClangUnit unit) {}

    /** The definition {@code usr} names in this unit or the units of its parse, or null. */
    Callee defining(String usr) {
        if (usr == null) return null;
        Defined d = defined;
        if (d == null) defined = d = defined();
        ClangUnit.Function f = d.functions.get(usr);
        return f == null ? null : new Callee(f, d.units.get(usr));
    }

    /** Whether parameters or a receiver are bound on this thread: memoised answers are then left alone. */
    static boolean binding() {
        return !BOUND.get().isEmpty() || ClangFieldValues.receiving() || ClangTypeArguments.bound();
    }

    /**
     * Parameters bound to a call's argument intervals while that call's callee is evaluated ({@link #returned}), per
     * thread, across the units of a parse. While any is bound, call-site unions and stored fields (both memoised) are
     * not consulted, so that no memoised answer depends on one call.
     */
    private static final ThreadLocal<java.util.Map<String, double[]>> BOUND =
            ThreadLocal.withInitial(java.util.HashMap::new);

    private static boolean changedIn(ClangUnit.Function fn, String usr) {
        boolean[] changed = new boolean[1];
        fn.node().forEach(x -> {
            if (x.kind == CXCursor_DeclRefExpr && usr.equals(x.refUsr) && (written(x) || aliases(x))) changed[0] = true;
        });
        return changed[0];
    }

    /** What the call {@code call} returns when this unit or its parse defines the callee ({@link #returned}). */
    double[] returnedFrom(ClangNode call) {
        return returned(call, null, DEPTH);
    }

    /** What {@code callee}, a function of this unit, returns ({@link #returned}; {@link ClangExhaustiveSwitches}). */
    double[] returnedBy(ClangUnit.Function callee, int depth) {
        List<ClangNode> rs = new ArrayList<>();
        callee.node().forEach(x -> {
            if (x.kind == CXCursor_ReturnStmt && !x.children.isEmpty()) rs.add(x);
        });
        double lo = INF;
        double hi = -INF;
        for (ClangNode r : rs) {
            if (unit.functionOf(r) != callee || ClangExhaustiveSwitches.after(unit, r)) continue;
            double[] v = eval(r.children.get(0), callee, depth);
            if (v[0] == -INF && v[1] == INF) return null;
            lo = Math.min(lo, v[0]);
            hi = Math.max(hi, v[1]);
        }
        return lo > hi || lo == -INF && hi == INF ? null : new double[] {lo, hi};
    }

    /** The functions this unit and the units of its parse define, by unified symbol name, with their units. */
    private record Defined(
            java.util.Map<String, ClangUnit.Function> functions, java.util.Map<String, ClangUnit> units) {}

    private volatile Defined defined;

    private Defined defined() {
        java.util.Map<String, ClangUnit.Function> m = new java.util.HashMap<>();
        java.util.Map<String, ClangUnit> of = new java.util.HashMap<>();
        List<ClangUnit> units = new ArrayList<>();
        units.add(unit);
        for (ClangUnit u : ClangIncludes.sameParse(unit)) if (u != unit && u.failure() == null) units.add(u);
        for (ClangUnit u : units) {
            for (ClangUnit.Function f : u.functions()) {
                if (f.node().usr != null && !m.containsKey(f.node().usr)) {
                    m.put(f.node().usr, f);
                    of.put(f.node().usr, u);
                }
            }
        }
        return new Defined(m, of);
    }

    private static double[] byType(ClangNode n) {
        double[] bound = ClangTypeArguments.of(n); // a type parameter, one instantiation's arguments bound
        if (bound != null || n.canonKind == CXType_Bool) return bound != null ? bound : new double[] {0, 1};
        if (integral(n.canonKind)) {
            double[] t = ValueBounds.ofInteger(bytes(n.canonKind), unsignedKind(n.canonKind));
            if (t != null) return t;
        }
        return unknown();
    }

    /**
     * The interval of the definition of a local of {@code fn} that reaches {@code ref}: the nearest earlier statement
     * of an enclosing block that assigns it whole or declares it with an initializer, no write between; where none is
     * known (a write between, or in a loop after the use), all its definitions ({@link ClangAllDefinitions}); null
     * when its address is taken or a reference is bound to it anywhere in the function.
     */
    private double[] reachingDefinition(ClangNode ref, ClangUnit.Function fn, int depth) {
        if (ref.refUsr == null || depth <= 0) return null;
        String usr = ref.refUsr;
        // float ip; modff(x, &ip);: the integral part of x
        if (!unaliasedLocals(fn).contains(usr))
            return ClangIntegralParts.of(unit, ref, fn, e -> eval(e, fn, depth - 1));
        for (ClangNode p = ref.parent; p != null && p != fn.node(); p = p.parent) {
            if (p.kind == CXCursor_ForStmt
                    && p.children.size() >= 4
                    && (declares(p.children.get(0), usr)
                            || p.children.get(0).kind == CXCursor_BinaryOperator
                                    && ClangAllDefinitions.definition(p.children.get(0), usr) != null))
                return counter(p, ref, fn, depth);
        }
        double[] r = reachingFrom(ref, ref, fn, depth);
        return r != null ? r : ClangAllDefinitions.hull(unit, fn, usr, e -> eval(e, fn, depth - 1));
    }

    /** {@link #reachingDefinition} of {@code ref}'s variable at {@code from}: the definition before it. */
    private double[] reachingFrom(ClangNode from, ClangNode ref, ClangUnit.Function fn, int depth) {
        String usr = ref.refUsr;
        ClangNode cur = from;
        for (ClangNode p = from.parent; p != null && p != fn.node(); cur = p, p = p.parent) {
            if (isLoop(p) && writesIn(p, usr)) return null; // a later iteration reads the write after the use
            if (p.kind != CXCursor_CompoundStmt) continue;
            // a switch that does not write it: each case holds its value from before the switch
            if (p.parent != null && p.parent.kind == CXCursor_SwitchStmt && !writesIn(p.parent, usr)) continue;
            if (ClangSyntax.labelled(cur) != cur) return null; // the use is under a label: entered past what is before
            for (int j = p.children.indexOf(cur) - 1; j >= 0; j--) {
                // a statement under a label (case K: v = ...;) runs on entry through it; what is before, maybe not
                boolean label = ClangSyntax.labelled(p.children.get(j)) != p.children.get(j);
                ClangNode st = ClangSyntax.labelled(p.children.get(j));
                ClangNode def = ClangAllDefinitions.definition(st, usr);
                // a static local keeps the value a later write left in the previous call
                if (def != null && st.kind == CXCursor_DeclStmt && lasting(st) && writesIn(fn.node(), usr)) return null;
                if (def != null) return eval(def, fn, depth - 1);
                if (declares(st, usr)) return null; // declared without an initializer
                // both branches of an if end with a definition, or with what the statements before their end leave
                // (h = fmodf(h, 360); if (h < 0) h += 360; h /= 60;); a do-while body ends with one (it runs once at
                // least); an if that writes nothing of it is read past, not once per branch (that doubled the work)
                if (st.kind == CXCursor_IfStmt
                        && st.children.size() == 3
                        && !writesIn(st.children.get(0), usr)
                        && writesIn(st, usr)) {
                    double[] x = atEnd(st.children.get(1), ref, fn, depth),
                            y = atEnd(st.children.get(2), ref, fn, depth);
                    if (x != null && y != null) return new double[] {Math.min(x[0], y[0]), Math.max(x[1], y[1])};
                }
                // if (r < 0) r = 0; : the branch's value, or the value before it where the test failed
                if (st.kind == CXCursor_IfStmt && st.children.size() == 2 && !writesIn(st.children.get(0), usr)) {
                    // if (x < 1) { v = e; continue; }: the branch's writes never reach past the if (session 82)
                    if (!label && ClangGuards.leaves(st.children.get(1))) continue;
                    ClangNode a = lastDefinition(st.children.get(1), usr);
                    ClangNode upd = a == null ? ClangUpdates.onlyUpdate(st.children.get(1), usr) : null;
                    double[] before0 = upd == null ? null : reachingFrom(st, ref, fn, depth - 1);
                    if (upd != null && before0 != null) {
                        // if (a > C) a -= C; : the update of a value the test bounds (finite values, as everywhere)
                        double[] in = underTest(st.children.get(0), true, ref, before0, true);
                        double[] x = ValueBounds.arith(
                                upd.spelling.charAt(0), in, eval(upd.children.get(1), fn, depth - 1), false);
                        double[] y = underTest(st.children.get(0), false, ref, before0, true);
                        return new double[] {Math.min(x[0], y[0]), Math.max(x[1], y[1])};
                    }
                    if (a != null) {
                        double[] before = reachingFrom(st, ref, fn, depth - 1);
                        // if (t < 0) t = 180 + t; : the branch's own value of the variable is the one its test
                        // bounds (session 75 round B: an encoder's edge angle from atan2, in [-180, 180]); finite
                        // values on both paths then, as for the update above
                        double[] self = selfUpdate(
                                a, usr, st.children.get(0), ref, before != null ? before : byType(ref), fn, depth);
                        double[] x = self != null ? self : eval(a, fn, depth - 1);
                        double[] y = underTest(
                                st.children.get(0), false, ref, before != null ? before : byType(ref), self != null);
                        return new double[] {Math.min(x[0], y[0]), Math.max(x[1], y[1])};
                    }
                }
                if (st.kind == CXCursor_DoStmt && st.children.size() == 2 && !writesIn(st.children.get(1), usr)) {
                    ClangNode a = lastDefinition(st.children.get(0), usr);
                    if (a != null) return eval(a, fn, depth - 1);
                }
                double[] updated = label
                        ? null
                        : ClangUpdates.after(
                                unit,
                                st,
                                usr,
                                () -> depth > 1 ? reachingFrom(st, ref, fn, depth - 1) : null,
                                e -> eval(e, fn, depth - 1));
                if (updated != null) return updated;
                if (writesIn(st, usr) || label) return null;
            }
        }
        return null;
    }

    /**
     * The interval of {@code ref}'s variable where the branch {@code branch} of an if ends: its last definition, or
     * what its last statement leaves of the value before it (an update, or no write), that value found as for any use
     * ({@link #reachingFrom}, through the statements before the if); null when not known.
     */
    private double[] atEnd(ClangNode branch, ClangNode ref, ClangUnit.Function fn, int depth) {
        String usr = ref.refUsr;
        ClangNode def = lastDefinition(branch, usr);
        if (def != null) return eval(def, fn, depth - 1);
        if (branch.kind != CXCursor_CompoundStmt || branch.children.isEmpty() || depth <= 1) return null;
        ClangNode last = branch.children.get(branch.children.size() - 1);
        if (!writesIn(last, usr)) return reachingFrom(last, ref, fn, depth - 1);
        return ClangUpdates.after(
                unit, last, usr, () -> reachingFrom(last, ref, fn, depth - 1), e -> eval(e, fn, depth - 1));
    }

    /**
     * The interval of the counter {@code usr} a for statement declares or assigns in its initialization ({@code v = 0}),
     * anywhere in the loop: from its initializer's lower bound up, when every write of it in the loop adds a value that
     * cannot be negative ({@code i++}, {@code i += blockDim.x * gridDim.x}: a grid-stride loop's index is never
     * negative; a signed counter that overflowed would be undefined behaviour); null for any other write.
     */
    private double[] counter(ClangNode loop, ClangNode ref, ClangUnit.Function fn, int depth) {
        String usr = ref.refUsr;
        ClangNode decl = null;
        for (ClangNode d : loop.children.get(0).children) if (d.kind == CXCursor_VarDecl && usr.equals(d.usr)) decl = d;
        if (decl == null) decl = declaration(fn, usr); // assigned in the initialization: declared before the loop
        ClangNode init = loop.children.get(0), def = ClangAllDefinitions.definition(init, usr);
        if (decl == null || def == null) return null;
        List<ClangNode> steps = new ArrayList<>();
        boolean[] other = new boolean[1];
        loop.forEach(x -> {
            if (x.kind != CXCursor_DeclRefExpr || !usr.equals(x.refUsr) || !written(x) || within(x, init)) return;
            ClangNode p = outermost(x).parent;
            if (p != null && p.kind == CXCursor_UnaryOperator && p.spelling.equals("++")) return;
            if (p != null
                    && p.kind == CXCursor_CompoundAssignOperator
                    && p.spelling.equals("+=")
                    && p.children.size() == 2) steps.add(p.children.get(1));
            else other[0] = true;
        });
        if (other[0]) return null;
        for (ClangNode s : steps) if (eval(s, fn, depth - 1)[0] < 0) return null;
        double lo = eval(def, fn, depth - 1)[0];
        if (lo == -INF) return null;
        boolean whole = integral(decl.canonKind);
        // a counter narrower than int wraps when stored back (implementation-defined, not undefined): no bound
        if (whole && !unsignedKind(decl.canonKind) && bytes(decl.canonKind) < 4) return null;
        double[] t = whole ? ValueBounds.ofInteger(bytes(decl.canonKind), unsignedKind(decl.canonKind)) : null;
        // an unsigned counter may wrap to 0 (defined): from 0
        if (t != null && unsignedKind(decl.canonKind)) lo = t[0];
        double hi = t != null ? t[1] : INF;
        // in the body, when only the increment writes the counter: below the bound the condition tests (i < n)
        ClangNode body = loop.children.get(loop.children.size() - 1);
        if (within(ref, body) && !writesIn(body, usr)) hi = Math.min(hi, tested(loop, usr, whole, fn, depth));
        return new double[] {t != null ? Math.max(trunc(lo), t[0]) : lo, hi};
    }

    /** The least upper bound on {@code usr} that a test of the loop's condition's conjunction puts, or infinity. */
    private double tested(ClangNode loop, String usr, boolean whole, ClangUnit.Function fn, int depth) {
        List<ClangNode> tests = new ArrayList<>();
        ArrayList<ClangNode> todo = new ArrayList<>(List.of(loop.children.get(loop.children.size() - 3)));
        while (!todo.isEmpty()) {
            ClangNode x = strip(todo.remove(todo.size() - 1));
            if (x != null && x.kind == CXCursor_BinaryOperator && x.spelling.equals("&&") && x.children.size() == 2)
                todo.addAll(x.children);
            else if (x != null) tests.add(x);
        }
        double hi = INF;
        for (ClangNode x : tests) {
            if (x.kind != CXCursor_BinaryOperator || x.children.size() != 2) continue;
            boolean less = x.spelling.equals("<") || x.spelling.equals("<=");
            boolean more = x.spelling.equals(">") || x.spelling.equals(">=");
            ClangNode var = strip(x.children.get(less ? 0 : 1));
            if (!less && !more || var == null || var.kind != CXCursor_DeclRefExpr || !usr.equals(var.refUsr)) continue;
            double b = eval(x.children.get(less ? 1 : 0), fn, depth - 1)[1];
            boolean strict = x.spelling.length() == 1;
            hi = Math.min(hi, strict && whole ? Math.ceil(b) - 1 : b);
        }
        return hi;
    }

    /** {@code x} narrowed where {@code test} came out {@code holds}: {@link ClangTestBounds#of}. */
    static double[] underTest(ClangNode test, boolean holds, ClangNode v, double[] x, boolean finite) {
        return ClangTestBounds.of(test, holds, v, x, finite);
    }

    /**
     * The locals and value parameters of {@code fn} (their USRs) whose address is never taken and to which no reference is bound: once per
     * function.
     */
    Set<String> unaliasedLocals(ClangUnit.Function fn) {
        return unit.perFunction("unaliased-locals", fn.node(), () -> {
            Set<String> locals = new HashSet<>();
            Set<String> aliased = new HashSet<>();
            fn.node().forEach(x -> {
                // a parameter too (if (r < 0) r = 0;), not a reference one: the caller's object may change under it
                boolean parm = x.kind == CXCursor_ParmDecl && !x.type.contains("&");
                if ((x.kind == CXCursor_VarDecl || parm) && x.usr != null) locals.add(x.usr);
                if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null && aliases(x)) aliased.add(x.refUsr);
            });
            locals.removeAll(aliased);
            return locals;
        });
    }

    /**
     * The definition a branch or body ends with: its last statement that writes the variable, when that statement
     * defines it whole; null when it writes it otherwise or not at all.
     */
    private static ClangNode lastDefinition(ClangNode body, String usr) {
        if (body.kind != CXCursor_CompoundStmt) return ClangAllDefinitions.definition(body, usr);
        for (int j = body.children.size() - 1; j >= 0; j--) {
            ClangNode st = body.children.get(j);
            ClangNode def = ClangAllDefinitions.definition(st, usr);
            if (def != null) return def;
            if (ClangSyntax.writesIn(st, usr) || declares(st, usr)) return null;
        }
        return null;
    }

    /**
     * The value of {@code def}, what a definition stores, when it is {@code e op v}, {@code v op e} ({@code v = 180 +
     * v}: op one of + - * /, {@code e} not reading {@code v}) or {@code -v} in the branch taken when {@code test} holds: the operation on {@code v}'s value before it
     * ({@code before}) under the test; else null.
     */
    private double[] selfUpdate(
            ClangNode def,
            String usr,
            ClangNode test,
            ClangNode ref,
            double[] before,
            ClangUnit.Function fn,
            int depth) {
        ClangNode rhs = strip(def); // the value a definition stores
        ClangNode neg = rhs != null && rhs.kind == CXCursor_UnaryOperator && rhs.spelling.equals("-")
                ? strip(rhs.children.get(0))
                : null;
        if (before != null && neg != null && neg.kind == CXCursor_DeclRefExpr && usr.equals(neg.refUsr)) {
            // if (v < 0) v = -v; (session 75 round D: a JSON writer's sign taken off before it rounds digits)
            double[] in = underTest(test, true, ref, before, true);
            return new double[] {-in[1], -in[0]};
        }
        if (before == null
                || rhs == null
                || rhs.kind != CXCursor_BinaryOperator
                || rhs.children.size() != 2
                || rhs.spelling.length() != 1
                || "+-*/".indexOf(rhs.spelling.charAt(0)) < 0) return null;
        ClangNode l = strip(rhs.children.get(0)), r = strip(rhs.children.get(1));
        boolean left = l != null && l.kind == CXCursor_DeclRefExpr && usr.equals(l.refUsr);
        boolean right = r != null && r.kind == CXCursor_DeclRefExpr && usr.equals(r.refUsr);
        if (left == right || writesIn(rhs, usr) || ClangLowerClamps.reads(left ? r : l, usr)) return null;
        double[] in = underTest(test, true, ref, before, true);
        double[] other = eval(left ? rhs.children.get(1) : rhs.children.get(0), fn, depth - 1);
        char op = rhs.spelling.charAt(0);
        return left ? ValueBounds.arith(op, in, other, false) : ValueBounds.arith(op, other, in, false);
    }

    private static boolean isLoop(ClangNode n) {
        return n.kind == CXCursor_ForStmt || n.kind == CXCursor_WhileStmt || n.kind == CXCursor_DoStmt;
    }

    /** A declaration of a static or thread-local local: its initializer runs once. */
    boolean lasting(ClangNode declStmt) {
        String t = unit.text(declStmt).strip();
        return t.startsWith("static") || t.startsWith("thread_local") || t.startsWith("__thread");
    }

    /** The declaration of the local {@code usr} in {@code fn}, or null. */
    private static ClangNode declaration(ClangUnit.Function fn, String usr) {
        ClangNode[] d = new ClangNode[1];
        fn.node().forEach(x -> {
            if (d[0] == null && x.kind == CXCursor_VarDecl && usr.equals(x.usr)) d[0] = x;
        });
        return d[0];
    }

    static boolean declares(ClangNode st, String usr) {
        if (st.kind != CXCursor_DeclStmt) return false;
        for (ClangNode d : st.children) if (d.kind == CXCursor_VarDecl && usr.equals(d.usr)) return true;
        return false;
    }
}
