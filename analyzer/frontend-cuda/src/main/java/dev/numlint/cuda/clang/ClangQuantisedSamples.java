package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The quantised-sample fact on Clang's tree: whether an integer conversion (an explicit cast, an implicit one, or a
 * rounding such as {@code __float2uint_rn}) only quantises a value into a narrow stored integer. Either the result is
 * stored into memory (an element, a member, a dereferenced pointer: not a local) as an integer of at most 16 bits, a
 * pixel or an audio sample, or made into a {@code make_uchar4}/{@code make_ushort2}; or it is one 8-bit colour
 * channel (a [0,1] value times 255, or a value clamped to [0,255]) packed into a word that is stored or returned. A
 * one-ulp difference upstream moves such an integer by one level where the value lies within that ulp of a step, the
 * size of the conversion's own rounding, and nothing reads the integer back as an index or a decision in the code
 * that made it. Used as an index, compared, kept in a local or in a wider integer, the value is no quantised sample
 * (a stored 32-bit integer may be a count or an index a later kernel reads). Whether the value fits the narrow type is
 * the conversion's own hazard (NL001, NL011). The hand-written front end's {@code ColourChannels} knows the packed
 * colour channel only.
 */
final class ClangQuantisedSamples {
    private static final Pattern MAKE_NARROW = Pattern.compile("make_u?(char|short)[1-4]");
    private static final Pattern MIN_MAX = Pattern.compile("f?(min|max)f?");
    /** Largest value of an 8-bit colour channel. */
    private static final double CHANNEL_MAX = 255;
    /** The widest integer that counts as a quantised sample, in bytes. */
    private static final int SAMPLE_BYTES = 2;

    private ClangQuantisedSamples() {}

    /**
     * What the integer conversion {@code conv} (an explicit or implicit cast, or a rounding call that returns an
     * integer) quantises its value into, for a message ("a stored 8-bit integer", "an 8-bit colour channel"), or null
     * when it is no quantised sample.
     */
    static String sample(ClangUnit unit, ClangNode conv, ClangUnit.Function fn) {
        boolean packed = false;
        int narrowest = integral(conv.canonKind) ? bytes(conv.canonKind) : Integer.MAX_VALUE;
        ClangNode cur = conv;
        for (int steps = 0; steps < 16; steps++) {
            ClangNode p = cur.parent;
            if (p == null) return null;
            if (p.kind == CXCursor_ParenExpr) {
                cur = p;
            } else if ((p.kind == CXCursor_UnexposedExpr || isExplicitCast(p)) && integral(p.canonKind)) {
                narrowest = Math.min(narrowest, bytes(p.canonKind));
                cur = p;
            } else if (p.kind == CXCursor_BinaryOperator && p.children.size() == 2 && p.spelling.equals("<<")) {
                Double by = constant(p.children.get(1));
                if (p.children.get(0) != cur || by == null || by % 8 != 0) return null;
                packed = true;
                cur = p;
            } else if (p.kind == CXCursor_BinaryOperator
                    && (p.spelling.equals("|") || p.spelling.equals("^") || p.spelling.equals("+"))) {
                packed = true;
                cur = p;
            } else if (p.kind == CXCursor_ReturnStmt) {
                return packed && channel(unit, conv, fn) ? "an 8-bit colour channel" : null;
            } else if ((p.kind == CXCursor_BinaryOperator && p.spelling.equals("=")
                            || p.kind == CXCursor_CompoundAssignOperator)
                    && p.children.size() == 2) {
                ClangNode lhs = strip(p.children.get(0));
                if (p.children.get(0) == cur || lhs == null || lhs.kind == CXCursor_DeclRefExpr) return null;
                if (!integral(lhs.canonKind) || lhs.canonKind == CXType_Bool) return null;
                if (packed) return channel(unit, conv, fn) ? "an 8-bit colour channel" : null;
                if (p.kind != CXCursor_BinaryOperator) return null;
                int b = Math.min(narrowest, bytes(lhs.canonKind));
                return b <= SAMPLE_BYTES ? "a stored " + (8 * b) + "-bit integer" : null;
            } else if (p.kind == CXCursor_CallExpr) {
                java.util.regex.Matcher m = MAKE_NARROW.matcher(callee(p));
                if (packed || p.children.indexOf(cur) <= 0 || !m.matches()) return null;
                return m.group(1).equals("char") ? "a stored 8-bit integer" : "a stored 16-bit integer";
            } else {
                return null;
            }
        }
        return null;
    }

    /** The operand of {@code conv} is a channel value: a [0,1] colour times 255, or a value clamped to [0,255]. */
    private static boolean channel(ClangUnit unit, ClangNode conv, ClangUnit.Function fn) {
        ClangNode operand = conv.kind == CXCursor_CallExpr ? lastArgument(conv) : operandOf(conv);
        return operand != null && channelRange(unit, operand, fn);
    }

    private static ClangNode lastArgument(ClangNode call) {
        List<ClangNode> args = arguments(call);
        return args.size() == 1 ? args.get(0) : null;
    }

    /** {@code e} is a channel value: a [0,1] colour times 255, or a value clamped to [0,255]. */
    private static boolean channelRange(ClangUnit unit, ClangNode e, ClangUnit.Function fn) {
        ClangNode p = strip(e);
        if (p == null) return false;
        if (p.kind == CXCursor_BinaryOperator && p.spelling.equals("*") && p.children.size() == 2) {
            // x * 255 maps [0,1] to a channel; whether x stays in [0,1] is the conversion's own hazard
            for (ClangNode c : p.children) {
                Double v = folded(c);
                if (v != null && v == CHANNEL_MAX) return true;
            }
            return false;
        }
        return clampedTo(unit, p, CHANNEL_MAX, fn, 0);
    }

    /**
     * {@code e} is clamped to [0,{@code hi}]: {@code __saturatef(x)} or {@code saturate(x)} (hi 1), {@code clamp(x,
     * lo, up)} or a min of a max (or a max of a min) of constants within [0,hi], or a variable or member last
     * assigned such a value before {@code e}.
     */
    private static boolean clampedTo(ClangUnit unit, ClangNode e, double hi, ClangUnit.Function fn, int depth) {
        ClangNode p = strip(e);
        if (p == null) return false;
        if (p.kind == CXCursor_CallExpr) {
            String name = callee(p).replace("std::", "");
            List<ClangNode> args = arguments(p);
            if (name.equals("__saturatef") || name.equals("saturate")) return hi == 1.0 && args.size() == 1;
            if (name.equals("clamp") && args.size() == 3) {
                Double lo = folded(args.get(1));
                Double up = folded(args.get(2));
                return lo != null && up != null && lo >= 0 && up <= hi;
            }
            if (args.size() == 2 && MIN_MAX.matcher(name).matches()) {
                boolean min = name.contains("min");
                for (int k = 0; k < 2; k++) {
                    Double c = folded(args.get(k));
                    if (c == null) continue;
                    if (min ? c > hi : c < 0) return false;
                    ClangNode q = strip(args.get(1 - k));
                    if (q == null || q.kind != CXCursor_CallExpr || arguments(q).size() != 2) return false;
                    String inner = callee(q).replace("std::", "");
                    if (!MIN_MAX.matcher(inner).matches() || inner.contains("min") == min) return false;
                    for (ClangNode ia : arguments(q)) {
                        Double v = folded(ia);
                        if (v != null) return min ? v >= 0 : v <= hi;
                    }
                    return false;
                }
            }
            return false;
        }
        if (depth > 0 || p.kind != CXCursor_DeclRefExpr && p.kind != CXCursor_MemberRefExpr) return false;
        // a variable or member: its last plain assignment (or initialization) before e is a clamp
        String target = squash(unit.text(p));
        ClangNode[] value = new ClangNode[1];
        int[] last = {-1};
        fn.node().forEach(d -> {
            if (d.offset < 0 || d.offset >= p.offset || d.offset < last[0]) return;
            if ((d.kind == CXCursor_BinaryOperator && d.spelling.equals("=")
                            || d.kind == CXCursor_CompoundAssignOperator)
                    && d.children.size() == 2) {
                if (!squash(unit.text(d.children.get(0))).equals(target)) return;
                last[0] = d.offset;
                value[0] = d.kind == CXCursor_BinaryOperator ? d.children.get(1) : null;
            } else if (d.kind == CXCursor_VarDecl && p.kind == CXCursor_DeclRefExpr && d.usr != null) {
                if (!d.usr.equals(p.refUsr)) return;
                last[0] = d.offset;
                ClangNode init = d.children.isEmpty() ? null : d.children.get(d.children.size() - 1);
                value[0] = init != null && clang_isExpressionKind(init.kind) ? init : null;
            }
        });
        return value[0] != null && clampedTo(unit, value[0], hi, fn, depth + 1);
    }
}
