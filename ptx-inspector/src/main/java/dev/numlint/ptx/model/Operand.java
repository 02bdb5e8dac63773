package dev.numlint.ptx.model;

import java.util.List;

/**
 * A typed instruction operand. Records are immutable; {@link Label} operands carry the resolved instruction index
 * of their target within the enclosing function.
 */
public sealed interface Operand
        permits Operand.Reg,
                Operand.IntImm,
                Operand.FloatImm,
                Operand.Symbol,
                Operand.Label,
                Operand.Address,
                Operand.Offset,
                Operand.Vector,
                Operand.ParenList,
                Operand.Not,
                Operand.PredPair,
                Operand.Sink {

    /** A register, e.g. {@code %f1}; {@code component} is the suffix of {@code %tid.x} ("x") or null. */
    record Reg(String name, String component) implements Operand {
        private static final java.util.Set<String> SPECIAL = java.util.Set.of(
                "%tid",
                "%ntid",
                "%ctaid",
                "%nctaid",
                "%laneid",
                "%warpid",
                "%nwarpid",
                "%smid",
                "%nsmid",
                "%gridid",
                "%clock",
                "%clock64",
                "%clock_hi",
                "%lanemask_eq",
                "%lanemask_le",
                "%lanemask_lt",
                "%lanemask_ge",
                "%lanemask_gt",
                "%globaltimer",
                "%globaltimer_lo",
                "%globaltimer_hi",
                "%dynamic_smem_size",
                "%total_smem_size",
                "%clusterid",
                "%nclusterid",
                "%cluster_ctaid",
                "%cluster_nctaid",
                "%cluster_ctarank",
                "%cluster_nctarank",
                "%is_explicit_cluster",
                "%aggr_smem_size",
                "%reserved_smem_offset_begin",
                "%reserved_smem_offset_end",
                "%reserved_smem_offset_cap",
                "%current_graph_exec");

        /** Special (read-only, hardware-provided) register such as {@code %tid.x} or {@code %laneid}. */
        public boolean isSpecial() {
            // fast path: numbered virtual registers (%r12, %fd3, %p1) are never special
            int n = name.length();
            if (n > 1
                    && Character.isDigit(name.charAt(n - 1))
                    && !name.startsWith("%envreg")
                    && !name.startsWith("%pm")
                    && !name.startsWith("%clock64")) {
                return false;
            }
            return SPECIAL.contains(name) || name.startsWith("%envreg") || name.startsWith("%pm");
        }

        @Override
        public String toString() {
            return component == null ? name : name + "." + component;
        }
    }

    /** Integer immediate (decimal, hex 0x.., binary 0b.., possibly negative). */
    record IntImm(long value) implements Operand {
        @Override
        public String toString() {
            return Long.toString(value);
        }
    }

    /**
     * Floating-point immediate with its exact bits: {@code 0f3F800000} (double=false, bits of the float in the low
     * 32 bits) or {@code 0d3FF0000000000000}; decimal literals are converted to double bits.
     */
    record FloatImm(long bits, boolean isDouble) implements Operand {
        public double value() {
            return isDouble ? Double.longBitsToDouble(bits) : Float.intBitsToFloat((int) bits);
        }

        public float floatValue() {
            return isDouble ? (float) Double.longBitsToDouble(bits) : Float.intBitsToFloat((int) bits);
        }

        @Override
        public String toString() {
            return isDouble ? String.format("0d%016X", bits) : String.format("0f%08X", bits & 0xFFFFFFFFL);
        }
    }

    /** A name that is not a register: a variable, function, parameter or (before resolution) a label. */
    record Symbol(String name) implements Operand {
        @Override
        public String toString() {
            return name;
        }
    }

    /** A branch target: label name and resolved instruction index within the function (-1 when unresolved). */
    record Label(String name, int target) implements Operand {
        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * A memory operand {@code [base+offset]}: base is a {@link Reg}, a {@link Symbol} or null for an absolute
     * address; {@code extra} holds further comma-separated parts (texture/surface coordinates) or is empty.
     */
    record Address(Operand base, long offset, List<Operand> extra) implements Operand {
        @Override
        public String toString() {
            String b = base == null ? "" : base.toString();
            String o = offset == 0
                    ? (base == null ? "0" : "")
                    : (offset > 0 && base != null ? "+" + offset : Long.toString(offset));
            return "[" + b + o + (extra.isEmpty() ? "" : ", " + extra) + "]";
        }
    }

    /** A non-bracketed {@code symbol+offset} expression, e.g. {@code mov.u64 %rd1, arr+8;}. */
    record Offset(Operand base, long offset) implements Operand {
        @Override
        public String toString() {
            return base + (offset >= 0 ? "+" : "") + offset;
        }
    }

    /** A vector operand {@code {%f1, %f2}}. */
    record Vector(List<Operand> elements) implements Operand {
        @Override
        public String toString() {
            return elements.toString().replace('[', '{').replace(']', '}');
        }
    }

    /** A parenthesized list (call return values and arguments). */
    record ParenList(List<Operand> elements) implements Operand {
        @Override
        public String toString() {
            return elements.toString().replace('[', '(').replace(']', ')');
        }
    }

    /** A negated predicate operand {@code !%p1}. */
    record Not(Operand operand) implements Operand {
        @Override
        public String toString() {
            return "!" + operand;
        }
    }

    /** A predicate pair destination {@code %p1|%p2} (setp). */
    record PredPair(Reg first, Reg second) implements Operand {
        @Override
        public String toString() {
            return first + "|" + second;
        }
    }

    /** The sink operand {@code _}. */
    record Sink() implements Operand {
        @Override
        public String toString() {
            return "_";
        }
    }
}
