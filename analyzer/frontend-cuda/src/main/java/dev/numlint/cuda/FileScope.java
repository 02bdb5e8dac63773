package dev.numlint.cuda;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Names declared at file level (and in included project headers): types, structs, functions, globals. */
final class FileScope {
    /** A user function's signature; {@code global}: a kernel ({@code __global__}). */
    record FuncSig(String name, CType ret, List<CType> params, boolean device, boolean host, boolean global) {}

    /** A variable: its type and, for constants, its value. */
    record Var(String name, CType type, Double constValue, int line) {}

    final Map<String, CType> typedefs = new HashMap<>();
    final Map<String, StructInfo> structs = new HashMap<>();
    final Map<String, List<FuncSig>> functions = new HashMap<>();

    /** The names of {@link #functions} without a class or namespace qualifier. */
    java.util.Set<String> functionNames() {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (String k : functions.keySet()) {
            int q = k.lastIndexOf("::");
            out.add(q < 0 ? k : k.substring(q + 2));
        }
        return out;
    }

    final Map<String, Var> globals = new HashMap<>();
    /**
     * Functions that define what a pointer parameter points to before reading it ({@code *tnear = t;} at the top
     * level of the body): by name, the indices of those parameters. A call passing {@code &v} there gives {@code v}
     * a new value.
     */
    final Map<String, java.util.BitSet> outParams = new HashMap<>();
    /** Functions whose returned value is computed from a random draw ({@link RandomDraws#returnsDraw}). */
    final Set<String> randomFunctions = new HashSet<>();
    /**
     * Parameters that hold a random variate at every call site of the translation unit ({@link
     * RandomDraws#propagate}): by function name, for each parameter index, the keys relative to the parameter
     * ({@code ""} the value itself or the whole pointee, {@code "x"} the pointee's member x).
     */
    final Map<String, List<Set<String>>> variateParams = new HashMap<>();
    /** What a function writes through its pointer parameters that is a random variate: keys as in variateParams. */
    final Map<String, List<Set<String>>> variateWrites = new HashMap<>();
    /**
     * Whether the translation unit calls a random generator anywhere ({@link RandomDraws#propagate}): only then can
     * its values be random variates. True until propagate has looked.
     */
    boolean draws = true;

    void mergeFrom(FileScope o) {
        typedefs.putAll(o.typedefs);
        structs.putAll(o.structs);
        for (Map.Entry<String, List<FuncSig>> e : o.functions.entrySet()) {
            functions.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).addAll(e.getValue());
        }
        globals.putAll(o.globals);
        outParams.putAll(o.outParams);
        randomFunctions.addAll(o.randomFunctions);
        variateParams.putAll(o.variateParams);
        variateWrites.putAll(o.variateWrites);
    }

    void addFunction(FuncSig f) {
        List<FuncSig> l = functions.computeIfAbsent(f.name(), k -> new ArrayList<>());
        // a declaration and its definition are one function; two parameter lists of one arity are overloads, both
        // kept, so that a call of either is known to need overload resolution (CallResults)
        for (FuncSig g : l) {
            if (g.ret().name.equals(f.ret().name) && paramNames(g).equals(paramNames(f))) return;
        }
        l.add(f);
    }

    private static List<String> paramNames(FuncSig f) {
        return f.params().stream().map(t -> t.name).toList();
    }

    boolean isTypeName(String n) {
        return typedefs.containsKey(n) || structs.containsKey(n) || Builtins.TYPES.containsKey(n);
    }

    CType lookupType(String n) {
        CType t = typedefs.get(n);
        if (t != null) return t;
        if (structs.containsKey(n)) return CType.struct(n);
        return Builtins.TYPES.get(n);
    }
}
