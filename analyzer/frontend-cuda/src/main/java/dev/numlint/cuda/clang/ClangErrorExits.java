package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.Set;

/**
 * A call that ends a branch the way an early exit does: a C library function that does not return ({@code exit},
 * {@code abort}), or the project's error handler, by its name ({@code handleError(StkError::FUNCTION_ARGUMENT)} after
 * a test of an argument: STK's instruments, session 54, nine false NL001 errors; its handler throws for that error
 * type). A handler is taken as not returning and the guard it makes says so: where it only logs, the value converts
 * anyway, on a path the author marked as an error.
 */
final class ClangErrorExits {
    private ClangErrorExits() {}

    /** The C and C++ library functions that never return. */
    private static final Set<String> NO_RETURN = Set.of(
            "exit", "_exit", "_Exit", "quick_exit", "abort", "terminate", "longjmp", "siglongjmp", "err", "errx");

    /** Words of an error handler's name. */
    private static final java.util.regex.Pattern HANDLER =
            java.util.regex.Pattern.compile("(?i).*(error|fatal|panic|abort|throw|fail).*");

    /** What {@link #handler} names a fatal log message ({@code google::LogMessageFatal}) by. */
    static final String FATAL_LOG = "LogMessageFatal";

    /** The name of the call {@code s} ends with when it is such a call, else null. */
    static String handler(ClangNode s) {
        ClangNode n = strip(s);
        if (n == null || n.kind != CXCursor_CallExpr) return null;
        if (ClangChecks.fatal(n)) return FATAL_LOG; // glog's and Abseil's LOG(FATAL) << ...: aborts
        String name = callee(n).replace("std::", "");
        if (name.isEmpty()) return null;
        return NO_RETURN.contains(name)
                        || ClangChecks.ASSERT_FAIL.contains(name)
                        || HANDLER.matcher(name).matches()
                ? name
                : null;
    }

    /** How a guard names the call: a library exit as it is, a project's handler as taken to not return. */
    static String describe(ClangNode s) {
        String name = handler(s);
        if (name == null) return "'throw'";
        if (ClangChecks.ASSERT_FAIL.contains(name)) return "an abort"; // assert's '__assert_fail' and kin
        if (name.equals(FATAL_LOG)) return "a fatal log message";
        return NO_RETURN.contains(name) ? "'" + name + "()'" : "call of '" + name + "' (taken as not returning)";
    }

    /**
     * Whether the statement {@code s} is a throw: also under the cleanups of its temporaries ({@code throw
     * std::runtime_error(msg)}, an object with a destructor, is an ExprWithCleanups around the throw, session 82: a
     * docking code's {@code VINA_CHECK} throws such an object).
     */
    static boolean throwing(ClangNode s) {
        ClangNode n = strip(s);
        return n != null && n.kind == CXCursor_CXXThrowExpr;
    }
}
