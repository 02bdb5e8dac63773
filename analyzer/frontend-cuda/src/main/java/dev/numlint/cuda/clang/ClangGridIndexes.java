package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/** CUDA's built-in thread and block indices in the intervals ({@link ClangIntervals}). */
final class ClangGridIndexes {
    private ClangGridIndexes() {}

    /**
     * A conversion to a signed integer type ({@code int i = blockIdx.x * blockDim.x + threadIdx.x}) of unsigned
     * arithmetic (+ and *) of CUDA's built-in indices and dimensions and non-negative constants: the thread's index in
     * the grid, taken as fitting the signed type as every kernel that stores it in an int does, so non-negative.
     */
    static boolean signedIndex(ClangUnit unit, ClangNode cast, ClangNode operand) {
        if (!integral(cast.canonKind) || unsignedKind(cast.canonKind) || operand == null) return false;
        ClangNode x = strip(operand);
        return x != null && unsignedKind(x.canonKind) && builtInIndex(unit, x);
    }

    private static boolean builtInIndex(ClangUnit unit, ClangNode n) {
        ClangNode x = strip(n);
        if (x == null) return false;
        if (x.kind == CXCursor_BinaryOperator
                && x.children.size() == 2
                && (x.spelling.equals("+") || x.spelling.equals("*")))
            return builtInIndex(unit, x.children.get(0)) && builtInIndex(unit, x.children.get(1));
        if (x.value != null) return x.value >= 0;
        return BUILT_IN_INDEX.matcher(squash(unit.text(x))).matches();
    }

    private static final java.util.regex.Pattern BUILT_IN_INDEX =
            java.util.regex.Pattern.compile("(threadIdx|blockIdx|blockDim|gridDim)\\.[xyz]");
}
