package dev.numlint.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.knowledge.WrittenCode;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Impact;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The message of a merged finding states the consequence its level stands for. */
class LayerMergeTest {
    /**
     * {@link LayerMerge#merge} of findings as their producers state them: each finding written here without a typed
     * identity gets the one the CUDA source reporter (cuda/Reporter) or the PTX layer (ptx/PtxFindings) would give
     * it, from the test's expression, instruction and source line.
     */
    private static List<Finding> merge(List<Finding> in) {
        return LayerMerge.merge(in.stream().map(LayerMergeTest::typed).toList());
    }

    private static List<Finding> merge(List<Finding> in, java.util.Map<String, java.util.Set<Integer>> variates) {
        return LayerMerge.merge(in.stream().map(LayerMergeTest::typed).toList(), variates);
    }

    private static Finding typed(Finding f) {
        if (!f.identity().withLibraryCode(false).equals(dev.numlint.model.Identity.NONE)) {
            return f;
        }
        String src = f.evidence().stream()
                .filter(e -> "source".equals(e.kind()))
                .map(Evidence::text)
                .findFirst()
                .orElse(null);
        java.util.regex.Matcher bound =
                java.util.regex.Pattern.compile("up to (2\\^-\\d+)").matcher(f.message());
        dev.numlint.model.Identity id = dev.numlint.model.Identity.NONE
                .withLibraryCode(f.identity().libraryCode())
                .withAccumulator(dev.numlint.knowledge.WrittenCode.updatedVariable(src))
                .withDecision(f.ruleId().equals("NL012") && bound.find() ? bound.group(1) : null);
        if (f.layer() == Layer.PTX) {
            Object instr = f.properties().get("ptxInstruction");
            if (instr == null) {
                instr = f.evidence().stream()
                        .filter(e -> "ptx".equals(e.kind()))
                        .map(Evidence::text)
                        .findFirst()
                        .orElse(null);
            }
            String opcode = instr == null ? null : instr.toString().strip().split("[.\\s]", 2)[0];
            List<Location> inlined = f.related().stream()
                    .filter(r -> r.message().contains("inlined"))
                    .map(r -> r.location())
                    .toList();
            id = id.withInstruction(opcode)
                    .withOperations(dev.numlint.model.Operation.computedBy(opcode))
                    .withHazard(f.message().replaceAll("`[^`]*`", "``"))
                    .withOrigin(new dev.numlint.model.Identity.Origin(
                            src == null ? null : dev.numlint.knowledge.WrittenCode.mayHold(opcode, src), inlined));
        } else {
            String expr = f.message().startsWith("'")
                    ? f.message().substring(1, f.message().indexOf('\'', 1))
                    : null;
            id = id.withExpression(expr)
                    .withWritten(dev.numlint.knowledge.WrittenCode.leadingOperation(expr))
                    .withOperations(dev.numlint.model.Operation.spelledIn(src != null ? src : expr));
        }
        return f.toBuilder().identity(id).build();
    }

    @Test
    void aLowImpactConsequenceGivesWayToThePtxLayersDecision() {
        Impact cmp = new Impact(Impact.Kind.AMPLIFIED, "compared in a condition at line 186", null, null);
        String stored = "only stored (line 144): a few ulp apart";
        assertThat(LayerMerge.withConsequence(
                        "'o+p*d' may become one fma (-fmad=true default): " + stored, stored, cmp))
                .isEqualTo("'o+p*d' may become one fma (-fmad=true default): compared in a condition at line 186");
        // what the producer states is replaced, whatever its words
        assertThat(LayerMerge.withConsequence("'f(x)' is approximate: kept in a register", "kept in a register", cmp))
                .isEqualTo("'f(x)' is approximate: compared in a condition at line 186");
        // a message whose producer states no consequence without decision stays, even when its words look like one
        String amplified = "'x/y' is approximate: one ulp can change the int at line 4 (" + stored + ")";
        assertThat(LayerMerge.withConsequence(amplified, null, cmp)).isEqualTo(amplified);
        assertThat(LayerMerge.withConsequence("'a' : " + stored, stored, null)).endsWith("a few ulp apart");
        // a stated consequence a later stage rewrote away stays as it is
        assertThat(LayerMerge.withConsequence("'a' : shortened...", stored, cmp))
                .isEqualTo("'a' : shortened...");
    }

    private static Finding division(String expr, int column, Level level) {
        return Finding.builder("NL002")
                .level(level)
                .layer(Layer.CUDA_SOURCE)
                .location(Location.of("k.cu", 836, column))
                .message("'" + expr + "' is an approximate division: the CPU's division is correctly rounded")
                .build();
    }

    @Test
    void oneOperationWrittenSeveralTimesOnALineIsOneFinding() {
        Finding cos = Finding.builder("NL002")
                .level(Level.WARNING)
                .layer(Layer.CUDA_SOURCE)
                .location(Location.of("k.cu", 836, 90))
                .message("'__fdiv_rn(a, b)' is an approximate division: the CPU's division is correctly rounded")
                .build();
        List<Finding> out = merge(List.of(
                division("__fdividef(1.f, v.x)", 20, Level.NOTE),
                division("__fdividef(1.f, v.y)", 44, Level.WARNING),
                division("__fdividef(1.f, v.z)", 68, Level.NOTE),
                cos));
        assertThat(out).hasSize(2);
        Finding kept = out.get(0);
        assertThat(kept.location().startColumn()).isEqualTo(44);
        assertThat(kept.level()).isEqualTo(Level.WARNING);
        assertThat(kept.related())
                .extracting(r -> r.location().startColumn() + " " + r.message())
                .containsExactlyInAnyOrder(
                        "20 the same operation on this line: '__fdividef(1.f, v.x)'",
                        "68 the same operation on this line: '__fdividef(1.f, v.z)'");
        // the message counts them, for a reader of the message alone
        assertThat(kept.message()).endsWith(" (+2 on this line)");
        assertThat(out.get(1).message()).startsWith("'__fdiv_rn(a, b)'").doesNotContain("on this line");
    }

    private static Finding ptx(String instr, int column) {
        return Finding.builder("NL004")
                .level(Level.WARNING)
                .layer(Layer.PTX)
                .location(Location.of("k.cu", 51, column))
                .message("`" + instr + "`: serial sum over an unknown trip count (PTX loop at line 331)")
                .evidence(new Evidence("ptx", instr, null))
                .build();
    }

    @Test
    void oneHazardSeenInTwoPtxBuildsIsOneFindingWithBothInstructions() {
        List<Finding> out = merge(List.of(
                ptx("add.rn.f32 %f88, %f88, %f43", 13),
                ptx("add.rn.ftz.f32 %f88, %f88, %f43", 13),
                ptx("add.rn.f32 %f9, %f9, %f2", 30)));
        assertThat(out).hasSize(2);
        assertThat(out.get(0).evidence())
                .extracting(Evidence::text)
                .containsExactly("add.rn.f32 %f88, %f88, %f43", "add.rn.ftz.f32 %f88, %f88, %f43");
        assertThat(out.get(1).location().startColumn()).isEqualTo(30);
    }

    private static Finding source(boolean proven) {
        Finding.Builder b = Finding.builder("NL004")
                .level(Level.NOTE)
                .layer(Layer.CUDA_SOURCE)
                .location(Location.of("k.cu", 51, 13))
                .message("'t += tstep': serial float sum, loop at line 40: a constant step, not a sum of data")
                .impact(Impact.bounded("a constant step: every port takes the same steps in the same order"));
        if (proven) b.property("impactProven", true).identity(Identity.NONE.withJudgement(Identity.Judgement.PROVEN));
        return b.build();
    }

    @Test
    void aProvenSourceImpactIsConfirmedButNotRaisedByPtx() {
        Finding ptx = ptx("add.rn.f32 %f88, %f88, %f43", 13).toBuilder()
                .impact(new Impact(Impact.Kind.AMPLIFIED, "converted to an integer", null, null))
                .build();
        Finding proven = merge(List.of(source(true), ptx)).get(0);
        assertThat(proven.level()).isEqualTo(Level.NOTE);
        assertThat(proven.impact().kind()).isEqualTo(Impact.Kind.BOUNDED);
        assertThat(proven.properties()).containsEntry("confirmedInPtx", true);
        assertThat(proven.evidence()).extracting(Evidence::text).contains("add.rn.f32 %f88, %f88, %f43");
        // without the proof the PTX layer's more severe impact wins
        Finding plain = merge(List.of(source(false), ptx)).get(0);
        assertThat(plain.level()).isEqualTo(Level.WARNING);
        assertThat(plain.impact().kind()).isEqualTo(Impact.Kind.AMPLIFIED);
    }

    @Test
    void aPairedComponentIsRaisedByADecisionButNotByADifferenceOfProducts() {
        String pair = dev.numlint.rules.RuleCatalog.get().phrase("use-complex-pair");
        Finding src = typed(source("NL003", 84, "u*c-v*s", Level.NOTE, Impact.bounded(pair)).toBuilder()
                .message("'u*c-v*s' may become one fma (-fmad=true default): " + pair)
                .property("pairedComponent", true)
                .build());
        // the producer states the consequence it wrote that decides nothing
        src = src.toBuilder()
                .identity(src.identity().withConsequence(pair).withJudgement(Identity.Judgement.PAIRED_COMPONENT))
                .build();
        Finding cancels = ptxAt(
                "NL003",
                84,
                "sub.f32 %f14, %f63, %f62",
                "float tu = u*c - v*s;",
                new Impact(Impact.Kind.CANCELLATION, "a difference of products (cancellation) at line 84", null, null));
        Finding kept = merge(List.of(src, cancels)).get(0);
        assertThat(kept.level()).isEqualTo(Level.NOTE);
        assertThat(kept.impact().kind()).isEqualTo(Impact.Kind.BOUNDED);
        assertThat(kept.message()).endsWith(pair);
        Finding decides = ptxAt(
                "NL003",
                84,
                "sub.f32 %f14, %f63, %f62",
                "float tu = u*c - v*s;",
                new Impact(Impact.Kind.AMPLIFIED, "compared in a condition at line 90", null, null));
        Finding raised = merge(List.of(src, decides)).get(0);
        assertThat(raised.level()).isEqualTo(Level.WARNING);
        assertThat(raised.impact().kind()).isEqualTo(Impact.Kind.AMPLIFIED);
        assertThat(raised.message())
                .contains("compared in a condition at line 90")
                .doesNotContain(pair);
    }

    /**
     * A double contraction the source layer saw only stored (or judged a difference deciding nothing, IN_DOUBLE) takes
     * the PTX layer's DOUBLE_ROUNDING judgement with the comparison it followed the value to, so that the front
     * end's review can say that only a tie flips it; a PTX decision without that judgement leaves the source's.
     */
    @Test
    void aPtxDecisionJudgedInDoubleCarriesItsJudgementIntoTheMergedFinding() {
        String stored = "only stored (line 8): a few ulp apart";
        Finding src = source("NL003", 8, "sig[i] + k*d", Level.NOTE, Impact.bounded(stored));
        Impact cmp = new Impact(
                Impact.Kind.AMPLIFIED, "compared in a condition at line 9", null, null, Impact.Reach.DECISION);
        Finding judged = ptxAt("NL003", 8, "fma.rn.f64 %fd15, %fd8, %fd13, %fd14", "sig[i] = sig[i] + k*d;", cmp);
        judged = judged.toBuilder()
                .identity(judged.identity().withJudgement(Identity.Judgement.DOUBLE_ROUNDING))
                .build();
        Finding merged = merge(List.of(src, judged)).get(0);
        assertThat(merged.level()).isEqualTo(Level.WARNING);
        assertThat(merged.impact().reach()).isEqualTo(Impact.Reach.DECISION);
        assertThat(merged.identity().judgement()).isEqualTo(Identity.Judgement.DOUBLE_ROUNDING);
        Finding plain = ptxAt("NL003", 8, "fma.rn.f64 %fd15, %fd8, %fd13, %fd14", "sig[i] = sig[i] + k*d;", cmp);
        assertThat(merge(List.of(src, plain)).get(0).identity().judgement()).isNull();
    }

    /**
     * Session 17's evaluation: a quotient the source saw only stored (a note) became a warning when PTX confirmed its
     * div.approx, whose PTX finding follows the value nowhere (no impact). The level follows the consequence: the PTX
     * finding raises it only with a graver impact.
     */
    @Test
    void aConfirmingPtxFindingWithoutAGraverImpactLeavesTheSourceLevel() {
        String stored = "only stored (line 17): a few ulp apart";
        Finding src = source("NL002", 17, "a[i]/n", Level.NOTE, Impact.bounded(stored));
        Finding bare = ptxAt("NL002", 17, "div.approx.f32 %f3, %f2, %f1", "out[i] = a[i] / n;", null);
        Finding merged = merge(List.of(src, bare)).get(0);
        assertThat(merged.level()).isEqualTo(Level.NOTE);
        assertThat(merged.impact()).isEqualTo(Impact.bounded(stored));
        // the same PTX instruction followed to a comparison is news: the level rises with the impact
        Impact cmp = new Impact(Impact.Kind.AMPLIFIED, "compared in a condition", null, null);
        Finding decided = ptxAt("NL002", 17, "div.approx.f32 %f3, %f2, %f1", "out[i] = a[i] / n;", cmp);
        assertThat(merge(List.of(src, decided)).get(0).level()).isEqualTo(Level.WARNING);
    }

    /**
     * What a value reaches (Impact.Reach): an integer the PTX layer followed the quotient to is graver than the
     * source layer's comparison, and where the source layer lost the value in a call (reach unknown) the PTX layer's
     * reach through the inlined call is taken; a PTX comparison never lowers a source integer.
     */
    @Test
    void thePtxLayersIntegerIsGraverThanASourceComparisonAndFillsAnUnknownReach() {
        Impact compared = new Impact(
                Impact.Kind.AMPLIFIED, "compared in a condition at line 18", null, null, Impact.Reach.DECISION);
        Impact integer = new Impact(
                Impact.Kind.AMPLIFIED, "converted to an integer at line 19", null, null, Impact.Reach.CONVERSION);
        String div = "div.approx.f32 %f3, %f2, %f1";
        Finding src = source("NL002", 17, "a[i] / n", Level.WARNING, compared);
        Finding merged = merge(List.of(src, ptxAt("NL002", 17, div, "q = a[i] / n;", integer)))
                .get(0);
        assertThat(merged.impact().reach()).isEqualTo(Impact.Reach.CONVERSION);
        Finding lost = source("NL002", 17, "a[i] / n", Level.WARNING, compared.withReach(null));
        merged = merge(List.of(lost, ptxAt("NL002", 17, div, "q = a[i] / n;", compared)))
                .get(0);
        assertThat(merged.impact().reach()).isEqualTo(Impact.Reach.DECISION);
        Finding counted = source("NL002", 17, "a[i] / n", Level.WARNING, integer);
        merged = merge(List.of(counted, ptxAt("NL002", 17, div, "q = a[i] / n;", compared)))
                .get(0);
        assertThat(merged.impact().reach()).isEqualTo(Impact.Reach.CONVERSION);
    }

    @Test
    void aTieNoteThePtxLayerFollowsToAnIntegerIsAWarningWithoutTheTieReason() {
        // maos (session 43): the source saw 'x < y' (a tie, a note), the PTX layer the same value truncated to an int
        Impact compared = Impact.of(Impact.Kind.AMPLIFIED, "one ulp can flip 'x < y' at line 9")
                .withReach(Impact.Reach.DECISION);
        Finding src = source("NL003", 8, "x = a*b + c", Level.NOTE, compared).toBuilder()
                .property("onlyAtTie", true)
                .build();
        Impact integer = Impact.of(Impact.Kind.AMPLIFIED, "converted to an integer at line 10")
                .withReach(Impact.Reach.CONVERSION);
        Finding merged = merge(
                        List.of(src, ptxAt("NL003", 8, "fma.rn.f32 %f3, %f2, %f1, %f0;", "x = a*b + c;", integer)))
                .get(0);
        assertThat(merged.level()).isEqualTo(Level.WARNING);
        assertThat(merged.properties()).doesNotContainKey("onlyAtTie");
    }

    private static Finding source(String rule, int line, String text, Level level, Impact impact) {
        return Finding.builder(rule)
                .level(level)
                .layer(Layer.CUDA_SOURCE)
                .location(Location.of("k.cu", line, 13))
                .function("kernel")
                .message("'" + text + "': source finding")
                .evidence(Evidence.source(text))
                .impact(impact)
                .build();
    }

    private static Finding ptxAt(String rule, int line, String instr, String sourceLine, Impact impact) {
        return Finding.builder(rule)
                .level(impact != null && impact.kind() == Impact.Kind.BOUNDED ? Level.NOTE : Level.WARNING)
                .layer(Layer.PTX)
                .location(Location.of("k.cu", line, 13))
                .function("kernel")
                .message("`" + instr + "`: ptx finding")
                .evidence(new Evidence("ptx", instr, null))
                .evidence(Evidence.source(sourceLine))
                .property("ptxInstruction", instr)
                .impact(impact)
                .build();
    }

    /**
     * The source proved a rounding continuous (an interpolation's index and weight, a periodic wrap) and names it as its
     * bounded impact's sink: the PTX layer's "rounded to an integral value" at that line is the same rounding and
     * raises nothing; one at another line does (session 44: a PME B-spline whose weight goes to a spline function).
     */
    @Test
    void aRoundingTheSourceProvedContinuousIsNotRaisedByThePtxLayer() {
        Impact continuous = new Impact(
                Impact.Kind.BOUNDED,
                "the index and its weight move together at line 31",
                Location.of("k.cu", 31, 17),
                null);
        Finding src = source("NL003", 30, "x[i] * ra + y[i] * rb", Level.NOTE, continuous);
        Impact sameRounding = new Impact(
                Impact.Kind.AMPLIFIED,
                "rounded to an integral value",
                Location.of("k.cu", 31, 5),
                null,
                Impact.Reach.CONVERSION);
        Finding ptx =
                ptxAt("NL003", 30, "fma.rn.f32 %f3, %f2, %f1, %f0;", "float fr = x[i] * ra + y[i] * rb;", sameRounding);
        Finding merged = merge(List.of(src, ptx)).get(0);
        assertThat(merged.level()).isEqualTo(Level.NOTE);
        assertThat(merged.impact().kind()).isEqualTo(Impact.Kind.BOUNDED);
        Impact elsewhere = new Impact(
                Impact.Kind.AMPLIFIED,
                "rounded to an integral value",
                Location.of("k.cu", 40, 5),
                null,
                Impact.Reach.CONVERSION);
        Finding other =
                ptxAt("NL003", 30, "fma.rn.f32 %f3, %f2, %f1, %f0;", "float fr = x[i] * ra + y[i] * rb;", elsewhere);
        assertThat(merge(List.of(src, other)).get(0).level()).isEqualTo(Level.WARNING);
    }

    @Test
    void onlyAnFmaTheCompilerFormedConfirmsAContraction() {
        Impact cancel = new Impact(Impact.Kind.CANCELLATION, "a difference of products", null, null);
        Finding src = source("NL003", 244, "x = -(a-b)*0.5f+i*d", Level.WARNING, cancel);
        // a mul feeding a sub that ptxas only may fuse shows no contraction
        Finding mulSub = ptxAt("NL003", 244, "sub.f32 %f3, %f2, %f1;", "x = -(a-b)*0.5f+i*d;", null);
        Finding merged = merge(List.of(src, mulSub)).get(0);
        assertThat(merged.message()).doesNotContain("(PTX confirms)");
        assertThat(merged.properties()).doesNotContainKey("confirmedInPtx");
        Finding fma = ptxAt("NL003", 244, "fma.rn.f32 %f3, %f2, %f1, %f0;", "x = -(a-b)*0.5f+i*d;", null);
        merged = merge(List.of(src, fma)).get(0);
        assertThat(merged.message()).endsWith("(PTX confirms)");
        assertThat(merged.properties()).containsEntry("confirmedInPtx", true);
    }

    @Test
    void aGrowingPtxSumLeavesTheSourceLayersJudgementOfTheLoop() {
        Impact oneThread = Impact.bounded("one thread's serial sum, in the order of a serial CPU loop");
        Impact growing = Impact.of(Impact.Kind.GROWING, "an error that grows with an unknown trip count");
        Finding src = source("NL004", 250, "sum += (ax-ac)*v", Level.NOTE, oneThread);
        Finding ptx = ptxAt("NL004", 250, "fma.rn.f32 %f4, %f3, %f2, %f4;", "sum+=(ax-ac)*v;", growing);
        Finding merged = merge(List.of(src, ptx)).get(0);
        assertThat(merged.level()).isEqualTo(Level.NOTE);
        assertThat(merged.impact()).isEqualTo(oneThread);
        // a sink the PTX layer found still raises it
        Impact cmp = new Impact(Impact.Kind.AMPLIFIED, "compared in a condition at line 260", null, null);
        Finding decided = ptxAt("NL004", 250, "fma.rn.f32 %f4, %f3, %f2, %f4;", "sum+=(ax-ac)*v;", cmp);
        assertThat(merge(List.of(src, decided)).get(0).level()).isEqualTo(Level.WARNING);
    }

    @Test
    void ptxUpdatesOfTheSourceLayersAccumulatorAtOtherLinesAreRelatedLocations() {
        Impact growing = Impact.of(Impact.Kind.GROWING, "an error that grows with an unknown trip count");
        Finding src = source("NL004", 250, "sum += (ax-ac)*tex3D<float>(tex, i, j, k)", Level.NOTE, null);
        Finding y = ptxAt("NL004", 255, "fma.rn.f32 %f4, %f5, %f6, %f4;", "sum+=(ay-ac)*tex3D<float>(t);", growing);
        Finding z = ptxAt("NL004", 260, "fma.rn.f32 %f4, %f7, %f8, %f4;", "sum = sum + (az-ac)*w;", growing);
        // another accumulator of the loop is another finding
        Finding step = ptxAt("NL004", 256, "add.f32 %f9, %f9, %f1;", "ay+=ayu;", growing);
        List<Finding> out = merge(List.of(src, y, step, z));
        assertThat(out).hasSize(2);
        Finding merged = out.get(0);
        assertThat(merged.layer()).isEqualTo(Layer.CUDA_SOURCE);
        assertThat(merged.level()).isEqualTo(Level.NOTE);
        assertThat(merged.related()).extracting(r -> r.location().startLine()).containsExactly(255, 260);
        assertThat(merged.evidence()).extracting(Evidence::text).contains("fma.rn.f32 %f4, %f5, %f6, %f4;");
        assertThat(out.get(1).location().startLine()).isEqualTo(256);
    }

    @Test
    void aSourceLineThatConvertsNothingCannotHoldAConversion() {
        assertThat(dev.numlint.knowledge.WrittenCode.mayConvert("if (pos < gcfg->maxjumpdebug) {"))
                .isFalse();
        assertThat(dev.numlint.knowledge.WrittenCode.mayConvert(
                        "if (gcfg->debuglevel & (MCX_DEBUG_MOVE | MCX_DEBUG_MOVE_ONLY)) {"))
                .isFalse();
        assertThat(dev.numlint.knowledge.WrittenCode.mayConvert("if (ispolarized && gcfg->istrajstokes) {"))
                .isFalse();
        assertThat(dev.numlint.knowledge.WrittenCode.mayConvert("} else if (a <= b || c == d) {"))
                .isFalse();
        assertThat(dev.numlint.knowledge.WrittenCode.mayConvert("uint ithedeg = floorf(theta * NANGLES);"))
                .isTrue();
        assertThat(dev.numlint.knowledge.WrittenCode.mayConvert("savedebugdata(p, (uint)f->ndone + id, gdebugdata);"))
                .isTrue();
        assertThat(dev.numlint.knowledge.WrittenCode.mayConvert("*w = ((ushort)v.x << 11) | (ushort)v.z;"))
                .isTrue();
        assertThat(dev.numlint.knowledge.WrittenCode.mayConvert("return f > 0 ? f : 0;"))
                .isTrue();
        assertThat(dev.numlint.knowledge.WrittenCode.mayConvert("idx += f;")).isTrue();
        assertThat(dev.numlint.knowledge.WrittenCode.mayConvert("if (x) y++;")).isTrue(); // looks like a cast: kept
    }

    private static Finding conversion(Layer layer, int line, String text, Location inlinedAt) {
        Finding.Builder b = Finding.builder("NL001")
                .level(Level.ERROR)
                .layer(layer)
                .location(Location.of("k.cu", line, 9))
                .function(layer == Layer.PTX ? "main_loop" : "launch")
                .message(
                        layer == Layer.PTX
                                ? "`cvt.rzi.ftz.u32.f32 %r1, %f2`: unguarded conversion to an unsigned integer"
                                : "'(uint)(f->ndone)': unguarded float to uint")
                .evidence(Evidence.source(text));
        if (layer == Layer.PTX) {
            b.evidence(new Evidence("ptx", "cvt.rzi.ftz.u32.f32 %r1, %f2;", null))
                    .property("ptxInstruction", "cvt.rzi.ftz.u32.f32 %r1, %f2;");
        }
        if (inlinedAt != null) b.related(inlinedAt, "inlined here (main_loop)");
        return b.build();
    }

    @Test
    void aPtxConversionOnALineThatConvertsNothingJoinsTheSourceConversionBelowIt() {
        Finding src = conversion(Layer.CUDA_SOURCE, 1130, "savedebugdata(p, (uint)f->ndone + id);", null);
        Finding ptx = conversion(Layer.PTX, 1128, "if (gcfg->debuglevel & (MOVE | MOVE_ONLY)) {", null);
        List<Finding> out = merge(List.of(ptx, src));
        assertThat(out).hasSize(1);
        Finding merged = out.get(0);
        assertThat(merged.layer()).isEqualTo(Layer.CUDA_SOURCE);
        assertThat(merged.location().startLine()).isEqualTo(1130);
        assertThat(merged.properties()).containsEntry("confirmedInPtx", true);
        assertThat(merged.related()).extracting(r -> r.location().startLine()).contains(1128);
        assertThat(merged.evidence()).extracting(Evidence::text).contains("cvt.rzi.ftz.u32.f32 %r1, %f2;");
        // the line of an inlined callee: the conversion at the call site it was inlined at
        Finding callSite = conversion(Layer.CUDA_SOURCE, 2767, "save(&p, (uint)f.ndone + idx);", null);
        Finding callee = conversion(Layer.PTX, 438, "if (pos < gcfg->maxjumpdebug) {", Location.line("k.cu", 2767));
        out = merge(List.of(callee, callSite));
        assertThat(out).hasSize(1);
        assertThat(out.get(0).location().startLine()).isEqualTo(2767);
        assertThat(out.get(0).layer()).isEqualTo(Layer.CUDA_SOURCE);
    }

    @Test
    void aPtxConversionWithoutASourceConversionNearbyStaysAndSaysItsLineIsApproximate() {
        Finding far = conversion(Layer.CUDA_SOURCE, 1140, "save(p, (uint)f->ndone);", null);
        Finding ptx = conversion(Layer.PTX, 1128, "if (gcfg->debuglevel & (MOVE | MOVE_ONLY)) {", null);
        List<Finding> out = merge(List.of(ptx, far));
        assertThat(out).hasSize(2);
        assertThat(out.get(0).location().startLine()).isEqualTo(1128);
        assertThat(out.get(0).message()).endsWith("(line approximate: this line converts nothing)");
        // a PTX conversion on a line that converts stays where it is, unchanged
        Finding own = conversion(Layer.PTX, 1128, "uint k = floorf(x);", null);
        out = merge(List.of(own, far));
        assertThat(out.get(0).location().startLine()).isEqualTo(1128);
        assertThat(out.get(0).message()).isEqualTo(own.message());
    }

    private static Finding ptxDivision(int line, String text) {
        return typed(Finding.builder("NL002")
                .level(Level.WARNING)
                .layer(Layer.PTX)
                .location(Location.line("att.cu", line))
                .message(
                        "`div.approx.ftz.f32 %f15, ...`: up to 2 ulp error, 0 for divisors above 2^126 (fast math), not"
                                + " correctly rounded; then compared in a condition")
                .evidence(Evidence.source(text))
                .evidence(new Evidence("ptx", "div.approx.ftz.f32 %f15, %f268, %f249;", null))
                .property("ptxInstruction", "div.approx.ftz.f32 %f15, %f268, %f249;")
                .build());
    }

    @Test
    void aHoistedPtxDivisionShownOnALineThatDividesNothingSaysSoOrJoinsTheDivisionBelow() {
        // nvcc gave the hoisted division no line (.loc 1 0 0); it is shown at the line before it, which divides nothing
        Finding ptx = ptxDivision(435, "const float D = -T_f.x * max(N_f.x, N_f.y);");
        Finding above = typed(division("T_f.x*T_f.y/T_g.z", 29, Level.NOTE).toBuilder()
                .location(Location.of("att.cu", 424, 29))
                .build());
        List<Finding> out = merge(List.of(above, ptx));
        assertThat(out).hasSize(2);
        Finding shown =
                out.stream().filter(f -> f.layer() == Layer.PTX).findFirst().orElseThrow();
        assertThat(shown.location().startLine()).isEqualTo(435);
        assertThat(shown.message()).endsWith("(line approximate: this line divides nothing)");
        assertThat(shown.level()).isEqualTo(Level.NOTE);
        assertThat(shown.related()).extracting(r -> r.message()).anyMatch(m -> m.contains("hoisted"));
        // a source division a few lines below the line it is shown at: the PTX division joins it
        Finding below = typed(division("(x-x0)/dx", 25, Level.WARNING).toBuilder()
                .location(Location.of("att.cu", 437, 25))
                .build());
        out = merge(List.of(ptx, below));
        assertThat(out).hasSize(1);
        assertThat(out.get(0).layer()).isEqualTo(Layer.CUDA_SOURCE);
        assertThat(out.get(0).location().startLine()).isEqualTo(437);
        assertThat(out.get(0).related())
                .extracting(r -> r.location().startLine())
                .contains(435);
        // a PTX division on a line that divides stays where it is, unchanged
        Finding own = ptxDivision(435, "const float D = -T_f.x / max(N_f.x, N_f.y);");
        out = merge(List.of(own, above));
        assertThat(out.stream()
                        .filter(f -> f.layer() == Layer.PTX)
                        .findFirst()
                        .orElseThrow()
                        .message())
                .isEqualTo(own.message());
    }

    /** A PTX NL008 finding as the PTX layer states it: its line, that line's text, the lines of its other uses. */
    private static Finding ptxDouble(int line, String src, List<Location> candidates) {
        boolean holds = WrittenCode.mayHold(WrittenCode.Construct.DOUBLE_MATH, src);
        return Finding.builder("NL008")
                .level(Level.WARNING)
                .layer(Layer.PTX)
                .location(Location.line("reduce.cu", line))
                .message("`cvt.f64.f32 %fd3, %f21`: float math done in double (`rcp.rn.f64 %fd4`) and rounded back"
                        + " to float")
                .evidence(new Evidence("ptx", "cvt.f64.f32 %fd3, %f21;", null))
                .evidence(Evidence.source(src))
                .identity(Identity.NONE
                        .withInstruction("cvt")
                        .withHazard("``: float math done in double (``) and rounded back to float")
                        .withOrigin(new Identity.Origin(holds, List.of(), holds ? List.of() : candidates)))
                .build();
    }

    @Test
    void doubleMathHoistedToALoopHeaderJoinsTheFindingWhereItIsWritten() {
        String header = "for( i.y=i0.y; i.y<shape.y; i.y+=blockDim.y*gridDim.y ) {";
        List<Location> uses = List.of(Location.line("reduce.cu", 112));
        // the PTX layer's own finding at the line that holds the double math: the hoisted one joins it
        Finding hoisted = ptxDouble(76, header, uses);
        Finding written =
                ptxDouble(112, "case BF_REDUCE_POWER_STDERR: result *= 1. / sqrtf(shape.w); break;", List.of());
        List<Finding> out = merge(List.of(hoisted, written));
        assertThat(out).hasSize(1);
        assertThat(out.get(0).location().startLine()).isEqualTo(112);
        assertThat(out.get(0).level()).isEqualTo(Level.WARNING);
        assertThat(out.get(0).related())
                .extracting(r -> r.location().startLine() + " " + r.message())
                .containsExactly("76 PTX line information of this double math (hoisted out of the loop)");
        // a source finding there: the hoisted one joins it
        Finding source = Finding.builder("NL008")
                .level(Level.WARNING)
                .layer(Layer.CUDA_SOURCE)
                .location(Location.of("reduce.cu", 112, 37))
                .message("'result *= 1./sqrtf(shape.w)' is computed in double (the double literal 1.), rounded to"
                        + " float 'result': slow on the GPU, rounded unlike float")
                .evidence(Evidence.source("result *= 1. / sqrtf(shape.w)"))
                .build();
        out = merge(List.of(hoisted, source));
        assertThat(out).hasSize(1);
        assertThat(out.get(0).layer()).isEqualTo(Layer.CUDA_SOURCE);
        assertThat(out.get(0).related())
                .extracting(r -> r.location().startLine())
                .contains(76);
        // a source finding of a statement written over several lines, the candidate one of them: it joins it
        Finding statement = source.toBuilder()
                .location(new Location("reduce.cu", 111, 17, 112, 40))
                .build();
        out = merge(List.of(hoisted, statement));
        assertThat(out).hasSize(1);
        assertThat(out.get(0).layer()).isEqualTo(Layer.CUDA_SOURCE);
        assertThat(out.get(0).related())
                .extracting(r -> r.location().startLine())
                .contains(76);
        // nothing reported where it is used: a note that says its line is approximate and names that line
        out = merge(List.of(hoisted));
        assertThat(out).hasSize(1);
        assertThat(out.get(0).level()).isEqualTo(Level.NOTE);
        assertThat(out.get(0).location().startLine()).isEqualTo(76);
        assertThat(out.get(0).message()).endsWith("(line approximate: no double math on this line)");
        assertThat(out.get(0).related())
                .extracting(r -> r.location().startLine() + " " + r.message())
                .containsExactly("112 its value is used here: probably written here, hoisted above");
        // a loop header that holds double math itself stays a warning where it is
        Finding own = ptxDouble(76, "for (float t = 0; t < 1.0 / x; t += h) {", uses);
        out = merge(List.of(own, written));
        assertThat(out).hasSize(2);
        assertThat(out).allMatch(f -> f.level() == Level.WARNING && f.related().isEmpty());
        assertThat(out.get(0).message()).isEqualTo(own.message());
    }

    private static Finding tf32(Layer layer, int line, String function, String text) {
        Finding.Builder b = Finding.builder("NL012")
                .level(Level.WARNING)
                .layer(layer)
                .location(Location.of("gemm.cu", line, 17))
                .function(function)
                .message(
                        layer == Layer.PTX
                                ? "`cvt.rna.tf32.f32 __$1, %f261` computes f32 data in TF32 (10 mantissa bits): up to 2^-11"
                                        + " relative error per product"
                                : "'" + text
                                        + "' multiplies float data rounded to TF32 on tensor cores: up to 2^-11 relative"
                                        + " error per product")
                .evidence(Evidence.source(text));
        if (layer == Layer.PTX) {
            b.evidence(new Evidence("ptx", "cvt.rna.tf32.f32 __$1, %f261;", null))
                    .property("libraryCode", true)
                    .identity(Identity.NONE.withLibraryCode(true));
        }
        return b.build();
    }

    @Test
    void oneKernelsReducedPrecisionChoiceIsOneFinding() {
        Finding a = tf32(Layer.CUDA_SOURCE, 317, "gemm", "wmma::fragment<wmma::matrix_a, 16, 16, 8, tf32>");
        Finding b = tf32(Layer.CUDA_SOURCE, 318, "gemm", "wmma::fragment<wmma::matrix_b, 16, 16, 8, tf32>");
        Finding cvtA = tf32(Layer.PTX, 328, "gemm", "a[i].x[t] = wmma::__float_to_tf32(a[i].x[t]);");
        Finding cvtB = tf32(Layer.PTX, 341, "gemm", "b[j].x[t] = wmma::__float_to_tf32(b[j].x[t]);");
        // another kernel's choice is another finding; a PTX finding without a source one stays
        Finding other = tf32(Layer.CUDA_SOURCE, 512, "gemm_async", "wmma::fragment<wmma::matrix_a, 16, 16, 8>");
        Finding alone = tf32(Layer.PTX, 628, "simple", "a_frag.x[t] = wmma::__float_to_tf32(a_frag.x[t]);");
        List<Finding> out = merge(List.of(a, b, cvtA, cvtB, other, alone));
        assertThat(out).extracting(f -> f.location().startLine()).containsExactly(317, 512, 628);
        Finding one = out.get(0);
        assertThat(one.layer()).isEqualTo(Layer.CUDA_SOURCE);
        assertThat(one.related()).extracting(r -> r.location().startLine()).containsExactly(318, 328, 341);
        assertThat(one.related().get(1).message()).isEqualTo("the same choice in this function (PTX)");
        // the text report shows no related locations: the message names the choice's other lines
        assertThat(one.message()).endsWith("per product; the same choice at lines 318, 328, 341");
        assertThat(one.evidence()).extracting(Evidence::text).contains("cvt.rna.tf32.f32 __$1, %f261;");
        assertThat(out.get(2).layer()).isEqualTo(Layer.PTX);
    }

    private static Finding copy(String rule, int line, String text, Level level) {
        return Finding.builder(rule)
                .level(level)
                .layer(Layer.PTX)
                .function("Mandelbrot0")
                .location(Location.of("m.cuh", line, 9))
                .message("`add.f32 %f" + line + "`: ptxas may fuse them into one FFMA; then compared in a condition")
                .evidence(new Evidence("source", text, null))
                .identity(Identity.NONE.withCode(WrittenCode.tokens(text)))
                .build();
    }

    @Test
    void copiesAreTheSameTokensWhateverTheirLayoutOrComments() {
        // the same condition, written with other spacing and a comment: one written code, one run of copies
        List<Finding> out = RepeatedCode.repeatedCopies(List.of(
                copy("NL003", 184, "if (xx + yy > T(4.0))", Level.WARNING),
                copy("NL003", 190, "if (xx+yy>T(4.0)) // i - 2", Level.WARNING),
                copy("NL003", 196, "if ( xx +yy > T( 4.0 ) ) /* i - 3 */", Level.WARNING)));
        assertThat(out).hasSize(1);
        assertThat(out.get(0).properties()).containsEntry("copies", 3);
    }

    @Test
    void codeThatDiffersInATokenStaysApartEvenWhenItsTextWithoutSpacesIsEqual() {
        // "a  b" and "a b" are different string literals; a+ +b and a++ b are different operators
        List<Finding> out = RepeatedCode.repeatedCopies(List.of(
                copy("NL003", 10, "s = t + f(\"a  b\");", Level.WARNING),
                copy("NL003", 12, "s = t + f(\"a b\");", Level.WARNING),
                copy("NL003", 14, "s = t + f(\"a   b\");", Level.WARNING)));
        assertThat(out).hasSize(3);
        assertThat(WrittenCode.tokens("x = a+ +b;")).isNotEqualTo(WrittenCode.tokens("x = a++ b;"));
    }

    @Test
    void theUsesOfOneMacroAreCopiesAtAnyDistanceByTheTypedMacroNotAProperty() {
        String use = "GET_ONE_FIELD(cfg, x)";
        List<Finding> typed = new java.util.ArrayList<>();
        List<Finding> property = new java.util.ArrayList<>();
        for (int line : new int[] {10, 60, 110}) {
            Finding f = copy("NL003", line, use, Level.WARNING);
            typed.add(f.toBuilder()
                    .identity(f.identity().withMacro("GET_ONE_FIELD"))
                    .build());
            property.add(f.toBuilder().property("macro", "GET_ONE_FIELD").build());
        }
        assertThat(RepeatedCode.repeatedCopies(typed)).hasSize(1);
        // the property is what the report shows; the merge reads the producer's typed macro only
        assertThat(RepeatedCode.repeatedCopies(property)).hasSize(3);
    }

    @Test
    void theCodeIsTheProducersTypedKeyNotTheEvidenceText() {
        // equal evidence text, but the producer states different code: no copies; a PTX finding of another build
        // without a source line takes the code of the finding it merges into
        Finding.Builder a = copy("NL003", 20, "x += y;", Level.WARNING).toBuilder();
        List<Finding> out = RepeatedCode.repeatedCopies(List.of(
                a.identity(Identity.NONE.withCode(List.of("x", "+=", "y", ";"))).build(),
                copy("NL003", 22, "x += y;", Level.WARNING).toBuilder()
                        .identity(Identity.NONE.withCode(List.of("x", "+=", "z", ";")))
                        .build(),
                copy("NL003", 24, "x += y;", Level.WARNING).toBuilder()
                        .identity(Identity.NONE)
                        .build()));
        assertThat(out).hasSize(3);
        Finding noLine = copy("NL003", 30, "", Level.WARNING).toBuilder()
                .identity(Identity.NONE)
                .build();
        Finding otherBuild = copy("NL003", 30, "s += a[i];", Level.WARNING);
        List<Finding> merged = LayerMerge.merge(List.of(noLine, otherBuild));
        assertThat(merged).hasSize(1);
        assertThat(merged.get(0).identity().code()).containsExactly("s", "+=", "a", "[", "i", "]", ";");
    }

    @Test
    void codeUnrolledByHandIsOneFindingPerRunOfCopies() {
        String test = "if (xx + yy > T(4.0))";
        List<Finding> out = RepeatedCode.repeatedCopies(List.of(
                copy("NL003", 184, test, Level.NOTE),
                copy("NL003", 188, "x  = xx - yy + xC;", Level.WARNING),
                copy("NL003", 193, "if (xx +  yy > T(4.0))", Level.WARNING),
                copy("NL003", 202, test, Level.WARNING),
                // 40 lines below the last copy: another run, of one finding
                copy("NL003", 242, test, Level.WARNING),
                // another rule on the same text is another decision
                copy("NL006", 243, test, Level.WARNING)));
        assertThat(out)
                .extracting(f -> f.ruleId() + ":" + f.location().startLine())
                .containsExactly("NL003:188", "NL003:193", "NL003:242", "NL006:243");
        Finding kept = out.get(1);
        assertThat(kept.level()).isEqualTo(Level.WARNING);
        assertThat(kept.message()).endsWith("(+2 copies of this code nearby)");
        assertThat(kept.properties()).containsEntry("copies", 3);
        assertThat(kept.related()).extracting(r -> r.location().startLine()).containsExactly(184, 202);
    }

    @Test
    void twoIdenticalLinesStayTwoFindings() {
        String sum = "s += a[i] * b[i];";
        List<Finding> out = RepeatedCode.repeatedCopies(
                List.of(copy("NL004", 10, sum, Level.WARNING), copy("NL004", 14, sum, Level.WARNING)));
        assertThat(out).hasSize(2);
    }

    private static Finding conversion(Layer layer, String message, Impact impact) {
        Finding.Builder b = Finding.builder("NL001")
                .level(Level.ERROR)
                .layer(layer)
                .location(Location.of("texture_cube.cu", 60, 5))
                .message(message)
                .impact(impact);
        if (layer == Layer.CUDA_SOURCE)
            b.property("impactProven", true).identity(Identity.NONE.withJudgement(Identity.Judgement.PROVEN));
        else b.property("ptxInstruction", "cvt.rzi.u32.f32 %r51, %f42;");
        return b.build();
    }

    @Test
    void aConversionTheSourceProvesInRangeTakesThePtxFindingWithIt() {
        Impact exact = new Impact(Impact.Kind.EXACT, "in range of unsigned char by construction", null, null);
        Impact amplified = new Impact(Impact.Kind.AMPLIFIED, "converted to an integer", null, null);
        Finding proven = conversion(
                Layer.CUDA_SOURCE,
                "'255*(0.6f+0.4f*cos(theta+t))': float to unsigned char in " + "[51, 255] by construction",
                exact);
        Finding cvt = conversion(Layer.PTX, "`cvt.rzi.u32.f32 %r51, %f42`: unguarded conversion", amplified);
        List<Finding> out = merge(List.of(proven, cvt));
        // one finding, still exact: the scan drops it (Scanner.exact) with the PTX finding it absorbed
        assertThat(out).hasSize(1);
        assertThat(out.get(0).impact().kind()).isEqualTo(Impact.Kind.EXACT);
        assertThat(Scanner.exact(out.get(0))).isTrue();
        // without the source layer's proof the PTX finding stands
        List<Finding> alone = merge(List.of(cvt));
        assertThat(alone).hasSize(1);
        assertThat(Scanner.exact(alone.get(0))).isFalse();
        // a hazard on the same line takes the PTX finding that names no operation; the exact finding stays apart
        Finding unguarded =
                conversion(Layer.CUDA_SOURCE, "'(unsigned char)(x)': unguarded float to unsigned char", amplified);
        unguarded = unguarded.toBuilder()
                .location(Location.of("texture_cube.cu", 60, 40))
                .build();
        List<Finding> both = merge(List.of(proven, unguarded, cvt));
        assertThat(both).filteredOn(f -> !Scanner.exact(f)).singleElement().satisfies(f -> {
            assertThat(f.message()).startsWith("'(unsigned char)(x)'").endsWith("(PTX confirms)");
        });
    }

    @Test
    void aPtxContractionOnALineOfRandomVariatesIsANote() {
        Impact cmp = new Impact(Impact.Kind.AMPLIFIED, "compared in a condition at line 940", null, null);
        String text = "`mul.ftz.f32 %f2366, %f2364, ...` feeds `add.ftz.f32 %f2368`: ptxas may fuse them into one FFMA";
        Finding decided =
                ptxAt("NL003", 571, "mul.ftz.f32 %f2366, %f2364, %f2365;", "r=(re-im)/(re+im);", cmp).toBuilder()
                        .message(text + "; then compared in a condition at line 940")
                        .build();
        java.util.Map<String, java.util.Set<Integer>> variates = java.util.Map.of("k.cu", java.util.Set.of(571));
        Finding note = merge(List.of(decided), variates).get(0);
        assertThat(note.level()).isEqualTo(Level.NOTE);
        assertThat(note.impact().kind()).isEqualTo(Impact.Kind.BOUNDED);
        assertThat(note.properties()).containsEntry("randomVariate", true);
        assertThat(note.message())
                .isEqualTo(text + "; a random variate (source): one ulp is another draw")
                .hasSizeLessThanOrEqualTo(dev.numlint.rules.Quote.MESSAGE);
        // another line, another file, no facts: the decision stands
        assertThat(merge(List.of(decided), java.util.Map.of("k.cu", java.util.Set.of(572)))
                        .get(0)
                        .level())
                .isEqualTo(Level.WARNING);
        assertThat(merge(List.of(decided), java.util.Map.of("other.cu", java.util.Set.of(571)))
                        .get(0)
                        .level())
                .isEqualTo(Level.WARNING);
        assertThat(merge(List.of(decided)).get(0)).isEqualTo(typed(decided));
        // a cancellation, another rule, or a line the source layer reports itself: unchanged
        Impact cancels = new Impact(Impact.Kind.CANCELLATION, "a difference of products (cancellation)", null, null);
        Finding cancellation = ptxAt("NL003", 571, "fma.rn.f32 %f4, %f3, %f2, %f1;", "r=a*b-c*d;", cancels);
        assertThat(merge(List.of(cancellation), variates).get(0).level()).isEqualTo(Level.WARNING);
        Finding approximate = ptxAt("NL006", 571, "ex2.approx.f32 %f4, %f3;", "r=__expf(c);", cmp);
        assertThat(merge(List.of(approximate), variates).get(0).level()).isEqualTo(Level.WARNING);
        Finding src = source("NL003", 571, "re-im", Level.WARNING, cmp);
        List<Finding> merged = merge(List.of(src, decided), variates);
        assertThat(merged).singleElement().satisfies(f -> assertThat(f.level()).isEqualTo(Level.WARNING));
    }

    @Test
    void layersMergeByTheTypedIdentityNotByTheMessage() {
        // the messages name no operation, or the wrong one: the producers' typed identities decide
        Finding exp = Finding.builder("NL006")
                .level(Level.WARNING)
                .layer(Layer.CUDA_SOURCE)
                .location(Location.of("k.cu", 7, 5))
                .function("k")
                .message("an approximate function (cos)")
                .identity(dev.numlint.model.Identity.NONE.withOperations(
                        java.util.Set.of(dev.numlint.model.Operation.EXP)))
                .build();
        Finding cos = exp.toBuilder()
                .location(Location.of("k.cu", 7, 20))
                .message("another approximate function (exp)")
                .identity(dev.numlint.model.Identity.NONE.withOperations(
                        java.util.Set.of(dev.numlint.model.Operation.COS)))
                .build();
        Finding ptxCos = Finding.builder("NL006")
                .level(Level.WARNING)
                .layer(Layer.PTX)
                .location(Location.of("k.cu", 7, 0))
                .function("k")
                .message("`ex2.approx.f32 %f1, %f2;`: fast exp")
                .evidence(new Evidence("ptx", "cos.approx.f32 %f3, %f4;", null))
                .identity(dev.numlint.model.Identity.NONE
                        .withInstruction("cos")
                        .withOperations(dev.numlint.model.Operation.computedBy("cos")))
                .build();
        List<Finding> out = merge(List.of(exp, cos, ptxCos));
        assertThat(out).hasSize(2);
        assertThat(out.get(0).properties()).doesNotContainKey("confirmedInPtx");
        assertThat(out.get(1).properties()).containsEntry("confirmedInPtx", true);
        assertThat(out.get(1).evidence()).extracting(Evidence::text).contains("cos.approx.f32 %f3, %f4;");
        // a contraction is confirmed only by an opcode its policy names (fma, mad), whatever the message quotes
        Impact amplified = Impact.amplified("compared in a condition", null);
        Finding src = source("NL003", 30, "x = a*b+c", Level.WARNING, amplified);
        Finding mul = ptxAt("NL003", 30, "fma.rn.f32 %f1, %f2, %f3, %f4;", "x = a*b+c", amplified).toBuilder()
                .identity(dev.numlint.model.Identity.NONE.withInstruction("mul"))
                .build();
        assertThat(merge(List.of(src, mul)).get(0).properties()).doesNotContainKey("confirmedInPtx");
    }

    @Test
    void aPtxFindingOnALineInsideAMultiLineSourceFindingJoinsIt() {
        // an expression over four lines (10 to 13): nvcc's line table gives its cvt the line of its own operand
        Finding src = Finding.builder("NL008")
                .level(Level.WARNING)
                .layer(Layer.CUDA_SOURCE)
                .location(new Location("k.cu", 10, 9, 13, 40))
                .message(
                        "'0.5*dXi*(a+b)' is computed in double (the double literal 0.5), rounded to 'u': slow on the GPU")
                .build();
        Finding inside =
                ptx("NL008", 12, "`cvt.f64.f32 %fd1, %f2`: float math done in double and rounded back to float");
        Finding below =
                ptx("NL008", 15, "`cvt.f64.f32 %fd3, %f4`: float math done in double and rounded back to float");
        Finding otherRule =
                ptx("NL003", 12, "`fma.rn.f32 %f5, %f6, %f7, %f8`: nvcc contracted a*b+c into one fma (one rounding)");
        List<Finding> out = merge(List.of(src, inside, below, otherRule));
        assertThat(out).hasSize(3);
        Finding merged = out.stream()
                .filter(f -> f.ruleId().equals("NL008") && f.location().startLine() == 10)
                .findFirst()
                .orElseThrow();
        assertThat(merged.layer()).isEqualTo(Layer.CUDA_SOURCE);
        assertThat(merged.evidence()).anySatisfy(e -> assertThat(e.text()).contains("cvt.f64.f32 %fd1"));
        assertThat(merged.related())
                .anySatisfy(r -> assertThat(r.location().startLine()).isEqualTo(12));
        assertThat(out).anySatisfy(f -> assertThat(f.location().startLine()).isEqualTo(15));
        assertThat(out).anySatisfy(f -> assertThat(f.ruleId()).isEqualTo("NL003"));
    }

    private static Finding ptx(String rule, int line, String message) {
        String instr = message.substring(1, message.indexOf('`', 1));
        return Finding.builder(rule)
                .level(Level.WARNING)
                .layer(Layer.PTX)
                .location(Location.of("k.cu", line, 5))
                .message(message)
                .evidence(new Evidence("ptx", instr, null))
                .build();
    }
    /** A PTX finding of a shared header's line, as the PTX of one unit reports it for the kernel inlining it there. */
    private static Finding inlinedFma(String kernel, String unit, int site, Impact impact) {
        String hazard = "`fma.rn.f32`: nvcc contracted a*b+c into one fma (one rounding, not two)";
        String shown = impact != null && impact.kind() == Impact.Kind.AMPLIFIED
                ? dev.numlint.rules.RuleCatalog.get()
                        .phrase("ptx-consequence", "message", hazard, "consequence", impact.consequence())
                : hazard;
        return Finding.builder("NL003")
                .level(impact != null && impact.kind() == Impact.Kind.AMPLIFIED ? Level.WARNING : Level.NOTE)
                .layer(Layer.PTX)
                .location(Location.of("util/Mat.h", 132, 4))
                .function(kernel)
                .message(shown)
                .evidence(new Evidence("ptx", "fma.rn.f32 %f8, %f3, %f7, %f6; // " + kernel, null))
                .related(Location.of(unit, site, 3), "inlined here (" + kernel + ")")
                .property("ptxInstruction", "fma.rn.f32 %f8, %f3, %f7, %f6;")
                .impact(impact)
                .identity(Identity.NONE.withInstruction("fma.rn.f32").withHazard(shown))
                .build();
    }

    @Test
    void oneHeaderLineInlinedIntoKernelsOfSeveralUnitsIsOneFinding() {
        Impact cond = new Impact(Impact.Kind.AMPLIFIED, "compared in a condition at line 30 of Track.h", null, null);
        Impact idx = new Impact(Impact.Kind.AMPLIFIED, "rounded to an index at line 7 of Raycast.h", null, null);
        Finding track = inlinedFma("trackKernel", "src/Track.cu", 271, cond);
        Finding ray = inlinedFma("raycastKernel", "src/Raycast.cu", 50, idx);
        Finding stored = inlinedFma("copyKernel", "src/Copy.cu", 12, Impact.bounded("only stored"));
        List<Finding> merged = merge(List.of(stored, track, ray));
        assertThat(merged).hasSize(1);
        Finding f = merged.get(0);
        // the strongest level is kept, and the kernels it was seen in are named
        assertThat(f.level()).isEqualTo(Level.WARNING);
        assertThat(f.properties()).containsEntry("instances", 3);
        assertThat(f.related().stream().map(r -> r.location().file() + ":" + r.message()))
                .contains(
                        "src/Track.cu:inlined here (trackKernel)",
                        "src/Raycast.cu:inlined here (raycastKernel)",
                        "src/Copy.cu:inlined here (copyKernel) (note there)");
        // two different operations written on the line stay two findings
        String mulAdd = "`mul.f32` feeds `add.f32`: ptxas may fuse them into one FFMA";
        Finding other = inlinedFma("trackKernel", "src/Track.cu", 271, cond).toBuilder()
                .location(Location.of("util/Mat.h", 132, 40))
                .message(mulAdd)
                .identity(Identity.NONE.withInstruction("mul.f32").withHazard(mulAdd))
                .build();
        assertThat(merge(List.of(track, other))).hasSize(2);
    }
}
