package dev.numlint.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
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
    void ptxOpcodesMeetTheSourceOperationsTheyCompute() {
        assertThat(Operation.spelledIn("__expf(x) * y")).containsExactly(Operation.EXP);
        assertThat(Operation.spelledIn("__fdividef(1.f, v.x)")).contains(Operation.DIVIDE_CALL);
        assertThat(Operation.computedBy("ex2")).contains(Operation.EXP, Operation.POW);
        assertThat(Operation.computedBy("fma")).isEmpty();
        assertThat(Identity.NONE.withOperations(Set.of(Operation.COS)).operations())
                .containsExactly(Operation.COS);
    }
}
