package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The interval of {@code std::accumulate(first, last, init)} over a range of unsigned elements (an iterator of a
 * container of them, or a pointer to them) from an {@code init} that is not negative: not negative either, a sum of
 * non-negative terms (signed overflow being undefined, as for every integer sum the intervals keep). Session 67 round
 * E: a resampler's average advance, {@code accumulate(advances.begin(), advances.end(), 0) / advances.size()} over a
 * {@code std::vector<uint32_t>}, converted to {@code uint32_t} was an error "nothing bounds 'advance_avg' below".
 */
final class ClangAccumulations {
    private ClangAccumulations() {}

    /** The element type of an iterator or pointer type: its first template argument's pointee, or the pointee. */
    private static final Pattern ITERATOR = Pattern.compile("^[\\w:]*__normal_iterator<(?:const )?([\\w ]+?) \\*,");

    private static final Pattern UNSIGNED =
            Pattern.compile("^(?:const )?(?:unsigned (?:char|short|int|long|long long)|bool|char(?:8|16|32)_t)$");

    /** The interval of {@code call}, such an accumulation, or null. */
    static double[] interval(String name, ClangNode call, Function<ClangNode, double[]> eval) {
        if (!name.equals("accumulate") || call.kind != CXCursor_CallExpr) return null;
        List<ClangNode> args = arguments(call);
        if (args.size() != 3 || !integral(call.canonKind) && !floating(call.canonKind)) return null;
        if (!unsignedElements(args.get(0)) || !unsignedElements(args.get(1))) return null;
        double[] init = eval.apply(args.get(2));
        if (init == null || !(init[0] >= 0)) return null;
        // below the type's upper limit: an integer interval past it reads as the whole type (wrapped)
        double[] t = integral(call.canonKind)
                ? dev.numlint.knowledge.ValueBounds.ofInteger(bytes(call.canonKind), unsignedKind(call.canonKind))
                : null;
        return new double[] {init[0], t == null ? Double.POSITIVE_INFINITY : t[1]};
    }

    /** Whether {@code e}'s type is an iterator or pointer to unsigned integers. */
    private static boolean unsignedElements(ClangNode e) {
        ClangNode x = e;
        while (x != null && x.canon == null && x.children.size() == 1) x = x.children.get(0);
        String c = x == null ? null : x.canon;
        if (c == null) return false;
        String element = null;
        if (c.endsWith(" *")) element = c.substring(0, c.length() - 2).strip();
        else {
            Matcher m = ITERATOR.matcher(c);
            if (m.find()) element = m.group(1).strip();
        }
        return element != null && UNSIGNED.matcher(element).matches();
    }
}
