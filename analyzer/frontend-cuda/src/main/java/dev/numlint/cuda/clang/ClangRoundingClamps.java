package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.Set;

/**
 * A rounded integer clamped from below before anything else reads it: {@code sel = (int)(x * f + .5f); sel =
 * clampi(sel, 1, N - 1);} or {@code clampi((int)(v / 2.0f + .5f) * 2 + p, p, hi)}. Adding one half and truncating
 * rounds a negative value toward zero ({@code -2.7f} gives -2, not -3), but every value where that differs from
 * rounding is at most 0 before the clamp, and the clamp's lower bound is at least what 0 maps to: both roundings give
 * the bound (session 51: eleven NL013 warnings of a texture compressor, all judged false). The rounded value may be
 * scaled by a non-negative constant and offset ({@code r * 2 + p}) on its way, when the clamp's lower bound is that
 * offset (the same text) or a constant at least the offset's constant; stored in a local, the clamp must be the next
 * statement and assign the same local ({@code v = clamp(v, lo, hi)}, {@code v = std::max(v, 0)}) or return it clamped
 * ({@code return std::max(v, 1);}), or the next statement's value is one for every value at most 0 of the local
 * ({@code v = MIN(MAX(0, v), 64);} of macros, {@link ClangLowerClamps}), or a test among the clamps by tests that
 * follow it ({@code if (v >= N) v = N - 1; if (v < 0) v = 0;}, {@link ClangClampTests}).
 */
final class ClangRoundingClamps {
    private ClangRoundingClamps() {}

    private static final Set<String> CLAMPS = Set.of("clamp", "clampi", "iclamp", "clamp_int", "Clamp");
    private static final Set<String> MAXIMA = Set.of("max", "imax", "maxi", "Max");

    /**
     * What follows or scales a converted value: the clamp that bounds a rounded one from below ({@link #clampedBelow}),
     * or null; the fraction bits of a conversion to fixed point ({@link ClangFixedPoints}), or 0 (both to a signed
     * type only); the print call that is its only use ({@link ClangPrintedValues}), or null.
     */
    record Rounding(String clamp, int fixedBits, String printedBy, String quantised) {
        /** Files what is known into {@code f} under the conversion's site {@code at} ("line:column"). */
        void fileInto(dev.numlint.cuda.facts.FunctionFacts f, String at) {
            if (clamp != null) f.clampedRoundings.put(at, clamp);
            if (fixedBits > 0) f.fixedPointRoundings.put(at, fixedBits);
            if (printedBy != null) f.printedConversions.put(at, printedBy);
            if (quantised != null) f.quantisedRoundings.put(at, quantised);
        }
    }

    /**
     * Per conversion of the unit ("line:column"): its clamp, its fixed-point scale, its print call and what it only
     * quantises into, where known.
     */
    static java.util.Map<String, Rounding> of(ClangUnit unit) {
        java.util.Map<String, Rounding> out = new java.util.HashMap<>();
        for (ClangUnit.Conversion k : unit.conversions()) {
            String clamp = k.unsigned() ? null : clampedBelow(unit, k.node());
            int bits = k.unsigned() ? 0 : ClangFixedPoints.bits(unit, k);
            String printed = ClangPrintedValues.printedBy(unit, k.node());
            String quantised = k.unsigned() ? null : ClangQuantisedSamples.sample(unit, k.node(), k.in());
            if (clamp != null || bits > 0 || printed != null || quantised != null)
                out.putIfAbsent(
                        k.node().line + ":" + unit.utf16Column(k.node()),
                        new Rounding(clamp, bits, printed, quantised));
        }
        return out;
    }

    /** The clamp that bounds the rounded value of {@code cast} from below, as "clampi at line 12", or null. */
    static String clampedBelow(ClangUnit unit, ClangNode cast) {
        ClangNode c = cast;
        ClangNode p = cast.parent;
        ClangNode offset = null;
        while (p != null) {
            if (p.kind == CXCursor_ParenExpr || p.kind == CXCursor_UnexposedExpr) {
                // parentheses and implicit conversions
            } else if (p.kind == CXCursor_BinaryOperator && p.children.size() == 2 && p.spelling.equals("*")) {
                Double k = folded(p.children.get(p.children.get(0) == c ? 1 : 0));
                if (k == null || k < 0) return null;
            } else if (p.kind == CXCursor_BinaryOperator && p.children.size() == 2 && p.spelling.equals("+")) {
                if (offset != null) return null;
                offset = p.children.get(p.children.get(0) == c ? 1 : 0);
            } else break;
            c = p;
            p = p.parent;
        }
        if (p == null) return null;
        if (p.kind == CXCursor_CallExpr) return bound(unit, p, c, offset);
        if (offset == null) {
            String copies = conditionalClamp(p, c);
            if (copies != null) return copies;
        }
        String element = elementClamp(unit, p, c, offset);
        if (element != null) return element;
        if (offset != null) return null;
        // stored in a local: the next statement clamps that local
        String usr = null;
        ClangNode stmt = null;
        if (p.kind == CXCursor_VarDecl && p.usr != null) {
            usr = p.usr;
            stmt = p.parent;
        } else if (p.kind == CXCursor_BinaryOperator
                && p.spelling.equals("=")
                && p.children.size() == 2
                && p.children.get(1) == c) {
            ClangNode lhs = strip(p.children.get(0));
            if (lhs != null && lhs.kind == CXCursor_DeclRefExpr) usr = lhs.refUsr;
            stmt = p;
        }
        if (usr == null || stmt == null || stmt.parent == null || stmt.parent.kind != CXCursor_CompoundStmt)
            return null;
        int at = stmt.parent.children.indexOf(stmt);
        if (at < 0 || at + 1 >= stmt.parent.children.size()) return null;
        // ccv_max((int)(x + .5), 1) of a macro ({ typeof(a) _a = (a); typeof(b) _b = (b); _a > _b ? _a : _b; })
        // (session 72 round E: a tracker's patch size): the block's value settles the local
        ClangNode value = stmtExprValue(stmt.parent.parent);
        if (value != null && p.kind == CXCursor_VarDecl) {
            java.util.Map<String, Double> constants = declaredConstants(stmt.parent, usr);
            return constants != null && ClangLowerClamps.settles(value, usr, constants)
                    ? "clamp at line " + stmt.parent.parent.line
                    : null;
        }
        // if (v >= N) v = N - 1; if (v < 0) v = 0; (session 52: a Vorbis noise mask's int dB = logmask[i] + .5)
        // statements that do not name the local may come between (four selectors rounded, then clamped one by one:
        // session 73 round D, a texture transcoder)
        for (int k = at + 1; k < stmt.parent.children.size(); k++) {
            ClangNode st = stmt.parent.children.get(k);
            int side = ClangClampTests.side(st, usr);
            if (side == 0 && ClangLowerClamps.reads(st, usr)) break;
            if (side < 0) return "test at line " + st.line;
        }
        ClangNode next = strip(stmt.parent.children.get(at + 1));
        // return std::max(length, 1); (session 53: a reverb's delay lengths)
        if (next != null && next.kind == CXCursor_ReturnStmt && next.children.size() == 1) {
            String k = clampOf(unit, strip(next.children.get(0)), usr);
            return k != null || !ClangLowerClamps.settles(next.children.get(0), usr) ? k : "clamp at line " + next.line;
        }
        // dst[x] = (uint8_t)clamp<int>(j, 0, 255); or table[clamp(j, 0, N - 1)] with j read nowhere else (session 73
        // round D: a texture encoder's sRGB conversion): every read is a clamp's, from 0 up
        String clamped = next == null ? null : clampedReads(unit, next, usr);
        if (clamped != null && ClangLowerClamps.onlyStored(stmt.parent, at, usr, unit.functionOf(stmt))) return clamped;
        if (next == null
                || next.kind != CXCursor_BinaryOperator
                || !next.spelling.equals("=")
                || next.children.size() != 2) return null;
        ClangNode lhs = strip(next.children.get(0));
        ClangNode call = strip(next.children.get(1));
        // *d++ = v >= 0xff ? 0xff : v <= 0 ? 0 : v; with v read nowhere else (session 64 round I: an image library's
        // float to byte conversions, 9 false warnings): what is stored is the clamp
        if (lhs != null
                && !ClangLowerClamps.reads(lhs, usr)
                && ClangLowerClamps.settles(call, usr)
                && ClangLowerClamps.onlyStored(stmt.parent, at, usr, unit.functionOf(stmt)))
            return "clamp at line " + next.line;
        if (lhs == null || lhs.kind != CXCursor_DeclRefExpr || !usr.equals(lhs.refUsr)) return null;
        String k = clampOf(unit, call, usr);
        // v = MIN(MAX(0, v), 64); of macros written as ?: (ClangLowerClamps)
        return k != null || !ClangLowerClamps.settles(call, usr) ? k : "clamp at line " + next.line;
    }

    /**
     * A conditional around {@code value} (from {@code p}, its parent, up through comparisons and conditionals) whose
     * result is one for every value at most 0 of it, each copy of it read as it ({@code CLIP(0, 51, (int)(qp + 0.5))}
     * of a macro written as {@code ?:}, {@link ClangLowerClamps#settlesCopies}): "clamp at line N", or null.
     */
    private static String conditionalClamp(ClangNode p, ClangNode value) {
        for (ClangNode a = p; a != null; a = a.parent) {
            boolean comparison = a.kind == CXCursor_BinaryOperator
                    && (a.spelling.equals("<")
                            || a.spelling.equals("<=")
                            || a.spelling.equals(">")
                            || a.spelling.equals(">="));
            if (a.kind == CXCursor_ConditionalOperator) {
                if (ClangLowerClamps.settlesCopies(a, value)) return "clamp at line " + a.line;
            } else if (!comparison && a.kind != CXCursor_ParenExpr && a.kind != CXCursor_UnexposedExpr) return null;
        }
        return null;
    }

    /**
     * The locals other than {@code usr} that the statements of {@code block} before its last declare with a constant
     * value, by USR; null when one of those statements is not a declaration or one of them reads {@code usr}.
     */
    private static java.util.Map<String, Double> declaredConstants(ClangNode block, String usr) {
        java.util.Map<String, Double> out = new java.util.HashMap<>();
        for (int k = 0; k + 1 < block.children.size(); k++) {
            ClangNode st = block.children.get(k);
            if (st.kind != CXCursor_DeclStmt) return null;
            for (ClangNode d : st.children) {
                if (d.kind != CXCursor_VarDecl || d.usr == null || d.children.isEmpty()) return null;
                if (d.usr.equals(usr)) continue;
                ClangNode init = d.children.get(d.children.size() - 1);
                if (ClangLowerClamps.reads(init, usr)) return null;
                Double v = folded(init);
                if (v != null) out.put(d.usr, v);
            }
        }
        return out;
    }

    /**
     * The clamp of an element or member the rounded value {@code c} is stored into when the next statement clamps it
     * in place: {@code m_c[i] = (int)(x * s + .5f) * 2 + p; m_c[i] = clamp(m_c[i], p, hi);} (session 73 round D: a
     * BC7 encoder's endpoints), the element written without calls or side effects; null otherwise.
     */
    private static String elementClamp(ClangUnit unit, ClangNode assign, ClangNode c, ClangNode offset) {
        if (assign.kind != CXCursor_BinaryOperator
                || !assign.spelling.equals("=")
                || assign.children.size() != 2
                || assign.children.get(1) != c) return null;
        ClangNode lhs = strip(assign.children.get(0));
        if (lhs == null || lhs.kind != CXCursor_ArraySubscriptExpr && lhs.kind != CXCursor_MemberRefExpr) return null;
        boolean[] impure = {false};
        lhs.forEach(x -> impure[0] |= x.kind == CXCursor_CallExpr && !"operator[]".equals(x.spelling)
                || x.kind == CXCursor_UnaryOperator && (x.spelling.equals("++") || x.spelling.equals("--"))
                || x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")
                || x.kind == CXCursor_CompoundAssignOperator);
        ClangNode block = assign.parent;
        if (impure[0] || block == null || block.kind != CXCursor_CompoundStmt) return null;
        int at = block.children.indexOf(assign);
        if (at < 0 || at + 1 >= block.children.size()) return null;
        ClangNode next = strip(block.children.get(at + 1));
        if (next == null
                || next.kind != CXCursor_BinaryOperator
                || !next.spelling.equals("=")
                || next.children.size() != 2) return null;
        String target = squash(unit.text(lhs));
        ClangNode call = strip(next.children.get(1));
        if (!squash(unit.text(strip(next.children.get(0)))).equals(target)
                || call == null
                || call.kind != CXCursor_CallExpr) return null;
        for (ClangNode a : arguments(call))
            if (squash(unit.text(strip(a))).equals(target)) return bound(unit, call, a, offset);
        return null;
    }

    /**
     * The clamp of the statement {@code st} when it reads the local {@code usr} and each read is the clamped argument
     * of a clamp or maximum bounded from below at 0 or more ({@link #bound}), else null.
     */
    private static String clampedReads(ClangUnit unit, ClangNode st, String usr) {
        String[] found = {null};
        boolean[] other = {false};
        st.forEach(x -> {
            if (other[0] || x.kind != CXCursor_DeclRefExpr || !usr.equals(x.refUsr)) return;
            ClangNode a = x;
            while (a.parent != null && (a.parent.kind == CXCursor_UnexposedExpr || a.parent.kind == CXCursor_ParenExpr))
                a = a.parent;
            String b = a.parent != null && a.parent.kind == CXCursor_CallExpr ? bound(unit, a.parent, a, null) : null;
            if (b == null) other[0] = true;
            else found[0] = b;
        });
        return other[0] ? null : found[0];
    }

    /** {@link #bound} of {@code call} when it is a call with the local {@code usr} as an argument, else null. */
    private static String clampOf(ClangUnit unit, ClangNode call, String usr) {
        if (call == null || call.kind != CXCursor_CallExpr) return null;
        for (ClangNode a : arguments(call)) {
            ClangNode v = strip(a);
            if (v != null && v.kind == CXCursor_DeclRefExpr && usr.equals(v.refUsr)) return bound(unit, call, a, null);
        }
        return null;
    }

    /**
     * The description of {@code call} when it is a clamp or a maximum whose lower bound is at least what a rounded
     * value of 0 gives as {@code arg} ({@code offset}, or 0 without one), else null.
     */
    private static String bound(ClangUnit unit, ClangNode call, ClangNode arg, ClangNode offset) {
        String name = callee(call);
        String simple = name.substring(name.lastIndexOf(':') + 1);
        java.util.List<ClangNode> args = arguments(call);
        int i = args.indexOf(arg);
        ClangNode lower;
        Double helperBound = null;
        if (CLAMPS.contains(simple) && args.size() == 3 && i == 0) lower = args.get(1);
        else if (MAXIMA.contains(simple) && args.size() == 2 && i >= 0) lower = args.get(1 - i);
        else {
            // a clamp helper of the project (x264_clip3(v, 0, QP_MAX), session 73 round E: an encoder's QPs)
            ClangClampHelpers.Lower l = i < 0 ? null : ClangClampHelpers.lower(unit, call, i);
            if (l == null || l.value() != i || l.arg() == null && l.constant() == null) return null;
            lower = l.arg();
            helperBound = l.constant();
        }
        Double lo = lower == null ? helperBound : folded(lower);
        boolean ok;
        if (offset == null) ok = lo != null && lo >= 0;
        else {
            Double off = folded(offset);
            ok = off != null
                    ? lo != null && lo >= off
                    : lower != null && squash(unit.text(strip(lower))).equals(squash(unit.text(strip(offset))));
        }
        return ok ? simple + " at line " + call.line : null;
    }
}
