package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.CXCursor_CallExpr;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The CUDA conversion intrinsics from a floating type to an unsigned integer type ({@code __float2uint_rz},
 * {@code __double2ull_rn}, {@code __half2ushort_rz} ...): explicit conversions a reviewer's grep for float-to-unsigned
 * conversions finds, which saturate on the GPU (a negative value gives 0, one above the range its maximum), where a
 * CPU version written with a cast wraps on x86. NL001 reports each as a note that says so.
 */
final class ClangSaturatingConversions {
    private ClangSaturatingConversions() {}

    /** One call: the node, its function, the intrinsic, the source and destination types, the destination's bytes. */
    record Call(ClangNode node, ClangUnit.Function in, String name, String from, String to, int bytes) {}

    private static final Pattern NAME = Pattern.compile("__(float|double|half|bfloat16)2u(int|short|ll|char)_r[nzud]");

    static List<Call> of(ClangUnit unit) {
        List<Call> out = new ArrayList<>();
        for (ClangUnit.Function fn : unit.functions()) {
            fn.node().forEach(n -> {
                if (n.kind != CXCursor_CallExpr) return;
                String name = ClangSyntax.callee(n);
                Matcher m = NAME.matcher(name);
                if (!m.matches() || ClangSyntax.arguments(n).size() != 1) return;
                String from =
                        switch (m.group(1)) {
                            case "half" -> "__half";
                            case "bfloat16" -> "__nv_bfloat16";
                            default -> m.group(1);
                        };
                int bytes =
                        switch (m.group(2)) {
                            case "char" -> 1;
                            case "short" -> 2;
                            case "ll" -> 8;
                            default -> 4;
                        };
                String to =
                        switch (m.group(2)) {
                            case "char" -> "unsigned char";
                            case "short" -> "unsigned short";
                            case "ll" -> "unsigned long long";
                            default -> "unsigned int";
                        };
                out.add(new Call(n, fn, name, from, to, bytes));
            });
        }
        return out;
    }
}
