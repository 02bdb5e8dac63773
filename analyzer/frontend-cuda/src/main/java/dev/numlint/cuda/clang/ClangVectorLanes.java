package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.knowledge.ValueBounds;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * One lane ({@code .x}, {@code .y}, {@code .z}, {@code .w}; {@code .r}...; {@code .s}...) of a small vector's value,
 * lane by lane through the operations a vector library defines that way: a clamp of a vector between two vectors or
 * scalars ({@code glm::clamp(c, glm::vec3(), glm::vec3(1))}, CUDA's {@code clamp(float3, float, float)}), the
 * arithmetic operators of a vector and a vector or scalar ({@code * 255.f}), and the constructors and {@code
 * make_float3}-style functions that build one ({@code glm::vec3()} is 0 in every lane, {@code glm::vec3(1)} 1, {@code
 * make_float3(a, b, c)} a, b and c). A path tracer's {@code glm::vec3 pix = glm::clamp(pixels[i], glm::vec3(),
 * glm::vec3(1)) * 255.f; (unsigned char) pix.x} lies in [0, 255] (session 60: three false NL001 errors). As NL001's
 * own clamp rule, a NaN lane is not taken into account.
 */
final class ClangVectorLanes {
    private ClangVectorLanes() {}

    private static final String LANES = "xyzw";
    private static final String COLORS = "rgba";
    private static final String TEXTURES = "stpq";

    /** The lane a member path names ({@code .x} is 0, {@code .b} 2), or -1. */
    static int lane(String path) {
        if (path == null || path.length() != 2 || path.charAt(0) != '.') return -1;
        char c = path.charAt(1);
        int k = LANES.indexOf(c);
        if (k < 0) k = COLORS.indexOf(c);
        if (k < 0) k = TEXTURES.indexOf(c);
        return k;
    }

    /**
     * The interval of lane {@code path} of the vector {@code e} builds, or null: {@code vector} gives a vector
     * operand's lane (a local, a copy, another such call), {@code scalar} a scalar operand's interval.
     */
    static double[] of(
            ClangNode e, String path, Function<ClangNode, double[]> vector, Function<ClangNode, double[]> scalar) {
        int k = lane(path);
        // glm::vec3(1): a functional cast around the constructor's call
        for (int d = 0; d < 4 && e != null && e.kind == CXCursor_CXXFunctionalCastExpr; d++) {
            List<ClangNode> inner = expressions(e);
            e = inner.size() == 1 ? strip(inner.get(0)) : null;
        }
        if (k < 0 || e == null || e.kind != CXCursor_CallExpr || e.canonKind != CXType_Record) return null;
        String name = e.spelling;
        if (name.matches("operator[-+*/]") && e.children.size() == 3) {
            double[] a = value(e.children.get(0), vector, scalar), b = value(e.children.get(2), vector, scalar);
            return a == null || b == null ? null : ValueBounds.arith(name.charAt(name.length() - 1), a, b, false);
        }
        if (name.equals("clamp")) {
            List<ClangNode> args = arguments(e);
            if (args.size() != 3) return null;
            double[] lo = value(args.get(1), vector, scalar), hi = value(args.get(2), vector, scalar);
            if (lo == null || hi == null || Double.isInfinite(lo[0]) || Double.isInfinite(hi[1]) || lo[0] > hi[1])
                return null;
            return new double[] {lo[0], hi[1]};
        }
        boolean make = name.matches("make_(float|double|int|uint|short|ushort|char|uchar|long|ulong)[1234]");
        if (!make && !constructor(e)) return null;
        List<ClangNode> args = make ? arguments(e) : expressions(e);
        if (args.isEmpty()) return make ? null : new double[] {0, 0};
        for (ClangNode a : args) if (!isScalar(a)) return args.size() == 1 ? vector.apply(args.get(0)) : null;
        if (args.size() == 1) return scalar.apply(args.get(0));
        return k < args.size() ? scalar.apply(args.get(k)) : null;
    }

    /** Whether the call is a constructor: its USR names a function of the class's own name in that class. */
    private static boolean constructor(ClangNode e) {
        String usr = e.refUsr;
        if (usr == null || e.spelling.isEmpty()) return false;
        int f = usr.lastIndexOf("@F@" + e.spelling + "#");
        return f > 0 && (usr.contains("@S@" + e.spelling + ">") || usr.contains("@S@" + e.spelling + "@"));
    }

    /** The expression children of a constructor call: its arguments (the type references are no expressions). */
    private static List<ClangNode> expressions(ClangNode e) {
        List<ClangNode> out = new ArrayList<>();
        for (ClangNode c : e.children) if (clang_isExpressionKind(c.kind)) out.add(c);
        return out;
    }

    private static boolean isScalar(ClangNode x) {
        return floating(x.canonKind) || integral(x.canonKind);
    }

    private static double[] value(
            ClangNode x, Function<ClangNode, double[]> vector, Function<ClangNode, double[]> scalar) {
        return isScalar(x) ? scalar.apply(x) : vector.apply(x);
    }
}
