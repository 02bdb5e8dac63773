/**
 * Validation: runs flagged kernels from their PTX on a CPU interpreter and measures the divergence.
 *
 * <p>Entry point: {@link dev.numlint.validation.Validator#validate(java.util.List, ValidationOptions)} returns a
 * {@link dev.numlint.validation.report.ValidationReport} ({"kernels": [...]}, one
 * {@link dev.numlint.validation.report.KernelResult} per kernel with verdict confirmed / not-observed /
 * not-runnable); render it with {@link dev.numlint.validation.report.JsonReportWriter} or
 * {@link dev.numlint.validation.report.TextReportRenderer}.
 *
 * <p>Packages: {@code fp} exact PTX floating-point semantics (rounding modes, ftz, sat, cvt, approximations, x86
 * host conversions, ULP distance, double-double); {@code interp} the PTX interpreter (reader, decoder, lock-step
 * interpreter, launches; fed from ptx-inspector's model by default); {@code input} spec files, distributions and
 * input inference; {@code report} the report model and writers; {@code gpu} the JCuda driver-API launcher, the
 * {@link dev.numlint.validation.GpuExecutor} on it, and the GPU child process ({@code GpuProcess}, {@code GpuChild}):
 * when a GPU can be used, every nvcc-built variant also runs on the GPU with the interpreter's inputs, each kernel in
 * its own child JVM (so a fault, crash or hang affects that kernel only), and the report
 * compares both (bit-exact agreement of the strict builds, attribution, kernel times, device facts).
 * {@link dev.numlint.validation.VariantCache} holds prebuilt PTX variants for hosts without nvcc;
 * On GPU hosts the shaded CLI jar runs the same {@code numlint validate} command (validation/README.md).
 */
package dev.numlint.validation;
