package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The default arguments of declarations without a body ({@code Echo(unsigned long d = (unsigned long)
 * Stk::sampleRate());} in a class): expressions every call that omits the argument evaluates, so a conversion in them
 * is the program's as much as one in a body. A definition's own parameters are part of its walk; a declaration
 * without a body is no function of {@link ClangUnit#functions()}, and its default arguments were never visited
 * (session 54: a recall miss in a constructor's declaration). Each such declaration is visited as a function of its
 * own, with no body, for the facts that read expressions: nothing can guard a default argument.
 */
final class ClangDefaultArguments {
    private ClangDefaultArguments() {}

    /** {@link ClangUnit#eachInFunctions}, then every node of a default argument of a declaration without a body. */
    static void eachInFunctionsAndDefaults(ClangUnit unit, BiConsumer<ClangUnit.Function, ClangNode> f) {
        unit.eachInFunctions(f);
        for (ClangUnit.Function d : declarations(unit.top())) {
            for (ClangNode c : d.node().children) {
                if (c.kind == CXCursor_ParmDecl && !c.children.isEmpty()) c.forEach(n -> f.accept(d, n));
            }
        }
    }

    /** The declarations without a body that give a parameter a default value, as functions without a body. */
    static List<ClangUnit.Function> declarations(List<ClangNode> top) {
        List<ClangUnit.Function> out = new ArrayList<>();
        for (ClangNode n : ClangFunctions.declarations(top)) {
            if (!defaults(n)) continue;
            boolean device = false, global = false, host = false;
            for (ClangNode c : n.children) {
                if (c.kind == CXCursor_CUDADeviceAttr) device = true;
                else if (c.kind == CXCursor_CUDAGlobalAttr) global = true;
                else if (c.kind == CXCursor_CUDAHostAttr) host = true;
            }
            out.add(ClangFunctions.function(n.spelling, n, device || global, host, List.of()));
        }
        return out;
    }

    /** Whether {@code fn} has no body and a parameter with a default value (an expression below its declaration). */
    private static boolean defaults(ClangNode fn) {
        boolean any = false;
        for (ClangNode c : fn.children) {
            if (c.kind == CXCursor_CompoundStmt) return false;
            if (c.kind == CXCursor_ParmDecl
                    && c.children.stream().anyMatch(x -> ClangSyntax.clang_isExpressionKind(x.kind))) {
                any = true;
            }
        }
        return any;
    }
}
