package dev.numlint.validation.interp;

/**
 * Decode-time rewrites of a packed {@link Program} for the interpreter's hot loop. Each rewritten instruction
 * computes exactly what the instruction it replaces computes and counts as the PTX instructions it stands for.
 */
final class Superinstructions {
    private Superinstructions() {}

    /**
     * The hottest control flow: {@code @%p bra L} becomes BRA_T/BRA_F with the predicate in slot a (no generic
     * guard test), and an unguarded {@code setp.s32} (plain comparison, no second destination or combining
     * predicate) directly followed by such a branch on its predicate becomes SETP_S32_BRA, which writes the
     * predicate and branches; the branch instruction stays in place (it may be a jump target). The
     * executed-instruction count is unchanged: SETP_S32_BRA counts two instructions.
     */
    static void fuseBranches(Program p) {
        int n = p.n;
        for (int i = 0; i < n; i++) {
            if (p.op[i] != Op.BRA || p.g[i] == 0) continue;
            int g = p.g[i];
            p.op[i] = g > 0 ? Op.BRA_T : Op.BRA_F;
            p.a[i] = g > 0 ? g - 1 : -g - 1;
            p.g[i] = 0;
        }
        for (int i = 0; i + 1 < n; i++) {
            if (p.op[i] != Op.SETP_S32 || p.g[i] != 0 || (p.x[i] & 0xFF) > 5) continue;
            int next = p.op[i + 1];
            if ((next == Op.BRA_T || next == Op.BRA_F) && p.a[i + 1] == p.d[i]) {
                p.op[i] = Op.SETP_S32_BRA;
                // slot c: the branch target, y: 1 when the branch is taken on a true predicate
                p.c[i] = p.y[i + 1];
                p.y[i] = next == Op.BRA_T ? 1 : 0;
            }
        }
    }

    /** F32_G's mode bits (Decoder.fmode): rounding in bits 0-1 (RN = 0), 4: .ftz, 8: .sat. */
    private static final int FTZ = 4;

    /**
     * The commonest general forms get opcodes of their own that the interpreter's loop executes inline, without a
     * call and without testing modifiers at run time: {@code add/sub/mul/fma.rn.ftz.f32} (F32_G with round to
     * nearest and .ftz, no .sat) become ADD/SUB/MUL/FMA_F32_FTZ; the same without .ftz (F32_G with mode 0, which
     * the strict builds' unfused multiply-adds are) become the plain ADD/SUB/MUL/FMA_F32 (round to nearest of the
     * exact result either way); {@code cvt.rn.f32.s32} becomes CVT_F32_S32, {@code cvt.rzi{.ftz}.s32.f32}
     * CVT_S32_F32 (x: 1 with .ftz) and {@code div.approx{.ftz}.f32} DIV_APPROX_F32 (x: 1 with .ftz).
     */
    static void specialise(Program p) {
        specialiseOps(p);
        fuseChecks(p);
        p.opGuarded = new int[p.n];
        for (int i = 0; i < p.n; i++) p.opGuarded[i] = p.g[i] != 0 ? p.op[i] | Program.GUARDED : p.op[i];
    }

    private static void specialiseOps(Program p) {
        for (int i = 0; i < p.n; i++) {
            int op = p.op[i];
            if (op == Op.F32_G && (p.x[i] == FTZ || p.x[i] == 0)) {
                boolean ftz = p.x[i] == FTZ;
                int to;
                switch (p.y[i]) {
                    case Op.G_ADD -> to = ftz ? Op.ADD_F32_FTZ : Op.ADD_F32;
                    case Op.G_SUB -> to = ftz ? Op.SUB_F32_FTZ : Op.SUB_F32;
                    case Op.G_MUL -> to = ftz ? Op.MUL_F32_FTZ : Op.MUL_F32;
                    case Op.G_FMA -> to = ftz ? Op.FMA_F32_FTZ : Op.FMA_F32;
                    default -> to = -1;
                }
                if (to < 0) continue;
                p.op[i] = to;
                p.x[i] = 0;
                p.y[i] = 0;
            } else if (op == Op.F32_APPROX && p.y[i] == Op.A_DIV) {
                p.op[i] = Op.DIV_APPROX_F32; // x stays: 1 with .ftz
                p.y[i] = 0;
            } else if (op == Op.CVT) {
                long x = p.x[i];
                int y = p.y[i];
                int dk = y >>> 12, sk = y & 0xFFF;
                if (dk == Op.K_F32 && sk == Op.K_S32 && x == 0) { // .rn, no .ftz/.sat
                    p.op[i] = Op.CVT_F32_S32;
                    p.y[i] = 0;
                } else if (dk == Op.K_S32 && sk == Op.K_F32 && (x & 3) == 1 && (x & 32) == 0) {
                    // .rz (rounding bits 1), not the host conversion; .rzi/.sat do not change float to s32
                    p.op[i] = Op.CVT_S32_F32;
                    p.x[i] = (x & 8) != 0 ? 1 : 0;
                    p.y[i] = 0;
                }
            }
        }
    }

    /** FPX's x: the operation in bits 0-7 (ArithmeticDecoder.FPX_OPS index; 13 float to integer), 256 f64, 512 .ftz. */
    private static final int FPX_F64 = 256, FPX_FTZ = 512;

    /**
     * A build counting floating-point exceptions has a check (FPX) before every float instruction. Where that
     * instruction is one of the commonest f32 forms ({@code add/sub/mul/fma.rn{.ftz}.f32}, {@code
     * cvt.rzi{.ftz}.s32.f32}, {@code div.approx{.ftz}.f32}), has the check's guard and reads the registers the check
     * reads, the check becomes one instruction that computes the result and runs the full check ({@code
     * Interpreter.fpx}) only when an operand or the result is zero, subnormal, in the lowest or highest normal
     * binade, infinite or NaN (a conversion: when the operand is not a normal float below 2^30); otherwise the check
     * counts nothing, so the counts are those of the full check. The instruction stays in place after it (the
     * fused one skips it) and the fused one counts two instructions, as the pair did.
     */
    static void fuseChecks(Program p) {
        for (int i = 0; i + 1 < p.n; i++) {
            if (p.op[i] != Op.FPX || p.g[i] != p.g[i + 1]) continue;
            long x = p.x[i];
            if ((x & FPX_F64) != 0) continue;
            int kind = (int) (x & 255), j = i + 1, op = p.op[j];
            boolean ftz = (x & FPX_FTZ) != 0;
            int to = -1;
            switch (kind) {
                case 0 -> to =
                        op == Op.ADD_F32_FTZ && ftz ? Op.ADD_F32_FTZ_X : op == Op.ADD_F32 && !ftz ? Op.ADD_F32_X : -1;
                case 1 -> to =
                        op == Op.SUB_F32_FTZ && ftz ? Op.SUB_F32_FTZ_X : op == Op.SUB_F32 && !ftz ? Op.SUB_F32_X : -1;
                case 2 -> to =
                        op == Op.MUL_F32_FTZ && ftz ? Op.MUL_F32_FTZ_X : op == Op.MUL_F32 && !ftz ? Op.MUL_F32_X : -1;
                case 3 -> to =
                        op == Op.FMA_F32_FTZ && ftz ? Op.FMA_F32_FTZ_X : op == Op.FMA_F32 && !ftz ? Op.FMA_F32_X : -1;
                case 4 -> to = op == Op.DIV_APPROX_F32 && (p.x[j] != 0) == ftz ? Op.DIV_APPROX_F32_X : -1;
                case 13 -> to =
                        op == Op.CVT_S32_F32 && (x >>> 16) == Op.K_S32 && (p.x[j] != 0) == ftz ? Op.CVT_S32_F32_X : -1;
                default -> to = -1;
            }
            if (to < 0 || p.a[i] != p.a[j]) continue;
            boolean binary = kind <= 4, ternary = kind == 3;
            if (binary && p.b[i] != p.b[j] || ternary && p.c[i] != p.c[j]) continue;
            p.op[i] = to;
            p.d[i] = p.d[j];
        }
    }
}
