package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.rules.RuleCatalog;

/**
 * NL001: a floating value converted to an unsigned integer type without a range guard. Always reported at the
 * rule's level (the conversion itself is where a one-ulp or sign difference becomes a different integer); the
 * message states what x86 and the GPU (or, in host-only code, x86 and AArch64) give for this target type: for a
 * value that can be negative, a negative example; for one proven non-negative (sqrt, fabs, a clamp from below) but
 * unbounded above, an example above the range. A value whose construction proves it in range (a bounded function
 * scaled and offset by constants, a clamp, an integer type) is guarded like an explicit guard.
 *
 * <p>Every explicit cast it examines and does not report at the rule's level is a note that says why (so that the
 * report accounts for every cast a reviewer's grep finds): in range by construction, a constant in range, what limits
 * the operand (a clamp, the test it is reached through, an early {@code continue}), an operand of integers and
 * constants only, or a value proven non-negative converted to 32 or 64 bits. An implicit conversion is such a note
 * only where a dominating test bounds a variable of it from below (the side that wraps); otherwise a guarded implicit
 * conversion stays silent and the PTX layer's finding of its cvt, which sees no guard, stands.
 */
@AutoService(CudaCheck.class)
public final class UnguardedUnsignedCast implements CudaCheck {
    @Override
    public String ruleId() {
        return "NL001";
    }

    @Override
    public void check(FunctionFacts facts, CudaReport out) {
        for (FunctionFacts.Conversion c : facts.saturating) saturating(facts, c, out);
        for (FunctionFacts.Conversion c : facts.conversions) {
            if (c.unseen() != null) {
                unseen(facts, c, out);
                continue;
            }
            if (!c.unsigned()) continue;
            double max = Math.pow(2, c.bytes() * 8.0) - 1;
            String expr = quoted(c);
            if (c.floatData() && c.within(0, max)) {
                // in range by construction: no hazard. An explicit cast is a note that says why (the report records
                // every cast it examined); an implicit conversion is reported as exact (never shown). Either way
                // proven, so that the PTX layer's finding of this conversion, which cannot see the bound (a cos()
                // polynomial), merges into it without raising it
                String msg = RuleCatalog.get()
                        .rule("NL001")
                        .message(
                                "cuda-in-range",
                                "expr",
                                expr,
                                "from",
                                c.from(),
                                "to",
                                c.to(),
                                "lo",
                                bound(c.lo()),
                                "hi",
                                bound(c.hi()));
                Impact impact = c.explicit()
                        ? Impact.bounded("in range of " + c.to() + " by construction")
                        : new Impact(Impact.Kind.EXACT, "in range of " + c.to() + " by construction", null, null);
                out.reportProven("NL001", facts.function, c.site(), msg, Confidence.HIGH, impact);
                continue;
            }
            String special = nonFinite(c.operand());
            if (special != null) {
                // (size_t)NAN: no guard applies to a constant, and no integer holds it (session 51, an image ditherer)
                String other = c.site().hostOnly() ? "AArch64" : "the GPU";
                out.report(
                        "NL001",
                        facts.function,
                        c.site(),
                        RuleCatalog.get()
                                .rule("NL001")
                                .message(
                                        "cuda-non-finite",
                                        "expr",
                                        expr,
                                        "value",
                                        special,
                                        "to",
                                        c.to(),
                                        "other",
                                        other),
                        Confidence.HIGH,
                        new Impact(Impact.Kind.AMPLIFIED, special + " converted to " + c.to(), null, null),
                        null);
                continue;
            }
            if (c.constant() != null && (c.constant() <= -1 || c.constant() >= max + 1)) {
                // (unsigned int)pow(2, 32): a constant out of range, undefined, and the platforms differ (measured on
                // an H100, docs/validation/conversions-session69: x86 0, the GPU 4294967295); session 69 round F
                // had it as a note "of integers and constants only"
                outOfRange(
                        facts,
                        c,
                        "cuda-constant-out",
                        expr,
                        c.constant(),
                        max,
                        "a constant out of range of " + c.to(),
                        out);
                continue;
            }
            if (c.guarded() && c.floatData() && scaled(c.operand()) && pastTop(c, max)) {
                // a guard limits the variable, not what the cast makes of it: a value clamped to [0, 1] times
                // UINT_MAX, which float rounds to 2^32, or times 300 for a byte (session 76 round D: an image
                // library's white float pixel converted to 32 bits)
                outOfRange(
                        facts,
                        c,
                        "cuda-guarded-over",
                        expr,
                        c.hi(),
                        max,
                        "converted to " + c.to() + " past its range within its guard",
                        out);
                continue;
            }
            if (!unguarded(c, max + 1, 0)) {
                // an implicit conversion too where a test bounds a variable of it from below (the side that wraps):
                // the PTX layer's finding of its cvt sees no guard; an upper bound alone leaves that finding standing
                if (c.explicit() || c.fromBelow()) examined(facts, c, expr, max, out);
                continue;
            }
            String printed = facts.printedConversions.get(
                    c.site().line() + ":" + c.site().column());
            if (printed != null) {
                // post("... %lu", (t_sampIdx)(x->x_sr / x->x_overlap)): only printed, a wrapped value changes the text
                // printed, not a value computed with (session 72 round C: an audio library's print methods)
                String other = c.site().hostOnly() ? "AArch64" : "the GPU";
                String msg = RuleCatalog.get()
                        .rule("NL001")
                        .message(
                                "cuda-printed",
                                "expr",
                                expr,
                                "from",
                                c.from(),
                                "to",
                                c.to(),
                                "call",
                                printed,
                                "wrapped",
                                wrapped(c.bytes()),
                                "other",
                                other);
                out.reportProven(
                        "NL001", facts.function, c.site(), msg, Confidence.HIGH, Impact.bounded("only printed"));
                continue;
            }
            boolean nonNegative = c.nonNegative() || c.lo() > -1;
            // a value proven >= 0 converted to 32 or 64 bits leaves the range only above 4e9: a note for a cast
            // the sign from the stores of the file (a field every store writes non-negative): the message says where
            String evidence = nonNegative ? facts.storedEvidence(c.site()) : null;
            // unless its interval has a finite top past the range: a luminance of 32-bit samples by float weights
            // that sum to 1.0000000075 reaches 4294967327 for a white pixel (session 76 round D, rescanned: five
            // actionable rows of an image library had become notes once the sum's sign was known)
            if (nonNegative && c.bytes() >= 4 && pastTop(c, max)) {
                outOfRange(
                        facts,
                        c,
                        "cuda-non-negative-over",
                        expr,
                        c.hi(),
                        max,
                        "converted to " + c.to() + " past its range at the top of its interval",
                        out);
                continue;
            }
            if (nonNegative && c.bytes() >= 4) {
                if (c.explicit()) {
                    String msg = evidence != null
                            ? RuleCatalog.get()
                                    .rule("NL001")
                                    .message(
                                            "cuda-stored",
                                            "expr",
                                            expr,
                                            "from",
                                            c.from(),
                                            "to",
                                            c.to(),
                                            "evidence",
                                            evidence,
                                            "max",
                                            bound(max))
                            : RuleCatalog.get()
                                    .rule("NL001")
                                    .message(
                                            "cuda-non-negative",
                                            "expr",
                                            expr,
                                            "from",
                                            c.from(),
                                            "to",
                                            c.to(),
                                            "max",
                                            bound(max));
                    // the sign is proven from the code: the PTX layer's cvt of the same conversion sees no guard and
                    // does not raise it (session 59 round C: a note with PTX off was an error with PTX on)
                    out.reportProven(
                            "NL001",
                            facts.function,
                            c.site(),
                            msg,
                            Confidence.HIGH,
                            Impact.bounded("not negative, out of range of " + c.to() + " only above " + bound(max)));
                }
                continue;
            }
            String other = c.site().hostOnly() ? "AArch64" : "the GPU";
            String msg;
            if (nonNegative) {
                // proven >= 0 (sqrt, fabs, exp, a clamp from below), 8 or 16 bits: only values above the range are at
                // stake
                msg = RuleCatalog.get()
                        .rule("NL001")
                        .message(
                                evidence != null ? "cuda-stored-above-wraps" : "cuda-cast-above-wraps",
                                "evidence",
                                evidence,
                                "expr",
                                expr,
                                "from",
                                c.from(),
                                "to",
                                c.to(),
                                "example",
                                c.bytes() == 1 ? "300" : "70000",
                                "wrapped",
                                c.bytes() == 1 ? "44" : "4464",
                                "other",
                                other);
            } else {
                // an 8-bit target of a value of either sign (a colour mapped from a field above 1): the value above
                // the range wraps too, alike on x86 and the GPU (cvt.rzi.u32, then an 8-bit store), and is the
                // defect reviewers found where the negative one could not occur (session 50, rounds G, H, I)
                // the terms nothing bounds from below, named where the front end knows them and the message has
                // room (ClangOpenOperands)
                String open = c.site().openBelow();
                // whole numbers (integer data in a double): -1 is the example, not a fraction they never take
                // (session 84 round AD: "-69.235 cannot occur" for a pixel count held in a double)
                boolean whole = c.site().wholeNumbers();
                String base = c.bytes() == 1 ? "cuda-cast-byte" : "cuda-cast";
                String key = base + (whole ? "-whole" : "");
                Object[] args = {
                    "open",
                    open,
                    "expr",
                    expr,
                    "from",
                    c.from(),
                    "to",
                    c.to(),
                    "wrapped",
                    whole ? minusOne(c.bytes()) : wrapped(c.bytes()),
                    "other",
                    other
                };
                msg = RuleCatalog.get().rule("NL001").message(key, args);
                String named =
                        open == null ? null : RuleCatalog.get().rule("NL001").message(key + "-open", args);
                if (named != null && named.length() <= dev.numlint.rules.Quote.MESSAGE) msg = named;
                // bounded below, at -1 or lower (float N = n - 1.0 of an unsigned n): its least value is the example
                // that -69.235 would misstate (session 66 round D: a window function's 'nothing bounds N below')
                String low = lowest(c.lo(), c.bytes());
                if (open == null && low != null) {
                    Object[] least = java.util.Arrays.copyOf(args, args.length + 2);
                    least[9] = low; // the value x86 gives, after "wrapped"
                    least[args.length] = "lo";
                    least[args.length + 1] = number(Math.ceil(c.lo()));
                    msg = RuleCatalog.get().rule("NL001").message(base + "-low", least);
                }
            }
            Impact impact =
                    new Impact(Impact.Kind.AMPLIFIED, "converted to " + c.to() + " without a range guard", null, null);
            // in range where its function's callers pass some parameters non-negative: the scan's review decides
            if (!nonNegative) out.callerNeeds(c.site(), c.site().callerNeeds());
            out.report("NL001", facts.function, c.site(), msg, Confidence.HIGH, impact, null);
        }
    }

    /**
     * An explicit cast NL001 does not report at its level, as a note that names why: a constant in range, what limits
     * the operand (a clamp, a test the cast is reached through), or an operand of integers and constants only.
     */
    private static void examined(
            FunctionFacts facts, FunctionFacts.Conversion c, String expr, double max, CudaReport out) {
        String msg;
        String why;
        if (c.constant() != null && c.constant() >= 0 && c.constant() < max + 1) {
            why = "the constant " + bound(c.constant()) + " is in range of " + c.to();
            msg = RuleCatalog.get()
                    .rule("NL001")
                    .message("cuda-constant", "expr", expr, "value", bound(c.constant()), "to", c.to());
        } else if (!c.floatData()) {
            // before a guard: an operand of integers needs none, and the hand-written front end's guards are tests of
            // the variable anywhere in the function, also after the cast ('n > 1' at a later line)
            why = "computed from integers and constants only";
            msg = RuleCatalog.get()
                    .rule("NL001")
                    .message("cuda-integer-data", "expr", expr, "from", c.from(), "to", c.to());
        } else if (c.guarded()) {
            String guard = c.guard() != null ? c.guard() : "a range guard";
            why = "limited by " + guard;
            msg = RuleCatalog.get()
                    .rule("NL001")
                    .message("cuda-guarded", "expr", expr, "from", c.from(), "to", c.to(), "guard", guard);
        } else {
            return;
        }
        // the source layer examined this cast and found its bound (a constant, a guard, integer data); the PTX layer's
        // finding of the same cvt sees neither guard nor data types, so it confirms the instruction, never raises it
        out.reportProven("NL001", facts.function, c.site(), msg, Confidence.HIGH, Impact.bounded(why));
    }

    /**
     * A CUDA conversion intrinsic to an unsigned type ({@code __float2uint_rz(x)}): defined on the GPU, where it
     * saturates (a negative value gives 0); a CPU version of the code that casts the same value wraps on x86. A note
     * that says so, examined like a cast proven in range: the PTX layer's {@code cvt} of it merges into it.
     */
    private static void saturating(FunctionFacts facts, FunctionFacts.Conversion c, CudaReport out) {
        String msg = RuleCatalog.get()
                .rule("NL001")
                .message(
                        "cuda-saturating",
                        "expr",
                        Consequences.quote(c.how() + "(" + c.operand() + ")"),
                        "from",
                        c.from(),
                        "to",
                        c.to(),
                        "wrapped",
                        wrapped(c.bytes()));
        out.reportProven(
                "NL001",
                facts.function,
                c.site(),
                msg,
                Confidence.HIGH,
                Impact.bounded("saturates to the range of " + c.to() + " on the GPU"));
    }

    /**
     * A floating value converted to a template parameter whose instantiations are not in view (the template is
     * instantiated in another file): where it is an unsigned integer the conversion is this rule's hazard, where it
     * is floating it is none. A note that says so, or that says what limits the operand; the PTX layer, which sees the
     * instantiation numlint compiled, can still raise its cvt.
     */
    private static void unseen(FunctionFacts facts, FunctionFacts.Conversion c, CudaReport out) {
        if (!c.floatData()) return;
        String expr = quoted(c);
        // the destination is the template parameter (Out(rint(x))), or the operand is (uint16_t(e / step) of an R e)
        boolean destination = c.unseen().equals(c.to());
        // an operand of a type that depends on the parameter through another template: not resolved in the pattern
        boolean dependent = !destination && !c.from().equals(c.unseen());
        boolean member = destination && c.unseen().contains("::");
        String msg = c.guarded()
                ? RuleCatalog.get()
                        .rule("NL001")
                        .message("cuda-guarded", "expr", expr, "from", c.from(), "to", c.to(), "guard", c.guard())
                : destination
                        ? RuleCatalog.get()
                                .rule("NL001")
                                .message(
                                        // a member type of a template (typename T::index_t): no parameter itself
                                        member ? "cuda-member-unseen" : "cuda-template-unseen",
                                        "expr",
                                        expr,
                                        "from",
                                        c.from(),
                                        "param",
                                        c.unseen())
                        : RuleCatalog.get()
                                .rule("NL001")
                                .message(
                                        dependent ? "cuda-operand-dependent" : "cuda-operand-unseen",
                                        "expr",
                                        expr,
                                        "param",
                                        c.unseen(),
                                        "to",
                                        c.to());
        Impact impact = member
                ? Impact.bounded("converted to " + c.unseen() + ", a member type not resolved here")
                : destination
                        ? Impact.bounded("converted to " + c.unseen() + ", whose instantiations are not in view")
                        : dependent
                                ? Impact.bounded("converted from " + c.from() + ", not resolved in the template")
                                : Impact.bounded(
                                        "converted from " + c.unseen() + ", whose instantiations are not in view");
        out.report("NL001", facts.function, c.site(), msg, Confidence.MEDIUM, impact, null);
    }

    /** The conversion as a message quotes it: an explicit cast with its operand, else the converted expression. */
    static String quoted(FunctionFacts.Conversion c) {
        return Consequences.quote(c.explicit() ? Consequences.cast(c.how(), c.operand()) : c.operand());
    }

    /**
     * A bound for a message: whole numbers as such, others with four significant digits, and from 1000 on with their
     * whole part and up to three decimals (65535.0005, a sum of weights a float above one, is not "65540").
     */
    static String bound(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
        if (Math.abs(v) >= 1000 && Math.abs(v) < 1e15)
            return new java.math.BigDecimal(v)
                    .setScale(3, java.math.RoundingMode.HALF_UP)
                    .stripTrailingZeros()
                    .toPlainString();
        return new java.math.BigDecimal(v)
                .round(new java.math.MathContext(4))
                .stripTrailingZeros()
                .toPlainString();
    }

    /**
     * Whether this rule reports {@code c} at its level for a negative value ({@code cuda-cast}): an unsigned target,
     * floating data, not a constant in range, not guarded, not proven in range, not proven above -1. NL013 leaves
     * the negative case of such a conversion to this rule.
     */
    static boolean negativeHazard(FunctionFacts.Conversion c) {
        if (!c.unsigned() || c.unseen() != null) return false;
        double max = Math.pow(2, c.bytes() * 8.0) - 1;
        if (c.floatData() && c.within(0, max)) return false;
        return unguarded(c, max + 1, 0) && !c.nonNegative() && !(c.lo() > -1);
    }

    /** Whether the conversion can go out of range: not a constant in range, not guarded, from floating data. */
    private static final java.util.regex.Pattern NON_FINITE = java.util.regex.Pattern.compile(
            "\\(*[-+]?\\(*(?:(NAN|__builtin_nanf?\\(\"\"\\)|(?:std::)?numeric_limits<\\w+>::(?:quiet|signaling)_NaN\\(\\))"
                    + "|(INFINITY|HUGE_VALF?|__builtin_inff?\\(\\)|__builtin_huge_valf?\\(\\)"
                    + "|(?:std::)?numeric_limits<\\w+>::infinity\\(\\)))\\s*\\)*");

    /** "NaN" or "infinity" when the operand is only that constant ({@code NAN}, {@code -INFINITY}), else null. */
    static String nonFinite(String operand) {
        if (operand == null) return null;
        java.util.regex.Matcher m = NON_FINITE.matcher(operand.replaceAll("\\s+", ""));
        if (!m.matches()) return null;
        return m.group(1) != null ? "NaN" : (m.group().contains("-") ? "-" : "") + "infinity";
    }

    /** Whether the conversion's interval has a finite top past the target's largest value {@code max}. */
    private static boolean pastTop(FunctionFacts.Conversion c, double max) {
        return c.hi() >= max + 1 && c.hi() < INF_LIKE;
    }

    /**
     * An error for the value {@code v} out of range of the conversion's type: what x86 gives for it, and what the GPU
     * (or AArch64, for host code) saturates it to; {@code key} the message, {@code impact} what it decides.
     */
    private static void outOfRange(
            FunctionFacts facts,
            FunctionFacts.Conversion c,
            String key,
            String expr,
            double v,
            double max,
            String impact,
            CudaReport out) {
        String other = c.site().hostOnly() ? "AArch64" : "the GPU";
        String msg = RuleCatalog.get()
                .rule("NL001")
                .message(
                        key,
                        "expr",
                        expr,
                        "from",
                        c.from(),
                        "to",
                        c.to(),
                        "value",
                        bound(v),
                        "wrapped",
                        x86Constant(v, c.bytes()),
                        "other",
                        other,
                        "saturated",
                        v < 0 ? "0" : bound(max));
        out.report(
                "NL001",
                facts.function,
                c.site(),
                msg,
                Confidence.HIGH,
                new Impact(Impact.Kind.AMPLIFIED, impact, null, null),
                null);
    }

    /** Beyond every integer type's range: an upper bound this large says nothing (a product of unbounded terms). */
    private static final double INF_LIKE = 0x1p64;

    /** A variable scaled by one constant factor ({@code t * 255}, {@code UINT_MAX * t}): its interval is exact. */
    private static final java.util.regex.Pattern SCALED = java.util.regex.Pattern.compile(
            "^\\(?([A-Za-z_]\\w*\\*[A-Za-z_0-9.]+[fFlLuU]*|[A-Za-z_0-9.]+[fFlLuU]*\\*[A-Za-z_]\\w*)\\)?$");

    static boolean scaled(String operand) {
        return operand != null && SCALED.matcher(operand.replaceAll("\\s+", "")).matches();
    }

    static boolean unguarded(FunctionFacts.Conversion c, double max, double min) {
        if (c.constant() != null && c.constant() >= min && c.constant() < max) return false;
        return !c.guarded() && c.floatData();
    }

    /**
     * What x86 gives for the least value {@code lo} of an operand bounded below at -1 or lower (truncated toward zero,
     * kept modulo the type's range as {@link #wrapped} describes), or null when {@code lo} is above -1, or -2^31 or
     * lower: an int's own range is no bound (session 66 round G: "as low as -2147483648" of a product of counts).
     */
    static String lowest(double lo, int bytes) {
        if (Double.isNaN(lo) || lo > -1 || lo <= -0x1p31) return null;
        java.math.BigInteger range = java.math.BigInteger.ONE.shiftLeft(8 * Math.min(bytes, 8));
        return range.add(java.math.BigInteger.valueOf((long) Math.ceil(lo)))
                .mod(range)
                .toString();
    }

    /**
     * What x86-64 gives for the constant {@code v}, out of range of an unsigned type of {@code bytes} bytes, as gcc
     * converts it (through a signed 64-bit conversion, the low bits kept; 2^63 and beyond give the conversion's
     * 0x8000000000000000, of which nothing is left below 64 bits, and 0 at 64 bits from 2^64 on), measured on the
     * values of docs/validation/conversions-session69.
     */
    static String x86Constant(double v, int bytes) {
        java.math.BigInteger range = java.math.BigInteger.ONE.shiftLeft(8 * Math.min(bytes, 8));
        if (v >= 0x1p63) return "0"; // 64 bits: only from 2^64 on, out of range
        if (v <= -0x1p63) return bytes >= 8 ? "9223372036854775808" : "0";
        return java.math.BigInteger.valueOf((long) v).mod(range).toString();
    }

    /** What x86 gives for -1 converted to an unsigned type of {@code bytes} bytes: its greatest value. */
    static String minusOne(int bytes) {
        return switch (bytes) {
            case 1 -> "255";
            case 2 -> "65535";
            case 4 -> "4294967295";
            default -> "18446744073709551615";
        };
    }

    /** {@code v} as a whole number. */
    private static String number(double v) {
        return Long.toString((long) v);
    }

    /**
     * What x86 gives for -69.235 converted to an unsigned type of {@code bytes} bytes, measured (rule document NL001):
     * x86 converts through a signed 32- or 64-bit integer and keeps the low bits; the GPU's cvt and AArch64 saturate
     * to 0.
     */
    static String wrapped(int bytes) {
        return switch (bytes) {
            case 1 -> "187";
            case 2 -> "65467";
            case 4 -> "4294967227";
            default -> "18446744073709551547";
        };
    }
}
