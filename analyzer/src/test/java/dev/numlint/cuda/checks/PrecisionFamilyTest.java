package dev.numlint.cuda.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.numlint.model.DeclaredFunction;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The double twin a float routine's name leads to ({@link PrecisionFamily}), among the tree's declared functions. */
class PrecisionFamilyTest {
    private static PrecisionFamily family(String... nameAndType) {
        List<DeclaredFunction> fns = new ArrayList<>();
        for (int i = 0; i < nameAndType.length; i += 2) {
            fns.add(new DeclaredFunction("a.c", nameAndType[i], nameAndType[i + 1]));
        }
        return new PrecisionFamily(fns);
    }

    @Test
    void blasPrefixesPairOnTheTokenWithThreeLettersLeft() {
        PrecisionFamily f = family(
                "kernel_dgemm_nt_4x4_lib4", "double", "zgemv", "double", "cblas_ddot", "double", "dot", "double");
        assertEquals("kernel_dgemm_nt_4x4_lib4", f.twin("kernel_sgemm_nt_4x4_lib4"));
        assertEquals("zgemv", f.twin("cgemv"));
        assertEquals("cblas_ddot", f.twin("cblas_sdot"));
        // "sdo" would leave 2 letters: no BLAS pair
        assertNull(family("ddo", "double").twin("sdo"));
    }

    @Test
    void wholeTokensAndCamelCaseTokens() {
        PrecisionFamily f = family(
                "arm_mean_f64", "double",
                "reduceDouble", "double",
                "axpy_d", "double",
                "norm_fp64", "double",
                "solve_dp", "double",
                "sum_r8", "double",
                "dotKernelDouble", null);
        assertEquals("arm_mean_f64", f.twin("arm_mean_f32"));
        assertEquals("reduceDouble", f.twin("reduceFloat"));
        assertEquals("axpy_d", f.twin("axpy_f"));
        assertEquals("norm_fp64", f.twin("norm_fp32"));
        assertEquals("solve_dp", f.twin("solve_sp"));
        assertEquals("sum_r8", f.twin("sum_r4"));
        // a qualified, templated function name is matched by its simple name; a twin whose signature shows no
        // floating type is accepted by its name
        assertEquals("dotKernelDouble", f.twin("Ns::dotKernelFloat<4>"));
    }

    @Test
    void theTrailingFOnlyWhenTheNameWithoutItIsDeclared() {
        assertEquals("sum", family("sum", "double").twin("sumf"));
        assertNull(family("other", "double").twin("sumf"));
    }

    @Test
    void aTwinThatComputesInFloatIsNoFamily() {
        assertNull(family("dnrm_ref", "float").twin("snrm_ref"));
        assertEquals(
                "dnrm_ref", family("dnrm_ref", "float", "dnrm_ref", "double").twin("snrm_ref"));
        assertNull(family("ddot", "double").twin("ddot"));
    }

    @Test
    void aLongDoubleRoutinesDoubleTwinByItsLOrItsToken() {
        PrecisionFamily f = family(
                "naive_jacobi_moments", "double",
                "exp_scaled", "double",
                "moments", "double",
                "dot_f64", "double",
                "sum_double", null,
                "lerp", "float");
        assertEquals("naive_jacobi_moments", f.extendedTwin("lnaive_jacobi_moments"));
        assertEquals("exp_scaled", f.extendedTwin("exp_scaledl"));
        assertEquals("moments", f.extendedTwin("moments_ld"));
        assertEquals("moments", f.extendedTwin("ld_moments"));
        assertEquals("dot_f64", f.extendedTwin("dot_f80"));
        assertEquals("sum_double", f.extendedTwin("sum_ldouble"));
        // long and double as two tokens (a generic source's instances: stats_long_double_mean, stats_double_mean)
        PrecisionFamily g = family("stats_double_mean", "double", "DoubleSum", "double");
        assertEquals("stats_double_mean", g.extendedTwin("stats_long_double_mean"));
        assertEquals("DoubleSum", g.extendedTwin("LongDoubleSum"));
        assertNull(g.extendedTwin("stats_long_mean"));
        assertEquals(
                "stats_mean",
                family("stats_mean", "double", "stats_long_mean", "double").extendedTwin("stats_long_double_mean"));
        // no twin declared, a float twin, or too short a rest
        assertNull(f.extendedTwin("lsolve"));
        assertNull(f.extendedTwin("llerp"));
        assertNull(family("ab", "double").extendedTwin("lab"));
    }
}
