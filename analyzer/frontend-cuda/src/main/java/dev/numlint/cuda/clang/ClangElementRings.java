package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.List;
import java.util.Map;

/**
 * A ring buffer's write pointer: the increment of a for header steps it ({@code i++, outptr++}) and the loop's body
 * wraps it back to the buffer's start when it reaches the end ({@code if (outptr >= bufEnd) outptr = ringBuf_;}). An
 * update {@code *outptr += x} then meets an element twice only where the loop runs past the ring's length: a sum
 * over the loop only under that condition, which {@link ClangElements#strided} names ("it runs past the end of the
 * ring (outptr >= bufEnd)"), as it names a stride that may be 0 (session 60: an audio library's band-limited step
 * inserted into its ring had been a false warning "the error grows with n").
 */
final class ClangElementRings {
    private ClangElementRings() {}

    /**
     * Adds to {@code strided} the loop of {@code chain} that steps the pointer {@code p} (an update's {@code *p}) as a
     * ring's, with the condition of a sum over it.
     */
    static void ring(ClangNode p, List<ClangNode> chain, Map<ClangNode, String> strided) {
        ClangNode x = strip(p);
        if (x == null || x.kind != CXCursor_DeclRefExpr || x.refUsr == null || x.canonKind != CXType_Pointer) return;
        String usr = x.refUsr;
        for (ClangNode loop : chain) {
            if (loop.kind != CXCursor_ForStmt || loop.children.size() != 4) continue;
            ClangNode wrap = wrap(loop, usr);
            if (wrap == null) continue;
            ClangNode test = wrap.children.get(0);
            strided.putIfAbsent(loop, "it runs past the end of the ring (" + textOf(test) + ")");
        }
    }

    /**
     * The wrap {@code if (p >= end) p = start;} of the body of {@code loop}, when the header's increment steps
     * {@code p} up by one ({@code p++}, {@code ++p}, {@code p += 1}) and nothing else in the loop writes it; else null.
     */
    private static ClangNode wrap(ClangNode loop, String usr) {
        int[] header = new int[1];
        loop.children.get(2).forEach(n -> {
            if (ClangLoops.writes(n, usr) && ClangCounterSteps.stepSign(n, usr) > 0) header[0]++;
        });
        if (header[0] != 1) return null;
        ClangNode body = loop.children.get(3);
        List<ClangNode> sts = body.kind == CXCursor_CompoundStmt ? body.children : List.of(body);
        ClangNode found = null;
        for (ClangNode st : sts) {
            if (st.kind != CXCursor_IfStmt || st.children.size() != 2) continue;
            ClangNode test = bare(st.children.get(0));
            ClangNode set = bare(soleStatement(st.children.get(1)));
            if (test == null || set == null || test.kind != CXCursor_BinaryOperator || test.children.size() != 2)
                continue;
            if (!List.of(">=", "==", ">").contains(test.spelling)) continue;
            ClangNode l = bare(test.children.get(0));
            if (l == null || l.kind != CXCursor_DeclRefExpr || !usr.equals(l.refUsr)) continue;
            if (set.kind != CXCursor_BinaryOperator || !set.spelling.equals("=") || set.children.size() != 2) continue;
            ClangNode target = bare(set.children.get(0)), start = bare(set.children.get(1));
            if (target == null || target.kind != CXCursor_DeclRefExpr || !usr.equals(target.refUsr)) continue;
            boolean named = start != null
                    && (start.kind == CXCursor_DeclRefExpr || ClangElementBases.thisMemberIn(start, loop));
            if (named) found = st;
        }
        if (found == null) return null;
        // no write of the pointer but the header's step and the wrap's assignment
        ClangNode wrap = found;
        int[] writes = new int[1];
        loop.forEach(n -> {
            if (ClangLoops.writes(n, usr) || n.kind == CXCursor_VarDecl && usr.equals(n.usr)) writes[0]++;
        });
        return writes[0] == 2 ? wrap : null;
    }

    private static String textOf(ClangNode test) {
        ClangNode a = bare(test.children.get(0)), b = bare(test.children.get(1));
        return name(a) + " " + test.spelling + " " + name(b);
    }

    private static String name(ClangNode n) {
        return n == null || n.spelling == null || n.spelling.isEmpty() ? "its end" : n.spelling;
    }
}
