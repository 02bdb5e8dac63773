package dev.numlint.cuda.clang;

import java.util.ArrayList;
import java.util.List;

/**
 * One cursor of a translation unit's main file, copied out of libclang so that the analyses run after the
 * translation unit is disposed, on any thread. Positions are the expansion locations (the line a macro is written
 * on); types are kept as written and canonical (through typedefs and template arguments).
 */
public final class ClangNode {
    /** The cursor kind ({@code CXCursor_*}). */
    public final int kind;
    /** The cursor's spelling: a declaration's name, an operator ("+", "/=") or a callee. */
    public final String spelling;
    /** The type as written, "" when the cursor has none. */
    public final String type;
    /** The canonical type's kind ({@code CXType_*}) and spelling. */
    public final int canonKind;

    public final String canon;
    /** For a pointer or array type: the canonical element type's kind and spelling; else 0 and null. */
    public final int pointeeKind;

    public final String pointee;
    public final int line;
    public final int column;
    public final int endLine;
    public final int endColumn;
    /** Byte offsets of the extent in the main file (end exclusive), -1 when the extent lies elsewhere. */
    public final int offset;

    public final int endOffset;
    /** The compile-time value of an arithmetic expression, or null. */
    public final Double value;
    /** What a reference, member reference or call names: the referenced declaration's spelling, or null. */
    public final String ref;
    /** The referenced declaration's unified symbol name (identity of a variable across uses), or null. */
    public final String refUsr;
    /** For a declaration, its unified symbol name; else null. */
    public final String usr;

    final List<ClangNode> children = new ArrayList<>(2);
    ClangNode parent;

    ClangNode(
            int kind,
            String spelling,
            String type,
            int canonKind,
            String canon,
            int pointeeKind,
            String pointee,
            int line,
            int column,
            int endLine,
            int endColumn,
            int offset,
            int endOffset,
            Double value,
            String ref,
            String refUsr,
            String usr) {
        this.kind = kind;
        this.spelling = spelling;
        this.type = type;
        this.canonKind = canonKind;
        this.canon = canon;
        this.pointeeKind = pointeeKind;
        this.pointee = pointee;
        this.line = line;
        this.column = column;
        this.endLine = endLine;
        this.endColumn = endColumn;
        this.offset = offset;
        this.endOffset = endOffset;
        this.value = value;
        this.ref = ref;
        this.refUsr = refUsr;
        this.usr = usr;
    }

    /**
     * A product {@code a * b} that the code computes in two statements (a local scaled by {@code *=}), as one node for
     * an analysis that reads its factors ({@link ClangConvexWeights}); its operands keep their own parents.
     */
    static ClangNode product(ClangNode a, ClangNode b) {
        return binary("*", a.type, a.canonKind, a.canon, a, b, a, b);
    }

    /**
     * The comparison {@code a op b} that a statement {@code at} checks without writing it (a macro's check, {@link
     * ClangChecks#checkOp}), located at {@code at}; its operands keep their own parents.
     */
    static ClangNode comparison(String op, ClangNode a, ClangNode b, ClangNode at) {
        return binary(op, "bool", org.bytedeco.llvm.global.clang.CXType_Bool, "bool", a, b, at, at);
    }

    /** A synthetic binary operator of operands {@code a} and {@code b}, spanning {@code from} to {@code to}. */
    private static ClangNode binary(
            String op,
            String type,
            int canonKind,
            String canon,
            ClangNode a,
            ClangNode b,
            ClangNode from,
            ClangNode to) {
        ClangNode n = new ClangNode(
                org.bytedeco.llvm.global.clang.CXCursor_BinaryOperator,
                op,
                type,
                canonKind,
                canon,
                0,
                null,
                from.line,
                from.column,
                to.endLine,
                to.endColumn,
                from.offset,
                to.endOffset,
                null,
                null,
                null,
                null);
        n.children.add(a);
        n.children.add(b);
        return n;
    }

    public List<ClangNode> children() {
        return children;
    }

    public ClangNode parent() {
        return parent;
    }

    /** Whether {@code other} lies inside this node's extent. */
    public boolean contains(ClangNode other) {
        return offset >= 0 && other.offset >= offset && other.endOffset <= endOffset;
    }

    /**
     * This subtree in pre-order, kept for a function's node by {@link ClangBodyIndex} (a function body is walked by
     * many analyses; the tree does not change once read).
     */
    volatile ClangNode[] preorder;

    /**
     * For a function definition that writes no execution space: the CUDA spaces its first declaration names
     * ({@link ClangSpaces}: 1 device, 2 host, 4 global; 0 none), as an out-of-line member definition takes its
     * class's {@code __host__ __device__} declaration's.
     */
    int declaredSpaces;

    /** The facts a function's body keeps ({@link ClangBodyIndex}), built on the first request. */
    volatile Object index;

    /**
     * This node and every node below it, in source order (pre-order). Every walk of Clang's facts goes through here, so
     * the calling thread's work budget ({@link dev.numlint.model.WorkBudget}, a per-file budget) is checked at each node.
     */
    public void forEach(java.util.function.Consumer<ClangNode> f) {
        ClangNode[] kept = preorder;
        dev.numlint.model.WorkBudget.Meter budget = dev.numlint.model.WorkBudget.meter();
        if (kept != null) {
            for (ClangNode n : kept) {
                budget.check();
                f.accept(n);
            }
            return;
        }
        java.util.ArrayDeque<ClangNode> stack = new java.util.ArrayDeque<>();
        stack.push(this);
        while (!stack.isEmpty()) {
            ClangNode n = stack.pop();
            budget.check();
            f.accept(n);
            for (int i = n.children.size() - 1; i >= 0; i--) stack.push(n.children.get(i));
        }
    }

    /** The first child, skipping wrappers that add nothing (implicit conversions show as unexposed expressions). */
    ClangNode child(int i) {
        return i < children.size() ? children.get(i) : null;
    }

    @Override
    public String toString() {
        return line + ":" + column + " " + kind + " '" + spelling + "' : " + canon;
    }
}
