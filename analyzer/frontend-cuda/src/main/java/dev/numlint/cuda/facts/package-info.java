/**
 * The facts the CUDA/C++ source front end computes once per function and hands to the per-rule checks
 * ({@link dev.numlint.cuda.checks}): typed sites of conversions, divisions, contractions, accumulations, math calls,
 * promotions, atomics, long doubles and tensor-core math, each with its position, whether it runs on the device
 * and/or the host, and its {@linkplain dev.numlint.cuda.facts.Site#uses() uses} (where its value goes, through
 * def-use, for the impact analysis).
 */
package dev.numlint.cuda.facts;
