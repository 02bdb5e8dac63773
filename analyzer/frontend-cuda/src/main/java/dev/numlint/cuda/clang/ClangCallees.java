package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The parameter a value passed to a call becomes, where the callee is a function of this file that the value walk
 * ({@link ClangUses}) can follow: a plain function (no template, no member: its body is the one the call runs) defined
 * in the file, called with one argument per parameter, the value passed by value to a floating parameter. Following
 * it there, what the helper does with the value is what the value decides (a sampling helper's bilinear index and
 * weight, its border test), instead of "passed to a function numlint does not follow" (session 86: an image rotation
 * through {@code sampleBilinearOrZero(input, ..., srcX, srcY, c)}).
 */
final class ClangCallees {
    private final ClangUnit unit;
    /** The file's function definitions by USR, on first request. */
    private Map<String, ClangUnit.Function> byUsr;

    /** A parameter of a callee: its declaration and the function it belongs to. */
    record Parameter(ClangNode decl, ClangUnit.Function callee) {}

    ClangCallees(ClangUnit unit) {
        this.unit = unit;
    }

    /** The parameter {@code arg} (a direct child of {@code call}) becomes, or null when the walk cannot follow it. */
    Parameter parameter(ClangNode call, ClangNode arg, ClangUnit.Function caller) {
        if (call.kind != CXCursor_CallExpr || call.children.isEmpty()) return null;
        ClangNode callee = strip(call.children.get(0));
        if (callee == null || callee.kind != CXCursor_DeclRefExpr || callee.refUsr == null) return null;
        ClangUnit.Function f = functions().get(callee.refUsr);
        if (f == null || f.template() || f.node() == caller.node()) return null;
        List<ClangNode> params = ClangCallSites.parameters(f.node());
        int k = call.children.indexOf(arg) - 1;
        if (k < 0 || params.size() != call.children.size() - 1) return null;
        ClangNode p = params.get(k);
        if (p.usr == null || !floating(p.canonKind)) return null;
        return new Parameter(p, f);
    }

    private synchronized Map<String, ClangUnit.Function> functions() {
        if (byUsr == null) {
            Map<String, ClangUnit.Function> m = new HashMap<>();
            for (ClangUnit.Function f : unit.functions()) {
                ClangNode n = f.node();
                // a member function's body runs on an object the walk does not know
                if (n.usr != null && n.kind == CXCursor_FunctionDecl) m.putIfAbsent(n.usr, f);
            }
            byUsr = m;
        }
        return byUsr;
    }
}
