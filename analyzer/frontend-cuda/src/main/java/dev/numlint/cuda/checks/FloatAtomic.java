package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.rules.RuleCatalog;

/**
 * NL009: a floating atomic add; the order of the additions and so the sum vary from run to run. An add of a
 * whole-number constant ({@code atomicAdd(counter, 1.0f)}) is a counter: every partial sum is an integer that the
 * type holds exactly while the sum stays below 2^24 (float) or 2^53 (double), so the order cannot change it; it is
 * reported as a note with that reason. A double sum is a note too (the order moves it by about n*2^-53 of its terms,
 * as for a double sum that decides nothing, NL004). Any other addend stays a warning, and all of them in one function are one
 * finding (the first, the others its related locations): one choice, to sum with atomics, which one deterministic
 * reduction undoes (GPUMD's force kernels: a dozen atomicAdds of forces and virials each, 454 findings before).
 * An add into an element no other thread of the launch adds to (its index differs from thread to thread:
 * {@code atomicAdd(&out[i + j * nx], v)} past {@code if (i >= nx) return;}) is a note: one thread's adds, in program
 * order, no order to vary.
 * An add of an element of a tally that every store of the function sets to a whole number (a shared tile of counts
 * flushed into the grid) is a counter too, a note naming the stores.
 * An atomic add of a type not known here (a template's {@code ValueT} with no instantiation in view, a type no file
 * read defines) is a note that says so, so that no floating atomic goes unmentioned.
 */
@AutoService(CudaCheck.class)
public final class FloatAtomic implements CudaCheck {
    @Override
    public String ruleId() {
        return "NL009";
    }

    @Override
    public void check(FunctionFacts facts, CudaReport out) {
        for (FunctionFacts.Atomic a : facts.atomics) {
            if (a.unknown()) {
                // the report records why it is not judged: the type is decided where the template is instantiated
                out.report(
                        "NL009",
                        facts.function,
                        a.site(),
                        RuleCatalog.get()
                                .rule("NL009")
                                .message(
                                        "cuda-atomic-unknown",
                                        "expr",
                                        Consequences.quote(a.site().text())),
                        Confidence.LOW,
                        Impact.bounded("the added type is not known here: decided where the template is instantiated"),
                        null);
                continue;
            }
            if (!a.floating()) continue;
            Confidence conf = a.inferred() ? Confidence.LOW : Confidence.HIGH;
            // proven from the code: the PTX layer's atomic of the same add does not raise them
            String limit = exactLimit(a);
            if (limit != null) {
                long n = (long) (double) a.addend();
                proven(
                        out,
                        facts,
                        a,
                        conf,
                        "adds the whole number " + n + ": exact in any order while the sum stays" + " below " + limit,
                        "cuda-atomic-count",
                        "n",
                        n,
                        "limit",
                        limit);
                continue;
            }
            String tallyLimit = a.tally() == null ? null : limit(a.type());
            if (tallyLimit != null) {
                // an element of a tally of whole numbers (a shared tile of counts flushed to the grid): as a counter
                proven(
                        out,
                        facts,
                        a,
                        conf,
                        "adds whole numbers: exact in any order while the sum stays below " + tallyLimit,
                        "cuda-atomic-tally",
                        "why",
                        a.tally(),
                        "limit",
                        tallyLimit);
                continue;
            }
            if (a.distinct() != null) {
                // one add per element per launch: each element's sum is its one thread's, in program order
                proven(
                        out,
                        facts,
                        a,
                        conf,
                        "one thread adds into each element: no order varies from run to run",
                        "cuda-atomic-distinct",
                        "why",
                        a.distinct());
                continue;
            }
            String msg = RuleCatalog.get()
                    .rule("NL009")
                    .message(
                            "cuda-atomic", "expr", Consequences.quote(a.site().text()), "type", a.typeAsInstantiated());
            // a double sum's order moves it by about n*2^-53 of its terms, far below float resolution: as a double
            // sum that decides nothing (NL004), a note; a float one differs in its low bits from run to run
            boolean dbl = a.type().startsWith("double");
            // every floating atomic sum of one function is one choice (a deterministic reduction replaces them
            // together): the scan merges them, with the PTX layer's atomics, into one finding per precision
            out.reportDecision(
                    "NL009",
                    facts.function,
                    a.site(),
                    msg,
                    conf,
                    dbl
                            ? new Impact(
                                    Impact.Kind.BOUNDED,
                                    "double: the run-dependent order moves the sum by about n*2^-53 of its terms",
                                    null,
                                    null)
                            : new Impact(
                                    Impact.Kind.AMPLIFIED, "added atomically in a run-dependent order", null, null),
                    dev.numlint.knowledge.NumericFacts.atomicSumDecision(dbl));
        }
    }

    /**
     * Reports {@code a} as proven bounded ({@code impact}), with the catalog's message {@code key} given the quoted
     * add, its type and {@code args} (name, value pairs).
     */
    private static void proven(
            CudaReport out,
            FunctionFacts facts,
            FunctionFacts.Atomic a,
            Confidence conf,
            String impact,
            String key,
            Object... args) {
        Object[] all = new Object[args.length + 4];
        all[0] = "expr";
        all[1] = Consequences.quote(a.site().text());
        all[2] = "type";
        all[3] = a.typeAsInstantiated();
        System.arraycopy(args, 0, all, 4, args.length);
        out.reportProven(
                "NL009",
                facts.function,
                a.site(),
                RuleCatalog.get().rule("NL009").message(key, all),
                conf,
                new Impact(Impact.Kind.BOUNDED, impact, null, null));
    }

    /**
     * The bound below which the sum of the atomic's whole-number constant addend is exact ("2^24" for float,
     * "2^53" for double), or null when the addend is not such a constant or the type is another.
     */
    private static String exactLimit(FunctionFacts.Atomic a) {
        Double v = a.addend();
        if (v == null || v == 0 || v != Math.rint(v)) return null;
        String limit = limit(a.type());
        return limit == null || Math.abs(v) >= Math.scalb(1.0, Integer.parseInt(limit.substring(2))) ? null : limit;
    }

    /** The bound below which whole numbers of the floating type {@code type} are exact ("2^24"), or null. */
    private static String limit(String type) {
        return switch (type) {
            case "float" -> "2^24";
            case "double" -> "2^53";
            default -> null;
        };
    }
}
