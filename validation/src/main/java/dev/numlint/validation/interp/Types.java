package dev.numlint.validation.interp;

/** PTX fundamental types. */
final class Types {
    private Types() {}

    static boolean isType(String t) {
        switch (t) {
            case "b8":
            case "u8":
            case "s8":
            case "b16":
            case "u16":
            case "s16":
            case "f16":
            case "bf16":
            case "f16x2":
            case "bf16x2":
            case "b32":
            case "u32":
            case "s32":
            case "f32":
            case "b64":
            case "u64":
            case "s64":
            case "f64":
            case "pred":
            case "b128":
            case "tf32":
            case "e4m3":
            case "e5m2":
                return true;
            default:
                return false;
        }
    }

    static int size(String t) {
        switch (t) {
            case "b8":
            case "u8":
            case "s8":
            case "pred":
            case "e4m3":
            case "e5m2":
                return 1;
            case "b16":
            case "u16":
            case "s16":
            case "f16":
            case "bf16":
                return 2;
            case "b32":
            case "u32":
            case "s32":
            case "f32":
            case "f16x2":
            case "bf16x2":
            case "tf32":
                return 4;
            case "b64":
            case "u64":
            case "s64":
            case "f64":
                return 8;
            case "b128":
                return 16;
            default:
                throw new IllegalArgumentException("unknown type ." + t);
        }
    }

    static boolean isFloat(String t) {
        return t.equals("f32") || t.equals("f64") || t.equals("f16") || t.equals("bf16");
    }

    static boolean isSigned(String t) {
        return t.startsWith("s");
    }

    static int bits(String t) {
        return size(t) * 8;
    }
}
