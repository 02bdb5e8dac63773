package dev.numlint.validation.interp;

/** Decoded opcodes. Operand slots d/a/b/c are register indices (immediates live in constant registers). */
final class Op {
    private Op() {}

    static final int NOP = 0,
            MOV = 1,
            MOV_PACK = 2,
            MOV_UNPACK = 3,
            ADD_I = 10,
            SUB_I = 11,
            MUL_LO = 12,
            MAD_LO = 13,
            NEG_I = 14,
            AND = 15,
            OR = 16,
            XOR = 17,
            NOT = 18,
            CNOT = 19,
            SHL = 20,
            SHR_U = 21,
            SHR_S = 22,
            MUL_HI = 23,
            MUL_WIDE = 24,
            MAD_WIDE = 25,
            MAD_HI = 26,
            DIV_I = 27,
            REM_I = 28,
            MIN_I = 29,
            MAX_I = 30,
            ABS_I = 31,
            POPC = 32,
            CLZ = 33,
            BREV = 34,
            BFIND = 35,
            BFE = 36,
            BFI = 37,
            PRMT = 38,
            LOP3 = 39,
            MUL24 = 40,
            MAD24 = 41,
            ADD_CC = 42,
            SETP_I = 43,
            SETP_S32 = 44,
            SELP = 45,
            SLCT = 46,
            SETP_F32 = 47,
            SETP_F64 = 48,
            TESTP_F32 = 49,
            TESTP_F64 = 50,
            SET_I = 51,
            SET_F32 = 52,
            SET_F64 = 53,
            AND_PRED = 54,
            OR_PRED = 55,
            XOR_PRED = 56,
            NOT_PRED = 57,
            ADD_F32 = 60,
            SUB_F32 = 61,
            MUL_F32 = 62,
            FMA_F32 = 63,
            DIV_F32 = 64,
            SQRT_F32 = 65,
            NEG_F32 = 66,
            ABS_F32 = 67,
            MIN_F32 = 68,
            MAX_F32 = 69,
            F32_G = 70,
            F32_APPROX = 71,
            COPYSIGN_F32 = 72,
            ADD_F64 = 80,
            SUB_F64 = 81,
            MUL_F64 = 82,
            FMA_F64 = 83,
            DIV_F64 = 84,
            SQRT_F64 = 85,
            NEG_F64 = 86,
            ABS_F64 = 87,
            MIN_F64 = 88,
            MAX_F64 = 89,
            F64_G = 90,
            F64_APPROX = 91,
            COPYSIGN_F64 = 92,
            CVT = 100,
            WIDEN = 101,
            NARROW = 102,
            LD = 110,
            ST = 111,
            LD_G32 = 112,
            ST_G32 = 113,
            LD_W = 114,
            ST_W = 115,
            ATOM = 116,
            BRA = 120,
            CALL = 121,
            RET = 122,
            EXIT = 123,
            BAR = 124,
            WARPSYNC = 125,
            SHFL = 126,
            VOTE = 127,
            ACTIVEMASK = 128,
            TRAP = 129,
            // decode-time superinstructions ({@link Decoder}): a guarded bra, and a setp.s32 whose predicate only
            // the next instruction, a guarded bra, reads. Each still counts as the PTX instructions it stands for.
            BRA_T = 130,
            BRA_F = 131,
            SETP_S32_BRA = 132,
            ADD_DD = 140,
            SUB_DD = 141,
            MUL_DD = 142,
            FMA_DD = 143,
            DIV_DD = 144,
            SQRT_DD = 145,
            NEG_DD = 146,
            ABS_DD = 147,
            MOV_DD = 148,
            SELP_DD = 149,
            LD_DD = 150,
            ST_DD = 151,
            ZERO_LO = 152,
            MAD_CC = 153,
            TEX = 154,
            FPX = 155,
            // decode-time specialisations ({@link Superinstructions#specialise}) of the commonest F32_G and CVT forms
            ADD_F32_FTZ = 156,
            SUB_F32_FTZ = 157,
            MUL_F32_FTZ = 158,
            FMA_F32_FTZ = 159,
            CVT_F32_S32 = 160,
            CVT_S32_F32 = 161,
            // decode-time fusions ({@link Superinstructions#fuseChecks}) of an exception check (FPX) with the
            // checked instruction right after it: one dispatch, the full check only on unusual operands or results
            ADD_F32_FTZ_X = 162,
            SUB_F32_FTZ_X = 163,
            MUL_F32_FTZ_X = 164,
            FMA_F32_FTZ_X = 165,
            ADD_F32_X = 166,
            SUB_F32_X = 167,
            MUL_F32_X = 168,
            FMA_F32_X = 169,
            CVT_S32_F32_X = 170,
            DIV_APPROX_F32_X = 171,
            // div.approx{.ftz}.f32 ({@link Superinstructions#specialise}; x: 1 with .ftz), run inline
            DIV_APPROX_F32 = 172;

    // sub-operations of F32_G / F64_G
    static final int G_ADD = 0, G_SUB = 1, G_MUL = 2, G_FMA = 3, G_DIV = 4, G_SQRT = 5, G_RCP = 6;
    // sub-operations of F32_APPROX / F64_APPROX
    static final int A_RCP = 0,
            A_DIV = 1,
            A_DIV_FULL = 2,
            A_SQRT = 3,
            A_RSQRT = 4,
            A_SIN = 5,
            A_COS = 6,
            A_LG2 = 7,
            A_EX2 = 8,
            A_TANH = 9;
    // state spaces
    static final int SP_GENERIC = 0,
            SP_GLOBAL = 1,
            SP_SHARED = 2,
            SP_LOCAL = 3,
            SP_KPARAM = 4,
            SP_CPARAM = 5,
            SP_CONST = 6;
    // integer kinds: bits 0-6 width, bit 7 signed; floats
    static final int K_U8 = 8,
            K_S8 = 8 | 128,
            K_U16 = 16,
            K_S16 = 16 | 128,
            K_U32 = 32,
            K_S32 = 32 | 128,
            K_U64 = 64,
            K_S64 = 64 | 128,
            K_F32 = 256 + 32,
            K_F64 = 256 + 64,
            K_F16 = 256 + 16,
            K_PRED = 512;

    static int kind(String t) {
        switch (t) {
            case "u8":
            case "b8":
                return K_U8;
            case "s8":
                return K_S8;
            case "u16":
            case "b16":
                return K_U16;
            case "s16":
                return K_S16;
            case "u32":
            case "b32":
                return K_U32;
            case "s32":
                return K_S32;
            case "u64":
            case "b64":
                return K_U64;
            case "s64":
                return K_S64;
            case "f32":
                return K_F32;
            case "f64":
                return K_F64;
            case "f16":
                return K_F16;
            case "pred":
                return K_PRED;
            default:
                throw new Decoder.Unsupported("type ." + t);
        }
    }

    static int width(int kind) {
        return kind & 127;
    }

    static boolean signed(int kind) {
        return (kind & 128) != 0;
    }

    static boolean isFloat(int kind) {
        return (kind & 256) != 0;
    }

    /** The value of the low width bits of v, sign- or zero-extended per kind. */
    static long ext(long v, int kind) {
        switch (kind) {
            case K_U8:
                return v & 0xFFL;
            case K_S8:
                return (byte) v;
            case K_U16:
                return v & 0xFFFFL;
            case K_S16:
                return (short) v;
            case K_U32:
                return v & 0xFFFFFFFFL;
            case K_S32:
                return (int) v;
            default:
                return v;
        }
    }
}
