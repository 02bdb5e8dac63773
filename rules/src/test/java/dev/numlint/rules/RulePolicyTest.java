package dev.numlint.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.numlint.knowledge.WrittenCode;
import dev.numlint.model.Identity;
import dev.numlint.model.Operation;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RulePolicyTest {
    private static RulePolicy parse(String yaml) throws Exception {
        return RulePolicy.parse("NL999", new ObjectMapper(new YAMLFactory()).readTree(yaml));
    }

    @Test
    void aPolicyStatesHowTheEngineTreatsTheRule() throws Exception {
        RulePolicy p = parse("{merge: every-site, confirmed-by: [fma, mad], validation-inputs: [subnormal]}");
        assertThat(p.declared()).isTrue();
        assertThat(p.everySite()).isTrue();
        assertThat(p.confirmedBy("fma")).isTrue();
        assertThat(p.confirmedBy("mul")).isFalse();
        assertThat(p.confirmedBy(null)).isFalse();
        assertThat(p.validationInputs()).containsExactly("subnormal");
        // defaults: merge by line, any PTX finding confirms, the PTX message states the consequence
        RulePolicy plain = parse("{merge: line}");
        assertThat(plain.everySite()).isFalse();
        assertThat(plain.confirmedBy("mul")).isTrue();
        assertThat(plain.ptxStatesConsequence()).isTrue();
        assertThat(RulePolicy.parse("NL999", null).declared()).isFalse();
    }

    @Test
    void aTypoInAPolicyIsRefusedWithTheRuleAndTheKey() {
        assertThatThrownBy(() -> parse("{merge: line, confirmd-by: [fma]}"))
                .hasMessageContaining("NL999")
                .hasMessageContaining("confirmd-by");
        assertThatThrownBy(() -> parse("{merge: sometimes}")).hasMessageContaining("sometimes");
    }

    @Test
    void aRuleNamesTheReachesItsHazardChangesOnlyAtATie() throws Exception {
        assertThat(parse("{tie-only: [decision, index]}").tieOnly())
                .containsExactlyInAnyOrder(
                        dev.numlint.model.Impact.Reach.DECISION, dev.numlint.model.Impact.Reach.INDEX);
        assertThat(parse("{merge: line}").tieOnly()).isEmpty();
        assertThatThrownBy(() -> parse("{tie-only: [branch]}"))
                .hasMessageContaining("NL999")
                .hasMessageContaining("branch");
        RuleCatalog c = RuleCatalog.get();
        assertThat(c.rulesWhere(p -> !p.tieOnly().isEmpty())).containsExactly("NL002", "NL003", "NL006");
    }

    @Test
    void theCatalogDeclaresTheEnginesSpecialCases() {
        RuleCatalog c = RuleCatalog.get();
        assertThat(c.rulesWhere(RulePolicy::everySite)).containsExactly("NL001", "NL002", "NL006", "NL009");
        assertThat(c.rulesWhere(p -> p.validationVariant() != null))
                .containsExactly("NL002", "NL003", "NL006", "NL007");
        assertThat(c.rulesWhere(p -> p.ptxTripCountOption() != null)).hasSize(1);
        for (String id : c.rulesWhere(p -> p.ptxTripCountOption() != null)) {
            assertThat(c.rule(id).option(c.policy(id).ptxTripCountOption())).isNotNull();
        }
        assertThat(c.policy("NL999")).isSameAs(RulePolicy.DEFAULT);
    }

    @Test
    void aRuleNamesTheConstructItsPtxFindingsLineMustHold() throws Exception {
        assertThat(parse("{relocate-ptx: double-math}").relocatePtx()).isEqualTo(WrittenCode.Construct.DOUBLE_MATH);
        assertThat(parse("{merge: line}").relocatePtx()).isNull();
        assertThatThrownBy(() -> parse("{relocate-ptx: true}"))
                .hasMessageContaining("NL999")
                .hasMessageContaining("relocate-ptx");
        RuleCatalog c = RuleCatalog.get();
        assertThat(c.policy("NL001").relocatePtx()).isEqualTo(WrittenCode.Construct.CONVERSION);
        assertThat(c.policy("NL002").relocatePtx()).isEqualTo(WrittenCode.Construct.DIVISION);
        assertThat(c.policy("NL003").relocatePtx()).isEqualTo(WrittenCode.Construct.CONTRACTION);
        assertThat(c.policy("NL008").relocatePtx()).isEqualTo(WrittenCode.Construct.DOUBLE_MATH);
        // every construct has its phrases
        for (WrittenCode.Construct k : WrittenCode.Construct.values()) {
            assertThat(c.phrase("ptx-line-moved-" + k.id())).doesNotStartWith("ptx-line");
            assertThat(c.phrase("ptx-line-approximate-" + k.id(), "message", "m"))
                    .startsWith("m (line approximate");
            if (!k.keepsLevel()) {
                assertThat(c.phrase("ptx-line-unplaced-" + k.id())).doesNotStartWith("ptx-line");
            }
        }
    }

    @Test
    void aWrittenLineHoldsDoubleMathOrAContractionOnlyWhereItsTextCan() {
        var dbl = WrittenCode.Construct.DOUBLE_MATH;
        // a loop header of integers and an integer subscript: what nvcc hoisted there is written elsewhere
        assertThat(WrittenCode.mayHold(dbl, "for( i.y=i0.y; i.y<shape.y; i.y+=blockDim.y*gridDim.y ) {"))
                .isFalse();
        assertThat(WrittenCode.mayHold(dbl, "  sc.z = scrsdef.rng[2 * isr + 1];"))
                .isFalse();
        assertThat(WrittenCode.mayHold(dbl, "y = x * 0.5f + 1.f; // 0.5 in a comment"))
                .isFalse();
        // a double literal, the type, a call, a macro constant, a line of a longer expression
        assertThat(WrittenCode.mayHold(dbl, "for (float t = 0; t < 1.0 / x; t += h) {"))
                .isTrue();
        assertThat(WrittenCode.mayHold(dbl, "result *= 1. / shape.w; break;")).isTrue();
        assertThat(WrittenCode.mayHold(dbl, "float r = x * .5;")).isTrue();
        assertThat(WrittenCode.mayHold(dbl, "float r = x * 1e-3;")).isTrue();
        assertThat(WrittenCode.mayHold(dbl, "float r = (double) x * y;")).isTrue();
        assertThat(WrittenCode.mayHold(dbl, "float r = scale(x);")).isTrue();
        assertThat(WrittenCode.mayHold(dbl, "float r = x * M_PI;")).isTrue();
        // a name in capitals inside an integer subscript is an integer (a template parameter, a size)
        assertThat(WrittenCode.mayHold(dbl, "param[j] = par_arr[ArrayIdx*NPARAM + j];"))
                .isFalse();
        assertThat(WrittenCode.mayHold(dbl, "y[i] = x[N*i] * SCALE;")).isTrue();
        assertThat(WrittenCode.mayHold(dbl, "y[i] = x[(int)(i * SCALE)];")).isTrue();
        assertThat(WrittenCode.mayHold(dbl, "                     1));")).isTrue();
        var fma = WrittenCode.Construct.CONTRACTION;
        assertThat(WrittenCode.mayHold(fma, "for (int k = 0; k < n; ++k) {")).isFalse();
        assertThat(WrittenCode.mayHold(fma, "p->v = a * b;")).isFalse();
        assertThat(WrittenCode.mayHold(fma, "y = a * 1e-3;")).isFalse();
        assertThat(WrittenCode.mayHold(fma, "y = a * b + c;")).isTrue();
        assertThat(WrittenCode.mayHold(fma, "s -= a[i] * b[i];")).isTrue();
        // the sum of a product written on another line (the fma carries the line of its addition)
        assertThat(WrittenCode.mayHold(fma, "float tr1 = (lr1 - py) / at.y;")).isTrue();
        // a line that goes on with the statement above it
        assertThat(WrittenCode.continuedAfter("float lz1 = ceilf(a * z) * b -  // first"))
                .isTrue();
        assertThat(WrittenCode.continuedAfter("float lz1 = ceilf(a * z) * b;")).isFalse();
        assertThat(WrittenCode.continuedAfter("for (int k = 0; k < n; ++k)")).isFalse();
        assertThat(WrittenCode.mayHold(fma, "                     uz_r*uz_r));"))
                .isTrue();
    }

    @Test
    void ptxOpcodesMeetTheSourceOperationsTheyCompute() {
        assertThat(Operation.spelledIn("__expf(x) * y")).containsExactly(Operation.EXP);
        assertThat(Operation.spelledIn("__fdividef(1.f, v.x)")).contains(Operation.DIVIDE_CALL);
        assertThat(Operation.computedBy("ex2")).contains(Operation.EXP, Operation.POW);
        assertThat(Operation.computedBy("fma")).isEmpty();
        assertThat(Identity.NONE.withOperations(Set.of(Operation.COS)).operations())
                .containsExactly(Operation.COS);
    }
}
