package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.cuda.facts.Site;
import dev.numlint.cuda.facts.ValueUse;
import java.util.List;
import java.util.Set;

/**
 * Comparisons that only decide whether something is printed: the condition of an {@code if} whose branches do nothing
 * but print ({@code if (fabsf(ux) > 0.1f) printf("...", ux);}, {@code std::cerr << ...}). A flip changes a diagnostic
 * line, not a value the program keeps, so the comparison is no use that decides something (session 51: eight warnings
 * of one immersed-boundary code were raised by debug prints, all judged not actionable). Clang's uses leave it out
 * ({@link ClangUses}) and the hand-written facts' uses of it are dropped ({@link #drop}, matched by line and text). A
 * branch that prints and does anything else (a {@code return}, an assignment, an abort) still decides.
 */
final class ClangPrintOnlyTests {
    private ClangPrintOnlyTests() {}

    private static final Set<String> PRINT = Set.of(
            "printf",
            "fprintf",
            "puts",
            "fputs",
            "putchar",
            "fputc",
            "fflush",
            "perror",
            "std::printf",
            "std::fprintf",
            "std::puts",
            "std::fputs",
            "std::fflush");

    /** Calls a print's argument may make without writing anything: math functions and plain accessors. */
    private static final java.util.regex.Pattern READS = java.util.regex.Pattern.compile(
            "(std::)?(f?abs|sqrt|cbrt|exp2?|log(2|10)?|pow|sin|cos|tan|a(sin|cos|tan)|atan2|floor|ceil|round|trunc"
                    + "|fmin|fmax|min|max|hypot|norm3d|rsqrt)[fl]?|c_str|size|length|data");

    private static final Set<String> STREAMS = Set.of("cout", "cerr", "clog", "std::cout", "std::cerr", "std::clog");

    /** Whether the comparison {@code cmp} only decides whether an {@code if} whose branches only print runs them. */
    static boolean printOnly(ClangNode cmp) {
        ClangNode c = cmp;
        ClangNode p = cmp.parent;
        while (p != null
                && (p.kind == CXCursor_ParenExpr
                        || p.kind == CXCursor_UnexposedExpr
                        || p.kind == CXCursor_BinaryOperator && (p.spelling.equals("&&") || p.spelling.equals("||"))
                        || p.kind == CXCursor_UnaryOperator && p.spelling.equals("!"))) {
            c = p;
            p = p.parent;
        }
        if (p == null || p.kind != CXCursor_IfStmt || p.children.size() < 2 || p.children.get(0) != c) return false;
        for (int i = 1; i < p.children.size(); i++) if (!prints(p.children.get(i))) return false;
        return true;
    }

    /** Whether a statement does nothing but print (a block of prints, an if that only prints, an empty statement). */
    private static boolean prints(ClangNode st) {
        ClangNode s = strip(st);
        if (s == null) return false;
        if (s.kind == CXCursor_NullStmt) return true;
        if (s.kind == CXCursor_CompoundStmt) {
            for (ClangNode c : s.children) if (!prints(c)) return false;
            return true;
        }
        if (s.kind == CXCursor_IfStmt && s.children.size() >= 2) {
            if (writes(s.children.get(0))) return false;
            for (int i = 1; i < s.children.size(); i++) if (!prints(s.children.get(i))) return false;
            return true;
        }
        if (s.kind != CXCursor_CallExpr) return false;
        String name = callee(s);
        if (PRINT.contains(name)) return !writesArguments(s);
        // std::cerr << "x = " << x << '\n': a chain of operator<< on a standard stream
        if (!name.equals("operator<<")) return false;
        ClangNode left = s;
        while (left != null && left.kind == CXCursor_CallExpr && callee(left).equals("operator<<")) {
            if (writesArguments(left)) return false;
            left = arguments(left).isEmpty() ? null : strip(arguments(left).get(0));
            if (left == null) {
                // a member operator<<: the stream is the callee's object
                return false;
            }
        }
        return left != null && left.kind == CXCursor_DeclRefExpr && STREAMS.contains(left.spelling);
    }

    /** Whether a print's arguments write anything ({@code printf("%d", i++)}) or call other functions. */
    private static boolean writesArguments(ClangNode call) {
        for (ClangNode a : arguments(call)) if (writes(a)) return true;
        return false;
    }

    private static boolean writes(ClangNode n) {
        boolean[] w = new boolean[1];
        n.forEach(x -> {
            if (assignment(x)) w[0] = true;
            else if (x != n && x.kind == CXCursor_CallExpr) {
                String f = callee(x);
                if (!f.equals("operator<<")
                        && !PRINT.contains(f)
                        && !READS.matcher(f).matches()) w[0] = true;
            }
        });
        return w[0];
    }

    /** Drops the hand-written facts' comparisons that only decide a print ({@link #printOnly}). */
    static void drop(ClangUnit unit, List<Site> sites) {
        for (Site site : sites) {
            site.dropUses(u -> u.kind() == ValueUse.Kind.COMPARISON && u.text() != null && at(unit, u));
        }
    }

    private static boolean at(ClangUnit unit, ValueUse u) {
        ClangSyntax.Comparison c = ClangSyntax.comparisonAt(unit, u.line(), u.text());
        return c != null && printOnly(c.node());
    }
}
