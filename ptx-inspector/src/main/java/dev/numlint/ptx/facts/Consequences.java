package dev.numlint.ptx.facts;

import dev.numlint.model.Impact;
import dev.numlint.ptx.model.DebugLoc;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Operand;
import dev.numlint.ptx.rules.SourceText;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.List;

/**
 * What a value decides: follows an instruction's result forward through def-use (float arithmetic, moves,
 * selections, float-to-float conversions) to the first consumer that amplifies a small difference: a conversion to
 * an integer or an integral rounding (floor/ceil/trunc), a comparison, a min/max selection, an atomic reduction.
 * A value that only reaches stores or the function's return is bounded: CPU and GPU differ by a few ulp there; so is
 * one only quantised into a stored sample (converted and only stored as an integer of at most 16 bits, a pixel or an
 * audio sample, or an 8-bit colour channel, a [0,1] value times 255 or a value clamped to [0,255], packed into a word:
 * at most one level), and one compared with a fresh random
 * draw on its source line (a Bernoulli trial: one ulp shifts the odds by about 2^-24). A subtraction of two products is
 * cancellation unless it is one component of a complex product or rotation (its companion is computed nearby).
 * A value that reaches a comparison first is followed on to any integer it also becomes: the gravest outcome is
 * the one named ({@link Impact.Reach}). The walk is bounded (it visits at most {@value #MAX_STEPS} instructions):
 * what lies beyond the bound is not seen, as for a value whose walk finds nothing (bounded), and a value compared
 * within it reaches a decision.
 */
public final class Consequences {
    static final int MAX_STEPS = 256;

    /**
     * The consequence found for a value.
     *
     * @param kind what the value decides
     * @param what short phrase for the message, e.g. "converted to an integer"
     * @param sink the instruction that consumes it, or null
     * @param reach for an amplified value, the gravest outcome it reaches (null: not known)
     * @param direct the sink consumes the value itself, only moved, negated, converted or scaled on the way (a
     *     comparison of a difference of products itself, where its cancellation meets the threshold undiluted); false
     *     where other terms were added to it first
     */
    public record Consequence(Impact.Kind kind, String what, Instruction sink, Impact.Reach reach, boolean direct) {
        public Consequence(Impact.Kind kind, String what, Instruction sink, Impact.Reach reach) {
            this(kind, what, sink, reach, true);
        }

        public Consequence(Impact.Kind kind, String what, Instruction sink) {
            this(kind, what, sink, null);
        }

        /** This consequence, reached after other terms were added to the value ({@code direct} false). */
        Consequence diluted() {
            return direct ? new Consequence(kind, what, sink, reach, false) : this;
        }
    }

    private final PtxFacts facts;
    private final Clamps clamps;
    private final PeriodicWraps wraps;

    Consequences(PtxFacts facts) {
        this.facts = facts;
        this.clamps = new Clamps(facts);
        this.wraps = new PeriodicWraps(facts);
    }

    /** The consequence of the value that {@code start} defines. */
    public Consequence of(Instruction start) {
        if (start.defs().isEmpty()) {
            return new Consequence(Impact.Kind.BOUNDED, phrase("ptx-use-none"), null);
        }
        List<Instruction> ins = facts.function().instructions();
        // seen: reached at all; direct: reached as the value itself, only moved, negated, converted or scaled
        BitSet seen = new BitSet(ins.size());
        BitSet direct = new BitSet(ins.size());
        // signFree: the result's sign does not depend on the value (a square root of it, or a product with such a
        // factor), so a test of that sign against zero decides the same whatever the value's rounding
        BitSet signFree = new BitSet(ins.size());
        ArrayDeque<Integer> work = new ArrayDeque<>();
        work.add(start.index());
        seen.set(start.index());
        direct.set(start.index());
        if (fixedSign(start)) signFree.set(start.index());
        int steps = 0;
        boolean stored = false;
        Consequence colour = null;
        // the first comparison reached: the walk goes on for an integer the value becomes elsewhere
        Consequence decision = null;
        while (!work.isEmpty()) {
            int cur = work.poll();
            List<String> defs = ins.get(cur).defs();
            boolean isDirect = direct.get(cur);
            for (int u : facts.defUse().users(cur)) {
                if (++steps > MAX_STEPS) {
                    if (decision != null) {
                        // no integer within the bound, as a walk that finds nothing within it is bounded
                        return decision;
                    }
                    if (colour != null) {
                        return colour;
                    }
                    return stored
                            ? new Consequence(Impact.Kind.BOUNDED, phrase("ptx-use-stored"), null)
                            : new Consequence(Impact.Kind.BOUNDED, phrase("ptx-use-unknown"), null);
                }
                Instruction x = ins.get(u);
                if (signFree.get(cur) && signTest(x)) {
                    continue; // v*k > 0 with v > 0: the sign is k's, the value cannot flip the test
                }
                boolean library = libraryDecision(x);
                Consequence c = library ? null : sink(x, defs, isDirect && scales(ins.get(cur)));
                if (c != null && c.kind() == Impact.Kind.BOUNDED) {
                    // quantised to a colour channel or decided by a random draw: the value ends there, another path
                    // may still decide something
                    if (colour == null) {
                        colour = c;
                    }
                    continue;
                }
                if (c != null && c.reach() == Impact.Reach.DECISION) {
                    if (decision == null) {
                        decision = isDirect ? c : c.diluted();
                    }
                    continue;
                }
                if (c != null && (decision == null || c.kind() == Impact.Kind.AMPLIFIED)) {
                    return c;
                }
                if (c != null) {
                    continue; // a cancellation after a comparison: the comparison is the graver
                }
                boolean keeps = isDirect && keepsValue(x);
                boolean free = fixedSign(x) || signFree.get(cur) && keepsSign(x);
                // an integral rounding inside an inlined routine (powf's and expf's range reduction: cvt.rni, then
                // cvt.rzi.s32 of that integer for the exponent bits) makes the routine's own integers, not the value's
                boolean libraryRounding = library && x.opcode().equals("cvt");
                if ((passes(x) && !libraryRounding
                                || (library
                                        && (x.opcode().equals("min")
                                                || x.opcode().equals("max"))))
                        && (!seen.get(u) || keeps && !direct.get(u) || !free && signFree.get(u))) {
                    if (!seen.get(u)) {
                        if (free) signFree.set(u);
                    } else if (!free) {
                        signFree.clear(u); // reached another way too, where the value does move the sign
                    }
                    seen.set(u);
                    if (keeps) direct.set(u);
                    work.add(u);
                } else if (x.opcode().equals("st")) {
                    stored = true;
                }
            }
        }
        if (decision != null) return decision;
        if (colour != null) return colour;
        return new Consequence(Impact.Kind.BOUNDED, phrase(stored ? "ptx-use-stored" : "ptx-use-undecided"), null);
    }

    /** A float result of fixed sign whatever its operand: a square root, a reciprocal square root, 2^x, |x|. */
    private static boolean fixedSign(Instruction x) {
        if (!PtxFacts.isF(x.type())) {
            return false;
        }
        return switch (x.opcode()) {
            case "sqrt", "rsqrt", "ex2", "abs" -> true;
            default -> false;
        };
    }

    /** A float operation whose result's sign is its operands' signs combined: a product, quotient, move or negation. */
    private static boolean keepsSign(Instruction x) {
        if (!PtxFacts.isF(x.type()) && !x.opcode().equals("mov")) {
            return false;
        }
        return switch (x.opcode()) {
            case "mul", "div", "rcp", "neg", "mov" -> true;
            case "cvt" -> PtxFacts.isF(x.sourceType());
            default -> false;
        };
    }

    /** A float comparison with zero ({@code setp.gt.f32 %p, %f, 0f00000000}): a test of a sign. */
    private boolean signTest(Instruction x) {
        String op = x.opcode();
        if (!(op.equals("setp") || op.equals("set")) || !PtxFacts.isF(x.sourceType())) {
            return false;
        }
        for (int k = 1; k <= 2; k++) {
            if (facts.constantValue(x, x.operand(k)) == 0.0) {
                return true;
            }
        }
        return false;
    }

    /**
     * A decision of an inlined math routine that carries the caller's line (libdevice code has no line table of
     * its own): a comparison, selection or round-to-integral on a line that calls a math-library function but
     * writes no comparison, selection or such rounding itself (the branches inside atanf on {@code return
     * atanf(y / x);}). It is the routine's, not a decision the user's value makes: its documented error bound
     * covers it. A truncation to an integer (cvt.rzi.s32) stays a sink: an implicit conversion to int is written without
     * a mark; one to an integral float value (cvt.rzi.f64.f64, pow's test of its exponent) is trunc's. A
     * decision at a header position whose {@code .loc} lost its inlined_at chain takes the calling line from the
     * function's other instructions at that position ({@link #inlinedLine}).
     */
    private boolean libraryDecision(Instruction x) {
        String op = x.opcode();
        boolean decision =
                switch (op) {
                    case "setp", "set", "slct", "testp", "min", "max" -> true;
                        // a truncation to an integral float value (cvt.rzi.f64.f64: pow's test of whether its exponent
                        // is an integer) is trunc's, not a conversion written without a mark
                    case "cvt" -> x.rounding() == Instruction.Rounding.RNI
                            || x.rounding() == Instruction.Rounding.RMI
                            || x.rounding() == Instruction.Rounding.RPI
                            || x.rounding() == Instruction.Rounding.RZI && PtxFacts.isF(x.type());
                    default -> false;
                };
        if (!decision) {
            return false;
        }
        String line = facts.sourceLine(x);
        if (line == null) {
            line = inlinedLine(x);
        }
        if (!SourceText.callsMathLibrary(line)) {
            return false;
        }
        if (op.equals("cvt")) {
            String[] spelled =
                    switch (x.rounding()) {
                        case RNI -> new String[] {"rint", "round", "_rn"};
                        case RMI -> new String[] {"floor", "_rd"};
                        case RZI -> new String[] {"trunc", "_rz", "modf"};
                        default -> new String[] {"ceil", "_ru"};
                    };
            return !SourceText.callsNamed(line, spelled);
        }
        return !SourceText.writesDecision(line);
    }

    /**
     * The user line of an instruction whose {@code .loc} names a position inside a header routine without the
     * {@code inlined_at} chain that says where the routine was inlined: nvcc 13.0 writes {@code .loc 2 418 7} (the
     * {@code pow} of libstdc++'s {@code cmath}) with its chain on the first instruction of the inlined body and bare
     * after a {@code .loc 2 0 7} of the same routine, so {@code pow}'s own tests ({@code x == 0}, {@code |x| > inf},
     * {@code x == 1}) lose the line that calls it. The chain is taken from the nearest instruction of the function at
     * the same header position that carries one (before it, else after it); null when none does or the position is
     * user code.
     */
    private String inlinedLine(Instruction x) {
        DebugLoc loc = x.loc();
        if (loc == null || loc.inlined() || facts.settings().writtenPos().apply(loc) != null) {
            return null;
        }
        return inlinedLines
                .computeIfAbsent(x.index(), k -> {
                    int[] at = inlinedAtPos().get(loc.pos());
                    if (at == null) {
                        return java.util.Optional.empty();
                    }
                    // the nearest one before x, else the first after it
                    int i = java.util.Arrays.binarySearch(at, x.index());
                    int pick = i >= 0 ? at[i] : -i - 2 >= 0 ? at[-i - 2] : at[-i - 1];
                    return java.util.Optional.ofNullable(
                            facts.sourceLine(facts.function().instruction(pick)));
                })
                .orElse(null);
    }

    private final java.util.Map<Integer, java.util.Optional<String>> inlinedLines =
            new java.util.concurrent.ConcurrentHashMap<>();

    private java.util.Map<dev.numlint.ptx.model.SourcePos, int[]> inlinedPositions;

    /** The instructions whose {@code .loc} carries an {@code inlined_at} chain, by position, in order. */
    private synchronized java.util.Map<dev.numlint.ptx.model.SourcePos, int[]> inlinedAtPos() {
        if (inlinedPositions == null) {
            java.util.Map<dev.numlint.ptx.model.SourcePos, java.util.List<Integer>> m = new java.util.HashMap<>();
            for (Instruction y : facts.function().instructions()) {
                DebugLoc l = y.loc();
                if (l != null && l.inlined()) {
                    m.computeIfAbsent(l.pos(), k -> new java.util.ArrayList<>()).add(y.index());
                }
            }
            java.util.Map<dev.numlint.ptx.model.SourcePos, int[]> r = new java.util.HashMap<>();
            m.forEach((k, v) -> r.put(k, v.stream().mapToInt(Integer::intValue).toArray()));
            inlinedPositions = r;
        }
        return inlinedPositions;
    }

    /**
     * {@code product}: the value reaches {@code x} as itself scaled into a product or quotient, so that a
     * subtraction of another product there is a difference of products it belongs to (not a function of it, a sum
     * with it, or the value minus one product).
     */
    private Consequence sink(Instruction x, List<String> defs, boolean product) {
        String op = x.opcode();
        switch (op) {
            case "cvt" -> {
                String dst = x.type();
                boolean rounds = PtxFacts.isInteger(dst)
                        || x.rounding() != null && x.rounding().isInteger();
                if (rounds && PtxFacts.isF(x.sourceType()) && wraps.wraps(x)) {
                    // f.x -= floorf(0.5f + f.x): a count of periods subtracted from the value, the minimum image
                    return new Consequence(Impact.Kind.BOUNDED, phrase("ptx-use-periodic-wrap"), x);
                }
                if (PtxFacts.isInteger(dst)) {
                    // cvt.u32.u64 of a float's bits (a float3 copied through mov.b64) converts no value (session 57)
                    if (!PtxFacts.isF(x.sourceType())) return null;
                    String sample = QuantisedSamples.sample(facts, x);
                    if (sample != null) {
                        return new Consequence(Impact.Kind.BOUNDED, phrase("ptx-use-quantised", "what", sample), x);
                    }
                    if (FixedPoints.encodes(facts, x)) {
                        return new Consequence(Impact.Kind.BOUNDED, phrase("ptx-use-fixed-point"), x);
                    }
                    return new Consequence(
                            Impact.Kind.AMPLIFIED, phrase("ptx-use-integer"), x, Impact.Reach.CONVERSION);
                }
                // no rounding, or a math routine's own step on the calling line (SourceText.writesRounding)
                if (x.rounding() == null
                        || !x.rounding().isInteger()
                        || !SourceText.writesRounding(facts.sourceLine(x))) return null;
                return new Consequence(Impact.Kind.AMPLIFIED, phrase("ptx-use-rounding"), x, Impact.Reach.CONVERSION);
            }
            case "setp", "set", "slct", "testp" -> {
                if (SourceText.comparesWithDraw(facts.sourceLine(x))) {
                    // compared with a fresh random draw: the value ends in a Bernoulli trial, statistically
                    return new Consequence(Impact.Kind.BOUNDED, phrase("ptx-use-random-draw"), x);
                }
                if (clamps.clamps(x, defs)) {
                    return new Consequence(Impact.Kind.BOUNDED, phrase("ptx-use-clamp"), x);
                }
                return new Consequence(Impact.Kind.AMPLIFIED, phrase("ptx-use-comparison"), x, Impact.Reach.DECISION);
            }
            case "min", "max" -> {
                // continuous in the value: a clamp (fmaxf(v, 0.0f)) moves with it, and a min/max of two computed
                // values flips its winner only where both are within the ulp; the result is followed on
                return null;
            }
            case "atom", "red" -> {
                // the value is one term of the atomic sum: it moves the sum by its ulp (the order is NL009's finding)
                return new Consequence(Impact.Kind.BOUNDED, phrase("ptx-use-atomic-term"), x);
            }
            case "sub", "add" -> {
                if (product && cancels(x, defs)) {
                    return new Consequence(Impact.Kind.CANCELLATION, phrase("ptx-use-cancellation"), x);
                }
                return null;
            }
            default -> {
                return null;
            }
        }
    }

    /** {@code x} subtracts two products: the value is one of them and the other operand is a product too. */
    private boolean cancels(Instruction x, List<String> defs) {
        if (!PtxFacts.isF(x.type())) {
            return false;
        }
        boolean sub = x.opcode().equals("sub");
        for (int k = 1; k <= 2; k++) {
            int other = 3 - k;
            if (!(x.operand(k) instanceof Operand.Reg r) || !defs.contains(r.name())) {
                continue;
            }
            Instruction d = facts.defOf(x, other);
            if (d == null) {
                continue;
            }
            boolean neg = false;
            if (d.opcode().equals("neg")) {
                neg = true;
                d = facts.defOf(d, 1);
            }
            if (d != null && (sub ^ neg) && isProduct(facts, d)) {
                return !pairedComponent(x);
            }
        }
        return false;
    }

    /**
     * {@code d} computes a rounded product that can cancel against another one: a float {@code mul} of two values
     * (not a scaling by a power of two, which is exact and leaves nothing for a fused operation to change), or an
     * {@code fma}/{@code mad} that is itself a contracted sum of two such products ({@code a*b + c*d}). An fma that
     * adds a product to some other value ({@code t + x*s}, an accumulation) is a sum, not a product: subtracting a
     * product from it is a value minus one product.
     */
    public static boolean isProduct(PtxFacts facts, Instruction d) {
        return isProduct(facts, d, 0);
    }

    private static boolean isProduct(PtxFacts facts, Instruction d, int depth) {
        String op = d.opcode();
        if (!PtxFacts.isF(d.type()) || exactScaling(facts, d)) {
            return false;
        }
        if (op.equals("mul")) {
            return true;
        }
        if (!(op.equals("fma") || op.equals("mad")) || depth > 2) {
            return false;
        }
        Instruction addend = facts.defOf(d, 3);
        if (addend != null && addend.opcode().equals("neg")) {
            addend = facts.defOf(addend, 1);
        }
        return addend != null && isProduct(facts, addend, depth + 1);
    }

    /** A multiplication (mul, fma, mad) one of whose multiplicands is zero or a power of two: an exact product. */
    public static boolean exactScaling(PtxFacts facts, Instruction d) {
        return PtxFacts.exactScale(facts.constantValue(d, d.operand(1)))
                || PtxFacts.exactScale(facts.constantValue(d, d.operand(2)));
    }

    /** How many source lines apart the two components of a complex product or rotation may be. */
    private static final int PAIR_SPAN = 12;

    /**
     * {@code x} computes {@code p*q - r*s} (two rounded products, in any sign arrangement: add/sub of two muls, or an
     * fma whose addend is a product) and the function also computes the companion {@code p*s + r*q}: one component
     * of a complex product or a 2-D rotation, whose error is bounded relative to the pair's magnitude. The factors
     * are compared by register (or immediate) and the companion must lie within a few source lines.
     */
    public boolean pairedComponent(Instruction x) {
        Boolean known = pairedMemo.get(x.index());
        if (known != null) {
            return known;
        }
        boolean paired = findPair(x);
        pairedMemo.put(x.index(), paired);
        return paired;
    }

    /** {@link #productPair} by instruction index: a function's pair test reads each candidate once. */
    private final java.util.Map<Integer, java.util.Optional<List<List<String>>>> pairMemo =
            new java.util.concurrent.ConcurrentHashMap<>();

    private final java.util.Map<Integer, Boolean> pairedMemo = new java.util.concurrent.ConcurrentHashMap<>();

    private List<List<String>> productPairOf(Instruction y) {
        return pairMemo.computeIfAbsent(y.index(), k -> java.util.Optional.ofNullable(productPair(y)))
                .orElse(null);
    }

    private boolean findPair(Instruction x) {
        List<List<String>> mine = productPairOf(x);
        if (mine == null) {
            return false;
        }
        Iterable<Instruction> near = x.loc() == null
                ? facts.function().instructions()
                : floatsByLine()
                        .subMap(
                                x.loc().pos().line() - PAIR_SPAN,
                                true,
                                x.loc().pos().line() + PAIR_SPAN,
                                true)
                        .values()
                        .stream()
                        .flatMap(List::stream)
                        .toList();
        for (Instruction y : near) {
            if (y == x || !y.isFloat()) {
                continue;
            }
            List<List<String>> other = productPairOf(y);
            if (other != null && swapped(mine, other)) {
                return true;
            }
        }
        return false;
    }

    private volatile java.util.NavigableMap<Integer, List<Instruction>> floatsByLine;

    /** The function's float instructions with a source line, by line: the pair test looks only a few lines away. */
    private java.util.NavigableMap<Integer, List<Instruction>> floatsByLine() {
        java.util.NavigableMap<Integer, List<Instruction>> m = floatsByLine;
        if (m == null) {
            m = new java.util.TreeMap<>();
            for (Instruction y : facts.function().instructions()) {
                if (y.isFloat() && y.loc() != null) {
                    m.computeIfAbsent(y.loc().pos().line(), k -> new java.util.ArrayList<>())
                            .add(y);
                }
            }
            floatsByLine = m;
        }
        return m;
    }

    /** The factor pairs (sorted operand texts) of the two products {@code x} adds or subtracts, or null. */
    private List<List<String>> productPair(Instruction x) {
        String op = x.opcode();
        if (!PtxFacts.isF(x.type())) {
            return null;
        }
        Instruction a;
        Instruction b;
        if (op.equals("add") || op.equals("sub")) {
            a = unneg(facts.defOf(x, 1));
            b = unneg(facts.defOf(x, 2));
            List<String> fa = a == null || !a.opcode().equals("mul") ? null : factorsOf(a);
            List<String> fb = b == null || !b.opcode().equals("mul") ? null : factorsOf(b);
            return fa == null || fb == null ? null : List.of(fa, fb);
        }
        if (op.equals("fma") || op.equals("mad")) {
            b = unneg(facts.defOf(x, 3));
            List<String> fa = factorsOf(x);
            List<String> fb = b == null || !b.opcode().equals("mul") ? null : factorsOf(b);
            return fa == null || fb == null ? null : List.of(fa, fb);
        }
        return null;
    }

    private Instruction unneg(Instruction d) {
        return d != null && d.opcode().equals("neg") ? facts.defOf(d, 1) : d;
    }

    /**
     * The multiplicands of a mul or fma, a multiplicand that is itself a product expanded ({@code (x*z)*c}: x, z, c)
     * and a negated one taken by its source, sorted; null for an exact scaling.
     */
    private List<String> factorsOf(Instruction m) {
        if (!PtxFacts.isF(m.type()) || exactScaling(facts, m)) {
            return null;
        }
        List<String> out = new java.util.ArrayList<>(4);
        collectFactors(m, out, 0);
        out.sort(null);
        return out;
    }

    private void collectFactors(Instruction m, List<String> out, int depth) {
        for (int k = 1; k <= 2; k++) {
            Operand o = m.operand(k);
            Instruction d = facts.defOf(m, k);
            if (d != null && d.opcode().equals("neg")) {
                o = d.operand(1);
                d = facts.defOf(d, 1);
            }
            if (d != null
                    && depth < 2
                    && d.opcode().equals("mul")
                    && PtxFacts.isF(d.type())
                    && !exactScaling(facts, d)) {
                collectFactors(d, out, depth + 1);
            } else {
                out.add(String.valueOf(o));
            }
        }
    }

    /** {@code g} is {@code f} with one factor of each product exchanged: {p*q, r*s} and {p*s, r*q}. */
    private static boolean swapped(List<List<String>> f, List<List<String>> g) {
        List<String> f0 = f.get(0);
        List<String> f1 = f.get(1);
        for (String x : f0) {
            for (String y : f1) {
                if (x.equals(y)) {
                    continue;
                }
                List<String> h0 = new java.util.ArrayList<>(f0);
                h0.remove(x);
                h0.add(y);
                h0.sort(null);
                List<String> h1 = new java.util.ArrayList<>(f1);
                h1.remove(y);
                h1.add(x);
                h1.sort(null);
                if (h0.equals(g.get(0)) && h1.equals(g.get(1)) || h0.equals(g.get(1)) && h1.equals(g.get(0))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The instruction scales its input into a float product or quotient ({@code mul}, {@code div}). */
    private static boolean scales(Instruction d) {
        String op = d.opcode();
        return (op.equals("mul") || op.equals("div")) && PtxFacts.isF(d.type());
    }

    /** Operations whose result is still the value itself, only moved, negated, converted or scaled. */
    private static boolean keepsValue(Instruction x) {
        return switch (x.opcode()) {
            case "mov", "neg", "abs", "cvt", "mul", "div", "selp" -> true;
            default -> false;
        };
    }

    /** Operations a difference passes through unchanged in kind. */
    private static boolean passes(Instruction x) {
        if (x.opcode().equals("min") || x.opcode().equals("max")) {
            return true; // continuous in the followed value (sink() follows every min and max on)
        }
        return switch (x.opcode()) {
            case "add",
                    "sub",
                    "mul",
                    "fma",
                    "mad",
                    "div",
                    "neg",
                    "abs",
                    "mov",
                    "selp",
                    "sqrt",
                    "rsqrt",
                    "rcp",
                    "ex2",
                    "lg2",
                    "sin",
                    "cos",
                    "tanh",
                    "cvt",
                    "copysign" -> true;
            default -> false;
        };
    }

    /** The catalog's shared message fragment {@code key} ({@code phrases:}) with its placeholders filled. */
    public static String phrase(String key, Object... args) {
        return dev.numlint.rules.RuleCatalog.get().phrase(key, args);
    }
}
