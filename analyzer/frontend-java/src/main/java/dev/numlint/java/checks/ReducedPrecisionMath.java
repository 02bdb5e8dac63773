package dev.numlint.java.checks;

import com.google.auto.service.AutoService;
import dev.numlint.java.JavaCheck;
import dev.numlint.java.JavaSyntax;
import dev.numlint.java.JavaUnit;
import dev.numlint.java.Types;
import java.util.List;
import java.util.Map;
import org.eclipse.jdt.core.dom.*;

/**
 * NL012 in Java source: JCuda calls that let cuBLAS or cuDNN compute float data in reduced precision on tensor
 * cores. {@code JCublas2.cublasSetMathMode} with {@code CUBLAS_TF32_TENSOR_OP_MATH}; {@code cublasGemmEx},
 * {@code cublasGemmBatchedEx} and {@code cublasGemmStridedBatchedEx} with the compute types
 * {@code CUBLAS_COMPUTE_32F_FAST_TF32/_16F/_16BF}; {@code JCudnn.cudnnSetConvolutionMathType} with
 * {@code CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION}. Constants are recognised by name (qualified, statically imported
 * or through a local initialised with one) and by value (jcuda.jcublas.cublasMath, cublasComputeType,
 * jcuda.jcudnn.cudnnMathType), so JCuda need not be on the class path.
 */
@AutoService(JavaCheck.class)
public final class ReducedPrecisionMath implements JavaCheck {
    /** cublasMath.CUBLAS_TF32_TENSOR_OP_MATH; the low bits of a mode that may carry flag bits. */
    private static final int TF32_MODE = 3;
    /** cublasMath.CUBLAS_TENSOR_OP_MATH (deprecated): float GEMMs computed with FP16 products. */
    private static final int FP16_MODE = 1;
    /** cublasComputeType values that compute float data in reduced precision, with what they round to. */
    private static final Map<String, Integer> FAST_COMPUTE = Map.of(
            "CUBLAS_COMPUTE_32F_FAST_16F", 74, "CUBLAS_COMPUTE_32F_FAST_16BF", 75, "CUBLAS_COMPUTE_32F_FAST_TF32", 77);

    private static final int CUDNN_ALLOW_CONVERSION = 2;
    private static final List<String> GEMMS =
            List.of("cublasGemmEx", "cublasGemmBatchedEx", "cublasGemmStridedBatchedEx");

    @Override
    public String ruleId() {
        return "NL012";
    }

    @Override
    public void check(JavaUnit unit) {
        if (!unit.source().contains("cublas") && !unit.source().contains("cudnn")) return;
        for (MethodInvocation m : unit.invocations()) {
            String n = m.getName().getIdentifier();
            List<?> args = m.arguments();
            if (n.equals("cublasSetMathMode") && args.size() == 2 && isBinding(unit, m, "JCublas2")) {
                Expression mode = (Expression) args.get(1);
                boolean fp16 = names(unit, mode, "CUBLAS_TENSOR_OP_MATH") || (constant(mode) & 0xf) == FP16_MODE;
                if (fp16) {
                    // deprecated mode: float GEMMs use CUBLAS_COMPUTE_32F_FAST_16F (cuBLAS documentation)
                    unit.report(
                            ruleId(),
                            m,
                            JavaUnit.message(
                                    "NL012",
                                    "java-compute-type",
                                    "expr",
                                    call(unit, m, mode),
                                    "kind",
                                    "FP16",
                                    "err",
                                    "2^-11"),
                            false,
                            null,
                            null);
                } else if (names(unit, mode, "CUBLAS_TF32_TENSOR_OP_MATH") || (constant(mode) & 0xf) == TF32_MODE) {
                    unit.report(
                            ruleId(),
                            m,
                            JavaUnit.message("NL012", "java-math-mode", "expr", call(unit, m, mode)),
                            false,
                            null,
                            null);
                }
            } else if (GEMMS.contains(n) && args.size() >= 19 && isBinding(unit, m, "JCublas2")) {
                Expression type = (Expression) args.get(args.size() - 2);
                String fast = null;
                for (Map.Entry<String, Integer> e : FAST_COMPUTE.entrySet()) {
                    if (names(unit, type, e.getKey()) || constant(type) == e.getValue()) fast = e.getKey();
                }
                if (fast != null) {
                    String err = fast.endsWith("16BF") ? "2^-8" : "2^-11";
                    String kind = fast.endsWith("16BF") ? "BF16" : fast.endsWith("16F") ? "FP16" : "TF32";
                    unit.report(
                            ruleId(),
                            type,
                            JavaUnit.message(
                                    "NL012",
                                    "java-compute-type",
                                    "expr",
                                    n + "(..., " + unit.shortText(type, 48) + ", ...)",
                                    "kind",
                                    kind,
                                    "err",
                                    err),
                            false,
                            null,
                            null);
                }
            } else if (n.equals("cudnnSetConvolutionMathType") && args.size() == 2 && isBinding(unit, m, "JCudnn")) {
                Expression mode = (Expression) args.get(1);
                if (names(unit, mode, "CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION")
                        || constant(mode) == CUDNN_ALLOW_CONVERSION) {
                    unit.report(
                            ruleId(),
                            m,
                            JavaUnit.message("NL012", "java-cudnn", "expr", call(unit, m, mode)),
                            false,
                            null,
                            null);
                }
            }
        }
    }

    private static String call(JavaUnit unit, MethodInvocation m, Expression arg) {
        Expression a = JavaSyntax.unparen(arg);
        String shown =
                a instanceof QualifiedName ? ((QualifiedName) a).getName().getIdentifier() : unit.shortText(a, 48);
        return m.getName().getIdentifier() + "(..., " + shown + ")";
    }

    /** A call of JCuda's {@code cls} (JCublas2, JCudnn): by binding, qualifier, static import or a jcuda import. */
    private static boolean isBinding(JavaUnit unit, MethodInvocation m, String cls) {
        IMethodBinding b = m.resolveMethodBinding();
        if (b != null
                && b.getDeclaringClass() != null
                && b.getDeclaringClass().getQualifiedName().startsWith("jcuda.")) {
            return true;
        }
        Expression q = m.getExpression();
        if (q != null) {
            String s = q.toString();
            return s.equals(cls) || s.endsWith("." + cls);
        }
        for (Object o : unit.cu().imports()) {
            ImportDeclaration i = (ImportDeclaration) o;
            if (i.getName().getFullyQualifiedName().startsWith("jcuda.")) return true;
        }
        return false;
    }

    /** Whether {@code e} names the constant {@code id} (directly, qualified, in an | of flags, or via a local). */
    private static boolean names(JavaUnit unit, Expression e, String id) {
        return names(unit, e, id, 0);
    }

    private static boolean names(JavaUnit unit, Expression e, String id, int depth) {
        e = JavaSyntax.unparen(e);
        if (e instanceof QualifiedName)
            return ((QualifiedName) e).getName().getIdentifier().equals(id);
        if (e instanceof FieldAccess)
            return ((FieldAccess) e).getName().getIdentifier().equals(id);
        if (e instanceof SimpleName) {
            if (((SimpleName) e).getIdentifier().equals(id)) return true;
            Expression init = depth < 3 ? Types.initializerOf((SimpleName) e) : null;
            return init != null && names(unit, init, id, depth + 1);
        }
        if (e instanceof InfixExpression && ((InfixExpression) e).getOperator() == InfixExpression.Operator.OR) {
            InfixExpression in = (InfixExpression) e;
            if (names(unit, in.getLeftOperand(), id, depth) || names(unit, in.getRightOperand(), id, depth))
                return true;
            for (Object o : in.extendedOperands()) if (names(unit, (Expression) o, id, depth)) return true;
        }
        return false;
    }

    /** The int constant value of {@code e}, or -1. */
    private static int constant(Expression e) {
        Object v = e.resolveConstantExpressionValue();
        if (v instanceof Integer) return (Integer) v;
        Expression u = JavaSyntax.unparen(e);
        if (u instanceof NumberLiteral) {
            double d = Types.literalValue(((NumberLiteral) u).getToken());
            if (d == Math.rint(d) && d >= 0 && d < 1 << 20) return (int) d;
        }
        return -1;
    }
}
