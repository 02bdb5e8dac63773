package dev.numlint.java;

import org.eclipse.jdt.core.dom.ITypeBinding;
import org.eclipse.jdt.core.dom.PrimitiveType;

/** The Java types the rules care about: primitives (and their boxes), everything else is OTHER. */
public enum NumType {
    BYTE,
    SHORT,
    CHAR,
    INT,
    LONG,
    FLOAT,
    DOUBLE,
    BOOLEAN,
    OTHER,
    UNKNOWN;

    public boolean isFloating() {
        return this == FLOAT || this == DOUBLE;
    }

    public boolean isIntegral() {
        return this == BYTE || this == SHORT || this == CHAR || this == INT || this == LONG;
    }

    public boolean isNumeric() {
        return isFloating() || isIntegral();
    }

    public String javaName() {
        return this == UNKNOWN ? "?" : name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Binary numeric promotion (JLS 5.6.2); UNKNOWN when it cannot be decided. */
    public static NumType promote(NumType a, NumType b) {
        if (a == DOUBLE || b == DOUBLE) return DOUBLE;
        if (a == UNKNOWN || b == UNKNOWN) return UNKNOWN;
        if (!a.isNumeric() || !b.isNumeric()) return OTHER;
        if (a == FLOAT || b == FLOAT) return FLOAT;
        if (a == LONG || b == LONG) return LONG;
        return INT;
    }

    public static NumType of(ITypeBinding b) {
        if (b == null) return UNKNOWN;
        if (b.isPrimitive()) return ofName(b.getName());
        switch (b.getQualifiedName()) {
            case "java.lang.Double":
                return DOUBLE;
            case "java.lang.Float":
                return FLOAT;
            case "java.lang.Integer":
                return INT;
            case "java.lang.Long":
                return LONG;
            case "java.lang.Short":
                return SHORT;
            case "java.lang.Byte":
                return BYTE;
            case "java.lang.Character":
                return CHAR;
            case "java.lang.Boolean":
                return BOOLEAN;
            default:
                return OTHER;
        }
    }

    public static NumType ofName(String n) {
        switch (n) {
            case "byte":
            case "Byte":
                return BYTE;
            case "short":
            case "Short":
                return SHORT;
            case "char":
            case "Character":
                return CHAR;
            case "int":
            case "Integer":
                return INT;
            case "long":
            case "Long":
                return LONG;
            case "float":
            case "Float":
                return FLOAT;
            case "double":
            case "Double":
                return DOUBLE;
            case "boolean":
            case "Boolean":
                return BOOLEAN;
            case "void":
                return OTHER;
            default:
                return OTHER;
        }
    }

    public static NumType of(PrimitiveType.Code c) {
        return ofName(c.toString());
    }
}
