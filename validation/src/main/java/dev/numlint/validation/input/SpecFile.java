package dev.numlint.validation.input;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The validation spec file (YAML):
 * <pre>
 * kernels:
 *   - kernel: square_plus
 *     elements: 65536
 *     block: [256, 1, 1]
 *     params:
 *       - {name: a, kind: array, type: f32, direction: in, distribution: {kind: uniform, min: -1, max: 1}}
 *       - {name: b, kind: array, type: f32, direction: in}
 *       - {name: r, kind: array, type: f32, direction: out}
 *       - {name: n, kind: scalar, type: s32}
 * </pre>
 */
public final class SpecFile {
    public List<KernelSpec> kernels = new ArrayList<>();

    public static SpecFile read(Path file) throws IOException {
        ObjectMapper m =
                new ObjectMapper(new YAMLFactory()).configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
        SpecFile f = m.readValue(file.toFile(), SpecFile.class);
        if (f == null) f = new SpecFile(); // an empty document (e.g. a lone tag "!"): no kernel specified (fuzzing)
        if (f.kernels == null) f.kernels = new ArrayList<>();
        f.kernels.removeIf(java.util.Objects::isNull); // "kernels: [ - ]": an empty entry specifies nothing
        for (KernelSpec k : f.kernels) {
            if (k.params == null) k.params = new ArrayList<>();
            k.params.removeIf(java.util.Objects::isNull);
        }
        return f;
    }

    /** This spec as YAML that {@link #read} reads back. */
    public String toYaml() throws IOException {
        ObjectMapper m = new ObjectMapper(new YAMLFactory());
        return "# numlint validate --write-spec: the launch each kernel ran with; edit and pass back with --spec\n"
                + m.writeValueAsString(this);
    }

    /** The spec for a kernel: by its PTX name, or by the source name inside a C++ mangled name (_Z6squarePfS_i). */
    public KernelSpec find(String kernel) {
        for (KernelSpec k : kernels) if (kernel.equals(k.kernel)) return k;
        for (KernelSpec k : kernels) {
            if (k.kernel != null && kernel.startsWith("_Z" + k.kernel.length() + k.kernel)) return k;
        }
        return null;
    }
}
