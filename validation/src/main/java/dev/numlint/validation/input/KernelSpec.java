package dev.numlint.validation.input;

import java.util.ArrayList;
import java.util.List;

/** How to launch one kernel: grid, block, dynamic shared memory, parameters in order. */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
public final class KernelSpec {
    /** Kernel name as in the PTX (mangled for C++). */
    public String kernel;
    /** Elements per input set (array length default and value of length scalars). */
    public Integer elements;
    /** Grid; null: ceil(elements / block[0]) blocks in x. */
    public int[] grid;

    public int[] block = {256, 1, 1};
    public int sharedBytes;
    public List<ParamSpec> params = new ArrayList<>();
    /** Where this spec came from: "spec file" or "inferred from the PTX". */
    public String source = "spec file";

    public KernelSpec() {}

    public int[] gridFor(int n) {
        if (grid != null) return pad(grid);
        int[] b = pad(block);
        return new int[] {Math.max(1, (n + b[0] - 1) / b[0]), 1, 1};
    }

    public static int[] pad(int[] v) {
        int[] r = {1, 1, 1};
        for (int i = 0; i < Math.min(3, v.length); i++) r[i] = v[i];
        return r;
    }
}
