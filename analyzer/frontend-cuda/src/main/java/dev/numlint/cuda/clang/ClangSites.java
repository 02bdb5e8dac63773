package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.knowledge.NumericFacts;
import java.util.ArrayList;
import java.util.List;

/**
 * The arithmetic sites of a {@link ClangUnit} that the hand-written front end's facts hold for the functions it reads
 * ({@code FunctionFacts}): floating sums carried by a loop, float expressions evaluated in double and rounded back
 * to float, multiply-adds a compiler may contract, and calls of math-library functions. Each list is one named
 * analysis of the unit ({@link ClangUnit#sums()}, {@link ClangUnit#promotions()}, {@link ClangUnit#contractions()},
 * {@link ClangUnit#mathCalls()}), computed on first request. Types are Clang's canonical types: a template pattern's
 * dependent operands are no site (conservative).
 */
final class ClangSites {
    private final ClangUnit unit;

    private final ClangPairs pairs;
    private final ClangGridStrides gridStrides;

    ClangSites(ClangUnit unit) {
        this.unit = unit;
        this.pairs = new ClangPairs(unit);
        this.gridStrides = new ClangGridStrides(unit);
    }

    /**
     * A floating update {@code s += x}, {@code s -= x} or {@code s = s + x} inside a loop.
     *
     * @param target          the accumulator's node (its text is the target)
     * @param term            the added expression
     * @param wholeNumberTerm the term is an integer or a whole-number constant
     * @param treeReduction   {@code s[t] += s[t + k]}: an element updated from the same array
     * @param recurrence      the term reads the accumulator's variable (a time step)
     * @param varies          the term is not a constant
     * @param gridStride      a loop around it steps by the grid or block size
     * @param viaFma          {@code s = fmaf(a, b, s)}
     * @param elementwise     the accumulator is an element that a loop around the update moves ({@link
     *                        ClangElements}) and the term reads nothing the other loops change
     */
    record Sum(
            ClangNode node,
            ClangNode target,
            ClangNode term,
            boolean doublePrecision,
            String type,
            boolean wholeNumberTerm,
            boolean treeReduction,
            boolean recurrence,
            boolean varies,
            boolean gridStride,
            boolean viaFma,
            boolean elementwise,
            ClangUnit.Function in) {}

    /** A float expression computed in double (a double literal or function) and rounded to float. */
    record Promotion(
            ClangNode node,
            String target,
            String promoter,
            boolean viaFunction,
            boolean compound,
            boolean exact,
            ClangUnit.Function in) {}

    /** A floating {@code a*b + c} (or {@code s += a*b}) whose product is rounded unless the compiler contracts it. */
    record Contraction(
            ClangNode node,
            String product,
            boolean subtract,
            boolean differenceOfProducts,
            boolean accumulates,
            boolean pairedComponent,
            ClangUnit.Function in) {}

    /** A call of a math-library function the rules know (not the approximate intrinsics: {@link ClangUnit#intrinsics()}). */
    record MathCall(
            ClangNode node,
            String name,
            String base,
            String fastMathTarget,
            boolean floatSqrt,
            boolean transcendental,
            ClangUnit.Function in) {}

    /**
     * A float literal whose float value is not the number it denotes ({@code 0.1f}) converted to double (implicitly
     * by double arithmetic or a double target, or by a cast), whose double value reaches a double variable, element,
     * assignment or return without being rounded to float first.
     *
     * @param node       the expression the literal's double value is part of (the one stored or returned)
     * @param literal    the literal as written, with its sign
     * @param target     what receives the value ("initialization of 'd'", "assignment to 'r'", "the returned value")
     */
    record WidenedLiteral(ClangNode node, String literal, String target, ClangUnit.Function in) {}

    // ------------------------------------------------------------------ sums

    List<Sum> sums() {
        List<Sum> out = new ArrayList<>();
        for (ClangUnit.Function fn : unit.functions()) {
            fn.node().forEach(n -> {
                boolean overloaded = overloadedUpdate(n);
                int kind = realKind(n); // a C99 complex sum accumulates its real and imaginary parts as its element
                if (n.children.size() != 2 && !overloaded || kind < 0) return;
                ClangNode lhs = n.children.get(0);
                ClangNode term;
                boolean viaFma = false;
                if (overloaded
                        || n.kind == CXCursor_CompoundAssignOperator
                                && (n.spelling.equals("+=") || n.spelling.equals("-="))) {
                    term = n.children.get(n.children.size() - 1);
                } else if (n.kind == CXCursor_BinaryOperator && n.spelling.equals("=")) {
                    term = addedTo(lhs, n.children.get(1));
                    if (term == null) {
                        term = fmaInto(lhs, n.children.get(1));
                        viaFma = term != null;
                    }
                    if (term == null) return;
                } else {
                    return;
                }
                if (innermostLoop(n) == null || !fn.node().contains(innermostLoop(n))) return;
                // a for-loop's own step (for (x = lo; x <= hi; x += h)) is its counter, not a sum of data: every port
                // takes the same steps in the same order (the hand-written AccumulationSites.inForIncrement)
                if (inForHeader(n)) return;
                String root = rootUsr(lhs);
                boolean[] reads = new boolean[2];
                term.forEach(x -> {
                    if (root != null && root.equals(x.refUsr)) reads[0] = true;
                    if (x.kind == CXCursor_DeclRefExpr
                            || x.kind == CXCursor_MemberRefExpr
                            || x.kind == CXCursor_CallExpr) reads[1] = true;
                });
                ClangNode bare = strip(term);
                boolean whole = bare != null
                                && (integral(bare.canonKind)
                                        || bare.value != null && bare.value == Math.rint(bare.value))
                                && !viaFma
                        || kind == CXType_Double && !viaFma && ClangDyadicTerms.exact(term, fn)
                        || !viaFma && ClangTables.exactProduct(unit, term)
                        || !viaFma && ClangTallies.wholeElement(term, fn);
                boolean tree = reads[0] && strip(lhs) != null && strip(lhs).kind == CXCursor_ArraySubscriptExpr;
                // the terms a recurrence would read the accumulator through: an fma's two factors, else the term
                List<ClangNode> terms = viaFma ? arguments(strip(term)).subList(0, 2) : List.of(term);
                boolean recurrence = !tree && ClangRecurrences.of(lhs, terms, n, fn);
                out.add(new Sum(
                        n,
                        lhs,
                        term,
                        kind == CXType_Double || kind == CXType_LongDouble,
                        n.canon,
                        whole,
                        tree,
                        recurrence,
                        reads[1] && term.value == null && ClangSteps.varies(unit, term, lhs, n, fn),
                        gridStrides.around(n, fn, root),
                        viaFma,
                        elementwise(lhs, n, term, fn),
                        fn));
            });
        }
        return List.copyOf(out);
    }

    /**
     * The floating kind of {@code n}'s value: its own, or for a C99 complex ({@code float complex corr; corr += a[j] *
     * b[j];}, session 71 round B: a GPS receiver's correlators) its element's; -1 for anything else.
     */
    static int realKind(ClangNode n) {
        if (floating(n.canonKind)) return n.canonKind;
        if (n.canonKind != CXType_Complex || n.canon == null) return -1;
        if (n.canon.contains("long double")) return CXType_LongDouble;
        if (n.canon.contains("double")) return CXType_Double;
        return n.canon.contains("float") ? CXType_Float : -1;
    }

    /**
     * Whether the update adds one term per element and nothing is carried: the accumulator is an element indexed by
     * the variable of a loop around the update, and the term reads no variable of the other loops (those that would
     * carry the sum), no local declared inside the loops and calls nothing (a weight fetched or computed in the loops
     * may be data summed over an outer loop, as in a backprojection over angles). The loops are those inside the
     * accumulator's declaration. As the hand-written front end's {@code AccumulationSites.elementwiseUpdate}, with
     * the loops that move the element proven ({@link ClangElements}: a counter in a division or another array's
     * subscript, {@code h[bin[i]]}, moves nothing).
     */
    private static boolean elementwise(ClangNode lhs, ClangNode n, ClangNode term, ClangUnit.Function fn) {
        java.util.Set<String> index = new java.util.HashSet<>();
        lhs.forEach(x -> {
            if (x.refUsr != null) index.add(x.refUsr);
        });
        boolean element = false;
        java.util.Set<String> carrying = new java.util.HashSet<>();
        ClangNode outermost = null;
        List<ClangNode> around = carryingLoops(lhs, n, fn);
        // the loops whose iterations update distinct elements (ClangElements), of all those around the update
        List<ClangNode> chain = new ArrayList<>();
        for (ClangNode p = n.parent; p != null && p != fn.node(); p = p.parent) if (isLoop(p)) chain.add(0, p);
        java.util.Set<ClangNode> moving = ClangElements.moving(lhs, n, chain);
        for (ClangNode p : around) {
            outermost = p;
            if (moving.contains(p)) element = true;
            else {
                carrying.addAll(loopVariables(p));
                // the counters a do loop's condition steps (do { ... } while (++c < C);)
                if (p.kind == CXCursor_DoStmt && p.children.size() == 2)
                    carrying.addAll(ClangCounterSteps.doCounters(p));
                // a variable the loop's body steps or assigns outside its inner loops (a panel pointer's A += 8)
                // changes the term with it too
                p.forEach(x -> {
                    String w = ClangBodyIndex.writtenVariable(x);
                    if (w != null && innermostLoop(x) == p) carrying.add(w);
                });
            }
        }
        if (!element) return false;
        ClangNode loops = outermost;
        boolean[] ok = {true};
        term.forEach(x -> {
            if (x.kind == CXCursor_CallExpr) ok[0] = false;
            if (x.refUsr == null) return;
            // a counter of a loop that carries the sum changes the term with it, also where it is in the
            // subscript (c[i + j] += a[i] * b[j] over i)
            if (carrying.contains(x.refUsr)) ok[0] = false;
            if (index.contains(x.refUsr)) return;
            if (declares(loops, x.refUsr)) ok[0] = false;
        });
        return ok[0];
    }

    /** In {@code s = s + x} (or {@code x + s}, {@code s - x}): x; else null. */
    private ClangNode addedTo(ClangNode lhs, ClangNode rhs) {
        ClangNode r = strip(rhs);
        if (r == null || r.kind != CXCursor_BinaryOperator || r.children.size() != 2) return null;
        if (!r.spelling.equals("+") && !r.spelling.equals("-")) return null;
        String want = squash(unit.text(lhs));
        // inside a macro's expansion every node's text is the expansion's: the trees decide
        boolean expanded = want.equals(squash(unit.text(r)));
        ClangNode a = r.children.get(0), b = r.children.get(1);
        if (squash(unit.text(strip(a))).equals(want) && (!expanded || sameTree(lhs, a))) return b;
        if (r.spelling.equals("+") && squash(unit.text(strip(b))).equals(want) && (!expanded || sameTree(lhs, b)))
            return a;
        return null;
    }

    /** In {@code s = fmaf(a, b, s)}: the call; else null. */
    private ClangNode fmaInto(ClangNode lhs, ClangNode rhs) {
        ClangNode r = strip(rhs);
        if (r == null || r.kind != CXCursor_CallExpr || !NumericFacts.FMA_FUNCTIONS.contains(callee(r))) return null;
        List<ClangNode> args = arguments(r);
        if (args.size() != 3) return null;
        boolean expanded = squash(unit.text(lhs)).equals(squash(unit.text(r)));
        return squash(unit.text(strip(args.get(2)))).equals(squash(unit.text(lhs)))
                        && (!expanded || sameTree(lhs, args.get(2)))
                ? r
                : null;
    }

    // ------------------------------------------------------------------ promotions

    List<WidenedLiteral> widenedLiterals() {
        List<WidenedLiteral> out = new ArrayList<>();
        for (ClangUnit.Function fn : unit.functions()) {
            fn.node().forEach(n -> {
                if (n.kind != CXCursor_FloatingLiteral || n.canonKind != CXType_Float) return;
                ClangNode lit = n;
                if (n.parent != null && n.parent.kind == CXCursor_UnaryOperator && n.parent.spelling.equals("-"))
                    lit = n.parent;
                String text = unit.text(lit);
                if (!dev.numlint.knowledge.FloatExactness.inexactFloatLiteral(text)) return;
                // up to the conversion to double, then to the target the double value reaches
                ClangNode c = lit;
                ClangNode p = lit.parent;
                while (p != null && p.kind == CXCursor_ParenExpr) {
                    c = p;
                    p = p.parent;
                }
                if (p == null || p.canonKind != CXType_Double) return;
                for (; p != null && p != fn.node(); c = p, p = p.parent) {
                    if (p.kind == CXCursor_VarDecl) {
                        if (p.canonKind == CXType_Double)
                            out.add(new WidenedLiteral(c, text, "initialization of '" + p.spelling + "'", fn));
                        return;
                    }
                    if (p.kind == CXCursor_ReturnStmt) {
                        out.add(new WidenedLiteral(c, text, "the returned value", fn));
                        return;
                    }
                    if ((p.kind == CXCursor_BinaryOperator && p.spelling.equals("=")
                                    || p.kind == CXCursor_CompoundAssignOperator)
                            && p.children.size() == 2) {
                        if (p.children.get(1) == c && p.children.get(0).canonKind == CXType_Double) {
                            ClangNode at = p.kind == CXCursor_CompoundAssignOperator ? p : c;
                            out.add(new WidenedLiteral(
                                    at, text, "assignment to '" + unit.text(p.children.get(0)) + "'", fn));
                        }
                        return;
                    }
                    // a call's argument is not followed to the double target the call's result reaches (sqrt(v +
                    // 1e-6f), fmax(v, 1e-35f)): the hand-written front end follows only arithmetic, casts, parentheses
                    if (p.kind == CXCursor_CallExpr) return;
                    // rounded to float (or to an integer) on the way: float's own rounding, not this hazard
                    if (p.canonKind != CXType_Double && p.kind != CXCursor_ParenExpr) return;
                    if (!clang_isExpressionKind(p.kind)) return;
                }
            });
        }
        return List.copyOf(out);
    }

    List<Promotion> promotions() {
        List<Promotion> out = new ArrayList<>();
        for (ClangUnit.Function fn : unit.functions()) {
            fn.node().forEach(n -> {
                if (n.kind == CXCursor_CompoundAssignOperator && n.children.size() == 2) {
                    compound(n, fn, out);
                    return;
                }
                // the implicit conversion of a double value to float
                if (n.kind != CXCursor_UnexposedExpr || n.children.size() != 1) return;
                if (n.canonKind != CXType_Float) return;
                ClangNode v = n.children.get(0);
                ClangNode e = strip(v);
                if (v.canonKind != CXType_Double || e == null || e.value != null || v.value != null) return;
                // an operation, a call, or a selection between values (a MAX macro's (a) > (b) ? (a) : (b))
                if (e.kind != CXCursor_BinaryOperator
                        && e.kind != CXCursor_CallExpr
                        && e.kind != CXCursor_ConditionalOperator) return;
                if (e.kind == CXCursor_ConditionalOperator && !selectsComputed(e)) return;
                String promoter = promoter(e);
                if (promoter == null) return;
                String target = target(n, fn);
                if (target == null) return;
                out.add(new Promotion(
                        e, target, promoter, !promoter.startsWith("the double literal"), false, exactOnce(e, fn), fn));
            });
        }
        return List.copyOf(out);
    }

    private void compound(ClangNode n, ClangUnit.Function fn, List<Promotion> out) {
        ClangNode lhs = n.children.get(0);
        if (lhs.canonKind != CXType_Float) return;
        ClangNode rhs = strip(n.children.get(1));
        if (rhs == null || rhs.canonKind != CXType_Double) return;
        String why;
        if (rhs.kind == CXCursor_FloatingLiteral) why = "the double literal " + literal(rhs);
        else why = promoter(rhs);
        if (why == null) return;
        boolean exact = rhs.value != null && NumericFacts.isExactFloatInteger(rhs.value)
                || rhs.value != null && (float) (double) rhs.value == rhs.value;
        out.add(new Promotion(
                n, "float '" + unit.text(lhs) + "'", why, rhs.kind != CXCursor_FloatingLiteral, true, exact, fn));
    }

    /**
     * Why a double expression that holds float data is double: "the double literal 1.5" or "sqrt(), not sqrtf()";
     * null when it holds double data (a double variable: deliberate) or no float at all.
     */
    private String promoter(ClangNode e) {
        String[] why = new String[1];
        boolean[] floatLeaf = new boolean[1];
        boolean[] doubleData = new boolean[1];
        e.forEach(x -> {
            if (x.kind == CXCursor_UnexposedExpr
                    && x.canonKind == CXType_Double
                    && x.children.size() == 1
                    && x.children.get(0).canonKind == CXType_Float) floatLeaf[0] = true;
            boolean leaf = x.kind == CXCursor_DeclRefExpr
                    || x.kind == CXCursor_MemberRefExpr
                    || x.kind == CXCursor_ArraySubscriptExpr;
            // a double whose address is passed (modf(x, &whole)) is an out-parameter, not data of the value
            if (leaf && x.canonKind == CXType_Double && !underFloatConversion(x, e) && !addressOf(x))
                doubleData[0] = true;
            if (why[0] == null && x.kind == CXCursor_FloatingLiteral && x.canonKind == CXType_Double)
                why[0] = "the double literal " + literal(x);
            if (x.kind == CXCursor_CallExpr && x.canonKind == CXType_Double) {
                String name = callee(x);
                String base = name.startsWith("std::") ? name.substring(5) : name;
                // a function of the math library with a float version (copysign, modf, fmin: as the hand-written
                // front end's Builtins) computes in double what its float version would compute in float
                if (NumericFacts.TRANSCENDENTAL.contains(base) || NumericFacts.MATH_LIBRARY.contains(base)) {
                    // exp(d / (1.0 + t)): the call is double because its argument is, and the argument's own
                    // promoter (the literal, visited next) is what promotes the float data
                    if (why[0] == null && !nvccFloatOverload(x) && !argumentComputedInDouble(x))
                        why[0] = base + "(), not " + base + "f()";
                } else if (!x.children.isEmpty() && !NumericFacts.ROUNDING.contains(base) && x.value == null) {
                    // a function returning double data; a call Clang evaluates to a constant
                    // (std::numeric_limits<double>::infinity(), a constexpr function of constants) is a double
                    // constant, as a literal is
                    doubleData[0] = true;
                }
            }
        });
        return floatLeaf[0] && !doubleData[0] ? why[0] : null;
    }

    /**
     * Whether a selection computes in double: one of its two values is an operation or a call of type double (or a
     * selection that does). Choosing between a float value and a double constant ({@code v > 0 ? v : 0.0}) computes
     * nothing: stored into a float it is the float value or the constant rounded, as float code would give.
     */
    private static boolean selectsComputed(ClangNode sel) {
        int k = sel.children.size();
        if (k < 2) return false;
        for (ClangNode arm : sel.children.subList(k - 2, k)) {
            ClangNode a = strip(arm);
            if (a == null) continue;
            if (a.kind == CXCursor_ConditionalOperator
                    ? selectsComputed(a)
                    : (a.kind == CXCursor_BinaryOperator || a.kind == CXCursor_CallExpr)
                            && a.canonKind == CXType_Double) return true;
        }
        return false;
    }

    /** A literal as written, or its value where a macro argument spells it (no text of its own in the file). */
    private String literal(ClangNode x) {
        String t = unit.text(x);
        if (!t.isEmpty() || x.value == null) return t;
        return new java.math.BigDecimal(Double.toString(x.value))
                .stripTrailingZeros()
                .toPlainString();
    }

    /**
     * A call in a CUDA file whose every argument is a float converted to double: nvcc's {@code math_functions.h}
     * puts the float overloads in the global namespace for host code too ({@code using std::sin;}, {@code __host__
     * __device__ float nextafter(float, float)}), so host code calls them as device code does; Clang's CUDA headers
     * declare them {@code __device__} only and resolve a host call to {@code ::sin(double)}. As the hand-written
     * front end's float overloads of C++ and CUDA.
     */
    private boolean nvccFloatOverload(ClangNode call) {
        String name = unit.file().getFileName().toString();
        if (!name.endsWith(".cu") && !name.endsWith(".cuh")) return false;
        List<ClangNode> args = arguments(call);
        if (args.isEmpty()) return false;
        for (ClangNode a : args) {
            ClangNode x = a;
            while (x.kind == CXCursor_ParenExpr && x.children.size() == 1) x = x.children.get(0);
            if (x.kind != CXCursor_UnexposedExpr || x.children.size() != 1) return false;
            if (x.children.get(0).canonKind != CXType_Float) return false;
        }
        return true;
    }

    /** What receives the float: "float 'x'", "'y[i]'", "the float return value of 'f'"; null for other contexts. */
    private String target(ClangNode conv, ClangUnit.Function fn) {
        ClangNode c = conv;
        ClangNode p = conv.parent;
        while (p != null && p.kind == CXCursor_ParenExpr) {
            c = p;
            p = p.parent;
        }
        if (p == null) return null;
        if (p.kind == CXCursor_VarDecl) return "float '" + p.spelling + "'";
        if (p.kind == CXCursor_ReturnStmt) return "the float return value of '" + fn.name() + "'";
        if (p.kind == CXCursor_BinaryOperator
                && p.spelling.equals("=")
                && p.children.size() == 2
                && p.children.get(1) == c) return "'" + unit.text(p.children.get(0)) + "'";
        return null;
    }

    /**
     * One multiplication, division or addition of a float operand and a constant float holds, or of two float
     * operands (or a correctly rounded function of a float): the double result rounds to the float result (innocuous:
     * double's 53 bits are at least twice float's 24 and 2 more, so one operation rounded twice is rounded once). A
     * value float holds ({@link #floatHeld}: {@code frexp(x, &k)}, {@code copysign(1.0, x)*v}) is not rounded at all.
     */
    private boolean exactOnce(ClangNode e, ClangUnit.Function fn) {
        if (floatHeld(e, fn)) return true; // copysign(1.0, x)*v, frexp(x, &k): no rounding at all
        // (b > 0) ? -0.5 * (b + s) : -0.5 * (b - s): the value is one branch's, each rounded once (session 51)
        ClangNode c = strip(e);
        if (c != null && c.kind == CXCursor_ConditionalOperator && c.children.size() == 3)
            return exactOnce(strip(c.children.get(1)), fn) && exactOnce(strip(c.children.get(2)), fn);
        if (e.kind == CXCursor_CallExpr) {
            String base = callee(e).replace("std::", "");
            List<ClangNode> args = arguments(e);
            // ldexp(x, n) of a float x is exact in double; the one rounding to float is ldexpf's own
            if (base.equals("ldexp") && !args.isEmpty() && floatHeld(args.get(0), fn)) return true;
            // sqrt, fabs, floor ... of a value float holds round once as their float versions do; of a value
            // computed in double (sqrt((t * t) - 1.0)) they see bits float code rounds away
            return (base.equals("sqrt") || base.equals("fabs") || NumericFacts.ROUNDING.contains(base))
                    && !args.isEmpty()
                    && floatHeld(args.get(0), fn);
        }
        if (e.children.size() != 2
                || !(e.spelling.equals("*")
                        || e.spelling.equals("/")
                        || e.spelling.equals("+")
                        || e.spelling.equals("-"))) return false;
        for (ClangNode o : e.children) if (!floatHeld(o, fn)) return false;
        return true;
    }

    /** Functions whose result is exact: a float argument gives a value float holds. */
    private static final java.util.Set<String> EXACT_CALLS =
            java.util.Set.of("copysign", "fabs", "fmax", "fmin", "frexp");

    /**
     * Whether the double value of {@code o} is one float holds: a float widened, a constant float holds, a value of a
     * finite set of such constants ({@link ClangValueSets}), an exact function ({@code copysign}, {@code fabs},
     * {@code fmax}, {@code fmin}, {@code frexp}) of such values, such a value times a factor whose values are all
     * zero or powers of two, or divided by a constant power of two.
     */
    private boolean floatHeld(ClangNode o, ClangUnit.Function fn) {
        ClangNode s = strip(o);
        if (s == null) return false;
        boolean fromFloat = o.kind == CXCursor_UnexposedExpr
                && o.children.size() == 1
                && o.children.get(0).canonKind == CXType_Float;
        if (fromFloat || s.canonKind == CXType_Float) return true;
        if (s.value != null) return (double) (float) (double) s.value == s.value;
        java.util.TreeSet<Double> set = ClangValueSets.values(s, fn);
        if (set != null) {
            for (double d : set) if ((double) (float) d != d) return false;
            return true;
        }
        if (s.kind == CXCursor_CallExpr) {
            String base = callee(s).replace("std::", "");
            List<ClangNode> args = arguments(s);
            if (!EXACT_CALLS.contains(base) || args.isEmpty()) return false;
            // frexp's second argument is the exponent's address; copysign takes only the sign of its second
            int n = base.equals("fmax") || base.equals("fmin") ? args.size() : 1;
            for (int k = 0; k < n; k++) if (!floatHeld(args.get(k), fn)) return false;
            return true;
        }
        if (s.kind == CXCursor_BinaryOperator && s.spelling.equals("*") && s.children.size() == 2) {
            for (int k = 0; k < 2; k++) {
                if (ClangValueSets.powerOfTwoFactor(s.children.get(k), fn) && floatHeld(s.children.get(1 - k), fn))
                    return true;
            }
        }
        return ClangValueSets.byPowerOfTwo(s) && floatHeld(s.children.get(0), fn); // size / 2.0 (session 45)
    }

    // ------------------------------------------------------------------ contractions

    List<Contraction> contractions() {
        List<Contraction> out = new ArrayList<>();
        for (ClangUnit.Function fn : unit.functions()) {
            List<Contraction> mine = new ArrayList<>();
            fn.node().forEach(n -> {
                if (n.children.size() != 2 || !floating(n.canonKind)) return;
                boolean add = n.kind == CXCursor_BinaryOperator && (n.spelling.equals("+") || n.spelling.equals("-"));
                boolean acc = n.kind == CXCursor_CompoundAssignOperator
                        && (n.spelling.equals("+=") || n.spelling.equals("-="));
                if (!add && !acc) return;
                ClangNode a = sameType(product(n.children.get(0), fn), n);
                ClangNode b = sameType(product(n.children.get(1), fn), n);
                // a single-use product temporary (t = a*b; ... t - c): the compiler fuses through it as through a*b
                // (of the sum's type: a float temporary added to 0.5 in double is rounded before the add)
                ClangNode ta = a == null ? sameType(productTemporary(n.children.get(0), fn), n) : null;
                ClangNode tb = b == null ? sameType(productTemporary(n.children.get(1), fn), n) : null;
                if (ta != null) a = ta;
                if (tb != null) b = tb;
                if (acc) a = ta = null;
                if (a == null && b == null) return;
                // a product of two floats (or integers below 2^24) computed in double is exact: an fma changes nothing
                boolean inexactA = a != null && !exactProduct(a, fn) && !ClangWholeNumbers.exactProduct(unit, a, fn);
                boolean inexactB = b != null && !exactProduct(b, fn) && !ClangWholeNumbers.exactProduct(unit, b, fn);
                if (!inexactA && !inexactB) return;
                ClangNode p = inexactA ? a : b;
                // a difference of products: one product added with the opposite sign of the other (-a*b + c*d
                // too); a sum of squares or of equal-signed products cannot cancel
                boolean difference = (a != null || localProduct(n.children.get(0), fn) != null)
                        && b != null
                        && n.spelling.equals("-") != (negated(n.children.get(0)) != negated(n.children.get(1)));
                // one component of a complex product or a 2-D rotation (its companion is computed nearby)
                boolean paired = difference && pairs.pairedComponent(n, fn);
                boolean temp = p == ta || p == tb;
                String text = !temp
                        ? unit.text(p)
                        : strip(n.children.get(p == ta ? 0 : 1)).spelling + " = " + unit.text(p) + " (line " + p.line
                                + ")";
                mine.add(new Contraction(n, text, n.spelling.startsWith("-"), difference, acc, paired, fn));
            });
            // in the order the operations are evaluated, an operand before the operation that reads it (as the
            // hand-written front end meets them): the first contraction of a line, the one NL003 names, is the
            // innermost ('1.1f*x2*y2 - 0.3f*x4' of 'd.y += s * (1.1f*x2*y2 - 0.3f*x4 - 0.3f*y4)')
            mine.sort(java.util.Comparator.<Contraction>comparingInt(c -> c.node().endOffset)
                    .thenComparing(java.util.Comparator.<Contraction>comparingInt(c -> c.node().offset)
                            .reversed()));
            out.addAll(mine);
        }
        return List.copyOf(out);
    }

    /**
     * A product whose sign a minus flips: an odd number of negated factors ({@code -a*b}, {@code -(a*b)},
     * {@code (-a)*b}); a square ({@code (-a)*(-a)}, {@code x*x}) cannot be negative. As the hand-written front end's
     * {@code ContractionSites.negated}.
     */
    private boolean negated(ClangNode e) {
        ClangNode p = strip(e);
        if (p == null) return false;
        if (p.kind == CXCursor_UnaryOperator && p.spelling.equals("-") && p.children.size() == 1) {
            return !negated(p.children.get(0));
        }
        if (p.kind == CXCursor_BinaryOperator && p.spelling.equals("*") && p.children.size() == 2) {
            ClangNode l = strip(p.children.get(0)), r = strip(p.children.get(1));
            if (l == null || r == null) return false;
            if (squash(unit.text(l)).equals(squash(unit.text(r))) && sameTree(l, r)) return false; // a square
            return negated(l) != negated(r);
        }
        return false;
    }

    /**
     * The product a local holds when it is read as the first operand of a subtraction ({@code sumV = (u0 - u1) * 0.3f;
     * ... sumV - x * y} is a difference of products): a local defined once as a product that rounds, or null.
     */
    private static ClangNode localProduct(ClangNode e, ClangUnit.Function fn) {
        ClangNode s = strip(e);
        if (s == null || s.kind != CXCursor_DeclRefExpr || s.refUsr == null) return null;
        ClangNode def = ClangWholeNumbers.onlyDefinition(s.refUsr, fn);
        return def == null ? null : product(def, fn);
    }

    /**
     * The initializer of a single-use product temporary that {@code e} reads: a local of floating type declared with
     * a product of its own type ({@code float t = a[i] * b[i];}, not a double product rounded to float), never written
     * again and read only here, as the hand-written {@code Local.product}; or null.
     */
    private static ClangNode productTemporary(ClangNode e, ClangUnit.Function fn) {
        ClangNode s = strip(e);
        if (s == null || s.kind != CXCursor_DeclRefExpr || s.refUsr == null) return null;
        ClangBodyIndex.Variable v = ClangBodyIndex.of(fn).of(s.refUsr);
        if (v.decls().size() != 1
                || v.decls().get(0).kind != CXCursor_VarDecl
                || v.refs().size() != 1) return null;
        ClangNode def = ClangWholeNumbers.onlyDefinition(s.refUsr, fn);
        ClangNode p = def == null ? null : product(def, fn);
        // a product converted to the local's type is rounded there: nothing is left to fuse
        if (p == null || p.canonKind != s.canonKind) return null;
        // GCC fuses a multiply into an add of the same basic block only, as LLVM's instruction selection does: a
        // product computed before a loop or a branch stays a multiply (session 70 round F: a cell model's hexagonal
        // packing, y_offset = sqrt(3.0) * half_space before the loop that adds it, three false warnings)
        return sameBlock(v.decls().get(0), s) ? p : null;
    }

    /**
     * Whether the read {@code r} is evaluated in the basic block that the declaration {@code d} ends: no loop, branch,
     * switch, conditional operand or short circuit lies between the block that holds {@code d} and {@code r} (an if's
     * or a while's condition, a conditional's test are still evaluated there).
     */
    private static boolean sameBlock(ClangNode d, ClangNode r) {
        ClangNode block = d.parent == null ? null : d.parent.parent; // VarDecl, DeclStmt, the block that holds it
        if (block == null || block.kind != CXCursor_CompoundStmt) return false;
        ClangNode c = r;
        for (ClangNode p = r.parent; p != null && p != block; c = p, p = p.parent) {
            int at = p.children.indexOf(c);
            boolean test = at == 0
                    && (p.kind == CXCursor_IfStmt
                            || p.kind == CXCursor_SwitchStmt
                            || p.kind == CXCursor_ConditionalOperator);
            boolean shortCircuit =
                    p.kind == CXCursor_BinaryOperator && ("&&".equals(p.spelling) || "||".equals(p.spelling));
            if (isLoop(p)
                    || shortCircuit && at > 0
                    || !test
                            && (p.kind == CXCursor_IfStmt
                                    || p.kind == CXCursor_SwitchStmt
                                    || p.kind == CXCursor_CaseStmt
                                    || p.kind == CXCursor_DefaultStmt
                                    || p.kind == CXCursor_ConditionalOperator
                                    || p.kind == CXCursor_LambdaExpr)) return false;
        }
        return c != null && block.children.indexOf(c) > block.children.indexOf(d.parent);
    }

    /** The floating product {@code x*y} under wrappers, or null. */
    /**
     * The product when it is computed in the type of the sum {@code n} that reads it, else null: a float product
     * converted to double ({@code i * hx - size / 2.}) is rounded to float first, and no fma joins a mul.f32 to a
     * sub.f64.
     */
    private static ClangNode sameType(ClangNode product, ClangNode n) {
        return product == null || product.canonKind == n.canonKind ? product : null;
    }

    private static ClangNode product(ClangNode n, ClangUnit.Function fn) {
        ClangNode s = strip(n);
        if (s == null || s.kind != CXCursor_BinaryOperator || !s.spelling.equals("*") || !floating(s.canonKind))
            return null;
        if (s.children.size() != 2) return null;
        // a product of constants is folded by the compiler: nothing is left to contract
        if (s.value != null) return null;
        // a product by a power of two (or zero) is exact in any precision
        for (ClangNode o : s.children) {
            ClangNode c = strip(o);
            Double v = c == null ? null : c.value != null ? c.value : constant(c);
            if (v != null && NumericFacts.isPowerOfTwoOrZero(Math.abs(v))) return null;
            // so is a product by a weight whose every value is zero or a power of two (0.5*(1 + copysign(1, u)))
            if (ClangValueSets.powerOfTwoFactor(o, fn)) return null;
        }
        return s;
    }

    /**
     * Whether a product is exact: computed in double from operands that are floats (24 bits each: the 48-bit
     * product fits in 53) or integers float holds exactly, or float values held in doubles ({@link ClangFloatValues}).
     */
    private static boolean exactProduct(ClangNode p, ClangUnit.Function fn) {
        if (p.canonKind != CXType_Double && p.canonKind != CXType_LongDouble) return false;
        for (ClangNode o : p.children) {
            if (ClangFloatValues.floatValue(o, fn)) continue;
            ClangNode x = o;
            while (x.kind == CXCursor_ParenExpr && x.children.size() == 1) x = x.children.get(0);
            // an implicit or explicit conversion of a float (or half) to double (a cast holds its implicit one)
            ClangNode from = x.kind == CXCursor_UnexposedExpr && x.children.size() == 1
                    ? x.children.get(0)
                    : isExplicitCast(x) ? operandOf(x) : null;
            boolean widened = false;
            for (int d = 0; from != null && d < 4; d++) {
                if (from.canonKind == CXType_Float || from.canonKind == CXType_Half) widened = true;
                if (widened || from.kind != CXCursor_UnexposedExpr || from.children.size() != 1) break;
                from = from.children.get(0);
            }
            boolean exactConstant = x.value != null && (double) (float) (double) x.value == x.value;
            if (!widened && !exactConstant) return false;
        }
        return true;
    }

    // ------------------------------------------------------------------ math calls

    List<MathCall> mathCalls() {
        List<MathCall> out = new ArrayList<>();
        for (ClangUnit.Function fn : unit.functions()) {
            fn.node().forEach(n -> {
                if (n.kind != CXCursor_CallExpr) return;
                String name = callee(n);
                String base = name.startsWith("std::") ? name.substring(5) : name;
                if (ClangUnit.APPROXIMATE_INTRINSICS.contains(base)) return; // ClangUnit#intrinsics
                List<ClangNode> args = arguments(n);
                // in a template pattern, sin(ang) of a T that an instantiation binds to float: sinf there
                boolean instantiated = !floating(n.canonKind)
                        && ClangUnit.floatingMath(base)
                        && args.size() == 1
                        && args.get(0) != null
                        && ClangTypeArguments.instantiatedFloat(args.get(0), fn);
                // sincosf(x, &s, &c) returns its two results through pointers: void, and --use_fast_math maps it
                // to __sincosf as it maps sinf (session 71 round A: an ultrasound simulator's kernels, silent
                // without the PTX layer)
                boolean sincos = (base.equals("sincos") || base.equals("sincosf")) && args.size() == 3;
                if (!floating(n.canonKind) && !instantiated && !sincos) return;
                boolean floatArg = instantiated || !args.isEmpty() && args.get(0).canonKind == CXType_Float;
                String mapped = null;
                if (fn.device()) {
                    String f = base.endsWith("f") ? base : floatArg ? base + "f" : null;
                    if (f != null && ClangUnit.APPROXIMATE_INTRINSICS.contains("__" + f)) mapped = "__" + f;
                }
                boolean fsqrt = fn.device() && (base.equals("sqrtf") || base.equals("sqrt") && floatArg);
                boolean transcendental = NumericFacts.TRANSCENDENTAL.contains(base)
                        || (base.endsWith("f") || base.endsWith("l"))
                                && NumericFacts.TRANSCENDENTAL.contains(base.substring(0, base.length() - 1));
                if (mapped == null && !fsqrt && !transcendental) return;
                out.add(new MathCall(n, name, base, mapped, fsqrt, transcendental, fn));
            });
        }
        return List.copyOf(out);
    }
}
