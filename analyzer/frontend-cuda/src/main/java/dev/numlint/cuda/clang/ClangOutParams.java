package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Variables a call defines through their address (the fact the hand-written front end's {@code
 * TopLevelSplitter.outParams} and {@code SyntaxQueries.collectOverwritten} compute from tokens): the pointer
 * parameters a function of the unit defines before it reads them (the first mention of {@code p} in its body is
 * {@code *p = ...} as a statement of the body's top level), and whether a call passes {@code &v} for one of them.
 * {@code hitSlab(ray, &tnear, &tfar)} in every iteration of a loop gives {@code tnear} a new value there: the loop
 * carries no sum into it. A name defined more than once (overloads) is left out: which definition a call reaches is
 * not decided here. The callees are the unit's functions and those of the headers read in the same parse ({@link
 * ClangIncludes#of}). Computed once per unit on request.
 */
final class ClangOutParams {
    private final ClangUnit unit;
    private Map<String, BitSet> outParams;

    ClangOutParams(ClangUnit unit) {
        this.unit = unit;
    }

    /** Whether {@code call} passes {@code &v}, with {@code v} the variable {@code usr}, to a parameter its callee defines. */
    synchronized boolean defines(ClangNode call, String usr) {
        if (call.kind != CXCursor_CallExpr || usr == null) return false;
        if (outParams == null) outParams = compute();
        BitSet defs = outParams.get(ClangSyntax.callee(call));
        if (defs == null) return false;
        List<ClangNode> args = arguments(call);
        for (int i = defs.nextSetBit(0); i >= 0 && i < args.size(); i = defs.nextSetBit(i + 1)) {
            ClangNode a = strip(args.get(i));
            if (a == null || a.kind != CXCursor_UnaryOperator || !a.spelling.equals("&") || a.children.size() != 1)
                continue;
            ClangNode v = strip(a.children.get(0));
            if (v != null && v.kind == CXCursor_DeclRefExpr && usr.equals(v.refUsr)) return true;
        }
        return false;
    }

    /**
     * The node whose place in the control flow stands for {@code n}'s: the {@code if} statement (or the whole
     * operator) when {@code n} is evaluated first in its condition, whatever the rest gives (the first operand of
     * {@code &&} and {@code ||}, under {@code !} and parentheses: {@code if (!hitSlab(r, &tnear, &tfar) || ...)});
     * {@code n} itself otherwise.
     */
    static ClangNode anchor(ClangNode n) {
        ClangNode c = n;
        ClangNode p = n.parent;
        while (p != null) {
            boolean first = !p.children.isEmpty() && p.children.get(0) == c;
            if (p.kind == CXCursor_ParenExpr
                    || p.kind == CXCursor_UnexposedExpr && p.children.size() == 1
                    || p.kind == CXCursor_UnaryOperator && p.spelling.equals("!")
                    || first
                            && p.kind == CXCursor_BinaryOperator
                            && (p.spelling.equals("&&") || p.spelling.equals("||"))) {
                c = p;
                p = p.parent;
                continue;
            }
            if (first && (p.kind == CXCursor_IfStmt || p.kind == CXCursor_SwitchStmt)) return p;
            break;
        }
        return c == n || p == null || !clang_isExpressionKind(c.kind) ? n : c;
    }

    private Map<String, BitSet> compute() {
        Map<String, BitSet> out = new HashMap<>();
        Set<String> twice = new HashSet<>();
        Set<String> seen = new HashSet<>();
        // the unit's functions and those of the headers read in its parse (a callee defined in an included header)
        List<ClangUnit.Function> functions = new java.util.ArrayList<>(unit.functions());
        for (ClangUnit h : ClangIncludes.of(unit).values()) if (h.failure() == null) functions.addAll(h.functions());
        for (ClangUnit.Function f : functions) {
            String name = ClangVariateParams.simpleName(f);
            if (!seen.add(name)) twice.add(name);
            BitSet defs = defined(f);
            if (!defs.isEmpty()) out.put(name, defs);
        }
        for (String t : twice) out.remove(t);
        return out;
    }

    /** The pointer parameters of {@code f} whose first mention is {@code *p = ...} at the body's top level. */
    private static BitSet defined(ClangUnit.Function f) {
        BitSet out = new BitSet();
        Map<String, Integer> pointers = new HashMap<>();
        ClangNode body = null;
        int k = 0;
        for (ClangNode c : f.node().children) {
            if (c.kind == CXCursor_ParmDecl) {
                if (c.usr != null && c.canonKind == CXType_Pointer) pointers.putIfAbsent(c.usr, k);
                k++;
            } else if (c.kind == CXCursor_CompoundStmt) body = c;
        }
        if (pointers.isEmpty() || body == null) return out;
        ClangNode top = body;
        body.forEach(x -> {
            if (x.kind != CXCursor_DeclRefExpr || x.refUsr == null) return;
            Integer i = pointers.remove(x.refUsr);
            if (i == null) return;
            ClangNode star = x.parent;
            while (star != null && star.kind == CXCursor_UnexposedExpr && star.children.size() == 1) star = star.parent;
            ClangNode assign = star == null ? null : star.parent;
            while (assign != null && assign.kind == CXCursor_ParenExpr) assign = assign.parent;
            boolean def = star != null
                    && star.kind == CXCursor_UnaryOperator
                    && star.spelling.equals("*")
                    && assign != null
                    && assign.kind == CXCursor_BinaryOperator
                    && assign.spelling.equals("=")
                    && !assign.children.isEmpty()
                    && strip(assign.children.get(0)) == star
                    && assign.parent == top
                    && !mentions(assign.children.get(assign.children.size() - 1), x.refUsr);
            if (def) out.set(i);
        });
        return out;
    }
}
