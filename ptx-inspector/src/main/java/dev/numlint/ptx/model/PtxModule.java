package dev.numlint.ptx.model;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A parsed PTX module: header directives, the .file table, module-level variables and functions.
 *
 * @param version      .version (e.g. "9.0"), or null
 * @param target       .target architecture (e.g. "sm_90a"), or null
 * @param targetOptions further .target entries (texmode_independent, debug, map_f64_to_f32)
 * @param addressSize  .address_size (32 or 64; 64 when absent)
 * @param files        .file index -> path as written
 * @param variables    module-level variables in declaration order (with layouts and initial bytes)
 * @param functions    functions in declaration order (prototypes included, see {@link PtxFunction#isDeclarationOnly()})
 */
public record PtxModule(
        String version,
        String target,
        List<String> targetOptions,
        int addressSize,
        Map<Integer, String> files,
        List<Variable> variables,
        List<PtxFunction> functions) {
    public PtxModule {
        targetOptions = List.copyOf(targetOptions);
        files = Collections.unmodifiableMap(files);
        variables = List.copyOf(variables);
        functions = List.copyOf(functions);
    }

    /** The function with a body named {@code name} (or a prototype when no body exists), or null. */
    public PtxFunction function(String name) {
        PtxFunction decl = null;
        for (PtxFunction f : functions) {
            if (f.name().equals(name)) {
                if (!f.isDeclarationOnly()) return f;
                decl = f;
            }
        }
        return decl;
    }

    public Variable variable(String name) {
        for (Variable v : variables) if (v.name().equals(name)) return v;
        return null;
    }

    /** Functions with bodies. */
    public List<PtxFunction> definedFunctions() {
        return functions.stream().filter(f -> !f.isDeclarationOnly()).toList();
    }
}
