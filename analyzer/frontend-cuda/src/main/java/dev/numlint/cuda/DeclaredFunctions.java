package dev.numlint.cuda;

import dev.numlint.model.DeclaredFunction;
import java.util.ArrayList;
import java.util.List;

/**
 * The functions a file and the project headers it reads define or declare ({@link FileScope#functions}), as the
 * scan's typed facts ({@link dev.numlint.spi.ScanContext#addFunctions}): the checks' reviews judge a finding of one
 * function against the others (a float routine whose double twin the project defines).
 */
final class DeclaredFunctions {
    private DeclaredFunctions() {}

    /** The functions of {@code scope}, each with the floating type its signature shows, sorted by name. */
    static List<DeclaredFunction> of(String rel, FileScope scope) {
        List<DeclaredFunction> out = new ArrayList<>();
        for (List<FileScope.FuncSig> sigs : scope.functions.values()) {
            for (FileScope.FuncSig f : sigs) {
                String name = f.name();
                int q = name.lastIndexOf("::");
                if (q >= 0) name = name.substring(q + 2);
                if (name.isEmpty()) continue;
                out.add(new DeclaredFunction(rel, name, floating(f), f.device() || f.global()));
            }
        }
        out.sort(java.util.Comparator.comparing(DeclaredFunction::name)
                .thenComparing(d -> String.valueOf(d.floating())));
        return out;
    }

    /** The first floating parameter's type (the element of a pointer or vector), else a floating return type. */
    static String floating(FileScope.FuncSig f) {
        for (CType p : f.params()) {
            String t = kind(p);
            if (t != null) return t;
        }
        return kind(f.ret());
    }

    private static String kind(CType t) {
        for (int depth = 0; t != null && depth < 8; depth++) {
            switch (t.kind) {
                case FLOAT:
                    return "float";
                case DOUBLE:
                    return "double";
                case LONG_DOUBLE:
                    return "long double";
                case HALF:
                    return "half";
                case POINTER:
                case VECTOR:
                    t = t.elem;
                    break;
                default:
                    return null;
            }
        }
        return null;
    }
}
