package dev.numlint.cuda;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The values {@link HostLaunchReader} knows at some point of host code: numbers, buffers with their sizes,
 * {@code dim3} variables, structs laid out with natural alignment; and the sizes of the scalar types (C, CUDA and
 * JCuda's {@code Sizeof}).
 */
final class HostValues {
    private HostValues() {}

    static final Map<String, Integer> SIZES = new HashMap<>();

    static {
        for (String t : new String[] {"char", "int8_t", "uint8_t", "bool", "unsigned char", "signed char"})
            SIZES.put(t, 1);
        for (String t : new String[] {"short", "int16_t", "uint16_t", "half", "__half", "unsigned short"})
            SIZES.put(t, 2);
        for (String t :
                new String[] {"int", "unsigned", "unsigned int", "float", "int32_t", "uint32_t", "uint", "signed"})
            SIZES.put(t, 4);
        for (String t : new String[] {
            "long",
            "long long",
            "unsigned long",
            "unsigned long long",
            "double",
            "size_t",
            "int64_t",
            "uint64_t",
            "ptrdiff_t",
            "float2",
            "int2",
            "uint2",
            "cuDoubleComplex"
        }) SIZES.put(t, 8);
        for (String t : new String[] {"float4", "int4", "uint4", "double2"}) SIZES.put(t, 16);
        SIZES.put("float3", 12);
        SIZES.put("int3", 12);
        SIZES.put("double4", 32);
        // JCuda's Sizeof constants
        SIZES.put("Sizeof.BYTE", 1);
        SIZES.put("Sizeof.SHORT", 2);
        SIZES.put("Sizeof.INT", 4);
        SIZES.put("Sizeof.FLOAT", 4);
        SIZES.put("Sizeof.LONG", 8);
        SIZES.put("Sizeof.DOUBLE", 8);
        SIZES.put("Sizeof.POINTER", 8);
    }

    /** A value known at some point of the host code. */
    sealed interface Val permits Num, Buf, Dim, Struct {}

    record Num(double v, boolean integer, String from) implements Val {}

    record Buf(long bytes, String from, Double fill) implements Val {
        Buf(long bytes, String from) {
            this(bytes, from, null);
        }
    }

    static final class Dim implements Val {
        final long[] xyz = {1, 1, 1};
        final boolean[] known = {true, true, true};
        String from;
    }

    static final class Struct implements Val {
        final StructType type;
        final Map<String, Double> fields = new LinkedHashMap<>();
        String from;

        Struct(StructType type) {
            this.type = type;
        }
    }

    record Field(String name, String type, int size, int count) {}

    static final class StructType {
        final String name;
        final List<Field> fields = new ArrayList<>();

        StructType(String name) {
            this.name = name;
        }

        int align(Field f) {
            return Math.min(f.size(), 8);
        }

        int size() {
            int off = 0, max = 1;
            for (Field f : fields) {
                off = (off + align(f) - 1) / align(f) * align(f) + f.size() * f.count();
                max = Math.max(max, align(f));
            }
            return (off + max - 1) / max * max;
        }

        byte[] bytes(Map<String, Double> values) {
            ByteBuffer b = ByteBuffer.allocate(size()).order(ByteOrder.LITTLE_ENDIAN);
            int off = 0;
            for (Field f : fields) {
                off = (off + align(f) - 1) / align(f) * align(f);
                Double v = values.get(f.name());
                if (v != null && f.count() == 1) {
                    switch (f.type()) {
                        case "float" -> b.putFloat(off, v.floatValue());
                        case "double" -> b.putDouble(off, v);
                        default -> {
                            long x = (long) (double) v;
                            switch (f.size()) {
                                case 1 -> b.put(off, (byte) x);
                                case 2 -> b.putShort(off, (short) x);
                                case 8 -> b.putLong(off, x);
                                default -> b.putInt(off, (int) x);
                            }
                        }
                    }
                }
                off += f.size() * f.count();
            }
            return b.array();
        }
    }
}
