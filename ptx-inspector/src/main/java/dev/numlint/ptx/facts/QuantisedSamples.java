package dev.numlint.ptx.facts;

import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Operand;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.List;

/**
 * Quantised samples in PTX: a float-to-integer {@code cvt} whose result is only stored as a pixel or a sample (at
 * most 16 bits) or packed as an 8-bit colour channel. A one-ulp difference of the value moves such an integer by one
 * level at most, so the conversion is a bounded end of the value's path ({@link Consequences}), as a fixed-point
 * encoding is ({@link FixedPoints}). Stateless.
 */
final class QuantisedSamples {
    private QuantisedSamples() {}

    /** Largest value of an 8-bit colour channel. */
    private static final double CHANNEL_MAX = 255;

    /**
     * What {@code cvt} (float to integer) quantises its value into ("a stored 8-bit integer"), or null: its result is
     * only stored as an integer of at most {@value #SAMPLE_BITS} bits (a pixel, an audio sample; not into local
     * memory, which the thread may read back), or, packed into a word that is stored or returned, one 8-bit colour
     * channel whose operand is a [0,1] colour scaled by 255 or a value clamped to [0,255]. A one-ulp difference there
     * moves the stored integer by one level at most, the size of the conversion's own rounding; whether the value fits
     * is the cvt's own hazard (NL001). A value used as an index, compared, or stored into a wider integer is not one.
     * The CUDA source layer decides the same ({@code cuda/clang/ClangQuantisedSamples}).
     */
    static String sample(PtxFacts facts, Instruction cvt) {
        if (!PtxFacts.isF(cvt.sourceType())) {
            return null;
        }
        int stored = packedOnly(facts, cvt);
        if (stored == PACKED) {
            return channelRange(facts, cvt) ? "an 8-bit colour channel" : null;
        }
        return stored > 0 ? "a stored " + stored + "-bit integer" : null;
    }

    /** The converted value is a channel value: a [0,1] colour times 255, or a value clamped to [0,255]. */
    private static boolean channelRange(PtxFacts facts, Instruction cvt) {
        Instruction d = facts.defOf(cvt, 1);
        if (d == null) {
            return false;
        }
        if (d.opcode().equals("mul") && PtxFacts.isF(d.type())) {
            for (int k = 1; k <= 2; k++) {
                if (facts.constantValue(d, d.operand(k)) == CHANNEL_MAX) {
                    // a [0,1] colour times 255; whether it stays in range is the cvt's own hazard (NL001)
                    return true;
                }
            }
            return false;
        }
        return clamped(facts, d, CHANNEL_MAX);
    }

    /** {@code d} clamps its value to [0,{@code hi}]: a saturating instruction (hi 1) or a min and a max of constants. */
    private static boolean clamped(PtxFacts facts, Instruction d, double hi) {
        if (hi == 1.0 && d.sat() && PtxFacts.isF(d.type())) {
            return true; // cvt.sat.f32.f32, add.sat.f32, mul.sat.f32 ...: clamped to [0,1]
        }
        double lo = Double.NaN;
        double up = Double.NaN;
        Instruction cur = d;
        for (int step = 0; step < 2 && cur != null; step++) {
            String op = cur.opcode();
            if (!(op.equals("min") || op.equals("max")) || !PtxFacts.isF(cur.type())) {
                break;
            }
            int next = -1;
            for (int k = 1; k <= 2; k++) {
                double c = facts.constantValue(cur, cur.operand(k));
                if (!Double.isNaN(c)) {
                    if (op.equals("min")) {
                        up = c;
                    } else {
                        lo = c;
                    }
                    next = 3 - k;
                }
            }
            if (next < 0) {
                break;
            }
            cur = facts.defOf(cur, next);
        }
        return lo >= 0 && up <= hi;
    }

    /** Bits of one colour channel. */
    private static final int CHANNEL_BITS = 8;

    /** The widest stored integer that counts as a quantised sample. */
    static final int SAMPLE_BITS = 16;

    /** {@link #packedOnly}: the value reached a packed word. */
    private static final int PACKED = -1;

    /**
     * Where the integer result of {@code cvt} goes: {@link #PACKED} when only into packed words (through shifts by a
     * multiple of 8, or/add/xor/and, bit-field inserts, byte permutes, integer moves and narrowing conversions, to a
     * store of the word or a returned parameter), the widest store's bits when only stored unpacked as at most
     * {@value #SAMPLE_BITS} bits outside local memory, 0 otherwise.
     */
    private static int packedOnly(PtxFacts facts, Instruction cvt) {
        List<Instruction> ins = facts.function().instructions();
        ArrayDeque<int[]> work = new ArrayDeque<>();
        BitSet seen = new BitSet(ins.size());
        work.add(new int[] {cvt.index(), 0});
        seen.set(cvt.index());
        int steps = 0;
        int widest = 0;
        boolean anyPacked = false;
        while (!work.isEmpty()) {
            int[] cur = work.poll();
            Instruction def = ins.get(cur[0]);
            boolean packed = cur[1] == 1;
            for (int u : facts.defUse().users(cur[0])) {
                if (++steps > 64) {
                    return 0;
                }
                Instruction x = ins.get(u);
                String op = x.opcode();
                boolean nowPacked = packed;
                switch (op) {
                    case "st" -> {
                        if (usesInAddress(x, def) || !integerBits(x.type()) || "local".equals(x.space())) {
                            return 0;
                        }
                        if (packed) {
                            anyPacked = true;
                        } else if (bits(x.type()) > SAMPLE_BITS) {
                            return 0;
                        } else {
                            widest = Math.max(widest, bits(x.type()));
                        }
                        continue;
                    }
                    case "shl" -> {
                        if (!(x.operand(2) instanceof Operand.IntImm n)
                                || n.value() % CHANNEL_BITS != 0
                                || !(x.operand(1) instanceof Operand.Reg r && def.defines(r.name()))) {
                            return 0;
                        }
                        nowPacked = true;
                    }
                    case "or", "xor", "bfi", "prmt" -> nowPacked = true;
                    case "add", "and", "mov", "cvt" -> {
                        if (!integerBits(x.type())) {
                            return 0;
                        }
                        if (op.equals("add")) {
                            nowPacked = true;
                        }
                    }
                    default -> {
                        return 0;
                    }
                }
                if (!seen.get(u)) {
                    seen.set(u);
                    work.add(new int[] {u, nowPacked ? 1 : 0});
                }
            }
        }
        if (anyPacked) {
            return widest > CHANNEL_BITS ? 0 : PACKED;
        }
        return widest;
    }

    /** An integer or untyped-bits type ({@code u8}, {@code s32}, {@code b32}). */
    private static boolean integerBits(String t) {
        return t != null && (PtxFacts.isInteger(t) || t.matches("b\\d+"));
    }

    /** Width in bits of an integer or bit type ({@code u8}: 8, {@code b32}: 32), 64 when unknown. */
    private static int bits(String t) {
        try {
            return Integer.parseInt(t.substring(1));
        } catch (RuntimeException e) {
            return 64;
        }
    }

    /** {@code st}'s address operand reads a register {@code def} defines. */
    private static boolean usesInAddress(Instruction st, Instruction def) {
        List<String> addr = new java.util.ArrayList<>();
        Operand a = st.operand(0);
        if (a instanceof Operand.Address ad && ad.base() instanceof Operand.Reg r) {
            addr.add(r.name());
        } else if (a instanceof Operand.Reg r) {
            addr.add(r.name());
        }
        for (String d : def.defs()) {
            if (addr.contains(d)) {
                return true;
            }
        }
        return false;
    }
}
