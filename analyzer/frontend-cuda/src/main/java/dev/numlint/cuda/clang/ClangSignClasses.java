package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether a test of a value against 0 decides the same whatever the rounding of one contraction it depends on.
 *
 * <p>Either the contraction is a sum of magnitudes ({@link ClangSigns#nonNegative}: {@code a*a + b*b},
 * {@code 1.0f + u*u}, {@code sum += w*v} of non-negative weights): fused or not, it is 0 exactly when its terms are
 * (barring underflow, which both variants share) and positive otherwise, so its <em>sign class</em> (negative, zero,
 * positive) does not depend on the rounding; or the path to the test passes a value that is positive whatever the
 * contraction gives ({@code 1.0f / dist} of a non-negative distance, {@code expf(...)}).
 * The tested value keeps that independence through the operations that combine sign classes without looking at
 * magnitudes: products and quotients, {@code sqrt} and {@code fabs} (0 exactly when their argument is), functions that
 * are always positive ({@code rsqrt}, {@code exp}), {@code fmax} against 0, a negation, a local stored only from such
 * values, and a local that sums non-negative such values ({@code val += sqrtf(1.0f + u*u)}: 0 exactly when nothing
 * was added). Everything that does not depend on the contraction at all (a parameter, an element, a constant local)
 * is independent too. A sum of the contraction with another value of unknown sign, a comparison with another
 * threshold than 0, or any other operation keeps the test's flip.
 *
 * <p>The site may also be a division or a call to a function whose rounding keeps the sign class (a quotient,
 * {@code sqrt}, {@code exp}: {@link #keepsClass}); a divisor is taken to be farther from 0 than its rounding error, so
 * a quotient's sign class follows its dividend's; two products of one common factor and non-negative ones
 * ({@code l * m1 + l * m2}) sum to 0 exactly when both are; a store in the body of the tested {@code if} (no loop
 * around it) does not reach the test. Underflow (a quotient or exponential below 2^-126) is the exception none of
 * these proves away.
 *
 * <p>{@code const float s = sqrtf(a*a + b*b) / c; const float w = s * fmaxf(0.0f, hi - lo); if (w > 0.0f)}: the test
 * follows the overlap's sign alone; {@code shift = k * rsqrtf(R*R + x*x); shift > 0.0f}: the sign of {@code k}.
 */
final class ClangSignClasses {
    private static final Set<String> ZERO_WITH_ARGUMENT = Set.of("sqrt", "sqrtf", "fabs", "fabsf", "cbrt", "cbrtf");
    private static final Set<String> ALWAYS_POSITIVE =
            Set.of("rsqrt", "rsqrtf", "exp", "expf", "__expf", "exp2", "exp2f", "exp10", "exp10f", "cosh", "coshf");
    private static final Set<String> RELATIONS = Set.of("<", ">", "<=", ">=", "==", "!=");
    /** Minimum and maximum of two values: of two non-negative ones, 0 exactly when one (both) of them is. */
    private static final Set<String> MIN_MAX = Set.of("fmin", "fminf", "fmax", "fmaxf", "min", "max");
    /** The operations a site can be: a contraction's sum or difference, a sum's update, a division, a call. */
    private static final Set<String> SITE_OPERATORS = Set.of("+", "-", "+=", "-=", "/");
    /** Marks a call site for {@link #find}: a math-library call, written as the site's text. */
    private static final Set<String> CALL = Set.of("()");
    /**
     * Functions whose rounded (or approximate) value has the sign class of the exact one: a relative error below 1
     * keeps a positive value positive, and these are 0 exactly when their argument is (sqrt, cbrt) or never (the
     * rest). Not sin, cos, tan, log: near their zeros an absolute error can change the sign.
     */
    private static final Set<String> CLASS_KEEPING = Set.of(
            "sqrt",
            "sqrtf",
            "cbrt",
            "cbrtf",
            "rsqrt",
            "rsqrtf",
            "exp",
            "expf",
            "__expf",
            "exp2",
            "exp2f",
            "exp10",
            "exp10f",
            "__exp10f",
            "cosh",
            "coshf",
            "hypot",
            "hypotf",
            "norm3d",
            "norm3df",
            "rnorm3d",
            "rnorm3df");

    /**
     * Divisions written as calls: {@code __fdividef(x, y)} is x/y within 2 ulp for |y| in [2^-126, 2^126] and 0 for
     * |y| in (2^126, 2^128), the one range where its sign class is not the quotient's (a case of the underflow the
     * class documents); {@code fdividef} is the same quotient.
     */
    private static final Set<String> QUOTIENTS = Set.of("__fdividef", "fdividef");

    private final ClangUnit unit;
    private final ClangSigns signs;

    /** The comparison being judged (within {@link #testCannotFlip}), for {@link #after}. */
    private ClangNode judged;

    ClangSignClasses(ClangUnit unit, ClangSigns signs) {
        this.unit = unit;
        this.signs = signs;
    }

    /**
     * Whether the comparison written {@code test} at {@code testLine}, of a value with 0, decides the same whatever the
     * rounding of the contraction written {@code site} at {@code siteLine} (same function); false when either is not
     * found or the independence is not proven.
     */
    synchronized boolean testCannotFlip(int siteLine, String site, boolean call, int testLine, String test) {
        for (ClangUnit.Function fn : unit.functions()) {
            if (siteLine < fn.startLine() || siteLine > fn.endLine()) continue;
            if (testLine < fn.startLine() || testLine > fn.endLine()) return false;
            ClangNode at = find(fn, siteLine, site, call ? CALL : SITE_OPERATORS);
            ClangNode cmp = find(fn, testLine, test, RELATIONS);
            if (at == null || cmp == null || cmp.children.size() != 2) return false;
            synchronized (signs) {
                ClangSigns.Signs s = signs.signs(fn);
                ClangNode a = strip(cmp.children.get(0)), b = strip(cmp.children.get(1));
                ClangNode tested = zero(b) ? a : zero(a) ? b : null;
                judged = cmp;
                try {
                    return tested != null && independent(fn, s, tested, at, new HashSet<>());
                } finally {
                    judged = null;
                }
            }
        }
        return false;
    }

    /**
     * Drops from each sum's uses the tests against 0 its order cannot flip: a sum of magnitudes is 0 exactly when its
     * terms are, in any order, so a test against 0 of a value made from it by sign-keeping steps keeps its outcome
     * (session 66 rounds B, D and E: {@code denom = lsq * rsq; if (denom > 0.0)} of two sums of squares, {@code denom
     * = up + down} of gains and losses). A test of the sum itself is the serial-sum rule's own ("tested against 0
     * only"), left to it.
     */
    void dropFixedSignTests(List<dev.numlint.cuda.facts.FunctionFacts.Accumulation> accumulations) {
        for (var a : accumulations) {
            dev.numlint.cuda.facts.Site site = a.site();
            int before = site.uses().size();
            site.dropUses(u -> u.kind() == dev.numlint.cuda.facts.ValueUse.Kind.COMPARISON
                    && u.text() != null
                    && site.text() != null
                    && !a.target().equals(u.via())
                    && testCannotFlip(site.line(), site.text(), false, u.line(), u.text()));
            if (site.uses().size() < before) site.withTestsOfFixedSign();
        }
    }

    /**
     * Whether every decision in the function that the contraction written {@code site} at {@code siteLine} can reach
     * is a test against 0 that its rounding cannot flip, and there is one: {@code q = d / (s + k*d*d); if (d == 0 ||
     * s == 0) q = 0; if (q < 0) ...} with {@code s} and {@code k} never negative. The def-use the uses come from ends
     * a value's life at the next assignment, even one in a branch ({@code q = 0} above), so the test is not among the
     * site's uses; here a value reaches what reads it through every store of every local, whatever the control flow
     * (a superset of the real flows). A decision is a comparison, a condition, a conversion to an integer, a
     * subscript or a call of a function this analysis does not follow. Stricter than {@link #testCannotFlip}: a
     * divisor that reads the site must have a sign class of its own, not only be taken away from 0 ({@code k} of
     * unknown sign keeps the flip).
     */
    synchronized boolean reachedTestsCannotFlip(int siteLine, String site) {
        for (ClangUnit.Function fn : unit.functions()) {
            if (siteLine < fn.startLine() || siteLine > fn.endLine()) continue;
            ClangNode at = find(fn, siteLine, site, SITE_OPERATORS);
            if (at == null) return false;
            synchronized (signs) {
                ClangSigns.Signs s = signs.signs(fn);
                boolean[] tests = {false}, other = {false};
                List<Decision> all = decisionsOf.computeIfAbsent(fn, ClangSignClasses::decisions);
                // a function with very many decisions (generated code) keeps its findings: the walk per site is
                // quadratic there
                if (all.size() > MAX_DECISIONS) return false;
                strict = true;
                try {
                    for (Decision dn : all) {
                        ClangNode n = dn.node();
                        if (other[0]) break;
                        if (n == at || !flowsFrom(fn, n, at, new HashSet<>())) continue;
                        if (!dn.comparison()) {
                            other[0] = true;
                            continue;
                        }
                        ClangNode a = strip(n.children.get(0)), b = strip(n.children.get(1));
                        ClangNode tested = zero(b) ? a : zero(a) ? b : null;
                        judged = n;
                        if (tested != null && independent(fn, s, tested, at, new HashSet<>())) tests[0] = true;
                        else other[0] = true;
                        judged = null;
                    }
                } finally {
                    strict = false;
                    judged = null;
                }
                return tests[0] && !other[0];
            }
        }
        return false;
    }

    /** A comparison (of two operands) or a value something else decides from ({@link #decided}). */
    private record Decision(ClangNode node, boolean comparison) {}

    /** More decisions than this in one function: {@link #reachedTestsCannotFlip} is not tried. */
    private static final int MAX_DECISIONS = 256;

    /** The decisions of each function, in pre-order ({@link #reachedTestsCannotFlip}). */
    private final Map<ClangUnit.Function, List<Decision>> decisionsOf = new java.util.HashMap<>();

    private static List<Decision> decisions(ClangUnit.Function fn) {
        List<Decision> out = new java.util.ArrayList<>();
        fn.node().forEach(n -> {
            if (n.kind == CXCursor_BinaryOperator && RELATIONS.contains(n.spelling)) {
                if (n.children.size() == 2) out.add(new Decision(n, true));
                return;
            }
            for (ClangNode d : decided(n)) out.add(new Decision(d, false));
        });
        return out;
    }

    /** A divisor that reads the site must be proven ({@link #reachedTestsCannotFlip}), not taken away from 0. */
    private boolean strict;

    /**
     * The floating values {@code n} decides something from other than by a comparison: the condition of an
     * {@code if}, a loop or a {@code ?:}, the operands of {@code !}, {@code &&}, {@code ||}, a floating value
     * converted to an integer, the arguments of a call of a function other than a math function that keeps the sign
     * class ({@link #CLASS_KEEPING}, {@link #ZERO_WITH_ARGUMENT}, fmax/fmin).
     */
    private static List<ClangNode> decided(ClangNode n) {
        List<ClangNode> out = new java.util.ArrayList<>();
        int k = 0;
        if (n.kind == CXCursor_IfStmt
                || n.kind == CXCursor_WhileStmt
                || n.kind == CXCursor_ConditionalOperator
                || n.kind == CXCursor_UnaryOperator && n.spelling.equals("!")) k = 1;
        else if (n.kind == CXCursor_BinaryOperator && (n.spelling.equals("&&") || n.spelling.equals("||"))) k = 2;
        for (int i = 0; i < Math.min(k, n.children.size()); i++) {
            ClangNode c = strip(n.children.get(i));
            if (c != null && floating(c.canonKind)) out.add(c);
        }
        if ((n.kind == CXCursor_UnexposedExpr || isExplicitCast(n)) && integral(n.canonKind)) {
            ClangNode op =
                    n.kind == CXCursor_UnexposedExpr && n.children.size() == 1 ? n.children.get(0) : operandOf(n);
            if (op != null && floating(op.canonKind)) out.add(op);
        }
        if (n.kind == CXCursor_CallExpr) {
            String f = callee(n).replace("std::", "");
            if (!(CLASS_KEEPING.contains(f)
                    || ZERO_WITH_ARGUMENT.contains(f)
                    || f.equals("fmax")
                    || f.equals("fmaxf")
                    || f.equals("fmin")
                    || f.equals("fminf"))) out.addAll(arguments(n));
        }
        return out;
    }

    /**
     * Whether {@code e} reads the value of {@code site}: contains it, or reads a local a store of which does, where
     * a store reaches a read written before it only through a loop around both ({@link #reaches} without order).
     */
    private boolean flowsFrom(ClangUnit.Function fn, ClangNode e, ClangNode site, Set<String> seen) {
        boolean[] hit = new boolean[1];
        e.forEach(n -> {
            if (hit[0]) return;
            if (n == site || n.kind == CXCursor_DeclRefExpr && n.refUsr != null && updatedBy(site, n.refUsr)) {
                hit[0] = true;
            } else if (n.kind == CXCursor_DeclRefExpr && n.refUsr != null && seen.add(n.refUsr + "@" + n.offset)) {
                Map<String, List<ClangSigns.Store>> stores = signs.storesOf.get(fn);
                List<ClangSigns.Store> of = stores == null ? null : stores.get(n.refUsr);
                if (of == null) return;
                for (ClangSigns.Store st : of) {
                    if ((st.value().offset < n.offset || inLoopWith(st.value(), n))
                            && flowsFrom(fn, st.value(), site, seen)) {
                        hit[0] = true;
                        return;
                    }
                }
            }
        });
        return hit[0];
    }

    /** Whether a loop encloses both {@code a} and {@code b}. */
    private static boolean inLoopWith(ClangNode a, ClangNode b) {
        for (ClangNode p = a.parent; p != null; p = p.parent) {
            boolean loop = p.kind == CXCursor_ForStmt || p.kind == CXCursor_WhileStmt || p.kind == CXCursor_DoStmt;
            if (loop && p.offset <= b.offset && b.endOffset <= p.endOffset) return true;
        }
        return false;
    }

    /**
     * The binary operator written {@code text} (squashed) at {@code line} with one of {@code ops}, or the call written
     * so when {@code ops} is {@link #CALL}; null when there is none.
     */
    private ClangNode find(ClangUnit.Function fn, int line, String text, Set<String> ops) {
        // a long text comes cut after 120 characters with " ..." (the hand-written front end's site text): its
        // beginning must then name one operation of the line
        boolean cut = text.endsWith(" ...");
        String want = squash(cut ? text.substring(0, text.length() - 4) : text);
        boolean calls = ops == CALL;
        List<ClangNode> out = new java.util.ArrayList<>();
        // the nodes of the line, in pre-order (the body's index: a walk of the whole body for each site and test was
        // quadratic, minutes on a generated kernel of 3,000 statements)
        for (ClangNode n : ClangBodyIndex.of(fn).onLine(line)) {
            if (!(!calls
                            && (n.kind == CXCursor_BinaryOperator || n.kind == CXCursor_CompoundAssignOperator)
                            && ops.contains(n.spelling)
                    || calls && n.kind == CXCursor_CallExpr)) continue;
            String t = squash(unit.text(n));
            // (the cut comes after the token that passes 120 characters, the last one too)
            if (cut ? t.startsWith(want) : t.equals(want)) out.add(n);
        }
        if (out.isEmpty() || cut && out.size() > 1) return null;
        return out.get(0);
    }

    /**
     * Whether the rounding of {@code site} itself leaves its value's sign class (negative, zero, positive) as the
     * exact value's: a sum of non-negative terms (0 exactly when each is, fused or not); a quotient (its relative
     * error, 2 ulp for an approximate one, keeps the sign, and it is 0 exactly when its dividend is); a square root or
     * an always-positive function ({@link #CLASS_KEEPING}); a division written as a call ({@link #QUOTIENTS}). Underflow is the exception none of these proves away: a
     * quotient or exponential below the smallest float (2^-126 when flushed) becomes 0 where the exact one is not.
     */
    private boolean keepsClass(ClangSigns.Signs s, ClangNode site) {
        if (site.kind == CXCursor_BinaryOperator && site.spelling.equals("/")) return floating(site.canonKind);
        if (site.kind == CXCursor_BinaryOperator) return signs.nonNegative(site, s, 0);
        if (site.kind == CXCursor_CallExpr) {
            String f = callee(site).replace("std::", "");
            return CLASS_KEEPING.contains(f) || QUOTIENTS.contains(f) && floating(site.canonKind);
        }
        return false;
    }

    private static boolean zero(ClangNode n) {
        ClangNode x = n;
        while (x != null && isExplicitCast(x) && x.children.size() >= 1)
            x = strip(x.children.get(x.children.size() - 1));
        return x != null && x.value != null && x.value == 0.0;
    }

    /** Whether the sign class of {@code e} does not depend on the rounding of {@code site}. */
    private boolean independent(
            ClangUnit.Function fn, ClangSigns.Signs s, ClangNode e, ClangNode site, Set<String> seen) {
        e = strip(e);
        if (e == null) return false;
        if (e == site) return keepsClass(s, site);
        if (!reaches(fn, e, site, new HashSet<>())) return true;
        if (positive(fn, s, e, new HashSet<>())) return true;
        switch (e.kind) {
            case CXCursor_CStyleCastExpr, CXCursor_CXXStaticCastExpr, CXCursor_CXXFunctionalCastExpr -> {
                return !e.children.isEmpty()
                        && floating(e.canonKind)
                        && independent(fn, s, e.children.get(e.children.size() - 1), site, seen);
            }
            case CXCursor_UnaryOperator -> {
                return e.children.size() == 1
                        && (e.spelling.equals("-") || e.spelling.equals("+"))
                        && independent(fn, s, e.children.get(0), site, seen);
            }
            case CXCursor_BinaryOperator -> {
                if (e.children.size() != 2) return false;
                ClangNode a = e.children.get(0), b = e.children.get(1);
                return switch (e.spelling) {
                    case "*" -> independent(fn, s, a, site, seen) && independent(fn, s, b, site, seen);
                        // a divisor is taken to be farther from 0 than its rounding error: where rounding could
                        // change its sign the quotient is all rounding error (|q| at least 2^23 times the
                        // dividend's ratio to the divisor's terms) in either evaluation, a defect of the division
                        // and not of the test; so the quotient's sign class follows the dividend's
                    case "/" -> independent(fn, s, a, site, seen)
                            && (!strict && divisor(b) || independent(fn, s, b, site, seen));
                        // a sum of non-negative terms is 0 exactly when each is
                    case "+" -> (signs.nonNegative(a, s, 0) && signs.nonNegative(b, s, 0) || commonFactor(fn, s, a, b))
                            && independent(fn, s, a, site, seen)
                            && independent(fn, s, b, site, seen);
                    default -> false;
                };
            }
            case CXCursor_CallExpr -> {
                String f = callee(e).replace("std::", "");
                List<ClangNode> args = arguments(e);
                if (ALWAYS_POSITIVE.contains(f)) return true;
                if (ZERO_WITH_ARGUMENT.contains(f))
                    return args.size() == 1 && independent(fn, s, args.get(0), site, seen);
                if (QUOTIENTS.contains(f) && args.size() == 2) {
                    // a quotient, as '/' below: the dividend's sign class (the divisor taken away from 0)
                    return independent(fn, s, args.get(0), site, seen)
                            && (!strict && divisor(args.get(1)) || independent(fn, s, args.get(1), site, seen));
                }
                if ((f.equals("fmax") || f.equals("fmaxf")) && args.size() == 2) {
                    // max(0, x) is 0 exactly when x <= 0 and positive when x is
                    if (zero(strip(args.get(0)))) return independent(fn, s, args.get(1), site, seen);
                    if (zero(strip(args.get(1)))) return independent(fn, s, args.get(0), site, seen);
                }
                if (MIN_MAX.contains(f) && args.size() == 2) {
                    // the min (max) of two non-negative values is 0 exactly when one (both) of them is: the smallest
                    // of three bond lengths, sqrt of sums of squares, tested against 0
                    return signs.nonNegative(args.get(0), s, 0)
                            && signs.nonNegative(args.get(1), s, 0)
                            && independent(fn, s, args.get(0), site, seen)
                            && independent(fn, s, args.get(1), site, seen);
                }
                return false;
            }
            case CXCursor_DeclRefExpr -> {
                return local(fn, s, e.refUsr, site, seen);
            }
            default -> {
                return false;
            }
        }
    }

    /**
     * Whether {@code e} is positive (or +inf) whatever the rounding of the values it reads: a positive literal, an
     * always-positive function, a positive value divided by a non-negative one ({@code 1.0f / dist}), products of
     * positive values, a positive value plus a non-negative one, the square root or the max of a positive value, and
     * a local stored only from positive values.
     */
    private boolean positive(ClangUnit.Function fn, ClangSigns.Signs s, ClangNode e, Set<String> seen) {
        e = strip(e);
        if (e == null) return false;
        if (e.value != null) return e.value > 0;
        switch (e.kind) {
            case CXCursor_FloatingLiteral, CXCursor_IntegerLiteral -> {
                return false; // a literal without a folded value: not known
            }
            case CXCursor_CStyleCastExpr, CXCursor_CXXStaticCastExpr, CXCursor_CXXFunctionalCastExpr -> {
                return !e.children.isEmpty()
                        && floating(e.canonKind)
                        && positive(fn, s, e.children.get(e.children.size() - 1), seen);
            }
            case CXCursor_BinaryOperator -> {
                if (e.children.size() != 2) return false;
                ClangNode a = e.children.get(0), b = e.children.get(1);
                return switch (e.spelling) {
                    case "*" -> positive(fn, s, a, seen) && positive(fn, s, b, seen);
                    case "/" -> positive(fn, s, a, seen) && signs.nonNegative(b, s, 0);
                    case "+" -> positive(fn, s, a, seen) && signs.nonNegative(b, s, 0)
                            || positive(fn, s, b, seen) && signs.nonNegative(a, s, 0);
                    default -> false;
                };
            }
            case CXCursor_CallExpr -> {
                String f = callee(e).replace("std::", "");
                List<ClangNode> args = arguments(e);
                if (ALWAYS_POSITIVE.contains(f)) return true;
                if ((f.equals("sqrt") || f.equals("sqrtf")) && args.size() == 1)
                    return positive(fn, s, args.get(0), seen);
                if (f.equals("fmax") || f.equals("fmaxf")) {
                    for (ClangNode a : args) if (positive(fn, s, a, seen)) return true;
                }
                return false;
            }
            case CXCursor_DeclRefExpr -> {
                Map<String, List<ClangSigns.Store>> stores = signs.storesOf.get(fn);
                String usr = e.refUsr;
                if (usr == null
                        || stores == null
                        || !stores.containsKey(usr)
                        || signs.opaqueOf.get(fn).contains(usr)) {
                    return false;
                }
                if (!seen.add(usr)) return false;
                try {
                    List<ClangSigns.Store> of = stores.get(usr);
                    if (of.isEmpty()) return false;
                    for (ClangSigns.Store st : of) {
                        if (!st.op().equals("=") || !positive(fn, s, st.value(), seen)) return false;
                    }
                    return true;
                } finally {
                    seen.remove(usr);
                }
            }
            default -> {
                return false;
            }
        }
    }

    /** A local whose every store is independent; a sum only of non-negative such values. */
    private boolean local(ClangUnit.Function fn, ClangSigns.Signs s, String usr, ClangNode site, Set<String> seen) {
        Map<String, List<ClangSigns.Store>> stores = signs.storesOf.get(fn);
        if (usr == null
                || stores == null
                || !stores.containsKey(usr)
                || signs.opaqueOf.get(fn).contains(usr)) {
            return false;
        }
        // a store that reads the local itself (rmin = fminf(rmin, rdc), t = t * x): by induction over the stores, the
        // value it reads has the class the other stores give it, which the loop below checks; every operation
        // independent() accepts combines sign classes only, so the cycle adds no dependence on the rounding
        if (!seen.add(usr)) return true;
        try {
            boolean sums = false;
            boolean later = false;
            for (ClangSigns.Store st : stores.get(usr)) {
                if (after(st.value())) {
                    later = true;
                    continue;
                }
                // a -= of a never-positive value adds a magnitude (else down -= diff under if (diff > 0))
                if (st.op().equals("+=") || st.op().equals("-=")) sums = true;
                else if (!st.op().equals("=")) return false;
                if (!independent(fn, s, st.value(), site, seen)) return false;
            }
            // a sum of values of unknown signs can cancel to 0 by the rounding of one term
            if (!sums || s.nonNegative().contains(usr)) return true;
            if (!later) return false;
            // the sign fact holds for the stores that reach the test (the one it guards comes after it)
            for (ClangSigns.Store st : stores.get(usr)) {
                boolean signed = st.op().equals("-=")
                        ? signs.nonPositive(st.value(), s, 0)
                        : signs.nonNegative(st.value(), s, 0);
                if (!after(st.value()) && !signed) return false;
            }
            return true;
        } finally {
            seen.remove(usr);
        }
    }

    /**
     * Whether {@code a} and {@code b} are products of one common factor and a non-negative one ({@code w1 = l * m1},
     * {@code w2 = l * m2} with {@code m1, m2 >= 0}, directly or through locals stored once): both terms then have the
     * sign of {@code l} or are 0, so their sum is 0 exactly when both are, whatever {@code l}'s sign.
     */
    private boolean commonFactor(ClangUnit.Function fn, ClangSigns.Signs s, ClangNode a, ClangNode b) {
        ClangNode x = product(fn, a), y = product(fn, b);
        if (x == null || y == null) return false;
        for (int i = 0; i < 2; i++) {
            for (int j = 0; j < 2; j++) {
                ClangNode f = x.children.get(i), g = y.children.get(j);
                String ft = squash(unit.text(strip(f)));
                // one value: a local stored once (const float l = ...), read by both products
                if (ft.isEmpty() || !ft.equals(squash(unit.text(strip(g)))) || !fixedValue(fn, strip(f))) continue;
                if (signs.nonNegative(x.children.get(1 - i), s, 0) && signs.nonNegative(y.children.get(1 - j), s, 0))
                    return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code e} has one value wherever it is read: locals stored once and their products
     * ({@code helicalWeight * l_phi}), with no call.
     */
    private boolean fixedValue(ClangUnit.Function fn, ClangNode e) {
        if (e != null && e.kind == CXCursor_BinaryOperator && e.spelling.equals("*") && e.children.size() == 2)
            return fixedValue(fn, strip(e.children.get(0))) && fixedValue(fn, strip(e.children.get(1)));
        return storedOnce(fn, e);
    }

    /** Whether {@code e} names a local stored exactly once, by its declaration or one assignment. */
    private boolean storedOnce(ClangUnit.Function fn, ClangNode e) {
        if (e == null || e.kind != CXCursor_DeclRefExpr || e.refUsr == null) return false;
        Map<String, List<ClangSigns.Store>> stores = signs.storesOf.get(fn);
        List<ClangSigns.Store> of = stores == null ? null : stores.get(e.refUsr);
        return of != null
                && of.size() == 1
                && of.get(0).op().equals("=")
                && !signs.opaqueOf.get(fn).contains(e.refUsr);
    }

    /** {@code e} as a product {@code p * q}: itself, or the one value of a local stored once; else null. */
    private ClangNode product(ClangUnit.Function fn, ClangNode e) {
        ClangNode x = strip(e);
        if (x != null && x.kind == CXCursor_DeclRefExpr && x.refUsr != null) {
            Map<String, List<ClangSigns.Store>> stores = signs.storesOf.get(fn);
            List<ClangSigns.Store> of = stores == null ? null : stores.get(x.refUsr);
            if (of == null
                    || of.size() != 1
                    || !of.get(0).op().equals("=")
                    || signs.opaqueOf.get(fn).contains(x.refUsr)) return null;
            x = strip(of.get(0).value());
        }
        return x != null && x.kind == CXCursor_BinaryOperator && x.spelling.equals("*") && x.children.size() == 2
                ? x
                : null;
    }

    /**
     * Whether {@code value} is stored in the body of the {@code if} whose condition is the judged test, with no loop
     * around that {@code if}: such a store ({@code if (val == 0.0f) val = 1.0f / scale;}) cannot reach the test.
     */
    private boolean after(ClangNode value) {
        if (judged == null) return false;
        ClangNode stmt = judged.parent, cond = judged;
        while (stmt != null && stmt.kind != CXCursor_IfStmt && clang_isExpressionKind(stmt.kind)) {
            cond = stmt;
            stmt = stmt.parent;
        }
        if (stmt == null || stmt.kind != CXCursor_IfStmt || stmt.children.isEmpty() || stmt.children.get(0) != cond)
            return false;
        for (ClangNode p = stmt.parent; p != null; p = p.parent) {
            if (p.kind == CXCursor_ForStmt || p.kind == CXCursor_WhileStmt || p.kind == CXCursor_DoStmt) return false;
        }
        for (ClangNode p = value; p != null && p.parent != null; p = p.parent) {
            if (p.parent == stmt) return p != cond; // in the then or else branch, not in the condition
        }
        return false;
    }

    /** A floating divisor: the program divides by it, so it is taken to be away from 0 (see the caller). */
    private static boolean divisor(ClangNode b) {
        ClangNode x = strip(b);
        return x != null && floating(x.canonKind);
    }

    /** Whether {@code site} is a compound assignment ({@code sum += a*b}) to the local {@code usr}. */
    private static boolean updatedBy(ClangNode site, String usr) {
        if (site.kind != CXCursor_CompoundAssignOperator || site.children.isEmpty()) return false;
        ClangNode l = strip(site.children.get(0));
        return l != null && l.kind == CXCursor_DeclRefExpr && usr.equals(l.refUsr);
    }

    /** Whether {@code e} reads the value of {@code site}: contains it, or reads a local a store of which does. */
    private boolean reaches(ClangUnit.Function fn, ClangNode e, ClangNode site, Set<String> seen) {
        boolean[] hit = new boolean[1];
        e.forEach(n -> {
            if (hit[0]) return;
            if (n == site) {
                hit[0] = true;
            } else if (n.kind == CXCursor_DeclRefExpr && n.refUsr != null && updatedBy(site, n.refUsr)) {
                hit[0] = true;
            } else if (n.kind == CXCursor_DeclRefExpr && n.refUsr != null && seen.add(n.refUsr)) {
                Map<String, List<ClangSigns.Store>> stores = signs.storesOf.get(fn);
                List<ClangSigns.Store> of = stores == null ? null : stores.get(n.refUsr);
                if (of != null) {
                    for (ClangSigns.Store st : of) {
                        if (reaches(fn, st.value(), site, seen)) {
                            hit[0] = true;
                            return;
                        }
                    }
                }
            }
        });
        return hit[0];
    }

    /**
     * Drops the tests against 0 whose outcome the rounding of a contraction, a division, a square root or an
     * exponential cannot change (its sign class is fixed, and only products, quotients, square roots and positive
     * functions lead from it to the tested value: {@link ClangSignClasses}), from the hand-written facts
     * ({@link ClangSupplement#amend}) and from Clang's own of a function only Clang read ({@link ClangSupplement#missing}).
     */
    void testsOfFixedSign(dev.numlint.cuda.facts.FunctionFacts facts) {
        java.util.List<dev.numlint.cuda.facts.Site> rounded = new java.util.ArrayList<>();
        // written as a call: a math function, or a division by its intrinsic (__fdividef(a, b))
        java.util.Set<dev.numlint.cuda.facts.Site> calls =
                java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (dev.numlint.cuda.facts.FunctionFacts.Contraction c : facts.contractions) rounded.add(c.site());
        for (dev.numlint.cuda.facts.FunctionFacts.Division d : facts.divisions) {
            rounded.add(d.site());
            if (d.intrinsic() != null) calls.add(d.site());
        }
        for (dev.numlint.cuda.facts.FunctionFacts.MathCall c : facts.calls) {
            rounded.add(c.site());
            calls.add(c.site());
        }
        for (int i = 0; i < rounded.size(); i++) {
            dev.numlint.cuda.facts.Site site = rounded.get(i);
            boolean call = calls.contains(site);
            int before = site.uses().size();
            site.dropUses(u -> u.kind() == dev.numlint.cuda.facts.ValueUse.Kind.COMPARISON
                    && u.text() != null
                    && site.text() != null
                    && testCannotFlip(site.line(), site.text(), call, u.line(), u.text()));
            if (site.uses().size() < before) site.withTestsOfFixedSign();
        }
        dropFixedSignTests(facts.accumulations);
        // a test the uses lost at a conditional reset (q = 0 in a branch) that cannot flip either: the PTX layer's
        // "compared in a condition" at it does not raise the finding (Consequences.fixedSign)
        for (dev.numlint.cuda.facts.FunctionFacts.Contraction c : facts.contractions) {
            if (!c.site().testsOfFixedSign()
                    && c.site().uses().stream().noneMatch(u -> u.kind().amplifies())
                    && reachedTestsCannotFlip(c.site().line(), c.site().text()))
                c.site().withTestsOfFixedSign();
        }
    }
}
