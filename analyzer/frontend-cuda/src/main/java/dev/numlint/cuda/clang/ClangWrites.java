package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.written;
import static org.bytedeco.llvm.global.clang.CXCursor_DeclRefExpr;

import java.util.HashSet;
import java.util.Set;

/**
 * The variables each statement or loop writes, by node, read once per unit ({@link ClangIntervals}): the search for a
 * use's definition asks it of every statement before the use, for every use it follows (session 78 round F: a
 * geometric predicate's straight-line expansions walked the same statements again and again, past the per-file budget).
 */
final class ClangWrites {
    /** By node (identity: {@link ClangNode} keeps Object's equality). */
    private final java.util.Map<ClangNode, Set<String>> written = new java.util.concurrent.ConcurrentHashMap<>();

    /** Whether {@code n}'s subtree writes the variable {@code usr} ({@link ClangSyntax#writesIn}). */
    boolean in(ClangNode n, String usr) {
        return written.computeIfAbsent(n, k -> {
                    Set<String> w = new HashSet<>();
                    k.forEach(x -> {
                        if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null && written(x)) w.add(x.refUsr);
                    });
                    return w.isEmpty() ? Set.of() : w;
                })
                .contains(usr);
    }
}
