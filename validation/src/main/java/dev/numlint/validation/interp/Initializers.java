package dev.numlint.validation.interp;

import java.io.ByteArrayOutputStream;

/** Reads PTX variable initializers ({1, 2, 3}, nested braces, 0f/0d float literals) into little-endian bytes. */
final class Initializers {
    private Initializers() {}

    static byte[] parse(String init, String type) {
        String flat = init.replace("{", " ").replace("}", " ");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int size = Types.size(type);
        for (String v : flat.split(",")) {
            v = v.trim();
            if (v.isEmpty()) continue;
            long bits = Operands.literalBits(v, type);
            for (int i = 0; i < size; i++) out.write((int) (bits >>> (8 * i)));
        }
        return out.toByteArray();
    }
}
