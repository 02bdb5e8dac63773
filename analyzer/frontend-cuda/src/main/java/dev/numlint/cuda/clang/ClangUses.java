package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.cuda.facts.ValueUse;
import dev.numlint.knowledge.NumericFacts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a value computed at a node of a {@link ClangUnit} goes (the {@code uses()} of a site Clang found): up through
 * the expression that holds it (an integer conversion, a rounding function, an index, a comparison, a branch, a
 * min/max, an atomic add, a store, a return, a call), and through the local variable it initializes or is assigned to,
 * to that variable's later reads up to the next assignment of it outside a loop, {@link #DEPTH} variables deep.
 */
final class ClangUses {
    static final int DEPTH = 3;

    /** Functions whose real domain has an edge a cancelled value can fall past (NaN beyond it). */
    static final java.util.Set<String> DOMAIN_EDGES = java.util.Set.of(
            "sqrt", "sqrtf", "sqrtl", "rsqrt", "rsqrtf", "log", "logf", "log2", "log2f", "log10", "log10f", "asin",
            "asinf", "acos", "acosf");

    private static final java.util.Set<String> SELECTIONS =
            java.util.Set.of("fminf", "fmaxf", "fmin", "fmax", "min", "max", "std::min", "std::max");

    /** Clamps to [0, 1] or to given bounds: they pass the value on, as math on it does. */
    private static final java.util.Set<String> SATURATIONS = java.util.Set.of("__saturatef", "saturate", "clamp");
    /**
     * Float arithmetic by another name: C++'s {@code abs} of a float, CUDA's fast intrinsics of the math functions
     * ({@code __sinf}, {@code __expf}, {@code __fdividef}) and its rounding-mode operations ({@code __fmul_rn},
     * {@code __fdiv_rz}, {@code __fmaf_rn}). A value passed to one goes on as a function of itself, as through
     * {@code sinf}; it does not reach code numlint cannot follow.
     */
    private static final java.util.regex.Pattern DEVICE_ARITHMETIC =
            java.util.regex.Pattern.compile("abs|__(sin|cos|tan|exp|exp10|log|log2|log10|pow|fdivide)f"
                    + "|__[fd](add|sub|mul|div|rcp|sqrt|fma)_r[nzud]|__fmaf_r[nzud]|__fmaf_ieee_r[nzud]");

    private final ClangUnit unit;
    private final ClangPairs pairs;
    private final ClangCallees callees;
    private final ClangValueLives lives = new ClangValueLives();

    ClangUses(ClangUnit unit) {
        this.unit = unit;
        this.pairs = new ClangPairs(unit);
        this.callees = new ClangCallees(unit);
    }

    /**
     * A floating product that rounds: not a constant, not a scaling by a power of two or zero ({@code s*0.25f} is
     * exact, so {@code s*0.25f - a*b} is a value minus one product).
     */
    private static boolean roundedProduct(ClangNode e) {
        ClangNode p = strip(e);
        if (p == null || p.kind != CXCursor_BinaryOperator || !p.spelling.equals("*") || p.children.size() != 2)
            return false;
        if (!floating(p.canonKind) || p.value != null) return false;
        for (ClangNode f : p.children) {
            Double v = constant(f);
            if (v != null && NumericFacts.isPowerOfTwoOrZero(Math.abs(v))) return false;
        }
        return true;
    }

    /** The uses of the value computed at {@code n}, in source order. */
    List<ValueUse> of(ClangNode n, ClangUnit.Function fn) {
        List<ValueUse> out = new ArrayList<>();
        follow(n, fn, null, DEPTH, out);
        out.sort(java.util.Comparator.comparingInt(ValueUse::line).thenComparingInt(ValueUse::column));
        return out;
    }

    /**
     * Follows the value computed at {@code n}; {@code direct}: it reached {@code n} unchanged (no sum or difference
     * with something else, no function of it on the way), so a product of it can be one of a difference of products.
     */
    private void follow(ClangNode n, ClangUnit.Function fn, String via, int depth, List<ValueUse> out) {
        follow(n, fn, via, depth, out, true);
    }

    private void follow(ClangNode n, ClangUnit.Function fn, String via, int depth, List<ValueUse> out, boolean direct) {
        if ((n.kind == CXCursor_CompoundAssignOperator || n.kind == CXCursor_BinaryOperator && n.spelling.equals("="))
                && n.children.size() == 2) {
            // a sum's update (s += x, s = s + x): its value is the accumulator's, read after it
            ClangNode l = strip(n.children.get(0));
            if (l != null && l.kind == CXCursor_DeclRefExpr && l.refUsr != null) {
                if (depth > 0) reads(n, l.refUsr, l.spelling, fn, depth, out, false);
                return;
            }
        }
        ClangNode c = n;
        // the longest sum of rounded products that n begins (a dot product's first terms): its value is still the
        // hazard's own, as the sum n ends
        ClangNode chain = n;
        ClangInterpolations.Index ix = interpolatedIndex.get();
        for (ClangNode p = n.parent; p != null && p != fn.node(); c = p, p = p.parent) {
            if (p.kind == CXCursor_ParenExpr) continue;
            // the interpolation's weight in another written form ((x - (i*v + o))/v): the value's own walk follows it
            if (ix != null && ix.fraction(unit, p)) return;
            if (p.kind == CXCursor_UnexposedExpr && p.children.size() == 1) {
                if (integral(p.canonKind) && floating(c.canonKind)) {
                    if (interpolated.get() == null && interpolation(p, c, p.canon, fn, via, depth, out)) return;
                    if (interpolated.get() != null) {
                        out.add(use(direct, ValueUse.Kind.INTERPOLATION, p, p.canon, via));
                        continue;
                    }
                    // an explicit cast's own implicit conversion ((unsigned char)(c * 255.0f)): the cast decides
                    ClangNode cast = p.parent != null && isExplicitCast(p.parent) ? p.parent : p;
                    String sample = ClangQuantisedSamples.sample(unit, cast, fn);
                    if (sample != null) out.add(use(direct, ValueUse.Kind.QUANTISED, cast, sample, via));
                    else out.add(use(direct, ValueUse.Kind.INTEGER_CONVERSION, p, p.canon, via, unit.drawn(c, fn)));
                    return;
                }
                continue;
            }
            if (isExplicitCast(p)) {
                if (integral(p.canonKind)
                        && floating(c.canonKind)
                        && interpolated.get() == null
                        && interpolation(p, c, p.type, fn, via, depth, out)) return;
                if (interpolated.get() != null) {
                    // the index (or its floor held in a float), converted exactly: the interpolation's own
                    if (integral(p.canonKind) && floating(c.canonKind))
                        out.add(use(direct, ValueUse.Kind.INTERPOLATION, p, p.type, via));
                    continue;
                }
                if (integral(p.canonKind)) {
                    // x -= L * (int)(x / L + 0.5f): a count of periods subtracted from the value itself
                    if (ClangPeriodicWraps.wraps(unit, p, c)) {
                        out.add(use(direct, ValueUse.Kind.PERIODIC_WRAP, p, p.type, via));
                        return;
                    }
                    String sample = ClangQuantisedSamples.sample(unit, p, fn); // a stored pixel or sample
                    if (sample != null) out.add(use(direct, ValueUse.Kind.QUANTISED, p, sample, via));
                    else out.add(use(direct, ValueUse.Kind.INTEGER_CONVERSION, p, p.type, via, unit.drawn(c, fn)));
                    return;
                }
                continue;
            }
            if (p.kind == CXCursor_ArraySubscriptExpr) {
                if (p.children.indexOf(c) == 1)
                    out.add(use(
                            direct,
                            interpolated.get() != null ? ValueUse.Kind.INTERPOLATION : ValueUse.Kind.INDEX,
                            p,
                            null,
                            via,
                            unit.drawn(c, fn)));
                return;
            }
            if (p.kind == CXCursor_CallExpr) {
                if (p.children.indexOf(c) == 0) return; // the callee
                String name = callee(p);
                String base = name.startsWith("std::") ? name.substring(5) : name;
                if (NumericFacts.ROUNDING.contains(base)
                        || base.startsWith("__float2")
                        || base.startsWith("__double2")) {
                    if (interpolated.get() == null
                            && p.children.size() == 2
                            && interpolation(p, c, base, fn, via, depth, out)) return;
                    // f.x -= floorf(0.5f + f.x): the minimum image; the wrapped value's own walk goes on
                    if (interpolated.get() == null && ClangPeriodicWraps.wraps(unit, p, c)) {
                        out.add(use(direct, ValueUse.Kind.PERIODIC_WRAP, p, base, via));
                        return;
                    }
                    String sample = ClangQuantisedSamples.sample(unit, p, fn); // __float2uint_rn(x) as a pixel
                    if (sample != null) out.add(use(direct, ValueUse.Kind.QUANTISED, p, sample, via));
                    else out.add(use(direct, ValueUse.Kind.ROUNDING, p, base, via, unit.drawn(c, fn)));
                    return;
                }
                if (SELECTIONS.contains(name)) {
                    out.add(use(direct, ValueUse.Kind.SELECTION, p, base, via));
                    continue;
                }
                if (ClangUnit.ATOMIC_ADDS.contains(base)) {
                    out.add(use(direct, ValueUse.Kind.ATOMIC, p, base, via));
                    return;
                }
                if (floating(p.canonKind)
                        && (NumericFacts.TRANSCENDENTAL.contains(base.replaceAll("[fl]$", ""))
                                || base.startsWith("sqrt")
                                || base.startsWith("fabs")
                                || DEVICE_ARITHMETIC.matcher(base).matches()
                                || SATURATIONS.contains(base))) {
                    // the argument of sqrt, log, asin, acos itself: a cancelled difference that comes out below the
                    // domain's edge (0, or -1 and 1) gives NaN where the exact value gives a number
                    if (direct && DOMAIN_EDGES.contains(base) && p.children.indexOf(c) == 1)
                        out.add(use(direct, ValueUse.Kind.DOMAIN_EDGE, p, base, via));
                    direct = false; // math passes a function of the value on
                    continue;
                }
                if (depth <= 0 || !intoCallee(p, c, fn, via, depth, out, direct))
                    out.add(use(direct, ValueUse.Kind.CALL, p, base, via, unit.drawn(c, fn)));
                return;
            }
            if (p.kind == CXCursor_BinaryOperator && isComparison(p.spelling)
                    || p.spelling.equals("==") && p.kind == CXCursor_BinaryOperator) {
                // == or != against a sentinel (FLT_MAX, -INFINITY, HUGE_VAL: what a running min/max starts from): a
                // computed value of ordinary size cannot reach it by an ulp, the test only asks whether it was set
                if ((p.spelling.equals("==") || p.spelling.equals("!=")) && sentinel(p, c)) return;
                // an unsigned value tested against 0 by < or >= (jj < 0 of a size_t): constant, decides nothing
                if (unsignedAgainstZero(p)) return;
                // x != x, a NaN test (MATH_ISNAN; session 75 round F): an ulp leaves a finite value finite
                if (p.children.size() == 2 && ClangSyntax.sameTree(strip(p.children.get(0)), strip(p.children.get(1))))
                    return;
                // a constant the other side's interval stays far from (fabsf(atan2f(y, x) / (2*PI)) < 1.0): no
                // rounding flips it
                if (ClangUnreachableTests.unreachable(unit, p, fn)) return;
                // the test of an if that only prints (a debug printf's threshold): a flip changes a diagnostic line
                if (ClangPrintOnlyTests.printOnly(p)) return;
                if (ClangMaskedZeroTests.masked(p)) return; // area > 0 || IsZero(area): near zero the zero test decides
                // a running max/min or a clamp (if (v > m) m = v; m = v < m ? v : m; v > 0 ? v : 0): the comparison
                // only picks between the values it compares, so a flip moves the result by no more than they differ
                // there (continuous); the selected value is followed on
                if (!p.spelling.equals("==") && !p.spelling.equals("!=") && selection(p, fn, via, depth, out, direct))
                    return;
                // compared with a fresh random draw (either side: u * I0 >= I is u >= I / I0): one ulp shifts the
                // outcome's probability, it decides no single outcome
                boolean variate = unit.drawn(c, fn);
                ValueUse.Kind kind = !variate && unit.drawn(p, fn)
                        ? ValueUse.Kind.RANDOM_DRAW
                        : ClangNegligibleCutoffs.cutoff(unit, p, c)
                                ? ValueUse.Kind.NEGLIGIBLE_CUTOFF
                                : ClangGuardedZeros.guards(p, c)
                                        ? ValueUse.Kind.ZERO_TERM
                                        : ClangEndClamps.clamps(unit, p, c, fn.node())
                                                ? ValueUse.Kind.END_CLAMP
                                                : unit.sidesAgree(p, fn.node())
                                                        ? ValueUse.Kind.AGREEING_SIDES
                                                        : ValueUse.Kind.COMPARISON;
                // the constant a variable is compared with ('r2 != 0.0f'), as the hand-written ValueFlow records it
                String compared = null;
                ClangNode value = strip(c);
                if (kind == ValueUse.Kind.COMPARISON
                        && value != null
                        && value.kind == CXCursor_DeclRefExpr
                        && p.children.size() == 2) {
                    Double k = constant(p.children.get(0) == c ? p.children.get(1) : p.children.get(0));
                    if (k != null) compared = Double.toString(k);
                }
                out.add(use(direct, kind, p, compared, via, variate));
                return;
            }
            if (p.kind == CXCursor_BinaryOperator && (p.spelling.equals("&&") || p.spelling.equals("||"))
                    || p.kind == CXCursor_UnaryOperator && p.spelling.equals("!")) {
                out.add(use(direct, ValueUse.Kind.BRANCH, p, null, via, unit.drawn(c, fn)));
                return;
            }
            if ((p.kind == CXCursor_IfStmt
                            || p.kind == CXCursor_WhileStmt
                            || p.kind == CXCursor_DoStmt
                            || p.kind == CXCursor_ConditionalOperator)
                    && condition(p) == c) {
                out.add(use(direct, ValueUse.Kind.BRANCH, p, null, via, unit.drawn(c, fn)));
                return;
            }
            if (p.kind == CXCursor_ReturnStmt) {
                out.add(use(direct, ValueUse.Kind.RETURN, p, null, via));
                return;
            }
            if (p.kind == CXCursor_VarDecl) {
                if (depth > 0 && p.usr != null) reads(p, p.usr, p.spelling, fn, depth, out, direct);
                return;
            }
            if ((p.kind == CXCursor_BinaryOperator && p.spelling.equals("=")
                            || p.kind == CXCursor_CompoundAssignOperator)
                    && p.children.size() == 2) {
                if (p.children.get(0) == c) return; // the value is the one written to
                ClangNode l = strip(p.children.get(0));
                if (l != null && l.kind == CXCursor_DeclRefExpr && l.refUsr != null) {
                    if (depth > 0) reads(p, l.refUsr, l.spelling, fn, depth, out, direct);
                } else {
                    out.add(use(direct, ValueUse.Kind.STORE, p, null, via));
                }
                return;
            }
            if (p.kind == CXCursor_BinaryOperator
                    && p.children.size() == 2
                    && (p.spelling.equals("-") || p.spelling.equals("+"))) {
                // the interpolation's weights x - i and (i + 1) - x: the value's own walk follows them
                String x = interpolated.get();
                if (x != null
                        && p.spelling.equals("-")
                        && ClangInterpolations.weightOf(
                                unit, p.children.get(p.children.get(0) == c ? 1 : 0), x, fn.node())) return;
                // a difference of products only when the value is one of the products (a factor of it), not a value
                // minus one product (s - a*b) nor a sum that is subtracted
                ClangNode other = p.children.get(0) == c ? p.children.get(1) : p.children.get(0);
                if (p.spelling.equals("-")
                        && direct
                        && roundedProduct(c)
                        && roundedProduct(other)
                        && !pairs.pairedComponent(p, fn)
                        // terms of opposite signs add magnitudes (ClangSigns): nothing cancels
                        && !unit.signs().termsCannotCancel(p.line, unit.text(p)))
                    out.add(use(direct, ValueUse.Kind.DIFFERENCE_OF_PRODUCTS, p, null, via));
                // a sum or difference with something else is another value; the next product of a dot product
                // whose first terms n sums is not (a.x*b.x + a.y*b.y + a.z*b.z: the whole sum decides)
                if (strip(p.children.get(0)) == chain && roundedProduct(other)) chain = p;
                else direct = false;
                continue;
            }
            if (p.kind == CXCursor_BinaryOperator
                    || p.kind == CXCursor_UnaryOperator
                    || p.kind == CXCursor_ConditionalOperator
                    || p.kind == CXCursor_MemberRefExpr) continue;
            if (!clang_isExpressionKind(p.kind)) return; // the statement ends here
        }
    }

    /**
     * When the comparison {@code cmp} is a continuous selection, records it and follows the selected value on: the
     * condition of {@code a < b ? a : b} (either order) or of {@code if (a < b) a = b;} (or {@code b = a}) with no
     * {@code else}. False when the comparison decides something else.
     */
    private boolean selection(
            ClangNode cmp, ClangUnit.Function fn, String via, int depth, List<ValueUse> out, boolean direct) {
        if (cmp.children.size() != 2) return false;
        String a = squashed(cmp.children.get(0)), b = squashed(cmp.children.get(1));
        ClangNode q = cmp;
        while (q.parent != null && q.parent.kind == CXCursor_ParenExpr) q = q.parent;
        ClangNode p = q.parent;
        // one conjunct of if (x > a && x > b) ((a > b) ? a : b) = x; (ClangSelections.boundUpdate)
        ClangNode c = q;
        while (c.parent != null
                && (c.parent.kind == CXCursor_ParenExpr
                        || c.parent.kind == CXCursor_BinaryOperator && c.parent.spelling.equals("&&"))) c = c.parent;
        if (c != q && c.parent != null && condition(c.parent) == c && ClangSelections.boundUpdate(unit, c.parent, fn)) {
            out.add(use(ValueUse.Kind.SELECTION, cmp, "the update of the larger or smaller bound", via));
            return true;
        }
        if (p == null || condition(p) != q) return false;
        if (p.kind == CXCursor_ConditionalOperator && p.children.size() == 3) {
            // v > 0 ? k*v : -k*v is k*|v|: the branches' reads of v are followed on by the def-use walk itself
            if (ClangSelections.signSelection(unit, cmp, p.children.get(1), p.children.get(2))) {
                out.add(use(ValueUse.Kind.SELECTION, cmp, "a sign selection", via));
                return true;
            }
            String x = squashed(p.children.get(1)), y = squashed(p.children.get(2));
            if (x.equals(a) && y.equals(b) || x.equals(b) && y.equals(a)) {
                out.add(use(ValueUse.Kind.SELECTION, cmp, "a min/max", via));
                follow(p, fn, via, depth, out, direct);
                return true;
            }
            // a clamp written as nested ?: (r < lo ? lo : (r > hi ? hi : r)): one arm is the bound compared with,
            // the other the min/max of the same value with the other bound; where the test flips both arms are the
            // bound (continuous)
            if (nestedClamp(p.children.get(1), p.children.get(2), a, b)
                    || nestedClamp(p.children.get(2), p.children.get(1), a, b)) {
                out.add(use(ValueUse.Kind.SELECTION, cmp, "a clamp", via));
                follow(p, fn, via, depth, out, direct);
                return true;
            }
            return false;
        }
        if (p.kind == CXCursor_IfStmt
                && (ClangSelections.signSelection(unit, cmp, p) || ClangSelections.ratioClip(unit, cmp, p))) {
            out.add(use(ValueUse.Kind.SELECTION, cmp, "a sign selection or a projection", via));
            return true;
        }
        // if (v < 0) P = 0; else P = v;: both branches write one place, each one of the compared values (max(v, 0))
        if (p.kind == CXCursor_IfStmt && p.children.size() == 3) {
            ClangNode t = onlyAssignment(p.children.get(1)), e = onlyAssignment(p.children.get(2));
            if (t != null && e != null && squashed(t.children.get(0)).equals(squashed(e.children.get(0)))) {
                String x = squashed(t.children.get(1)), y = squashed(e.children.get(1));
                if (x.equals(a) && y.equals(b) || x.equals(b) && y.equals(a)) {
                    out.add(use(ValueUse.Kind.SELECTION, cmp, "a min/max", via));
                    followAssigned(t, fn, via, depth, out, direct);
                    return true;
                }
            }
        }
        // an else does other work, unless it is a selection too (a clamp: if (v < 0) v = 0; else if (v > 1) v = 1;)
        if (p.kind != CXCursor_IfStmt || !ClangSelections.elseIsSelection(unit, p)) return false;
        ClangNode then = p.children.get(1);
        List<ClangNode> assigns = new ArrayList<>();
        if (then.kind == CXCursor_CompoundStmt) then.children.forEach(st -> commaJoined(st, assigns));
        else commaJoined(then, assigns);
        if (assigns.size() > 1) return bestCandidate(cmp, assigns, fn, via, depth, out, direct);
        if (then.kind == CXCursor_CompoundStmt && then.children.size() == 1) then = then.children.get(0);
        if (then.kind != CXCursor_BinaryOperator || !then.spelling.equals("=") || then.children.size() != 2)
            return false;
        String l = squashed(then.children.get(0)), r = squashed(then.children.get(1));
        if (!(l.equals(a) && r.equals(b) || l.equals(b) && r.equals(a))) return false;
        out.add(use(ValueUse.Kind.SELECTION, cmp, "a min/max", via));
        followAssigned(then, fn, via, depth, out, direct);
        return true;
    }

    /**
     * Whether {@code bound} is one side of the comparison {@code a OP b} and {@code other} a {@code ?:} that selects
     * between the other side (the clamped value) and a second bound by comparing the two: the outer {@code ?:} is a
     * clamp to [bound, second bound].
     */
    private boolean nestedClamp(ClangNode bound, ClangNode other, String a, String b) {
        String bd = squashed(bound);
        String v = bd.equals(b) ? a : bd.equals(a) ? b : null;
        if (v == null) return false;
        ClangNode in = other;
        while (in != null && in.kind == CXCursor_ParenExpr && in.children.size() == 1) in = in.children.get(0);
        if (in == null || in.kind != CXCursor_ConditionalOperator || in.children.size() != 3) return false;
        ClangNode c = in.children.get(0);
        while (c != null && c.kind == CXCursor_ParenExpr && c.children.size() == 1) c = c.children.get(0);
        if (c == null || c.kind != CXCursor_BinaryOperator || !isComparison(c.spelling) || c.children.size() != 2)
            return false;
        String ca = squashed(c.children.get(0)), cb = squashed(c.children.get(1));
        String hi = ca.equals(v) ? cb : cb.equals(v) ? ca : null;
        if (hi == null || hi.equals(bd)) return false;
        String x = squashed(in.children.get(1)), y = squashed(in.children.get(2));
        return x.equals(v) && y.equals(hi) || x.equals(hi) && y.equals(v);
    }

    /**
     * The selected value goes on in the variable {@code assign} writes: its reads when it is a local followed further,
     * else a store.
     */
    private void followAssigned(
            ClangNode assign, ClangUnit.Function fn, String via, int depth, List<ValueUse> out, boolean direct) {
        ClangNode target = strip(assign.children.get(0));
        if (depth > 0 && target != null && target.kind == CXCursor_DeclRefExpr && target.refUsr != null) {
            reads(assign, target.refUsr, target.spelling, fn, depth, out, direct);
        } else {
            out.add(use(ValueUse.Kind.STORE, assign, null, via));
        }
    }

    /**
     * When {@code if (cmp) then} (no else) keeps the best candidate, records it and follows the best value on:
     * {@code if (cost < best) { best = cost; bestIdx = i; }} (assignments may be joined by commas), one assignment of
     * one compared operand to the other and
     * otherwise only plain assignments of other places (the candidate's payload) from values that call nothing and
     * read neither the place they assign nor the compared operands' variables. A flip happens only at a near tie,
     * where either candidate is as good (as {@code ContinuousSelections.bestCandidate}).
     */
    private boolean bestCandidate(
            ClangNode cmp,
            List<ClangNode> assigns,
            ClangUnit.Function fn,
            String via,
            int depth,
            List<ValueUse> out,
            boolean direct) {
        String a = squashed(cmp.children.get(0)), b = squashed(cmp.children.get(1));
        java.util.Set<String> compared = new java.util.HashSet<>();
        cmp.forEach(x -> {
            if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null) compared.add(x.refUsr);
        });
        ClangNode best = null;
        for (ClangNode st : assigns) {
            if (st.kind != CXCursor_BinaryOperator || !st.spelling.equals("=") || st.children.size() != 2) return false;
            String l = squashed(st.children.get(0)), r = squashed(st.children.get(1));
            if (l.equals(a) && r.equals(b) || l.equals(b) && r.equals(a)) {
                if (best != null) return false;
                best = st;
                continue;
            }
            if (l.equals(a) || l.equals(b)) return false;
            String place = rootUsr(st.children.get(0));
            if (place == null || compared.contains(place)) return false;
            boolean[] bad = new boolean[1];
            st.children.get(1).forEach(x -> {
                if (x.kind == CXCursor_CallExpr || place.equals(x.refUsr)) bad[0] = true;
            });
            if (bad[0]) return false;
        }
        if (best == null) return false;
        out.add(use(ValueUse.Kind.BEST_CANDIDATE, cmp, null, via));
        followAssigned(best, fn, via, depth, out, direct);
        return true;
    }

    /** The one plain assignment {@code st} makes (alone or as a block of one statement), else null. */
    private static ClangNode onlyAssignment(ClangNode st) {
        if (st.kind == CXCursor_CompoundStmt && st.children.size() == 1) st = st.children.get(0);
        return st.kind == CXCursor_BinaryOperator && st.spelling.equals("=") && st.children.size() == 2 ? st : null;
    }

    /** The expressions a statement joins with commas ({@code a = x, b = y}), or the statement itself. */
    private static void commaJoined(ClangNode st, List<ClangNode> out) {
        if (st.kind == CXCursor_BinaryOperator && st.spelling.equals(",") && st.children.size() == 2) {
            commaJoined(st.children.get(0), out);
            commaJoined(st.children.get(1), out);
        } else {
            out.add(st);
        }
    }

    /** The text of {@code n} without casts' parentheses and whitespace, for comparing operands. */
    private String squashed(ClangNode n) {
        ClangNode s = strip(n);
        return unit.text(s == null ? n : s).replaceAll("[\\s()]", "");
    }

    /**
     * Whether the operand of the equality test {@code eq} other than {@code side} (the one holding the value) is a
     * sentinel: a largest finite value or an infinity, written by name (as the source spells it, before macro
     * expansion) or a constant of magnitude 1e37 or more (as the hand-written front end's ValueFlow reads it).
     */
    private boolean sentinel(ClangNode eq, ClangNode side) {
        if (eq.children.size() != 2) {
            // an operand expanded from a system header's macro (FLT_MAX) is not among the nodes kept: read the test's
            // own text, the operand other than the value's
            String t = unit.text(eq);
            int at = t.indexOf(eq.spelling);
            if (at < 0) return false;
            String left = t.substring(0, at);
            String right = t.substring(at + eq.spelling.length());
            boolean sideFirst = side.offset >= 0 && eq.offset >= 0 && side.offset - eq.offset < at;
            return NumericFacts.isSentinel(sideFirst ? right : left);
        }
        ClangNode other = eq.children.get(0) == side ? eq.children.get(1) : eq.children.get(0);
        ClangNode o = strip(other);
        if (o != null && o.value != null && Math.abs(o.value) >= NumericFacts.SENTINEL_MAGNITUDE) return true;
        return NumericFacts.isSentinel(unit.text(other));
    }

    /** The condition child of an if, while, do or ?:, or null. */
    private static ClangNode condition(ClangNode p) {
        if (p.children.isEmpty()) return null;
        if (p.kind == CXCursor_DoStmt) return p.children.get(p.children.size() - 1);
        return p.children.get(0);
    }

    /**
     * The reads of the variable {@code usr} after {@code def} in the function, up to the next assignment of the whole
     * variable that runs outside every loop around the definition (a later value).
     */
    private void reads(
            ClangNode def,
            String usr,
            String name,
            ClangUnit.Function fn,
            int depth,
            List<ValueUse> out,
            boolean direct) {
        // the same definition is reached from every site whose value flows into it: its reads are followed once per
        // depth (a kernel of 3,000 updates of one sum, 's = s - v' among them, took minutes without this)
        Reached key = new Reached(def, depth, direct, interpolated.get());
        List<ValueUse> known = reached.get(key);
        if (known == null) {
            known = new ArrayList<>();
            readsOnce(def, usr, name, fn, depth, known, direct);
            reached.put(key, known);
        }
        out.addAll(known);
    }

    /** Whether {@code p} compares an unsigned integer with the constant 0 by {@code <} or {@code >=} (either side). */
    private static boolean unsignedAgainstZero(ClangNode p) {
        if (p.children.size() != 2) return false;
        ClangNode a = p.children.get(0), b = p.children.get(1);
        return switch (p.spelling) {
            case "<", ">=" -> unsignedValue(a) && isZero(b);
            case ">", "<=" -> isZero(a) && unsignedValue(b);
            default -> false;
        };
    }

    private static boolean unsignedValue(ClangNode n) {
        ClangNode s = strip(n);
        return s != null && integral(s.canonKind) && unsignedKind(s.canonKind) && constant(s) == null;
    }

    private static boolean isZero(ClangNode n) {
        Double v = constant(n);
        return v != null && v == 0;
    }

    /** A definition whose reads were followed, and the depth left when they were. */
    private record Reached(ClangNode def, int depth, boolean direct, String interpolated) {}

    /**
     * While the walk follows the index of a linear interpolation ({@link ClangInterpolations}): the floored value's
     * text (its weight {@code x - i} ends the walk: the value's own walk reaches it), else null. Per thread: one
     * unit's walks may run in parallel.
     */
    private final ThreadLocal<String> interpolated = new ThreadLocal<>();

    /** While {@link #interpolated} is set: the interpolation's index (its weight in any written form). */
    private final ThreadLocal<ClangInterpolations.Index> interpolatedIndex = new ThreadLocal<>();

    /**
     * When {@code rounding} (of {@code operand}) is the index of a linear interpolation, records it and follows the
     * index's reads, its subscripts being the interpolation's own: true. The index itself stored or returned makes the
     * rounding a decision again.
     */
    private boolean interpolation(
            ClangNode rounding,
            ClangNode operand,
            String detail,
            ClangUnit.Function fn,
            String via,
            int depth,
            List<ValueUse> out) {
        ClangInterpolations.Index ix = ClangInterpolations.of(unit, rounding, operand, fn.node());
        if (ix == null) return false;
        int at = out.size();
        out.add(use(ValueUse.Kind.INTERPOLATION, rounding, detail, via));
        interpolated.set(ix.value());
        interpolatedIndex.set(ix);
        try {
            reads(ix.def(), ix.usr(), ix.name(), fn, Math.max(depth, 1), out, false);
        } finally {
            interpolated.remove();
            interpolatedIndex.remove();
        }
        for (int k = at + 1; k < out.size(); k++) {
            ValueUse.Kind kind = out.get(k).kind();
            // a test of the index itself (if (i < n - 1)) steps with the rounding: continuous in value only
            if (kind == ValueUse.Kind.COMPARISON || kind == ValueUse.Kind.BRANCH)
                out.set(at, use(ValueUse.Kind.TESTED_INTERPOLATION, rounding, detail, via));
            if (kind == ValueUse.Kind.STORE || kind == ValueUse.Kind.RETURN) {
                ValueUse.Kind decided =
                        rounding.kind == CXCursor_CallExpr ? ValueUse.Kind.ROUNDING : ValueUse.Kind.INTEGER_CONVERSION;
                out.set(at, use(decided, rounding, detail, via));
                break;
            }
        }
        return true;
    }

    private final Map<Reached, List<ValueUse>> reached = new ConcurrentHashMap<>();

    private void readsOnce(
            ClangNode def,
            String usr,
            String name,
            ClangUnit.Function fn,
            int depth,
            List<ValueUse> out,
            boolean direct) {
        int until = Integer.MAX_VALUE;
        ClangNode ending = null;
        ClangNode loop = innermostLoop(def);
        ClangValueLives.Refs index = lives.refs(fn);
        for (ClangNode x : index.assigns().getOrDefault(usr, List.of()))
            if (x.offset > def.endOffset
                    && x.offset < until
                    && (loop == null || loopAround(innermostLoop(x), loop))
                    && ClangValueLives.unconditional(def, x)) {
                until = x.offset;
                ending = x;
            }
        // the assignment that ends the value's life still reads it on its right-hand side (d = sqrtf(d)): what the
        // new value decides is followed too
        ClangNode rhs = ending == null ? null : ending.children.get(1);
        List<ClangNode> refs = new ArrayList<>();
        for (ClangNode x : index.reads().getOrDefault(usr, List.of()))
            if (x.offset > def.endOffset
                    && (x.offset < until || rhs != null && rhs.contains(x))
                    && !ClangValueLives.otherArm(def, x, usr, index)) refs.add(x);
        // the conditions of the loops around the definition test the value in the next iteration
        for (ClangNode x : ClangLoopConditions.reads(def, usr, index.reads().getOrDefault(usr, List.of()), fn))
            if (x.offset < def.offset && !refs.contains(x)) refs.add(x);
        for (ClangNode x : ClangValueLives.nextIteration(def, usr, loop, index)) if (!refs.contains(x)) refs.add(x);
        for (ClangNode r : refs) {
            ClangNode p = r.parent;
            while (p != null
                    && (p.kind == CXCursor_ParenExpr || p.kind == CXCursor_UnexposedExpr && !integral(p.canonKind)))
                p = p.parent;
            // the variable written (x = ..., x += ...) is not a read of the value
            if (p != null
                    && (p.kind == CXCursor_BinaryOperator && p.spelling.equals("=")
                            || p.kind == CXCursor_CompoundAssignOperator)
                    && !p.children.isEmpty()
                    && strip(p.children.get(0)) == r) continue;
            follow(r, fn, name, depth - 1, out, direct);
        }
    }

    /**
     * Follows the value passed as {@code arg} of {@code call} into the callee's parameter ({@link ClangCallees}):
     * what the callee does with it are its uses; where the callee returns it, the call's own value goes on in
     * {@code fn}. False when the callee cannot be followed.
     */
    private boolean intoCallee(
            ClangNode call,
            ClangNode arg,
            ClangUnit.Function fn,
            String via,
            int depth,
            List<ValueUse> out,
            boolean d) {
        ClangCallees.Parameter param = callees.parameter(call, arg, fn);
        if (param == null) return false;
        List<ValueUse> inner = new ArrayList<>();
        reads(param.decl(), param.decl().usr, param.decl().spelling, param.callee(), depth, inner, d);
        boolean returned = false;
        for (ValueUse u : inner) {
            if (u.kind() == ValueUse.Kind.RETURN) returned = true;
            else out.add(u);
        }
        if (returned) follow(call, fn, via, depth - 1, out, false);
        return true;
    }

    private ValueUse use(ValueUse.Kind kind, ClangNode at, String detail, String via) {
        return use(kind, at, detail, via, false);
    }

    /** A use the value reaches directly ({@code direct}: {@link ValueUse#direct}) or not. */
    private ValueUse use(boolean direct, ValueUse.Kind kind, ClangNode at, String detail, String via) {
        return use(direct, kind, at, detail, via, false);
    }

    private ValueUse use(boolean direct, ValueUse.Kind kind, ClangNode at, String detail, String via, boolean variate) {
        return new ValueUse(kind, at.line, at.column, unit.text(at), detail, via, variate, direct);
    }

    /** A use; {@code variate}: the value reaching it is a random variate ({@link ClangRandom}). */
    private ValueUse use(ValueUse.Kind kind, ClangNode at, String detail, String via, boolean variate) {
        return new ValueUse(kind, at.line, at.column, unit.text(at), detail, via, variate);
    }
}
