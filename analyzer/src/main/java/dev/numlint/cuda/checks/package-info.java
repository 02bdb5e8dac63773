/**
 * The CUDA/C++ source checks, one class per rule, each registered with {@code @AutoService(CudaCheck.class)}:
 * {@link dev.numlint.cuda.checks.UnguardedUnsignedCast} (NL001), {@link dev.numlint.cuda.checks.ApproximateDivision}
 * (NL002), {@link dev.numlint.cuda.checks.ContractibleMulAdd} (NL003), {@link dev.numlint.cuda.checks.SerialAccumulation}
 * (NL004), {@link dev.numlint.cuda.checks.ExtendedPrecision} (NL005),
 * {@link dev.numlint.cuda.checks.ApproximateMathFunction} (NL006), {@link dev.numlint.cuda.checks.DoublePromotion}
 * (NL008), {@link dev.numlint.cuda.checks.FloatAtomic} (NL009), {@link dev.numlint.cuda.checks.MathLibraryDivergence}
 * (NL010), {@link dev.numlint.cuda.checks.NarrowSignedCast} (NL011) and
 * {@link dev.numlint.cuda.checks.ReducedPrecisionMath} (NL012). {@link dev.numlint.cuda.checks.Consequences} is the
 * impact analysis they share.
 */
package dev.numlint.cuda.checks;
