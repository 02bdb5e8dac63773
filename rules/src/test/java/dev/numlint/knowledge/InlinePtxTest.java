package dev.numlint.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InlinePtxTest {
    @Test
    void namesTheApproximateFloatInstructionsOfAStatementsStrings() {
        String asm = "asm volatile(\"{\\n\\t.reg .pred p;\\n\\tsetp.gt.f32 p, %1, 0f00000000;\\n\\t\"\n"
                + "    \"@p rsqrt.approx.ftz.f32 %0, %1;\\n\\tex2.approx.f32 %0, %0;\\n\\t}\" : \"=f\"(y) : \"f\"(x));";
        assertThat(InlinePtx.approximate(asm))
                .extracting(InlinePtx.Instruction::name)
                .containsExactly("rsqrt.approx.ftz.f32", "ex2.approx.f32");
    }

    @Test
    void divisionsAndReciprocalsAreDivisions() {
        assertThat(InlinePtx.approximate("asm(\"div.full.f32 %0, %1, %2;\" : \"=f\"(q) : \"f\"(a), \"f\"(b));"))
                .singleElement()
                .satisfies(i -> assertThat(i.division()).isTrue());
        assertThat(InlinePtx.approximate("asm(\"rcp.approx.ftz.f64 %0, %1;\" : \"=d\"(r) : \"d\"(x));"))
                .singleElement()
                .satisfies(i -> assertThat(i.cpu()).isEqualTo("1/x"));
    }

    @Test
    void correctlyRoundedAndIntegerInstructionsAreNot() {
        assertThat(InlinePtx.approximate("asm(\"div.rn.f32 %0, %1, %2;\" : \"=f\"(q) : \"f\"(a), \"f\"(b));"))
                .isEmpty();
        assertThat(InlinePtx.approximate("asm(\"sqrt.rn.f32 %0, %0;\" : \"+f\"(s));"))
                .isEmpty();
        assertThat(InlinePtx.approximate("asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(id));"))
                .isEmpty();
        assertThat(InlinePtx.approximate("asm(\"sin.approx.f64 %0, %1;\")")).isEmpty();
        assertThat(InlinePtx.cpu("tanh.approx.f32")).isEqualTo("tanhf");
        assertThat(InlinePtx.cpu("add.f32")).isNull();
    }
}
