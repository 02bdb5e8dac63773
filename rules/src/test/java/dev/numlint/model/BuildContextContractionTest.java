package dev.numlint.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link BuildContext#hostContracts()}: the host compiler's default contraction, from the command (HostContraction). */
class BuildContextContractionTest {
    @Test
    void theBuildContextOfACommandSaysWhetherTheHostContracts() {
        java.util.function.Supplier<BuildContext> iso =
                () -> BuildContext.defaults().hostArch("native").hostStd("c99");
        assertThat(iso.get().hostContracts()).isFalse();
        assertThat(iso.get().hostCompiler("gcc").hostContracts()).isFalse();
        assertThat(iso.get().hostCompiler("clang-19").hostContracts()).isTrue();
        assertThat(iso.get().hostFastMath(true).hostContracts()).isTrue();
        assertThat(iso.get().hostFpContractOff(false).hostContracts()).isTrue(); // -ffp-contract=fast
        assertThat(iso.get().hostStd("gnu99").hostContracts()).isTrue();
        assertThat(iso.get().hostStd("c++17").hostContracts()).isTrue();
        assertThat(iso.get().hostArch("x86-64").hostContracts()).isFalse(); // no FMA instructions
        assertThat(BuildContext.defaults()
                        .hostArch("native")
                        .hostFpContractOff(true)
                        .hostContracts())
                .isFalse();
    }

    @Test
    void aLaterOLevelUndoesOfastAndGccAtO0ContractsNothing() {
        BuildContext ofast =
                BuildContext.defaults().hostArch("native").hostCompiler("g++").hostOptLevel("fast");
        assertThat(ofast.hostFastMath()).isTrue();
        assertThat(ofast.hostContracts()).isTrue();
        BuildContext o0 = ofast.copy().hostOptLevel("0"); // -Ofast ... -O0
        assertThat(o0.hostFastMath()).isNull();
        assertThat(o0.hostContracts()).isFalse();
        assertThat(o0.hostFpContractOff(false).hostContracts()).isFalse(); // -ffp-contract=fast does not act at -O0
        BuildContext fastMath = ofast.copy().hostOptLevel("0").hostFastMath(true); // -ffast-math -O0: the macro only
        assertThat(fastMath.hostFastMath()).isTrue();
        assertThat(fastMath.hostContracts()).isFalse();
        assertThat(ofast.copy().hostOptLevel("2").hostContracts()).isTrue();
    }
}
