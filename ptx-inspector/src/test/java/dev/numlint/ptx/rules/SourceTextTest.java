package dev.numlint.ptx.rules;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SourceTextTest {
    @Test
    void aComparisonWithARandomDrawInOneGroupIsABernoulliTrial() {
        assertThat(SourceText.comparesWithDraw("if (rand_next_reflect(t) <= Rtotal) { /*do reflection*/"))
                .isTrue();
        assertThat(SourceText.comparesWithDraw("} while (rand_uniform01(t)*I0 >= I);"))
                .isTrue();
        assertThat(SourceText.comparesWithDraw("if (curand_uniform(&state) < p) hit++;"))
                .isTrue();
    }

    @Test
    void aDrawBesideAnotherComparisonOrWithoutOneIsNot() {
        // the comparison does not involve the draw: the draw is in a group of its own
        assertThat(SourceText.comparesWithDraw("if (x > 0.5f) r = jitter(curand_uniform(&s));"))
                .isFalse();
        assertThat(SourceText.comparesWithDraw("r = sqrtf(rand_uniform01(t));")).isFalse();
        assertThat(SourceText.comparesWithDraw("if (p->x < lo) { q = operand(a) + 1; }"))
                .isFalse();
        assertThat(SourceText.comparesWithDraw("curand_init(seed < 0 ? 1 : seed, id, 0, &s);"))
                .isFalse();
        assertThat(SourceText.comparesWithDraw("// if (rand() < p) in a comment"))
                .isFalse();
        assertThat(SourceText.comparesWithDraw(null)).isFalse();
    }

    @Test
    void aLineWritesASumOnlyWithABinaryPlusOrMinus() {
        assertThat(SourceText.writesSum("while (fmodf(tc, dt) != 0.0f) dt *= 0.5f;"))
                .isFalse();
        assertThat(SourceText.writesSum("Entr = Pres * POW( Dens, -Gamma_m1 );"))
                .isFalse();
        assertThat(SourceText.writesSum("y = x * expf(1e-5f * z); // a - b in a comment"))
                .isFalse();
        assertThat(SourceText.writesSum("p->v = a[i - 1] * powf(b, c); i++;")).isFalse();
        assertThat(SourceText.writesSum("return -x * logf(y);")).isFalse();
        assertThat(SourceText.writesSum("out = a * b + c;")).isTrue();
        assertThat(SourceText.writesSum("s -= a * powf(b, c);")).isTrue();
        assertThat(SourceText.writesSum("v = (a) - powf(b, 2.0f) * c;")).isTrue();
        assertThat(SourceText.writesSum("v = 0x1e-5 * powf(b, c);")).isTrue();
        // the statement goes on: nvcc puts its instructions on this first line
        assertThat(SourceText.writesSum("out = a * powf(b, c)")).isTrue();
        assertThat(SourceText.callsMathLibraryAnyCase("Entr = Pres * POW( Dens, -Gamma_m1 );"))
                .isTrue();
        assertThat(SourceText.callsMathLibraryAnyCase("x = LERP(a, b, t);")).isFalse();
        assertThat(SourceText.mathLibraryCalls("*f = ck * (powf(p / pk, e) - 1.0) + std::sqrt (q);"))
                .containsExactly("powf", "sqrt");
    }
    /**
     * Session 26's defect 8: a generated kernel's statement of thousands of characters carries thousands of PTX
     * instructions, and each asked the same questions of the whole line again. A line of 150,000 characters with
     * 10,000 products, asked 3,000 times, is answered in well under a second of CPU time (minutes before: the
     * pointer-declarator test read each prefix of the line, and nothing was remembered).
     */
    @Test
    void aLongGeneratedLineIsReadOncePerQuestionAndInLinearTime() {
        StringBuilder b = new StringBuilder("out[0] = ");
        for (int i = 0; i < 10_000; i++) b.append("0.25*f[").append(i % 7).append("] + ");
        b.append("1.0;");
        String line = b.toString();
        String pointer = "double *p = q; float * __restrict__ r = s; gkyl_array_t *a = " + "x".repeat(300) + ";";
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long t0 = mx.getCurrentThreadCpuTime();
        int done = 0;
        for (; done < 3_000 && mx.getCurrentThreadCpuTime() - t0 < 3_000_000_000L; done++) {
            assertThat(SourceText.hasMultiply(line)).isTrue();
            assertThat(SourceText.callsMathLibraryAnyCase(line)).isFalse();
            assertThat(SourceText.callsMathLibrary(line)).isFalse();
            assertThat(SourceText.callsExactRoutine(line)).isFalse();
            assertThat(SourceText.hasExplicitFma(line)).isFalse();
        }
        assertThat(done).as("questions answered within 3 s of CPU time").isEqualTo(3_000);
        // the answers are the same as on short lines: declarators are not products, a call of pow is a call
        assertThat(SourceText.hasMultiply(pointer)).isFalse();
        assertThat(SourceText.hasMultiply("double *p = q;")).isFalse();
        assertThat(SourceText.hasMultiply("y = a * b;")).isTrue();
        assertThat(SourceText.hasMultiply("size_t *n = &m; y = c *d;")).isTrue();
        assertThat(SourceText.callsMathLibraryAnyCase(line.replace("1.0;", "POW(x, 2.0);")))
                .isTrue();
    }

    @Test
    void anApproximationAskedForByNameIsWrittenNotChosenByTheBuild() {
        assertThat(SourceText.writesApproximation("float q = __fdividef(a, b);"))
                .isTrue();
        assertThat(SourceText.writesApproximation("e = __expf(-x) * rsqrtf(y);"))
                .isTrue();
        assertThat(SourceText.writesApproximation(
                        "asm(\"div.approx.f32 %0, %1, %2;\" : \"=f\"(q) : \"f\"(a), \"f\"(b));"))
                .isTrue();
        // an unreadable line shows nothing about where the approximation came from
        assertThat(SourceText.writesApproximation(null)).isTrue();
        assertThat(SourceText.writesApproximation("float q = a / b; // not __fdividef(a, b)"))
                .isFalse();
        assertThat(SourceText.writesApproximation("e = expf(-x) / sqrtf(y);")).isFalse();
        assertThat(SourceText.writesApproximation("my__expf_table[i] = v;")).isFalse();
    }

    @Test
    void aRoundingIsWrittenOnlyWhereTheLineCallsOne() {
        // libdevice's powf tests its exponent with cvt.rzi.f32.f32 on the calling line (session 56, MF-LBM-CUDA)
        assertThat(SourceText.writesRounding(
                        "curv[i_s1(i, j, k)] = (prc(pow)(cn_x[i_s2(i, j, k)], 2) - prc(1.)) * kxx + (prc(pow)(cn_y"))
                .isFalse();
        assertThat(SourceText.writesRounding("int b = (int)floorf((x - lo) * inv);"))
                .isTrue();
        assertThat(SourceText.writesRounding("float r = rintf(t * 0.5f);")).isTrue();
        assertThat(SourceText.writesRounding("k = __float2int_rn(x);")).isTrue();
        assertThat(SourceText.writesRounding("y = ROUND(a * b);")).isTrue();
        assertThat(SourceText.writesRounding(null)).isTrue();
    }
}
