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
 * input inference; {@code report} the report model and writers. A GPU executor plugs in through
 * {@link dev.numlint.validation.GpuExecutors#find()} (none yet).
 */
package dev.numlint.validation;
