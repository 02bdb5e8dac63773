package dev.numlint.ptx.sass;

import dev.numlint.ptx.model.Contraction;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.PtxFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Compares the {@link Contraction} model of a PTX function with the machine code ptxas made of it: for every
 * add/sub that ptxas may fuse ({@link Contraction#isContractibleAdd}), whether the SASS attributed to its PTX line
 * has a fused multiply-add (FFMA/DFMA) or a plain addition (FADD/DADD).
 */
public final class ContractionCheck {
    private ContractionCheck() {}

    /** Fused multiply-add opcodes (FP32 and FP64). */
    public static final Set<String> FMA = Set.of("FFMA", "FFMA32I", "DFMA");
    /** Plain addition opcodes (FP32 and FP64). */
    public static final Set<String> ADD = Set.of("FADD", "FADD32I", "DADD");

    /**
     * One contractible addition.
     *
     * @param instruction its index in the PTX function
     * @param ptxLine     its PTX line
     * @param predicted   what the model says: fused
     * @param observed    what the SASS says: true fused, false a separate addition, null neither is attributed to
     *                    the line (folded away or moved)
     * @param sass        the machine instructions attributed to the line
     */
    public record Observation(int instruction, int ptxLine, boolean predicted, Boolean observed, String sass) {
        /** Whether the model agrees with the machine code (false when the machine code says nothing). */
        public boolean agrees() {
            return observed != null && observed == predicted;
        }
    }

    /** The observations for one function; sassFunction is its section name in the listing (the PTX name). */
    public static List<Observation> compare(PtxFunction f, SassListing sass, String sassFunction) {
        Contraction c = Contraction.of(f);
        var byLine = sass.byLine(sassFunction);
        List<Observation> out = new ArrayList<>();
        for (Instruction in : f.instructions()) {
            if (!Contraction.isContractibleAdd(in)) continue;
            var at = byLine.getOrDefault(in.ptxLine(), List.of());
            boolean fma = at.stream().anyMatch(s -> FMA.contains(s.baseOpcode()));
            boolean add = at.stream().anyMatch(s -> ADD.contains(s.baseOpcode()));
            Boolean observed = fma && !add ? Boolean.TRUE : add && !fma ? Boolean.FALSE : null;
            out.add(new Observation(
                    in.index(),
                    in.ptxLine(),
                    c.isFused(in.index()),
                    observed,
                    at.stream().map(SassListing.SassInstruction::text).collect(Collectors.joining("; "))));
        }
        return out;
    }
}
