/**
 * PTX-layer rules: {@link dev.numlint.ptx.rules.PtxRules#check} runs NL001 (float to unsigned cvt without a range
 * guard through the def chain), NL002 (div.approx/div.full/rcp.approx), NL003 (fma/mad without an explicit fma in
 * the source; mul feeding add/sub without rounding modifiers, which ptxas fuses), NL004 (loop-carried float
 * add/sub/fma accumulators in loops whose trip count is unknown or at least min-trip-count; compensated sums
 * excluded), NL006 (fast sin/cos/ex2/lg2/sqrt/rsqrt/tanh approximations, not library building blocks), NL007
 * (.ftz, once per function), NL008 (cvt.f64.f32 feeding f64 arithmetic rounded back to f32) and NL009 (float
 * atom/red add) over one function and returns {@link dev.numlint.ptx.rules.PtxHit}s; {@link
 * dev.numlint.ptx.PtxAnalyzer} maps them to source locations. {@link dev.numlint.ptx.rules.SourceText} holds the
 * heuristics over the CUDA source line named by .loc.
 */
package dev.numlint.ptx.rules;
