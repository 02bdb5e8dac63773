package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The index of one function's body, built once on the first request and kept with the function's node: its nodes
 * in pre-order (every later walk of the body reads this array), the nodes of each line, and for each local the
 * declarations, references and writes. Analyses that asked "which node of line L" or "is this variable written" by
 * walking the whole body once per question (quadratic in the body: a 14,000-line file of stencil kernels spent most
 * of its analysis there) look it up here. Nothing here decides anything: it answers what the walks answered.
 */
final class ClangBodyIndex {
    /** The body in pre-order (the order of {@link ClangNode#forEach}). */
    private final ClangNode[] nodes;

    private final Map<Integer, List<ClangNode>> byLine = new HashMap<>();
    private final Map<String, Variable> variables = new HashMap<>();
    /** Results of derived questions about one variable, kept per question and variable. */
    private final Map<String, Object> derived = new ConcurrentHashMap<>();

    private static final Object NONE = new Object();

    /**
     * One variable of the body, by its unified symbol name.
     *
     * @param decls  its declarations ({@code VarDecl}, {@code ParmDecl}), in pre-order
     * @param refs   the references to it, in pre-order
     * @param writes the assignments, compound assignments, increments and decrements whose target is it
     */
    record Variable(List<ClangNode> decls, List<ClangNode> refs, List<ClangNode> writes) {}

    private static final Variable ABSENT = new Variable(List.of(), List.of(), List.of());

    private ClangBodyIndex(ClangNode root) {
        List<ClangNode> all = new ArrayList<>();
        root.forEach(all::add);
        nodes = all.toArray(new ClangNode[0]);
        for (ClangNode n : nodes) {
            byLine.computeIfAbsent(n.line, k -> new ArrayList<>(4)).add(n);
            if ((n.kind == CXCursor_VarDecl || n.kind == CXCursor_ParmDecl) && n.usr != null) {
                variable(n.usr).decls().add(n);
            }
            if (n.kind == CXCursor_DeclRefExpr && n.refUsr != null)
                variable(n.refUsr).refs().add(n);
            String w = writtenVariable(n);
            if (w != null) variable(w).writes().add(n);
        }
    }

    private Variable variable(String usr) {
        return variables.computeIfAbsent(
                usr, k -> new Variable(new ArrayList<>(2), new ArrayList<>(4), new ArrayList<>(2)));
    }

    /** The index of {@code fn}'s body. */
    static ClangBodyIndex of(ClangUnit.Function fn) {
        return of(fn.node());
    }

    /** The index of the subtree under {@code root} (a function's node), built on the first request. */
    static ClangBodyIndex of(ClangNode root) {
        Object x = root.index;
        if (x instanceof ClangBodyIndex b) return b;
        synchronized (root) {
            if (root.index instanceof ClangBodyIndex b) return b;
            ClangBodyIndex b = new ClangBodyIndex(root);
            root.index = b;
            root.preorder = b.nodes;
            return b;
        }
    }

    /** The nodes of the body that start on {@code line}, in pre-order. */
    List<ClangNode> onLine(int line) {
        return byLine.getOrDefault(line, List.of());
    }

    /** What the body holds about the variable {@code usr} (empty lists when it does not name it). */
    Variable of(String usr) {
        Variable v = usr == null ? null : variables.get(usr);
        return v == null ? ABSENT : v;
    }

    /**
     * A derived answer about one variable, computed once ({@code f} may ask further derived questions; null answers
     * are kept too).
     */
    @SuppressWarnings("unchecked")
    <T> T derived(String question, String usr, java.util.function.Supplier<T> f) {
        String key = question + '\u0000' + usr;
        Object v = derived.get(key);
        if (v == null) {
            T t = f.get();
            derived.put(key, t == null ? NONE : t);
            return t;
        }
        return v == NONE ? null : (T) v;
    }

    /** The variable an assignment, compound assignment, increment or decrement writes, or null. */
    static String writtenVariable(ClangNode x) {
        if (x.children.isEmpty()) return null;
        boolean assign = x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")
                || x.kind == CXCursor_CompoundAssignOperator
                || x.kind == CXCursor_UnaryOperator && (x.spelling.equals("++") || x.spelling.equals("--"));
        if (!assign) return null;
        ClangNode l = strip(x.children.get(0));
        return l != null && l.kind == CXCursor_DeclRefExpr ? l.refUsr : null;
    }
}
