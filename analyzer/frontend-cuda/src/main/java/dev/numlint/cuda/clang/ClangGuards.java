package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What limits the range of a converted operand in Clang's reading ({@link ClangUnit.Conversion#guard}): a clamp or a
 * conditional in the operand, or a test on the operand's variables that the conversion is only reached through:
 * <ul>
 *   <li>an enclosing {@code if (d > 0 && s > 0) ... (unsigned)(d / s)} or {@code d >= 0 ? unsigned(d / s) : 0}
 *       (the conversion in the branch the test selects);</li>
 *   <li>an earlier statement of an enclosing block that leaves when the test holds:
 *       {@code if (x < 0) continue; ... (unsigned)x} ({@code continue}, {@code break}, {@code return},
 *       {@code goto}, a {@code throw}): the test dominates the conversion;</li>
 *   <li>the variable's nearest earlier definition in an enclosing block is a clamp or a conditional
 *       ({@code d = max(d, 0.)}, {@code float v = fminf(x, 1.f)}).</li>
 * </ul>
 * As the hand-written front end's value model: a sum or difference is limited when each operand is limited or a
 * constant, a product, quotient or call when one operand is; a variable written between the test and the conversion
 * is not limited by the test.
 */
final class ClangGuards {
    private ClangGuards() {}

    /** What limits {@code op}, the operand of the conversion {@code conv} in {@code fn}, or null. */
    static String of(ClangUnit unit, ClangNode conv, ClangNode op, ClangUnit.Function fn) {
        String g = of(unit, conv, op, fn, DEFINITIONS);
        return CONSTANT.equals(g) ? null : g; // a constant value: its own interval decides, no guard does
    }

    /**
     * The guard of a small term: a variable whose definition is a constant ({@code float rem = 0;}), a fractional part
     * of either sign ({@code rem = v - (float)(uint32_t)v}: in (-1, 1)), an expression of such terms. A term of a sum
     * as a literal is ({@code (uint32_t)(d * s + rem)} is as limited as {@code d * s}); never a guard by itself.
     */
    static final String CONSTANT = "\0a constant";

    /**
     * Whether its interval says {@code op} is not negative, or a test that dominates it proves one of its floating
     * variables, members or elements not negative
     * ({@code if (low > 0) b.x = floorf(low / res);}, {@code if (x < 0) continue; ... u = x;}; the branch taken, not
     * the other: {@link ClangSignGuards}): the guard bounds the side on which a conversion to unsigned wraps.
     */
    static boolean fromBelow(ClangUnit unit, ClangNode op, ClangUnit.Function fn) {
        if (op == null || fn == null) return false;
        // a clamp from below the value goes through (const float d = fmaxf(x, 0.f); make_uchar4(d * 255, ...)): the
        // side that wraps is bounded as by a test (session 61 round E: an explicit cast of it was a note, the
        // implicit one left the PTX layer's error standing)
        if (unit.interval(op, fn)[0] >= 0) return true;
        boolean[] found = new boolean[1];
        op.forEach(x -> {
            if (!found[0] && valued(x) && Path.of(x) != null && ClangSignGuards.proves(unit, x, fn, true))
                found[0] = true;
        });
        return found[0];
    }

    /**
     * Whether {@code x} holds a floating value: of a floating type, or of a template parameter's type in the pattern
     * ({@code T value} of floating instantiations: {@code value >= 0 ? int(value + 0.5) : ...} is limited as well).
     */
    static boolean valued(ClangNode x) {
        return floating(x.canonKind) || x.canon != null && x.canon.matches("(const )?type-parameter-\\d+-\\d+");
    }

    /** How many definitions deep a guard is followed ({@code low = floorf(x)} after a test on {@code x}: one). */
    private static final int DEFINITIONS = 3;

    static String of(ClangUnit unit, ClangNode conv, ClangNode op, ClangUnit.Function fn, int depth) {
        // x modulo c is in [0, c]; the remainder of x / c, of either sign, in (-c, c): a guard when the target holds
        // the interval, to unsigned only the first (ClangFractions.modulo)
        ClangNode d = strip(op);
        double[] rest = d != null && d.kind == CXCursor_BinaryOperator ? ClangFractions.modulo(unit, d) : null;
        int bits = integral(conv.canonKind) ? 8 * bytes(conv.canonKind) : 0;
        boolean unsigned = unsignedKind(conv.canonKind);
        if (rest != null
                && bits > 0
                && (unsigned ? rest[0] >= 0 && rest[1] < Math.pow(2, bits) : rest[1] < Math.pow(2, bits - 1)))
            return "the remainder '" + unit.text(d) + "' (line " + d.line + ")";
        Map<String, Path> paths = new HashMap<>();
        op.forEach(x -> {
            if (!valued(x)) return;
            Path v = Path.of(x);
            if (v != null) paths.putIfAbsent(v.key, v);
        });
        Map<String, String> vars = new HashMap<>();
        for (Path v : paths.values()) vars.put(v.key, guardOf(unit, conv, v, fn, depth));
        return limited(unit, op, vars);
    }

    /**
     * A call that bounds its result: a clamp or min/max of the toolkit or the standard library ({@link
     * ClangUnit#CLAMPS}), or a min/max helper of the project ({@code template <class F> F __m_max(F a, F b) { return a
     * > b ? a : b; }}: {@link ClangTemplates#minMaxHelper}).
     */
    static boolean clampCall(ClangUnit unit, ClangNode call) {
        String name = callee(call);
        // std::numeric_limits<short>::max() is a constant, no clamp of a value (session 58 round D: 'x * max()')
        if (arguments(call).isEmpty()) return false;
        return ClangUnit.CLAMPS.contains(name) || ClangTemplates.minMaxHelper(unit, name) != null;
    }

    /**
     * The guard of the expression from its own clamps and conditionals and its variables' guards ({@code guards}: by
     * path, null when unguarded): a clamp ({@code fminf(x, 1.f)}) or a conditional limits its value, and the value
     * model above carries that through + - * / and calls, so a clamped term summed with an unknown one guards nothing.
     */
    static String limited(ClangUnit unit, ClangNode e, Map<String, String> guards) {
        ClangNode n = strip(e);
        if (n == null) return null;
        if (isExplicitCast(n) || n.kind == CXCursor_StmtExpr) // ({ ...; value; }): a statement expression's value
        return limited(unit, isExplicitCast(n) ? operandOf(n) : stmtExprValue(n), guards);
        if (n.kind == CXCursor_CallExpr && clampCall(unit, n)) return callee(n) + "()" + sides(unit, n, guards);
        String helper = n.kind == CXCursor_CallExpr ? ClangClampHelpers.clampHelper(unit, n) : null;
        if (helper != null) return helper;
        if (n.kind == CXCursor_ConditionalOperator)
            return ClangConditionals.limits(unit, n, x -> limited(unit, x, guards) != null);
        if (n.kind == CXCursor_UnaryOperator
                && n.children.size() == 1
                && (n.spelling.equals("-") || n.spelling.equals("+"))) return limited(unit, n.children.get(0), guards);
        if (n.kind == CXCursor_DeclRefExpr
                || n.kind == CXCursor_MemberRefExpr
                || n.kind == CXCursor_ArraySubscriptExpr
                || Path.deref(n)
                || Path.accessor(n)) {
            String k = Path.key(n);
            return k == null ? null : guards.get(k);
        }
        if (n.kind == CXCursor_BinaryOperator && n.children.size() == 2) {
            ClangNode a = n.children.get(0);
            ClangNode b = n.children.get(1);
            String ga = limited(unit, a, guards);
            String gb = limited(unit, b, guards);
            if (n.spelling.equals("-")) {
                String ordered = ClangOrderedDifferences.orderedBy(unit, n, a, b);
                if (ordered != null) return ordered;
                String extreme = ClangOrderedDifferences.extreme(unit, n, a, b);
                if (extreme != null) return extreme;
                String fraction = ClangFractions.of(unit, n, a, b);
                if (fraction != null) return fraction;
                if (ClangFractions.lowBits(n) > 0) return "the low bits '" + unit.text(n) + "' (line " + n.line + ")";
                if (ClangFractions.small(n, a, b)) return CONSTANT;
            }
            if (n.spelling.equals("+") || n.spelling.equals("-")) {
                // an unsigned integer term of a sum is never negative: it keeps a guarded term's bound from below
                // (bits = data_bits + start_bits + stop_bits with the unsigned data_bits and the two others clamped at
                // 0: session 62 round D, a modem's frame size)
                boolean plus = n.spelling.equals("+");
                // so is a term its interval proves not negative (freq + 2*PI/window of an unsigned window: session
                // 68 round B, a spectral tuner's channel bins after 'if (freq < 0 || freq >= 2*PI) goto fail;')
                boolean ca = constantTerm(a) || plus && (unsignedTerm(a) || nonNegativeTerm(unit, a)),
                        cb = constantTerm(b) || plus && (unsignedTerm(b) || nonNegativeTerm(unit, b));
                if ((ga != null || ca) && (gb != null || cb)) return ga != null && !CONSTANT.equals(ga) ? ga : gb;
                return null;
            }
            if (n.spelling.equals("/")) {
                String mean = ClangWeightedMeans.guard(unit, n);
                if (mean != null) return mean;
            }
            // a divisor's guard (m = max(r, g, b); if (m < 1) m = 1; r / m) bounds the divisor, not a side of the
            // quotient: it is named as the divisor's (session 57: "a lower bound only: large values" misled)
            if (n.spelling.equals("/") && ga == null && gb != null && !CONSTANT.equals(gb))
                return unsided(gb) + " on the divisor";
            if (n.spelling.equals("*") || n.spelling.equals("/")) return ga != null && !CONSTANT.equals(ga) ? ga : gb;
            return null;
        }
        if (n.kind == CXCursor_CallExpr) {
            for (ClangNode a : arguments(n)) {
                String g = limited(unit, a, guards);
                if (g != null && !CONSTANT.equals(g)) return g;
            }
        }
        return null;
    }

    /**
     * What a min or max call leaves open, as {@link Clamp#describe} says it: {@code std::min(1.f, x)} bounds from
     * above only, unless an argument is itself limited ({@code min(1.f, max(0.f, x))}); "" for a clamp of both sides
     * (session 61 round A: "limited by min()" hid the open negative side).
     */
    private static String sides(ClangUnit unit, ClangNode call, Map<String, String> guards) {
        String name = callee(call).replace("std::", "");
        String helper = ClangUnit.CLAMPS.contains(name) ? null : ClangTemplates.minMaxHelper(unit, name);
        boolean min = MIN_CALLS.contains(name) || "min".equals(helper);
        boolean max = MAX_CALLS.contains(name) || "max".equals(helper);
        if (!min && !max) return "";
        for (ClangNode a : arguments(call)) {
            ClangNode x = strip(a);
            if (x != null && x.kind == CXCursor_CallExpr && clampCall(unit, x)) return "";
            String g = x == null || constantTerm(x) ? null : limited(unit, x, guards);
            if (g != null && !CONSTANT.equals(g)) return "";
        }
        return min ? UPPER_ONLY : LOWER_ONLY;
    }

    /** The minimum and the maximum of two values among the toolkit's and the standard library's functions. */
    static final Set<String> MIN_CALLS = Set.of("fminf", "fmin", "min", "umin"),
            MAX_CALLS = Set.of("fmaxf", "fmax", "max", "umax");

    /** Whether {@code e} is of an unsigned integer type (under implicit conversions), and not a constant. */
    private static boolean unsignedTerm(ClangNode e) {
        ClangNode x = strip(e);
        return x != null && integral(x.canonKind) && unsignedKind(x.canonKind) && x.canonKind != CXType_Bool;
    }

    /** Whether the interval of {@code e} in its function is not negative (a quotient of a constant by a count). */
    private static boolean nonNegativeTerm(ClangUnit unit, ClangNode e) {
        ClangUnit.Function fn = unit.functionOf(e);
        return fn != null && unit.interval(e, fn)[0] >= 0;
    }

    static boolean constantTerm(ClangNode e) {
        return constant(e) != null || strip(e) != null && strip(e).value != null;
    }

    /** What limits the variable, member or element {@code usr} where {@code at} reads it, or null. */
    static String guardOf(ClangUnit unit, ClangNode at, Path usr, ClangUnit.Function fn, int depth) {
        ClangNode c = at;
        for (ClangNode p = at.parent; p != null && p != fn.node(); c = p, p = p.parent) {
            // the branch taken when the test holds, or the else branch (the test failed: the other side of it)
            if (p.kind == CXCursor_IfStmt
                    && p.children.size() >= 2
                    && (p.children.get(1) == c || p.children.size() == 3 && p.children.get(2) == c)) {
                ClangNode test = p.children.get(0);
                // the branch of a disjunction (v >= MIN || v <= MAX) holds where either part does: no bound
                boolean either = p.children.get(1) == c && disjunction(test);
                if (!either && compares(test, usr) && !writtenBetween(p, at, usr)) {
                    // in the branch where the test makes it negative, a conversion to unsigned always wraps
                    if (ClangNegativeBranches.negative(at, test, usr, p.children.get(1) == c)) return null;
                    String here = "the test '" + ClangQuotes.test(unit, test) + "' (line " + test.line + ")";
                    String sided = ClangTestSides.sided(test, usr, p.children.get(1) == c);
                    return sided.isEmpty() ? here : otherSide(unit, p, usr, fn, depth, here, sided);
                }
            }
            String operand = ClangOperandTests.guard(unit, p, c, at, usr);
            if (operand != null) return operand.isEmpty() ? null : operand;
            String loop = ClangLoopConditions.guard(unit, p, c, at, usr);
            if (loop != null) return loop;
            if (p.kind != CXCursor_CompoundStmt) continue;
            // a switch that writes nothing of it: every case holds what it held before the switch (session 77 round
            // E: an HSV conversion's clamped value read in each case)
            if (p.parent != null && p.parent.kind == CXCursor_SwitchStmt && !writes(p.parent, usr)) continue;
            // a read under a label (case K: ...) is entered past the statements before it
            if (ClangSyntax.labelled(c) != c) return null;
            int i = p.children.indexOf(c);
            String later = ClangLaterExits.of(unit, p, i, at, usr); // size_t k = (size_t)f; if (f < 0) return;
            if (later != null) return later;
            List<ClangNode[]> exits = new java.util.ArrayList<>(); // early exits passed: {check, its statement}
            for (int k = i - 1; k >= 0; k--) {
                // a statement under a label runs on entry through it; what is before it, maybe not
                boolean label = ClangSyntax.labelled(p.children.get(k)) != p.children.get(k);
                ClangNode s = ClangSyntax.labelled(p.children.get(k));
                String loopExit = label ? null : ClangLoopConditions.exit(unit, s, usr); // while (x > M) x *= .5f;
                if (loopExit != null) return loopExit;
                String def =
                        ClangDefinitionGuards.of(unit, new ClangDefinitionGuards.Place(p, k, i, exits), usr, fn, depth);
                if (def != null) return def.isEmpty() ? null : def;
                // a check macro's do { if (...) { } else return; } while (0) runs its if once, in place
                ClangNode check = ClangChecks.ifOf(s);
                if (check == null && ClangChecks.checkOp(s) != null) check = s; // CHECK_GE(a, b) of glog and Abseil
                if (check != null) {
                    boolean once = check != s;
                    String g = chainExit(unit, check, usr, once);
                    // a test of the integer the value truncates to (int k = int(x); if (k < 0 || k > 63) return;)
                    // limits the value as much (x in (-1, 64))
                    for (Path t : g == null && !writes(s, usr) ? truncations(p, k, usr) : List.<Path>of()) {
                        if ((g = chainExit(unit, check, t, once)) != null) break;
                    }
                    if (g != null && ClangNegativeBranches.exitsAbove(at, check, usr))
                        return null; // if (v > 0) return;
                    if (g != null) return ClangGuardPairs.otherSide(unit, p, k, usr, g);
                    exits.add(new ClangNode[] {check, s});
                }
                String chain = chainClamps(unit, s, usr);
                if (chain != null) return chain;
                Clamp clamp = conditionalClamp(unit, s, usr);
                Clamp wrap = clamp == null ? ClangWrapLoops.of(unit, p, k, usr) : null;
                // a wrap from below after a bound from above may add past that bound: its lower bound alone
                if (wrap != null && wrap.side() < 0) return wrap.describe();
                if (wrap != null) clamp = wrap;
                // a hand-written absolute value bounds from below only, whatever clamps came before it
                Clamp flip = clamp == null ? ClangSignFlips.of(unit, p, k, usr) : null;
                if (flip != null) return flip.describe();
                if (clamp != null) {
                    // the other side clamped by an earlier statement of the block, before any other write of usr:
                    // both bounds are known (if (x > M) x = M; after if (x < 0) x = 0;)
                    for (int k2 = k - 1; k2 >= 0 && clamp.side() != 0; k2--) {
                        ClangNode s2 = p.children.get(k2);
                        Clamp other = conditionalClamp(unit, s2, usr);
                        // a wrap from above after one from below keeps its lower bound (ClangWrapLoops)
                        if (other == null && clamp.side() > 0) other = ClangWrapLoops.of(unit, p, k2, usr);
                        if (other != null && other.side() == -clamp.side())
                            return BOTH.substring(0, BOTH.length() - 1) + other.named() + " and " + clamp.named();
                        if (writes(s2, usr)) break;
                    }
                    return ClangGuardPairs.otherSide(unit, p, k, usr, clamp.describe());
                }
                String byReference = ClangReferenceClamps.of(unit, s, usr);
                if (byReference != null) return byReference;
                String remainder = ClangRemainderSteps.of(unit, p, k, usr);
                if (remainder != null) return remainder;
                if (!label && ClangConstantStores.keeps(s, usr)) continue; // if (f == 0) d = 0; (a constant in range)
                if (writes(s, usr) || label) return null;
            }
        }
        return null;
    }

    /**
     * The integer locals that statements before {@code block}'s statement {@code at} declare as a conversion of
     * {@code usr} ({@code int k = int(x)}, {@code int k = (int) x}), when neither is written between that declaration
     * and {@code at}.
     */
    private static List<Path> truncations(ClangNode block, int at, Path usr) {
        List<Path> out = new java.util.ArrayList<>();
        for (int k = at - 1; k >= 0; k--) {
            ClangNode s = block.children.get(k);
            if (s.kind == CXCursor_DeclStmt) {
                for (ClangNode d : s.children) {
                    if (d.kind != CXCursor_VarDecl || d.usr == null || !integral(d.canonKind) || d.children.isEmpty())
                        continue;
                    ClangNode v = strip(d.children.get(d.children.size() - 1));
                    while (v != null && isExplicitCast(v)) v = strip(operandOf(v));
                    // int lo = (int)floor(t): floor(t) >= 0 only where t >= 0 (session 58 round D, a colour LUT)
                    if (v != null && v.kind == CXCursor_CallExpr && ROUNDINGS.contains(callee(v)))
                        v = arguments(v).size() == 1 ? strip(arguments(v).get(0)) : null;
                    while (v != null && isExplicitCast(v)) v = strip(operandOf(v));
                    if (v == null || !floating(v.canonKind) || !usr.key.equals(Path.key(v))) continue;
                    Path t = new Path(d.usr, java.util.Set.of(), false);
                    boolean written = false;
                    for (int j = k + 1; j < at && !written; j++) {
                        written = writes(block.children.get(j), t) || writes(block.children.get(j), usr);
                    }
                    if (!written) out.add(t);
                }
            }
            if (writes(s, usr)) break;
        }
        return out;
    }

    /**
     * A conditional clamp of a variable: its test's text and line, and the side it bounds (+1 from above, {@code
     * if (x > M) x = M;}; -1 from below, {@code if (x < 0) x = 0;}; 0 when the test does not say).
     */
    record Clamp(String test, int line, int side, Double floor) {
        Clamp(String test, int line, int side) {
            this(test, line, side, null);
        }

        /** The test as a message names it, with a lower bound below 0 it sets ({@link #belowZero}). */
        String named() {
            return "'" + test + "' (line " + line + ")"
                    + (floor != null && floor < 0 ? DOWN_TO + bound(floor) + ")" : "");
        }

        /** The guard as a message names it: a one-sided clamp says which side is left open. */
        String describe() {
            String t = "the test " + named();
            if (side > 0) return t + UPPER_ONLY;
            if (side < 0) return t + LOWER_ONLY;
            return t;
        }
    }

    /**
     * {@code here} (a test bounding one side, {@code sided} says which) with the test of an enclosing if / else chain
     * that bounds the other ({@code if (x < 0) return 0; else if (x >= w) return m; else return (u8)(x * k);}: both
     * sides; session 68 round B, a signal library's decider, a note said "the negative side is unguarded").
     */
    private static String otherSide(
            ClangUnit unit, ClangNode from, Path usr, ClangUnit.Function fn, int depth, String here, String sided) {
        String outer = guardOf(unit, from, usr, fn, depth);
        String other = sided.equals(UPPER_ONLY) ? LOWER_ONLY : UPPER_ONLY;
        if (outer == null || !outer.endsWith(other) || !outer.startsWith("the test ")) return here + sided;
        return here + " and " + outer.substring(0, outer.length() - other.length());
    }

    static final String UPPER_ONLY = ", an upper bound only: the negative side is unguarded";

    static final String LOWER_ONLY = ", a lower bound only: large values are unguarded";

    private static final String BOTH = "the clamps '", BOUNDS = ClangGuardPairs.BOUNDS;

    /** Roundings to a whole number whose sign is their argument's (floor(t) >= 0 only where t > -1). */
    private static final java.util.Set<String> ROUNDINGS = java.util.Set.of(
            "floor",
            "floorf",
            "floorl",
            "std::floor",
            "ceil",
            "ceilf",
            "ceill",
            "std::ceil",
            "trunc",
            "truncf",
            "std::trunc",
            "round",
            "roundf",
            "std::round",
            "rint",
            "rintf",
            "nearbyint",
            "nearbyintf");

    private static final String DOWN_TO = " (down to ";

    /**
     * Whether a guard's clamp sets a lower bound below 0 ({@code if (s < -32768.0) s = -32768.0;}): it bounds a
     * conversion to a signed type, not the negative values a conversion to an unsigned one wraps (session 58 round D:
     * a crossfeed library's 14 conversions of signed samples to uint16_t and uint32_t were notes "limited by the
     * clamps").
     */
    static boolean belowZero(String guard) {
        return guard != null && guard.contains(DOWN_TO + "-");
    }

    private static String bound(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    private static String unsided(String guard) {
        for (String side : List.of(UPPER_ONLY, LOWER_ONLY))
            if (guard.endsWith(side)) return guard.substring(0, guard.length() - side.length());
        return guard;
    }

    /**
     * Whether a guard names the sides conditional clamps bound ({@link Clamp#describe}, or clamps of both sides): what
     * the hand-written facts' guard of the same conversion, a test found by its text, does not say.
     */
    static boolean namesSides(String guard) {
        return guard != null && (unsided(guard) != guard || guard.startsWith(BOTH) || guard.startsWith(BOUNDS));
    }

    /**
     * The guard of a conditional clamp {@code if (v < 0.0f) v = 0.0f;} or {@code if (v > m) v = m;}: an {@code if}
     * without {@code else} whose test compares {@code usr} and whose branch sets it to a constant or to the value the
     * test compares it with, as its last statement after others that neither write it nor leave ({@code { nclip++;
     * x = M; }}); null for any other statement.
     */
    static Clamp conditionalClamp(ClangUnit unit, ClangNode s, Path usr) {
        if (s.kind != CXCursor_IfStmt || s.children.size() != 2) return null;
        return clampOf(unit, s.children.get(0), s.children.get(1), usr);
    }

    /**
     * The two sides of a clamp written as one {@code if} / {@code else if} ({@code if (a > M) a = M; else if (a <
     * -M) a = -M;}): each branch a clamp of {@code usr}, on opposite sides, and no final else; the guard as a message
     * names it, or null (session 56: an audio decoder's float-to-short conversion after such a chain was an
     * "unguarded" warning; the same clamps as two statements were a note).
     */
    private static String chainClamps(ClangUnit unit, ClangNode s, Path usr) {
        if (s.kind != CXCursor_IfStmt || s.children.size() != 3) return null;
        ClangNode inner = strip(s.children.get(2));
        if (inner == null || inner.kind != CXCursor_IfStmt || inner.children.size() != 2) return null;
        Clamp first = clampOf(unit, s.children.get(0), s.children.get(1), usr);
        Clamp second = first == null ? null : conditionalClamp(unit, inner, usr);
        if (second == null || first.side() == 0 || second.side() != -first.side()) return null;
        return BOTH.substring(0, BOTH.length() - 1) + first.named() + " and " + second.named();
    }

    private static Clamp clampOf(ClangUnit unit, ClangNode test, ClangNode then, Path usr) {
        then = ClangClampBlocks.setting(then, usr);
        ClangNode e = then == null ? null : strip(then);
        if (e == null || e.kind != CXCursor_BinaryOperator || !e.spelling.equals("=") || e.children.size() != 2)
            return null;
        if (!usr.key.equals(Path.key(e.children.get(0))) || writes(test, usr) || !compares(test, usr)) return null;
        ClangNode rhs = e.children.get(1);
        boolean constant = constant(rhs) != null || folded(rhs) != null;
        // if (x > M) x = M: the bound the test names, the value it limits to (M a variable, member or element)
        ClangNode t = strip(test);
        while (t != null && t.kind == CXCursor_ParenExpr && t.children.size() == 1) t = strip(t.children.get(0));
        int side = 0;
        boolean bound = false;
        if (t != null && t.kind == CXCursor_BinaryOperator && t.children.size() == 2) {
            String x = ClangOrderedDifferences.operandKey(t.children.get(0));
            String y = ClangOrderedDifferences.operandKey(t.children.get(1));
            boolean left = usr.key.equals(x);
            boolean right = usr.key.equals(y);
            String other = left ? y : right ? x : null;
            String value = ClangOrderedDifferences.operandKey(rhs);
            Path limit = Path.of(strip(rhs));
            boolean upper = t.spelling.equals(">") || t.spelling.equals(">=");
            boolean lower = t.spelling.equals("<") || t.spelling.equals("<=");
            // if (i >= n) i = n - 1: the bound less a constant on the side it bounds (a last index; session 57, an
            // audio library's table lookup), the bound plus one from below
            ClangNode r = strip(rhs);
            if (other != null && r != null && r.kind == CXCursor_BinaryOperator && r.children.size() == 2) {
                Double k = folded(r.children.get(1));
                boolean within = r.spelling.equals("-") && upper == left || r.spelling.equals("+") && lower == left;
                if (k != null
                        && k >= 0
                        && within
                        && other.equals(ClangOrderedDifferences.operandKey(r.children.get(0)))) {
                    value = other;
                    limit = Path.of(strip(r.children.get(0)));
                }
            }
            bound = other != null && other.equals(value) && limit != null && !writes(test, limit);
            if (left != right && (upper || lower) && (bound || constant)) side = (upper == left) ? 1 : -1;
        }
        Double floor = side < 0 && constant ? (constant(rhs) != null ? constant(rhs) : folded(rhs)) : null;
        return constant || bound ? new Clamp(unit.text(test), test.line, side, floor) : null;
    }

    /**
     * The early exit an {@code if} / {@code else if} chain gives {@code usr} after it, or null: the test of a branch
     * that leaves limits the code after the chain when every branch before it leaves too (the chain is then left
     * only past that test) and no branch that does not leave writes {@code usr}.
     */
    static String chainExit(ClangUnit unit, ClangNode s, Path usr, boolean once) {
        String checked = checked(unit, s, usr, once);
        if (checked != null) return checked;
        String found = null;
        boolean allLeave = true;
        for (ClangNode st = s; ; ) {
            if (st.kind != CXCursor_IfStmt || st.children.size() < 2) {
                // the final else: it either leaves or must not write the variable
                if (!leaves(st, once) && writes(st, usr)) return null;
                break;
            }
            ClangNode test = st.children.get(0);
            ClangNode then = st.children.get(1);
            if (writes(test, usr)) return null;
            boolean out = leaves(then, once);
            if (!out && writes(then, usr)) return null;
            allLeave &= out;
            if (found == null && allLeave && compares(test, usr))
                found = "the early " + exit(then) + " under '" + unit.text(test) + "' (line " + test.line + ")"
                        + ClangTestSides.sided(test, usr, false);
            if (st.children.size() < 3) break;
            st = st.children.get(2);
        }
        return found;
    }

    /**
     * The test of a check {@code if (t) { } else { report(); return; }} that the code after it is reached through
     * only where {@code t} held (the branch it selects does not leave and writes nothing of {@code usr}), when
     * {@code t} compares {@code usr}: GLib's {@code g_return_if_fail} ({@link ClangChecks}).
     */
    private static String checked(ClangUnit unit, ClangNode s, Path usr, boolean once) {
        ClangNode op = ClangChecks.checkOp(s); // glog's and Abseil's CHECK_GE(a, b): aborts unless a >= b
        if (op != null) {
            if (!compares(op, usr)) return null;
            return "the check '" + unit.text(op) + "' (line " + op.line + "; aborts when it fails)"
                    + ClangTestSides.sided(op, usr, true);
        }
        boolean assertion = s.kind == CXCursor_ConditionalOperator && ClangChecks.assertion(s) == s; // C++'s assert
        if (s.kind != CXCursor_IfStmt && !assertion || s.children.size() != 3) return null;
        ClangNode test = s.children.get(0), then = s.children.get(1), other = s.children.get(2);
        if (other.kind == CXCursor_IfStmt || leaves(then, once) || !leaves(other, once)) return null;
        ClangNode stated = ClangChecks.condition(test); // C++'s assert tests static_cast<bool>(c)
        ClangNode tested = ClangPredicates.tested(unit, stated); // assert(isClamped()): the test the method returns
        if (writes(test, usr) || writes(then, usr) || !compares(tested, usr)) return null;
        return "the check '" + unit.text(stated) + "' (line " + test.line + "; " + exit(other) + " when it fails)"
                + ClangTestSides.sided(tested, usr, true);
    }

    /** The statement {@code s} ends with: the last of a block, the statement under an attribute ([[unlikely]]). */
    private static ClangNode last(ClangNode s) {
        ClangNode last = s;
        for (int d = 0; d < 16; d++) {
            if (last.kind == CXCursor_CompoundStmt && !last.children.isEmpty())
                last = last.children.get(last.children.size() - 1);
            else if (last.kind == CXCursor_UnexposedStmt && !last.children.isEmpty())
                last = last.children.get(last.children.size() - 1);
            else break;
        }
        return last;
    }

    /**
     * Whether the statement always leaves the enclosing block: continue, break, return, goto, throw (or ends so, or
     * ends in an if / else whose branches both leave).
     */
    static boolean leaves(ClangNode s) {
        return leaves(s, false);
    }

    /**
     * Whether {@code s} always leaves the enclosing block; in a {@code do { } while (0)} ({@code once}) a {@code
     * break} or {@code continue} only leaves the {@code do}.
     */
    private static boolean leaves(ClangNode s, boolean once) {
        ClangNode last = last(s);
        // if (k == 1) return a; else return b;: both branches leave (session 56, a spline's derivative)
        if (last.kind == CXCursor_IfStmt && last.children.size() == 3)
            return leaves(last.children.get(1), once) && leaves(last.children.get(2), once);
        return !once && (last.kind == CXCursor_ContinueStmt || last.kind == CXCursor_BreakStmt)
                || last.kind == CXCursor_ReturnStmt
                || last.kind == CXCursor_GotoStmt
                || ClangErrorExits.throwing(last)
                || ClangErrorExits.handler(last) != null;
    }

    private static String exit(ClangNode s) {
        ClangNode last = last(s);
        if (last.kind == CXCursor_IfStmt && last.children.size() == 3) return exit(last.children.get(1));
        if (ClangErrorExits.throwing(last)) return "'throw'";
        return switch (last.kind) {
            case CXCursor_ContinueStmt -> "'continue'";
            case CXCursor_BreakStmt -> "'break'";
            case CXCursor_ReturnStmt -> "'return'";
            case CXCursor_GotoStmt -> "'goto'";
            default -> ClangErrorExits.describe(last);
        };
    }

    /** Whether the test compares the variable {@code usr} ({@code <}, {@code <=}, {@code >}, {@code >=}). */
    static boolean compares(ClangNode test, Path usr) {
        boolean[] hit = new boolean[1];
        test.forEach(x -> {
            if (hit[0] || x.kind != CXCursor_BinaryOperator || x.children.size() != 2) return;
            if (!isComparison(x.spelling) || x.spelling.equals("!=")) return;
            x.forEach(y -> {
                if (!hit[0] && usr.key.equals(Path.key(y))) hit[0] = true;
            });
        });
        return hit[0];
    }

    /** Whether {@code test} is an {@code ||} of conditions (under parentheses). */
    static boolean disjunction(ClangNode test) {
        ClangNode t = bare(test);
        return t != null && t.kind == CXCursor_BinaryOperator && t.spelling.equals("||");
    }

    static boolean containsComparison(ClangNode test) {
        boolean[] hit = new boolean[1];
        test.forEach(x -> {
            if (x.kind == CXCursor_BinaryOperator && isComparison(x.spelling)) hit[0] = true;
        });
        return hit[0];
    }

    /** {@link ClangPathWrites#writes}. */
    static boolean writes(ClangNode s, Path usr) {
        return ClangPathWrites.writes(s, usr);
    }

    /** Whether the branch of {@code ifStmt} leading to {@code at} writes {@code usr} before reaching it. */
    static boolean writtenBetween(ClangNode ifStmt, ClangNode at, Path usr) {
        ClangNode c = at;
        for (ClangNode p = at.parent; p != null && p != ifStmt; c = p, p = p.parent) {
            if (p.kind != CXCursor_CompoundStmt) continue;
            int i = p.children.indexOf(c);
            for (int k = 0; k < i; k++) if (writes(p.children.get(k), usr)) return true;
        }
        return false;
    }

    /**
     * A variable, or a member or element of one ({@code q.x}, {@code p->tau}, {@code pos[i]}, {@code v[2].y}), by a
     * key of the USRs and member names it is read through; {@code parts} are the variables it names (the base, an
     * index), {@code indirect} whether it is read through a pointer or an array (a call given the base may write it).
     */
    record Path(String key, java.util.Set<String> parts, boolean indirect) {
        static Path of(ClangNode n) {
            if (n.kind != CXCursor_DeclRefExpr
                    && n.kind != CXCursor_MemberRefExpr
                    && n.kind != CXCursor_ArraySubscriptExpr
                    && !deref(n)
                    && !accessor(n)) return null;
            String k = key(n);
            if (k == null) return null;
            java.util.Set<String> parts = new java.util.HashSet<>();
            boolean[] indirect = {n.kind == CXCursor_ArraySubscriptExpr || deref(n) || accessor(n)};
            if (n.kind != CXCursor_DeclRefExpr) {
                n.forEach(x -> {
                    if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null) parts.add(x.refUsr);
                    if (x.kind == CXCursor_ArraySubscriptExpr) indirect[0] = true;
                    if (x.kind == CXCursor_DeclRefExpr && x.canonKind == CXType_Pointer) indirect[0] = true;
                });
            }
            return new Path(k, java.util.Set.copyOf(parts), indirect[0]);
        }

        /**
         * Whether {@code n} reads an element through an accessor that returns it by reference ({@code m(j, i)} of an
         * OpenCV {@code Mat_}, {@code v[i]} of a {@code std::vector}, {@code v.at(i)}: {@link
         * ClangElementBases#accessed}), which returns the same element for the same arguments.
         */
        static boolean accessor(ClangNode n) {
            return n != null
                    && n.kind == CXCursor_CallExpr
                    && ClangElementBases.accessed(n, new java.util.ArrayList<>()) != n;
        }

        /** Whether {@code n} reads through a pointer, {@code *p} (the element {@code p[0]}). */
        static boolean deref(ClangNode n) {
            return n != null && n.kind == CXCursor_UnaryOperator && n.spelling.equals("*") && n.children.size() == 1;
        }

        /**
         * The key of a variable ({@code x}: its USR), a member ({@code base.name}, implicit {@code this} too) or an
         * element with a variable or constant index ({@code base[i]}; {@code *p} is {@code p[0]}; through an accessor,
         * {@code base(j,i)}, {@link #accessor}); null for any other expression.
         */
        static String key(ClangNode e) {
            ClangNode n = strip(e);
            if (n == null) return null;
            if (n.kind == CXCursor_DeclRefExpr) return n.refUsr;
            if (deref(n)) {
                String b = key(n.children.get(0));
                return b == null ? null : b + "[" + 0.0 + "]";
            }
            if (n.kind == CXCursor_MemberRefExpr) {
                // day and this->day are one member (session 69 round B: this->day = floor(dayf); ... dayf - day)
                ClangNode o = n.children.isEmpty() ? null : strip(n.children.get(0));
                if (n.children.isEmpty() || o != null && o.kind == CXCursor_CXXThisExpr) return "this." + n.spelling;
                String b = n.children.size() == 1 ? key(n.children.get(0)) : null;
                return b == null ? null : b + "." + n.spelling;
            }
            if (n.kind == CXCursor_ArraySubscriptExpr && n.children.size() == 2) {
                String b = key(n.children.get(0));
                String ik = index(n.children.get(1));
                return b == null || ik == null ? null : b + "[" + ik + "]";
            }
            if (accessor(n)) {
                List<ClangNode> args = new java.util.ArrayList<>();
                String b = key(ClangElementBases.accessed(n, args));
                if (b == null) return null;
                StringBuilder k = new StringBuilder(b).append('(');
                for (int a = args.size() - 1; a >= 0; a--) { // collected last first
                    String ik = index(args.get(a));
                    if (ik == null) return null;
                    k.append(ik).append(a > 0 ? "," : ")");
                }
                return k.toString();
            }
            return null;
        }

        /**
         * The key of an index: a constant, a variable, or + - * / % of such ({@code s[i + channel_stride]}, session 51:
         * an image writer's second channel, whose test on the same element was not matched); null otherwise. The
         * variables it reads are among the path's parts, so a write of any of them ends the guard.
         */
        static String index(ClangNode e) {
            ClangNode i = strip(e);
            if (i == null) return null;
            if (i.value != null) return String.valueOf(i.value);
            if (i.kind == CXCursor_DeclRefExpr) return i.refUsr;
            if (i.kind == CXCursor_BinaryOperator
                    && i.children.size() == 2
                    && "+-*/%".contains(i.spelling)
                    && i.spelling.length() == 1) {
                String a = index(i.children.get(0));
                String b = index(i.children.get(1));
                return a == null || b == null ? null : "(" + i.spelling + " " + a + " " + b + ")";
            }
            return null;
        }

        /** Whether a write of the object {@code k} writes this path: the same path, or one it lies in. */
        boolean within(String k) {
            return key.equals(k) || key.startsWith(k + ".") || key.startsWith(k + "[") || key.startsWith(k + "(");
        }
    }
}
