package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FlagCitation;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.cuda.facts.Site;
import dev.numlint.cuda.facts.ValueUse;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.rules.RuleCatalog;
import java.util.HashSet;
import java.util.Set;

/**
 * NL003: a multiply followed by an add or subtract that nvcc (device code, -fmad=true) or the host compiler (host
 * code built for an FMA-capable CPU with GNU contraction) may fuse into one fma. Whether it is fused is not
 * guessed ("may become one fma"); the level comes from what the result decides: a difference of products is
 * cancellation (unless the signs of its terms make it a sum of magnitudes, or it is evaluated in double and rounded to float right away, where the fma's 2^-53 reaches the
 * float as an ulp at most, short of a cancellation to 2^-29 of the terms, or it is evaluated in double and kept there
 * deciding nothing, where it moves by 2^-53 of a product), a result that reaches an index, a conversion, a branch or
 * a reduction is amplified, anything else (stored, returned) is a note. The catalog's {@code tie-only} policy then
 * makes an amplified value a note (one rounding moves a decision only at a tie) and keeps a cancellation a warning only
 * where the cancelled value decides something ({@link Impact#level(dev.numlint.model.Level, java.util.Set)}).
 */
@AutoService(CudaCheck.class)
public final class ContractibleMulAdd implements CudaCheck {
    @Override
    public String ruleId() {
        return "NL003";
    }

    /**
     * Whether the value goes straight into a never-negative local ({@link dev.numlint.cuda.facts.Site#neverNegative})
     * and every use of it that decides something is a test of that local against 0.
     */
    static boolean zeroTestsOnly(Site site) {
        String v = site.neverNegative();
        if (v == null) return false;
        boolean any = false;
        for (dev.numlint.cuda.facts.ValueUse u : site.uses()) {
            if (!u.kind().amplifies()) continue;
            if (!SerialAccumulation.zeroTest(v, u)) return false;
            any = true;
        }
        return any;
    }

    /**
     * Whether the expression holds a product besides the one contracted, exact or not ({@code wa*m1 - wb*m2} with
     * {@code wb} 1.0): the rounded product may then cancel against it, a tie the program makes (subscripts do not
     * count).
     */
    static boolean otherProduct(FunctionFacts.Contraction c) {
        String text = c.site().text();
        if (text == null || c.product() == null) return true;
        int at = text.indexOf(c.product());
        String rest = at < 0
                ? text
                : text.substring(0, at) + text.substring(at + c.product().length());
        return rest.replaceAll("\\[[^\\[\\]]*\\]", "").indexOf('*') >= 0;
    }

    /**
     * Whether a use that decides something (a test, a conversion, an index) receives the value itself
     * ({@link ValueUse#direct}): a cross product's component squared and summed into a norm before its test ({@code
     * rt2 = xt*xt + yt*yt + zt*zt; if (rt2 != 0)}) flips it only where every component cancels, a degenerate case,
     * not wherever one does.
     */
    static boolean decidesDirectly(Site site) {
        for (ValueUse u : site.uses()) if (u.kind().amplifies() && u.direct() && !u.statistical()) return true;
        return false;
    }

    /**
     * Whether every use of the value that decides something is a test against 0 that the value reaches only through
     * a sum with other values ({@link ValueUse#direct} false: {@code len = sqrtf(x*x + y*y); if (len > 0)}).
     */
    static boolean zeroTestsThroughSums(Site site) {
        boolean any = false;
        for (ValueUse u : site.uses()) {
            if (!u.kind().amplifies() || u.statistical()) continue;
            if (u.direct() || u.kind() != ValueUse.Kind.COMPARISON || !"0.0".equals(u.detail())) return false;
            any = true;
        }
        return any;
    }

    @Override
    public void check(FunctionFacts facts, CudaReport out) {
        Set<Integer> lines = new HashSet<>();
        for (FunctionFacts.Contraction c : facts.contractions) {
            boolean dev = c.site().device() && out.build().effectiveFmad();
            boolean hst = c.site().host() && out.build().hostContracts();
            if (!dev && !hst) continue;
            if (!lines.add(c.site().line())) continue;
            if (!hst) out.deviceOnly("NL003", c.site()); // nvcc's -fmad alone: the host compiler does not fuse here
            FlagCitation fl;
            String compiler;
            if (dev) {
                fl = out.build().fmad() != null
                        ? out.flag(x -> x.contains("fmad"), "-fmad=true")
                        : new FlagCitation("-fmad=true default", null);
                compiler = "";
            } else {
                fl = out.flag(
                        x -> x.startsWith("-march") || x.contains("fp-contract"),
                        "-march=" + out.build().hostArch());
                compiler = "host compiler, ";
            }
            Impact impact;
            String consequence;
            boolean paired = false;
            boolean proven = false;
            boolean apart = false;
            boolean fp64 = false;
            String never = c.site().neverNegative();
            if (never != null && !zeroTestsOnly(c.site())) {
                // its tests against 0 cannot flip; what it decides is the other uses ('r2 < rc2', not 'r2 != 0')
                c.site().dropUses(u -> SerialAccumulation.zeroTest(never, u));
            }
            if (c.differenceOfProducts() && c.site().termsCannotCancel()) {
                // fp*r - f*r*r with fp <= 0 <= f, r > 0: a sum of two magnitudes, which no rounding of one term can
                // cancel (eval26d #60): what is left is what the value decides (a decision, a use elsewhere that
                // cancels) or nothing
                impact = Consequences.of(c.site(), out);
                if (impact.kind() == Impact.Kind.BOUNDED) {
                    impact = new Impact(
                            Impact.Kind.BOUNDED, Consequences.phrase("product-difference-same-sign"), null, null);
                    out.consequenceWithoutDecision(c.site(), impact.consequence());
                }
                consequence = impact.consequence();
                apart = impact.kind() != Impact.Kind.AMPLIFIED;
            } else if (c.differenceOfProducts() && c.pairedComponent()) {
                // one component of a complex product or rotation: bounded relative to the pair's magnitude, unless
                // the component itself decides something
                impact = Consequences.of(c.site(), out);
                if (impact.kind() != Impact.Kind.AMPLIFIED) {
                    impact = new Impact(Impact.Kind.BOUNDED, Consequences.phrase("use-complex-pair"), null, null);
                    out.consequenceWithoutDecision(c.site(), impact.consequence());
                    paired = true;
                }
                consequence = impact.consequence();
            } else if (c.differenceOfProducts()
                    && c.site().roundedToFloat()
                    && (impact = Consequences.of(c.site(), out)).kind() != Impact.Kind.AMPLIFIED) {
                // evaluated in double, stored as float: the fma moves the double by an ulp of one product (2^-53),
                // which reaches the float only as its own rounding (an ulp), unless the terms cancel to 2^-29
                impact = new Impact(
                        Impact.Kind.BOUNDED, Consequences.phrase("product-difference-in-double"), null, null);
                out.consequenceWithoutDecision(c.site(), impact.consequence());
                consequence = impact.consequence();
            } else if (c.site().inDouble()
                    && (impact = Consequences.of(c.site(), out)).kind() != Impact.Kind.AMPLIFIED
                    && (c.differenceOfProducts() || impact.kind() == Impact.Kind.CANCELLATION)) {
                // evaluated in double and kept there, deciding nothing: fused or not, the difference moves by an ulp
                // of a product (2^-53 of it), far below what a double result is compared or written with; a use that
                // decides something (a test, a conversion, an index) keeps the warning above
                impact = new Impact(Impact.Kind.BOUNDED, Consequences.phrase("product-difference-double"), null, null);
                out.consequenceWithoutDecision(c.site(), impact.consequence());
                consequence = impact.consequence();
                fp64 = true;
            } else if (c.differenceOfProducts()) {
                // the cancelled value's error is an ulp of its products, not of itself: stored, it is a few ulp of
                // the terms (a note for a rule whose decisions flip only at a tie); what it decides flips wherever the
                // exact difference is within that ulp of the threshold, not only at a tie
                Impact then = Consequences.of(c.site(), out);
                Impact.Reach decides = then.kind() == Impact.Kind.AMPLIFIED && decidesDirectly(c.site())
                        ? (then.reach() != null ? then.reach() : Impact.Reach.DECISION)
                        : null;
                ValueUse edge = c.site().uses().stream()
                        .filter(u -> u.kind() == ValueUse.Kind.DOMAIN_EDGE)
                        .findFirst()
                        .orElse(null);
                if (decides == null && edge != null) {
                    // sqrtf(R*R - y*y) at |y| = R: fused, the difference is the rounding error of y*y, negative half
                    // the time, and the root is NaN
                    decides = Impact.Reach.DECISION;
                    then = new Impact(
                            Impact.Kind.AMPLIFIED,
                            Consequences.phrase("use-domain-edge", "fn", edge.detail(), "line", edge.line()),
                            out.location(edge.line(), edge.column()),
                            null,
                            decides);
                }
                impact = new Impact(
                        Impact.Kind.CANCELLATION,
                        "a difference of products: one product is rounded, the other is not",
                        decides == null ? null : then.sink(),
                        null,
                        decides);
                consequence = decides == null
                        ? Consequences.phrase("product-difference")
                        : Consequences.phrase("product-difference-decides", "consequence", then.consequence());
            } else if ((impact = Consequences.of(c.site(), out)).kind() == Impact.Kind.AMPLIFIED
                    && zeroTestsOnly(c.site())) {
                // r2 = dx*dx + dy*dy + dz*dz, then r2 != 0: a sum of non-negative terms is 0 only when every term
                // is, fused or not, so the test cannot flip (eval26d: GPUMD's distance and k-vector tests)
                impact = Impact.bounded("a sum of non-negative terms is 0 only when every term is, fused or not: its"
                        + " test against 0 cannot flip");
                consequence = Consequences.phrase("sum-nonnegative-zero-test");
                proven = true; // from the code's structure: the PTX layer's "compared in a condition" does not raise it
            } else if (impact.kind() == Impact.Kind.AMPLIFIED
                    && otherProduct(c)
                    && !c.site().termsCannotCancel()
                    && zeroTestsThroughSums(c.site())) {
                // a*w0 + b*w1 that reaches only tests against 0 of sums it is part of (a quaternion's components
                // squared into its norm, then 'norm > 0'): as for a difference of products, its cancellation flips
                // them only where every other term is 0 too, so its error is an ulp of its products (session 74
                // round A: a particle filter's SLERP, whose blended components were said to flip the norm's test)
                impact = new Impact(
                        Impact.Kind.CANCELLATION,
                        "a sum of products that may cancel: one product is rounded, the other is not",
                        null,
                        null,
                        null);
                consequence = Consequences.phrase("product-difference");
            } else if (impact.kind() == Impact.Kind.AMPLIFIED
                    && otherProduct(c)
                    && !c.site().termsCannotCancel()
                    && (impact.reach() != Impact.Reach.DECISION || decidesDirectly(c.site()))) {
                // a*w0 + b*w1 tested, converted or indexed: the products' signs are not known to agree, so they may
                // cancel, and exact cancellation is common (symmetric data), where the fused sum is the rounding error
                // of one product rather than 0: the decision flips beyond a tie. A test only of the sum itself: after
                // another term is added (c*dx + s*dy + cx, then 'x < 0'), its cancellation leaves that term, a tie
                // again; a rounding is not (floorf(cx - dx) with a whole cx steps right there)
                impact = new Impact(
                        Impact.Kind.CANCELLATION,
                        impact.consequence(),
                        impact.sink(),
                        null,
                        impact.reach() != null ? impact.reach() : Impact.Reach.DECISION);
                consequence = Consequences.phrase("product-sum-decides", "consequence", impact.consequence());
            } else {
                consequence = impact.consequence();
            }
            String msg = RuleCatalog.get()
                    .rule("NL003")
                    .message(
                            "cuda-contract",
                            "expr",
                            Consequences.quote(c.site().text()),
                            "compiler",
                            compiler,
                            "flag",
                            fl.origin() != null ? fl.origin().flag() : fl.text(),
                            "consequence",
                            consequence);
            FlagCitation cited = fl.origin() == null ? null : fl;
            if (apart || paired || fp64)
                out.reportWithoutCancellation(
                        apart
                                ? CudaReport.NoCancellation.TERMS_CANNOT_CANCEL
                                : paired
                                        ? CudaReport.NoCancellation.PAIRED_COMPONENT
                                        : CudaReport.NoCancellation.IN_DOUBLE,
                        "NL003",
                        facts.function,
                        c.site(),
                        msg,
                        Confidence.HIGH,
                        impact,
                        cited);
            else if (proven) out.reportProven("NL003", facts.function, c.site(), msg, Confidence.HIGH, impact, cited);
            else if (dev
                    && c.site().inDouble()
                    && !c.differenceOfProducts()
                    && (!otherProduct(c) || c.site().termsCannotCancel())
                    && !Consequences.provenBounded(c.site(), impact)) {
                // in double: what it decides flips only at a tie (cuda/OnlyComparisons reviews the merged
                // finding); a second product, exact or not, can make that tie: not here, unless the terms' signs make
                // the sum one of magnitudes (x*x + y*y: no cancellation, no tie to make). Judged so whatever this
                // layer saw it reach: a value it saw only stored may be compared in the PTX layer's flow, which
                // raises the merged finding to that comparison (session 40's cuDisc: 'sig[i] = sig[i] + k*dRf', then
                // 'if (sig[i] < floor)'). Host code keeps its level: its whole-number arithmetic past 2^53
                // (whole_powers.c) makes ties by construction
                out.reportInDouble("NL003", facts.function, c.site(), msg, Confidence.HIGH, impact, cited);
            } else Consequences.report(out, "NL003", facts.function, c.site(), msg, Confidence.HIGH, impact, cited);
        }
    }
}
