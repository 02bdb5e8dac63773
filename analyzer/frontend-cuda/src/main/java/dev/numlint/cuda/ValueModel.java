package dev.numlint.cuda;

import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.cuda.parser.CudaLexer;
import dev.numlint.knowledge.FloatExactness;
import java.util.List;
import java.util.Map;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * The value model of C/C++/CUDA operators over typed values ({@link E}): the result of a literal, a unary or binary
 * operator, a conditional, a cast and a call from the values of its operands; its type (usual arithmetic
 * conversions), constant, interval, sign, whole-number bound, the kind of data it comes from (floating, float,
 * double) and why it was promoted to double. Nothing here records a site: {@link FunctionAnalyzer} computes values
 * with these rules while it walks a body.
 */
final class ValueModel {
    private ValueModel() {}

    /** A conversion to an integer truncates toward zero. */
    static double trunc(double x) {
        return x < 0 ? Math.ceil(x) : Math.floor(x);
    }

    static boolean nonNegative(E v) {
        return v != null && (v.nonNeg || v.type.isUnsignedInt() || (v.cval != null && v.cval >= 0));
    }

    static boolean containsRelational(ParseTree t) {
        if (t instanceof RelExprContext) return true;
        if (t instanceof TerminalNode) return false;
        for (int i = 0; i < t.getChildCount(); i++) if (containsRelational(t.getChild(i))) return true;
        return false;
    }

    /** A value of type {@code t} read from a variable ({@code var}, or null) or an element: floating data. */
    static E leaf(CType t, String var, Map<String, String> guardedVars) {
        E r = E.of(t);
        if (t.isFpScalar() || t.kind == CType.Kind.VECTOR && t.elem.isFpScalar()) {
            r.fpLeaf = true;
            r.f32Leaf = t.kind == CType.Kind.FLOAT || (t.kind == CType.Kind.VECTOR && t.elem.kind == CType.Kind.FLOAT);
            r.dblVar = t.kind == CType.Kind.DOUBLE;
        }
        r.var = var;
        if (var != null && guardedVars.containsKey(var)) {
            r.guarded = true;
            r.guard = guardedVars.get(var);
            r.compared = true;
        }
        return r;
    }

    /** Marks {@code r} range-limited by the clamp or bounded function {@code name} (its own, not an argument's). */
    static void guard(E r, String name) {
        r.guarded = true;
        r.guard = name + "()";
    }

    static void copyLeaves(E to, E from) {
        to.fpLeaf |= from.fpLeaf;
        to.f32Leaf |= from.f32Leaf;
        to.dblVar |= from.dblVar;
        to.guarded |= from.guarded;
        if (to.guard == null) to.guard = from.guard;
        to.compared |= from.compared;
        if (to.promotedVar == null) to.promotedVar = from.promotedVar;
    }

    static E copy(E v) {
        E r = E.of(v.type);
        r.cval = v.cval;
        copyLeaves(r, v);
        r.promoter = v.promoter;
        r.nonNeg = v.nonNeg;
        r.dblLiteral = v.dblLiteral;
        r.floatLiteral = v.floatLiteral;
        r.widenedLiteral = v.widenedLiteral;
        r.lo = v.lo;
        r.hi = v.hi;
        r.intMag = v.intMag;
        r.set = v.set;
        return r;
    }

    static E literal(LiteralContext l) {
        String s = l.getText();
        if (l.CHAR_LITERAL() != null) return E.of(CType.CHAR);
        boolean fl = l.FLOATING_LITERAL() != null;
        E r = E.of(Literals.type(s, fl));
        r.cval = Literals.value(s);
        if (r.cval != null && r.cval >= 0) r.nonNeg = true;
        if (fl && r.type.kind == CType.Kind.DOUBLE) r.dblLiteral = s;
        if (fl && r.type.kind == CType.Kind.FLOAT && dev.numlint.knowledge.FloatExactness.inexactFloatLiteral(s))
            r.floatLiteral = s;
        return r;
    }

    /** {@code x++}, {@code x--}: the type and the kind of data of {@code v}. */
    static E postIncrement(E v) {
        E r = E.of(v.type);
        copyLeaves(r, v);
        return r;
    }

    /** {@code test ? a : b}. */
    static E conditional(ExpressionContext test, E a, E b) {
        E r = E.of(CType.arith(a.type, b.type));
        if (a.type.kind == CType.Kind.POINTER || a.type.kind == CType.Kind.STRUCT) r.type = a.type;
        copyLeaves(r, a);
        copyLeaves(r, b);
        r.promoter = a.promoter != null ? a.promoter : b.promoter;
        r.guarded = containsRelational(test) || (a.guarded && b.guarded);
        if (containsRelational(test)) r.guard = "the test '" + test.getText() + "' (line " + test.start.getLine() + ")";
        r.compared |= containsRelational(test);
        Intervals.set(r, Math.min(a.lo, b.lo), Math.max(a.hi, b.hi));
        r.nonNeg = a.nonNeg && b.nonNeg;
        if (a.cval != null && b.cval != null && a.cval >= 0 && b.cval >= 0) r.nonNeg = true;
        r.set = ValueSets.converted(ValueSets.union(ValueSets.of(a), ValueSets.of(b)), r.type);
        return r;
    }

    /** A shift or a bitwise and, or, xor of {@code a} and {@code b}. */
    static E bitwise(ExpressionContext e, E a, E b) {
        CType t = a.type.isInteger() ? CType.promote(a.type) : CType.UNKNOWN;
        E r = E.of(t);
        if (a.cval != null && b.cval != null && e instanceof ShiftExprContext) {
            long x = a.cval.longValue();
            long y = b.cval.longValue();
            r.cval = (double) (((ShiftExprContext) e).SHL() != null ? x << y : x >> y);
        }
        return r;
    }

    /** A unary operator applied to {@code v}. */
    static E unary(UnaryExprContext c, E v, Map<String, String> guardedVars) {
        if (c.STAR() != null) {
            CType t = v.type.kind == CType.Kind.POINTER ? v.type.elem : CType.UNKNOWN;
            return leaf(t, v.var, guardedVars);
        }
        if (c.AMP() != null) {
            E r = E.of(v.type.isUnknown() ? CType.UNKNOWN : CType.pointer(v.type));
            r.var = v.var;
            return r;
        }
        if (c.BANG() != null) return E.of(CType.BOOL);
        E r = copy(v);
        if (c.MINUS() != null) {
            r.set = ValueSets.negated(v.set);
            Intervals.set(r, -v.hi, -v.lo);
            if (v.cval != null) r.cval = -v.cval;
            r.nonNeg = r.cval != null && r.cval >= 0;
            r.dblLiteral = v.dblLiteral == null ? null : "-" + v.dblLiteral;
            r.floatLiteral = v.floatLiteral == null ? null : "-" + v.floatLiteral;
        }
        if (c.TILDE() != null) {
            r.cval = null;
            r.set = null;
            r.type = CType.promote(v.type);
            r.lo = Double.NEGATIVE_INFINITY;
            r.hi = Double.POSITIVE_INFINITY;
            r.intMag = null;
        }
        if (c.PLUS_PLUS() != null || c.MINUS_MINUS() != null) {
            r.cval = null;
            r.set = null;
            r.lo = Double.NEGATIVE_INFINITY;
            r.hi = Double.POSITIVE_INFINITY;
            r.intMag = null;
        }
        return r;
    }

    /** Result of a binary arithmetic operator: type, constant folding, leaf flags and double promotion. */
    static E arith(E a, E b, int op) {
        CType t = CType.arith(a.type, b.type);
        E r = E.of(t);
        copyLeaves(r, a);
        copyLeaves(r, b);
        Intervals.arith(r, a, b, op);
        // a range-limited value keeps its range through scaling (clamped * 255.0f, x / h under x > 0) and through
        // sums with constants or other range-limited values (clamped * 255.0f + 0.5f), but not through a sum with an
        // unbounded operand: source.x + fminf(a, b) * ray.x can be anything
        if (op == CudaLexer.PLUS || op == CudaLexer.MINUS) {
            r.guarded = (a.guarded || a.cval != null) && (b.guarded || b.cval != null) && (a.guarded || b.guarded);
            r.guard = a.guard != null ? a.guard : b.guard;
        }
        if (a.cval != null && b.cval != null) {
            double x = a.cval;
            double y = b.cval;
            boolean integer = t.isInteger();
            switch (op) {
                case CudaLexer.PLUS:
                    r.cval = x + y;
                    break;
                case CudaLexer.MINUS:
                    r.cval = x - y;
                    break;
                case CudaLexer.STAR:
                    r.cval = x * y;
                    break;
                case CudaLexer.DIV:
                    r.cval = y == 0 ? null : integer ? (double) ((long) x / (long) y) : x / y;
                    break;
                case CudaLexer.MOD:
                    r.cval = y == 0 ? null : (double) ((long) x % (long) y);
                    break;
                default:
                    break;
            }
        }
        if (t.kind == CType.Kind.DOUBLE && r.cval == null) {
            // an integer combined with a double literal (i + 0.5) keeps the literal as the reason for double
            if (a.type.isInteger() && b.dblLiteral != null) r.dblLiteral = b.dblLiteral;
            else if (b.type.isInteger() && a.dblLiteral != null) r.dblLiteral = a.dblLiteral;
        }
        if (t.kind == CType.Kind.DOUBLE) {
            if (a.dblVar || b.dblVar) {
                r.promoter = null;
            } else if (a.type.kind == CType.Kind.FLOAT && a.f32Leaf && b.type.kind == CType.Kind.DOUBLE) {
                r.promoter = b.dblLiteral != null ? "the double literal " + b.dblLiteral : b.promoter;
                r.promotedVar = a.var;
            } else if (b.type.kind == CType.Kind.FLOAT && b.f32Leaf && a.type.kind == CType.Kind.DOUBLE) {
                r.promoter = a.dblLiteral != null ? "the double literal " + a.dblLiteral : a.promoter;
                r.promotedVar = b.var;
            } else {
                r.promoter = a.promoter != null ? a.promoter : b.promoter;
            }
        }
        if (t.kind == CType.Kind.DOUBLE) r.widenedLiteral = widened(a, b);
        if (op == CudaLexer.STAR || op == CudaLexer.DIV) {
            r.nonNeg = a.nonNeg && b.nonNeg;
        } else if (op == CudaLexer.PLUS) {
            r.nonNeg = a.nonNeg && b.nonNeg;
        }
        if (r.cval != null) r.nonNeg = r.cval >= 0;
        r.intMag = wholeResult(E.wholeBound(a), E.wholeBound(b), op, t);
        if (r.cval == null && (op == CudaLexer.PLUS || op == CudaLexer.MINUS || op == CudaLexer.STAR)) {
            char o = op == CudaLexer.PLUS ? '+' : op == CudaLexer.MINUS ? '-' : '*';
            r.set = ValueSets.arith(ValueSets.of(a), ValueSets.of(b), o, t);
        }
        return r;
    }

    /**
     * The magnitude bound of a whole-number result of {@code a op b} in type {@code t}: sums, differences and products
     * of whole numbers are whole (and exact while they stay below 2^24 in float, 2^53 in double); an integer quotient
     * or remainder is bounded by its operands. Null when the result may be fractional, unbounded or rounded.
     */
    private static Double wholeResult(Double a, Double b, int op, CType t) {
        if (a == null || b == null || !(t.isFpScalar() || t.isInteger())) return null;
        double m;
        switch (op) {
            case CudaLexer.PLUS, CudaLexer.MINUS -> m = a + b;
            case CudaLexer.STAR -> m = a * b;
            case CudaLexer.DIV -> {
                if (!t.isInteger()) return null;
                m = a;
            }
            case CudaLexer.MOD -> m = Math.min(a, b);
            default -> {
                return null;
            }
        }
        return m <= wholeLimit(t) ? m : null;
    }

    /**
     * The largest whole number {@code t} holds, and computes with, exactly: 2^24 in float, 2^53 in double, the
     * largest value of a 32-bit int (beyond it a product may overflow).
     */
    static double wholeLimit(CType t) {
        if (t.kind == CType.Kind.FLOAT) return FloatExactness.FLOAT_INTEGER_LIMIT;
        if (t.isFpScalar()) return FloatExactness.DOUBLE_INTEGER_LIMIT;
        if (t.isInteger()) return t.size >= 8 ? FloatExactness.DOUBLE_INTEGER_LIMIT : Integer.MAX_VALUE;
        return 0;
    }

    /** The value of {@code v} converted to {@code target} (an explicit cast). */
    static E castResult(CType target, E v) {
        E r = E.of(target);
        r.guarded = v.guarded;
        r.guard = v.guard;
        r.compared = v.compared;
        // a conversion to an integer truncates toward zero (an out-of-range value leaves the type's range: set())
        if (target.isInteger()) Intervals.set(r, trunc(v.lo), trunc(v.hi));
        else if (target.isFloating()) Intervals.set(r, v.lo, v.hi);
        r.nonNeg = v.nonNeg || target.isUnsignedInt();
        if (v.cval != null) {
            r.cval = target.isInteger() ? (double) (long) (double) v.cval : v.cval;
        }
        if (target.isFloating()) {
            r.fpLeaf = v.fpLeaf;
            r.f32Leaf = target.kind == CType.Kind.FLOAT && v.fpLeaf;
            r.dblVar = target.kind == CType.Kind.DOUBLE && v.fpLeaf;
            r.var = v.var;
        }
        // (double)0.1f widens the float literal; a double cast of an expression that widened one keeps it
        if (target.kind == CType.Kind.DOUBLE) {
            r.widenedLiteral =
                    v.type.kind == CType.Kind.FLOAT && v.floatLiteral != null ? v.floatLiteral : v.widenedLiteral;
        }
        // a whole number converted to a type that holds it exactly stays the same whole number
        Double whole = E.wholeBound(v);
        if (whole != null && (target.isFpScalar() || target.isInteger()) && whole <= wholeLimit(target)) {
            r.intMag = whole;
        }
        if (r.cval == null) r.set = ValueSets.converted(ValueSets.of(v), target);
        return r;
    }

    /** The result of a call returning {@code t}: floating data when an argument is (or when it takes none). */
    static E leafCall(CType t, List<E> args) {
        E r = E.of(t == null ? CType.UNKNOWN : t);
        boolean anyFp = false;
        for (E a : args) {
            anyFp |= a.fpLeaf;
            r.guarded |= a.guarded;
            if (r.guard == null) r.guard = a.guard;
            r.compared |= a.compared;
        }
        if (r.type.isFpScalar()) {
            // a floating result computed from integers only (ceil(n / 256.0)) is integer-derived
            r.fpLeaf = anyFp || args.isEmpty();
            r.f32Leaf = r.fpLeaf && r.type.kind == CType.Kind.FLOAT;
            r.dblVar = r.fpLeaf && r.type.kind == CType.Kind.DOUBLE;
        }
        return r;
    }

    /**
     * The result of a call of a function of the code ({@link #leafCall}): floating data also when it is handed memory
     * to read, a pointer (other than to characters: a name, a format) or a structure ({@code cmaes_Get(&evo,
     * "dimension")} returns a double read from {@code evo}).
     */
    static E codeCall(CType t, List<E> args) {
        E r = leafCall(t, args);
        if (!r.type.isFpScalar() || r.fpLeaf) return r;
        for (E a : args) {
            CType at = a.type;
            boolean memory = at != null
                    && (at.kind == CType.Kind.STRUCT
                            || at.kind == CType.Kind.POINTER
                                    && (at.elem == null || at.elem.kind != CType.Kind.INT || at.elem.size != 1));
            if (memory) {
                r.fpLeaf = true;
                r.f32Leaf = r.type.kind == CType.Kind.FLOAT;
                r.dblVar = r.type.kind == CType.Kind.DOUBLE;
                break;
            }
        }
        return r;
    }

    /** A floating random draw (curand_uniform(&s), rand_uniform01(t)) is floating data whatever its arguments. */
    static E drawResult(E r, String name, FileScope scope) {
        if (r.type.isFpScalar() && RandomDraws.draws(name, scope)) {
            r.fpLeaf = true;
            r.f32Leaf = r.type.kind == CType.Kind.FLOAT;
            r.dblVar = r.type.kind == CType.Kind.DOUBLE;
        }
        return r;
    }

    /** A math function of a constant, folded. */
    static Double constMath(String f, double x) {
        switch (f) {
            case "sqrt":
            case "sqrtf":
                return Math.sqrt(x);
            case "exp":
            case "expf":
                return Math.exp(x);
            case "log":
            case "logf":
                return Math.log(x);
            case "floor":
            case "floorf":
                return Math.floor(x);
            case "ceil":
            case "ceilf":
                return Math.ceil(x);
            default:
                return null;
        }
    }

    /**
     * The float literal a double operation on {@code a} and {@code b} widens ({@code d * 0.1f}): an operand that is
     * one, else one an operand already widened; null when none.
     */
    static String widened(E a, E b) {
        if (a.type.kind == CType.Kind.FLOAT && a.floatLiteral != null) return a.floatLiteral;
        if (b.type.kind == CType.Kind.FLOAT && b.floatLiteral != null) return b.floatLiteral;
        return a.widenedLiteral != null ? a.widenedLiteral : b.widenedLiteral;
    }
}
