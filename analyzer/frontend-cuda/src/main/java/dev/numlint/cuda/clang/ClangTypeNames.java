package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.HashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The type names a unit's parse (the compiled unit and its project headers) defines, at namespace scope, as floating
 * types and as unsigned integer types: {@code typedef float smpl_t;}, {@code using real = double;},
 * {@code typedef unsigned int uint_t;}; and the functions and member functions it declares with a floating result
 * ({@code BGFLOAT getDeltaT() const}). Code Clang did not compile (a preprocessor branch the build leaves out) is
 * read by its tokens, and uses the project's own names.
 */
public record ClangTypeNames(Set<String> floating, Set<String> unsigned, Set<String> floatingFunctions) {
    private static final Pattern FLOATING_RESULT = Pattern.compile("(float|double|long double) \\(.*");

    public static ClangTypeNames of(ClangUnit unit) {
        Set<String> floating = new HashSet<>(), unsigned = new HashSet<>(), functions = new HashSet<>();
        ClangIncludes.forEachNamespaceMember(unit, n -> {
            if ((n.kind == CXCursor_TypedefDecl || n.kind == CXCursor_TypeAliasDecl)
                    && n.spelling != null
                    && n.canon != null) {
                if (n.canon.equals("float") || n.canon.equals("double") || n.canon.equals("long double"))
                    floating.add(n.spelling);
                else if (n.canon.startsWith("unsigned ")) unsigned.add(n.spelling);
            }
            // a function, or a class's member functions (session 81 round I: a simulator's
            // static_cast<uint64_t>(simulator.getEpochDuration() / simulator.getDeltaT()) in an inactive branch)
            floatingResult(n, functions);
            if (n.kind == CXCursor_ClassDecl || n.kind == CXCursor_StructDecl || n.kind == CXCursor_ClassTemplate)
                for (ClangNode m : n.children) floatingResult(m, functions);
        });
        return new ClangTypeNames(Set.copyOf(floating), Set.copyOf(unsigned), Set.copyOf(functions));
    }

    private static void floatingResult(ClangNode n, Set<String> out) {
        boolean function =
                n.kind == CXCursor_FunctionDecl || n.kind == CXCursor_CXXMethod || n.kind == CXCursor_FunctionTemplate;
        if (function
                && n.spelling != null
                && n.canon != null
                && FLOATING_RESULT.matcher(n.canon).matches()) out.add(n.spelling);
    }
}
