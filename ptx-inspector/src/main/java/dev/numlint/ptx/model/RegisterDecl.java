package dev.numlint.ptx.model;

/**
 * A register declaration: {@code .reg .f32 %f<12>;} is (type f32, prefix %f, count 12) declaring %f0..%f11;
 * {@code .reg .b64 %SP;} is (b64, %SP, 0) declaring the single register %SP.
 */
public record RegisterDecl(String type, String prefix, int count, int vectorWidth) {
    /** Whether {@code reg} is declared by this declaration. */
    public boolean declares(String reg) {
        if (count == 0) return reg.equals(prefix);
        if (!reg.startsWith(prefix) || reg.length() == prefix.length()) return false;
        for (int i = prefix.length(); i < reg.length(); i++) {
            if (!Character.isDigit(reg.charAt(i))) return false;
        }
        try {
            return Integer.parseInt(reg.substring(prefix.length())) < count;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
