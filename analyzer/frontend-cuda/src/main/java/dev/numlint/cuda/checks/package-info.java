/**
 * The CUDA/C++ source checks: one class per rule, named after what it checks, each registered with
 * {@code @AutoService(CudaCheck.class)} (the registrations, not a list kept here, say which rules the layer
 * implements). {@link dev.numlint.cuda.checks.Consequences} is the impact analysis they share.
 */
package dev.numlint.cuda.checks;
