package dev.numlint.ptx.rules;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PtxMessageTest {
    @Test
    void theHazardOfTwoBuildsIsOneTheMessageQuotesEachBuildsInstruction() {
        PtxMessage rn = PtxMessage.of(
                "NL003",
                "ptx-muladd",
                "mul",
                "mul.rn.f32 %f3, %f1, %f2;",
                "add",
                "add.rn.f32 %f5, %f3, %f4;",
                "fusion",
                "may fuse them");
        PtxMessage ftz = PtxMessage.of(
                "NL003",
                "ptx-muladd",
                "mul",
                "mul.rn.ftz.f32 %f7, %f1, %f2;",
                "add",
                "add.rn.ftz.f32 %f9, %f7, %f4;",
                "fusion",
                "may fuse them");
        assertThat(rn.text()).startsWith("`mul.rn.f32 %f3, %f1, %f2`").contains("may fuse them");
        assertThat(rn.text()).isNotEqualTo(ftz.text());
        assertThat(rn.withoutInstructions())
                .isEqualTo(ftz.withoutInstructions())
                .doesNotContain("%f")
                .contains("may fuse them");
        // another argument that is no instruction is part of the hazard
        PtxMessage other = PtxMessage.of(
                "NL003",
                "ptx-muladd",
                "mul",
                "mul.rn.f32 %f3, %f1, %f2;",
                "add",
                "add.rn.f32 %f5, %f3, %f4;",
                "fusion",
                "fuses them");
        assertThat(other.withoutInstructions()).isNotEqualTo(rn.withoutInstructions());
    }
}
