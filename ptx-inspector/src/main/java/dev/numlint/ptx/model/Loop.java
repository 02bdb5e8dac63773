package dev.numlint.ptx.model;

import java.util.BitSet;
import java.util.List;

/**
 * A natural loop found from back edges to {@link #header()}.
 *
 * @param header         header block index
 * @param latches        blocks with a back edge to the header
 * @param body           block indices of the loop (header included)
 * @param tripCount      estimated trip count, or -1 when unknown
 * @param tripCountBound true when {@code tripCount} is an upper bound rather than exact
 * @param inductionReg   the induction register compared with the exit bound, or null
 */
public record Loop(
        int header, List<Integer> latches, BitSet body, long tripCount, boolean tripCountBound, String inductionReg) {
    public boolean contains(int block) {
        return body.get(block);
    }

    public boolean tripCountKnown() {
        return tripCount >= 0;
    }
}
