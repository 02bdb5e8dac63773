package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.CXCursor_TypeAliasDecl;
import static org.bytedeco.llvm.global.clang.CXCursor_TypedefDecl;

import java.util.HashSet;
import java.util.Set;

/**
 * The type names a unit's parse (the compiled unit and its project headers) defines, at namespace scope, as floating
 * types and as unsigned integer types: {@code typedef float smpl_t;}, {@code using real = double;},
 * {@code typedef unsigned int uint_t;}. Code Clang did not compile (a preprocessor branch the build leaves out) is
 * read by its tokens, and uses the project's own names.
 */
public record ClangTypeNames(Set<String> floating, Set<String> unsigned) {
    public static ClangTypeNames of(ClangUnit unit) {
        Set<String> floating = new HashSet<>(), unsigned = new HashSet<>();
        ClangIncludes.forEachNamespaceMember(unit, n -> {
            if ((n.kind == CXCursor_TypedefDecl || n.kind == CXCursor_TypeAliasDecl)
                    && n.spelling != null
                    && n.canon != null) {
                if (n.canon.equals("float") || n.canon.equals("double") || n.canon.equals("long double"))
                    floating.add(n.spelling);
                else if (n.canon.startsWith("unsigned ")) unsigned.add(n.spelling);
            }
        });
        return new ClangTypeNames(Set.copyOf(floating), Set.copyOf(unsigned));
    }
}
