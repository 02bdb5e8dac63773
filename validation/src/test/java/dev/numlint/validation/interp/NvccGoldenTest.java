package dev.numlint.validation.interp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.numlint.validation.Nvcc;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Rebuilds seeds.cu with the installed nvcc and checks the seed numbers on its fresh PTX. */
class NvccGoldenTest {
    @Test
    void seedNumbersOnFreshNvccOutput() throws Exception {
        Optional<Nvcc> nvcc = Nvcc.find(null, "compute_90");
        assumeTrue(
                nvcc.isPresent(),
                "nvcc not found (NUMLINT_NVCC, PATH, /usr/local/cuda): skipping; GoldenSeedTest covers the committed PTX");
        Path cu =
                Paths.get(NvccGoldenTest.class.getResource("/kernels/seeds.cu").toURI());
        Nvcc.Result dflt = nvcc.get().compile(cu, List.of());
        Nvcc.Result nofma = nvcc.get().compile(cu, List.of("-fmad=false"));
        assertThat(dflt.error).isNull();
        assertThat(nofma.error).isNull();
        PtxText.Module d = PtxModelAdapter.read(dflt.ptx), n = PtxModelAdapter.read(nofma.ptx);
        assertThat(GoldenSeedTest.squarePlus(d, false)).isEqualTo(1.4210855e-14f);
        assertThat(GoldenSeedTest.squarePlus(n, false)).isEqualTo(0f);
        assertThat(GoldenSeedTest.toUshort(d, -69.235f, false)).isEqualTo(0);
        assertThat(GoldenSeedTest.toUshort(d, -69.235f, true)).isEqualTo(65467);
        assertThat(GoldenSeedTest.matmul(n, "matmul_serial", false, null)[1]).isEqualTo(707054208f);
        assertThat(GoldenSeedTest.matmul(n, "matmul_block", false, null)[1]).isEqualTo(707054144f);
        double[] ref = new double[4];
        GoldenSeedTest.matmul(n, "matmul_serial", true, ref);
        assertThat(ref[1]).isEqualTo(707054166.0);
    }
}
