package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.model.FileCalls;
import java.util.ArrayList;
import java.util.List;

/**
 * The calls of a file Clang read whole, for the scan's review of what every call of a program passes
 * ({@link FileCalls}, {@code CallerRanges}): each call of a named function with the least value of each argument
 * ({@link ClangIntervals} in its caller, after the conversion to the parameter's type), and each other use of a
 * function's name (its address taken) or a call whose callee Clang did not resolve (a template's dependent call), which
 * leave that function's callers unknown. A file whose parse had errors gives none: what Clang recovered may have lost
 * calls, and the review then counts the file as unknown wherever it names the function.
 */
public final class ClangCalls {
    private ClangCalls() {}

    /**
     * The calls of {@code unit}'s file, reported as {@code rel}, or null when its parse failed or had errors. The
     * arguments' least values are computed for calls of the file's own functions and of those {@code project}
     * declares (the project headers the file reads); a call of any other function (a library's: {@code printf},
     * {@code XtSetArg}) is recorded as one whose values are not known, which keeps any finding that would need them
     * (reading every library call's arguments cost 13% of a plotting tool's scan).
     */
    public static FileCalls of(ClangUnit unit, String rel, java.util.function.Predicate<String> project) {
        if (unit == null || unit.failure() != null || unit.errors() > 0) return null;
        java.util.Set<String> own = new java.util.HashSet<>();
        for (ClangUnit.Function f : unit.functions()) if (f.node().usr != null) own.add(f.node().usr);
        List<FileCalls.Call> out = new ArrayList<>();
        for (ClangNode top : unit.top()) {
            top.forEach(n -> {
                if (n.kind == CXCursor_CallExpr) {
                    ClangNode c = n.children.isEmpty() ? null : strip(n.children.get(0));
                    if (c == null || c.kind == CXCursor_MemberRefExpr) return; // a member: not followed
                    if (c.kind == CXCursor_DeclRefExpr && function(c)) {
                        boolean known = own.contains(c.refUsr) || project.test(c.spelling);
                        out.add(new FileCalls.Call(n.line, c.refUsr, c.spelling, known ? lows(unit, n) : null));
                    } else if (c.kind == CXCursor_OverloadedDeclRef
                            || c.kind == CXCursor_DeclRefExpr && c.refUsr == null) {
                        String name = callee(n);
                        if (!name.isEmpty()) out.add(new FileCalls.Call(n.line, null, name, null));
                    }
                } else if (n.kind == CXCursor_DeclRefExpr && function(n) && ClangCallSites.callOf(n) == null) {
                    out.add(new FileCalls.Call(n.line, n.refUsr, n.spelling, null)); // its address, passed on
                }
            });
        }
        return new FileCalls(rel, out);
    }

    /** Whether a reference names a function (its type is one). */
    private static boolean function(ClangNode ref) {
        return ref.refUsr != null && (ref.canonKind == CXType_FunctionProto || ref.canonKind == CXType_FunctionNoProto);
    }

    /** The least value of each argument of {@code call} (null: no lower bound, or no number). */
    private static List<Double> lows(ClangUnit unit, ClangNode call) {
        List<ClangNode> args = arguments(call);
        List<Double> out = new ArrayList<>(args.size());
        ClangUnit.Function in = unit.functionOf(call);
        for (ClangNode a : args) {
            if (in == null || !(integral(a.canonKind) || floating(a.canonKind))) {
                out.add(null);
                continue;
            }
            double lo = unit.interval(a, in)[0];
            out.add(Double.isFinite(lo) ? lo : null);
        }
        return out;
    }
}
