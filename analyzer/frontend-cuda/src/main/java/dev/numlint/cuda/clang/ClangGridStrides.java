package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * Whether an accumulation is a thread's share of a grid-stride sum: a loop around it, inside the one that declares
 * the accumulator, steps by the launch size ({@code i += blockDim.x * gridDim.x}), for {@link ClangSites}.
 */
final class ClangGridStrides {
    private final ClangUnit unit;

    /**
     * Per loop: the integral variables it adds to ({@code i += step}), each with whether a step names the launch
     * size; per function: its locals assigned from the launch size. Each is computed once: {@link #around} asked
     * them again for every accumulation site, every loop around it and every name in every step, each time walking the
     * whole function (quadratic or worse: session 26's defect 9, hypre's scan).
     */
    private final java.util.Map<ClangNode, java.util.Map<String, Boolean>> loopSteps =
            java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

    private final java.util.Map<ClangNode, java.util.Set<String>> launchLocals =
            java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

    ClangGridStrides(ClangUnit unit) {
        this.unit = unit;
    }

    /**
     * Whether a loop around {@code n} steps by blockDim or gridDim: a for statement's increment names them, or the
     * loop adds to an integer variable other than the accumulator ({@code i += gridSize} in a while loop) a step
     * that names them or reads a local of the function assigned from them ({@code gridSize = blockDim.x * 2 *
     * gridDim.x}), as the hand-written {@code AccumulationSites.stepsByLaunchSize}.
     */
    boolean around(ClangNode n, ClangUnit.Function fn, String acc) {
        for (ClangNode p = n.parent; p != null && p != fn.node(); p = p.parent) {
            // a loop whose body declares the accumulator restarts it: the loops around it carry no sum (a
            // convolution window's sum declared in a grid-stride loop is the window's, session 60)
            if (acc != null && isLoop(p) && declares(p, acc)) return false;
            if (p.kind == CXCursor_ForStmt && p.children.size() >= 3) {
                String step = unit.text(p.children.get(2));
                if (launchSize(step)) return true;
            }
            if (p.kind != CXCursor_ForStmt && p.kind != CXCursor_WhileStmt && p.kind != CXCursor_DoStmt) continue;
            java.util.Map<String, Boolean> steps = loopSteps.get(p);
            if (steps == null) {
                steps = launchSteps(p, fn);
                loopSteps.put(p, steps);
            }
            for (java.util.Map.Entry<String, Boolean> e : steps.entrySet()) {
                if (e.getValue() && !e.getKey().equals(acc)) return true;
            }
        }
        return false;
    }

    /** The integral variables {@code loop} adds to, each with whether one of its steps names the launch size. */
    private java.util.Map<String, Boolean> launchSteps(ClangNode loop, ClangUnit.Function fn) {
        java.util.Map<String, Boolean> out = new java.util.HashMap<>();
        loop.forEach(x -> {
            if (x.kind != CXCursor_CompoundAssignOperator || !x.spelling.equals("+=")) return;
            if (x.children.size() != 2) return;
            ClangNode v = strip(x.children.get(0));
            if (v == null || v.kind != CXCursor_DeclRefExpr || !integral(v.canonKind)) return;
            if (v.refUsr == null || Boolean.TRUE.equals(out.get(v.refUsr))) return;
            ClangNode step = x.children.get(1);
            boolean[] hit = {launchSize(unit.text(step))};
            step.forEach(r -> {
                if (!hit[0] && r.kind == CXCursor_DeclRefExpr && r.refUsr != null && launchSizeLocal(r.refUsr, fn))
                    hit[0] = true;
            });
            out.put(v.refUsr, hit[0]);
        });
        return out;
    }

    private static boolean launchSize(String text) {
        return text.contains("blockDim") || text.contains("gridDim");
    }

    /** Whether the local {@code usr} of {@code fn} is initialised or assigned from blockDim or gridDim. */
    private boolean launchSizeLocal(String usr, ClangUnit.Function fn) {
        java.util.Set<String> locals = launchLocals.get(fn.node());
        if (locals == null) {
            locals = launchLocals(fn);
            launchLocals.put(fn.node(), locals);
        }
        return locals.contains(usr);
    }

    /** The variables of {@code fn} initialised or assigned from blockDim or gridDim (one walk of the function). */
    private java.util.Set<String> launchLocals(ClangUnit.Function fn) {
        java.util.Set<String> out = new java.util.HashSet<>();
        fn.node().forEach(x -> {
            if (x.children.isEmpty()) return;
            ClangNode value = x.children.get(x.children.size() - 1);
            String usr = null;
            if (x.kind == CXCursor_VarDecl) usr = x.usr;
            else if (x.kind == CXCursor_BinaryOperator
                    && x.spelling.equals("=")
                    && x.children.size() == 2
                    && strip(x.children.get(0)) != null) usr = strip(x.children.get(0)).refUsr;
            if (usr != null && !out.contains(usr) && launchSize(unit.text(value))) out.add(usr);
        });
        return out;
    }
}
