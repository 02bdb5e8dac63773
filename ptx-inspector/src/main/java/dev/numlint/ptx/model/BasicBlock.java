package dev.numlint.ptx.model;

import java.util.ArrayList;
import java.util.List;

/** A basic block: instructions {@code first..last} (inclusive indices into the function's instruction list). */
public final class BasicBlock {
    private final int index;
    private final int first;
    private final int last;
    private final String label;
    final List<Integer> successors = new ArrayList<>(2);
    final List<Integer> predecessors = new ArrayList<>(2);

    BasicBlock(int index, int first, int last, String label) {
        this.index = index;
        this.first = first;
        this.last = last;
        this.label = label;
    }

    public int index() {
        return index;
    }

    public int first() {
        return first;
    }

    public int last() {
        return last;
    }
    /** The label at the start of the block, or null. */
    public String label() {
        return label;
    }

    public List<Integer> successors() {
        return successors;
    }

    public List<Integer> predecessors() {
        return predecessors;
    }

    public int size() {
        return last - first + 1;
    }

    @Override
    public String toString() {
        return "B" + index + (label == null ? "" : "(" + label + ")") + "[" + first + ".." + last + "]->" + successors;
    }
}
