package dev.numlint.cuda;

import java.util.HashMap;
import java.util.Map;

/** Fields and method return types of a struct/class known from the project's sources. */
final class StructInfo {
    final String name;
    final Map<String, CType> fields = new HashMap<>();
    final Map<String, CType> methods = new HashMap<>();

    StructInfo(String name) {
        this.name = name;
    }
}
