package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.Set;

/**
 * The Guidelines Support Library's unchecked narrowing, {@code gsl::narrow_cast<unsigned>(delay)}: a function
 * template whose body is a {@code static_cast}, written where the project wants to say "this narrowing is intended".
 * A float given to it is converted exactly as by the cast it wraps, so it is an explicit conversion of the call's
 * argument to the call's type. ({@code gsl::narrow} checks the round trip and throws: not one of these.)
 */
final class ClangNarrowCasts {
    private ClangNarrowCasts() {}

    private static final Set<String> NAMES = Set.of("narrow_cast");

    /** Whether {@code n} is a call of {@code narrow_cast<T>} with one argument. */
    static boolean is(ClangNode n) {
        return n.kind == CXCursor_CallExpr
                && NAMES.contains(n.spelling)
                && ClangSyntax.arguments(n).size() == 1
                && n.type != null
                && !n.type.isEmpty();
    }

    /** How the conversion is written: {@code gsl::narrow_cast<T>}. */
    static String how(ClangNode n) {
        return "gsl::narrow_cast<" + n.type + ">";
    }
}
