package dev.numlint.ptx.checks;

import com.google.auto.service.AutoService;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.ptx.facts.Consequences;
import dev.numlint.ptx.facts.Consequences.Consequence;
import dev.numlint.ptx.facts.FewValues;
import dev.numlint.ptx.facts.PtxFacts;
import dev.numlint.ptx.facts.WholeNumbers;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Operand;
import dev.numlint.ptx.model.SourcePos;
import dev.numlint.ptx.rules.PtxHit;
import dev.numlint.ptx.rules.SourceText;
import java.util.List;
import java.util.function.Consumer;

/**
 * NL003 in PTX: an {@code fma.rn}/{@code mad} that nvcc contracted from a*b+c written without an explicit fma, and a
 * {@code mul} feeding an {@code add}/{@code sub} with no rounding modifier, which ptxas may fuse into one FFMA.
 * Whether ptxas really fuses a pair is only known from the SASS; without that evidence the message says "may".
 *
 * <p>Not reported: products that are exact (a power-of-two or zero multiplicand: one rounding equals two), a product
 * added to a constant infinity (the overflow path of an inlined exp: the sum is that infinity either way), explicit
 * fmaf/__fmaf_rn, and the fma steps of inlined math-library routines (polynomial coefficients, Newton steps) on a
 * line that calls such a routine; on a line that calls a routine with an exact result ({@code fmodf}), an fma whose
 * operands are all computed on the line (libdevice's code has no line of its own: it carries the calling line, with
 * no inlined-at chain, so the debug information cannot tell it apart).
 */
@AutoService(PtxCheck.class)
public final class ContractedMulAdd implements PtxCheck {
    @Override
    public String ruleId() {
        return "NL003";
    }

    @Override
    public void check(PtxFacts facts, Consumer<PtxHit> out) {
        for (Instruction in : facts.function().instructions()) {
            switch (in.opcode()) {
                case "fma", "mad" -> fma(facts, in, out);
                case "add", "sub" -> mulAdd(facts, in, out);
                default -> {}
            }
        }
    }

    private void fma(PtxFacts facts, Instruction in, Consumer<PtxHit> out) {
        String t = in.type();
        if (!PtxFacts.isF(t)) {
            return;
        }
        if (in.rounding() != null && in.rounding() != Instruction.Rounding.RN) {
            return; // __fmaf_rz & co: explicit
        }
        if (in.operand(3) instanceof Operand.FloatImm z && z.value() == 0) {
            return; // a*b+0 rounds like a*b
        }
        if (exactProduct(facts, in) || addsItsOwnProduct(facts, in)) {
            return;
        }
        String line = facts.sourceLine(in);
        Confidence c;
        if (line != null) {
            if (SourceText.hasExplicitFma(line) || !SourceText.hasMultiply(line)) {
                return;
            }
            if (SourceText.callsExactRoutine(line) && facts.computedOnItsLine(in)) {
                return; // fmodf's remainder correction r = x - q*y: the routine's result is exact
            }
            if (libraryLineWithoutSum(line)) {
                return; // fmodf's remainder step on 'while (fmodf(t, dt) != 0.0f) dt *= 0.5f;'
            }
            if (SourceText.callsMathLibraryAnyCase(line) && narrowedProduct(facts, in)) {
                return; // a step of powf called on doubles: its multiplicands come from the narrowed arguments
            }
            if (SourceText.callsMathLibrary(line) && !userOperands(facts, in)) {
                return; // a step of an inlined library routine on the same line
            }
            c = Confidence.HIGH;
        } else {
            if (facts.settings().noContraction()) {
                return; // a -fmad=false build contracts nothing: the fma is an explicit fmaf
            }
            if (fromConstant(facts, in, 1, 0) || fromConstant(facts, in, 2, 0)) {
                return; // polynomial or range reduction of a library routine (a constant coefficient)
            }
            if (facts.constantOperand(in, in.operand(3)) && !(userValue(facts, in, 1) && userValue(facts, in, 2))) {
                return; // a constant added to a computed product: a library step unless both factors are data
            }
            c = Confidence.LOW;
        }
        Consequence cq = inDouble(facts, in, consequenceOfFma(facts, in));
        String what = in.opcode().equals("mad")
                ? PtxMessages.format(ruleId(), "ptx-what-mad", "type", t)
                : PtxMessages.format(ruleId(), "ptx-what-fma");
        out.accept(inDoubleJudged(
                in,
                cancellingProduct(facts, in, facts.defOf(in, 3), true),
                cq,
                new PtxHit(
                        ruleId(),
                        facts.function(),
                        in,
                        PtxMessages.message(ruleId(), "ptx-fma", "instr", in.text(), "what", what),
                        c,
                        List.of(),
                        in.mnemonic(),
                        cq)));
    }

    /**
     * Whether {@code other}, added to the product {@code rounded} ({@code added}: without negation), is a second
     * product that can cancel it: a product (through a negation: {@code a*b - c*d} as {@code fma(a, b, -(c*d))}),
     * unless both are squares added ({@code x*x + y*y}: a sum of magnitudes).
     */
    private static boolean cancellingProduct(PtxFacts facts, Instruction rounded, Instruction other, boolean added) {
        return product(facts, other) && !(added && square(rounded) && squares(facts, other, 0));
    }

    /** Whether {@code d} is a product, through a negation ({@code a*b - c*d} as {@code fma(a, b, -(c*d))}). */
    private static boolean product(PtxFacts facts, Instruction d) {
        if (d != null && d.opcode().equals("neg")) {
            d = facts.defOf(d, 1);
        }
        return d != null && Consequences.isProduct(facts, d);
    }

    /** A multiplication of a register by itself ({@code mul x, x}, {@code fma x, x, c}): a square, never negative. */
    private static boolean square(Instruction m) {
        return m.operands().size() >= 3
                && m.operand(1) instanceof dev.numlint.ptx.model.Operand.Reg
                && m.operand(1).equals(m.operand(2));
    }

    /**
     * Whether {@code d} is a square or a sum of squares ({@code mul y, y}; {@code fma z, z, y*y}), added with no
     * negation: with the square contracted beside it, a sum of magnitudes ({@code x*x + y*y}), whose second product
     * cannot cancel the rounded one.
     */
    private static boolean squares(PtxFacts facts, Instruction d, int depth) {
        if (d == null || depth > 3 || !square(d)) {
            return false;
        }
        if (d.opcode().equals("mul")) {
            return true;
        }
        return (d.opcode().equals("fma") || d.opcode().equals("mad")) && squares(facts, facts.defOf(d, 3), depth + 1);
    }

    /**
     * {@code hit} judged {@link dev.numlint.model.Identity.Judgement#DOUBLE_ROUNDING} when {@code in} is an f64
     * contraction whose value is amplified and whose addend is no product that can cancel the rounded one ({@code
     * otherProduct}: exact or not, a tie the program makes; a difference of products is a cancellation anyway), or
     * whose value reaches only comparisons after other terms were added to it.
     */
    private static PtxHit inDoubleJudged(Instruction in, boolean otherProduct, Consequence cq, PtxHit hit) {
        if (!"f64".equals(in.type()) || cq == null || cq.kind() != Impact.Kind.AMPLIFIED) {
            return hit;
        }
        // a second product meets the comparison undiluted only when the difference itself is compared: other terms
        // added first (sig + k*(a*b - c*d) < floor) leave 2^-53 of a product against their sum, a tie again
        boolean diluted = cq.reach() == Impact.Reach.DECISION && !cq.direct();
        return !otherProduct || diluted ? hit.withJudgement(dev.numlint.model.Identity.Judgement.DOUBLE_ROUNDING) : hit;
    }

    /** The fma's own pattern first (a*d - b*c contracted: cancellation), then what its result decides. */
    private static Consequence consequenceOfFma(PtxFacts facts, Instruction in) {
        if (facts.consequences().pairedComponent(in)) {
            return facts.consequences().of(in); // one component of a complex product or rotation
        }
        // the fused product is negative when exactly one multiplicand is negated (a square, fma(x, x, ...), or two
        // negated multiplicands are not); it cancels against a product added with the opposite sign
        boolean negProduct = negated(facts, in, 1) != negated(facts, in, 2);
        Instruction addend = facts.defOf(in, 3);
        boolean negAddend = addend != null && addend.opcode().equals("neg");
        if (negAddend) {
            addend = facts.defOf(addend, 1);
        }
        if (negProduct != negAddend && addend != null && Consequences.isProduct(facts, addend)) {
            return difference(facts, in, in, addend);
        }
        return facts.consequences().of(in);
    }

    /**
     * A cancellation in f64 that decides nothing is bounded: fused or not, the difference moves by an ulp of a
     * product (2^-53 of it), far below what a double result is compared or written with. What the value decides (a
     * test, a conversion, an index) keeps its consequence.
     */
    private static Consequence inDouble(PtxFacts facts, Instruction in, Consequence cq) {
        if (!"f64".equals(in.type()) || cq == null || cq.kind() != Impact.Kind.CANCELLATION) {
            return cq;
        }
        Consequence then = facts.consequences().of(in);
        if (then != null && then.kind() == Impact.Kind.AMPLIFIED) {
            return then;
        }
        return new Consequence(Impact.Kind.BOUNDED, Consequences.phrase("ptx-use-difference-double"), null);
    }

    /**
     * The cancellation of {@code at}, a difference of the products {@code p} and {@code q}, said of the line {@code
     * at} is written on: a product written on another line (the caller's, an inlined helper's) is named by its line,
     * so that a line with one product or none is not said to hold a difference of products.
     */
    private static Consequence difference(PtxFacts facts, Instruction at, Instruction p, Instruction q) {
        SourcePos here = facts.writtenPos(at);
        SourcePos pp = p == at ? here : facts.writtenPos(p);
        SourcePos qp = facts.writtenPos(q);
        boolean pHere = here == null || samePlace(here, pp);
        boolean qHere = here == null || samePlace(here, qp);
        // what the difference then decides (a test, a conversion, an index): its reach, which keeps the finding a
        // warning under the rule's tie-only policy; a difference only stored is a few ulp of its products
        Consequence then = facts.consequences().of(at);
        // reached as the difference itself: squared and summed into a norm first, it decides only where every term
        // cancels
        Impact.Reach decides = then != null && then.kind() == Impact.Kind.AMPLIFIED && then.direct()
                ? (then.reach() != null ? then.reach() : Impact.Reach.DECISION)
                : null;
        String tail = decides == null ? "" : ", then " + then.what();
        if (pHere && qHere) {
            return new Consequence(
                    Impact.Kind.CANCELLATION, Consequences.phrase("ptx-use-difference") + tail, at, decides);
        }
        // the phrase names the other line; the sink is this line, which the message need not say again
        String what = pHere || qHere
                ? Consequences.phrase("ptx-use-difference-one", "where", where(here, pHere ? qp : pp))
                : Consequences.phrase("ptx-use-difference-none", "first", where(here, pp), "second", where(here, qp));
        return new Consequence(Impact.Kind.CANCELLATION, what + tail, null, decides);
    }

    /**
     * "may fuse them", naming the product's line where it is written on another line than the addition the finding
     * stands at (a product inlined from a caller or a helper: the addition's own line holds none).
     */
    private static String fusion(PtxFacts facts, Instruction mul, Instruction add) {
        SourcePos here = facts.writtenPos(add);
        SourcePos mp = facts.writtenPos(mul);
        if (here == null || mp == null || mp.line() <= 0 || samePlace(here, mp)) {
            return "may fuse them";
        }
        return "may fuse them (the product: " + where(here, mp) + ")";
    }

    private static boolean samePlace(SourcePos a, SourcePos b) {
        return b != null && a.line() == b.line() && java.util.Objects.equals(a.file(), b.file());
    }

    /** A product's line as seen from {@code here}: "line 12", "line 12 of Matrix.h", or "another line" if unknown. */
    private static String where(SourcePos here, SourcePos p) {
        if (p == null || p.line() <= 0) return "another line";
        if (here == null || java.util.Objects.equals(here.file(), p.file()) || p.file() == null) {
            return "line " + p.line();
        }
        String f = p.file().replace('\\', '/');
        return "line " + p.line() + " of " + f.substring(f.lastIndexOf('/') + 1);
    }

    private void mulAdd(PtxFacts facts, Instruction add, Consumer<PtxHit> out) {
        if (!PtxFacts.isF(add.type()) || add.rounding() != null) {
            return;
        }
        if (facts.settings().noContraction()) {
            return; // a -G (or -fmad=false) build: ptxas fuses nothing (sm_80 SASS: FMUL and FADD under -G)
        }
        for (int k = 1; k <= 2; k++) {
            Instruction mul = facts.defOf(add, k);
            if (mul == null
                    || !mul.opcode().equals("mul")
                    || mul.rounding() != null
                    || !add.type().equals(mul.type())) {
                continue;
            }
            if (exactProduct(facts, mul)) {
                continue;
            }
            if (add.opcode().equals("add") && sameValue(facts, add, 3 - k, add, k)) {
                continue; // p + p of one rounded product p = a*b: fused, fma(a, b, p) = 2p exactly (addsItsOwnProduct)
            }
            if (Double.isInfinite(facts.constantValue(add, add.operand(3 - k)))) {
                // x + inf, the overflow path of an inlined exp: for every finite product the fused and the
                // separate forms give the same infinity (or NaN), so contraction changes nothing
                continue;
            }
            String mline = facts.sourceLine(mul);
            if (mline != null && !SourceText.hasMultiply(mline)) {
                continue;
            }
            if (SourceText.callsExactRoutine(facts.sourceLine(add))
                    && facts.computedOnItsLine(add)
                    && facts.computedOnItsLine(mul)) {
                continue; // a step of fmodf's exact remainder
            }
            if (libraryLineWithoutSum(facts.sourceLine(add))) {
                continue; // powf's reduction on 'e = p * powf(d, -g);': the line subtracts nothing
            }
            if (SourceText.callsMathLibraryAnyCase(facts.sourceLine(add)) && narrowedProduct(facts, mul)) {
                continue; // powf's reduction when called on doubles: the line's own arithmetic is double
            }
            if (mline == null
                    && (facts.constantOperand(mul, mul.operand(1)) || facts.constantOperand(mul, mul.operand(2)))
                    && facts.sourceLine(add) == null) {
                continue;
            }
            Consequence cq = facts.consequences().of(add);
            Instruction other = facts.defOf(add, 3 - k);
            boolean negated = other != null && other.opcode().equals("neg");
            if (negated) {
                other = facts.defOf(other, 1);
            }
            if (other != null
                    && (add.opcode().equals("sub") ^ negated)
                    && Consequences.isProduct(facts, other)
                    && !facts.consequences().pairedComponent(add)) {
                cq = difference(facts, add, mul, other);
            }
            cq = inDouble(facts, add, cq);
            out.accept(inDoubleJudged(
                    add,
                    cancellingProduct(
                            facts, mul, facts.defOf(add, 3 - k), add.opcode().equals("add")),
                    cq,
                    new PtxHit(
                            ruleId(),
                            facts.function(),
                            add,
                            PtxMessages.message(
                                    ruleId(),
                                    "ptx-muladd",
                                    "mul",
                                    mul.text(),
                                    "add",
                                    add.text(),
                                    "fusion",
                                    fusion(facts, mul, add)),
                            mline == null ? Confidence.MEDIUM : Confidence.HIGH,
                            List.of(mul),
                            "mul+" + add.mnemonic(),
                            cq)));
            return;
        }
    }

    /**
     * The line calls a math-library routine (by name in any case: {@code powf}, a {@code POW} macro) and writes no
     * addition or subtraction for a product to feed: an fma or add carrying its position is a step of the inlined
     * routine (libdevice has no line table of its own, its instructions take the calling line), not a contraction
     * of the written code. A contraction's fma takes the position of its addition (nvcc 13.0), so a line without
     * one holds none of the programmer's.
     */
    static boolean libraryLineWithoutSum(String line) {
        return line != null && SourceText.callsMathLibraryAnyCase(line) && !SourceText.writesSum(line);
    }

    /**
     * Both multiplicands of {@code in} are constants or computed on its line from a double narrowed to float: the
     * float code of a routine the line calls on double arguments, not a product the programmer wrote in float (a
     * loaded or another line's factor makes it the programmer's).
     */
    static boolean narrowedProduct(PtxFacts facts, Instruction in) {
        boolean any = false;
        for (int k = 1; k <= 2; k++) {
            if (facts.constantOperand(in, in.operand(k))) {
                continue;
            }
            if (!facts.narrowedFromDouble(in, k)) {
                return false;
            }
            any = true;
        }
        return any;
    }

    /** Operand {@code k} of {@code in} is a register a {@code neg} defines. */
    private static boolean negated(PtxFacts facts, Instruction in, int k) {
        Instruction d = facts.defOf(in, k);
        return d != null && d.opcode().equals("neg");
    }

    /**
     * An fma whose addend is its own product rounded: {@code fma(a, b, p)} with {@code p = mul a, b} (nvcc's form of
     * {@code 2*p} and of {@code a*b + a*b}). It equals {@code p + p} exactly, so contraction changes nothing: with
     * {@code a*b = p + e}, {@code |e|} at most half an ulp of {@code p} (a quarter when {@code p} is a power of two
     * and {@code a*b} lies below it), {@code 2p} is a float and {@code e} is at most a quarter of the spacing of the
     * floats next to it, so {@code 2p + e} rounds to {@code 2p}; in the subnormal range, where the spacing is fixed, a
     * tie ({@code |e|} half of it) comes only from {@code p} rounded to even, and {@code 2p} is the even neighbour
     * again. An overflow gives the same infinity both ways.
     */
    static boolean addsItsOwnProduct(PtxFacts facts, Instruction in) {
        Instruction p = facts.defOf(in, 3);
        if (p == null
                || !p.opcode().equals("mul")
                || p.rounding() != null
                || !p.type().equals(in.type())) {
            return false;
        }
        return sameValue(facts, in, 1, p, 1) && sameValue(facts, in, 2, p, 2)
                || sameValue(facts, in, 1, p, 2) && sameValue(facts, in, 2, p, 1);
    }

    /**
     * Operand {@code k} of {@code x} and operand {@code j} of {@code y} hold one value: one immediate, or one register
     * read by one instruction, or read in one basic block with no definition of it between the two reads, or with the
     * same single reaching definition at both.
     */
    private static boolean sameValue(PtxFacts facts, Instruction x, int k, Instruction y, int j) {
        Operand a = x.operand(k), b = y.operand(j);
        if (!a.equals(b)) {
            return false;
        }
        if (!(a instanceof Operand.Reg r) || x == y) {
            return true;
        }
        if (x.block() == y.block()) {
            List<Instruction> ins = facts.function().instructions();
            int lo = Math.min(x.index(), y.index()), hi = Math.max(x.index(), y.index());
            for (int i = lo; i < hi; i++) {
                if (ins.get(i).defines(r.name())) {
                    return false;
                }
            }
            return true;
        }
        Instruction d = facts.defOf(x, k), e = facts.defOf(y, j);
        return d != null && e != null && d.index() == e.index();
    }

    /**
     * One multiplicand is zero or a power of two (a constant, or a register of a few such values: {@link FewValues}),
     * or both are whole numbers whose product the type holds exactly (a
     * bounded float loop counter squared): the product is exact, so contraction changes nothing.
     */
    private static boolean exactProduct(PtxFacts facts, Instruction in) {
        if (PtxFacts.exactScale(facts.constantValue(in, in.operand(1)))
                || PtxFacts.exactScale(facts.constantValue(in, in.operand(2)))) {
            return true;
        }
        // a weight whose every value is zero or a power of two (selp of -1 and 1, plus 1, times 0.5: 0 or 1)
        if (FewValues.powerOfTwo(facts, in, 1) || FewValues.powerOfTwo(facts, in, 2)) return true;
        Double a = WholeNumbers.bound(facts, in, 1);
        Double b = a == null ? null : WholeNumbers.bound(facts, in, 2);
        if (b != null && a * b <= WholeNumbers.limit(in.type())) return true;
        // two floats widened to double (cvt.f64.f32, or a constant float holds): 24 by 24 bits, the 48-bit product
        // fits in 53, so fusing changes nothing (session 68 round E: a path tracer's watertight edge test redone in
        // double from float coordinates, three warnings "ptxas may fuse them")
        return "f64".equals(in.type()) && widenedFloat(facts, in, 1) && widenedFloat(facts, in, 2);
    }

    /** Whether operand {@code k} of the f64 {@code in} holds a float value: a cvt.f64.f32 or a constant float holds. */
    private static boolean widenedFloat(PtxFacts facts, Instruction in, int k) {
        double c = facts.constantValue(in, in.operand(k));
        if (!Double.isNaN(c)) return (double) (float) c == c;
        Instruction d = facts.defOf(in, k);
        return d != null && d.opcode().equals("cvt") && "f64".equals(d.type()) && "f32".equals(d.sourceType());
    }

    /**
     * On a line that also calls a math-library routine, an fma is the user's own only when its multiplicands come
     * from outside the line's computation (a load, a parameter, another line) and no operand is a constant
     * coefficient or computed from one (a polynomial or range reduction of the routine).
     */
    private static boolean userOperands(PtxFacts facts, Instruction in) {
        int user = 0;
        for (int k = 1; k <= 3; k++) {
            if (fromConstant(facts, in, k, 0)) {
                return false;
            }
            if (k == 3) {
                continue;
            }
            Instruction d = facts.defOf(in, k);
            if (d == null
                    || d.opcode().equals("ld")
                    || d.opcode().equals("ldu")
                    || d.loc() == null
                    || in.loc() == null
                    || d.loc().pos().line() != in.loc().pos().line()) {
                user++;
            }
        }
        return user > 0;
    }

    /**
     * Operand {@code k} is the program's data rather than a value computed next to the fma: a load, a parameter, or
     * a value from another source line ({@code x*x + 1.0f} of a loaded x; not the {@code -x} of an inlined routine).
     */
    private static boolean userValue(PtxFacts facts, Instruction in, int k) {
        Instruction d = facts.defOf(in, k);
        return d == null
                || d.opcode().equals("ld")
                || d.opcode().equals("ldu")
                || (d.loc() != null
                        && in.loc() != null
                        && d.loc().pos().line() != in.loc().pos().line());
    }

    /** Operand {@code k} is a constant or arithmetic on a constant within a few definitions. */
    private static boolean fromConstant(PtxFacts facts, Instruction in, int k, int depth) {
        if (facts.constantOperand(in, in.operand(k))) {
            return true;
        }
        if (depth >= 3) {
            return false;
        }
        Instruction d = facts.defOf(in, k);
        if (d == null) {
            return false;
        }
        return switch (d.opcode()) {
            case "mul", "fma", "mad", "add", "sub" -> {
                for (int j = 1; j < d.operands().size(); j++) {
                    if (fromConstant(facts, d, j, depth + 1)) {
                        yield true;
                    }
                }
                yield false;
            }
            default -> false;
        };
    }
}
