package dev.numlint.cuda;

import java.util.Map;

/**
 * A C/C++ type as far as the numerical rules need it: arithmetic kinds with signedness and width, CUDA vector
 * types, pointers/arrays, structs (by name) and UNKNOWN (template parameters, types from system headers).
 */
final class CType {
    enum Kind {
        VOID,
        BOOL,
        INT,
        FLOAT,
        DOUBLE,
        LONG_DOUBLE,
        HALF,
        VECTOR,
        POINTER,
        STRUCT,
        UNKNOWN
    }

    final Kind kind;
    /** INT: true when unsigned. */
    final boolean unsigned;
    /** INT: width in bytes (1, 2, 4, 8). */
    final int size;
    /** Spelling used in messages (e.g. "unsigned short", "size_t", "float4"). */
    final String name;
    /** POINTER: pointee; VECTOR: element. */
    final CType elem;

    private CType(Kind kind, boolean unsigned, int size, String name, CType elem) {
        this.kind = kind;
        this.unsigned = unsigned;
        this.size = size;
        this.name = name;
        this.elem = elem;
    }

    static final CType VOID = new CType(Kind.VOID, false, 0, "void", null);
    static final CType BOOL = new CType(Kind.BOOL, false, 1, "bool", null);
    static final CType FLOAT = new CType(Kind.FLOAT, false, 4, "float", null);
    static final CType DOUBLE = new CType(Kind.DOUBLE, false, 8, "double", null);
    static final CType LONG_DOUBLE = new CType(Kind.LONG_DOUBLE, false, 16, "long double", null);
    static final CType HALF = new CType(Kind.HALF, false, 2, "__half", null);
    static final CType UNKNOWN = new CType(Kind.UNKNOWN, false, 0, "?", null);
    static final CType CHAR = integer(false, 1, "char");
    static final CType SCHAR = integer(false, 1, "signed char");
    static final CType UCHAR = integer(true, 1, "unsigned char");
    static final CType SHORT = integer(false, 2, "short");
    static final CType USHORT = integer(true, 2, "unsigned short");
    static final CType INT = integer(false, 4, "int");
    static final CType UINT = integer(true, 4, "unsigned int");
    static final CType LONG = integer(false, 8, "long");
    static final CType ULONG = integer(true, 8, "unsigned long");
    static final CType LLONG = integer(false, 8, "long long");
    static final CType ULLONG = integer(true, 8, "unsigned long long");

    static CType integer(boolean unsigned, int size, String name) {
        return new CType(Kind.INT, unsigned, size, name, null);
    }

    static CType pointer(CType to) {
        return new CType(Kind.POINTER, false, 8, to.name + "*", to);
    }

    static CType vector(CType elem, int width, String name) {
        return new CType(Kind.VECTOR, false, width, name, elem);
    }

    static CType struct(String name) {
        return new CType(Kind.STRUCT, false, 0, name, null);
    }

    /** The same type under another name (typedef): keeps the kind, changes the spelling for messages. */
    CType alias(String alias) {
        if (kind == Kind.UNKNOWN || kind == Kind.STRUCT) return this;
        return new CType(kind, unsigned, size, alias, elem);
    }

    boolean isFloating() {
        return kind == Kind.FLOAT || kind == Kind.DOUBLE || kind == Kind.LONG_DOUBLE || kind == Kind.HALF;
    }

    /** float or double (the kinds the rules reason about). */
    boolean isFpScalar() {
        return kind == Kind.FLOAT || kind == Kind.DOUBLE || kind == Kind.LONG_DOUBLE;
    }

    boolean isInteger() {
        return kind == Kind.INT || kind == Kind.BOOL;
    }

    boolean isArithmetic() {
        return isInteger() || isFloating();
    }

    boolean isUnknown() {
        return kind == Kind.UNKNOWN;
    }

    boolean isUnsignedInt() {
        return kind == Kind.INT && unsigned;
    }

    /** A signed integer narrower than int (char, signed char, short, int8_t, int16_t). */
    boolean isNarrowSigned() {
        return kind == Kind.INT && !unsigned && size < 4;
    }

    /** Usual arithmetic conversions for a binary operator. */
    static CType arith(CType a, CType b) {
        if (a.kind == Kind.UNKNOWN || b.kind == Kind.UNKNOWN) return UNKNOWN;
        if (a.kind == Kind.VECTOR) return a;
        if (b.kind == Kind.VECTOR) return b;
        if (a.kind == Kind.POINTER) return a;
        if (b.kind == Kind.POINTER) return b;
        if (!a.isArithmetic() || !b.isArithmetic()) return UNKNOWN;
        if (a.kind == Kind.LONG_DOUBLE || b.kind == Kind.LONG_DOUBLE) return LONG_DOUBLE;
        if (a.kind == Kind.DOUBLE || b.kind == Kind.DOUBLE) return DOUBLE;
        if (a.kind == Kind.FLOAT || b.kind == Kind.FLOAT) return FLOAT;
        if (a.kind == Kind.HALF || b.kind == Kind.HALF) return HALF;
        CType pa = promote(a);
        CType pb = promote(b);
        if (pa.size != pb.size) return pa.size > pb.size ? pa : pb;
        return pa.unsigned ? pa : pb;
    }

    /** Integer promotion. */
    static CType promote(CType t) {
        if (t.kind == Kind.BOOL || (t.kind == Kind.INT && t.size < 4)) return INT;
        return t;
    }

    /** Member type of a CUDA vector type (x, y, z, w). */
    CType member(String m, Map<String, StructInfo> structs) {
        if (kind == Kind.VECTOR && m.length() == 1 && "xyzw".indexOf(m.charAt(0)) >= 0) return elem;
        if (kind == Kind.STRUCT && structs != null) {
            StructInfo s = structs.get(name);
            if (s != null) {
                CType f = s.fields.get(m);
                if (f != null) return f;
            }
        }
        return UNKNOWN;
    }

    @Override
    public String toString() {
        return name;
    }
}
