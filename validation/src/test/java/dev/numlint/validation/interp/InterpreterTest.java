package dev.numlint.validation.interp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** Instruction families against hand-computed results: each test runs a small hand-written PTX kernel. */
class InterpreterTest {
    static final String HEAD = ".version 8.0\n.target sm_90\n.address_size 64\n";
    static final String REGS =
            ".reg .pred %p<8>; .reg .b16 %rs<8>; .reg .b32 %r<40>; .reg .f32 %f<32>; .reg .b64 %rd<40>; .reg .f64 %fd<16>;\n"
                    + "ld.param.u64 %rd30, [out]; cvta.to.global.u64 %rd31, %rd30;\n"
                    + "ld.param.u64 %rd28, [in]; cvta.to.global.u64 %rd29, %rd28;\n";

    /** Runs body in threads threads of one block; returns the 64 output words (8 bytes each). */
    static ByteBuffer run(String body, int threads, byte[] input) throws Exception {
        return run(body, "", threads, input, false);
    }

    static ByteBuffer run(String body, String extra, int threads, byte[] input, boolean host) throws Exception {
        String src =
                HEAD + extra + ".visible .entry t(.param .u64 out, .param .u64 in) {\n" + REGS + body + "\nret;\n}\n";
        Program p = Decoder.decode(PtxModelAdapter.read(src), "t", false, host);
        Launch l = new Launch(p);
        long out = l.alloc(new byte[8 * 256]);
        long in = l.alloc(input == null ? new byte[8 * 256] : input);
        l.param(0, out);
        l.param(1, in);
        l.run(new int[] {1, 1, 1}, new int[] {threads, 1, 1}, 0, 10_000_000);
        return ByteBuffer.wrap(l.read(out, 8 * 256)).order(ByteOrder.LITTLE_ENDIAN);
    }

    static ByteBuffer run(String body) throws Exception {
        return run(body, 1, null);
    }

    @Test
    void integerArithmetic() throws Exception {
        ByteBuffer o = run(String.join(
                "\n",
                "mov.u32 %r1, 2147483647; add.s32 %r2, %r1, 1; st.global.u32 [%rd31], %r2;",
                "mov.s32 %r3, -7; mov.s32 %r4, 2; div.s32 %r5, %r3, %r4; st.global.u32 [%rd31+4], %r5;",
                "rem.s32 %r6, %r3, %r4; st.global.u32 [%rd31+8], %r6;",
                "div.u32 %r7, %r3, %r4; st.global.u32 [%rd31+12], %r7;",
                "mul.hi.s32 %r8, %r3, 1073741824; st.global.u32 [%rd31+16], %r8;",
                "mul.hi.u32 %r9, %r3, 1073741824; st.global.u32 [%rd31+20], %r9;",
                "mul.wide.s32 %rd1, %r3, 4; st.global.u64 [%rd31+24], %rd1;",
                "mul.wide.u32 %rd2, %r3, 4; st.global.u64 [%rd31+32], %rd2;",
                "mad.lo.s32 %r10, %r3, %r4, 100; st.global.u32 [%rd31+40], %r10;",
                "min.s32 %r11, %r3, %r4; st.global.u32 [%rd31+44], %r11;",
                "min.u32 %r12, %r3, %r4; st.global.u32 [%rd31+48], %r12;",
                "abs.s32 %r13, %r3; neg.s32 %r14, %r13; st.global.u32 [%rd31+52], %r13; st.global.u32 [%rd31+56], %r14;",
                "mov.u64 %rd3, -1; mul.hi.u64 %rd4, %rd3, %rd3; st.global.u64 [%rd31+64], %rd4;",
                "add.cc.u32 %r15, %r1, %r1; addc.u32 %r16, 0, 0; st.global.u32 [%rd31+72], %r16;",
                // 64-bit product from 32-bit pieces: 0xFFFFFFFF^2 + 0xFFFFFFFF = 0xFFFFFFFE_00000001 + 0xFFFFFFFF
                // = 0xFFFFFFFF_00000000: the low word carries into the high word
                "mov.u32 %r17, -1; mad.lo.cc.u32 %r18, %r17, %r17, %r17; madc.hi.u32 %r19, %r17, %r17, 0;",
                "st.global.u32 [%rd31+76], %r18; st.global.u32 [%rd31+80], %r19;"));
        assertThat(o.getInt(0)).isEqualTo(Integer.MIN_VALUE);
        assertThat(o.getInt(4)).isEqualTo(-3);
        assertThat(o.getInt(8)).isEqualTo(-1);
        assertThat(o.getInt(12)).isEqualTo((int) (0xFFFFFFF9L / 2));
        assertThat(o.getInt(16)).isEqualTo(-2); // -7 * 2^30 >> 32 = -1.75 -> floor -2
        assertThat(o.getInt(20)).isEqualTo((int) ((0xFFFFFFF9L << 30) >>> 32));
        assertThat(o.getLong(24)).isEqualTo(-28);
        assertThat(o.getLong(32)).isEqualTo(0xFFFFFFF9L * 4);
        assertThat(o.getInt(40)).isEqualTo(86);
        assertThat(o.getInt(44)).isEqualTo(-7);
        assertThat(o.getInt(48)).isEqualTo(2);
        assertThat(o.getInt(52)).isEqualTo(7);
        assertThat(o.getInt(56)).isEqualTo(-7);
        assertThat(o.getLong(64)).isEqualTo(-2L); // (2^64-1)^2 >> 64 = 2^64 - 2
        assertThat(o.getInt(72)).isEqualTo(0); // 0x7FFFFFFF * 2 has no carry out of 32 bits
        assertThat(o.getInt(76)).isEqualTo(0);
        assertThat(o.getInt(80)).isEqualTo(0xFFFFFFFF);
    }

    @Test
    void bitOperations() throws Exception {
        ByteBuffer o = run(String.join(
                "\n",
                "mov.u32 %r1, 0xF0F0F0F0; shl.b32 %r2, %r1, 33; st.global.u32 [%rd31], %r2;",
                "shr.s32 %r3, %r1, 40; st.global.u32 [%rd31+4], %r3;",
                "shr.u32 %r4, %r1, 4; st.global.u32 [%rd31+8], %r4;",
                "bfe.u32 %r5, %r1, 4, 8; st.global.u32 [%rd31+12], %r5;",
                "bfe.s32 %r6, %r1, 4, 8; st.global.u32 [%rd31+16], %r6;",
                "bfi.b32 %r7, 0xF, 0, 8, 4; st.global.u32 [%rd31+20], %r7;",
                "popc.b32 %r8, %r1; st.global.u32 [%rd31+24], %r8;",
                "clz.b32 %r9, 1; st.global.u32 [%rd31+28], %r9;",
                "brev.b32 %r10, 1; st.global.u32 [%rd31+32], %r10;",
                "prmt.b32 %r11, 0x33221100, 0x77665544, 0x4321; st.global.u32 [%rd31+36], %r11;",
                "lop3.b32 %r12, 0xFF00, 0x0FF0, 0x00FF, 0x96; st.global.u32 [%rd31+40], %r12;",
                "bfind.u32 %r13, 0x00010000; st.global.u32 [%rd31+44], %r13;",
                "and.b32 %r14, %r1, 0xFF; or.b32 %r15, %r14, 0x100; xor.b32 %r16, %r15, 1; not.b32 %r17, %r16; st.global.u32 [%rd31+48], %r17;",
                "cnot.b32 %r18, 0; st.global.u32 [%rd31+52], %r18;"));
        assertThat(o.getInt(0)).isEqualTo(0);
        assertThat(o.getInt(4)).isEqualTo(-1);
        assertThat(o.getInt(8)).isEqualTo(0x0F0F0F0F);
        assertThat(o.getInt(12)).isEqualTo(0x0F);
        assertThat(o.getInt(16)).isEqualTo(0x0F);
        assertThat(o.getInt(20)).isEqualTo(0xF00);
        assertThat(o.getInt(24)).isEqualTo(16);
        assertThat(o.getInt(28)).isEqualTo(31);
        assertThat(o.getInt(32)).isEqualTo(Integer.MIN_VALUE);
        assertThat(o.getInt(36)).isEqualTo(0x44332211);
        assertThat(o.getInt(40)).isEqualTo(0xFF00 ^ 0x0FF0 ^ 0x00FF); // 0x96 is a ^ b ^ c
        assertThat(o.getInt(44)).isEqualTo(16);
        assertThat(o.getInt(48)).isEqualTo(~((0xF0 | 0x100) ^ 1));
        assertThat(o.getInt(52)).isEqualTo(1);
    }

    @Test
    void predicatesBranchesAndLoops() throws Exception {
        ByteBuffer o = run(String.join(
                "\n",
                "mov.u32 %r1, 0; mov.u32 %r2, 1;",
                "LOOP: add.s32 %r1, %r1, %r2; add.s32 %r2, %r2, 1; setp.le.s32 %p1, %r2, 10; @%p1 bra LOOP;",
                "st.global.u32 [%rd31], %r1;",
                "mov.f32 %f1, 0f7FC00000; setp.lt.f32 %p2, %f1, 0f3F800000; selp.u32 %r3, 1, 0, %p2; st.global.u32 [%rd31+4], %r3;",
                "setp.ltu.f32 %p3, %f1, 0f3F800000; selp.u32 %r4, 1, 0, %p3; st.global.u32 [%rd31+8], %r4;",
                "setp.ne.f32 %p4, %f1, %f1; selp.u32 %r5, 1, 0, %p4; st.global.u32 [%rd31+12], %r5;",
                "setp.gt.u32.and %p5, -1, 5, %p3; selp.u32 %r6, 1, 0, %p5; st.global.u32 [%rd31+16], %r6;",
                "setp.lt.s32 %p6|%p7, 3, 5; selp.u32 %r7, 1, 0, %p7; st.global.u32 [%rd31+20], %r7;",
                "@!%p6 st.global.u32 [%rd31+24], 99;",
                "@%p6 st.global.u32 [%rd31+28], 42;",
                "and.pred %p1, %p6, %p7; selp.u32 %r8, 1, 0, %p1; st.global.u32 [%rd31+32], %r8;"));
        assertThat(o.getInt(0)).isEqualTo(55);
        assertThat(o.getInt(4)).isEqualTo(0); // ordered comparison with NaN is false
        assertThat(o.getInt(8)).isEqualTo(1); // unordered is true
        assertThat(o.getInt(12)).isEqualTo(0); // ne is ordered
        assertThat(o.getInt(16)).isEqualTo(1); // 0xFFFFFFFF > 5 unsigned, and p3
        assertThat(o.getInt(20)).isEqualTo(0); // the complement predicate
        assertThat(o.getInt(24)).isEqualTo(0);
        assertThat(o.getInt(28)).isEqualTo(42);
        assertThat(o.getInt(32)).isEqualTo(0);
    }

    static String f(float x) {
        return String.format("0f%08X", Float.floatToRawIntBits(x));
    }

    @Test
    void singlePrecisionRoundingFtzSat() throws Exception {
        ByteBuffer o = run(String.join(
                "\n",
                "mov.f32 %f1, " + f(1f) + "; mov.f32 %f2, " + f(0x1p-24f * 1.5f) + ";",
                "add.rn.f32 %f3, %f1, %f2; add.rz.f32 %f4, %f1, %f2; add.rm.f32 %f5, %f1, %f2; add.rp.f32 %f6, %f1, %f2;",
                "st.global.f32 [%rd31], %f3; st.global.f32 [%rd31+4], %f4; st.global.f32 [%rd31+8], %f5; st.global.f32 [%rd31+12], %f6;",
                "mov.f32 %f7, " + f(Float.MIN_NORMAL)
                        + "; mul.ftz.f32 %f8, %f7, 0f3F000000; mul.f32 %f9, %f7, 0f3F000000;",
                "st.global.f32 [%rd31+16], %f8; st.global.f32 [%rd31+20], %f9;",
                "add.sat.f32 %f10, %f1, %f1; st.global.f32 [%rd31+24], %f10;",
                "mul.rz.f32 %f11, 0f7F7FFFFF, 0f40000000; st.global.f32 [%rd31+28], %f11;",
                "div.rn.f32 %f12, %f1, 0f40400000; st.global.f32 [%rd31+32], %f12;",
                "div.approx.f32 %f13, %f1, 0f7F000000; st.global.f32 [%rd31+36], %f13;",
                "sqrt.rn.f32 %f14, 0f40000000; st.global.f32 [%rd31+40], %f14;",
                "min.f32 %f15, 0f7FC00000, %f1; st.global.f32 [%rd31+44], %f15;",
                "neg.f32 %f16, %f1; abs.f32 %f17, %f16; st.global.f32 [%rd31+48], %f16; st.global.f32 [%rd31+52], %f17;",
                "fma.rn.f32 %f18, " + f(Float.intBitsToFloat(0x3F800001)) + ", " + f(Float.intBitsToFloat(0x3F800001))
                        + ", " + f(Float.intBitsToFloat(0xBF800002)) + ";",
                "st.global.f32 [%rd31+56], %f18;",
                "testp.subnormal.f32 %p1, %f9; selp.u32 %r1, 1, 0, %p1; st.global.u32 [%rd31+60], %r1;"));
        assertThat(o.getFloat(0)).isEqualTo(1f + 0x1p-23f);
        assertThat(o.getFloat(4)).isEqualTo(1f);
        assertThat(o.getFloat(8)).isEqualTo(1f);
        assertThat(o.getFloat(12)).isEqualTo(1f + 0x1p-23f);
        assertThat(o.getFloat(16)).isEqualTo(0f);
        assertThat(o.getFloat(20)).isEqualTo(0x1p-127f);
        assertThat(o.getFloat(24)).isEqualTo(1f);
        assertThat(o.getFloat(28)).isEqualTo(Float.MAX_VALUE);
        assertThat(o.getInt(32)).isEqualTo(0x3EAAAAAB);
        assertThat(o.getFloat(36)).isEqualTo(0f); // |b| > 2^126: div.approx returns 0
        assertThat(o.getInt(40)).isEqualTo(0x3FB504F3);
        assertThat(o.getFloat(44)).isEqualTo(1f);
        assertThat(o.getFloat(48)).isEqualTo(-1f);
        assertThat(o.getFloat(52)).isEqualTo(1f);
        assertThat(o.getFloat(56)).isEqualTo(1.4210855e-14f);
        assertThat(o.getInt(60)).isEqualTo(1);
    }

    @Test
    void conversions() throws Exception {
        String body = String.join(
                "\n",
                "mov.f32 %f1, " + f(-69.235f) + ";",
                "cvt.rzi.u16.f32 %rs1, %f1; cvt.u32.u16 %r1, %rs1; st.global.u32 [%rd31], %r1;",
                "cvt.rzi.u32.f32 %r2, %f1; st.global.u32 [%rd31+4], %r2;",
                "cvt.rzi.s32.f32 %r3, %f1; st.global.u32 [%rd31+8], %r3;",
                "cvt.rni.s32.f32 %r4, 0f40200000; st.global.u32 [%rd31+12], %r4;",
                "cvt.rmi.s32.f32 %r5, 0fC0200000; st.global.u32 [%rd31+16], %r5;",
                "cvt.rn.f32.s32 %f2, 16777217; st.global.f32 [%rd31+20], %f2;",
                "cvt.rp.f32.s32 %f3, 16777217; st.global.f32 [%rd31+24], %f3;",
                "mov.f64 %fd1, 0d3FB999999999999A; cvt.rz.f32.f64 %f4, %fd1; st.global.f32 [%rd31+28], %f4;",
                "cvt.f64.f32 %fd2, %f1; st.global.f64 [%rd31+32], %fd2;",
                "cvt.rzi.s32.f32 %r6, 0f7FC00000; st.global.u32 [%rd31+40], %r6;",
                "cvt.rzi.s32.f32 %r7, 0f4F800000; st.global.u32 [%rd31+44], %r7;",
                "mov.u32 %r8, -5; cvt.sat.u8.s32 %r9, %r8; st.global.u32 [%rd31+48], %r9;",
                "cvt.s64.s32 %rd1, %r8; st.global.u64 [%rd31+56], %rd1;",
                "cvt.u64.u32 %rd2, %r8; st.global.u64 [%rd31+64], %rd2;",
                "cvt.rni.f32.f32 %f5, 0f40200000; st.global.f32 [%rd31+72], %f5;",
                "cvt.rzi.u32.f32 %r10, %f1; st.global.u16 [%rd31+76], %r10;");
        ByteBuffer o = run(body);
        assertThat(o.getInt(0)).isEqualTo(0);
        assertThat(o.getInt(4)).isEqualTo(0);
        assertThat(o.getInt(8)).isEqualTo(-69);
        assertThat(o.getInt(12)).isEqualTo(2); // 2.5 to even
        assertThat(o.getInt(16)).isEqualTo(-3);
        assertThat(o.getFloat(20)).isEqualTo(16777216f);
        assertThat(o.getFloat(24)).isEqualTo(16777218f);
        assertThat(o.getInt(28)).isEqualTo(0x3DCCCCCC);
        assertThat(o.getDouble(32)).isEqualTo((double) -69.235f);
        assertThat(o.getInt(40)).isEqualTo(0);
        assertThat(o.getInt(44)).isEqualTo(Integer.MAX_VALUE); // 2^32 saturates
        assertThat(o.getInt(48)).isEqualTo(0);
        assertThat(o.getLong(56)).isEqualTo(-5);
        assertThat(o.getLong(64)).isEqualTo(0xFFFFFFFBL);
        assertThat(o.getFloat(72)).isEqualTo(2f);
        assertThat(o.getShort(76) & 0xFFFF).isEqualTo(0);
        // x86 host semantics: the same cvt wraps (65467 through the 16-bit store)
        ByteBuffer h = run(body, "", 1, null, true);
        assertThat(h.getShort(76) & 0xFFFF).isEqualTo(65467);
        assertThat(h.getInt(0)).isEqualTo(65467);
    }

    @Test
    void doublePrecision() throws Exception {
        ByteBuffer o = run(String.join(
                "\n",
                "mov.f64 %fd1, 0d3FF0000000000001; fma.rn.f64 %fd2, %fd1, %fd1, 0dBFF0000000000002; st.global.f64 [%rd31], %fd2;",
                "div.rn.f64 %fd3, 0d3FF0000000000000, 0d4008000000000000; st.global.f64 [%rd31+8], %fd3;",
                "div.rp.f64 %fd4, 0d3FF0000000000000, 0d4008000000000000; st.global.f64 [%rd31+16], %fd4;",
                "sqrt.rn.f64 %fd5, 0d4000000000000000; st.global.f64 [%rd31+24], %fd5;",
                "mul.f64 %fd6, %fd1, %fd1; add.f64 %fd7, %fd6, 0dBFF0000000000002; st.global.f64 [%rd31+32], %fd7;",
                "cvt.rn.f32.f64 %f1, %fd3; st.global.f32 [%rd31+40], %f1;",
                "abs.f64 %fd8, 0dC000000000000000; neg.f64 %fd9, %fd8; st.global.f64 [%rd31+48], %fd9;",
                "max.f64 %fd10, %fd8, 0d7FF8000000000000; st.global.f64 [%rd31+56], %fd10;"));
        assertThat(o.getDouble(0)).isEqualTo(0x1p-104);
        assertThat(o.getDouble(8)).isEqualTo(1.0 / 3);
        assertThat(o.getDouble(16)).isEqualTo(Math.nextUp(1.0 / 3));
        assertThat(o.getDouble(24)).isEqualTo(Math.sqrt(2));
        assertThat(o.getDouble(32)).isEqualTo(0.0);
        assertThat(o.getFloat(40)).isEqualTo((float) (1.0 / 3));
        assertThat(o.getDouble(48)).isEqualTo(-2.0);
        assertThat(o.getDouble(56)).isEqualTo(2.0);
    }

    @Test
    void memoryVectorsSignExtensionAndLocal() throws Exception {
        ByteBuffer in = ByteBuffer.allocate(8 * 256).order(ByteOrder.LITTLE_ENDIAN);
        in.putFloat(0, 1f).putFloat(4, 2f).putFloat(8, 3f).putFloat(12, 4f).putShort(16, (short) -2);
        ByteBuffer o = run(
                String.join(
                        "\n",
                        ".local .align 16 .b8 buf[32];",
                        "ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd29];",
                        "mov.u64 %rd1, buf; st.local.v4.f32 [%rd1], {%f4, %f3, %f2, %f1}; ld.local.v2.f32 {%f5, %f6}, [%rd1+8];",
                        "st.global.v2.f32 [%rd31], {%f5, %f6};",
                        "ld.global.s16 %r1, [%rd29+16]; st.global.u32 [%rd31+8], %r1;",
                        "ld.global.u16 %r2, [%rd29+16]; st.global.u32 [%rd31+12], %r2;",
                        "mov.b64 %rd2, {%r1, %r2}; st.global.u64 [%rd31+16], %rd2;",
                        "mov.b64 {%r3, %r4}, %rd2; st.global.u32 [%rd31+24], %r4;",
                        "cvta.local.u64 %rd3, %rd1; ld.f32 %f7, [%rd3+4]; st.global.f32 [%rd31+28], %f7;"),
                1,
                in.array());
        assertThat(o.getFloat(0)).isEqualTo(2f);
        assertThat(o.getFloat(4)).isEqualTo(1f);
        assertThat(o.getInt(8)).isEqualTo(-2);
        assertThat(o.getInt(12)).isEqualTo(0xFFFE);
        assertThat(o.getLong(16)).isEqualTo(0x0000FFFEFFFFFFFEL);
        assertThat(o.getInt(24)).isEqualTo(0xFFFE);
        assertThat(o.getFloat(28)).isEqualTo(3f); // generic load through the local window
    }

    @Test
    void sharedMemoryBarriersAndAtomics() throws Exception {
        ByteBuffer o = run(
                String.join(
                        "\n",
                        ".shared .align 4 .b8 sm[256];",
                        "mov.u32 %r1, %tid.x; mov.u32 %r2, sm; shl.b32 %r3, %r1, 2; add.s32 %r4, %r2, %r3;",
                        "st.shared.u32 [%r4], %r1; bar.sync 0;",
                        "mov.u32 %r5, 63; sub.s32 %r6, %r5, %r1; shl.b32 %r7, %r6, 2; add.s32 %r8, %r2, %r7; ld.shared.u32 %r9, [%r8];",
                        "mul.wide.u32 %rd1, %r1, 4; add.s64 %rd2, %rd31, %rd1; st.global.u32 [%rd2], %r9;",
                        "atom.global.add.u32 %r10, [%rd31+512], 1;",
                        "mul.wide.u32 %rd3, %r1, 4; add.s64 %rd4, %rd31, %rd3; st.global.u32 [%rd4+256], %r10;",
                        "red.global.add.f32 [%rd31+516], 0f3E800000;",
                        "atom.global.cas.b32 %r11, [%rd31+520], 0, 7;",
                        "atom.global.max.s32 %r12, [%rd31+524], %r1;"),
                64,
                null);
        for (int t = 0; t < 64; t++) assertThat(o.getInt(4 * t)).isEqualTo(63 - t);
        for (int t = 0; t < 64; t++) assertThat(o.getInt(256 + 4 * t)).isEqualTo(t); // atomics in thread order
        assertThat(o.getInt(512)).isEqualTo(64);
        assertThat(o.getFloat(516)).isEqualTo(16f);
        assertThat(o.getInt(520)).isEqualTo(7);
        assertThat(o.getInt(524)).isEqualTo(63);
    }

    @Test
    void warpShuffleAndVote() throws Exception {
        ByteBuffer o = run(
                String.join(
                        "\n",
                        "mov.u32 %r1, %laneid; mov.u32 %r2, %r1;",
                        "shfl.sync.down.b32 %r3|%p1, %r2, 16, 31, -1; add.s32 %r2, %r2, %r3;",
                        "shfl.sync.down.b32 %r3|%p1, %r2, 8, 31, -1; add.s32 %r2, %r2, %r3;",
                        "shfl.sync.down.b32 %r3|%p1, %r2, 4, 31, -1; add.s32 %r2, %r2, %r3;",
                        "shfl.sync.down.b32 %r3|%p1, %r2, 2, 31, -1; add.s32 %r2, %r2, %r3;",
                        "shfl.sync.down.b32 %r3|%p1, %r2, 1, 31, -1; add.s32 %r2, %r2, %r3;",
                        "shfl.sync.idx.b32 %r4, %r2, 0, 31, -1;",
                        "setp.lt.u32 %p2, %r1, 3; vote.sync.ballot.b32 %r5, %p2, -1;",
                        "shfl.sync.bfly.b32 %r6, %r1, 1, 31, -1;",
                        "mul.wide.u32 %rd1, %r1, 4; add.s64 %rd2, %rd31, %rd1; st.global.u32 [%rd2], %r4; st.global.u32 [%rd2+128], %r6;",
                        "st.global.u32 [%rd31+256], %r5;"),
                32,
                null);
        for (int l = 0; l < 32; l++) assertThat(o.getInt(4 * l)).isEqualTo(496); // sum of 0..31 broadcast from lane 0
        for (int l = 0; l < 32; l++) assertThat(o.getInt(128 + 4 * l)).isEqualTo(l ^ 1);
        assertThat(o.getInt(256)).isEqualTo(0b111);
    }

    @Test
    void callsToFunctionsWithParameters() throws Exception {
        String func = ".func (.param .b32 ret) twice_plus(.param .b32 x, .param .b32 y)\n{\n .reg .b32 %r<4>;\n"
                + " ld.param.u32 %r1, [x]; ld.param.u32 %r2, [y]; shl.b32 %r3, %r1, 1; add.s32 %r3, %r3, %r2;\n"
                + " st.param.b32 [ret], %r3; ret;\n}\n";
        ByteBuffer o = run(
                String.join(
                        "\n",
                        "{ .param .b32 a0; .param .b32 a1; .param .b32 rv;",
                        "st.param.b32 [a0], 20; st.param.b32 [a1], 2;",
                        "call.uni (rv), twice_plus, (a0, a1);",
                        "ld.param.b32 %r1, [rv]; }",
                        "st.global.u32 [%rd31], %r1;"),
                func,
                1,
                null,
                false);
        assertThat(o.getInt(0)).isEqualTo(42);
    }

    @Test
    void unsupportedInstructionsAreNamed() {
        String src = HEAD + ".visible .entry t(.param .u64 out) {\n.reg .b32 %r<4>;\n"
                + "tex.1d.v4.s32.s32 {%r0, %r1, %r2, %r3}, [tex0, {%r0}];\nret;\n}\n";
        assertThatThrownBy(() -> Decoder.decode(PtxModelAdapter.read(src), "t", false, false))
                .isInstanceOf(Decoder.Unsupported.class)
                .hasMessageContaining("texture reference tex0");
        String rec = HEAD + ".func f() { call.uni f, (); ret; }\n.visible .entry t() { call.uni f, (); ret; }\n";
        assertThatThrownBy(() -> Decoder.decode(PtxModelAdapter.read(rec), "t", false, false))
                .hasMessageContaining("recursive");
    }

    @Test
    void referenceModeCarriesSinglePrecisionInDouble() throws Exception {
        // (1 + 2^-24) in double through an f32 register: the reference keeps the half ulp the float run loses
        String src = HEAD + ".visible .entry t(.param .u64 out) {\n.reg .f32 %f<4>; .reg .b64 %rd<3>;\n"
                + "ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd2, %rd1;\n"
                + "mov.f32 %f1, 0f3F800000; add.f32 %f2, %f1, 0f33800000; sub.f32 %f3, %f2, %f1; st.global.f32 [%rd2], %f3;\nret;\n}\n";
        Program ref = Decoder.decode(PtxModelAdapter.read(src), "t", true, false);
        Launch l = new Launch(ref);
        long out = l.alloc(new byte[4]);
        l.param(0, out);
        l.run(new int[] {1, 1, 1}, new int[] {1, 1, 1}, 0, 1000);
        assertThat(l.readReferenceF32(out, 1)[0]).isEqualTo(0x1p-24);
        Program plain = Decoder.decode(PtxModelAdapter.read(src), "t", false, false);
        Launch l2 = new Launch(plain);
        long out2 = l2.alloc(new byte[4]);
        l2.param(0, out2);
        l2.run(new int[] {1, 1, 1}, new int[] {1, 1, 1}, 0, 1000);
        assertThat(ByteBuffer.wrap(l2.read(out2, 4))
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .getFloat())
                .isEqualTo(0f);
    }

    static double f64Run(String body, boolean reference) throws Exception {
        String src = HEAD + ".visible .entry t(.param .u64 out) {\n.reg .f64 %fd<8>; .reg .b64 %rd<4>;\n"
                + "ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd2, %rd1;\n" + body + "\nret;\n}\n";
        Program p = Decoder.decode(PtxModelAdapter.read(src), "t", reference, false);
        Launch l = new Launch(p);
        long out = l.alloc(new byte[16]);
        l.param(0, out);
        l.run(new int[] {1, 1, 1}, new int[] {1, 1, 1}, 0, 1000);
        return ByteBuffer.wrap(l.read(out, 8)).order(ByteOrder.LITTLE_ENDIAN).getDouble();
    }

    @Test
    void referenceModeCarriesDoublePrecisionInDoubleDouble() throws Exception {
        // (1 + 2^-60) - 1: binary64 loses 2^-60, the double-double reference keeps it, through a local store too
        String body = ".local .align 8 .b8 buf[8];\nmov.u64 %rd3, buf;\n"
                + "mov.f64 %fd1, 0d3FF0000000000000; add.f64 %fd2, %fd1, 0d3C30000000000000;\n"
                + "st.local.f64 [%rd3], %fd2; ld.local.f64 %fd4, [%rd3];\n"
                + "sub.f64 %fd3, %fd4, %fd1; st.global.f64 [%rd2], %fd3;";
        assertThat(f64Run(body, false)).isEqualTo(0.0);
        assertThat(f64Run(body, true)).isEqualTo(0x1p-60);
        // a register whose bits are observed keeps exact binary64 semantics in the reference
        String bits = "mov.f64 %fd1, 0d3FF0000000000000; add.f64 %fd2, %fd1, 0d3C30000000000000;\n"
                + "mov.b64 %rd3, %fd2; mov.b64 %fd5, %rd3; sub.f64 %fd3, %fd5, %fd1; st.global.f64 [%rd2], %fd3;";
        assertThat(f64Run(bits, true)).isEqualTo(0.0);
    }
}
