package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CleanUpLoop;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.cuda.facts.FunctionFacts.ResultCheck;
import dev.numlint.cuda.facts.ValueUse;
import dev.numlint.model.Confidence;
import dev.numlint.model.DeclaredFunction;
import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Impact;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.rules.Quote;
import dev.numlint.rules.RuleCatalog;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * NL004: a loop-carried floating accumulator over an unknown or long trip count. Not reported: compensated (Kahan)
 * sums, whole-number terms (exact partial sums), tree reductions, element-wise updates, timers, values overwritten
 * in every iteration and short loops (below {@code min-trip-count}). A term that does not change between iterations
 * is a constant step (a ray parameter, a position), not a sum of data: a note; so is a recurrence (terms that read
 * the accumulator or its array, an explicit time step) and a fixed sum of at most 256 terms that decides nothing.
 * A float sum is <em>growing</em> (its error bound grows with the trip count); a double sum that decides nothing is
 * a note (its n*2^-53 bound stays far below float resolution, so it flips a comparison only within n*2^-53 of the
 * threshold) unless it reaches an integer conversion, a rounding, an index or an atomic; a float sum that reaches an
 * index, a conversion, a branch or a reduction is amplified. One GPU thread's serial sum (device-only code) runs in
 * the order of the serial CPU loop it ports, so unless it decides something it is a note; host sums (the CPU side,
 * whose order differs from the GPU's reductions) are growing, and those of a length the code does not state are
 * port-only: notes where the scan holds no device code ({@code HostOnlyScans}). A sum carried only by a clean-up loop (the remainder of
 * an unrolled or vectorised loop, {@link CleanUpLoop}) of fewer than {@code min-trip-count} terms is a note; so is an
 * element that the cited loop's counter moves by a loop-invariant stride that may be 0 ({@code y[j*C]}, {@code y[iy]}
 * with {@code iy += incy}; {@link dev.numlint.cuda.facts.Site#stride}): one term per element unless it is 0. A
 * sum of one partial result per worker ({@link dev.numlint.cuda.facts.Site#partialResults}: {@code i < numCores},
 * futures) and a GPU thread's share of a grid-stride sum that decide nothing are notes: short sums.
 */
@AutoService(CudaCheck.class)
public final class SerialAccumulation implements CudaCheck {
    /**
     * A constant trip count up to which a float sum counts as short: its worst-case relative error, n * 2^-24, stays
     * at most 2^-16 (8 of the 24 bits), and a fixed count does not grow with the data (as the Java layer's rule).
     */
    static final long SHORT_SUM = 256;

    /** Print functions: a value passed to them is shown, not computed with. */
    private static final Set<String> PRINT =
            Set.of("printf", "fprintf", "sprintf", "snprintf", "puts", "fputs", "std::printf", "std::fprintf");

    /**
     * The error measure of a host-side result check ({@link FunctionFacts.Accumulation#resultCheck}) whose value
     * only reaches comparisons, branches and prints (and, for a relative error, the function's return): not stored
     * to memory, not an index, an integer or an atomic, not passed on to other code. A norm the program outputs stays
     * a finding; so does device code.
     */
    static boolean resultCheck(FunctionFacts.Accumulation a, List<ValueUse> uses) {
        if (a.resultCheck() == ResultCheck.NONE || a.site().device()) return false;
        for (ValueUse u : uses) {
            switch (u.kind()) {
                case COMPARISON, BRANCH -> {}
                case RETURN -> {
                    if (a.resultCheck() != ResultCheck.RELATIVE) return false;
                }
                case CALL -> {
                    if (u.detail() == null || !PRINT.contains(u.detail())) return false;
                }
                default -> {
                    return false;
                }
            }
        }
        return true;
    }

    /** The longest constant trip count whose partial sums are enumerated. */
    static final long MAX_STEPS = 1 << 16;

    /**
     * The threshold a sum of constant steps ({@link FunctionFacts.Accumulation#constantSum}) over a constant trip
     * count n is compared with, when no partial sum {@code initial + k*step} (k = 0..n) lies within its rounding
     * error of it: the float sum of k steps is within (|initial| + k*|step|)*n*u of the exact value, the step and
     * the threshold are each rounded once more (twice that bound is kept as margin). Null when the sum reaches
     * anything else that decides (an index, a conversion, a comparison with no constant), or some partial sum comes
     * that close.
     */
    static String unreachable(FunctionFacts.Accumulation a, List<ValueUse> uses) {
        FunctionFacts.ConstantSum c = a.constantSum();
        if (c == null || c.step() == 0 || a.trip() < 0 || a.trip() > MAX_STEPS) return null;
        double u = a.doublePrecision() ? 0x1p-53 : 0x1p-24;
        long n = a.trip();
        String first = null;
        for (ValueUse v : uses) {
            if (!v.kind().amplifies()) continue;
            if (v.kind() != ValueUse.Kind.COMPARISON
                    || v.detail() == null
                    || !a.target().equals(v.via())) {
                return null;
            }
            double t;
            try {
                t = Double.parseDouble(v.detail());
            } catch (NumberFormatException e) {
                return null;
            }
            for (long k = 0; k <= n; k++) {
                double exact = c.initial() + k * c.step();
                double err = (Math.abs(c.initial()) + k * Math.abs(c.step())) * (n + 1) * u + Math.abs(t) * u;
                if (Math.abs(exact - t) <= 2 * err) return null;
            }
            if (first == null) first = number(t);
        }
        return first;
    }

    /**
     * The first test of a never-negative sum ({@link dev.numlint.cuda.facts.Site#neverNegative}) against 0, when every
     * use that decides something is such a test of the accumulator itself ({@code s1 != 0}, {@code s > 0.0f}): a sum
     * of non-negative terms is 0 only when every term is, whatever the order and the rounding, so no ulp flips it.
     * Null otherwise.
     */
    static ValueUse zeroTestOnly(FunctionFacts.Accumulation a, List<ValueUse> uses) {
        if (!a.target().equals(a.site().neverNegative())) return null;
        ValueUse first = null;
        for (ValueUse v : uses) {
            if (!v.kind().amplifies()) continue;
            if (!zeroTest(a, v)) return null;
            if (first == null) first = v;
        }
        return first;
    }

    /** A comparison of the accumulator itself with 0. */
    static boolean zeroTest(FunctionFacts.Accumulation a, ValueUse v) {
        return zeroTest(a.target(), v);
    }

    /** A comparison of the variable {@code variable} itself with 0. */
    static boolean zeroTest(String variable, ValueUse v) {
        if (v.kind() != ValueUse.Kind.COMPARISON || v.detail() == null || !variable.equals(v.via())) return false;
        try {
            return Double.parseDouble(v.detail()) == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** A constant for a message: six significant digits. */
    static String number(double v) {
        return java.math.BigDecimal.valueOf(v)
                .round(new java.math.MathContext(6))
                .stripTrailingZeros()
                .toPlainString();
    }

    /** The type a sum is computed in for its identity: double, a half type as written, else float. */
    static String sumType(FunctionFacts.Accumulation a) {
        if (a.doublePrecision()) return "double";
        String t = a.type() == null ? "" : a.type().toLowerCase(java.util.Locale.ROOT);
        return t.contains("half") || t.contains("bf16") || t.contains("bfloat") ? a.type() : "float";
    }

    /**
     * The findings of float sums in a function whose double twin the scanned tree declares ({@link PrecisionFamily}):
     * notes that name the twin. A single-precision routine of a precision family ({@code sdot} beside {@code ddot},
     * {@code arm_mean_f32} beside {@code arm_mean_f64}) accumulates in float by contract; the caller who needs more
     * calls the double member. Source and PTX findings (after the layers merged) alike; a finding that is already a
     * note keeps its own reason.
     */
    @Override
    public List<Finding> review(List<Finding> findings, List<DeclaredFunction> functions) {
        PrecisionFamily family = null;
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            Identity.Sum sum = f.identity().sum();
            if (!ruleId().equals(f.ruleId())
                    || sum == null
                    || !sum.singlePrecision()
                    || f.function() == null
                    || !f.level().atLeast(Level.WARNING)) {
                out.add(f);
                continue;
            }
            if (family == null) family = new PrecisionFamily(functions);
            String twin = family.twin(f.function());
            if (twin == null) {
                out.add(f);
                continue;
            }
            out.add(familyNote(f, PrecisionFamily.simpleName(f.function()), twin));
        }
        return out;
    }

    /** {@code f} as the note of a float sum in {@code function}, the float member of {@code twin}'s family. */
    static Finding familyNote(Finding f, String function, String twin) {
        Identity.Sum sum = f.identity().sum();
        String fn = Quote.shorten(function, Quote.EXPRESSION);
        String tw = Quote.shorten(twin, Quote.EXPRESSION);
        String msg;
        String expr = f.identity().expression();
        if (f.layer() != Layer.PTX && expr != null && sum.loop() != null) {
            msg = RuleCatalog.get()
                    .rule("NL004")
                    .message(
                            "cuda-sum-family",
                            "expr",
                            expr,
                            "loop",
                            sum.loop().startLine(),
                            "function",
                            fn,
                            "twin",
                            tw);
        } else {
            String instr = f.evidence().stream()
                    .filter(e -> "ptx".equals(e.kind()))
                    .map(e -> Quote.instruction(e.text()))
                    .findFirst()
                    .orElse(expr == null ? "" : expr);
            msg = RuleCatalog.get().rule("NL004").message("ptx-acc-family", "instr", instr, "function", fn, "twin", tw);
        }
        if (Boolean.TRUE.equals(f.properties().get("confirmedInPtx"))) {
            msg = msg + " " + RuleCatalog.get().phrase("ptx-confirmed");
        }
        return f.toBuilder()
                .level(Level.NOTE)
                .message(msg)
                .impact(Impact.bounded("the float member of a precision family (" + twin
                        + "): float accumulation is the routine's contract"))
                .property("precisionFamily", twin)
                .build();
    }

    @Override
    public String ruleId() {
        return "NL004";
    }

    /** Whether the build compiles OpenMP directives: {@code -fopenmp} or another flag that defines {@code _OPENMP}. */
    static boolean openMp(dev.numlint.model.BuildContext build) {
        if (build == null) return false;
        for (String d : build.impliedDefines()) if (d.startsWith("_OPENMP=")) return true;
        for (String d : build.defines()) if (d.equals("_OPENMP") || d.startsWith("_OPENMP=")) return true;
        return false;
    }

    @Override
    public void check(FunctionFacts facts, CudaReport out) {
        int minTrip = out.intOption("NL004", "min-trip-count", 16);
        Set<String> seen = new HashSet<>();
        for (FunctionFacts.Accumulation a : facts.accumulations) {
            if (a.wholeNumberTerm() || a.compensated() || a.treeReduction() || a.rewritten()) continue;
            if (a.trip() >= 0 && a.trip() < minTrip) continue;
            if (a.elementwise() || a.timing()) continue;
            if (!seen.add(a.target() + "@" + a.outerLoopLine())) continue;
            // an unknown trip count is the usual case and goes unsaid; a long constant one is stated
            // a template's constant: the instantiation that runs the loops longest is named
            String from = a.site().tripFrom();
            String trip = a.trip() < 0 ? "" : " (n=" + a.trip() + (from == null ? "" : " with " + from) + ")";
            String unit = a.doublePrecision() ? "2^-53" : "2^-24";
            // an OpenMP loop reducing the sum, in a build that compiles OpenMP (its pragmas are ignored otherwise)
            boolean omp = a.site().openMpReduction() != null && openMp(out.build());
            String bound = (a.trip() < 0 ? "n" : Long.toString(a.trip())) + "*" + unit + "*sum|terms|";
            if (a.target().equals(a.site().neverNegative())
                    && zeroTestOnly(a, a.site().uses()) == null) {
                // its tests against 0 cannot flip; what it decides is the other uses ('s2 >= x3max', not 's2 != 0')
                a.site().dropUses(v -> zeroTest(a, v));
            }
            Impact impact = Consequences.of(a.site(), out, false);
            if (a.doublePrecision() && impact.kind() == Impact.Kind.AMPLIFIED && !Consequences.discrete(a.site())) {
                // a double sum (error n*2^-53) flips a comparison only within n*2^-53 of the threshold
                impact = new Impact(Impact.Kind.BOUNDED, impact.consequence(), impact.sink(), null);
            }
            String threshold = null;
            ValueUse zeroTest = null;
            ValueUse tolerance = impact.kind() == Impact.Kind.AMPLIFIED ? null : Consequences.toleranceUse(a.site());
            String consequence;
            CleanUpLoop tail = a.site().cleanUp();
            boolean cleanUp = tail != null && tail.most() < minTrip;
            String stride = a.site().stride();
            if (stride != null) {
                // y[j*C] in the j loop, y[iy] with iy += incy: each iteration updates another element unless the
                // loop-invariant stride is 0 (or its rows overlap); a hazard that needs that is no default finding
                impact = Impact.bounded(
                        "one term per element: its index moves with the loop's counter;" + " a sum only if " + stride);
                consequence = Consequences.phrase("sum-stride", "condition", stride);
            } else if (cleanUp) {
                // for (; i < n; i++) after a loop that stopped at i + 4 > n, or from i = n / 4 * 4: the remainder of
                // an unrolled or vectorised loop adds at most k-1 terms, a short sum (min-trip-count); the long sum
                // is the loop before it, reported on its own line
                impact = Impact.bounded(
                        tail.afterLoop() > 0
                                ? "a clean-up loop after the loop at line " + tail.afterLoop() + ": at most "
                                        + tail.most() + " terms"
                                : "a remainder loop that starts at most " + tail.most() + " below its bound");
                consequence = tail.afterLoop() > 0
                        ? Consequences.phrase("sum-clean-up-loop", "line", tail.afterLoop(), "count", tail.most())
                        : Consequences.phrase("sum-remainder-loop", "count", tail.most());
            } else if (!a.varies()) {
                // a = a + step with a step the loops never change (t += tstep, ra += fvz * fCa.z): a stepping (a
                // ray parameter, a position, an angle), not a sum of data; any port takes the same steps in order
                impact = Impact.bounded("a constant step: every port takes the same steps in the same order");
                consequence = Consequences.phrase("sum-constant-step");
            } else if (a.recurrence()) {
                // J[k] = J[k] + 0.25*lambda*D with D computed from J in the same time step: every step reads the
                // value the previous one produced, so CPU and GPU take the same steps in the same order
                impact = Impact.bounded("a recurrence: each step reads the value it updates, so every port takes the"
                        + " same steps in the same order");
                consequence = Consequences.phrase("sum-recurrence");
            } else if (resultCheck(a, a.site().uses())) {
                // err += d*d, ref += r*r of a host-side comparison with a reference: terms >= 0 cannot cancel, so
                // the sum is within (n-1)*u of itself in any order, and it only feeds a ratio, a test or a print
                impact = Impact.bounded("the error measure of a result check: a sum of non-negative terms, relative"
                        + " error at most n*" + unit);
                consequence = Consequences.phrase("sum-error-measure");
            } else if (tolerance != null) {
                // an error measure checked against a tolerance: the test is written to absorb rounding differences
                impact = new Impact(
                        Impact.Kind.BOUNDED,
                        "compared against a tolerance at line " + tolerance.line(),
                        out.location(tolerance.line(), tolerance.column()),
                        null);
                consequence = Consequences.phrase("use-tolerance", "line", tolerance.line());
            } else if (impact.kind() == Impact.Kind.AMPLIFIED
                    && (threshold = unreachable(a, a.site().uses())) != null) {
                // fCount += w > t ? c : 0 over a fixed window, then fCount > T: the partial sums are k*c, each
                // within k*c*n*u of its exact value; with no k*c that close to T the comparison cannot flip
                impact = Impact.bounded("its partial sums " + a.target() + " = k*"
                        + number(a.constantSum().step()) + " (k <= " + a.trip() + ") all stay farther from " + threshold
                        + " than their rounding error");
                consequence = Consequences.phrase("sum-threshold-unreachable", "trip", a.trip(), "test", threshold);
            } else if (impact.kind() == Impact.Kind.AMPLIFIED
                    && (zeroTest = zeroTestOnly(a, a.site().uses())) != null) {
                // s1 += d1*d1 with every store into s1 non-negative, then if (s1 != 0): the sum is 0 exactly when
                // no term was positive, in any order (enorm's scaled sums of squares)
                impact = Impact.bounded("a sum of non-negative terms is 0 only when every term is, in any order: its"
                        + " test against 0 at line " + zeroTest.line() + " cannot flip");
                consequence = Consequences.phrase("sum-nonnegative-zero-test");
            } else if (impact.kind() == Impact.Kind.AMPLIFIED
                    && a.trip() >= 0
                    && a.trip() <= SHORT_SUM
                    && a.constantSum() == null) {
                // fBlockError += e[i] over a 16-pixel block, then fBlockError < m_fBest: a fixed, short sum of data
                // decides no more than any float value does; its error bound is a small constant and a port adds its
                // few terms in the same order (sessions 57 and 58: reviewers judged every such warning a short sum).
                // A count of a constant step (frac += 0.04f, then frac >= 0.4f) was judged above: its partial sums
                // may meet the threshold exactly
                impact = Impact.bounded("a fixed " + a.trip() + "-term sum: the relative error stays below " + bound
                        + ", whatever it decides");
                consequence = Consequences.phrase("sum-fixed");
            } else if (impact.kind() == Impact.Kind.AMPLIFIED) {
                consequence = impact.consequence();
            } else if (a.site().partialResults() != null) {
                // for (i < numCores) s += parts[i], for (f : futures) s += f.get(): one partial result per worker,
                // a count of the machine's or the launch's, not of the data; the long sums are the workers' own
                String count = Quote.shorten(a.site().partialResults(), Quote.EXPRESSION);
                impact = Impact.bounded(
                        "one partial result per worker (" + count + "): a short sum of the workers'" + " sums");
                consequence = Consequences.phrase("sum-partial-results", "count", count);
            } else if (a.doublePrecision()) {
                impact = new Impact(
                        Impact.Kind.BOUNDED,
                        "double partial sums: error n*2^-53, far below float resolution",
                        null,
                        null);
                consequence = Consequences.phrase("sum-double");
            } else if (a.site().device() && !a.site().host() && a.gridStride()) {
                // a loop stepping by the grid or block size: the thread sums its share of a parallel reduction,
                // about n/threads terms, and the shares are combined across threads afterwards; its error is the
                // share's, not a serial loop's over all n, and it decides nothing (a use that decides is amplified
                // above). Reviewers of five evaluations judged these shares tolerant (docs/rules/NL004)
                impact = Impact.bounded(
                        "a thread's share of a grid-stride sum: about n/threads terms, deciding" + " nothing");
                consequence = Consequences.phrase("sum-grid-stride");
            } else if (a.site().device() && !a.site().host()) {
                // one thread's serial loop sums in the order of the serial CPU loop it ports: the error bound grows
                // alike on both sides; the order changes only across threads (NL009, reductions) or by contraction
                impact = new Impact(
                        Impact.Kind.BOUNDED, "one thread's serial sum, in the order of a serial CPU loop", null, null);
                consequence = Consequences.phrase("sum-one-thread");
            } else if (a.trip() >= 0 && a.trip() <= SHORT_SUM) {
                // a fixed, short sum (a filter window, a 16-wide block): its error bound is a small constant that
                // does not grow with the data, as the Java layer rules
                impact = Impact.bounded("a fixed " + a.trip() + "-term sum: the relative error stays below " + bound);
                consequence = Consequences.phrase("sum-fixed");
            } else if (omp) {
                // #pragma omp parallel for reduction(+:s): each thread sums its share, about n/threads terms, and
                // the runtime combines the shares in an order of its own; deciding nothing, as a grid-stride share
                // above (session 74: a benchmark's RMSE reduction, judged tolerant, was called serial)
                impact = Impact.bounded("an OpenMP reduction: each thread's share, about n/threads terms, combined in"
                        + " an order the runtime chooses, deciding nothing");
                consequence = Consequences.phrase("sum-openmp");
            } else {
                impact = new Impact(Impact.Kind.GROWING, "the rounding error grows with the trip count", null, null);
                consequence = Consequences.phrase("sum-host");
            }
            String msg = RuleCatalog.get()
                    .rule("NL004")
                    .message(
                            omp ? "cuda-omp-sum" : "cuda-sum",
                            "expr",
                            Consequences.quote(a.site().text()),
                            "type",
                            a.type(),
                            "loop",
                            a.outerLoopLine(),
                            "trip",
                            trip,
                            "consequence",
                            consequence);
            // the sum's typed identity: the scan groups the sums of one loop, the review finds precision families
            out.sum(a.site(), sumType(a), a.outerLoopLine());
            if (cleanUp
                    || stride != null
                    || !a.varies()
                    || a.recurrence()
                    || impact.kind() == Impact.Kind.BOUNDED
                            && (a.resultCheck() != ResultCheck.NONE
                                    || threshold != null
                                    || zeroTest != null
                                    // only tested against a tolerance: PTX's comparison is that test
                                    || tolerance != null && Consequences.tolerant(a.site(), false)
                                    // only clamped or kept as a running min/max: PTX's comparison is that selection
                                    || Consequences.continuous(a.site())
                                    // tested against 0 through sign-keeping steps only: PTX's comparison is that
                                    // test, which the order cannot flip (ClangSignClasses)
                                    || Consequences.fixedSign(a.site()))) {
                out.reportProven("NL004", facts.function, a.site(), msg, Confidence.HIGH, impact.withErrorBound(bound));
            } else if (impact.kind() == Impact.Kind.BOUNDED && a.doublePrecision()) {
                // double partial sums: a PTX "cancels against another product" downstream is no news (n*2^-53 stays
                // far below float resolution through any cancellation the message would not state), a decision is
                // (session 41's evaluation: a warning whose own message said "far below float resolution")
                out.reportWithoutCancellation(
                        CudaReport.NoCancellation.IN_DOUBLE,
                        "NL004",
                        facts.function,
                        a.site(),
                        msg,
                        Confidence.HIGH,
                        impact.withErrorBound(bound),
                        null);
            } else if (impact.kind() == Impact.Kind.GROWING && a.trip() < 0) {
                // a host sum of a length not known here that decides nothing: its order is the hazard (a GPU port
                // sums in another), so where the scan holds no device code it is a note (HostOnlyScans). Reviewers
                // of sessions 66 and 67 judged 130 such warnings in C and C++ code with no GPU code: none actionable
                // (a filter's few taps, a statistic printed with a few digits). A stated long count stays a warning
                out.reportPortOnly(
                        "NL004", facts.function, a.site(), msg, Confidence.HIGH, impact.withErrorBound(bound));
            } else {
                out.report("NL004", facts.function, a.site(), msg, Confidence.HIGH, impact.withErrorBound(bound), null);
            }
        }
    }
}
