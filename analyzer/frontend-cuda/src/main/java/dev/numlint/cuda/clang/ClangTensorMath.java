package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.knowledge.NumericFacts;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Tensor-core math on float data in a {@link ClangUnit}'s functions (NL012's fact, which the hand-written front end's
 * {@code TensorMathFacts} reads from tokens), by Clang's types: WMMA fragments of {@code precision::tf32}, half or
 * bfloat16 {@code matrix_a}/{@code matrix_b} fragments in a function whose float-to-half (or bfloat16) conversion
 * reaches them (stored into the memory a {@code load_matrix_sync} of the fragment reads, into the fragment's
 * elements, or into a local then stored there; a conversion whose destination is not a variable counts), and an
 * explicit {@code __float_to_tf32} in a function without a TF32 fragment; and the libraries' reduced-precision math
 * modes ({@code cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH)}, a GEMM's {@code CUBLAS_COMPUTE_32F_FAST_16BF},
 * {@code cudnnSetConvolutionMathType(c, CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION)}), as an argument of a call or the
 * value of an assignment, through casts and flag combinations, where Clang read the library's declarations (its
 * header, or numlint's: {@link LibraryStubs}); a comparison with a mode is no setting.
 */
final class ClangTensorMath {
    private final ClangUnit unit;

    ClangTensorMath(ClangUnit unit) {
        this.unit = unit;
    }

    /**
     * One construct: {@code construct} and {@code effect} as {@code FunctionFacts.TensorMath} holds them, {@code
     * evidence} the line of the conversion that feeds a half or bfloat16 fragment ("line 51"), or null.
     */
    record TensorMath(ClangNode node, String construct, String effect, String evidence, ClangUnit.Function in) {}

    List<TensorMath> compute() {
        List<TensorMath> out = new ArrayList<>();
        for (ClangUnit.Function fn : unit.functions()) {
            List<ClangNode> fragments = new ArrayList<>();
            List<ClangNode> conversions = new ArrayList<>();
            List<ClangNode> toTf32 = new ArrayList<>();
            List<ClangNode> loads = new ArrayList<>();
            List<ClangNode> modes = new ArrayList<>();
            fn.node().forEach(n -> {
                if (n.kind == CXCursor_DeclRefExpr
                        && NumericFacts.REDUCED_PRECISION_MODES.containsKey(n.spelling)
                        && setting(n)) modes.add(n);
                if (n.kind == CXCursor_VarDecl && n.canon.contains("wmma::fragment<")) fragments.add(n);
                if (n.kind != CXCursor_CallExpr) return;
                String name = callee(n);
                if (NumericFacts.TO_REDUCED_PRECISION.contains(name)) conversions.add(n);
                if (name.equals("__float_to_tf32")) toTf32.add(n);
                if (name.equals("load_matrix_sync")) loads.add(n);
            });
            for (ClangNode m : modes) {
                out.add(new TensorMath(m, m.spelling, NumericFacts.REDUCED_PRECISION_MODES.get(m.spelling), null, fn));
            }
            boolean tf32 = false;
            for (ClangNode f : fragments) {
                String args = f.canon.replace(" ", "");
                if (args.contains("precision::tf32")) {
                    tf32 = true;
                    out.add(new TensorMath(f, "precision::tf32", "float data rounded to TF32", null, fn));
                } else if ((args.contains("<matrix_a,") || args.contains("<matrix_b,"))
                        && (args.contains(",__half,")
                                || args.contains(",__nv_bfloat16,")
                                || args.contains("precision::bf16"))) {
                    int line = convertedInto(f, conversions, loads);
                    if (line == 0) continue;
                    boolean bf16 = args.contains("bf16") || args.contains("bfloat16");
                    out.add(new TensorMath(
                            f,
                            bf16 ? "bf16 fragment" : "half fragment",
                            bf16 ? "float data rounded to BF16" : "float data rounded to FP16",
                            "line " + line,
                            fn));
                }
            }
            if (!tf32 && !toTf32.isEmpty()) {
                out.add(new TensorMath(toTf32.get(0), "__float_to_tf32", "float data rounded to TF32", null, fn));
            }
        }
        return List.copyOf(out);
    }

    /**
     * Whether the mode {@code ref} is set: an argument of a call or the value of a declaration or an assignment, also
     * inside casts, parentheses and flag combinations ({@code (cublasMath_t)(MODE | CUBLAS_MATH_DISALLOW_...)}).
     */
    private static boolean setting(ClangNode ref) {
        ClangNode x = ref;
        for (ClangNode p = ref.parent; p != null; x = p, p = p.parent) {
            if (p.kind == CXCursor_CallExpr) return p.children.isEmpty() || p.children.get(0) != x;
            if (p.kind == CXCursor_VarDecl) return true;
            if (p.kind == CXCursor_BinaryOperator && p.spelling.equals("=")) return rhs(p) == x;
            boolean flags = p.kind == CXCursor_BinaryOperator && p.spelling.equals("|");
            if (!flags && p.kind != CXCursor_UnexposedExpr && p.kind != CXCursor_ParenExpr && !isExplicitCast(p))
                return false;
        }
        return false;
    }

    /**
     * The line of a conversion whose result reaches the fragment {@code f}: stored into the memory a
     * {@code load_matrix_sync} of it reads or into its elements, directly or through a local; 0 when none does.
     */
    private int convertedInto(ClangNode f, List<ClangNode> conversions, List<ClangNode> loads) {
        if (conversions.isEmpty() || f.usr == null) return 0;
        Set<String> sinks = new HashSet<>();
        sinks.add(f.usr);
        for (ClangNode l : loads) {
            List<ClangNode> args = arguments(l);
            if (args.size() < 2 || !f.usr.equals(rootUsr(strip(args.get(0))))) continue;
            args.get(1).forEach(x -> {
                if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null) sinks.add(x.refUsr);
            });
        }
        for (ClangNode c : conversions) {
            ClangNode store = storeOf(c);
            if (store == null) return c.line; // an argument or a return: destination unknown
            if (store.kind == CXCursor_VarDecl || plainVariable(store.children.get(0))) {
                // a local (half h = __float2half(x);) later stored into the fragment's memory
                String local = store.kind == CXCursor_VarDecl ? store.usr : strip(store.children.get(0)).refUsr;
                if (local != null && storedLater(local, c, sinks)) return c.line;
            } else if (sinks.contains(rootUsr(store.children.get(0)))) {
                return c.line;
            }
        }
        return 0;
    }

    /** The declaration or assignment {@code c}'s value is stored by, or null. */
    private static ClangNode storeOf(ClangNode c) {
        ClangNode x = c;
        for (ClangNode p = c.parent; p != null; x = p, p = p.parent) {
            if (p.kind == CXCursor_VarDecl) return p;
            if (assignment(p)) return rhs(p) == x ? p : null;
            if (p.kind != CXCursor_UnexposedExpr && p.kind != CXCursor_ParenExpr && !isExplicitCast(p)) return null;
        }
        return null;
    }

    /**
     * An assignment: {@code a = b} of arithmetic types, or of a class type ({@code __half}, {@code __nv_bfloat16}),
     * whose {@code operator=} call holds the left side first and the right side last.
     */
    private static boolean assignment(ClangNode p) {
        if (p.kind == CXCursor_BinaryOperator) return p.spelling.equals("=") && p.children.size() == 2;
        return p.kind == CXCursor_CallExpr && p.spelling.equals("operator=") && p.children.size() >= 2;
    }

    private static ClangNode rhs(ClangNode assignment) {
        return assignment.children.get(assignment.children.size() - 1);
    }

    private static boolean plainVariable(ClangNode lhs) {
        ClangNode l = strip(lhs);
        return l != null && l.kind == CXCursor_DeclRefExpr;
    }

    /** Whether an assignment after {@code after} reads {@code local} and stores into one of {@code sinks}. */
    private boolean storedLater(String local, ClangNode after, Set<String> sinks) {
        ClangUnit.Function fn = unit.functionOf(after);
        if (fn == null) return false;
        boolean[] hit = new boolean[1];
        fn.node().forEach(x -> {
            if (hit[0] || x.offset <= after.offset) return;
            if (!assignment(x)) return;
            boolean reads = false;
            for (ClangNode r : refs(rhs(x))) if (local.equals(r.refUsr)) reads = true;
            if (reads && sinks.contains(rootUsr(x.children.get(0)))) hit[0] = true;
        });
        return hit[0];
    }

    private static List<ClangNode> refs(ClangNode n) {
        List<ClangNode> out = new ArrayList<>();
        n.forEach(x -> {
            if (x.kind == CXCursor_DeclRefExpr) out.add(x);
        });
        return out;
    }
}
