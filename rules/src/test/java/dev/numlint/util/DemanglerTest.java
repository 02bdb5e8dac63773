package dev.numlint.util;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DemanglerTest {
    @Test
    void namesWithoutTemplateArguments() {
        assertThat(Demangler.simpleName("_Z1kPKfPtPfiPd")).isEqualTo("k");
        assertThat(Demangler.simpleName("_ZN2ns6kernelEv")).isEqualTo("ns::kernel");
        assertThat(Demangler.simpleName("_ZN3Hex27batchnorm_forward_2d_kernelIiEEvPKT_PS1_iiffb"))
                .isEqualTo("Hex::batchnorm_forward_2d_kernel");
    }

    @Test
    void builtinTemplateArguments() {
        assertThat(Demangler.templateArguments("_ZN3Hex27batchnorm_forward_2d_kernelIiEEvPKT_PS1_iiffb"))
                .isEqualTo("int");
        assertThat(Demangler.templateArguments("_Z4tileILi16EfEvPf")).isEqualTo("16, float");
        assertThat(Demangler.templateArguments("_Z4tileIPKdLin2EEvPf")).isEqualTo("const double*, -2");
        // an identifier that holds an 'I' is no template's start
        assertThat(Demangler.templateArguments("_Z5IsoIvPf")).isNull();
        assertThat(Demangler.templateArguments("_Z6kernelPf")).isNull();
        // a class type argument is not named
        assertThat(Demangler.templateArguments("_Z6kernelI6float2EvPT_")).isNull();
        assertThat(Demangler.templateArguments("kernel")).isNull();
    }
}
