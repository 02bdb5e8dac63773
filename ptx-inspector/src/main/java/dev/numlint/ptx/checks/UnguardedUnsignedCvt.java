package dev.numlint.ptx.checks;

import com.google.auto.service.AutoService;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.ptx.facts.Consequences;
import dev.numlint.ptx.facts.Consequences.Consequence;
import dev.numlint.ptx.facts.IntegerData;
import dev.numlint.ptx.facts.PtxFacts;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.rules.PtxHit;
import dev.numlint.ptx.rules.SourceText;
import java.util.List;
import java.util.function.Consumer;

/**
 * NL001: {@code cvt.rzi.u16.f32} and friends whose float operand is not range-guarded. A conversion that rounds to
 * nearest, down or up ({@code cvt.rni/rmi/rpi.u32.f32}) is not reported even without the source: a C cast always
 * truncates ({@code .rzi}; nvcc 13.0 compiles {@code (unsigned) rintf(x)} to {@code cvt.rni.f32.f32} then
 * {@code cvt.rzi.u32.f32}), so only the explicit intrinsics ({@code __float2uint_rn}, {@code __double2uint_rd} ...)
 * produce them: the GPU's saturating conversion the rule document recommends, with no C cast an x86 build would wrap.
 * On a line that calls {@code remainderf} or {@code remquof}, the conversion of the routine's own truncated quotient
 * (inlined from libdevice with the calling line, {@link PtxFacts#truncatedRoutineQuotient}) is not the programmer's.
 */
@AutoService(PtxCheck.class)
public final class UnguardedUnsignedCvt implements PtxCheck {
    @Override
    public String ruleId() {
        return "NL001";
    }

    /** The conversion rounds other than toward zero: an explicit conversion intrinsic, never a C cast. */
    static boolean explicitRounding(Instruction in) {
        Instruction.Rounding r = in.rounding();
        return r == Instruction.Rounding.RNI || r == Instruction.Rounding.RMI || r == Instruction.Rounding.RPI;
    }

    /** A constant as a message shows it: {@code -3.4028235E38} (a float as Java writes it), {@code 300}. */
    static String constantText(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return (double) (float) v == v ? Float.toString((float) v) : Double.toString(v);
    }

    /**
     * Whether every use of the conversion's result reads it as 32 or 64 bits (arithmetic, a comparison, a 32- or
     * 64-bit store or widening): nvcc converts to an 8- or 16-bit type through {@code cvt.rzi.u32} and narrows at
     * the store ({@code st.u8}, {@code st.u16}) or with a mask or shift, where the range is 255 or 65535.
     */
    private static boolean wideUses(PtxFacts facts, Instruction cvt) {
        int[] users = facts.defUse().users(cvt.index());
        if (users.length == 0) {
            return false;
        }
        for (int u : users) {
            Instruction x = facts.function().instruction(u);
            String t =
                    x.opcode().equals("cvt") && !x.types().isEmpty() ? x.types().get(0) : x.type();
            boolean wideType = t != null && (t.endsWith("32") || t.endsWith("64"));
            boolean op =
                    switch (x.opcode()) {
                        case "st", "add", "sub", "mul", "mad", "setp", "cvt", "min", "max", "div", "rem" -> true;
                        default -> false;
                    };
            if (!op || !wideType) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void check(PtxFacts facts, Consumer<PtxHit> out) {
        for (Instruction in : facts.function().instructions()) {
            if (!in.opcode().equals("cvt") || in.types().size() < 2) {
                continue;
            }
            String dst = in.types().get(0);
            String src = in.types().get(1);
            int bits =
                    switch (dst) {
                        case "u8" -> 8;
                        case "u16" -> 16;
                        case "u32" -> 32;
                        case "u64" -> 64;
                        default -> 0;
                    };
            if (bits == 0 || !PtxFacts.isAnyFloat(src)) {
                continue;
            }
            String line = facts.sourceLine(in);
            if (SourceText.hasConversionIntrinsic(line) || explicitRounding(in)) {
                continue; // __float2uint_rn & co: the saturating conversion was asked for
            }
            if (SourceText.callsExactRoutine(line) && facts.truncatedRoutineQuotient(in)) {
                continue; // remainderf's own quotient, below 2^24 (libdevice's code carries the calling line)
            }
            double max = bits == 64 ? 1.8446744073709552E19 : Math.pow(2, bits) - 1;
            double[] r = facts.ranges().range(in, in.operand(1));
            // a C cast truncates toward zero: a value in (-1, max + 1) converts into the range
            boolean truncates = in.rounding() == Instruction.Rounding.RZI;
            boolean lower = truncates ? r[0] > -1 : r[0] >= 0;
            boolean upper = truncates ? r[1] < max + 1 : r[1] <= max;
            if (lower && upper) {
                continue;
            }
            boolean integers = IntegerData.computedFromIntegers(facts, in, 1);
            // a constant operand (a template's limit cast to a narrower type: static_cast<uint8_t>(-FLT_MAX)) is
            // neither guarded nor a value that varies: say which constant it is and what the GPU makes of it
            boolean constant = r[0] == r[1];
            String guard = constant
                    ? ""
                    : lower
                            ? PtxMessages.format(ruleId(), "ptx-cvt-lower")
                            : upper ? PtxMessages.format(ruleId(), "ptx-cvt-upper") : "";
            if (integers && !constant) {
                // the note's reason in its message: no floating data reaches the conversion
                guard = " of integers and constants only" + guard;
            }
            String behaviour = constant
                    ? PtxMessages.format(
                            ruleId(),
                            "ptx-cvt-constant",
                            "value",
                            constantText(r[0]),
                            "gpu",
                            r[0] < 0 || Double.isNaN(r[0])
                                    ? "0"
                                    : bits == 64 ? "18446744073709551615" : Long.toString((long) max))
                    : lower
                            ? PtxMessages.format(
                                    ruleId(),
                                    "ptx-cvt-above",
                                    "max",
                                    bits == 64 ? "18446744073709551615" : Long.toString((long) max))
                            : PtxMessages.format(
                                    ruleId(),
                                    "ptx-cvt-negative",
                                    "wrapped",
                                    // x86 truncates toward zero to a wider signed integer, then keeps the low bits
                                    new java.math.BigInteger("2").pow(bits).subtract(java.math.BigInteger.valueOf(69)),
                                    "bits",
                                    bits);
            out.accept(new PtxHit(
                    ruleId(),
                    facts.function(),
                    in,
                    PtxMessages.message(
                            ruleId(), "ptx-cvt", "instr", in.text(), "behaviour", behaviour, "guard", guard),
                    line == null ? Confidence.MEDIUM : Confidence.HIGH,
                    List.of(),
                    in.mnemonic(),
                    // a value proven >= 0 converted to 32 or 64 bits leaves the range only above 4e9: a note, as the
                    // CUDA source layer rules (8 and 16 bits, a colour channel's 255, keep the error)
                    integers && !constant
                            ? new Consequence(
                                    Impact.Kind.BOUNDED,
                                    "of integers and constants only, no floating data to guard",
                                    null)
                            : lower && !constant && bits >= 32 && wideUses(facts, in)
                                    ? new Consequence(
                                            Impact.Kind.BOUNDED,
                                            "not negative: out of range only above "
                                                    + (bits == 64 ? "18446744073709551615" : Long.toString((long) max)),
                                            null)
                                    : new Consequence(
                                            Impact.Kind.AMPLIFIED, Consequences.phrase("ptx-use-integer"), null)));
        }
    }
}
