package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.knowledge.RandomGenerators;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Random draws and random variates in a {@link ClangUnit} (the fact the hand-written front end's
 * {@code RandomDraws}/{@code RandomVariates} compute from tokens): whether an expression's value is computed from a
 * random draw. A draw is a call of a generator by its name ({@link RandomGenerators}: {@code curand_uniform},
 * {@code rand_next}, {@code rng.next()}, a {@code <random>} distribution or engine called), or of a function of the
 * unit that returns a value computed from one; a read of a local variable is a variate when a definition that
 * reaches it is (the last whole assignment before it and the updates since; inside a loop also what the loop assigns
 * later, unless a whole assignment in the loop comes before the read). A read inside a subscript does not count (a
 * table entry at a random index is one of the table's values). Computed on request, memoized per function.
 */
final class ClangRandom {
    private static final int DEPTH = 4;

    private final ClangUnit unit;
    private final Map<String, Boolean> returnsDraw = new HashMap<>();
    private final Set<String> inProgress = new HashSet<>();
    private final Map<ClangUnit.Function, Map<String, List<Def>>> defs = new HashMap<>();

    ClangRandom(ClangUnit unit) {
        this.unit = unit;
    }

    /** A definition of a local: its node, the value it stores, and whether it replaces the variable whole. */
    private record Def(ClangNode at, ClangNode value, boolean plain) {}

    /** Whether the value of {@code e} in {@code fn} is computed from a random draw. */
    synchronized boolean drawn(ClangNode e, ClangUnit.Function fn) {
        return e != null && fn != null && drawn(e, fn, DEPTH);
    }

    private boolean drawn(ClangNode e, ClangUnit.Function fn, int depth) {
        boolean[] hit = new boolean[1];
        java.util.ArrayDeque<ClangNode> todo = new java.util.ArrayDeque<>();
        todo.push(e);
        while (!todo.isEmpty() && !hit[0]) {
            ClangNode n = todo.pop();
            if (draws(n)) return true;
            if (n.kind == CXCursor_DeclRefExpr && n.refUsr != null && depth > 0 && !callee(n)) {
                if (variateRead(n, fn, depth)) return true;
            }
            for (int i = n.children.size() - 1; i >= 0; i--) {
                // a table entry at a random index is one of the table's values, not a continuous variate
                if (n.kind == CXCursor_ArraySubscriptExpr && i == 1) continue;
                todo.push(n.children.get(i));
            }
        }
        return hit[0];
    }

    /** Whether {@code n} is a call that draws (a generator, or a function of the unit returning a draw). */
    private boolean draws(ClangNode n) {
        if (n.kind != CXCursor_CallExpr && !(n.kind == CXCursor_UnexposedExpr && !n.children.isEmpty())) return false;
        if (n.children.isEmpty()) return false;
        ClangNode f = strip(n.children.get(0));
        if (f == null) return false;
        if (f.kind == CXCursor_MemberRefExpr) {
            ClangNode object = f.children.isEmpty() ? null : strip(f.children.get(0));
            String o = object == null ? null : unit.text(object);
            return RandomGenerators.isGeneratorMember(o, f.spelling);
        }
        if (f.kind != CXCursor_DeclRefExpr && f.kind != CXCursor_OverloadedDeclRef) return false;
        // an unresolved call (its callee undeclared: a library header not read) names it by reference
        if (n.kind == CXCursor_UnexposedExpr && f.kind != CXCursor_OverloadedDeclRef) return false;
        String name = !f.spelling.isEmpty() ? f.spelling : f.ref != null ? f.ref : "";
        if (n.kind == CXCursor_CallExpr && "operator()".equals(n.spelling)) {
            // dist(gen), gen(): a call of a <random> distribution or engine variable
            String type = f.type.replaceAll("<.*", "").replaceAll("\\b(const|volatile)\\b|[&\\s]", "");
            return RandomGenerators.isGeneratorType(type);
        }
        if (RandomGenerators.isGenerator(name)) return true;
        return returnsDraw(name);
    }

    /** Whether a function of the unit named {@code name} returns a value computed from a draw. */
    private boolean returnsDraw(String name) {
        Boolean known = returnsDraw.get(name);
        if (known != null) return known;
        if (!inProgress.add(name)) return false;
        boolean r = false;
        for (ClangUnit.Function fn : unit.functions()) {
            String simple = fn.name().substring(fn.name().lastIndexOf(':') + 1);
            if (!simple.equals(name)) continue;
            boolean[] hit = new boolean[1];
            fn.node().forEach(x -> {
                if (!hit[0] && x.kind == CXCursor_ReturnStmt && !x.children.isEmpty())
                    hit[0] = drawn(x.children.get(0), fn, DEPTH);
            });
            r |= hit[0];
        }
        inProgress.remove(name);
        returnsDraw.put(name, r);
        return r;
    }

    private static boolean callee(ClangNode ref) {
        ClangNode c = ref;
        ClangNode p = ref.parent;
        while (p != null && p.kind == CXCursor_UnexposedExpr && p.children.size() == 1) {
            c = p;
            p = p.parent;
        }
        return p != null && p.kind == CXCursor_CallExpr && !p.children.isEmpty() && p.children.get(0) == c;
    }

    /** Whether a definition of the local read at {@code ref} that reaches the read is drawn. */
    private boolean variateRead(ClangNode ref, ClangUnit.Function fn, int depth) {
        List<Def> ds = definitions(fn).get(ref.refUsr);
        if (ds == null) return false;
        List<Def> reaching = new ArrayList<>();
        // the last whole definition before the read and the updates since
        for (Def d : ds) {
            if (d.at.endOffset > ref.offset) break;
            if (d.plain) reaching.clear();
            reaching.add(d);
        }
        // a loop around the read: what it assigns after the read reaches the next iteration's read
        for (ClangNode p = ref.parent; p != null && p != fn.node(); p = p.parent) {
            if (p.kind != CXCursor_ForStmt && p.kind != CXCursor_WhileStmt && p.kind != CXCursor_DoStmt) continue;
            boolean killed = false;
            for (Def d : ds) {
                if (d.plain && d.at.offset > p.offset && d.at.endOffset <= ref.offset) killed = true;
            }
            if (killed) break;
            for (Def d : ds) if (d.at.offset > ref.endOffset && d.at.endOffset <= p.endOffset) reaching.add(d);
        }
        for (Def d : reaching) {
            if (d.at.offset <= ref.offset && d.at.endOffset >= ref.endOffset) continue; // x = x + ...: the read itself
            if (drawn(d.value, fn, depth - 1)) return true;
        }
        return false;
    }

    /** The definitions of each local and parameter of {@code fn}, in source order. */
    private Map<String, List<Def>> definitions(ClangUnit.Function fn) {
        return defs.computeIfAbsent(fn, f -> {
            Map<String, List<Def>> out = new HashMap<>();
            f.node().forEach(x -> {
                if (x.kind == CXCursor_VarDecl && x.usr != null && !x.children.isEmpty()) {
                    ClangNode init = x.children.get(x.children.size() - 1);
                    if (clang_isExpressionKind(init.kind))
                        out.computeIfAbsent(x.usr, k -> new ArrayList<>()).add(new Def(x, init, true));
                } else if ((x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")
                                || x.kind == CXCursor_CompoundAssignOperator)
                        && x.children.size() == 2) {
                    ClangNode l = strip(x.children.get(0));
                    if (l != null && l.kind == CXCursor_DeclRefExpr && l.refUsr != null) {
                        out.computeIfAbsent(l.refUsr, k -> new ArrayList<>())
                                .add(new Def(x, x.children.get(1), x.kind == CXCursor_BinaryOperator));
                    }
                }
            });
            return out;
        });
    }
}
