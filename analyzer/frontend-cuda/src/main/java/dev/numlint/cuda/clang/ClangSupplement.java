package dev.numlint.cuda.clang;

import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.cuda.facts.Site;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Clang as the type authority and completeness net of the hand-written front end's facts, for one file:
 * <ul>
 *   <li>{@link #amend}: an accumulation whose carrying loops Clang bounds (constants, a fixed-size array indexed by
 *       the counter) has that many terms at most; an accumulation whose accumulator is reset ({@code = 0}, {@code memset}, a declaration) in
 *       every iteration of the loop the hand-written facts cite is carried only by the loops inside the reset
 *       (Clang's def-use); reset in every iteration of its innermost loop, it is rewritten, not summed;</li>
 *   <li>{@link #missing}: facts of the functions the hand-written front end did not analyze (its parser failed or
 *       never saw them), from Clang: conversions of floating values to integers, floating atomic adds, approximate
 *       intrinsics, floating divisions, sums with their carrying loops and trip counts, float expressions promoted
 *       to double, contractible multiply-adds and math-library calls, the last four with their uses through Clang's
 *       def-use ({@link ClangUses}); conservative where Clang's facts have no analysis yet (no interval: a
 *       conversion is guarded only by a clamp or a conditional in its operand); and in the functions it did analyze,
 *       every floating atomic add, explicit floating-to-integer cast, approximate intrinsic and double literal
 *       promoting float data that Clang sees on a line where the hand-written facts have none of that kind.</li>
 * </ul>
 * Checks keep every decision: this class only fills {@link FunctionFacts} records.
 */
public final class ClangSupplement {
    private final ClangUnit unit;
    private final Set<Integer> atomicLines = new HashSet<>();
    private final Set<Integer> conversionLines = new HashSet<>();
    private final Set<Integer> floatConversionLines = new HashSet<>();
    /** "line:column" of the hand-written facts' conversions (those with floating data in the second set). */
    private final Set<String> conversionPositions = new HashSet<>();

    private final Set<String> floatConversionPositions = new HashSet<>();
    private final Set<Integer> intrinsicLines = new HashSet<>();
    /** Lines where the hand-written facts hold a math call. */
    private final Set<Integer> mathCallLines = new HashSet<>();
    /** Lines where the hand-written facts hold a float division. */
    private final Set<Integer> divisionLines = new HashSet<>();
    /** Lines of the hand-written facts' promotions (float destinations given a double value). */
    private final Set<Integer> promotionLines = new HashSet<>();

    private final Set<Integer> analyzedLines = new HashSet<>();
    private int resetsApplied;

    /** Tensor-core math on float data ({@link ClangTensorMath}), computed on first request. */
    private final ClangMemo<List<ClangTensorMath.TensorMath>> tensorMath;

    /** Integer divisions converted to floating types ({@link ClangIntegerDivisions}): Clang's alone. */
    private final ClangMemo<List<ClangIntegerDivisions.Division>> integerDivisions;

    /** Tests against 0 whose outcome a contraction's rounding cannot change ({@link ClangSignClasses}). */
    private final ClangSignClasses signClasses;

    public ClangSupplement(ClangUnit unit) {
        this.unit = unit;
        this.signClasses = new ClangSignClasses(unit, unit.signs());
        this.tensorMath = new ClangMemo<>(new ClangTensorMath(unit)::compute);
        this.integerDivisions = new ClangMemo<>(new ClangIntegerDivisions(unit)::compute);
    }

    public ClangUnit unit() {
        return unit;
    }

    /**
     * Whether Clang compiled this file past {@code line}, where the hand-written preprocessor reached an
     * {@code #error}: Clang read the system headers that decide it ({@code #ifndef LDBL_MAX_10_EXP} after
     * {@code <float.h>}) and reported no error there, so the file does not stop at it (session 64 round B: an
     * ephemeris library's long doubles were notes "not compiled in the analyzed configuration").
     */
    public boolean compiledPast(int line) {
        return unit != null
                && !unit.unavailable()
                && notCompiled == null
                && !unit.errorLines().contains(line);
    }

    /** Why the build compiles none of this file (it stops at its own {@code #error}), or null. */
    private volatile String notCompiled;

    public String notCompiled() {
        return notCompiled;
    }

    public ClangSupplement notCompiled(String why) {
        notCompiled = why;
        return this;
    }

    /** The notice naming Clang's first error in this file, held until the hand-written parser's are known. */
    private volatile dev.numlint.model.Notification errors;

    /** The held notice of Clang's errors, or null (no error, or one the front end reports otherwise). */
    public dev.numlint.model.Notification errors() {
        return errors;
    }

    public ClangSupplement errors(dev.numlint.model.Notification notice) {
        errors = notice;
        return this;
    }

    /**
     * Tells Clang's intervals whether the file is compiled on its own (no scanned file includes it): only then do the
     * call sites of its static and inline functions give their parameters intervals ({@link ClangCallSites}).
     */
    public void compiledAlone(
            java.util.function.BooleanSupplier alone, java.util.function.Predicate<String> mentionedOutside) {
        unit.intervals.callSites().compiledAlone(alone, mentionedOutside);
    }

    /** The hand-written front end analyzed the function defined at {@code line}. */
    public synchronized void analyzed(int line) {
        analyzedLines.add(line);
    }

    /** The number of accumulations {@link #amend} corrected (for the statistics). */
    public synchronized int resetsApplied() {
        return resetsApplied;
    }

    /**
     * The function definition Clang reads that begins after {@code line} (where the hand-written parser's function is
     * declared) and whose body holds {@code bodyLine} (where that parser's body begins), or null. Such a body is
     * another function's: the hand-written parser read two declarations as one definition (a definition whose body
     * comes from an {@code #include} after a {@code #define}, as cubature's {@code converged}, followed by another
     * function), and its facts for that "function" are of the wrong declaration (parameters, types, name).
     */
    public ClangUnit.Function joined(int line, int bodyLine) {
        for (ClangUnit.Function g : unit.functions()) {
            if (g.startLine() > line && g.startLine() <= bodyLine && g.endLine() >= bodyLine) return g;
        }
        return null;
    }

    /** Whether Clang holds a function definition spanning {@code line} (it can stand in for the legacy parser). */
    public boolean covers(int line) {
        for (ClangUnit.Function f : unit.functions()) {
            if (line >= f.startLine() && line <= f.endLine()) return true;
        }
        return false;
    }

    /** Corrects the facts of one function with Clang's def-use and records which lines have which facts. */
    public synchronized void amend(FunctionFacts facts) {
        // an atomic add of unknown type (a template parameter's) leaves the line to Clang's typed fact
        for (FunctionFacts.Atomic a : facts.atomics) {
            if (a.floating()) atomicLines.add(a.site().line());
        }
        // an atomic of a type the hand-written front end does not know: Clang's reading decides where it has the
        // type, in the function itself or in an instantiation of its template in view; it stays unknown only in a
        // template Clang saw no instantiation of
        facts.atomics.removeIf(a -> a.unknown() && clangTyped(a.site().line()));
        // a conversion the hand-written facts hold is theirs (they know more: intervals, integer data in float)
        // an operand the hand-written facts see as integer data because its type is a template parameter they do not
        // know is Clang's to judge: its conversion there is floating in the instantiations (supplied by missing())
        // and so is an operand whose floating data they lose in a function template's dependent return type
        facts.conversions.removeIf(c -> !c.floatData()
                && (ClangTemplateConversions.at(unit, c.site().line(), c.site().column())
                        || ClangTemplateConversions.throughCall(
                                unit, c.site().line(), c.site().column())));
        guardsFromClang(facts);
        for (FunctionFacts.Conversion c : facts.conversions) {
            String at = c.site().line() + ":" + c.site().column();
            roundingFacts(facts, at, at);
        }
        for (FunctionFacts.Conversion c : facts.conversions) {
            // Clang supplements only conversions to unsigned and narrow signed types (below): lines with those
            if (!c.unsigned() && c.bytes() >= 4) continue;
            conversionLines.add(c.site().line());
            conversionPositions.add(c.site().line() + ":" + c.site().column());
            if (c.floatData()) floatConversionLines.add(c.site().line());
            if (c.floatData())
                floatConversionPositions.add(c.site().line() + ":" + c.site().column());
        }
        for (FunctionFacts.MathCall c : facts.calls) {
            if (c.fastIntrinsic()) intrinsicLines.add(c.site().line());
            mathCallLines.add(c.site().line());
        }
        for (FunctionFacts.Promotion p : facts.promotions)
            promotionLines.add(p.site().line());
        for (FunctionFacts.Division d : facts.divisions) {
            if (d.intrinsic() != null) intrinsicLines.add(d.site().line());
            divisionLines.add(d.site().line());
        }
        // a product of whole numbers within the significand is exact: fused or not the same (ClangExactIntegers)
        facts.contractions.removeIf(
                c -> ClangWholeNumbers.exactAt(unit, c.site().line(), c.product()));
        List<dev.numlint.cuda.facts.Site> sites = overwrittenBeforeUse(facts);
        for (FunctionFacts.Contraction c : facts.contractions) {
            if (c.differenceOfProducts()
                    && unit.inDoubleRoundedToFloat(c.site().line(), c.site().text()))
                c.site().inDoubleRoundedToFloat();
            if (unit.evaluatedInDouble(c.site().line(), c.site().text()))
                c.site().evaluatedInDouble();
            // a difference, or a sum of two products (x*x + y*y), whose terms' signs make it a sum of magnitudes
            if (unit.signs().termsCannotCancel(c.site().line(), c.site().text()))
                c.site().withTermsThatCannotCancel();
        }
        // a value that is one product of a difference whose terms' signs make it a sum of magnitudes cancels nothing
        List<dev.numlint.cuda.facts.Site> all = new ArrayList<>(sites);
        for (FunctionFacts.Accumulation a : facts.accumulations) all.add(a.site());
        for (dev.numlint.cuda.facts.Site site : all) {
            site.dropUses(u -> u.kind() == dev.numlint.cuda.facts.ValueUse.Kind.DIFFERENCE_OF_PRODUCTS
                    && u.text() != null
                    && unit.signs().termsCannotCancel(u.line(), u.text()));
        }
        signClasses.testsOfFixedSign(facts);
        ClangAgreeingSides.relabel(unit, all);
        ClangUnreachableTests.drop(unit, all);
        ClangPrintOnlyTests.drop(unit, all);
        for (FunctionFacts.Promotion p : facts.promotions) {
            if (unit.cancelsNearlyEqualTerms(p.site().line(), p.site().text()))
                p.site().cancelling();
            String v = unit.signs()
                    .promotedIntoNeverNegative(p.site().line(), p.site().text(), p.target());
            if (v != null) p.site().storesNeverNegative(v);
        }
        List<FunctionFacts.Accumulation> acc = facts.accumulations;
        for (int i = 0; i < acc.size(); i++) {
            // a double sum of powers of two (1.0 / m, m doubling): exact partial sums, as whole-number terms
            FunctionFacts.Accumulation a = acc.get(i);
            ClangSites.Sum sum = a.doublePrecision() && !a.wholeNumberTerm() ? sumAt(a) : null;
            if (sum != null && !sum.viaFma() && ClangDyadicTerms.exact(sum.term(), sum.in()))
                acc.set(i, with(a, a.outerLoopLine(), a.trip(), false, a.recurrence(), a.elementwise(), true));
        }
        for (FunctionFacts.Accumulation a : acc)
            if (unit.neverNegative(a.site().line(), a.target())) a.site().storesNeverNegative(a.target());
        for (FunctionFacts.Contraction c : facts.contractions) {
            String v = unit.signs()
                    .storedIntoNeverNegative(c.site().line(), c.site().text());
            if (v != null) c.site().storesNeverNegative(v);
        }
        for (int i = 0; i < acc.size(); i++) {
            FunctionFacts.Accumulation a = acc.get(i);
            if (a.rewritten()) continue;
            ClangLoops.Carried c = unit.carriedBy(a.site().line(), a.site().column(), a.target());
            if (c == null) continue;
            // an element: a subscript, or an accessor's call (g.at(j, i), g(j, i))
            ClangSites.Sum sum = a.target().contains("[") || a.target().contains("(") ? sumAt(a) : null;
            if (sum != null) {
                // an element: the loops that move it to another element in every iteration carry nothing (Clang's
                // def-use of the subscript, ClangElements); the sum falls back to a loop around them that does not
                // move it, and with none it is one term per element
                boolean perElement = c.resetLine() == 0 && c.carrying().isEmpty() || sum.elementwise();
                boolean moved = c.resetLine() == 0
                        && !c.carrying().isEmpty()
                        && !c.carrying().contains(a.outerLoopLine());
                if (moved || perElement != a.elementwise()) {
                    a = with(
                            a,
                            moved ? c.carrying().get(0) : a.outerLoopLine(),
                            moved ? c.trip() : a.trip(),
                            false,
                            a.recurrence(),
                            perElement,
                            a.wholeNumberTerm());
                    acc.set(i, a);
                    resetsApplied++;
                }
                // every loop that carries it moves the element by a stride that may be 0 (y[j*C], iy += incy): one
                // term per element unless it is 0, cited at the outermost such loop; Clang's reading overrules the
                // hand-written one either way
                if (!perElement && c.stride() != null && !c.carrying().isEmpty()) {
                    if (a.outerLoopLine() != c.carrying().get(0)) {
                        a = with(a, c.carrying().get(0), c.trip(), false, a.recurrence(), false, a.wholeNumberTerm());
                        acc.set(i, a);
                        resetsApplied++;
                    }
                    a.site().withStride(c.stride());
                } else {
                    a.site().withStride(null);
                }
            }
            // the outermost loop that carries the sum is an OpenMP loop that reduces it (parallel for reduction(+:s))
            if (!c.carrying().isEmpty() && c.carrying().get(0) == a.outerLoopLine())
                a.site().inOpenMpReduction(ClangOpenMp.reduction(unit, a.outerLoopLine(), a.target()));
            // the one loop that carries the sum adds one partial result per worker (numCores, futures)
            if (c.partials() != null && c.carrying().size() == 1 && c.carrying().get(0) == a.outerLoopLine())
                a.site().overPartialResults(c.partials());
            // the one loop that carries the sum (after a reset, the one amend() cites below) is a clean-up loop
            if (c.cleanUp() != null
                    && c.carrying().size() == 1
                    && (c.carrying().get(0) == a.outerLoopLine() || c.resetLine() != 0))
                a.site().inCleanUpLoop(c.cleanUp());
            if (c.resetLine() != 0 && c.carrying().isEmpty()) {
                acc.set(i, with(a, a.outerLoopLine(), a.trip(), true));
                resetsApplied++;
            } else if (c.resetLine() != 0 && !c.carrying().contains(a.outerLoopLine())) {
                // the hand-written recurrence was judged over the loop it cited; a reset ends the sum inside it
                boolean recurrence = a.recurrence() && !Boolean.FALSE.equals(c.recurrentWhereCarried());
                acc.set(i, with(a, c.carrying().get(0), c.trip(), false, recurrence));
                resetsApplied++;
            } else if (a.trip() < 0 && c.trip() > 0 && c.carrying().contains(a.outerLoopLine())) {
                // the loops that carry the sum are bounded where the hand-written facts saw no constant: a fixed-size
                // array they index with their counter, a bound in a template pattern (at most c.trip() terms), a
                // template argument's constant member (Config::kKernelSize, the longest instantiation's)
                if (c.tripFrom() != null) a.site().withTripFrom(c.tripFrom());
                acc.set(i, with(a, a.outerLoopLine(), c.trip(), false));
                resetsApplied++;
            }
        }
    }

    /**
     * Whether Clang knows the types at {@code line}: it holds a floating atomic there (through the template's
     * instantiations or its math), or it read a function spanning the line that is no template, or a template with an
     * instantiation in view.
     */
    private boolean clangTyped(int line) {
        for (ClangUnit.Atomic a : unit.atomics())
            if (a.floating() && a.node().line == line) return true; // floating, by Clang's types
        for (ClangUnit.Function f : unit.functions()) {
            if (line >= f.startLine() && line <= f.endLine())
                return !f.template() || !f.instantiations().isEmpty();
        }
        return false;
    }

    private static FunctionFacts.Accumulation with(
            FunctionFacts.Accumulation a, int outerLoopLine, long trip, boolean rewritten) {
        return with(a, outerLoopLine, trip, rewritten, a.recurrence());
    }

    private static FunctionFacts.Accumulation with(
            FunctionFacts.Accumulation a, int outerLoopLine, long trip, boolean rewritten, boolean recurrence) {
        return with(a, outerLoopLine, trip, rewritten, recurrence, a.elementwise(), a.wholeNumberTerm());
    }

    private static FunctionFacts.Accumulation with(
            FunctionFacts.Accumulation a,
            int outerLoopLine,
            long trip,
            boolean rewritten,
            boolean recurrence,
            boolean elementwise,
            boolean whole) {
        return new FunctionFacts.Accumulation(
                a.site(),
                a.target(),
                a.type(),
                a.doublePrecision(),
                outerLoopLine,
                trip,
                a.compensated(),
                whole,
                a.treeReduction(),
                elementwise,
                a.varies(),
                a.timing(),
                rewritten || a.rewritten(),
                a.viaFma(),
                a.gridStride(),
                a.resultCheck(),
                recurrence,
                a.constantSum());
    }

    /** Clang's sum at the line of {@code a} with the same accumulator, or null. */
    private ClangSites.Sum sumAt(FunctionFacts.Accumulation a) {
        String want = ClangSyntax.squash(a.target());
        for (ClangSites.Sum s : unit.sums()) {
            if (s.node().line == a.site().line()
                    && ClangSyntax.squash(unit.text(s.target())).equals(want)) return s;
        }
        return null;
    }

    /**
     * Drops the uses a value stored into a variable no longer reaches: the variable is replaced whole before them
     * ({@code v = ...}, {@code memcpy(&v, ...)}: {@link ClangDefUse#overwrittenBefore}), in the hand-written facts
     * ({@link #amend}) and in Clang's own of a function only Clang read ({@link #missing}). Returns the sites.
     */
    private List<Site> overwrittenBeforeUse(FunctionFacts facts) {
        List<Site> sites = new ArrayList<>();
        for (FunctionFacts.Contraction c : facts.contractions) sites.add(c.site());
        for (FunctionFacts.Promotion p : facts.promotions) sites.add(p.site());
        for (FunctionFacts.Division d : facts.divisions) sites.add(d.site());
        for (FunctionFacts.MathCall c : facts.calls) sites.add(c.site());
        // a sum whose variable is replaced whole after its loop (e = -x[0]): the later tests read the new value
        List<Site> all = new ArrayList<>(sites);
        for (FunctionFacts.Accumulation a : facts.accumulations) all.add(a.site());
        for (Site site : all) {
            site.dropUses(u -> u.text() != null
                    && u.line() > site.line()
                    && unit.overwrittenBefore(site.line(), site.text(), u.line(), u.text()));
        }
        return sites;
    }

    /** A function Clang analyzed in place of the hand-written front end, and the facts it added. */
    public record Added(List<FunctionFacts> facts, List<ClangUnit.Function> recovered) {}

    /** Per Clang conversion ("line:column"): its clamp, fixed-point scale and print call, computed once. */
    private Map<String, ClangRoundingClamps.Rounding> roundings;

    /** The clamp, fixed-point scale and print call of Clang's conversion at {@code key}, filed in {@code f} at {@code at}. */
    private void roundingFacts(FunctionFacts f, String key, String at) {
        if (roundings == null) roundings = ClangRoundingClamps.of(unit);
        ClangRoundingClamps.Rounding r = roundings.get(key);
        if (r != null) r.fileInto(f, at);
    }

    /**
     * Whether a conversion the hand-written facts hold is guarded is Clang's to say where Clang holds the same
     * conversion (the same line and column, floating data to an unsigned or narrow type): Clang's guards follow
     * the control flow (a branch of an if / else-if chain that does not leave, a write in an else branch or to the
     * tested variable, a member or element tested through the same expression) where the hand-written facts match
     * text. The interval is the intersection of both (Clang's knows x - floor(x/c)*c and the stores of the file).
     */
    private void guardsFromClang(FunctionFacts facts) {
        Map<String, ClangUnit.Conversion> clang = null;
        for (var it = facts.conversions.listIterator(); it.hasNext(); ) {
            FunctionFacts.Conversion c = it.next();
            // a conversion to int or wider signed: only Clang's interval (the add-half rounding '(int)(0.5 +
            // fann_rand(0, n - 1))', non-negative through the macro's rand() and unsigned span, integer data scaled
            // or not); its guard stays
            boolean wideSigned = !c.unsigned() && c.bytes() >= 4;
            if (!c.floatData() && !wideSigned || c.constant() != null) continue;
            if (clang == null) {
                clang = new java.util.HashMap<>();
                for (ClangUnit.Conversion k : unit.conversions()) {
                    if (!k.viaTemplate()) clang.putIfAbsent(k.node().line + ":" + unit.utf16Column(k.node()), k);
                }
            }
            ClangUnit.Conversion k = clang.get(c.site().line() + ":" + c.site().column());
            if (k == null) continue;
            double[] range = unit.interval(k.operand(), k.in());
            if (range[0] < 0) c.site().openBelow(ClangOpenOperands.of(unit, k.operand(), k.in()));
            if (range[0] < 0 && c.unsigned())
                c.site().callerNeeds(ClangCallerBounds.of(unit, k.operand(), k.in(), c.bytes()));
            // integer data held in a floating value (double n = rows * cols): the message's example is -1
            if (range[0] < 0 && ClangWholeNumbers.range(unit, k.operand(), k.in(), 3, 0x1p53) != null)
                c.site().wholeNumbers(true);
            boolean guarded = wideSigned ? c.guarded() : k.guarded() && !scaledPast(k, range);
            // Clang's interval where it knows more (x - floor(x/c)*c, a field every store of the file writes
            // non-negative): both are sound, their intersection is (session 30)
            double lo = Math.max(c.lo(), range[0]), hi = Math.min(c.hi(), range[1]);
            boolean narrower = (c.unsigned() || wideSigned) && lo <= hi && (lo > c.lo() && c.lo() < 0 || hi < c.hi());
            if (narrower && !c.nonNegative() && c.lo() < 0 && lo >= 0) {
                String evidence = unit.storedEvidence(k.operand());
                if (evidence != null) facts.storedValues.add(new FunctionFacts.StoredValue(c.site(), evidence));
            }
            // both guarded: Clang's guard replaces the hand-written one where it says which sides clamps bound, or
            // where a dominating test bounds the operand from below (the direction the hand-written guard lacks)
            boolean fromBelow =
                    wideSigned ? c.fromBelow() : guarded && ClangGuards.fromBelow(unit, k.operand(), k.in());
            if (!narrower
                    && guarded == c.guarded()
                    && !(guarded && !wideSigned && ClangGuards.namesSides(k.guard()))
                    && fromBelow == c.fromBelow()) continue;
            it.set(new FunctionFacts.Conversion(
                    c.site(),
                    c.how(),
                    c.operand(),
                    c.from(),
                    c.to(),
                    c.unsigned(),
                    c.bytes(),
                    c.constant(),
                    guarded,
                    c.floatData(),
                    c.nonNegative() || narrower && lo >= 0,
                    narrower ? lo : c.lo(),
                    narrower ? hi : c.hi(),
                    c.explicit(),
                    guarded ? (wideSigned ? c.guard() : k.guard()) : null,
                    null,
                    fromBelow));
        }
    }

    /** The functions of the file the hand-written front end did not analyze (Clang's alone), in file order. */
    public synchronized List<ClangUnit.Function> recovered() {
        List<ClangUnit.Function> recovered = new ArrayList<>();
        for (ClangUnit.Function f : unit.functions()) {
            boolean seen = false;
            for (int l : analyzedLines) {
                if (l >= f.startLine() && l <= f.endLine()) {
                    seen = true;
                    break;
                }
            }
            if (!seen) recovered.add(f);
        }
        return recovered;
    }

    /**
     * The facts the hand-written front end's facts lack (call after every function of the file went through
     * {@link #amend} and {@link #analyzed}), one {@link FunctionFacts} per function.
     */
    public synchronized Added missing() {
        Map<ClangUnit.Function, FunctionFacts> out = new LinkedHashMap<>();
        List<ClangUnit.Function> recovered = recovered();
        Set<ClangUnit.Function> whole = new HashSet<>(recovered);
        for (ClangUnit.Conversion c : unit.conversions()) {
            boolean all = whole.contains(c.in());
            int line = c.node().line;
            // a cast the hand-written facts hold at its position is theirs; another cast on a line they have one on
            // (`unsigned a = (unsigned)x, b = (unsigned)w[k];` with w a type they cannot read) is Clang's
            String at = line + ":" + unit.utf16Column(c.node());
            boolean known = c.viaTemplate()
                    ? floatConversionLines.contains(line) && (!c.explicit() || floatConversionPositions.contains(at))
                    : conversionLines.contains(line) && (!c.explicit() || conversionPositions.contains(at));
            if (!all && (!c.explicit() || known)) continue;
            // a function only Clang read: every float-to-integer conversion, as the hand-written facts hold them (each
            // check picks its targets: NL001 unsigned, NL011 narrow signed, NL013 any); a conversion the hand-written
            // front end missed in a function it read: unsigned and narrow signed targets only
            if (!all && !c.unsigned() && c.bytes() >= 4) continue;
            // the operand's interval by its construction (ClangIntervals), as the hand-written facts carry it
            double[] range = ClangTypeArguments.hull(c.instantiations(), () -> unit.interval(c.operand(), c.in()));
            boolean guarded = c.guarded() && !scaledPast(c, range);
            String evidence = range[0] >= 0 ? unit.storedEvidence(c.operand()) : null;
            if (evidence != null)
                facts(out, c.in()).storedValues.add(new FunctionFacts.StoredValue(site(c.node(), c.in()), evidence));
            // written wholly in a macro's body: each use is a copy of that one site, shown as the body reads
            String macro = ClangMacroSites.of(unit, c.node());
            String operand = macro == null ? unit.text(c.operand()) : ClangMacroSites.render(c.operand());
            if (operand == null) operand = macro;
            Site cast = site(c.node(), c.in());
            String open = range[0] < 0 ? ClangOpenOperands.of(unit, c.operand(), c.in()) : null;
            roundingFacts(
                    facts(out, c.in()), line + ":" + unit.utf16Column(c.node()), cast.line() + ":" + cast.column());
            if (macro != null) {
                String shown = c.explicit() ? ClangMacroSites.render(c.node()) : operand;
                cast = new Site(
                                cast.line(),
                                cast.column(),
                                cast.endLine(),
                                cast.endColumn(),
                                null,
                                shown == null ? macro : shown,
                                cast.device(),
                                cast.host(),
                                null)
                        .expandedFrom(macro);
            }
            cast.openBelow(open);
            if (range[0] < 0 && c.unsigned())
                cast.callerNeeds(ClangCallerBounds.of(unit, c.operand(), c.in(), c.bytes()));
            if (range[0] < 0 && ClangWholeNumbers.range(unit, c.operand(), c.in(), 3, 0x1p53) != null)
                cast.wholeNumbers(true); // integer data in a floating value: the message's example is -1
            facts(out, c.in())
                    .conversions
                    .add(new FunctionFacts.Conversion(
                            cast,
                            c.explicit() ? c.how() : "implicit conversion",
                            operand,
                            c.from(),
                            c.to(),
                            c.unsigned(),
                            c.bytes(),
                            ClangSyntax.folded(c.operand()),
                            guarded,
                            ClangSyntax.folded(c.operand()) == null
                                    && (ClangTemplateConversions.floatData(c)
                                            || ClangRecoveredOperands.of(c)
                                            || ClangEigenCasts.of(c)
                                            || ClangSyntax.floatData(c.operand())),
                            range[0] >= 0,
                            range[0],
                            range[1],
                            c.explicit(),
                            guarded ? c.guard() : null,
                            c.unseen(),
                            guarded && ClangGuards.fromBelow(unit, c.operand(), c.in())));
        }
        for (ClangUnit.Atomic a : unit.atomics()) {
            // of unknown type (a template no instantiation in view decides): the hand-written facts' own in theirs
            if (!whole.contains(a.in()) && (atomicLines.contains(a.node().line) || !a.floating())) continue;
            facts(out, a.in())
                    .atomics
                    .add(new FunctionFacts.Atomic(
                            site(a.node(), a.in()),
                            a.type(),
                            a.floating(),
                            a.viaTemplate(),
                            a.addend(),
                            !a.floating(),
                            a.instantiatedAt(),
                            a.with(),
                            ClangThreadElements.distinct(unit, a),
                            a.floating() ? ClangTallies.of(a) : null));
        }
        for (ClangUnit.Call c : unit.intrinsics()) {
            if (!whole.contains(c.in()) && intrinsicLines.contains(c.node().line)) continue;
            FunctionFacts f = facts(out, c.in());
            // in a function only Clang read, the uses of the result follow Clang's def-use (what it decides)
            Site at = c.node().kind == org.bytedeco.llvm.global.clang.CXCursor_GCCAsmStmt
                    ? ClangSumFacts.named(unit, c.node(), c.in(), "asm " + c.name()) // an instruction written by hand
                    : whole.contains(c.in()) ? flowing(c.node(), c.in()) : site(c.node(), c.in());
            if (c.name().equals("__fdividef")
                    || c.name().startsWith("div.")
                    || c.name().startsWith("rcp.")) {
                f.divisions.add(new FunctionFacts.Division(at, c.name()));
            } else {
                f.calls.add(new FunctionFacts.MathCall(at, c.name(), c.name(), true, null, false, true));
            }
        }
        for (ClangSaturatingConversions.Call c : ClangSaturatingConversions.of(unit)) {
            ClangNode arg = ClangSyntax.arguments(c.node()).get(0);
            facts(out, c.in())
                    .saturating
                    .add(new FunctionFacts.Conversion(
                            site(c.node(), c.in()),
                            c.name(),
                            unit.text(arg),
                            c.from(),
                            c.to(),
                            true,
                            c.bytes(),
                            arg.value,
                            false,
                            true,
                            false,
                            Double.NEGATIVE_INFINITY,
                            Double.POSITIVE_INFINITY,
                            true,
                            null));
        }
        for (ClangNode d : unit.divisions()) {
            ClangUnit.Function fn = unit.functionOf(d);
            // in a function the hand-written front end read, a division of a template parameter's values that an
            // instantiation in view makes float (T = float: in[i] / s) where it holds none: it cannot know the type
            if (fn == null
                    || !whole.contains(fn) && (ClangSyntax.floating(d.canonKind) || divisionLines.contains(d.line)))
                continue;
            // a power-of-two divisor: the approximate quotient is the exact one (FloatExactness.exactFloatDivisor)
            if (d.children.size() == 2
                    && dev.numlint.knowledge.FloatExactness.exactFloatDivisor(ClangSyntax.constant(d.children.get(1))))
                continue;
            facts(out, fn).divisions.add(new FunctionFacts.Division(flowing(d, fn), null));
        }
        for (ClangSites.Sum s : unit.sums()) {
            if (whole.contains(s.in())) ClangSumFacts.sum(unit, facts(out, s.in()), s);
        }
        for (ClangSites.Promotion p : unit.promotions()) {
            // in a function the hand-written front end read, a promotion on a line where it holds none: an operand
            // whose float type it does not know (an extern __constant__ float of a header, a typedef, a template
            // parameter's instantiation), so it could not see the double literal promote float data; a double
            // function's result there stays the hand-written facts' (which overload a call picks is theirs to say),
            // except a call of float data that Clang resolves to a double function: C's nextafter(double, double) in
            // C++ where <cmath> declares the float overload in std only (the hand-written facts take it as float's)
            if (!whole.contains(p.in())
                    && (p.viaFunction() && !ClangSyntax.doubleFunctionOfFloats(p.node())
                            || promotionLines.contains(p.node().line))) continue;
            Site at = flowing(p.node(), p.in());
            // x - (x + 1e-10): in float the terms cancel, in double they leave the constant (as amend marks the
            // hand-written facts' promotions)
            if (unit.cancelsNearlyEqualTerms(p.node().line, unit.text(p.node()))) at.cancelling();
            String never = unit.signs().promotedIntoNeverNegative(p.node().line, unit.text(p.node()), p.target());
            if (never != null) at.storesNeverNegative(never);
            facts(out, p.in())
                    .promotions
                    .add(new FunctionFacts.Promotion(
                            at, p.target(), p.promoter(), null, p.viaFunction(), p.compound(), p.exact()));
        }
        for (ClangSites.Contraction c : unit.contractions()) {
            if (!whole.contains(c.in())) continue;
            Site at = flowing(c.node(), c.in());
            if (unit.signs().termsCannotCancel(c.node().line, unit.text(c.node()))) at.withTermsThatCannotCancel();
            // evaluated in double and rounded to float right away: the fma's 2^-53 reaches the float as an ulp
            if (c.differenceOfProducts() && unit.inDoubleRoundedToFloat(c.node().line, unit.text(c.node())))
                at.inDoubleRoundedToFloat();
            if (unit.evaluatedInDouble(c.node().line, unit.text(c.node()))) at.evaluatedInDouble();
            // stored straight into a never-negative local (r2 = dx*dx + dy*dy): its tests against 0 cannot flip
            String never = unit.signs().storedIntoNeverNegative(c.node().line, unit.text(c.node()));
            if (never != null) at.storesNeverNegative(never);
            facts(out, c.in())
                    .contractions
                    .add(new FunctionFacts.Contraction(
                            at,
                            c.product(),
                            c.subtract(),
                            c.differenceOfProducts(),
                            c.accumulates(),
                            c.pairedComponent()));
        }
        for (ClangSites.MathCall c : unit.mathCalls()) {
            // a call the hand-written facts cannot type (sin of a template parameter bound to float) is Clang's
            boolean instantiated = !ClangSyntax.floating(c.node().canonKind);
            if (!whole.contains(c.in()) && (!instantiated || mathCallLines.contains(c.node().line))) continue;
            facts(out, c.in())
                    .calls
                    .add(new FunctionFacts.MathCall(
                            flowing(c.node(), c.in()),
                            c.name(),
                            c.base(),
                            false,
                            c.fastMathTarget(),
                            c.floatSqrt(),
                            c.transcendental()));
        }
        for (ClangSites.WidenedLiteral w : unit.widenedLiterals()) {
            if (!whole.contains(w.in())) continue;
            facts(out, w.in())
                    .widenedLiterals
                    .add(new FunctionFacts.WidenedLiteral(
                            flowing(w.node(), w.in()),
                            w.literal(),
                            unit.text(w.node()),
                            w.target(),
                            unit.text(w.in().node())));
        }
        for (ClangLongDoubles.LongDouble l : unit.longDoubles()) {
            if (!whole.contains(l.in()) || !l.in().host()) continue;
            facts(out, l.in())
                    .longDoubles
                    .add(new FunctionFacts.LongDouble(site(l.node(), l.in()), l.what(), l.origin(), l.deliberate()));
        }
        for (ClangTensorMath.TensorMath t : tensorMath.get()) {
            if (!whole.contains(t.in())) continue;
            facts(out, t.in())
                    .tensorMath
                    .add(new FunctionFacts.TensorMath(site(t.node(), t.in()), t.construct(), t.effect(), t.evidence()));
        }
        // every function Clang read: the hand-written facts hold no integer division
        for (ClangIntegerDivisions.Division d : integerDivisions.get()) {
            String macro = ClangMacroSites.of(unit, d.node());
            String text = macro == null ? unit.text(d.node()) : ClangMacroSites.render(d.node());
            // the statement it is in: the same quotient in the statement's next line is one value (RepeatedCode)
            Site at = site(d.node(), d.in()).inStatementEndingAt(ClangSumFacts.statementEnd(d.node()));
            if (macro != null) at = at.expandedFrom(macro);
            facts(out, d.in())
                    .integerDivisions
                    .add(new FunctionFacts.IntegerDivision(
                            at,
                            text == null ? macro : text,
                            d.dividend(),
                            d.divisor(),
                            d.target(),
                            d.rounding(),
                            d.indexed(),
                            d.nonNegative(),
                            d.unread()));
        }
        // the uses of Clang's sites, refined as amend() refines the hand-written facts'
        for (Map.Entry<ClangUnit.Function, FunctionFacts> e : out.entrySet()) {
            if (!whole.contains(e.getKey())) continue;
            overwrittenBeforeUse(e.getValue());
            signClasses.testsOfFixedSign(e.getValue());
        }
        return new Added(new ArrayList<>(out.values()), recovered);
    }

    /** A site whose uses Clang's def-use follows ({@link ClangUnit#uses}). */
    private Site flowing(ClangNode n, ClangUnit.Function f) {
        return ClangSumFacts.flowing(unit, n, f);
    }

    /**
     * A clamp or a bounded function keeps the value range-limited, but scaled past the target's range it guards
     * nothing: {@code (short)(fmaxf(fminf(x, 1), -1) * 40000.0f)}. Only the interval sees that, and only when the
     * guard is no comparison the interval does not see (a clamp's guard names the function: "fminf()").
     */
    private static boolean scaledPast(ClangUnit.Conversion c, double[] range) {
        if (c.guard() == null || !c.guard().endsWith("()")) return false;
        if (Double.isInfinite(range[0]) || Double.isInfinite(range[1])) return false;
        double[] target = dev.numlint.knowledge.ValueBounds.ofInteger(c.bytes(), c.unsigned());
        return target != null && !FunctionFacts.Conversion.within(range[0], range[1], target[0], target[1]);
    }

    private static FunctionFacts facts(Map<ClangUnit.Function, FunctionFacts> out, ClangUnit.Function f) {
        return out.computeIfAbsent(f, k -> new FunctionFacts(k.name()));
    }

    private Site site(ClangNode n, ClangUnit.Function f) {
        return ClangSumFacts.at(unit, n, f);
    }
}
