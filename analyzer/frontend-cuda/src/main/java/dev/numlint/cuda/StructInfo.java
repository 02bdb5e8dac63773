package dev.numlint.cuda;

import java.util.HashMap;
import java.util.Map;

/** Fields and method return types of a struct/class known from the project's sources. */
final class StructInfo {
    final String name;
    final Map<String, CType> fields = new HashMap<>();
    final Map<String, CType> methods = new HashMap<>();
    /**
     * For an anonymous struct or union nested in a class ({@code union { long double p[2]; struct { long double re,
     * im; }; }}): the class its members belong to, whose one choice they are; null otherwise.
     */
    String owner;

    /** The class a long double member of this one belongs to. */
    String ownerName() {
        return owner != null ? owner : name;
    }

    StructInfo(String name) {
        this.name = name;
    }
}
