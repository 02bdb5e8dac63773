package dev.numlint.ptx.model;

import java.util.List;

/**
 * Where an instruction came from, from the {@code .loc} directive that precedes it. {@code inlinedAt} is the chain
 * of call sites from the innermost ({@code inlinedAt.get(0)}, the direct call site of the inlined helper) to the
 * outermost (the call in the kernel's own code); empty when the instruction was not inlined.
 *
 * @param pos          the position as written in the .loc (possibly inside a header)
 * @param functionName the inlined function's name string label ({@code $L__info_string0}) or null
 * @param inlinedAt    call-site chain, innermost first
 */
public record DebugLoc(SourcePos pos, String functionName, List<SourcePos> inlinedAt) {
    public DebugLoc {
        inlinedAt = List.copyOf(inlinedAt);
    }

    /** The location in user code: the outermost call site when inlined, else the position itself. */
    public SourcePos userPos() {
        return inlinedAt.isEmpty() ? pos : inlinedAt.get(inlinedAt.size() - 1);
    }

    public boolean inlined() {
        return !inlinedAt.isEmpty();
    }
}
