package dev.numlint.cuda.facts;

import java.util.ArrayList;
import java.util.List;

/**
 * Everything the front end found in one function body (or, for {@link #file}, at file level), in source order. The
 * facts are computed once; every check reads the lists it needs.
 */
public final class FunctionFacts {
    /** The function's name (Class::method for members), or null for file-level facts. */
    public final String function;

    public final List<Conversion> conversions = new ArrayList<>();

    /**
     * Conversions ("line:column" of the cast) whose rounded value a clamp bounds from below before anything else reads
     * it, with the clamp ("clampi at line 12"): a negative value's rounding toward zero cannot reach the result (NL013).
     */
    public final java.util.Map<String, String> clampedRoundings = new java.util.HashMap<>();
    /** Per conversion ("line:column"): the fraction bits of a conversion to fixed point (Clang's ClangFixedPoints). */
    public final java.util.Map<String, Integer> fixedPointRoundings = new java.util.HashMap<>();
    /**
     * Per conversion ("line:column") to a signed type: what it only quantises its value into ("a stored 16-bit
     * integer": Clang's ClangQuantisedSamples), where the integer is no index, decision or wider value.
     */
    public final java.util.Map<String, String> quantisedRoundings = new java.util.HashMap<>();
    /** Per conversion ("line:column"): the print call that is the converted value's only use ("post at line 12"). */
    public final java.util.Map<String, String> printedConversions = new java.util.HashMap<>();
    /** CUDA conversion intrinsics to an unsigned type ({@code __float2uint_rz(x)}): they saturate on the GPU. */
    public final List<Conversion> saturating = new ArrayList<>();

    public final List<Division> divisions = new ArrayList<>();
    public final List<Contraction> contractions = new ArrayList<>();
    public final List<Accumulation> accumulations = new ArrayList<>();
    public final List<MathCall> calls = new ArrayList<>();
    public final List<Promotion> promotions = new ArrayList<>();
    public final List<Atomic> atomics = new ArrayList<>();
    public final List<LongDouble> longDoubles = new ArrayList<>();
    public final List<TensorMath> tensorMath = new ArrayList<>();
    public final List<WidenedLiteral> widenedLiterals = new ArrayList<>();
    public final List<StoredValue> storedValues = new ArrayList<>();
    /** Integer divisions whose quotient goes on in floating-point arithmetic (Clang's types only). */
    public final List<IntegerDivision> integerDivisions = new ArrayList<>();

    public FunctionFacts(String function) {
        this.function = function;
    }

    /** The sites of every fact, list by list. */
    public List<Site> sites() {
        List<Site> out = new ArrayList<>();
        for (Conversion c : conversions) out.add(c.site());
        for (Conversion c : saturating) out.add(c.site());
        for (Division d : divisions) out.add(d.site());
        for (Contraction c : contractions) out.add(c.site());
        for (Accumulation a : accumulations) out.add(a.site());
        for (MathCall c : calls) out.add(c.site());
        for (Promotion p : promotions) out.add(p.site());
        for (Atomic a : atomics) out.add(a.site());
        for (LongDouble l : longDoubles) out.add(l.site());
        for (TensorMath t : tensorMath) out.add(t.site());
        for (WidenedLiteral w : widenedLiterals) out.add(w.site());
        for (StoredValue v : storedValues) out.add(v.conversion());
        for (IntegerDivision d : integerDivisions) out.add(d.site());
        return out;
    }

    /**
     * A floating value converted to an integer type.
     *
     * @param how         "(unsigned short)", "initialization of 'x'", "assignment to 'p'", "return from 'f'"...
     * @param operand     the text of the converted floating expression
     * @param from        the floating type's spelling
     * @param to          the integer type's spelling
     * @param unsigned    whether the target is unsigned
     * @param bytes       the target's width in bytes
     * @param constant    the operand's compile-time value, or null
     * @param guarded     the operand is range-limited (clamp, saturate, comparison on its variables, ?: with a test)
     * @param floatData   the operand contains a non-constant floating operand (not only integers converted to float)
     * @param nonNegative the operand cannot be negative (sqrt, fabs, exp, squares of ...)
     * @param lo          the least value the operand's construction allows (constants, bounded functions, clamps,
     *                    integer types, arithmetic of these; a local's reaching definition, a parameter's call sites), or -infinity
     * @param hi          the greatest such value, or +infinity
     * @param explicit    a cast in the source (not an implicit conversion)
     * @param guard       what limits the operand when {@code guarded}, for a message ("fminf()", "the test 'x < 0'
     *                    (line 9)", "the early 'continue' under 'x < 0.0f' (line 8)"), or null
     * @param fromBelow   a test that dominates the conversion proves a variable of the operand not negative
     *                    ({@code if (low > 0) b.x = floorf(low / res);}): the guard bounds the side where the
     *                    conversion wraps, not only the other one ({@code if (x < 256)})
     */
    public record Conversion(
            Site site,
            String how,
            String operand,
            String from,
            String to,
            boolean unsigned,
            int bytes,
            Double constant,
            boolean guarded,
            boolean floatData,
            boolean nonNegative,
            double lo,
            double hi,
            boolean explicit,
            String guard,
            String unseen,
            boolean fromBelow) {

        /** A conversion to a known type ({@code unseen}: the template parameter converted to, whose instantiations are
         * not in view), no dominating test known to bound a variable of it from below. */
        public Conversion(
                Site site,
                String how,
                String operand,
                String from,
                String to,
                boolean unsigned,
                int bytes,
                Double constant,
                boolean guarded,
                boolean floatData,
                boolean nonNegative,
                double lo,
                double hi,
                boolean explicit,
                String guard) {
            this(
                    site,
                    how,
                    operand,
                    from,
                    to,
                    unsigned,
                    bytes,
                    constant,
                    guarded,
                    floatData,
                    nonNegative,
                    lo,
                    hi,
                    explicit,
                    guard,
                    null,
                    false);
        }

        /** Whether the operand's interval truncates into {@code [min, max]} ({@link #within(double, double, double, double)}). */
        public boolean within(double min, double max) {
            return Conversion.within(lo, hi, min, max);
        }

        /**
         * Whether every value of {@code [lo, hi]} (both finite) truncates toward zero into {@code [min, max]}: values in
         * (min - 1, max + 1) do. A margin of 2^-20 relative covers float rounding of the bounds.
         */
        public static boolean within(double lo, double hi, double min, double max) {
            if (Double.isInfinite(lo) || Double.isInfinite(hi) || Double.isNaN(lo) || Double.isNaN(hi)) return false;
            return lo - Math.abs(lo) * 0x1p-20 > min - 1 && hi + Math.abs(hi) * 0x1p-20 < max + 1;
        }
    }

    /**
     * Where the sign of a conversion's operand comes from the stores of the file (a field or static global every store
     * of this file writes non-negative, read back here), for the message.
     *
     * @param conversion the conversion's site
     * @param evidence   the fields or globals and the lines of their stores: "'snr' (lines 120, 340)"
     */
    public record StoredValue(Site conversion, String evidence) {}

    /** The evidence of the stores for the conversion at {@code site}, or null. */
    public String storedEvidence(Site site) {
        for (StoredValue v : storedValues) if (v.conversion().equals(site)) return v.evidence();
        return null;
    }

    /**
     * A float division: {@code a / b}, {@code a /= b}, or an intrinsic ({@code __fdividef}).
     *
     * @param intrinsic the approximate division intrinsic by name (__fdividef), null for the operator
     */
    public record Division(Site site, String intrinsic) {}

    /**
     * A floating multiply followed by an add or subtract that the compiler may contract into one fma.
     *
     * @param product              the product's text (or "t = a*b (line 4)" for a single-use product temporary)
     * @param subtract             whether the product is subtracted or subtracted from
     * @param differenceOfProducts {@code a*d - b*c}: both operands are products, one is rounded and one is not
     * @param accumulates          a compound assignment {@code s += a*b}
     * @param pairedComponent      the difference of products is one component of a complex product or a 2-D
     *                             rotation: the companion {@code p*s + r*q} of {@code p*q - r*s} is computed nearby
     */
    public record Contraction(
            Site site,
            String product,
            boolean subtract,
            boolean differenceOfProducts,
            boolean accumulates,
            boolean pairedComponent) {}

    /**
     * A loop-carried floating update {@code s += x}, {@code s = s + x} or {@code s = fmaf(a, b, s)}.
     *
     * @param target            the accumulator's text
     * @param type              its type's spelling
     * @param doublePrecision   the accumulator is double or long double
     * @param outerLoopLine     the line of the outermost loop that carries the sum
     * @param trip              product of the constant trip counts of the carrying loops, -1 when one is unknown
     * @param compensated       the accumulator takes part in a compensated (Kahan) sum
     * @param wholeNumberTerm   the added term is an integer or a whole-number constant, or a power of two added to a
     *                          double ({@code 1.0 / m}, {@code m *= 2}): exact partial sums
     * @param treeReduction     an element updated from an element of the same array ({@code s[t] += s[t + k]})
     * @param elementwise       each element gets one term per outer iteration (an iterative solver's update)
     * @param varies            the added term can change from one iteration to the next
     * @param timing            the accumulator measures time (elapsedMs += dt)
     * @param rewritten         the accumulator is overwritten unconditionally in every iteration of the
     *                          innermost carrying loop ({@code t = f(k); t = t + h;})
     * @param viaFma            written with an explicit fma function
     * @param gridStride        a carrying loop steps by the grid or block size
     * @param resultCheck       the terms measure the difference of a computed and a reference element (or the
     *                          reference's norm beside such a measure): the error measure of a result check
     * @param recurrence        the added terms read the accumulator's current value, or the array or struct it
     *                          lives in, directly or through values assigned in the carrying loop: a recurrence
     *                          (a time step), whose steps no port can reorder
     * @param constantSum       a scalar that starts from a constant and gets one constant, or a choice between one
     *                          constant and zero ({@code n += w > t ? c : 0}), in every iteration; null otherwise
     */
    public record Accumulation(
            Site site,
            String target,
            String type,
            boolean doublePrecision,
            int outerLoopLine,
            long trip,
            boolean compensated,
            boolean wholeNumberTerm,
            boolean treeReduction,
            boolean elementwise,
            boolean varies,
            boolean timing,
            boolean rewritten,
            boolean viaFma,
            boolean gridStride,
            ResultCheck resultCheck,
            boolean recurrence,
            ConstantSum constantSum) {}

    /**
     * A sum whose partial sums are {@code initial + k * step}: a constant start and a constant (or zero) added in
     * every iteration.
     */
    public record ConstantSum(double initial, double step) {}

    /** What a sum of non-negative terms measures in a result check ({@link Accumulation#resultCheck}). */
    public enum ResultCheck {
        /** Not an error measure. */
        NONE,
        /** The error measure, or the reference norm, of a loop that sums both: a relative error. */
        RELATIVE,
        /** An error measure without a reference norm in the same loop. */
        ABSOLUTE
    }

    /**
     * A call of a math function the rules know.
     *
     * @param name           the callee as written (std:: kept)
     * @param base           without std::
     * @param fastIntrinsic  one of the fast hardware approximations (__sinf, __expf ...)
     * @param fastMathTarget the intrinsic --use_fast_math maps it to (sinf -> __sinf), or null
     * @param floatSqrt      a single-precision square root (sqrtf, or sqrt of a float in C++)
     * @param transcendental sin, exp, pow ... (not correctly rounded)
     */
    public record MathCall(
            Site site,
            String name,
            String base,
            boolean fastIntrinsic,
            String fastMathTarget,
            boolean floatSqrt,
            boolean transcendental) {}

    /**
     * A float expression evaluated in double and rounded back to float.
     *
     * @param target      what receives it ("float 'x'", "'y[i]'", "the float return value of 'f'")
     * @param promoter    why it is double ("the double literal 1.0", "the double function sqrt() ...")
     * @param floatVar    a float variable that was promoted, or null
     * @param viaFunction promoted by a double math function (not a literal)
     * @param compound    a compound assignment ({@code x *= 1.5})
     * @param exact       one operation on float operands and float-exact constants ({@code x * 0.5}, {@code s + 1.0}):
     *                    double and float give the same result (innocuous double rounding), only the speed differs
     */
    public record Promotion(
            Site site,
            String target,
            String promoter,
            String floatVar,
            boolean viaFunction,
            boolean compound,
            boolean exact) {}

    /**
     * An atomic add.
     *
     * @param type      the added type's spelling
     * @param floating  whether it is a floating type (or vector of one)
     * @param inferred  the type was inferred from the added value, not the pointer (less certain)
     * @param addend    the added value when it is a constant ({@code atomicAdd(p, 1.0f)}), else null
     * @param unknown   the added type is not known here (a template parameter without an instantiation in view, a
     *                  type no file read defines): {@code type} is its spelling, {@code floating} false
     * @param instantiatedAt the line of the template's instantiation that adds {@code type}, or null
     * @param instantiation  the instantiation named when {@code type} is not its argument ("member x of T = float2"),
     *                       or null
     * @param distinct  why no other thread of a launch adds into the element this add targets ("the index 'cell'
     *                  differs from thread to thread": no order to vary), or null
     * @param tally     why the added value is a whole number, an element of a tally every store sets to one ("every
     *                  store to 't' writes one: lines 45, 66"), or null
     */
    public record Atomic(
            Site site,
            String type,
            boolean floating,
            boolean inferred,
            Double addend,
            boolean unknown,
            Integer instantiatedAt,
            String instantiation,
            String distinct,
            String tally) {
        public Atomic(
                Site site,
                String type,
                boolean floating,
                boolean inferred,
                Double addend,
                boolean unknown,
                Integer instantiatedAt,
                String instantiation) {
            this(site, type, floating, inferred, addend, unknown, instantiatedAt, instantiation, null, null);
        }

        public Atomic(
                Site site,
                String type,
                boolean floating,
                boolean inferred,
                Double addend,
                boolean unknown,
                Integer instantiatedAt) {
            this(site, type, floating, inferred, addend, unknown, instantiatedAt, null, null, null);
        }

        public Atomic(Site site, String type, boolean floating, boolean inferred, Double addend, boolean unknown) {
            this(site, type, floating, inferred, addend, unknown, null, null, null, null);
        }

        public Atomic(Site site, String type, boolean floating, boolean inferred, Double addend) {
            this(site, type, floating, inferred, addend, false, null, null, null, null);
        }

        /**
         * The type as a message names it: "float (instantiated at line 20)" for a template's instantiation, "float
         * (member x of T = float2, instantiated at line 6)" for a member of an instantiated struct.
         */
        public String typeAsInstantiated() {
            String at = instantiatedAt == null ? null : "instantiated at line " + instantiatedAt;
            if (instantiation == null) return at == null ? type : type + " (" + at + ")";
            return type + " (" + instantiation + (at == null ? "" : ", " + at) + ")";
        }
    }

    /**
     * An integer division whose quotient is converted to a floating type ({@code c * (1 / 24)} with double {@code c},
     * {@code pow(x, 1 / 3)}, {@code ceil(n / 2)}): it truncates toward zero first.
     *
     * @param expression the division as written ("1 / 24", "n / 2")
     * @param dividend   the dividend's compile-time value, or null
     * @param divisor    the divisor's compile-time value (never 0), or null
     * @param target     the floating type the quotient becomes ("double")
     * @param rounding   the rounding function the quotient is the argument of ("ceil"), or null
     * @param indexed    the quotient is a term or factor of integer arithmetic with a variable before the
     *                   conversion ({@code (float)(i - n / 2)}): index arithmetic
     * @param nonNegative the quotient cannot be negative (unsigned, or by its interval)
     * @param unread     the local it is stored into is written again before any read: the value decides nothing
     */
    public record IntegerDivision(
            Site site,
            String expression,
            Double dividend,
            Double divisor,
            String target,
            String rounding,
            boolean indexed,
            boolean nonNegative,
            boolean unread) {}

    /** A long double declaration, cast or computation in host code ({@code what}: "'x'", "cast (long double)x"). */
    /**
     * A long double in host code.
     *
     * @param origin     what introduces the type here when it is not written out: "macro REALXP", "typedef real";
     *                   for a declaration of several variables, the declaration ("declaration 12:5"); null otherwise.
     *                   One finding per origin and file.
     * @param deliberate why the long double is there on purpose (a specialisation of a template for long double),
     *                   or null
     * @param owner      the class or struct whose member (a field, a method's declaration) it is, from the file's
     *                   declarations; null in a function (its class is the function's qualified name's) or at file
     *                   scope
     */
    public record LongDouble(Site site, String what, String origin, String deliberate, String owner) {
        /** Why a long double function's own long doubles are there on purpose. */
        public static final String INTERFACE = "a long double function (its floating parameters and result are)";

        /** Why a long double parameter computes nothing in long double: every use converts it to a narrower type. */
        public static final String NARROWED = "every use converts it to a narrower type: no arithmetic in long double";

        public LongDouble(Site site, String what) {
            this(site, what, null, null, null);
        }

        public LongDouble(Site site, String what, String origin, String deliberate) {
            this(site, what, origin, deliberate, null);
        }
    }

    /**
     * Float data computed in reduced precision on tensor cores (NL012).
     *
     * @param construct the mode constant, fragment or conversion ("CUBLAS_TF32_TENSOR_OP_MATH", "precision::tf32")
     * @param effect    what it allows ("FP32 data multiplied in TF32")
     * @param evidence  where the float data is converted (for half/bf16 fragments), or null
     */
    public record TensorMath(Site site, String construct, String effect, String evidence) {}

    /**
     * A float literal whose float value is not the number it denotes ({@code 0.1f}), widened to double by the double
     * arithmetic or the double target it reaches ({@code double d = 0.1f}, {@code r = x * 0.1f} with a double
     * {@code x} and {@code r}, {@code (double)0.1f}).
     *
     * @param literal    the literal as written
     * @param expression the expression whose double value holds it
     * @param target     what receives the double value ("initialization of 'd'", "assignment to 'r'", "return from
     *                   'f'")
     * @param function   the text of the function it is written in (where a local it initialises is used), or null
     */
    public record WidenedLiteral(Site site, String literal, String expression, String target, String function) {}
}
