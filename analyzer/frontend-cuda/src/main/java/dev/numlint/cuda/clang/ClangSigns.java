package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.knowledge.NumericFacts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The signs of a function's locals: those that are never negative and those that are never positive. Every value
 * stored into a never-negative local (its initializer, {@code =}, {@code +=}, {@code *=}, {@code /=}, {@code ++}, and
 * {@code -=} of a never-positive value) is non-negative when the locals it reads have their signs (and a helper's
 * value its return statements', {@link ClangIntervals}); mirrored for the
 * never-positive locals ({@code fp = 0; fp -= b * exp(-b * x);} with {@code b} a positive constant). A greatest
 * fixed point: all locals start in both sets, and a local with a store whose sign is not proven (a negative constant
 * for the first set, a subtraction of unknown terms, a parameter, an element, an unknown call) leaves the set, until
 * no store changes. A store in a branch of an {@code if} whose test proves the stored value's sign has it ({@code if
 * (d > 0) up += d; else down -= d;}). A local whose address is taken or that a reference or by-reference argument binds is in
 * neither. {@code s = 0; for (...) { d = a / b; s += d * d; }} with {@code a = fabs(x[i])}, {@code b} a running
 * maximum of such values: {@code s} is never negative.
 *
 * <p>What it serves: a sum of non-negative terms is 0 only when every term is, in any order and with any rounding,
 * so its test against 0 cannot be flipped by rounding (the serial-sum rule's consequence); and two terms whose signs
 * make their sum or difference a sum of magnitudes ({@code p - q} with {@code p <= 0 <= q}) cannot cancel
 * ({@link #termsCannotCancel}).
 */
final class ClangSigns {
    private final ClangUnit unit;
    private final Map<ClangUnit.Function, Signs> cache = new HashMap<>();
    private final Set<ClangUnit.Function> computing = new HashSet<>();

    /** The stores of each local of a function (unified symbol name), for {@link ClangSignClasses}. */
    final Map<ClangUnit.Function, Map<String, List<Store>>> storesOf = new HashMap<>();

    /** The locals of a function written where the stores cannot be seen (aliased, ++, --, %=, declared twice). */
    final Map<ClangUnit.Function, Set<String>> opaqueOf = new HashMap<>();

    /** The never-negative and the never-positive locals of one function (unified symbol names). */
    record Signs(Set<String> nonNegative, Set<String> nonPositive, ClangUnit.Function fn) {}

    /** A value stored into a local: {@code op} is {@code =} (an initializer too), {@code +=}, {@code -=}, ... */
    record Store(String op, ClangNode value) {}

    private static final Set<String> POWERS = Set.of("pow", "powf", "powl");

    ClangSigns(ClangUnit unit) {
        this.unit = unit;
    }

    /** Whether the local whose declaration has the unified symbol name {@code usr} is never negative in {@code fn}. */
    synchronized boolean neverNegative(ClangUnit.Function fn, String usr) {
        return usr != null && signs(fn).nonNegative().contains(usr);
    }

    /** Whether the expression {@code e} of {@code fn} is never negative (its locals as {@link #neverNegative}). */
    synchronized boolean nonNegativeIn(ClangUnit.Function fn, ClangNode e) {
        return nonNegative(e, signs(fn), 0);
    }

    Signs signs(ClangUnit.Function fn) {
        Signs kept = cache.get(fn);
        if (kept != null) return kept;
        // computing one function's signs may need another's (a call's result, through the intervals): not inside
        // computeIfAbsent, which a nested insertion breaks (session 81 round M: ConcurrentModificationException on
        // a unit whose helper returned modf's integral part); the function itself reached again knows no sign yet
        if (!computing.add(fn)) return new Signs(Set.of(), Set.of(), fn);
        try {
            Signs s = compute(fn);
            // while one instantiation's type arguments are bound (ClangTypeArguments), or parameters are
            // (ClangIntervals.bound: a call's arguments, callers assumed to pass non-negative values), signs hold for
            // that binding alone
            if (!ClangIntervals.binding()) cache.put(fn, s);
            return s;
        } finally {
            computing.remove(fn);
        }
    }

    private Signs compute(ClangUnit.Function fn) {
        Map<String, List<Store>> stores = new HashMap<>();
        Set<String> out = new HashSet<>();
        Set<String> declared = new HashSet<>();
        fn.node().forEach(n -> {
            if (n.kind == CXCursor_VarDecl && n.usr != null && (floating(n.canonKind) || integral(n.canonKind))) {
                if (!declared.add(n.usr)) out.add(n.usr); // declared twice: leave it out (below)
                stores.computeIfAbsent(n.usr, k -> new ArrayList<>());
                ClangNode init = n.children.isEmpty() ? null : n.children.get(n.children.size() - 1);
                if (init != null && clang_isExpressionKind(init.kind))
                    stores.get(n.usr).add(new Store("=", init));
            }
        });
        storesOf.put(fn, stores);
        opaqueOf.put(fn, out);
        Set<String> nonNeg = new HashSet<>(stores.keySet());
        nonNeg.removeAll(out);
        Set<String> nonPos = new HashSet<>(nonNeg);
        fn.node().forEach(n -> {
            if (n.kind != CXCursor_DeclRefExpr || n.refUsr == null || !stores.containsKey(n.refUsr)) return;
            if (aliases(n)) { // its address taken, a reference bound to it: written where this walk cannot see
                out.add(n.refUsr);
                nonNeg.remove(n.refUsr);
                nonPos.remove(n.refUsr);
                return;
            }
            ClangNode c = n;
            ClangNode p = n.parent;
            while (p != null && p.kind == CXCursor_ParenExpr) {
                c = p;
                p = p.parent;
            }
            if (p == null) return;
            if (p.kind == CXCursor_UnaryOperator && p.spelling.equals("--")) {
                out.add(n.refUsr);
                nonNeg.remove(n.refUsr);
            } else if (p.kind == CXCursor_UnaryOperator && p.spelling.equals("++")) {
                out.add(n.refUsr);
                nonPos.remove(n.refUsr);
            } else if (p.children.size() == 2 && p.children.get(0) == c) {
                if (p.kind == CXCursor_BinaryOperator && p.spelling.equals("=")) {
                    stores.get(n.refUsr).add(new Store("=", p.children.get(1)));
                } else if (p.kind == CXCursor_CompoundAssignOperator) {
                    switch (p.spelling) {
                        case "+=", "-=", "*=", "/=" -> stores.get(n.refUsr)
                                .add(new Store(p.spelling, p.children.get(1)));
                        default -> {
                            out.add(n.refUsr);
                            nonNeg.remove(n.refUsr);
                            nonPos.remove(n.refUsr);
                        }
                    }
                }
            }
        });
        Signs s = new Signs(nonNeg, nonPos, fn);
        boolean changed = true;
        while (changed) {
            changed = false;
            for (String v : new ArrayList<>(nonNeg)) {
                for (Store st : stores.get(v)) {
                    boolean ok =
                            switch (st.op()) {
                                case "-=" -> nonPositive(st.value(), s, 0) || guarded(st.value()) == -1;
                                default -> nonNegative(st.value(), s, 0) // =, +=, and *=, /= of a value >= 0
                                        || guarded(st.value()) == 1;
                            };
                    if (!ok) {
                        nonNeg.remove(v);
                        changed = true;
                        break;
                    }
                }
            }
            for (String v : new ArrayList<>(nonPos)) {
                for (Store st : stores.get(v)) {
                    boolean ok =
                            switch (st.op()) {
                                case "=", "+=" -> nonPositive(st.value(), s, 0) || guarded(st.value()) == -1;
                                default -> nonNegative(st.value(), s, 0) // -= of a value >= 0, *= and /= of one >= 0
                                        || guarded(st.value()) == 1;
                            };
                    if (!ok) {
                        nonPos.remove(v);
                        changed = true;
                        break;
                    }
                }
            }
        }
        return s;
    }

    /** Whether {@code e} is never negative when the locals have the signs {@code s}. */
    boolean nonNegative(ClangNode e, Signs s, int depth) {
        return signed(e, s, depth, true);
    }

    /** Whether {@code e} is never positive when the locals have the signs {@code s}. */
    boolean nonPositive(ClangNode e, Signs s, int depth) {
        return signed(e, s, depth, false);
    }

    /**
     * Whether the branch of a conditional whose test came out {@code holds} has the sign: its own, or the one the
     * test proves for it or for a factor of it whose other factor has that sign ({@code p > 0 ? p * 2.0f : 0}, a
     * drum detector's velocity terms; session 61 round F).
     */
    private boolean branch(ClangNode test, ClangNode branch, boolean holds, Signs s, int d, boolean positive) {
        if (signed(branch, s, d, positive)) return true;
        ClangNode b = strip(branch);
        if (b == null) return false;
        if (proven(test, b, holds) == (positive ? 1 : -1)) return true;
        if (b.kind != CXCursor_BinaryOperator || b.children.size() != 2) return false;
        if (!b.spelling.equals("*") && !b.spelling.equals("/")) return false;
        for (int k = 0; k < 2; k++) {
            int sign = proven(test, strip(b.children.get(k)), holds);
            ClangNode other = b.children.get(1 - k);
            if (sign == 1 && signed(other, s, d, positive) || sign == -1 && signed(other, s, d, !positive)) return true;
        }
        return false;
    }

    /**
     * The sign (1, -1, or 0 for none) the test of the {@code if} whose branch the store of {@code value} is proves for
     * it: the store is the branch, or a statement of it after statements that write nothing the value reads ({@code if
     * (diff > 0.0f) up += diff; else down -= diff;}: the else branch's {@code diff} is never positive; session 66
     * round E, an oscillator kernel's gains and losses).
     */
    private int guarded(ClangNode value) {
        ClangNode st = value.parent;
        while (st != null && st.parent != null && clang_isExpressionKind(st.parent.kind)) st = st.parent;
        ClangIfBranches.Branch branch = ClangIfBranches.of(st, value, null);
        return branch == null ? 0 : proven(branch.test(), strip(value), branch.holds());
    }

    /** Whether a sum the intervals lose is not negative by a relation of its terms ({@link ClangMinDifferences}). */
    private boolean related(ClangNode sum, Signs s, boolean positive) {
        return positive
                && s.fn() != null
                && ClangMinDifferences.lower(sum, s.fn(), x -> unit.intervals.of(x, s.fn())) >= 0;
    }

    /** The sign (1, -1, or 0 for none) a test that came out {@code holds} proves for the expression {@code x}. */
    private int proven(ClangNode test, ClangNode x, boolean holds) {
        if (x == null) return 0;
        Integer sign = ClangSignGuards.sign(unit, test, squash(unit.text(x)));
        return sign == null ? 0 : holds ? sign : -sign;
    }

    /**
     * Whether converting {@code op} to {@code e}'s type can make a non-negative value negative: an unsigned integer
     * to a signed one no wider ({@code int64_t offset = a - b;} of two {@code uint64_t}, a difference that wraps to
     * the top of the unsigned range when {@code b > a}, and back to a negative value in the signed type; session 85
     * round AI: a music timer's offset, "in [0, 9223000000000000000] by construction" where it was negative).
     */
    private static boolean wraps(ClangNode e, ClangNode op) {
        ClangNode o = strip(op);
        return o != null
                && integral(e.canonKind)
                && !unsignedKind(e.canonKind)
                && integral(o.canonKind)
                && unsignedKind(o.canonKind)
                && bytes(o.canonKind) >= bytes(e.canonKind);
    }

    /** Whether {@code e} is never negative ({@code positive}) or never positive (not {@code positive}). */
    private boolean signed(ClangNode e, Signs s, int depth, boolean positive) {
        if (e == null || depth > 24) return false;
        if (e.value != null) return positive ? e.value >= 0 : e.value <= 0;
        if (integral(e.canonKind) && unsignedKind(e.canonKind)) return positive;
        int d = depth + 1;
        switch (e.kind) {
            case CXCursor_ParenExpr, CXCursor_UnexposedExpr -> {
                return e.children.size() == 1
                        && !(positive && wraps(e, e.children.get(0)))
                        && signed(e.children.get(0), s, d, positive);
            }
            case CXCursor_CStyleCastExpr, CXCursor_CXXStaticCastExpr, CXCursor_CXXFunctionalCastExpr -> {
                return !(positive && wraps(e, operandOf(e))) && signed(operandOf(e), s, d, positive);
            }
            case CXCursor_DeclRefExpr -> {
                if (e.refUsr != null && (positive ? s.nonNegative() : s.nonPositive()).contains(e.refUsr)) return true;
                // where it is read, a test that dominates it proves its sign ({@code if (el < 0) continue; s += el;},
                // {@code assert(el >= 0); s += el;}: lame's psymodel, session 61 round F)
                return floating(e.canonKind) && ClangSignGuards.proves(unit, e, s.fn(), positive);
            }
            case CXCursor_FloatingLiteral, CXCursor_IntegerLiteral -> {
                return positive; // a literal is written without its sign; a negated one is a unary minus
            }
            case CXCursor_ArraySubscriptExpr -> {
                // an element of a local array every store to which is never negative (mag[i] = sqrtf(...), session 75
                // round D: a decoder's spectrum magnitudes summed and tested against 0)
                return positive
                        && s.fn() != null
                        && ClangTallies.nonNegativeElement(e, s.fn(), x -> signed(x, s, d, true));
            }
            case CXCursor_UnaryOperator -> {
                if (e.children.size() != 1) return false;
                if (e.spelling.equals("+")) return signed(e.children.get(0), s, d, positive);
                if (e.spelling.equals("-")) return signed(e.children.get(0), s, d, !positive);
                return false;
            }
            case CXCursor_BinaryOperator -> {
                if (e.children.size() != 2) return false;
                ClangNode a = e.children.get(0), b = e.children.get(1);
                return switch (e.spelling) {
                    case "*", "/" -> {
                        if (e.spelling.equals("*") && square(a, b)) yield positive;
                        if (e.spelling.equals("*")) {
                            // a product with a repeated factor (w * d * d): the pair is a square, the sign is the
                            // other factors'
                            List<ClangNode> rest = unpaired(e);
                            if (rest != null && rest.isEmpty()) yield positive;
                            if (rest != null && rest.size() == 1) yield signed(rest.get(0), s, d, positive);
                            // 2.0f * M_PI * sigma * sigma: a square times factors none of which is negative
                            if (rest != null && positive && rest.stream().allMatch(x -> signed(x, s, d, true)))
                                yield true;
                        }
                        // same signs make a non-negative product or quotient, opposite signs a non-positive one
                        boolean aPos = signed(a, s, d, true), bPos = signed(b, s, d, true);
                        boolean aNeg = signed(a, s, d, false), bNeg = signed(b, s, d, false);
                        yield positive ? aPos && bPos || aNeg && bNeg : aPos && bNeg || aNeg && bPos;
                    }
                    case "+" -> signed(a, s, d, positive) && signed(b, s, d, positive) || related(e, s, positive);
                    case "-" -> signed(a, s, d, positive) && signed(b, s, d, !positive) || related(e, s, positive);
                    case "=" -> signed(b, s, d, positive);
                    default -> false;
                };
            }
            case CXCursor_ConditionalOperator -> {
                int k = e.children.size();
                if (k != 3) return false;
                ClangNode test = e.children.get(0);
                return branch(test, e.children.get(1), true, s, d, positive)
                        && branch(test, e.children.get(2), false, s, d, positive);
            }
            case CXCursor_CallExpr -> {
                String f = callee(e);
                if (f.startsWith("std::")) f = f.substring(5);
                if (NumericFacts.NON_NEGATIVE.contains(f)) return positive;
                List<ClangNode> args = arguments(e);
                // a power of a base that is never negative: powf(10.0f, -psnr / 10.0f) (session 73 round D, an
                // encoder's mean squared error from its PSNRs)
                if (positive && POWERS.contains(f) && args.size() == 2 && signed(args.get(0), s, d, true)) return true;
                // an even whole power of any base: pow(G[i], 2) (session 75 round A, a reconstruction's norm of a
                // subgradient summed as norm += pow(G[i], 2) and then tested against 0)
                if (positive && POWERS.contains(f) && args.size() == 2 && evenPower(args.get(1))) return true;
                boolean max = f.equals("fmax") || f.equals("fmaxf") || f.equals("max");
                boolean min = f.equals("fmin") || f.equals("fminf") || f.equals("min");
                // max(a, b) >= 0 when one argument is, <= 0 when both are; min(a, b) mirrored
                if (max && positive || min && !positive) {
                    for (ClangNode a : args) if (signed(a, s, d, positive)) return true;
                    return false;
                }
                if (max || min) {
                    for (ClangNode a : args) if (!signed(a, s, d, positive)) return false;
                    return !args.isEmpty();
                }
                // a helper this unit or its parse defines: the union of its return statements' values (a Gaussian
                // weight 'return exp(-0.5 * d * d / (s * s));' is >= 0)
                double[] r = unit.intervals.returnedFrom(e);
                return r != null && (positive ? r[0] >= 0 : r[1] <= 0);
            }
            default -> {
                return false;
            }
        }
    }

    /**
     * Whether the floating addition or subtraction written {@code text} at {@code line} adds two terms of one sign
     * ({@code p + q}, both {@code >= 0} or both {@code <= 0}) or subtracts terms of opposite signs ({@code p - q} with
     * {@code p <= 0 <= q} or {@code q <= 0 <= p}): its result is a sum of magnitudes, which no rounding of one term
     * can cancel (each term's relative error stays the result's). False when the line holds no such operation.
     */
    synchronized boolean termsCannotCancel(int line, String text) {
        String want = squash(text);
        for (ClangUnit.Function fn : unit.functions()) {
            if (line < fn.startLine() || line > fn.endLine()) continue;
            Signs s = signs(fn);
            boolean[] hit = new boolean[1];
            boolean[] other = new boolean[1];
            fn.node().forEach(n -> {
                if (n.line != line || n.kind != CXCursor_BinaryOperator || n.children.size() != 2) return;
                if (!n.spelling.equals("+") && !n.spelling.equals("-")) return;
                if (!floating(n.canonKind) || !squash(unit.text(n)).equals(want)) return;
                ClangNode a = n.children.get(0), b = n.children.get(1);
                boolean plus = n.spelling.equals("+");
                // each term's sign from the locals' signs, or from a test that dominates it (Ridders' W = f1*f1 -
                // f0*f2 under 'if (f0*f2 < 0)': two terms >= 0, ClangSignGuards)
                boolean aPos = nonNegative(a, s, 0) || ClangSignGuards.proves(unit, a, fn, true);
                boolean aNeg = nonPositive(a, s, 0) || ClangSignGuards.proves(unit, a, fn, false);
                boolean bPos = nonNegative(b, s, 0) || ClangSignGuards.proves(unit, b, fn, true);
                boolean bNeg = nonPositive(b, s, 0) || ClangSignGuards.proves(unit, b, fn, false);
                boolean apart = aPos && (plus ? bPos : bNeg)
                        || aNeg && (plus ? bNeg : bPos)
                        || ClangSameSigns.agree(unit.intervals, a, b, plus, fn, 10);
                if (apart) hit[0] = true;
                else other[0] = true; // the same text twice on the line, one of them not proven: not proven
            });
            if (hit[0] || other[0]) return hit[0] && !other[0];
        }
        return false;
    }

    /**
     * The factors of the product {@code e} ({@code a * b * c ...}, however parenthesized) left when the others pair
     * up as squares ({@code w * d * d}: {@code w}; none when every factor pairs up); null when no pair is found.
     */
    private List<ClangNode> unpaired(ClangNode e) {
        List<ClangNode> factors = new ArrayList<>();
        ClangSyntax.operands(e, "*", factors, 0);
        if (factors.size() < 3) return null;
        List<ClangNode> left = new ArrayList<>(factors);
        boolean paired = false;
        for (int i = 0; i < left.size(); i++) {
            for (int j = i + 1; j < left.size(); j++) {
                if (square(left.get(i), left.get(j))) {
                    left.remove(j);
                    left.remove(i);
                    i--;
                    paired = true;
                    break;
                }
            }
        }
        return paired ? left : null;
    }

    /**
     * {@code x * x}: the same variable, member or element written twice, with no call (two calls differ) but a
     * subscript operator's ({@code q[1] * q[1]} of a vector class, session 52: an accessor, one value).
     */
    /** Whether {@code e} is an even whole constant (2.0, 4): a power with it as exponent is never negative. */
    private static boolean evenPower(ClangNode e) {
        Double v = folded(e); // through the implicit conversion of an int literal (unevaluated in a template)
        return v != null && v >= 2 && v <= 64 && v % 2 == 0;
    }

    private boolean square(ClangNode a, ClangNode b) {
        a = widened(a);
        b = widened(b);
        String x = squash(unit.text(a));
        // the trees too: every node of a macro's expansion has the invocation's text ((gain * 2.0) in SCALED)
        if (x.isEmpty() || x.contains("(") || !x.equals(squash(unit.text(b))) || !sameTree(a, b)) return false;
        boolean[] call = new boolean[1];
        a.forEach(n -> call[0] |= n.kind == CXCursor_CallExpr && !"operator[]".equals(n.spelling));
        return !call[0];
    }

    /**
     * {@code e} without parentheses, implicit conversions and explicit conversions to a floating type, which keep the
     * sign ({@code (double) g_x * g_x} is a square, Image-Cutout-CUDA's Sobel magnitude, session 54).
     */
    private static ClangNode widened(ClangNode e) {
        ClangNode n = strip(e);
        for (int d = 0; d < 8 && n != null; d++) {
            if (n.kind == CXCursor_ParenExpr && n.children.size() == 1) n = strip(n.children.get(0));
            else if (ClangSyntax.isExplicitCast(n) && floating(n.canonKind)) n = strip(ClangSyntax.operandOf(n));
            else break;
        }
        return n;
    }

    /**
     * Whether the local {@code name} of the function spanning {@code line}, the sum updated in a loop at that line, is
     * never negative while it holds the sum (false when the function declares two locals of that name, or none): every
     * store is non-negative, or every store but those written after the outermost loop around the update, outside it
     * ({@code e = 10*log10f(e/L)} after the loop that sums squares into {@code e}): such a store starts another value,
     * which no use of the sum before it reads (no loop around the sum carries it back).
     */
    synchronized boolean neverNegativeLocal(int line, String name) {
        for (ClangUnit.Function fn : unit.functions()) {
            if (line < fn.startLine() || line > fn.endLine()) continue;
            String[] usr = new String[1];
            boolean[] twice = new boolean[1];
            fn.node().forEach(n -> {
                if (n.kind != CXCursor_VarDecl || !n.spelling.equals(name)) return;
                if (usr[0] != null) twice[0] = true;
                usr[0] = n.usr;
            });
            if (twice[0] || usr[0] == null) return false;
            return neverNegative(fn, usr[0])
                    || neverNegativeWhileSummed(fn, usr[0], line)
                    || neverNegativeAfterReset(fn, usr[0], line);
        }
        return false;
    }

    /** The update of the local {@code usr} at {@code line} ({@code s += x}, {@code s = s + x}), or null. */
    private static ClangNode updateAt(ClangUnit.Function fn, String usr, int line) {
        ClangNode[] found = new ClangNode[1];
        fn.node().forEach(n -> {
            if (found[0] != null || n.line != line || n.children.isEmpty()) return;
            boolean update = n.kind == CXCursor_CompoundAssignOperator
                    || n.kind == CXCursor_BinaryOperator && n.spelling.equals("=");
            ClangNode target = update ? strip(n.children.get(0)) : null;
            if (target != null && target.kind == CXCursor_DeclRefExpr && usr.equals(target.refUsr)) found[0] = n;
        });
        return found[0];
    }

    /**
     * {@link #neverNegativeLocal}'s third case: a statement of a block sets the local ({@code xv = yv = 0.0f;}) before
     * the statement that holds the update, and every store from that statement to the end of the one holding the
     * update is non-negative. No other store reaches the sum: the reset runs on every path into that statement. A
     * sum of squares in one branch of an if whose other branch sums terms of unknown sign is never negative in its
     * own branch (session 73 round D: an image registration's variances, plain in one branch, weighted in the
     * other). A block with case labels or a function with a goto is left out: a jump may pass the reset.
     */
    private boolean neverNegativeAfterReset(ClangUnit.Function fn, String usr, int line) {
        if (opaqueOf.get(fn).contains(usr)) return false;
        boolean[] jumps = new boolean[1];
        fn.node()
                .forEach(n -> jumps[0] |= n.kind == CXCursor_GotoStmt
                        || n.kind == CXCursor_IndirectGotoStmt
                        || n.kind == CXCursor_CaseStmt
                        || n.kind == CXCursor_DefaultStmt
                        || n.kind == CXCursor_LabelStmt);
        if (jumps[0]) return false;
        ClangNode update = updateAt(fn, usr, line);
        if (update == null) return false;
        Signs s = signs(fn);
        for (ClangNode held = update, block = update.parent;
                block != null && block != fn.node();
                held = block, block = block.parent) {
            if (block.kind != CXCursor_CompoundStmt) continue;
            ClangNode reset = null;
            for (ClangNode k : block.children) {
                if (k == held) break;
                if (sets(k, usr)) reset = k;
            }
            if (reset == null) continue;
            int from = reset.offset, to = held.endOffset;
            if (from < 0 || to < 0) return false; // in a macro's expansion or a header: no order to read
            for (Store st : storesOf.get(fn).getOrDefault(usr, List.of())) {
                if (st.value().offset < from || st.value().offset > to) continue;
                boolean ok = st.op().equals("-=") ? nonPositive(st.value(), s, 0) : nonNegative(st.value(), s, 0);
                if (!ok) return false;
            }
            return true;
        }
        return false;
    }

    /** Whether the statement {@code k} is an assignment to {@code usr}, alone or in a chain ({@code a = b = 0}). */
    private static boolean sets(ClangNode k, String usr) {
        ClangNode e = strip(k);
        while (e != null && e.kind == CXCursor_BinaryOperator && e.spelling.equals("=") && e.children.size() == 2) {
            ClangNode l = strip(e.children.get(0));
            if (l != null && l.kind == CXCursor_DeclRefExpr && usr.equals(l.refUsr)) return true;
            e = strip(e.children.get(1));
        }
        return false;
    }

    /** {@link #neverNegativeLocal}'s second case: the stores after the outermost loop around the update left out. */
    private boolean neverNegativeWhileSummed(ClangUnit.Function fn, String usr, int line) {
        Signs s = signs(fn);
        if (opaqueOf.get(fn).contains(usr)) return false;
        boolean[] jumps = new boolean[1];
        fn.node().forEach(n -> jumps[0] |= n.kind == CXCursor_GotoStmt || n.kind == CXCursor_IndirectGotoStmt);
        if (jumps[0]) return false; // a goto can carry a later store back
        ClangNode[] loop = new ClangNode[1];
        ClangNode update = updateAt(fn, usr, line);
        if (update != null)
            for (ClangNode p = update.parent; p != null && p != fn.node(); p = p.parent) if (isLoop(p)) loop[0] = p;
        if (loop[0] == null) return false;
        for (Store st : storesOf.get(fn).getOrDefault(usr, List.of())) {
            if (st.value().offset > loop[0].endOffset) continue; // after the sum's loops: another value
            boolean ok = st.op().equals("-=") ? nonPositive(st.value(), s, 0) : nonNegative(st.value(), s, 0);
            if (!ok) return false;
        }
        return true;
    }

    /**
     * The local that the floating addition or subtraction written {@code text} at {@code line} is stored into
     * straight away ({@code float r2 = dx*dx + dy*dy;}, {@code r2 = ...}), when that local is never negative
     * ({@link ClangSigns}: this value and every other stored into it); else null.
     */
    String storedIntoNeverNegative(int line, String text) {
        return storedSum(line, text);
    }

    /** The variable a promotion's target names: {@code float 'norm'}. */
    private static final java.util.regex.Pattern TARGET_NAME = java.util.regex.Pattern.compile("'([A-Za-z_]\\w*)'$");

    /**
     * {@link #storedIntoNeverNegative(int, String)} for a value promoted to double and rounded to {@code target}
     * ({@code float 'norm'}): also the target itself when it is a local that stays >= 0 ({@code norm += pow(g, 2)},
     * session 75 round A).
     */
    String promotedIntoNeverNegative(int line, String text, String target) {
        java.util.regex.Matcher t = target == null ? null : TARGET_NAME.matcher(target);
        if (t != null && t.find() && neverNegativeLocal(line, t.group(1))) return t.group(1);
        return storedSum(line, text);
    }

    private String storedSum(int line, String text) {
        String want = squash(text);
        for (ClangUnit.Function fn : unit.functions()) {
            if (line < fn.startLine() || line > fn.endLine()) continue;
            String[] out = new String[1];
            ClangBodyIndex.of(fn).onLine(line).forEach(n -> {
                if (out[0] != null || n.line != line || n.kind != CXCursor_BinaryOperator) return;
                if (!n.spelling.equals("+") && !n.spelling.equals("-")
                        || !squash(unit.text(n)).equals(want)) return;
                ClangNode c = n;
                ClangNode p = n.parent;
                // through wrappers, and through further additions of non-negative terms (dx*dx + dy*dy is the
                // first partial sum of dx*dx + dy*dy + dz*dz): the stored sum is 0 only when this part is
                // and through a square root (sqrt(x) is 0 exactly when x is: theta = sqrt(w.w), then theta == 0)
                while (p != null
                        && (p.kind == CXCursor_ParenExpr
                                || p.kind == CXCursor_UnexposedExpr
                                || squareRootOf(p, c)
                                || p.kind == CXCursor_BinaryOperator
                                        && p.spelling.equals("+")
                                        && p.children.size() == 2
                                        && nonNegativeIn(
                                                fn, p.children.get(0) == c ? p.children.get(1) : p.children.get(0)))) {
                    c = p;
                    p = p.parent;
                }
                if (p == null) return;
                String name = null, usr = null;
                if (p.kind == CXCursor_VarDecl) {
                    name = p.spelling;
                    usr = p.usr;
                } else if (p.kind == CXCursor_BinaryOperator
                        && p.spelling.equals("=")
                        && p.children.size() == 2
                        && p.children.get(1) == c) {
                    ClangNode l = strip(p.children.get(0));
                    if (l != null && l.kind == CXCursor_DeclRefExpr) {
                        name = l.spelling;
                        usr = l.refUsr;
                    }
                }
                if (name != null && neverNegative(fn, usr)) out[0] = name;
            });
            return out[0];
        }
        return null;
    }

    /** Whether {@code p} is {@code sqrt(c)} or {@code sqrtf(c)}: never negative, and 0 exactly when {@code c} is. */
    private static boolean squareRootOf(ClangNode p, ClangNode c) {
        if (p.kind != CXCursor_CallExpr) return false;
        String f = callee(p).replace("std::", "");
        List<ClangNode> args = arguments(p);
        return (f.equals("sqrt") || f.equals("sqrtf")) && args.size() == 1 && args.get(0) == c;
    }
}
